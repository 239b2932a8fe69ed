"""What a compiled step's host spends on each part of Inductor's wrapper (VALIDATION.md §47):
the host's issue time of one call (host_order.py's clock: the GPU synchronized before and after,
median of REPS) of small torch.compile'd modules that differ in one count only, and the probe.

- `inputs N`: one fused elementwise kernel over N + 1 tensors (x and N weights of 64 values):
  the cost of a tensor the step takes (guards, parameters handed over, Inductor's assert, one
  more argument of the launch);
- `extern K`: K matmuls chained on one weight (K extern calls to cuBLAS, two tensors);
- `triton K`: the same with a sine after each matmul (K extern calls and K Triton launches).

    python3 host_parts.py OUT_DIR   # writes OUT_DIR/host_parts.csv and the wrappers in OUT_DIR/code/
"""
import csv
import os
import statistics
import sys

import torch
from torch._inductor.utils import run_and_get_code

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_order import host_issue  # noqa: E402
from plain_rounds import probe  # noqa: E402


class Inputs(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.ps = torch.nn.ParameterList(
            [torch.nn.Parameter(torch.randn(64, device="cuda", dtype=torch.float16)) for _ in range(n)])

    def forward(self, x):
        for p in self.ps:
            x = x + p
        return x


class Chain(torch.nn.Module):
    def __init__(self, k, sine):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(64, 64, device="cuda", dtype=torch.float16) / 8)
        self.k, self.sine = k, sine

    def forward(self, x):
        for _ in range(self.k):
            x = x @ self.w
            if self.sine:
                x = x.sin()
        return x


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = [("inputs", n, Inputs(n), torch.randn(64, device="cuda", dtype=torch.float16))
             for n in (1, 64, 256, 512)]
    cases += [(kind, k, Chain(k, kind == "triton"), torch.randn(64, 64, device="cuda", dtype=torch.float16))
              for kind in ("extern", "triton") for k in (1, 64, 256)]
    with open(os.path.join(out, "host_parts.csv"), "w", newline="") as fh, torch.inference_mode():
        w = csv.writer(fh)
        w.writerow(["part", "count", "host_issue_us", "probe_us", "rounds_us"])
        fns = [(part, n, torch.compile(m), x) for part, n, m, x in cases]
        os.makedirs(os.path.join(out, "code"), exist_ok=True)
        for part, n, fn, x in fns:
            _, code = run_and_get_code(fn, x)
            with open(os.path.join(out, "code", f"{part}_{n}.py"), "w") as g:
                g.write(code[0])
        # Interleaved rounds: each round times every case once, beside a probe.
        rounds = {(part, n): [] for part, n, _, _ in fns}
        probes = []
        for _ in range(5):
            probes.append(probe())
            for part, n, fn, x in fns:
                rounds[(part, n)].append(host_issue(lambda: fn(x)))
        p = statistics.median(probes)
        for part, n, _, _ in fns:
            ts = rounds[(part, n)]
            w.writerow([part, n, round(statistics.median(ts), 1), round(p, 3), " ".join(f"{t:.1f}" for t in ts)])
            print(part, n, round(statistics.median(ts), 1), round(p, 3), flush=True)


if __name__ == "__main__":
    main()
