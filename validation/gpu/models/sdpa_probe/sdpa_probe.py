"""cuDNN's SDPA kernel at SD 1.5's attention shapes and at key lengths between the 77 text tokens
and self-attention's (VALIDATION.md §47, noticed: fgraph prices SD's cross-attention over 77
tokens a median 37% high). Data for a refit of the attention family's key-length term, to be
fitted on one half and held out on the other; nothing in fgraph is fitted on it yet.

For each shape (batch B, query positions N, 8 heads of head dim D, key length L; f16; queries,
keys and values as the strided views of a (B, N, 8·D) projection that SD's compiled block
passes), F.scaled_dot_product_attention under the cuDNN backend, timed by the profiler: the
median duration of the SDPA kernel over REPS calls (L2 not flushed, as in a step).

    python3 sdpa_probe.py OUT_DIR   # writes OUT_DIR/sdpa_probe.csv
"""
import csv
import os
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import ProfilerActivity, profile

REPS = 20
HEADS = 8
SHAPES = [(b, n, d, kv)
          for d in (40, 80, 160)
          for b, n in ((1, 1600), (2, 1024), (2, 2304), (4, 2304), (2, 4096), (8, 4096))
          for kv in (77, 154, 308, 616, n)]


def views(b, n, d, heads):
    x = torch.randn(b, n, heads * d, device="cuda", dtype=torch.float16)
    return x.view(b, n, heads, d).transpose(1, 2)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "sdpa_probe.csv"), "w", newline="") as fh, torch.inference_mode():
        w = csv.writer(fh)
        w.writerow(["batch", "positions", "head_dim", "heads", "keys", "kernel", "median_us", "min_us", "calls"])
        for b, n, d, kv in SHAPES:
            q, k, v = views(b, n, d, HEADS), views(b, kv, d, HEADS), views(b, kv, d, HEADS)
            try:
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    for _ in range(3):
                        F.scaled_dot_product_attention(q, k, v)
                    torch.cuda.synchronize()
                    with profile(activities=[ProfilerActivity.CUDA]) as prof:
                        for _ in range(REPS):
                            F.scaled_dot_product_attention(q, k, v)
                        torch.cuda.synchronize()
            except RuntimeError as e:
                w.writerow([b, n, d, HEADS, kv, f"error: {str(e)[:80]}", "", "", 0])
                continue
            ev = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA and "sdpa" in e.name]
            ts = [getattr(e, "device_time", None) or e.cuda_time for e in ev]
            name = ev[0].name[:90] if ev else "none"
            row = [b, n, d, HEADS, kv, name, round(statistics.median(ts), 3) if ts else "",
                   round(min(ts), 3) if ts else "", len(ts)]
            w.writerow(row)
            fh.flush()
            print(*row, flush=True)


if __name__ == "__main__":
    main()
