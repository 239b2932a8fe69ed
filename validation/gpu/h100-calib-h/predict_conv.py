"""fgraph's predictions for the conv cases of batch h (issue 23 item 1), written BEFORE the
held-out half is measured.

    cargo build && python3 validation/gpu/h100-calib-h/predict_conv.py
        # writes predictions_conv.json: every held-out conv case
    python3 validation/gpu/h100-calib-h/predict_conv.py --part fit
        # prints the fit half's predictions against fit/measured_fit.csv (writes nothing)

Each case of cases.json (families conv1d, conv2d, conv3d) is written as a one-op `.fgraph`
file (`conv(x, w, stride = [..], padding = [..], dilation = [..], groups = G)`, with
`channels_last = true` for the channels-last layout) and run through the built binary,
`target/debug/fgraph analyze --format json --traffic-model hardware` (the `h100` preset).
fgraph's one kernel is the whole PyTorch call: its `dram_read` and `kernel_us` (launches
excluded, the sum of the cuDNN/PyTorch kernels, what `gpu_time_ns` measures) are the
predictions. fit_conv.py's `plan` (the same arithmetic, src/cost/hwmodel/conv.rs) gives the
per-kernel breakdown (`kernels`: role, reads, µs), checked here to add up to fgraph's totals.
"""
import argparse, csv, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
import fit_conv  # noqa: E402

BIN = os.path.join(ROOT, "target", "debug", "fgraph")


def source(c):
    x, w = c["shapes"]["x"], c["shapes"]["w"]
    p = c["params"]
    dims = lambda s: "[" + ", ".join(str(d) for d in s) + "]"
    attrs = [f"stride = {dims(p['stride'])}", f"padding = {dims(p['padding'])}",
             f"dilation = {dims(p['dilation'])}", f"groups = {p['groups']}"]
    if c["layout"] == "channels_last":
        attrs.append("channels_last = true")
    return (f"// {c['case']}\ngraph conv_case {{\n  dtype {c['dtype']}\n  input x: {dims(x)}\n"
            f"  weight w: {dims(w)}\n  op c = conv(x, w, {', '.join(attrs)}) -> y: {dims(c['shapes']['y'])}\n"
            f"  output y\n}}\n")


def run(c, tmp):
    path = os.path.join(tmp, c["case"] + ".fgraph")
    with open(path, "w") as f:
        f.write(source(c))
    out = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{c['case']}: fgraph failed ({out.returncode}): {out.stderr}{out.stdout}")
    hm = json.loads(out.stdout)["cost"]["hardware_model"]
    (k,) = hm["kernels"]
    return k


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", default="heldout", choices=["fit", "heldout"])
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit("build fgraph first: cargo build")
    co = json.load(open(os.path.join(ROOT, "src", "cost", "presets", "h100.json")))["model"]["conv"]
    cases = [c for c in json.load(open(os.path.join(HERE, "cases.json")))
             if c["part"] == a.part and c["family"] in ("conv1d", "conv2d", "conv3d")]
    measured = {}
    if a.part == "fit":
        measured = {r["case"]: r for r in csv.DictReader(open(os.path.join(HERE, "fit", "measured_fit.csv")))}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases:
            k = run(c, tmp)
            plan = fit_conv.plan(fit_conv.describe(c), co)
            pr, pt = sum(b for _, b, _ in plan), sum(t for _, _, t in plan)
            # fgraph and the Python arithmetic agree (rounding aside).
            if abs(pr / k["dram_read"] - 1) > 0.005 or abs(pt / k["kernel_us"] - 1) > 0.005:
                sys.exit(f"{c['case']}: fgraph {k['dram_read']} B {k['kernel_us']} µs, "
                         f"fit_conv.py {pr:.0f} B {pt:.2f} µs")
            rows.append({
                "case": c["case"], "family": c["family"], "group": c["group"], "dtype": c["dtype"],
                "layout": c["layout"], "shapes": c["shapes"], "params": c["params"],
                "predicted_dram_read": k["dram_read"],
                "predicted_dram_written": k["dram_written"],
                "predicted_kernel_us": round(k["kernel_us"], 2),
                "predicted_time_us": round(k["time_us"], 2),
                "kernels": [{"role": r, "dram_read": round(b), "kernel_us": round(t, 2)} for r, b, t in plan],
            })
    print(f"{'case':<72} {'kern':>4} {'reads MB':>9} {'µs':>8}" + (f" {'meas MB':>8} {'err':>5} {'meas µs':>8} {'err':>5}" if measured else ""))
    for r in rows:
        line = f"{r['case']:<72} {len(r['kernels']):>4} {r['predicted_dram_read']/1e6:9.2f} {r['predicted_kernel_us']:8.1f}"
        m = measured.get(r["case"])
        if m:
            mr, mt = int(m["dram_read"]), int(m["gpu_time_ns"]) / 1e3
            line += f" {mr/1e6:8.2f} {100*(r['predicted_dram_read']/mr-1):+4.0f}% {mt:8.1f} {100*(r['predicted_kernel_us']/mt-1):+4.0f}%"
        print(line)
    if a.part == "heldout":
        out = {
            "what": "fgraph's predictions for the held-out conv cases of batch h (issue 23 item 1), "
                    "made before they were measured: predicted_dram_read and predicted_kernel_us "
                    "(the sum of the kernels, launches excluded: compare with measured "
                    "dram_read and gpu_time_ns) of the whole PyTorch call; kernels: the cuDNN/"
                    "PyTorch kernels the model expects, in order, with their reads and times",
            "made_by": "validation/gpu/h100-calib-h/predict_conv.py (target/debug/fgraph analyze "
                       "--format json --traffic-model hardware, preset h100)",
            "model": co["source"],
            "cases": rows,
        }
        with open(os.path.join(HERE, "predictions_conv.json"), "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"wrote predictions_conv.json ({len(rows)} cases)")


if __name__ == "__main__":
    main()
