"""What torch.compile (Inductor) runs for SD 1.5's group norm (VALIDATION.md §40): for each
shape and layout, `silu(group_norm(x + t, 32, w, b))` in f16 (`t` per sample and channel, as
the time embedding is added in a resnet block), compiled; the generated code, and each CUDA
kernel's median time over `REPS` calls with L2 flushed before each, with its grid and block
from the profiler's trace.

    python3 gn_probe.py OUT_DIR [SECONDS [B,C,H;B,C,H... [LAYOUT]]]
                                            # writes OUT_DIR/gn_kernels.csv, OUT_DIR/code/*.py

Shapes are taken in `shapes()`'s order (or the listed ones, in LAYOUT only) until SECONDS
(default 450) have passed.
"""
import csv
import inspect
import json
import os
import random
import statistics
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

REPS = 10


def shapes():
    # The SD steps of validation/gpu/models first, then a grid in a fixed shuffled order.
    first = [(2, 320, 64), (4, 320, 64), (8, 320, 64), (2, 320, 56), (2, 320, 72), (2, 320, 96),
             (1, 320, 64), (2, 320, 48), (1, 320, 80), (3, 320, 64), (2, 1280, 20), (1, 1280, 24),
             (2, 1280, 16), (4, 1280, 32), (2, 640, 32), (2, 640, 48), (4, 640, 24), (4, 640, 40)]
    grid = [(b, c, h) for b in (1, 2, 4, 8) for c in (320, 640, 1280) for h in (16, 20, 24, 32, 40, 48, 56, 64, 72, 80, 96)]
    random.Random(40).shuffle(grid)
    out = []
    for s in first + grid:
        if s not in out:
            out.append(s)
    return out


def gn(x, t, w, b):
    return F.silu(F.group_norm(x + t, 32, w, b, 1e-5))


def kernels_of(prof, path):
    prof.export_chrome_trace(path)
    ev = json.load(open(path))["traceEvents"]
    return [e for e in ev if e.get("cat") == "kernel"]


def main():
    out = sys.argv[1]
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 450.0
    listed = [tuple(map(int, s.split(","))) for s in sys.argv[3].split(";")] if len(sys.argv) > 3 else shapes()
    layouts = [sys.argv[4]] if len(sys.argv) > 4 else ["contiguous", "channels_last"]
    os.makedirs(os.path.join(out, "code"), exist_ok=True)
    import torch._inductor.ir as ir
    from torch._inductor.utils import run_and_get_code
    with open(os.path.join(out, "num_splits.py"), "w") as f:
        f.write(inspect.getsource(ir.Reduction.num_splits))
    flush = torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda")
    rows, t0 = [], time.time()
    tmp = tempfile.mkdtemp()
    for (bsz, c, h) in listed:
        for layout in layouts:
            if time.time() - t0 > budget:
                break
            torch._dynamo.reset()
            x = torch.randn(bsz, c, h, h, device="cuda", dtype=torch.float16)
            if layout == "channels_last":
                x = x.to(memory_format=torch.channels_last)
            t = torch.randn(bsz, c, 1, 1, device="cuda", dtype=torch.float16)
            w = torch.rand(c, device="cuda", dtype=torch.float16) + 0.5
            b = torch.rand(c, device="cuda", dtype=torch.float16)
            cf = torch.compile(gn)
            _, code = run_and_get_code(cf, x, t, w, b)
            name = f"b{bsz}_c{c}_h{h}_{layout}"
            with open(os.path.join(out, "code", name + ".py"), "w") as f:
                f.write(code[0])
            for _ in range(3):
                cf(x, t, w, b)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(REPS):
                    flush.zero_()
                    cf(x, t, w, b)
                torch.cuda.synchronize()
            ks = [k for k in kernels_of(prof, os.path.join(tmp, "t.json")) if "triton" in k["name"]]
            per = len(ks) // REPS
            for i in range(per):
                calls = ks[i::per]
                a = calls[0].get("args", {})
                rows.append({"batch": bsz, "channels": c, "hw": h, "layout": layout, "index": i,
                             "name": calls[0]["name"][:120],
                             "grid": "x".join(map(str, a.get("grid", []))),
                             "block": "x".join(map(str, a.get("block", []))),
                             "registers": a.get("registers per thread", ""),
                             "duration_us": round(statistics.median(k["dur"] for k in calls), 3)})
            print(name, [(r["name"][-30:], r["grid"], r["duration_us"]) for r in rows[-per:]], flush=True)
            with open(os.path.join(out, "gn_kernels.csv"), "w", newline="") as f:
                wr = csv.DictWriter(f, fieldnames=list(rows[0]))
                wr.writeheader()
                wr.writerows(rows)
    print(torch.__version__, torch.cuda.get_device_name(), f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
