"""Host time of compiled steps by the order they were compiled in (VALIDATION.md §45): loads
the listed `fgraph emit torch` modules in order, compiles each (torch.compile, default mode),
and for each reports the plain-launch step (CUDA events over REPS calls, as plain_rounds.py),
the host's issue time of one call (a host clock around the call, synchronized before and
after; median of REPS) and the probe; with the wrapper code Inductor generated, and the host's
issue time of the same module run eager (VALIDATION.md §47).

    python3 host_order.py OUT_DIR TAG a.py b.py ...   # appends OUT_DIR/host_order.csv
"""
import csv
import os
import statistics
import sys
import time

import torch
from torch._inductor.utils import run_and_get_code

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import load  # noqa: E402
from plain_rounds import plain, probe  # noqa: E402

REPS = 20


def host_issue(step):
    ts = []
    for _ in range(REPS):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        ts.append((time.perf_counter() - t0) * 1e6)
    torch.cuda.synchronize()
    return statistics.median(ts)


def main():
    out, tag, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(os.path.join(out, "code"), exist_ok=True)
    path = os.path.join(out, "host_order.csv")
    new = not os.path.exists(path)
    with open(path, "a", newline="") as fh, torch.inference_mode():
        w = csv.writer(fh)
        if new:
            w.writerow(["tag", "order", "case", "step_us", "host_issue_us", "probe_us", "compile_s", "eager_issue_us"])
        for i, f in enumerate(files):
            name = os.path.basename(f)[:-3]
            mod = load(f)
            model = mod.Graph(device="cuda")
            inputs = mod.make_inputs("cuda")
            eager = (lambda m, a: (lambda: m(*a)))(model, inputs)
            for _ in range(3):
                eager()
            e = host_issue(eager)
            t0 = time.time()
            fn = torch.compile(model)
            _, code = run_and_get_code(fn, *inputs)
            cs = time.time() - t0
            with open(os.path.join(out, "code", f"{tag}_{i}_{name}.py"), "w") as g:
                g.write(code[0])
            step = (lambda m, a: (lambda: m(*a)))(fn, inputs)
            for _ in range(3):
                step()
            p = probe()
            t = plain(step)
            h = host_issue(step)
            w.writerow([tag, i, name, round(t, 1), round(h, 1), round(p, 3), round(cs, 1), round(e, 1)])
            fh.flush()
            print(tag, i, name, round(t, 1), round(h, 1), round(p, 3), round(cs, 1), round(e, 1), flush=True)


if __name__ == "__main__":
    main()
