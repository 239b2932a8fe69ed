"""The `fgraph` console script (and `python -m fgraph`): the whole command line."""

from __future__ import annotations

import json
import subprocess
import sys

import fgraph

from conftest import run_script


def test_the_console_script_is_the_command_line(fgraph_script, examples, tmp_path):
    out = run_script(fgraph_script, ["--version"], tmp_path)
    assert out.returncode == 0 and out.stdout.strip() == f"fgraph {fgraph.__version__}"
    out = run_script(fgraph_script, ["check", str(examples / "swiglu_mlp.fgraph")], tmp_path)
    assert out.returncode == 0, out.stderr
    assert "All checks passed" in out.stderr
    bad = tmp_path / "bad.fgraph"
    bad.write_text("graph g {\n  op a = elementwise.relu(x) -> y\n}\n")
    out = run_script(fgraph_script, ["check", str(bad)], tmp_path)
    assert out.returncode == 1 and "fgraph::undefined-tensor" in out.stderr
    out = run_script(fgraph_script, ["analyze"], tmp_path)
    assert out.returncode == 2 and "Usage: fgraph analyze" in out.stderr
    out = run_script(fgraph_script, ["check", str(tmp_path / "missing.fgraph")], tmp_path)
    assert out.returncode == 2


def test_standard_input_and_json(fgraph_script, examples, tmp_path):
    src = (examples / "swiglu_mlp.fgraph").read_text()
    out = run_script(fgraph_script, ["analyze", "-", "--format", "json"], tmp_path, stdin=src)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == fgraph.analyze(src).to_dict()


def test_python_dash_m_fgraph(examples, tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "fgraph", "explain", "cycle"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "cycle" in out.stdout
