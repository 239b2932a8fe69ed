"""The attention op's hardware-model family, checked on the FIT half of batch h.

  cargo build && python3 validation/gpu/h100-calib-h/fit_attention.py [FGRAPH]

For every fit case of the attention families (`sdpa_decode`, `sdpa_prefill`, `attn_window`
in cases.json) it writes the case as one `attention` op (graphs/CASE.fgraph), runs

  fgraph analyze FILE --traffic-model hardware --hardware h100 --format json

and compares the hardware model's kernel (the `attention` family: `model.attention` of the
h100 preset, the FlashAttention coefficients fitted on batch c) with what ncu measured
(fit/measured_fit.csv): DRAM reads against `dram_read`, kernel time against the main kernel
(`max_kernel_ns`: cuDNN's flash kernel, or FlashAttention-2's for the window) and against the
sum of the case's kernels (`gpu_time_ns`: decode adds cuDNN's split-KV `lean_reduction_kernel`,
~4 µs; the window case a 2 µs fill).

The fit. The existing coefficients (efficiency, kv_half, head_dim_half of `model.attention`,
fitted on the FlashAttention kernels of validation/gpu/h100-calib-c) are kept: the prefill
cases are within 16% with them. They miss the small decode kernels (memory-bound: 8–30 µs
predicted 64–21% short, no start-up term), so one coefficient is fitted here,
`model.attention.memory_overhead_us`: the median over the six decode fit cases of the main
kernel's measured time minus the predicted memory time without it (4.27 µs; the presets hold
4.3). Only the attention op takes it (the three-op pattern's kernels keep their batch-c fit).
A sliding window runs FlashAttention-2's kernel (`varlen_attn`), priced with the existing
`attention_kernels.flash2` coefficients (no refit). The script prints each case's errors, the
fitted overhead, and exits 1 when a case misses the issue's targets (reads ±15%, time ±20% for
kernels over 20 µs).

A varlen window `window_size=(W, 0)` keeps W + 1 keys per query (its own and the W before it);
fgraph's `window = N` counts the query's own key, so the case is written `window = W + 1`.
"""
import csv
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
FAMILIES = ("sdpa_decode", "sdpa_prefill", "attn_window")


def cases(part):
    with open(os.path.join(HERE, "cases.json")) as fh:
        return [c for c in json.load(fh) if c["part"] == part and c["family"] in FAMILIES]


def fgraph_text(c):
    """The case as one attention op, in SDPA's [B, H, S, D] layout."""
    dt = c["dtype"]
    p = c["params"]
    if c["layout"] == "thd":
        b, s = p["batch"], p["seq"]
        hq, hkv = p["q_heads"], p["kv_heads"]
        d = c["shapes"]["q"][-1]
        q, k, v = [b, hq, s, d], [b, hkv, s, d], [b, hkv, s, d]
        attrs = f"causal = true, window = {p['window_size'][0] + 1}"
    else:
        q, k, v = c["shapes"]["q"], c["shapes"]["k"], c["shapes"]["v"]
        attrs = "causal = true" if p.get("is_causal") else "causal = false"
    dims = lambda s: ", ".join(str(x) for x in s)  # noqa: E731
    name = c["case"]
    return (
        f"// {name} (validation/gpu/h100-calib-h/cases.json), written by "
        f"{'fit' if c['part'] == 'fit' else 'predict'}_attention.py\n"
        f"graph {name} {{\n"
        f"  input q: {dt}[{dims(q)}]\n"
        f"  input k: {dt}[{dims(k)}]\n"
        f"  input v: {dt}[{dims(v)}]\n"
        f"  op attn = attention(q, k, v, {attrs}) -> o\n"
        f"  output o\n"
        f"}}\n"
    )


def analyze(fgraph, c):
    """fgraph's prediction for case `c`: the one kernel's figures."""
    folder = os.path.join(HERE, "graphs")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, c["case"] + ".fgraph")
    with open(path, "w") as fh:
        fh.write(fgraph_text(c))
    rel = os.path.relpath(path, ROOT)
    cmd = [fgraph, "analyze", rel, "--traffic-model", "hardware", "--hardware", "h100",
           "--format", "json"]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
    d = json.loads(out.stdout)
    hm = d["cost"]["hardware_model"]
    assert len(d["groups"]) == 1 and len(hm["kernels"]) == 1, c["case"]
    g, k = d["groups"][0], hm["kernels"][0]
    return dict(
        command=" ".join(["fgraph"] + cmd[1:]),
        file=rel,
        family=k["family"],
        flops=g["cost"]["flops"],
        compulsory_read=g["bytes_read"],
        compulsory_written=g["bytes_written"],
        dram_read=k["dram_read"],
        dram_written=k["dram_written"],
        compute_us=k["compute_us"],
        memory_us=k["memory_us"],
        kernel_us=k["kernel_us"],
    )


def default_fgraph():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "debug", "fgraph")


def main():
    fgraph = sys.argv[1] if len(sys.argv) > 1 else default_fgraph()
    with open(os.path.join(HERE, "fit", "measured_fit.csv")) as fh:
        measured = {r["case"]: r for r in csv.DictReader(fh)}
    with open(os.path.join(ROOT, "src", "cost", "presets", "h100.json")) as fh:
        preset = json.load(fh)["model"]["attention"].get("memory_overhead_us", 0.0)
    worst_read = worst_time = 0.0
    residuals = []
    print(f"{'case':58} {'read':>7} {'main us':>9} {'pred us':>9} {'err':>7} {'all us':>8} {'err':>7}")
    for c in cases("fit"):
        m = measured[c["case"]]
        p = analyze(fgraph, c)
        read = p["dram_read"] / float(m["dram_read"]) - 1
        main_us = float(m["max_kernel_ns"]) / 1e3
        all_us = float(m["gpu_time_ns"]) / 1e3
        t_main = p["kernel_us"] / main_us - 1
        t_all = p["kernel_us"] / all_us - 1
        print(f"{c['case']:58} {read:+7.1%} {main_us:9.1f} {p['kernel_us']:9.1f} {t_main:+7.1%} "
              f"{all_us:8.1f} {t_all:+7.1%}")
        if c["family"] == "sdpa_decode":
            residuals.append(main_us - (p["memory_us"] - preset))
        worst_read = max(worst_read, abs(read))
        if main_us > 20:
            worst_time = max(worst_time, abs(t_main))
    fitted = statistics.median(residuals)
    print(f"memory_overhead_us: fitted {fitted:.2f} (median of {len(residuals)} decode cases), "
          f"preset {preset}")
    print(f"worst: reads {worst_read:.1%} (target 15%), time of kernels over 20 us "
          f"{worst_time:.1%} (target 20%)")
    return 0 if worst_read <= 0.15 and worst_time <= 0.20 else 1


if __name__ == "__main__":
    sys.exit(main())
