"""SD 1.5's compiled attention kernels: fgraph's price (`--runtime compile`, CUDA graphs) of each
cuDNN SDPA kernel against its duration in the profiler traces of the whole-model batches
(dataN/kernels_models.csv), self-attention (attn1) and cross-attention over the 77 text tokens
(attn2) apart (VALIDATION.md §47, noticed).

    cargo build --release && FGRAPH=target/release/fgraph python3 validation/gpu/models/sdpa_traces.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_host  # noqa: E402


def main():
    res = {"attn1": [], "attn2": []}
    for b, case, kernels in C.traced_steps("compile", "sd15"):
        traced = [float(r["duration_us"]) for r in kernels if "sdpa" in r["name"]]
        priced = [k for k in fit_host.per_kernel(case, "compile") if k["family"] == "attention"]
        if len(traced) != len(priced) or not traced:
            print(f"batch {b} {case}: {len(traced)} traced and {len(priced)} priced, left out")
            continue
        # The first block's two attentions (the second block repeats them).
        for t, k in list(zip(traced, priced))[:2]:
            res[k["ops"][0].split(".")[-1]].append((b, case, k["time_us"], t))
    for which, v in res.items():
        errs = sorted(p / t - 1 for *_, p, t in v)
        print(f"{which}: {len(v)} kernels, {sum(abs(e) <= 0.2 for e in errs)} within ±20%, "
              f"{errs[0]:+.0%}..{errs[-1]:+.0%}, median {errs[len(errs) // 2]:+.0%}")
        for b, case, p, t in v:
            print(f"  batch {b:3} {case:28} priced {p:7.1f} µs, traced {t:7.1f} µs, {p / t - 1:+5.0%}")


if __name__ == "__main__":
    main()
