"""Report._repr_html_(): the notebook view, inline and self-contained."""

from __future__ import annotations

import re
import shutil

import pytest

import fgraph

from conftest import required

GRAPHVIZ = shutil.which("dot") is not None or required("FGRAPH_REQUIRE_GRAPHVIZ")


def self_contained(html: str) -> None:
    for needle in ["<script", "<link", "@import", "url(", "<img", "<iframe", "<body", "<html"]:
        assert needle not in html, needle
    # Nothing fetched: the only URLs are the SVG namespaces.
    for url in re.findall(r"https?://[^\s\"'<>]+", html):
        assert url.startswith("http://www.w3.org/"), url
    # Every style rule is scoped to the view's own element.
    style = html.split("<style>", 1)[1].split("</style>", 1)[0]
    for rule in filter(None, style.split("}")):
        assert rule.startswith(".fgraph-nb"), rule


def test_the_view_shows_the_summary_tables_and_the_picture(examples):
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph")
    html = r._repr_html_()
    assert html is not None and html.startswith('<div class="fgraph-nb">')
    assert html.rstrip().endswith("</div>")
    self_contained(html)
    assert "<code>swiglu_mlp</code>" in html
    assert "5 ops in 3 kernels on NVIDIA H100 SXM 80GB (h100)" in html
    assert '<table id="traffic">' in html and "501,219,328" in html
    assert html.count('<tr class="kernel-row"') == 3
    if not GRAPHVIZ:
        pytest.skip("Graphviz `dot` is not installed: the view says so instead of a picture")
    # The fusion picture, inline: a cluster per kernel.
    assert '<div class="picture">\n<svg' in html
    assert html.count('class="cluster"') == 3
    assert r._repr_html_() is html  # laid out once


def test_a_graph_built_from_blocks_shows_its_blocks_and_a_note_for_a_large_plan(examples):
    r = fgraph.analyze(examples / "llama3_8b.fgraph")
    html = r._repr_html_()
    self_contained(html)
    assert '<table class="blocks">' in html and "<td class=\"ops\">decoder</td><td>32</td>" in html
    # 1,251 ops: no picture, and the kernel table stops at 200 rows, each cut said.
    assert "The plan has 1,251 ops" in html and "<svg" not in html
    assert html.count('<tr class="kernel-row"') == 200
    assert "The first 200 of 451 kernels" in html


def test_the_view_lists_warnings_escaped():
    src = "graph g {\n  input x: [64, 64]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n"
    html = fgraph.analyze(src)._repr_html_()
    assert "<summary>Diagnostics (1)</summary>" in html
    assert "tensor `spare` is declared but never used" in html
    assert "&lt;string&gt;" in html


def test_jupyter_shows_the_view(examples):
    if required("FGRAPH_REQUIRE_IPYTHON"):
        from IPython.core.formatters import DisplayFormatter
    else:
        DisplayFormatter = pytest.importorskip("IPython.core.formatters").DisplayFormatter
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph")
    data, _ = DisplayFormatter().format(r)
    assert data["text/html"] == r._repr_html_()
    assert data["text/plain"] == repr(r)
    # A report that could not be made is no view: the error is what Jupyter shows.
    with pytest.raises(fgraph.FgraphError):
        fgraph.analyze("graph g {\n  op a = elementwise.relu(x) -> y\n}\n")
