"""Results' HTML in a real browser (Debian's Chromium under Playwright), as
JupyterLab shows it: 320 px and 900 px wide outputs, light and dark theme.

The page reproduces JupyterLab's rendered-HTML table rules and its theme
variables (``--jp-*``, light and dark values of JupyterLab 4), then shows
Friedman, Nemenyi, the Bayesian signed-rank test with a rope on long names,
the Bayesian Friedman test, rank intervals, Wilcoxon and the pairs table. For
every output it asserts that

- every grid row's label and value start on the same line (same top), and the
  label stays left of its value;
- no element is wider than its box (``scrollWidth <= clientWidth``) except
  inside a table's own scroll box, and the page has no horizontal scroll;
- every piece of text has a contrast of at least 4.5:1 against the background
  it is drawn on (both themes; the task asks it of the dark one).

Screenshots: ``tests/artifacts/results-html-{light,dark}.png``. Skipped without
Chromium or Playwright, unless NBSTATS_REQUIRE_ORACLES=1 (CI), where it runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import nbstats
from tests.results.conftest import LONG_NAMES, scores

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
WIDTHS = (320, 900)

#: JupyterLab 4's theme variables that result.css and the table rules use.
THEMES = {
    "light": {
        "--jp-layout-color0": "#ffffff",
        "--jp-layout-color1": "#ffffff",
        "--jp-layout-color2": "#eeeeee",
        "--jp-ui-font-color0": "rgba(0, 0, 0, 1)",
        "--jp-ui-font-color1": "rgba(0, 0, 0, 0.87)",
        "--jp-ui-font-color2": "rgba(0, 0, 0, 0.54)",
        "--jp-content-font-color1": "rgba(0, 0, 0, 0.87)",
        "--jp-border-color1": "#bdbdbd",
        "--jp-border-color2": "#e0e0e0",
        "--jp-rendermime-table-row-background": "#f5f5f5",
        "--jp-rendermime-table-row-hover-background": "rgba(3, 169, 244, 0.2)",
    },
    "dark": {
        "--jp-layout-color0": "#111111",
        "--jp-layout-color1": "#212121",
        "--jp-layout-color2": "#424242",
        "--jp-ui-font-color0": "rgba(255, 255, 255, 1)",
        "--jp-ui-font-color1": "rgba(255, 255, 255, 0.87)",
        "--jp-ui-font-color2": "rgba(255, 255, 255, 0.54)",
        "--jp-content-font-color1": "rgba(255, 255, 255, 1)",
        "--jp-border-color1": "#616161",
        "--jp-border-color2": "#424242",
        "--jp-rendermime-table-row-background": "#212121",
        "--jp-rendermime-table-row-hover-background": "rgba(3, 169, 244, 0.2)",
    },
}

#: JupyterLab's rules for rendered HTML outputs (rendermime/style/base.css).
JUPYTERLAB_CSS = """
body { margin: 0; padding: 16px; background: var(--jp-layout-color0);
       color: var(--jp-ui-font-color1); font-family: sans-serif; font-size: 13px; }
.columns { display: flex; gap: 24px; align-items: flex-start; }
.jp-OutputArea-output { background: var(--jp-layout-color0); padding: 4px;
       outline: 1px dashed var(--jp-border-color2); }
.jp-RenderedHTMLCommon table { border-collapse: collapse; border-spacing: 0;
       border: none; color: var(--jp-ui-font-color1); font-size: 12px;
       table-layout: fixed; margin-left: auto; margin-bottom: 1em; margin-right: auto; }
.jp-RenderedHTMLCommon thead { border-bottom: 1px solid var(--jp-border-color1);
       vertical-align: bottom; }
.jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th, .jp-RenderedHTMLCommon tr {
       vertical-align: middle; padding: 0.5em; line-height: normal;
       white-space: normal; max-width: none; border: none; text-align: right; }
.jp-RenderedHTMLCommon th { font-weight: bold; }
.jp-RenderedHTMLCommon tbody tr:nth-child(odd) { background: var(--jp-layout-color0); }
.jp-RenderedHTMLCommon tbody tr:nth-child(even) {
       background: var(--jp-rendermime-table-row-background); }
.jp-RenderedHTMLCommon tbody tr:hover {
       background: var(--jp-rendermime-table-row-hover-background); }
"""

#: Measures the page; returns a list of problems (empty when all is well).
CHECKS_JS = """
() => {
  const problems = [];
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {  // top colour composited over an opaque bottom
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const background = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];  // the canvas
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const outputs = document.querySelectorAll('.jp-OutputArea-output');
  for (const output of outputs) {
    const where = output.dataset.name + ' @ ' + output.dataset.width + 'px';
    // 1. label and value of every grid row share their top: the cells' boxes
    //    and the first line of their text
    const firstLine = (el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        return range.getClientRects()[0].bottom;
      }
      return NaN;
    };
    for (const row of output.querySelectorAll('.nbstats-row')) {
      const dtEl = row.querySelector('dt'), ddEl = row.querySelector('dd');
      const dt = dtEl.getBoundingClientRect(), dd = ddEl.getBoundingClientRect();
      const lines = [firstLine(dtEl), firstLine(ddEl)];
      if (Math.abs(dt.top - dd.top) > 0.5 || Math.abs(lines[0] - lines[1]) > 1 ||
          dt.right > dd.left + 0.5) {
        problems.push(`${where}: row "${row.textContent.slice(0, 60)}" misaligned ` +
                      `(label top ${dt.top}, value top ${dd.top}, first lines ` +
                      `end at ${lines})`);
      }
    }
    // 2. nothing overflows its box outside a designated scroll box
    for (const el of [output, ...output.querySelectorAll('*')]) {
      if (el.closest('.nbstats-scroll') && !el.classList.contains('nbstats-scroll')) continue;
      if (el.tagName === 'STYLE') continue;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 &&
          !el.classList.contains('nbstats-scroll')) {
        problems.push(`${where}: <${el.tagName.toLowerCase()} class="${el.className}"> ` +
                      `overflows (${el.scrollWidth} > ${el.clientWidth})`);
      }
      const box = el.getBoundingClientRect(), out = output.getBoundingClientRect();
      if (box.right > out.right + 1 && box.width > 0) {
        problems.push(`${where}: <${el.tagName.toLowerCase()}> sticks out of the output`);
      }
    }
    // 3. contrast of every piece of text against what it is drawn on
    const walker = document.createTreeWalker(output, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || el.closest('style')) continue;
      const bg = background(el);
      const fg = over(parse(getComputedStyle(el).color), bg);
      const ratio = contrast(fg, bg);
      if (ratio < 4.5) {
        problems.push(`${where}: "${node.textContent.trim().slice(0, 40)}" ` +
                      `contrast ${ratio.toFixed(2)} < 4.5`);
      }
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth) {
    problems.push('the page scrolls horizontally');
  }
  return problems;
}
"""


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    """The HTML of the results the task names, on long algorithm names."""
    table = scores(LONG_NAMES)
    a, b = table.columns[:2]
    draws = {"n_samples": 2000, "random_state": 0}
    results = {
        "friedman": nbstats.friedman(table),
        "nemenyi": nbstats.posthoc(table, method="nemenyi"),
        "bayes_signrank (rope)": nbstats.bayes_signrank(
            table[a], table[b], rope=0.01, **draws
        ),
        "bayes_friedman": nbstats.bayes_friedman(table),
        "rank_ci": nbstats.rank_ci(table),
        "wilcoxon": nbstats.wilcoxon(table[a], table[b]),
        "bayes_signrank_pairs": nbstats.bayes_signrank_pairs(
            table.iloc[:, :3], rope=0.01, **draws
        ),
    }
    return {name: res._repr_html_() for name, res in results.items()}


def _page(outputs: dict[str, str], theme: str) -> str:
    variables = "".join(f"{k}: {v};" for k, v in THEMES[theme].items())
    columns = []
    for width in WIDTHS:
        cells = "".join(
            f'<div class="jp-OutputArea-output jp-RenderedHTMLCommon jp-RenderedHTML"'
            f' data-name="{name}" data-width="{width}" style="width: {width}px">'
            f"{markup}</div>"
            for name, markup in outputs.items()
        )
        columns.append(f'<div class="column">{cells}</div>')
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<style>:root {{{variables}}}{JUPYTERLAB_CSS}</style></head>"
        f"<body><div class='columns'>{''.join(columns)}</div></body></html>"
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_results_html_in_chromium(browser, outputs, theme):
    page = browser.new_page(viewport={"width": 1320, "height": 900})
    requests: list[str] = []
    page.route(
        "**/*", lambda route: (requests.append(route.request.url), route.abort())
    )
    try:
        page.set_content(_page(outputs, theme), wait_until="load")
        problems = page.evaluate(CHECKS_JS)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(
            path=str(ARTIFACTS / f"results-html-{theme}.png"), full_page=True
        )
    finally:
        page.close()
    assert problems == []
    assert requests == []  # no external CSS, JS or font


def test_a_table_wider_than_its_output_scrolls_in_its_own_box(browser, outputs):
    page = browser.new_page(viewport={"width": 1320, "height": 900})
    try:
        page.set_content(_page(outputs, "light"), wait_until="load")
        box = page.evaluate(
            """() => {
              const out = document.querySelector(
                '.jp-OutputArea-output[data-name="nemenyi"][data-width="320"]');
              const box = out.querySelector('.nbstats-scroll');
              return [box.scrollWidth, box.clientWidth,
                      getComputedStyle(box).overflowX];
            }"""
        )
    finally:
        page.close()
    scroll_width, client_width, overflow = box
    assert scroll_width > client_width  # Nemenyi's 7 columns do not fit 320 px
    assert overflow == "auto"
