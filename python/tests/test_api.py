"""fgraph.check and fgraph.analyze: inputs, options, results and every kind of failure."""

from __future__ import annotations

import inspect
import json
import os
import sys
from pathlib import Path

import pytest

import fgraph
from fgraph import _native

from conftest import REPO

CLEAN = "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n"
UNUSED = "graph g {\n  input x: [64, 64]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n"
BROKEN = "graph g {\n  op a = elementwise.relu(x) -> y\n  output y\n}\n"


def test_the_installed_package_is_tested_not_the_source_tree():
    installed = Path(fgraph.__file__).resolve()
    assert REPO / "python" not in installed.parents, installed
    assert (installed.parent / "py.typed").is_file()
    assert (installed.parent / "_native.pyi").is_file()
    assert fgraph.__version__ == "0.1.0"


def test_check_returns_warnings_and_raises_on_errors(examples):
    assert fgraph.check(examples / "swiglu_mlp.fgraph") == []
    warnings = fgraph.check(UNUSED)
    assert [d["code"] for d in warnings] == ["unused-tensor"]
    assert warnings[0]["severity"] == "warning" and warnings[0]["file"] == "<string>"
    assert fgraph.check(UNUSED, allow=["unused-tensor"]) == []
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.check(BROKEN)
    err = e.value
    assert err.exit_code == 1
    assert [d["code"] for d in err.diagnostics] == ["undefined-tensor"]
    d = err.diagnostics[0]
    assert (d["file"], d["line"], d["column"]) == ("<string>", 2, 27)
    assert "<string>:2:27: error[undefined-tensor]: undefined tensor `x`" in str(err)
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.check(UNUSED, deny_warnings=True)
    assert e.value.exit_code == 1 and e.value.diagnostics[0]["code"] == "unused-tensor"


def test_str_with_newline_or_brace_is_source_else_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.fgraph").write_text(UNUSED)
    assert fgraph.check("m.fgraph")[0]["file"] == "m.fgraph"
    assert fgraph.check(tmp_path / "m.fgraph")[0]["file"] == str(tmp_path / "m.fgraph")
    # One line with a brace is source (a syntax error here), not a path.
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.check("graph g {")
    assert e.value.exit_code == 1 and e.value.diagnostics[0]["code"] == "syntax-error"
    with pytest.raises(TypeError, match="expected a path"):
        fgraph.check(42)  # type: ignore[arg-type]


def test_source_goes_by_filename_with_its_fgraph_toml_and_imports(tmp_path):
    (tmp_path / "fgraph.toml").write_text('allow = ["unused-tensor"]\n')
    (tmp_path / "lib.fgraph").write_text(
        "block relu_block(N) {\n  input x: [N]\n  op r = elementwise.relu(x) -> y\n  output y\n}\n"
    )
    name = tmp_path / "model.fgraph"
    assert fgraph.check(UNUSED, filename=name) == []  # the fgraph.toml beside `name` applies
    assert len(fgraph.check(UNUSED)) == 1  # none from here
    src = (
        'import "lib.fgraph"\n\ngraph g {\n  input x: [8]\n'
        "  op b = relu_block(x, N = 8) -> y\n  output y\n}\n"
    )
    assert fgraph.analyze(src, filename=name).graph == "g"
    # SPEC §9: an import that leaves the project is refused, from source text too.
    escape = src.replace('"lib.fgraph"', '"../outside.fgraph"')
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.check(escape, filename=name)
    assert "bad-import" in [d["code"] for d in e.value.diagnostics]
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.check(tmp_path / "lib.fgraph", filename=name)
    assert e.value.exit_code == 2 and "filename names source text" in str(e.value)


def test_unreadable_inputs_exit_2(tmp_path):
    for path, why in [
        (tmp_path / "missing.fgraph", "No such file"),
        (tmp_path, "directory"),
    ]:
        with pytest.raises(fgraph.FgraphError) as e:
            fgraph.analyze(path)
        assert e.value.exit_code == 2 and e.value.diagnostics == []
        assert why in str(e.value) and str(e.value).startswith("cannot read")
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.fgraph"
        os.mkfifo(fifo)  # refused before it is opened, so nothing blocks
        with pytest.raises(fgraph.FgraphError, match="not a regular file") as e:
            fgraph.check(fifo)
        assert e.value.exit_code == 2


@pytest.mark.parametrize(
    "options, message",
    [
        ({"hardware": "h1000"}, "unknown hardware `h1000`"),
        ({"hardware": "a100", "hardware_file": "x.json"}, "cannot be used together"),
        ({"set": {"nope": 1}}, "unknown param `nope`"),
        ({"allow": "cycle"}, "only warnings can be silenced"),
        ({"allow": ["no-such-code"]}, "unknown code `no-such-code`"),
        ({"fuser": "nvfuser"}, "invalid value `nvfuser` for fuser (expected one of seed, inductor, xla, tvm)"),
        ({"max_kernel_ops": 0}, "expected a positive integer"),
        ({"traffic_model": "hardware", "hardware": "a100"}, "no hardware-model coefficients"),
        ({"causal_attention": True}, "add `--traffic-model hardware`"),
        ({"summary": True, "compare": True}, "cannot be used together"),
        ({"hardware_file": "no-such.json"}, "cannot read hardware file"),
        ({"html": "-"}, "standard output holds the JSON report"),
        ({"explain": "no_such_op"}, "no_such_op"),
        ({"max_param": "Q"}, "has no param `Q`"),
        ({"fail_on_regression": 5.0}, "give baseline too"),
        ({"baseline": "no-such.json", "fail_on_regression": 5}, "no-such.json"),
        ({"baseline": "x.json", "fail_on_regression": -1.0}, "expected a percentage from 0 to 1e9"),
        ({"collapse_repeats": True}, "give one of them"),
        ({"host_probe_us": 0}, "it must be more than 0"),
        ({"hardware": "a100", "host_probe_us": 5.0}, "no hardware model"),
    ],
)
def test_usage_errors_exit_2(examples, options, message):
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.analyze(examples / "swiglu_mlp.fgraph", **options)
    assert e.value.exit_code == 2
    assert message in str(e.value)
    assert e.value.report is None


def test_wrong_python_types_and_unknown_options_are_type_errors(examples):
    f = examples / "swiglu_mlp.fgraph"
    with pytest.raises(TypeError, match="unexpected keyword argument 'hardwre'"):
        fgraph.analyze(f, hardwre="a100")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="hardware must be a str, not int"):
        fgraph.analyze(f, hardware=100)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fail_on_regression must be a float, not str"):
        fgraph.analyze(f, baseline="old.json", fail_on_regression="5%")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="host_probe_us must be a float, not str"):
        fgraph.analyze(f, host_probe_us="7.2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="memory must be a bool"):
        fgraph.analyze(f, memory=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_kernel_ops must be an int"):
        fgraph.analyze(f, max_kernel_ops="4")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fgraph.check(f, graph="g")  # type: ignore[call-arg]
    # The native module refuses what the wrappers never send.
    with pytest.raises(TypeError, match="unexpected keyword argument 'graph'"):
        _native.check(str(f), None, {"graph": "g"})


def test_signatures_match_the_native_options():
    for fn in (fgraph.check, fgraph.analyze):
        params = set(inspect.signature(fn).parameters) - {"path_or_source"}
        assert params == set(_native.options(fn.__name__)), fn.__name__


def test_an_invalid_fgraph_toml_raises_with_its_diagnostics(tmp_path):
    cfg = REPO / "tests" / "fixtures" / "config" / "invalid-config.toml"
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.check(CLEAN, config=cfg)
    err = e.value
    assert err.exit_code == 2
    assert len(err.diagnostics) == 3
    assert all(d["file"].endswith("invalid-config.toml") for d in err.diagnostics)
    assert "h10" in err.messages


def test_analyze_gives_the_json_report_as_attributes(examples):
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph")
    assert r.graph == "swiglu_mlp"
    assert [o["name"] for o in r.ops][:2] == ["gate_proj", "up_proj"]
    assert len(r.groups) == 3 and r.boundaries
    assert r.traffic["fused"]["total"] == 501_219_328
    assert r.savings_pct == pytest.approx(26.4615, abs=1e-3)
    assert r.diagnostics == []
    assert r.cost["hardware"]["name"] == "h100"
    assert r["graph"] == "swiglu_mlp" and "groups" in r.keys() and "groups" in dir(r)
    d = r.to_dict()
    d["graph"] = "changed"
    assert r.graph == "swiglu_mlp"  # a copy
    with pytest.raises(AttributeError, match="has no `nonsense`"):
        r.nonsense
    assert repr(r) == (
        "<fgraph.Report graph='swiglu_mlp': 5 ops, 3 kernels, 26.46% of HBM traffic saved by fusion>"
    )


def test_options_are_the_command_line_flags(examples, fgraph_script):
    import json

    from conftest import run_script

    cases = [
        ("swiglu_mlp.fgraph", {}, []),
        ("swiglu_mlp.fgraph", {"hardware": "a100", "launch": "eager"}, ["--hardware", "a100", "--launch", "eager"]),
        ("attention.fgraph", {"flash_attention": True}, ["--flash-attention"]),
        (
            "attention.fgraph",
            {"traffic_model": "hardware", "runtime": "compile", "fuser": "inductor"},
            ["--traffic-model", "hardware", "--runtime", "compile", "--fuser", "inductor"],
        ),
        ("mixtral_moe.fgraph", {"horizontal": True}, ["--horizontal"]),
        ("mixtral_moe.fgraph", {"horizontal": "grouped-gemm"}, ["--horizontal", "grouped-gemm"]),
        ("swiglu_mlp.fgraph", {"policy": "recompute", "max_kernel_ops": 2}, ["--policy", "recompute", "--max-kernel-ops", "2"]),
        ("gpt2_small.fgraph", {"set": {"S": 128}, "summary": True, "ledger": True, "hints": True}, ["--set", "S=128", "--summary", "--ledger", "--hints"]),
        ("swiglu_mlp.fgraph", {"compare": True}, ["--compare"]),
        (
            "llama3_8b_decode.fgraph",
            {"runtime": "compile", "launch": "eager", "host_probe_us": 14.42},
            ["--runtime", "compile", "--launch", "eager", "--host-probe-us", "14.42"],
        ),
        ("swiglu_mlp.fgraph", {"explain": "silu"}, ["--explain", "silu"]),
        (
            "llama3_8b_decode.fgraph",
            {"memory": True, "max_param": "B", "breakdown": True},
            ["--memory", "--max-param", "B", "--breakdown"],
        ),
    ]
    for name, options, flags in cases:
        path = examples / name
        ours = fgraph.analyze(path, **options).to_dict()
        cli = run_script(fgraph_script, ["analyze", str(path), "--format", "json", *flags], examples)
        assert cli.returncode == 0, cli.stderr
        assert ours == json.loads(cli.stdout), (name, options)


def test_a_file_of_several_graphs_needs_graph(tmp_path):
    two = CLEAN + CLEAN.replace("graph g", "graph h")
    with pytest.raises(fgraph.FgraphError, match="holds 2 graphs; choose one") as e:
        fgraph.analyze(two)
    assert e.value.exit_code == 2
    assert fgraph.analyze(two, graph="h").graph == "h"
    with pytest.raises(fgraph.FgraphError, match="no graph `k`"):
        fgraph.analyze(two, graph="k")


def test_a_failed_assertion_raises_with_the_report():
    src = (
        "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n  op m1 = matmul(x, w) -> a\n"
        "  op m2 = matmul(a, w) -> b\n  assert fused(m1, m2)\n  output b\n}\n"
    )
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.analyze(src)
    err = e.value
    assert err.exit_code == 1
    assert err.report is not None and len(err.report.groups) == 2
    assert any(d["severity"] == "error" for d in err.diagnostics)
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.analyze(UNUSED, deny_warnings=True)
    assert e.value.report is not None and e.value.report.graph == "g"


def test_files_are_written_as_the_command_line_writes_them(tmp_path, examples):
    r = fgraph.analyze(
        examples / "swiglu_mlp.fgraph", dot=tmp_path / "plan.dot", roofline=str(tmp_path / "roof.svg")
    )
    assert r.graph == "swiglu_mlp"
    assert (tmp_path / "plan.dot").read_text().startswith("digraph")
    assert "<svg" in (tmp_path / "roof.svg").read_text()
    # SPEC §9: a directory at an output path is refused.
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.analyze(examples / "swiglu_mlp.fgraph", dot=tmp_path)
    assert e.value.exit_code == 2 and "cannot write DOT" in str(e.value)


def test_memory_and_breakdown_are_keys_of_the_report(examples):
    r = fgraph.analyze(examples / "llama3_8b_decode.fgraph", memory=True, max_param="B")
    assert r.memory["weight_bytes"] == 16_060_522_496 and r.memory["fits"] is True
    assert r.memory["max_param"]["param"] == "B" and r.memory["max_param"]["largest"] >= 1
    assert "breakdown" not in r.keys()
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph", breakdown=True, traffic_model="hardware")
    assert "memory" not in r.keys()
    models = r.breakdown["models"]
    assert [m["model"] for m in models] == ["compulsory", "hardware"]
    for m in models:
        total = sum(f["time_s"] for f in m["families"]) + m["launch_s"]
        assert total == pytest.approx(m["total_s"], rel=1e-9)
    assert len(r.breakdown["kernel_families"]) == len(r.groups)
    assert r.breakdown["families"][0] == "matmul"


def test_a_regression_against_the_baseline_raises_as_the_command_line_exits(tmp_path, fgraph_script):
    from conftest import run_script

    old_src = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n  op m = matmul(x, w) -> y\n  op r = elementwise.relu(y) -> z\n  op e = elementwise.exp(z) -> o\n  output o\n}\n"
    # `z` becomes an output too: its kernel writes it to HBM, more traffic and time.
    new_src = old_src.replace("output o", "output o, z")
    old = tmp_path / "old.json"
    old.write_text(json.dumps(fgraph.analyze(old_src).to_dict()))
    new = tmp_path / "new.fgraph"
    new.write_text(new_src)
    # Compared, within the threshold or without one: the `baseline` key, no failure.
    r = fgraph.analyze(new, baseline=old)
    assert r.baseline["traffic"]["pct"] > 5 and r.baseline["regressions"] == []
    assert fgraph.analyze(new, baseline=str(old), fail_on_regression=1e6).baseline["regressions"] == []
    with pytest.raises(fgraph.FgraphError) as e:
        fgraph.analyze(new, baseline=old, fail_on_regression=5.0)
    cli = run_script(
        fgraph_script,
        ["analyze", str(new), "--format", "json", "--baseline", str(old), "--fail-on-regression", "5"],
        tmp_path,
    )
    assert e.value.exit_code == cli.returncode == 1
    assert e.value.report is not None and e.value.report.to_dict() == json.loads(cli.stdout)
    assert "::error file=" in e.value.messages and "::error file=" in cli.stderr
    assert "::error" in str(e.value)
