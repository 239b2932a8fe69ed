"""Report.kernels_frame() and Report.layers_frame(): pandas frames of the JSON report."""

from __future__ import annotations

import sys

import pytest

import fgraph

pd = pytest.importorskip("pandas")


def test_kernels_frame_has_one_row_per_kernel(examples):
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph")
    df = r.kernels_frame()
    assert list(df["kernel"]) == [1, 2, 3]
    assert list(df["ops"]) == [g["ops"] for g in r.groups]
    assert list(df["op_count"]) == [1, 3, 1]
    assert df.loc[1, "reads"] == [t["tensor"] for t in r.groups[1]["reads"]]
    for col in ["bytes_read", "bytes_written", "flops", "intensity", "bound", "time_us"]:
        assert col in df.columns, col
    # The kernels' bytes add up to the fused plan's traffic.
    fused = r.traffic["fused"]
    assert int(df["bytes_read"].sum()) == fused["bytes_read"]
    assert int(df["bytes_written"].sum()) == fused["bytes_written"]
    assert not any(c.startswith("hw_") for c in df.columns)


def test_kernels_frame_carries_the_hardware_model(examples):
    r = fgraph.analyze(examples / "attention.fgraph", traffic_model="hardware")
    df = r.kernels_frame()
    predicted = r.cost["hardware_model"]["kernels"]
    assert list(df["hw_time_us"]) == [k["time_us"] for k in predicted]
    assert list(df["hw_family"]) == [k["family"] for k in predicted]


def test_layers_frame_of_a_model_built_from_blocks(examples):
    r = fgraph.analyze(examples / "llama3_8b.fgraph")
    df = r.layers_frame()
    assert len(df) == 33
    assert list(df["name"][:2]) == ["layers.0", "layers.1"]
    assert df["name"].iloc[-1] == "(outside blocks)" and pd.isna(df["block"].iloc[-1])
    total = r.summary["total"]
    for col in ["kernels", "ops", "bytes_read", "bytes_written", "flops"]:
        assert int(df[col].sum()) == total[col], col


def test_layers_frame_of_a_graph_without_blocks_says_so(examples):
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph")
    with pytest.raises(ValueError, match="not built from blocks"):
        r.layers_frame()


def test_without_pandas_the_frames_say_what_to_install(examples, monkeypatch):
    r = fgraph.analyze(examples / "swiglu_mlp.fgraph")
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now fails
    with pytest.raises(ImportError, match="pip install pandas"):
        r.kernels_frame()
    with pytest.raises(ImportError, match="pip install pandas"):
        r.layers_frame()
    assert r.to_dict()["graph"] == "swiglu_mlp"  # the data is there without pandas
