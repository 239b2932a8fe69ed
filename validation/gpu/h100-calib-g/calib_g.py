"""Calibration batch g for fgraph's hardware model (issue 11): PyTorch's non-vectorized
elementwise kernels at sizes where bandwidth shows, all FIT data.

Batch e (../h100-calib-e) found that a broadcast bias add (`x + b`, b of shape [N]) runs
PyTorch's `elementwise_kernel` and a cast to a wider type (`x.to(float32)` from f16/bf16) its
`unrolled_elementwise_kernel`, both slower than the vectorized kernels the elementwise family
is fitted on, but measured them only at 16 KB-15 MB, where the start-up hides the rate. This
batch takes them, a strided copy (`x.t().contiguous()`) and same-size vectorized adds as a
control, from 2 MB to 1 GB of output.

The method and the ncu pass are calib_e.py's (imported: its case records, `build` and
`region`); calib_g.sh is calib_e.sh's with this script.

  python3 calib_g.py --list        # print the cases (no GPU, no torch needed)
  python3 calib_g.py --json        # write cases.json (no GPU)
  python3 calib_g.py --profile     # the ncu pass (regions only)
"""
import argparse
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-e"))
import calib_e as E  # noqa: E402  (../h100-calib-e/calib_e.py)

SEED = 20261127


def make_cases():
    rng = random.Random(SEED)
    cases = []
    for op, dts in (("bias_add", ["f16", "bf16", "f32"]), ("cast", ["f16", "bf16"]),
                    ("transpose", ["f16", "bf16", "f32"]), ("add", ["f16", "bf16", "f32"])):
        n = 4 if op == "add" else 8
        for j in range(n):
            dt = dts[j % len(dts)]
            out_e = E.BYTES["f32"] if op == "cast" else E.BYTES[dt]
            size = E.logu(rng, 2 * E.MB, 1e9)  # bytes of output
            cols = rng.choice([768, 1024, 2048, 4096, 5120, 8192])
            rows = max(1, int(size / (cols * out_e)))
            c = E.mem_case(len(cases), "cast" if op == "cast" else ("add" if op == "transpose" else op), dt, rows, cols)
            if op == "transpose":
                # A strided copy: read [rows, cols], write its transpose contiguous.
                n_bytes = rows * cols * E.BYTES[dt]
                c.update(family="transpose", read=n_bytes, write=n_bytes,
                         case=f"fit_{len(cases):03d}_transpose_{dt}_{rows}x{cols}")
            c["group"] = "scalar_kernels"
            cases.append(c)
    return cases


CASES = make_cases()


def build(c):
    if c["family"] == "transpose":
        import torch
        dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[c["dtype"]]
        x = torch.randn(c["rows"], c["cols"], device="cuda", dtype=dt)
        return lambda: x.t().contiguous()
    return E.build(c)


def profile_cases():
    import torch
    torch.manual_seed(0)
    for i, c in enumerate(CASES):
        try:
            f = build(c)
            with torch.no_grad():
                for _ in range(3):
                    f()
                E.region(torch, f)
            print("profiled", i, c["case"], flush=True)
            del f
        except Exception as ex:  # noqa: BLE001
            print("FAILED", i, c["case"], repr(ex)[:300], flush=True)
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    if a.list:
        for c in CASES:
            print(c["part"], c["case"], c["read"], c["write"])
        print(len(CASES), "cases", file=sys.stderr)
    if a.json:
        with open(os.path.join(HERE, "cases.json"), "w") as fh:
            json.dump(CASES, fh, indent=0)
            fh.write("\n")
    if a.profile:
        profile_cases()


if __name__ == "__main__":
    main()
