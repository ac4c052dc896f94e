"""Notebook 07 shows its dashboards where widgets do not run.

Saved with the widget state (nbclient ``store_widget_state=True``), JupyterLab
and nbconvert can draw every dashboard the notebook shows without a kernel;
each dashboard output also carries a static ``text/html`` snapshot and a
readable ``text/plain``, for renderers without widgets (GitHub), instead of
the bare ``VBox(...)``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "07-teaching-dashboards.ipynb"
)
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
REFERENCE = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


@pytest.fixture(scope="module")
def notebook() -> dict:
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def views(notebook: dict) -> list[dict]:
    return [
        output["data"]
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
        if VIEW in output.get("data", {})
    ]


def test_every_widget_view_has_its_state(notebook):
    shown = views(notebook)
    assert len(shown) == 3  # the Bayesian, frequentist and rank dashboards
    state = notebook["metadata"]["widgets"][STATE]["state"]
    for data in shown:
        # the view's model and every model it refers to (children, layouts,
        # styles), transitively: all saved
        todo, seen = [data[VIEW]["model_id"]], set()
        while todo:
            model_id = todo.pop()
            if model_id in seen:
                continue
            assert model_id in state, f"model {model_id} of a shown view not saved"
            seen.add(model_id)
            todo.extend(REFERENCE.findall(json.dumps(state[model_id]["state"])))
        assert len(seen) > 20  # a whole dashboard, not an empty box


def test_every_dashboard_has_a_static_fallback(notebook):
    for data in views(notebook):
        text = data["text/plain"]
        text = "".join(text) if isinstance(text, list) else text
        assert "Dashboard of 4 algorithms on 14 cases" in text
        assert not text.startswith("VBox(")
        html = data["text/html"]
        html = "".join(html) if isinstance(html, list) else html
        assert "static snapshot" in html
        assert "<img" in html  # the picture
        assert "<script" not in html
