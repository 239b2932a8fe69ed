"""fgraph's predictions for batch i's cases (issue 23 item 7), written BEFORE the held-out half
is measured.

    cargo build && python3 validation/gpu/h100-calib-i/predict_i.py
        # writes predictions_i.json: every held-out case
    python3 validation/gpu/h100-calib-i/predict_i.py --part fit
        # prints the fit half's predictions against fit/measured_fit.csv (writes nothing)
    python3 validation/gpu/h100-calib-i/predict_i.py --part heldout --compare
        # once heldout/measured_heldout.csv exists: the committed predictions against it

Each case is written as a small `.fgraph` file (`source`) and run through the built binary,
`target/debug/fgraph analyze --format json --traffic-model hardware --hardware h100`. fgraph's
kernels of the file are the whole PyTorch call: the sum of their `dram_read` and `kernel_us`
(launches excluded; what ncu's `gpu__time_duration` sums) are the predictions.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-h"))
import predict_conv  # noqa: E402  (batch h's conv source)
import predict_routing  # noqa: E402  (batch h's top-k source)

BIN = os.path.join(ROOT, "target", "debug", "fgraph")


def dims(s):
    return ", ".join(map(str, s))


def source(c):
    f, s, p, dt = c["family"], c["shapes"], c["params"], c["dtype"]
    if f.startswith("conv"):
        return predict_conv.source(c)
    if f == "topk":
        return predict_routing.source(c)
    if f == "selective_scan":
        raise NotImplementedError("the Triton reference kernel (scan_kernel.py): its reads are compared, "
                                  "fgraph prices mamba_ssm's kernel (family selective_scan_cuda)")
    if f == "selective_scan_cuda":
        Bn, Dm, L = s["u"]
        N = s["A"][1]
        body = (f"  dtype {dt}\n"
                f"  input u: [{Bn}, {Dm}, {L}]\n  input delta: [{Bn}, {Dm}, {L}]\n"
                f"  input A: f32[{Dm}, {N}]\n  input B: [{Bn}, {N}, {L}]\n  input C: [{Bn}, {N}, {L}]\n"
                f"  input D: f32[{Dm}]\n  input z: [{Bn}, {Dm}, {L}]\n  input db: f32[{Dm}]\n"
                "  op s = selective_scan(u, delta, A, B, C, D, z, db, delta_softplus = true) -> y\n"
                "  output y\n")
        return f"// {c['case']}\ngraph case {{\n{body}}}\n"
    if f == "assoc_scan":
        if p["combine"] == "add":
            body = (f"  input x: f32[{dims(s['x'])}]\n"
                    "  op s = associative_scan.add(x, axis = -1) -> y\n  output y\n")
        else:
            # Inductor also writes the running product of `a` (the pair scan's first
            # output); fgraph's op writes h only.
            body = (f"  input a: f32[{dims(s['a'])}]\n  input b: f32[{dims(s['b'])}]\n"
                    "  op s = associative_scan.linear(a, b, axis = -1) -> h\n  output h\n")
        return f"// {c['case']}\ngraph case {{\n{body}}}\n"
    if f in QUANT_SOURCE:
        return QUANT_SOURCE[f](c)
    raise NotImplementedError(f"no fgraph source for family {f} yet")


def scaled_mm_source(c):
    s = c["shapes"]
    body = (f"  input a: f8e4m3[{dims(s['a'])}]\n  input b: f8e4m3[{dims(s['b'])}]\n"
            f"  input sa: f32[{dims(s['scale_a'])}]\n  input sb: f32[{dims(s['scale_b'])}]\n"
            f"  op m = scaled_mm(a, b, sa, sb) -> y: bf16[{dims(s['y'])}]\n  output y\n")
    return f"// {c['case']}\ngraph case {{\n{body}}}\n"


def int_mm_source(c):
    s = c["shapes"]
    body = (f"  input a: i8[{dims(s['a'])}]\n  input b: i8[{dims(s['b'])}]\n"
            f"  op m = matmul(a, b) -> y: i32[{dims(s['y'])}]\n  output y\n")
    return f"// {c['case']}\ngraph case {{\n{body}}}\n"


def w4a16_source(c):
    # tinygemm's int4 weights, two a byte ([K/2, N] u8), and its scales_and_zeros [K/g, N, 2]
    # bf16 as fgraph's scales and zeros [K/g, N] each.
    s, g = c["shapes"], c["params"]["group_size"]
    M, K = s["x"]
    N = s["y"][1]
    body = (f"  input x: bf16[{M}, {K}]\n  weight w: u8[{K // 2}, {N}]\n"
            f"  weight sc: bf16[{K // g}, {N}]\n  weight zp: bf16[{K // g}, {N}]\n"
            f"  op m = quant_mm(x, w, sc, zp, bits = 4, group_size = {g}) -> y\n  output y\n")
    return f"// {c['case']}\ngraph case {{\n{body}}}\n"


QUANT_SOURCE = {"scaled_mm": scaled_mm_source, "int_mm": int_mm_source, "w4a16": w4a16_source}


def analyze(text, name):
    with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        out = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware",
                              "--hardware", "h100", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        raise SystemExit(f"{name}: fgraph failed ({out.returncode}) on\n{text}\n{out.stdout}{out.stderr}")
    hm = json.loads(out.stdout)["cost"]["hardware_model"]
    return dict(dram_read=hm["dram_read"], dram_written=hm["dram_written"],
                kernel_us=round(hm["kernel_us"], 3),
                kernels=[dict(family=k["family"], dram_read=k["dram_read"], kernel_us=round(k["kernel_us"], 3))
                         for k in hm["kernels"]])


def predict(part, families=None):
    cases = [c for c in json.load(open(os.path.join(HERE, "cases.json"))) if c["part"] == part
             and (families is None or c["family"] in families)]
    out = []
    for c in cases:
        try:
            text = source(c)
        except NotImplementedError as ex:
            print(f"skipped {c['case']}: {ex}", file=sys.stderr)
            continue
        out.append(dict(case=c["case"], family=c["family"], fgraph=text, **analyze(text, c["case"])))
    return out


def compare(preds, measured_csv):
    measured = {r["case"]: r for r in csv.DictReader(open(measured_csv))}
    fams = {}
    for p in preds:
        m = measured.get(p["case"])
        if not m or not m["gpu_time_ns"]:
            print(f"{p['case'][:70]:70} not measured")
            continue
        rd, t = float(m["dram_read"]), float(m["gpu_time_ns"]) / 1e3
        er, et = p["dram_read"] / rd - 1, p["kernel_us"] / t - 1
        okr, okt = abs(er) <= 0.15, abs(et) <= 0.20
        f = fams.setdefault(p["family"], [0, 0, 0, 0])
        f[0] += 1
        f[1] += okr
        if t > 20:
            f[2] += 1
            f[3] += okt
        flag = ("" if okr else " R") + ("" if okt or t <= 20 else " T")
        print(f"{p['case'][:70]:70} reads {er:+6.1%}  time {p['kernel_us']:8.1f} / {t:8.1f} µs {et:+6.1%}"
              f"{' (≤ 20 µs)' if t <= 20 else ''}{flag}")
    print()
    for f, (n, nr, nt, ntok) in fams.items():
        print(f"{f:15s} {n:3d} cases: reads within ±15% {nr}/{n}, time within ±20% {ntok}/{nt} (over 20 µs)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", default="heldout", choices=["fit", "heldout"])
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--family", action="append")
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit("build fgraph first: cargo build")
    if a.part == "heldout" and a.compare:
        preds = json.load(open(os.path.join(HERE, "predictions_i.json")))["cases"]
        compare(preds, os.path.join(HERE, "heldout", "measured_heldout.csv"))
        return
    preds = predict(a.part, a.family)
    if a.part == "fit":
        compare(preds, os.path.join(HERE, "fit", "measured_fit.csv"))
        return
    out = dict(
        what="fgraph's predictions for batch i's held-out cases, made before they are measured: DRAM reads "
             "(bytes) and kernel time (µs, launches excluded) per case, under --traffic-model hardware on the "
             "h100 preset",
        made_by="validation/gpu/h100-calib-i/predict_i.py",
        coefficients="src/cost/presets/h100.json: model.conv (fit_conv_i.py), model.routing.topk/topk_rows "
                     "(fit_topk_i.py), and the scan and low-precision families (their fit scripts), all fitted "
                     "without batch i's held-out half",
        cases=preds)
    with open(os.path.join(HERE, "predictions_i.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    for p in preds:
        print(f"{p['case'][:70]:70} reads {p['dram_read']:>12}  {p['kernel_us']:>9.1f} µs")


if __name__ == "__main__":
    main()
