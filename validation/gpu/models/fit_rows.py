"""A floor of PyTorch's own row kernels fitted on the whole-model traces (issue 24): the shared
part of fit_norm_rows.py (`model.norm_rows_per_s`, VALIDATION.md §38) and fit_softmax_rows.py
(`model.softmax_row_cols_per_s`, §41).

Every kernel of an eager step whose profiler trace (`data*/kernels_models.csv`, the kernels
`traced(name)` picks) pairs one to one, in launch order, with the runtime's kernels of
`family` is priced by the built binary with the h100 preset and the model key `key` at each
value of a grid (none first); the grid's best by the mean squared log error of the traced
times on the `fit` batches is taken, and the `report` batches are printed beside it.
"""
import argparse
import csv
import json
import math
import os

import fit_derate


def paired(preset, key, value, traced, family, batches):
    """(batch, case, predicted_us, traced_us) of every kernel paired with its trace."""
    trace = {}
    for b in batches:
        path = os.path.join(fit_derate.HERE, "data" if b == 1 else f"data{b}", "kernels_models.csv")
        if os.path.exists(path):
            for r in csv.DictReader(open(path)):
                if r["runtime"] == "eager" and traced(r["name"]):
                    trace.setdefault(r["case"], []).append(r)
    cases = [c for c in json.load(open(os.path.join(fit_derate.HERE, "cases.json")))["cases"] if c["case"] in trace]
    j = json.loads(json.dumps(preset))
    j["model"].pop(key, None)
    if value:
        j["model"][key] = value
    out = []
    for c, rt in fit_derate.eager_runtimes(j, cases):
        mine = [k for k in rt["per_kernel"] if k["family"] == family and k["what"] == "kernel"]
        theirs = trace[c["case"]]
        if len(mine) == len(theirs):
            out += [(int(c["batch"]), c["case"], k["kernel_us"], float(r["duration_us"])) for k, r in zip(mine, theirs)]
    return out


def error(rows, batches):
    sel = [(p, t) for b, _, p, t in rows if b in batches]
    return sum(math.log(t / p) ** 2 for p, t in sel) / len(sel), len(sel)


def fit(key, unit, what, traced, family, grid, fit_batches, report_batches, tag, source):
    """Fits `key` and prints the grid and the best value's per-case medians; with `--write`,
    writes it into the presets before `softmax_reread`, and `source` after `tag` in the model's
    source (replacing what that tag said before)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    preset = json.load(open(fit_derate.PRESETS[0]))
    lo, hi = report_batches[0], report_batches[-1]
    best = None
    for value in grid:
        rows = paired(preset, key, value, traced, family, list(fit_batches) + list(report_batches))
        e, n = error(rows, fit_batches)
        r, rn = error(rows, report_batches)
        print(f"{key} {value}: mean squared log error, batches 1-{fit_batches[-1]} {e:.5f} ({n} {what}); "
              f"{lo}-{hi} {r:.5f} ({rn})", flush=True)
        if value and (best is None or e < best[0]):
            best = (e, value, rows)
    _, value, rows = best
    print(f"best: {value:.3g} {unit}")
    by = {}
    for b, case, p, t in rows:
        by.setdefault(case, []).append(t / p)
    for case, q in sorted(by.items()):
        q.sort()
        print(f"  {case:36} {len(q):3} {what}, traced / predicted median {q[len(q) // 2]:.2f}")
    if a.write:
        for path in fit_derate.PRESETS:
            j = json.load(open(path))
            m = j["model"]
            items = list(m.items())
            m.clear()
            for k, v in items:
                if k == key:
                    continue
                if k == "softmax_reread":
                    m[key] = value
                m[k] = v
            m["source"] = fit_derate.with_source(m["source"], tag, source)
            with open(path, "w") as f:
                json.dump(j, f, indent=2, ensure_ascii=False)
                f.write("\n")
