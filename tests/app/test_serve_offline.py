"""The dashboard's pages fetch nothing from another host (issue 34).

Voilà's lab template links Font Awesome from cdn.jsdelivr.net, so the served
dashboard was not offline. ``nbstats dashboard`` serves it with the template
``nbstats-offline`` (:func:`nbstats.app.voila.use_offline_template`);
the browser test (tests/widgets/test_browser.py) records every request of the
served page and of an error page. Here, without a browser: Voilà's error page
(what a page load beyond the kernel cap gets, HTTP 503) rendered as Voilà
renders it, with Voilà's own template paths for the template.
"""

from __future__ import annotations

import os
import re
import urllib.parse

import pytest

pytest.importorskip("voila")
jinja2 = pytest.importorskip("jinja2")

from voila.paths import collect_template_paths  # noqa: E402

from nbstats.app import voila as serve_voila  # noqa: E402
from nbstats.app.process import VOILA_CONFIG  # noqa: E402

#: A URL in an attribute or a CSS url(): anything the page would fetch.
URL = re.compile(r"""(?:href|src)=["']([^"']+)|url\(["']?([^"')]+)""")


def _outside(markup: str) -> list[str]:
    found = [a or b for a, b in URL.findall(markup)]
    return [
        u
        for u in found
        if urllib.parse.urlsplit(u).hostname not in (None, "127.0.0.1", "localhost")
    ]


def _error_page(template: str, status: int = 503) -> str:
    """Voilà's error page of ``template``, rendered from Voilà's template paths."""
    paths = collect_template_paths(["voila", "nbconvert"], template, prune=True)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(paths), extensions=["jinja2.ext.i18n"]
    )
    env.install_null_translations()
    return env.get_template("error.html").render(
        status_code=status,
        status_message="Service Unavailable",
        base_url="/",
        theme="light",
        include_css=lambda name: f'<link rel="stylesheet" href="/voila/{name}">',
        include_lab_theme=lambda theme: "",
    )


@pytest.fixture
def offline_template(monkeypatch):
    """What Voilà's process does with nbstats' voila.py."""
    from traitlets.config import Config

    monkeypatch.setenv("JUPYTER_PATH", os.environ.get("JUPYTER_PATH", ""))
    config = Config()
    serve_voila.use_offline_template(config)
    return config.VoilaConfiguration.template


def test_voila_config_uses_the_offline_template():
    assert "use_offline_template(c)" in VOILA_CONFIG.splitlines()


def test_error_page_fetches_nothing_from_another_host(offline_template):
    assert offline_template == serve_voila.TEMPLATE
    page = _error_page(offline_template)
    assert "503: Service Unavailable" in page and "/voila/static/index.css" in page
    assert not _outside(page), _outside(page)
    # Voilà's own lab template would link Font Awesome from a CDN
    assert any("cdn.jsdelivr.net" in u for u in _outside(_error_page("lab")))


def test_the_templates_name_no_other_host():
    folder = serve_voila.TEMPLATE_ROOT / "voila" / "templates" / serve_voila.TEMPLATE
    files = sorted(folder.iterdir())
    assert {f.name for f in files} == {"conf.json", "index.html.j2", "page.html"}
    for path in files:
        assert not _outside(path.read_text(encoding="utf-8")), path
