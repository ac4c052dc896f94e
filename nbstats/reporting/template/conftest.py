# The template files are the report notebook's code, read as text by
# nbstats.reporting.notebook_template: pytest must not import them (as
# --doctest-modules would) -- their cells need the notebook's names.
collect_ignore_glob = ["*.py"]
