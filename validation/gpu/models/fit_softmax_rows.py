"""Fits `model.softmax_row_cols_per_s` (issue 24, VALIDATION.md §41): the columns a second one
warp of PyTorch's own softmax (`softmax_warp_forward`, a warp per row of at most 2,048 columns)
gets through on its row, a floor on the kernel's compute term (a row's latency) that a short
grid reaches: decode's few hundred rows.

Every warp-softmax kernel of an eager step of batches 1-14 whose profiler trace
(`data*/kernels_models.csv`) pairs one to one, in launch order, with the runtime's softmax
kernels is priced by the built binary with the h100 preset and `softmax_row_cols_per_s` from a
grid (none, then 0.1 to 1 G columns/s); the grid's best by the mean squared log error of the
traced times is taken. Batches 15-23's traces are reported, not fitted on.

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_softmax_rows.py [--write]
"""
import argparse
import csv
import json
import math
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import fit_derate

FIT = range(1, 15)
REPORT = range(15, 24)
GRID = (None, 0.1e9, 0.15e9, 0.2e9, 0.22e9, 0.24e9, 0.26e9, 0.28e9, 0.3e9, 0.35e9, 0.4e9, 0.5e9, 0.7e9, 1e9)


def traced_softmaxes(preset, cols_per_s):
    """(batch, case, predicted_us, traced_us) of every softmax kernel paired with its trace."""
    trace = {}
    for b in list(FIT) + list(REPORT):
        path = os.path.join(fit_derate.HERE, "data" if b == 1 else f"data{b}", "kernels_models.csv")
        if os.path.exists(path):
            for r in csv.DictReader(open(path)):
                if r["runtime"] == "eager" and ("softmax_warp_forward" in r["name"] or "SoftMaxForward" in r["name"]):
                    trace.setdefault(r["case"], []).append(r)
    cases = [c for c in json.load(open(os.path.join(fit_derate.HERE, "cases.json")))["cases"] if c["case"] in trace]
    j = json.loads(json.dumps(preset))
    j["model"].pop("softmax_row_cols_per_s", None)
    if cols_per_s:
        j["model"]["softmax_row_cols_per_s"] = cols_per_s
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(j, fh)

    def run(c):
        return c, fit_derate.runtime_of(fh.name, c, "eager")["per_kernel"]

    try:
        with ThreadPoolExecutor(2) as ex:
            priced = list(ex.map(run, cases))
    finally:
        os.unlink(fh.name)
    out = []
    for c, kernels in priced:
        mine = [k for k in kernels if k["family"] == "softmax" and k["what"] == "kernel"]
        theirs = trace[c["case"]]
        if len(mine) == len(theirs):
            out += [(int(c["batch"]), c["case"], k["kernel_us"], float(r["duration_us"])) for k, r in zip(mine, theirs)]
    return out


def error(rows, batches):
    sel = [(p, t) for b, _, p, t in rows if b in batches]
    return sum(math.log(t / p) ** 2 for p, t in sel) / len(sel), len(sel)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    preset = json.load(open(fit_derate.PRESETS[0]))
    best = None
    for rate in GRID:
        rows = traced_softmaxes(preset, rate)
        e, n = error(rows, FIT)
        r, rn = error(rows, REPORT)
        print(f"softmax_row_cols_per_s {rate}: mean squared log error, batches 1-14 {e:.5f} ({n} softmaxes); "
              f"15-23 {r:.5f} ({rn})", flush=True)
        if rate and (best is None or e < best[0]):
            best = (e, rate, rows)
    _, rate, rows = best
    print(f"best: {rate:.3g} columns/s")
    by = {}
    for b, case, p, t in rows:
        by.setdefault(case, []).append(t / p)
    for case, q in sorted(by.items()):
        q.sort()
        print(f"  {case:36} {len(q):3} softmaxes, traced / predicted median {q[len(q) // 2]:.2f}")
    if a.write:
        for path in fit_derate.PRESETS:
            j = json.load(open(path))
            m = j["model"]
            items = list(m.items())
            m.clear()
            for k, v in items:
                if k == "softmax_row_cols_per_s":
                    continue
                if k == "softmax_reread":
                    m["softmax_row_cols_per_s"] = rate
                m[k] = v
            m["source"] = m["source"].split("; (issue 24, fit_softmax_rows.py)")[0] + (
                "; (issue 24, fit_softmax_rows.py) softmax_row_cols_per_s: fitted on the profiler traces of the "
                "softmax kernels of whole-model batches 1-14's eager steps")
            with open(path, "w") as f:
                json.dump(j, f, indent=2, ensure_ascii=False)
                f.write("\n")


if __name__ == "__main__":
    main()
