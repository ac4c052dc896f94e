"""Live dashboards (ipywidgets). Importing this module imports ipywidgets."""
