"""Fits `model.host.warm_read_factor` jointly with `sustained_derate` (issue 24, VALIDATION.md
§36): the fraction of a DRAM byte's time that PyTorch's eager elementwise kernel takes to read
a byte the kernel before it wrote (from L2), and the sustained derate refitted with it. Every
whole-model step measured by CUDA graph in batches 1-14 (232 steps, priced as fit_derate.py
prices them) is priced by the built binary with a hardware file that differs from the h100
preset in those two keys; the grid's best by the squared log error of those steps is taken.
Batches 15-18 are reported, not fitted on.

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_warm.py [--write]

--eager (VALIDATION.md §52): `warm_read_factor` alone on the eager steps (a batch norm's kernel
reading nothing warm), the sustained derate kept; fitted on batches 1-14, reported on the
held-out batches 15-32. (A reuse window, an input written by any earlier kernel warm when the
bytes moved since fit in 34 MB, was tried the same way and earned nothing on batches 1-14:
fit_warm_window.txt, from the code of 4381dc1.)

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_warm.py --eager [--write]
"""
import argparse
import json
import math
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import fit_derate

FIT = range(1, 15)
REPORT = range(15, 19)


def evaluate(preset, keys, jobs):
    j = json.loads(json.dumps(preset))
    j["model"]["host"].update(keys)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(j, fh)
    try:
        with ThreadPoolExecutor(2) as ex:
            return list(ex.map(lambda job: fit_derate.price(fh.name, job), jobs))
    finally:
        os.unlink(fh.name)


def score(preds, jobs, batches):
    pairs = [(p, m) for p, (c, _, m) in zip(preds, jobs) if int(c["batch"]) in batches]
    return (sum(math.log(p / m) ** 2 for p, m in pairs), sum(abs(p / m - 1) <= 0.10 for p, m in pairs), len(pairs))


def eager(write):
    """--eager: warm_read_factor over a grid, the eager steps of batches 1-14 fitted, 15-32
    reported."""
    preset = json.load(open(fit_derate.PRESETS[0]))
    fit_derate.BATCHES = range(1, 33)
    jobs = [j for j in fit_derate.steps() if j[1] == "eager"]
    best = None
    for factor in (1.0, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3):
        keys = {"warm_read_factor": factor}
        preds = evaluate(preset, keys, jobs)
        sse, n, tot = score(preds, jobs, FIT)
        rsse, rn, rtot = score(preds, jobs, range(15, 33))
        print(f"warm_read_factor {factor:.1f}: batches 1-14 {sse:.4f} {n}/{tot}; batches 15-32 {rsse:.4f} {rn}/{rtot}",
              flush=True)
        if best is None or sse < best[0]:
            best = (sse, keys)
    sse, keys = best
    print(f"best: {keys} (squared log error {sse:.4f})")
    if write:
        fit_derate.write_host(keys, lambda src: (src[:src.find("; warm_read_factor refitted")]
                                                 if "; warm_read_factor refitted" in src else src) + (
            f"; warm_read_factor refitted (0.8 to {keys['warm_read_factor']}) with a batch norm's kernel reading nothing warm: fitted by "
            "validation/gpu/models/fit_warm.py --eager on the eager CUDA-graph steps of whole-model batches 1-14 "
            "(VALIDATION.md section 52)"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--eager", action="store_true", help="fit warm_read_factor alone on the eager steps (§52)")
    a = ap.parse_args()
    if a.eager:
        return eager(a.write)
    preset = json.load(open(fit_derate.PRESETS[0]))
    fit_derate.BATCHES = range(1, 19)
    jobs = fit_derate.steps()
    best = None
    for factor in (1.0, 0.8, 0.6, 0.4, 0.2, 0.0):
        for derate in (0.125, 0.15, 0.175, 0.2):
            keys = {"warm_read_factor": factor, "sustained_derate": derate}
            preds = evaluate(preset, keys, jobs)
            sse, n, tot = score(preds, jobs, FIT)
            rsse, rn, rtot = score(preds, jobs, REPORT)
            print(f"warm_read_factor {factor:.1f} sustained_derate {derate:.3f}: batches 1-14 {sse:.4f} {n}/{tot}; "
                  f"batches 15-18 {rsse:.4f} {rn}/{rtot}", flush=True)
            if best is None or sse < best[0]:
                best = (sse, keys)
    sse, keys = best
    print(f"best: {keys} (squared log error {sse:.4f})")
    if a.write:
        fit_derate.write_host(keys, lambda src: src + (
            "; warm_read_factor, with sustained_derate refitted: fitted by validation/gpu/models/fit_warm.py on "
            "the CUDA-graph steps of whole-model batches 1-14"))

if __name__ == "__main__":
    main()
