"""SD 1.5's compiled group norms: fgraph's price (`--runtime compile`, CUDA graphs) of each Triton
group norm against the sum of the CUDA kernels Inductor ran for it (partial moments, the
combines, the apply) in the profiler traces of the whole-model batches (dataN/kernels_models.csv),
by step and overall (VALIDATION.md §49).

    cargo build --release && FGRAPH=target/release/fgraph python3 validation/gpu/models/gn_traces.py
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_host  # noqa: E402


def norms(kernels):
    """The traced group norms of one step: each a list of kernel durations, from a reduction
    kernel (`triton_per_`/`triton_red_`) through the pointwise apply (`triton_poi_`)."""
    out, cur = [], None
    for r in kernels:
        n = r["name"]
        if "group_norm" not in n or not n.startswith("triton"):
            continue
        if n.startswith(("triton_per", "triton_red")) and (cur is None or cur[-1][0].startswith("triton_poi")):
            cur = []
            out.append(cur)
        if cur is not None:
            cur.append((n, float(r["duration_us"])))
    return [[d for _, d in s] for s in out]


def main():
    errs = []
    print(f"{'batch':>5} {'step':28} {'norms':>5} {'traced µs':>10} {'priced µs':>10}   error")
    for b, case, kernels in C.traced_steps("compile", "sd15"):
        traced = norms(kernels)
        priced = [k["time_us"] for k in fit_host.per_kernel(case, "compile") if k["family"] == "group_norm"]
        if len(traced) != len(priced):
            print(f"{b:>5} {case:28} traced {len(traced)} norms, priced {len(priced)}: skipped")
            continue
        errs += [p / sum(t) - 1 for t, p in zip(traced, priced)]
        t, p = sum(map(sum, traced)), sum(priced)
        print(f"{b:>5} {case:28} {len(priced):5} {t:10.1f} {p:10.1f}  {p / t - 1:+6.1%}")
    print(f"{len(errs)} norms: {sum(abs(e) <= 0.2 for e in errs)} within ±20%, median {statistics.median(errs):+.0%}")


if __name__ == "__main__":
    main()
