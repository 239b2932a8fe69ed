#!/usr/bin/env python3
"""fgraph's predictions for the routing families of batch h (issue 23 item 3).

Writes each case of the families topk, sort, argsort, index_select, index_add and cumsum as a
small .fgraph file, runs the built binary (`target/debug/fgraph analyze --format json
--traffic-model hardware`, the h100 preset) and records the predicted DRAM reads and kernel
time (launches excluded: ncu's `gpu_time_ns` sums kernel durations) per case.

    python3 validation/gpu/h100-calib-h/predict_routing.py            # held-out: predictions_routing.json
    python3 validation/gpu/h100-calib-h/predict_routing.py --part fit  # the fit half against its measurements

How each PyTorch call is written (one op, or the pair that is one kernel):
  topk          topk(x, k = K, axis = -1) -> v; topk_indices(v) -> i: i64[T, K]
  sort          sort(ids) -> v  (torch.sort's indices come from the same radix passes)
  argsort       argsort(ids) -> o: i64[n]
  index_select  gather(src, idx) with idx: i64[n]
  index_add     index_add(out, idx, src)
  cumsum        cumsum(x, axis = -1)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../.."))
BIN = os.path.join(ROOT, "target", "debug", "fgraph")
FAMILIES = ("topk", "sort", "argsort", "index_select", "index_add", "cumsum")


def dims(s):
    return ", ".join(map(str, s))


def source(c):
    s, dt, f = c["shapes"], c["dtype"], c["family"]
    if f == "topk":
        k = c["params"]["k"]
        body = (f"  input x: {dt}[{dims(s['x'])}]\n"
                f"  op top = topk(x, k = {k}, axis = -1) -> v\n"
                f"  op ids = topk_indices(v) -> i: i64[{dims(s['indices'])}]\n"
                "  output v, i\n")
    elif f == "sort":
        body = f"  input ids: i64[{dims(s['ids'])}]\n  op s = sort(ids) -> v\n  output v\n"
    elif f == "argsort":
        body = f"  input ids: i64[{dims(s['ids'])}]\n  op s = argsort(ids) -> o: i64[{dims(s['ids'])}]\n  output o\n"
    elif f == "index_select":
        body = (f"  input src: {dt}[{dims(s['src'])}]\n  input idx: i64[{dims(s['idx'])}]\n"
                "  op g = gather(src, idx, axis = 0) -> y\n  output y\n")
    elif f == "index_add":
        body = (f"  input out: {dt}[{dims(s['out'])}]\n  input idx: i64[{dims(s['idx'])}]\n"
                f"  input src: {dt}[{dims(s['src'])}]\n"
                "  op a = index_add(out, idx, src, axis = 0) -> y\n  output y\n")
    elif f == "cumsum":
        body = f"  input x: {dt}[{dims(s['x'])}]\n  op c = cumsum(x, axis = -1) -> y\n  output y\n"
    else:
        raise ValueError(f)
    return f"// {c['case']}\ngraph case {{\n{body}}}\n"


def analyze(text):
    with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        out = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware",
                              "--hardware", "h100", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        raise SystemExit(f"fgraph failed on\n{text}\n{out.stdout}{out.stderr}")
    hm = json.loads(out.stdout)["cost"]["hardware_model"]
    return dict(dram_read=hm["dram_read"], dram_written=hm["dram_written"],
                kernel_us=round(hm["kernel_us"], 3),
                kernels=[dict(family=k["family"], dram_read=k["dram_read"],
                              kernel_us=round(k["kernel_us"], 3)) for k in hm["kernels"]])


def main():
    part = sys.argv[sys.argv.index("--part") + 1] if "--part" in sys.argv else "heldout"
    cases = [c for c in json.load(open(os.path.join(HERE, "cases.json")))
             if c["part"] == part and c["family"] in FAMILIES]
    preds = []
    for c in cases:
        text = source(c)
        p = analyze(text)
        preds.append(dict(case=c["case"], family=c["family"], fgraph=text, **p))
    if part == "heldout":
        out = dict(
            what="fgraph's predictions for the held-out routing cases of batch h, made before "
                 "they are measured: DRAM reads (bytes) and kernel time (µs, launches excluded), "
                 "per case, under --traffic-model hardware on the h100 preset",
            made_by="validation/gpu/h100-calib-h/predict_routing.py",
            coefficients="model.routing of src/cost/presets/h100.json, fitted by fit_routing.py "
                         "on the fit half",
            cases=preds)
        with open(os.path.join(HERE, "predictions_routing.json"), "w") as fh:
            json.dump(out, fh, indent=1)
            fh.write("\n")
        for p in preds:
            print(f"{p['case']:52} reads {p['dram_read']:>12}  {p['kernel_us']:>9.1f} us")
        return
    measured = {r["case"]: r for r in csv.DictReader(open(os.path.join(HERE, "fit", "measured_fit.csv")))}
    print(f"{'case':52} {'read meas':>11} {'fgraph':>11} {'err':>6}  {'us meas':>8} {'fgraph':>8} {'err':>6}")
    for p in preds:
        m = measured[p["case"]]
        rd, t = float(m["dram_read"]), float(m["gpu_time_ns"]) / 1e3
        print(f"{p['case']:52} {rd:11.0f} {p['dram_read']:11d} {p['dram_read'] / rd - 1:+6.1%}  "
              f"{t:8.1f} {p['kernel_us']:8.1f} {p['kernel_us'] / t - 1:+6.1%}")


if __name__ == "__main__":
    main()
