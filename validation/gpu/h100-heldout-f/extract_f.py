"""Splits batch f's ncu CSVs into measured.csv, one row per kernel (no GPU needed), with batch
d's columns and its parsing (../h100-heldout-d/extract.py's `parse_ids` and `nvtx_labels`,
imported):

  python3 validation/gpu/h100-heldout-f/extract_f.py

Columns: part (heldout, layers), case (a case of cases_f.py, or a layer), mode (`kernel` for a
single-kernel case; `compiled` or `eager` for a layer), kernel (index in its region),
plan_kernel (empty: batch f does not align compiled kernels with an Inductor launch plan),
ops, dram_read, dram_write (bytes), duration_ns (ncu's gpu__time_duration, L2 flushed before
each kernel), name.

- heldout: every kernel of a case's region computes the case's one fgraph kernel (a GEMM's
  split-K reduction, cuDNN's second kernel, with it).
- layers, eager: `ops` is the NVTX range that the layer's source line opened (batch d's
  LineLabels; the variable it assigns is the fgraph op's name), checked against
  layers_prep.json's labels, which torch.profiler took in another process.
- layers, compiled: `ops` is empty; only the region's total is compared.
"""
import csv
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DDIR = os.path.join(HERE, "..", "h100-heldout-d")
sys.path.insert(0, HERE)
from cases_f import CASES, LAYERS  # noqa: E402

sys.path.insert(0, DDIR)
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib"))
_spec = importlib.util.spec_from_file_location("extract_d", os.path.join(DDIR, "extract.py"))
X = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(X)
from summarize import val  # noqa: E402  (../h100-calib/summarize.py)


def main():
    rows = []
    cases = X.parse_ids(os.path.join(HERE, "ncu_cases.csv"))
    assert len(cases) == len(CASES), (len(cases), len(CASES))
    for c, ks in zip(CASES, cases):
        assert ks, c["case"]
        for i, (_, k) in enumerate(ks):
            rows.append(dict(part=c["part"], case=c["case"], mode="kernel", kernel=i, name=k["name"],
                             ops="+".join(X.case_ops(c)), k=k))
    nv = X.nvtx_labels(os.path.join(HERE, "ncu_layers.csv"))
    prep = json.load(open(os.path.join(HERE, "layers_prep.json")))
    regions = X.parse_ids(os.path.join(HERE, "ncu_layers.csv"))
    order = [(n, m) for n in LAYERS for m in ("compiled", "eager")]
    assert len(regions) == len(order), (len(regions), len(order))
    for (name, mode), ks in zip(order, regions):
        if mode == "eager":
            labels = [nv[i] for i, _ in ks]
            prep_labels = [e["label"] for e in prep[name]["eager"]
                           if not e["name"].startswith(("L:", "Memcpy", "Memset"))]
            assert labels == prep_labels, (name, labels, prep_labels)
        else:
            labels = [""] * len(ks)
            launched = [n for n in prep[name]["compiled"] if not n.startswith(("Memcpy", "Memset"))]
            assert [k["name"] for _, k in ks] == launched, (name, ks, launched)
        for i, ((_, k), o) in enumerate(zip(ks, labels)):
            rows.append(dict(part="layers", case=name, mode=mode, kernel=i, name=k["name"], ops=o, k=k))
    with open(os.path.join(HERE, "measured.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["part", "case", "mode", "kernel", "plan_kernel", "ops", "dram_read", "dram_write",
                    "duration_ns", "name"])
        for r in rows:
            k = r["k"]
            w.writerow([r["part"], r["case"], r["mode"], r["kernel"], "", r["ops"],
                        int(round(val(k, "dram__bytes_read.sum"))), int(round(val(k, "dram__bytes_write.sum"))),
                        int(round(val(k, "gpu__time_duration.sum") * 1e3)), k["name"].replace(",", ";")])
    print(len(rows), "kernels")


if __name__ == "__main__":
    main()
