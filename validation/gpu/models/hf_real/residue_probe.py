"""The launch probe before and after one torch.profiler session with CUDA activity, in a fresh
process (VALIDATION §57): `python3 residue_probe.py` prints `before after` (µs of one
`torch.add` on one-element CUDA tensors, measure.py's host probe). Run it with and without
TEARDOWN_CUPTI=1 (Kineto finalizes CUPTI at the session's end only then: pytorch#144455)."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from residue import probe  # noqa: E402


def main():
    before = probe()
    from torch.profiler import ProfilerActivity, profile
    x = torch.ones(1 << 20, device="cuda")
    with profile(activities=[ProfilerActivity.CUDA]):
        for _ in range(100):
            x.add_(1)
        torch.cuda.synchronize()
    after = probe()
    print(f"{before:.3f} {after:.3f} TEARDOWN_CUPTI={os.environ.get('TEARDOWN_CUPTI', '')}", flush=True)


if __name__ == "__main__":
    main()
