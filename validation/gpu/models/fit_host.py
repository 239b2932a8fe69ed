"""Fits the host's time per kernel of `--runtime eager|compile --launch eager`
(`model.host.runtime_eager_us`, `runtime_compile_us`) on the first batch of whole models
(data/measured_models.csv, all 10 cases: batch 2 is the held-out check), and writes it into
the H100 presets with --write.

    cargo build && python3 validation/gpu/models/fit_host.py [--write]

The model (src/runtime/mod.rs): under plain launches the GPU runs each kernel as under a CUDA
graph (its `--launch graph` time) but cannot start it before the host has issued it, one every
`host_us`: host += h; gpu = max(gpu, host) + kernel (crate::cost::hwmodel::step_time). Least
squares of the log error over the cases' plain-launch timings, per runtime, each case's
predicted kernel times scaled to its measured CUDA-graph time (the host's share alone).
"""
import csv, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402


def kernel_times(name, runtime):
    p = C.write_case(name)
    try:
        r = subprocess.run([C.BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--hardware", "h100",
                            "--runtime", runtime, "--launch", "graph", p] + C.sets(name), capture_output=True, text=True)
    finally:
        os.unlink(p)
    return [k["time_us"] for k in json.loads(r.stdout)["cost"]["runtime"]["per_kernel"]]


def pipeline(ks, h):
    host = gpu = 0.0
    for k in ks:
        host += h
        gpu = max(gpu, host) + k
    return gpu


def main():
    meas = {(r["case"], r["runtime"], r["launch"]): float(r["time_us"])
            for r in csv.DictReader(open(os.path.join(HERE, "data", "measured_models.csv"))) if r["status"] == "ok"}
    fitted = {}
    for runtime in ("eager", "compile"):
        # Each case's kernels scaled to its measured CUDA-graph time, so that the fit sees the
        # host's share only (not the GPU model's misses, reported apart).
        rows = []
        for n in C.CASES:
            if n.startswith("resnet"):
                continue  # cuDNN's convolutions cost the host ~26 µs a call: not one figure (VALIDATION §21)
            if (n, runtime, "eager") not in meas or (n, runtime, "graph") not in meas:
                continue
            ks = kernel_times(n, runtime)
            f = meas[(n, runtime, "graph")] / sum(ks)
            rows.append((n, [k * f for k in ks], meas[(n, runtime, "eager")]))
        best = min((sum(math.log(pipeline(ks, h / 10) / t) ** 2 for _, ks, t in rows), h / 10) for h in range(0, 600))
        h = best[1]
        fitted[runtime] = h
        print(f"{runtime}: host {h} µs a kernel")
        for n, ks, t in rows:
            p = pipeline(ks, h)
            print(f"  {n:28} {p:10.1f} / {t:10.1f} µs {p / t - 1:+7.1%}   (kernels {len(ks)}, GPU {sum(ks):.1f} µs)")
    if "--write" in sys.argv:
        for name in ("h100", "h100-measured", "h100-2x8"):
            path = os.path.join(ROOT, "src", "cost", "presets", name + ".json")
            j = json.load(open(path))
            host = j["model"]["host"]
            new = dict(host, runtime_eager_us=fitted["eager"], runtime_compile_us=fitted["compile"])
            if "runtime_eager_us" not in host["source"]:
                new["source"] += ("; runtime_eager_us and runtime_compile_us: fitted by validation/gpu/models/"
                                  "fit_host.py on the plain-launch timings of the first whole-model batch (10 cases, "
                                  "fgraph emit torch modules, torch 2.11, H100 80GB HBM3)")
            j["model"]["host"] = new
            with open(path, "w") as fh:
                json.dump(j, fh, indent=2, ensure_ascii=False)
                fh.write("\n")


if __name__ == "__main__":
    main()
