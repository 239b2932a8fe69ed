"""Is a plain-launch step's host time a property of the step or of the moment? (issue 24,
VALIDATION §23: on one machine in one call the host issued TinyLlama's and Phi-3-mini's
kernels every 15 µs and Llama-2-7B's and Mistral-7B's every 27-28.)

    python3 host_repeat.py DIR OUT --only a,b,c [--rounds 5]

Loads every named `fgraph emit torch` module of DIR at once, then for each of `rounds`
rounds times each case's eager step with plain launches (as measure.py: 3 warm-up steps, the
mean of 20 steps between CUDA events) and the host probe (`torch.add`), interleaved, so a
slow moment of the host shows in every case of that round and a slow step in every round of
that case. Then one step of each case under torch.profiler with CPU activity: each ATen op's
calls and self CPU time. Writes OUT/host_repeat.csv (round, case, step_us, probe_us) and
OUT/host_ops.csv (case, op, calls, self_cpu_us).
"""
import csv, os, sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import load  # noqa: E402
from plain_rounds import host_ops, plain, probe  # noqa: E402


def main():
    folder, out = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1].split(",")
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    os.makedirs(out, exist_ok=True)
    steps = {}
    with torch.inference_mode():
        for name in only:
            mod = load(os.path.join(folder, name + ".py"))
            model = mod.Graph(device="cuda")
            inputs = mod.make_inputs("cuda")
            steps[name] = (lambda m, i: (lambda: m(*i)))(model, inputs)
            steps[name]()
        torch.cuda.synchronize()
        with open(os.path.join(out, "host_repeat.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["round", "case", "step_us", "probe_us"])
            for r in range(rounds):
                for name, step in steps.items():
                    p = probe()
                    t = plain(step)
                    w.writerow([r, name, round(t, 3), round(p, 3)])
                    fh.flush()
                    print(r, name, round(t, 1), round(p, 2), flush=True)
        with open(os.path.join(out, "host_ops.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["case", "op", "calls", "self_cpu_us"])
            for name, step in steps.items():
                for row in host_ops(step):
                    w.writerow([name, *row])
                fh.flush()
                print("profiled", name, flush=True)


if __name__ == "__main__":
    main()
