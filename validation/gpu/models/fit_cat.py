"""Fits `families.cat` (issue 24, VALIDATION.md §42): PyTorch's own `torch.cat`
(`CatArrayBatchedCopy`), a lone `concat` under `--runtime eager`. The eager steps whose
profiler trace (`data*/kernels_models.csv`, memsets and copies aside) launched exactly the
kernels `--runtime eager` predicts are paired kernel by kernel in launch order; their cat
kernels are priced by the built binary with the h100 preset and `families.cat` from a grid
(the bandwidth efficiency and the overhead; the element rate high enough not to bind), and the
grid's best by the mean squared log error of batches 1-14's traced cat kernels is taken.
Batches 15-23's are reported, not fitted on.

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_cat.py [--write]
"""
import argparse
import csv
import json
import math
import os

import fit_derate

FIT = range(1, 15)
REPORT = range(15, 24)
EFFICIENCIES = (0.15, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.35, 0.4, 0.5)
OVERHEADS = (1.0, 2.0, 3.0, 4.5, 5.5, 7.0)
RATE = 1e13


def traces():
    """case → its eager trace's kernels, for the cases with a cat kernel."""
    out = {}
    for b in list(FIT) + list(REPORT):
        path = os.path.join(fit_derate.HERE, "data" if b == 1 else f"data{b}", "kernels_models.csv")
        if not os.path.exists(path):
            continue
        rows = {}
        for r in csv.DictReader(open(path)):
            if r["runtime"] == "eager" and "Memset" not in r["name"] and "Memcpy" not in r["name"]:
                rows.setdefault(r["case"], []).append(r)
        out.update({c: rs for c, rs in rows.items() if any("CatArrayBatchedCopy" in r["name"] for r in rs)})
    return out


def paired(preset, cat, trace):
    """(batch, case, predicted_us, traced_us) of every cat kernel of a step that pairs."""
    j = json.loads(json.dumps(preset))
    j["model"]["families"].pop("cat", None)
    if cat:
        j["model"]["families"]["cat"] = {"bandwidth_efficiency": cat[0], "elements_per_s": RATE, "overhead_us": cat[1]}
    cases = [c for c in json.load(open(os.path.join(fit_derate.HERE, "cases.json")))["cases"] if c["case"] in trace]
    out = []
    for c, rt in fit_derate.eager_runtimes(j, cases):
        mine, theirs = rt["per_kernel"], trace[c["case"]]
        if len(mine) != len(theirs):
            continue
        out += [(int(c["batch"]), c["case"], k["kernel_us"], float(r["duration_us"]))
                for k, r in zip(mine, theirs) if "CatArrayBatchedCopy" in r["name"]]
    return out


def error(rows, batches):
    sel = [(p, t) for b, _, p, t in rows if b in batches]
    return sum(math.log(t / p) ** 2 for p, t in sel) / len(sel), len(sel)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    preset = json.load(open(fit_derate.PRESETS[0]))
    trace = traces()
    best = None
    for cat in [None] + [(e, o) for e in EFFICIENCIES for o in OVERHEADS]:
        rows = paired(preset, cat, trace)
        e, n = error(rows, FIT)
        r, rn = error(rows, REPORT)
        print(f"cat {cat}: mean squared log error, batches 1-14 {e:.5f} ({n} cats); 15-23 {r:.5f} ({rn})", flush=True)
        if cat and (best is None or e < best[0]):
            best = (e, cat, rows)
    _, cat, rows = best
    print(f"best: bandwidth_efficiency {cat[0]}, overhead_us {cat[1]}")
    for b, case, p, t in rows:
        print(f"  b{b:2} {case:32} {p:7.1f} / {t:7.1f} µs {p / t - 1:+6.1%}")
    if a.write:
        for path in fit_derate.PRESETS:
            j = json.load(open(path))
            j["model"]["families"]["cat"] = {"bandwidth_efficiency": cat[0], "elements_per_s": RATE, "overhead_us": cat[1]}
            j["model"]["source"] = fit_derate.with_source(
                j["model"]["source"], "; (issue 24, fit_cat.py)",
                "families.cat: fitted on the profiler traces of the cat kernels of whole-model batches 1-14's eager steps")
            with open(path, "w") as f:
                json.dump(j, f, indent=2, ensure_ascii=False)
                f.write("\n")


if __name__ == "__main__":
    main()
