"""Pre-registration: fgraph's predictions for the HELD-OUT attention cases of batch h
(`sdpa_decode`, `sdpa_prefill`, `attn_window` with part "heldout" in cases.json), made before
the held-out half is measured and committed as predictions_attention.json.

  cargo build && python3 validation/gpu/h100-calib-h/predict_attention.py [FGRAPH]

Each case is written as one `attention` op (graphs/CASE.fgraph, the same writer as
fit_attention.py: SDPA's [B, H, S, D] layout, a varlen window `window_size=(W, 0)` as
`window = W + 1`) and run through

  fgraph analyze FILE --traffic-model hardware --hardware h100 --format json

Per case it records the one kernel fgraph predicts (the `attention` family): `dram_read`
(predicted DRAM reads, bytes) and `kernel_us` (its time, launch excluded), to be compared with
ncu's main kernel (cuDNN's flash kernel, or FlashAttention-2's for the window: `max_kernel_ns`
and that kernel's `dram_read` in kernels_heldout.csv); the compulsory reads and FLOPs beside
them. Decode runs a second, ~4 µs split-KV combine kernel that fgraph does not predict.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from fit_attention import analyze, cases, default_fgraph  # noqa: E402


def main():
    fgraph = sys.argv[1] if len(sys.argv) > 1 else default_fgraph()
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True,  # noqa: E731
                                    cwd=ROOT).stdout.strip()
    res = dict(
        fgraph_commit=git("rev-parse", "HEAD"),
        src_clean=not git("status", "--porcelain", "src"),
        hardware="h100",
        compare=("dram_read against the main kernel's ncu dram_read (within 15%), kernel_us "
                 "against max_kernel_ns (within 20% for kernels over 20 us)"),
        cases={},
    )
    for c in cases("heldout"):
        res["cases"][c["case"]] = dict(case_family=c["family"], **analyze(fgraph, c))
    out = os.path.join(HERE, "predictions_attention.json")
    with open(out, "w") as fh:
        json.dump(res, fh, indent=1)
        fh.write("\n")
    for name, p in res["cases"].items():
        print(f"{name:58} read {p['dram_read']:>12,} B  {p['kernel_us']:9.2f} us")
    print(f"wrote {os.path.relpath(out, ROOT)} ({len(res['cases'])} cases)")


if __name__ == "__main__":
    main()
