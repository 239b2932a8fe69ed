"""Does a torch.profiler session slow the plain launches after it? (VALIDATION §57)
`python3 residue.py OUT MODULE.py`: the launch probe (µs of one `torch.add` on one-element
tensors, as measure.py's host_probe) and the module's plain step (measure.py's `timed`), each
taken fresh, again, after one profiled step (as measure.py's `kernels` profiles), and after a
second; to OUT/residue.txt."""
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from measure import built, kernels, launch_probe, timed  # noqa: E402


def probe():
    return statistics.median(launch_probe()[1:])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    fh = open(os.path.join(out, "residue.txt"), "w")
    with torch.inference_mode():
        step = built(sys.argv[2])
        for when in ("fresh", "again", "after 1 profile", "after 2 profiles", "after 2 profiles, 30 s later"):
            if when.startswith("after 1") or when == "after 2 profiles":
                kernels(step)
            if when.endswith("later"):
                time.sleep(30)
            p = probe()
            t, best = timed(step)
            print(f"{when}: probe {p:.2f} µs a torch.add; step {t:.1f} µs (best {best:.1f})", file=fh, flush=True)


if __name__ == "__main__":
    main()
