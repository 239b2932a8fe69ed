"""Plain-launch steps timed in interleaved rounds (issue 24, VALIDATION §28): the measurement
that a host's slow moments cannot decide.

    python3 plain_rounds.py OUT DIR [DIR ...] [--rounds 5]

For each DIR of `fgraph emit torch` modules (cases.py --emit), in turn: every case is loaded
and built twice, eager and `torch.compile` (default mode), each warmed until compiled; then,
in each of `rounds` rounds, every (case, runtime) is timed with plain launches as measure.py
times it (3 warm-up steps, the mean of 20 steps between CUDA events), the host probe
(measure.host_probe's `torch.add`) timed beside it. A slow moment of the host (data11/
host_repeat: the same step 1.22-1.94 times slower in one round of five, every case at once)
falls in one round; the step is the median of the rounds, and the fastest is kept too. Then
one step of each under torch.profiler with CPU activity: each ATen op's calls and self CPU
time (what the host spends where). The DIR's modules are freed before the next DIR.

Writes OUT/plain_rounds.csv (dir, round, case, runtime, step_us, probe_us), OUT/measured_plain.csv
(case, runtime, launch=eager, time_us = the median round, best_us = the fastest, rounds,
probe_us = the median probe, status) and OUT/host_ops.csv (case, runtime, op, calls, self_cpu_us).
"""
import csv, os, statistics, sys, time, traceback

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import load  # noqa: E402

REPS, WARM = 20, 3


def plain(step):
    for _ in range(WARM):
        step()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(REPS):
        step()
    b.record()
    torch.cuda.synchronize()
    return a.elapsed_time(b) * 1000.0 / REPS


def probe():
    a, b, c = (torch.ones(1, device="cuda") for _ in range(3))
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(2000):
        torch.add(a, b, out=c)
    t = (time.perf_counter() - t0) / 2000 * 1e6
    torch.cuda.synchronize()
    return t


def host_ops(step):
    """(ATen op or call, calls, self CPU µs) of one step of `step` under torch.profiler."""
    from torch.profiler import profile, ProfilerActivity
    step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        step()
        torch.cuda.synchronize()
    return [(e.key[:120], e.count, round(e.self_cpu_time_total, 3)) for e in prof.key_averages()]


def one_dir(folder, rounds, w_rounds, w_plain, w_ops):
    tag = os.path.basename(folder.rstrip("/"))
    steps = {}
    with torch.inference_mode():
        for f in sorted(os.listdir(folder)):
            if not f.endswith(".py"):
                continue
            name = f[:-3]
            t0 = time.time()
            try:
                mod = load(os.path.join(folder, f))
                model = mod.Graph(device="cuda")
                inputs = mod.make_inputs("cuda")
                for runtime in ("eager", "compile"):
                    fn = model if runtime == "eager" else torch.compile(model)
                    step = (lambda m, i: (lambda: m(*i)))(fn, inputs)
                    step()
                    step()
                    steps[(name, runtime)] = step
                torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001
                traceback.print_exc()
                w_plain.writerow(dict(case=name, runtime="", launch="eager", status="error: " + repr(e)[:200]))
            print(tag, "built", name, round(time.time() - t0, 1), "s", flush=True)
        times = {k: [] for k in steps}
        probes = {k: [] for k in steps}
        for r in range(rounds):
            for (name, runtime), step in steps.items():
                try:
                    p = probe()
                    t = plain(step)
                except Exception:  # noqa: BLE001
                    traceback.print_exc()
                    continue
                times[(name, runtime)].append(t)
                probes[(name, runtime)].append(p)
                w_rounds.writerow([tag, r, name, runtime, round(t, 3), round(p, 3)])
            print(tag, "round", r, flush=True)
        for (name, runtime), ts in times.items():
            if ts:
                w_plain.writerow(dict(case=name, runtime=runtime, launch="eager",
                                      time_us=round(statistics.median(ts), 3), best_us=round(min(ts), 3),
                                      rounds=len(ts), probe_us=round(statistics.median(probes[(name, runtime)]), 3),
                                      status="ok"))
        for (name, runtime), step in steps.items():
            for op, calls, us in host_ops(step):
                w_ops.writerow([name, runtime, op, calls, us])
    steps.clear()
    torch.cuda.empty_cache()
    torch._dynamo.reset()


def main():
    args = sys.argv[1:]
    rounds = 5
    if "--rounds" in args:
        i = args.index("--rounds")
        rounds = int(args[i + 1])
        del args[i:i + 2]
    out, folders = args[0], args[1:]
    os.makedirs(out, exist_ok=True)
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    f1 = open(os.path.join(out, "plain_rounds.csv"), "w", newline="")
    f2 = open(os.path.join(out, "measured_plain.csv"), "w", newline="")
    f3 = open(os.path.join(out, "host_ops.csv"), "w", newline="")
    w_rounds = csv.writer(f1)
    w_rounds.writerow(["dir", "round", "case", "runtime", "step_us", "probe_us"])
    w_plain = csv.DictWriter(f2, ["case", "runtime", "launch", "time_us", "best_us", "rounds", "probe_us", "status"])
    w_plain.writeheader()
    w_ops = csv.writer(f3)
    w_ops.writerow(["case", "runtime", "op", "calls", "self_cpu_us"])
    for folder in folders:
        one_dir(folder, rounds, w_rounds, w_plain, w_ops)
        for f in (f1, f2, f3):
            f.flush()


if __name__ == "__main__":
    main()
