"""Does a torch.profiler session slow the plain launches after it? (VALIDATION §57)
`python3 residue.py OUT MODULE.py`: the launch probe (µs of one `torch.add` on one-element
tensors, as measure.py's host_probe) and the module's plain step (measure.py's `timed`), each
taken fresh, again, after one profiled step (as measure.py's `kernels` profiles), and after a
second; to OUT/residue.txt."""
import functools
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from measure import kernels, load, timed  # noqa: E402


def probe():
    a, b, c = (torch.ones(1, device="cuda") for _ in range(3))
    runs = []
    for _ in range(6):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(2000):
            torch.add(a, b, out=c)
        runs.append((time.perf_counter() - t0) / 2000 * 1e6)
        torch.cuda.synchronize()
    return statistics.median(runs[1:])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    fh = open(os.path.join(out, "residue.txt"), "w")
    mod = load(sys.argv[2])
    with torch.inference_mode():
        model = mod.Graph(device="cuda")
        inputs = mod.make_inputs("cuda")
        step = functools.partial(model, *inputs)
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
