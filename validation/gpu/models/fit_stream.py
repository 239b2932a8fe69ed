"""Fits how the runtimes' kernels run in a stream (`model.host.stream_discount_us`,
`model.host.graph_gap_us`, `model.host.sustained_derate`) on the CUDA-graph timings of the
whole-model batches (data*/measured_models.csv), and writes them into the H100 presets with
--write. History: the discount and the gap were fitted on batches 1-4 and checked on batch 5
(pre-registered in predictions_models_5.json); the derate was added after batch 5, and all
three refitted on batches 1-5 (`--batches 1,2,3,4,5`); batch 6 is the held-out check.

    cargo build && python3 validation/gpu/models/fit_stream.py [--write]

The hardware model's per-kernel times were fitted under Nsight Compute, one kernel at a time
with L2 flushed. In a CUDA graph the same kernels run back to back: the profiler's trace of
batches 2-4 (data*/kernels_models.csv) shows a decode step's small elementwise kernels at
about 1.7 µs where the model (ncu) says 2.8-3.2 µs, and the graph's step exceeding the sum of
its kernels' traced durations by about 0.3 µs a kernel (the GPU's gap between kernels), not the
1.2 µs `launch_graph_us` of the calibration's single kernels. The model (src/runtime/seam.rs,
`Pricing::in_stream`): each CUDA kernel `max(t - d, t / 2) + g`, a compute-bound tensor-core
kernel's `max(t - d, t / 2)` times `1 + a` (the clocks a sustained stream of such kernels
runs at under the power limit: prefill steps replayed from CUDA graphs take 3-15% longer than
their kernels traced in one step, decode steps 0-2%). The fit: least squares of the
log error of the step over the 80 (case, runtime) CUDA-graph timings, predicted from fgraph's
per-kernel times without the two keys (a copy of the preset),
g is the median per-kernel gap measured directly from the traces (a graph's step minus the sum of
its kernels' traced durations); d and a are then fitted on grids of 0.05 µs and 0.01.
"""
import csv, json, math, os, subprocess, sys, statistics

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402

ALL = {"1": ("data", "CASES"), "2": ("data2", "CASES2"), "3": ("data3", "CASES3"), "4": ("data4", "CASES4"),
       "5": ("data5", "CASES5")}
BATCHES = sys.argv[sys.argv.index("--batches") + 1].split(",") if "--batches" in sys.argv else ["1", "2", "3", "4", "5"]
DATA = [ALL[b][0] for b in BATCHES]
KEYS = ("stream_discount_us", "graph_gap_us", "sustained_derate")
PRESETS = ("h100", "h100-measured", "h100-2x8")


def base_preset():
    """The h100 preset without the stream terms, as a hardware file beside this script."""
    j = json.load(open(os.path.join(ROOT, "src", "cost", "presets", "h100.json")))
    for k in KEYS:
        j["model"]["host"].pop(k, None)
    path = os.path.join(HERE, ".fit_stream_h100.json")
    with open(path, "w") as fh:
        json.dump(j, fh)
    return path, j["launch_graph_us"] if "launch_graph_us" in j else None


def kernels(name, runtime, hwfile):
    p = C.write_case(name)
    try:
        r = subprocess.run([C.BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--hardware-file",
                            hwfile, "--runtime", runtime, "--launch", "graph", p] + C.sets(name),
                           capture_output=True, text=True)
    finally:
        os.unlink(p)
    rt = json.loads(r.stdout)["cost"]["runtime"]
    gap = rt["gap_us"]
    # (kernel time alone, CUDA kernels it launches, a compute-bound tensor-core kernel)
    tensor = ("matmul", "attention", "conv", "gemm8")
    return [(k["kernel_us"], max(1, round((k["time_us"] - k["kernel_us"]) / gap)),
             k["family"] in tensor and k["compute_us"] > k["memory_us"]) for k in rt["per_kernel"]]


def step(ks, d, g, a=0.0):
    return sum(max(t - n * d, t / 2) * (1 + a * bound) + n * g for t, n, bound in ks)


def main():
    hwfile, _ = base_preset()
    meas, traced = {}, {}
    try:
        rows = []
        for folder in DATA:
            for r in csv.DictReader(open(os.path.join(HERE, folder, "measured_models.csv"))):
                if r["status"] == "ok" and r["launch"] == "graph":
                    meas[(r["case"], r["runtime"])] = float(r["time_us"])
            kpath = os.path.join(HERE, folder, "kernels_models.csv")
            if os.path.exists(kpath):
                for r in csv.DictReader(open(kpath)):
                    t = traced.setdefault((r["case"], r["runtime"]), [0, 0.0])
                    t[0] += 1
                    t[1] += float(r["duration_us"])
        for cases in (getattr(C, ALL[b][1]) for b in BATCHES):
            for n in cases:
                for rt in ("eager", "compile"):
                    if (n, rt) in meas:
                        rows.append((n, rt, kernels(n, rt, hwfile), meas[(n, rt)]))
    finally:
        os.unlink(hwfile)
    # The gap is measured directly (d and g trade against each other in a step of small kernels).
    gaps = [(meas[k] - s) / n for k, (n, s) in traced.items() if k in meas]
    g = round(statistics.median(gaps), 2)
    print(f"graph_gap_us {g}: the graph's step minus its traced kernels, per kernel, the median over "
          f"{len(gaps)} (case, runtime) pairs with a kernel trace")
    _, d, a = min((sum(math.log(step(ks, d / 20, g, a / 100) / t) ** 2 for _, _, ks, t in rows), d / 20, a / 100)
                  for d in range(0, 81) for a in range(0, 31))
    within = lambda dd, gg, aa: sum(abs(step(ks, dd, gg, aa) / t - 1) <= 0.10 for _, _, ks, t in rows)
    print(f"stream_discount_us {d}, sustained_derate {a}: fitted on batches {','.join(BATCHES)}; CUDA-graph steps "
          f"within ±10%: {within(d, g, a)} of {len(rows)} (none of the three: {within(0.0, 1.2, 0.0)})")
    for n, rt, ks, t in rows:
        p0, p = step(ks, 0.0, 1.2), step(ks, d, g, a)
        print(f"  {n:34} {rt:8} {p:10.1f} / {t:10.1f} µs {p / t - 1:+7.1%}  (before {p0 / t - 1:+7.1%})")
    if "--write" in sys.argv:
        for name in PRESETS:
            path = os.path.join(ROOT, "src", "cost", "presets", name + ".json")
            j = json.load(open(path))
            host = j["model"]["host"]
            host["stream_discount_us"], host["graph_gap_us"], host["sustained_derate"] = d, g, a
            note = ("; stream_discount_us, graph_gap_us and sustained_derate: fitted by validation/gpu/models/"
                    f"fit_stream.py on the CUDA-graph timings of whole-model batches {','.join(BATCHES)} "
                    f"({len(rows)} steps; the gap measured from their kernel traces)")
            src = host["source"]
            if "; stream_discount_us" in src:
                src = src[:src.index("; stream_discount_us")]
            host["source"] = src + note
            # key order: the struct's (eager_us, runtime_eager_us, runtime_compile_us, stream, gap, source)
            j["model"]["host"] = {k: host[k] for k in ("eager_us", "runtime_eager_us", "runtime_compile_us",
                                                      "runtime_conv_eager_us", "runtime_conv_compile_us",
                                                      *KEYS, "source") if k in host}
            with open(path, "w") as fh:
                json.dump(j, fh, indent=2, ensure_ascii=False)
                fh.write("\n")


if __name__ == "__main__":
    main()
