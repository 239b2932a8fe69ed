"""Measures the emitted cases on the GPU (issue 24 item 4): `python3 measure.py DIR OUT [--only a,b]`.

For each DIR/CASE.py (written by `fgraph emit torch`, cases.py --emit): the module's seeded
random weights and inputs on cuda, under torch.inference_mode, then
- eager, plain launches: 3 warm-up steps, 3 runs of REPS steps between CUDA events (the mean
  per step of each run; time_us is the median run, best_us the fastest);
- eager, CUDA graph: the step captured once (after warm-up on a side stream), replayed the same
  way;
- compile: `torch.compile(model)` (default mode: TorchInductor, no CUDA graphs of its own),
  warmed until compiled, then plain launches and a manual CUDA-graph capture of the compiled
  call, timed as above;
- kernels: one step under torch.profiler, counting CUDA kernels (memcpy/memset apart), after
  every timing of the case; each case runs in a process of its own (`--one-process`: all in
  this one, as before VALIDATION §57), since a profiler session with CUDA activity leaves each
  later launch of its process about 2 µs slower (Kineto keeps CUPTI: pytorch#144455).
Rows go to OUT/measured_models.csv once their case is profiled (a case cut short keeps the rows of
the cases before it);
OUT/host.txt records the host's speed first (`host_probe`).
"""
import csv, functools, importlib.util, os, statistics, subprocess, sys, time, traceback

import torch

REPS, RUNS, WARM = 20, 3, 3
COLS = ["case", "runtime", "launch", "time_us", "best_us", "kernels", "memcpy", "status", "seconds"]


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def timed(fn):
    for _ in range(WARM):
        fn()
    torch.cuda.synchronize()
    runs = []
    for _ in range(RUNS):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(REPS):
            fn()
        b.record()
        torch.cuda.synchronize()
        runs.append(a.elapsed_time(b) * 1000.0 / REPS)
    return statistics.median(runs), min(runs)


def graphed(fn):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g.replay


def kernels(fn, trace=None, tag=()):
    """CUDA kernels (and memcpy/memset) of one step; with `trace` (a csv writer), one row per
    kernel in launch order: tag + (index, name, duration_us)."""
    from torch.profiler import profile, ProfilerActivity
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    k = m = 0
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            n = e.name.lower()
            if "memcpy" in n or "memset" in n:
                m += 1
            else:
                k += 1
            if trace is not None:
                dur = getattr(e, "device_time", None) or getattr(e, "cuda_time", 0.0)
                trace.writerow(list(tag) + [k + m, e.name[:160], round(float(dur), 3)])
    return k, m


def launch_probe():
    """µs of one `torch.add(a, b, out=c)` on one-element CUDA tensors, issued 2,000 times
    without a synchronisation, in each of 6 runs (the first a warm-up)."""
    a, b, c = (torch.ones(1, device="cuda") for _ in range(3))
    runs = []
    for _ in range(6):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(2000):
            torch.add(a, b, out=c)
        runs.append((time.perf_counter() - t0) / 2000 * 1e6)
        torch.cuda.synchronize()
    return runs


def label_of(path):
    """A case file's label in the probes' outputs: folder/name."""
    return os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)[:-3]


def built(path):
    """The step of the case at `path` (a module with `Graph(device)` and
    `make_inputs(device)`) on cuda, its model and inputs bound (call it under
    torch.inference_mode)."""
    mod = load(path)
    model = mod.Graph(device="cuda")
    return functools.partial(model, *mod.make_inputs("cuda"))


def issue_us(fn, n=20):
    """The host's µs a call of `fn`, `n` calls without a synchronisation (what the host takes
    to issue them while the GPU keeps up or falls behind)."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    us = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    return us


def host_probe(out):
    """The host's speed (issue 24: plain-launch steps are host-bound, and the host of one
    lent machine issued kernels twice as fast as another's): the CPU's name and the median
    µs of one `torch.add(a, b, out=c)` on one-element CUDA tensors, issued 2,000 times without
    a synchronisation (PyTorch's dispatcher and the launch call), over 5 runs. Written to
    OUT/host.txt."""
    runs = launch_probe()
    cpu = "unknown"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    with open(os.path.join(out, "host.txt"), "w") as fh:
        fh.write(f"cpu: {cpu}\ncpus: {os.cpu_count()}\nadd_launch_us_median: {statistics.median(runs[1:]):.3f}\n"
                 f"add_launch_us_runs: {' '.join(f'{r:.3f}' for r in runs[1:])}\n")
    print("host:", cpu, f"{statistics.median(runs[1:]):.2f} µs a torch.add", flush=True)


def main():
    folder, out = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "measured_models.csv")
    new = not os.path.exists(path)
    fh = open(path, "a", newline="")
    w = csv.DictWriter(fh, COLS)
    if new:
        w.writeheader()
    tpath = os.path.join(out, "kernels_models.csv")
    tnew = not os.path.exists(tpath)
    tfh = open(tpath, "a", newline="")
    trace = csv.writer(tfh)
    if tnew:
        trace.writerow(["case", "runtime", "index", "name", "duration_us"])
    names = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py"))
    if "--one-process" not in sys.argv and not (only and len(only) == 1 and "--child" in sys.argv):
        # Each case in a process of its own, so that no case is timed after another's
        # profiler session (VALIDATION §57); the host probe once, first.
        print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
        host_probe(out)
        fh.close()
        tfh.close()
        for name in names:
            if not only or name in only:
                subprocess.run([sys.executable, os.path.abspath(__file__), folder, out, "--only", name, "--child"])
        return
    print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
    if "--child" not in sys.argv:
        host_probe(out)
    for name in names:
        if only and name not in only:
            continue
        t0 = time.time()
        try:
            mod = load(os.path.join(folder, name + ".py"))
            with torch.inference_mode():
                model = mod.Graph(device="cuda")
                inputs = mod.make_inputs("cuda")
                steps, rows = {}, []
                for runtime in ("eager", "compile"):
                    fn0 = model if runtime == "eager" else torch.compile(model)
                    step = functools.partial(fn0, *inputs)
                    c0 = time.time()
                    step()  # compiles
                    torch.cuda.synchronize()
                    steps[runtime] = step
                    for launch in ("eager", "graph"):
                        s0 = time.time()
                        try:
                            fn = step if launch == "eager" else graphed(step)
                            t, best = timed(fn)
                            row = dict(case=name, runtime=runtime, launch=launch, time_us=round(t, 3),
                                       best_us=round(best, 3), status="ok")
                        except Exception as e:  # noqa: BLE001
                            row = dict(case=name, runtime=runtime, launch=launch, status="error: " + repr(e)[:200])
                            traceback.print_exc()
                        row["seconds"] = round(time.time() - (c0 if launch == "eager" else s0), 1)
                        rows.append(row)
                # Profiled after every timing: a profiler session with CUDA activity leaves each
                # later launch of the process slower (VALIDATION §57).
                for runtime, step in steps.items():
                    k, m = kernels(step, trace, (name, runtime))
                    tfh.flush()
                    for row in rows:
                        if row["runtime"] == runtime and row["status"] == "ok":
                            row.update(kernels=k, memcpy=m)
                for row in rows:
                    w.writerow(row)
                    fh.flush()
                    print(row, flush=True)
            del model, inputs, steps
            torch.cuda.empty_cache()
            torch._dynamo.reset()
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            w.writerow(dict(case=name, status="error: " + repr(e)[:200], seconds=round(time.time() - t0, 1)))
            fh.flush()


if __name__ == "__main__":
    main()
