"""fgraph's predictions for the batch norm probe (`bn_probe.py`): for each shape, the input's
and the statistics' dtypes and the layout, the CUDA kernels `--runtime eager` counts for one
`F.batch_norm` and the batch norm's own kernel in a stream (`per_kernel[].kernel_us`). A
channels-last input is written as a 1×1 max pool stating `channels_last = true` (its kernel
is not compared).

    FGRAPH=target/release/fgraph python3 predict_bn.py --part fit|heldout|heldout2 > predictions_PART.json
    python3 predict_bn.py --part PART --compare MEASURED.csv PREDICTIONS.json
"""
import argparse
import csv
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("FGRAPH", os.path.join(HERE, "..", "..", "..", "..", "target", "release", "fgraph"))
SHAPES = {"fit": [(8, 256, 56, 56), (8, 1024, 14, 14)],
          "heldout": [(32, 256, 56, 56), (16, 512, 28, 28), (64, 64, 112, 112), (4, 2048, 7, 7)],
          # After the refits on the first two parts (VALIDATION.md §35): around and beyond L2.
          "heldout2": [(16, 64, 112, 112), (24, 128, 56, 56), (32, 512, 28, 28), (128, 64, 56, 56),
                       (2, 256, 56, 56), (8, 512, 28, 28)]}
DTYPES = [("f16", "f16"), ("f16", "f32"), ("bf16", "bf16"), ("bf16", "f32"), ("f32", "f32")]
LAYOUTS = ("channels_last", "contiguous")


def source(shape, xd, pd, layout):
    s = ", ".join(map(str, shape))
    c = shape[1]
    pool = ", channels_last = true" if layout == "channels_last" else ""
    return (f"graph bn {{\n  input x0: {xd}[{s}]\n"
            + "".join(f"  weight {n}: {pd}[{c}, 1, 1]\n" for n in ("m", "v", "w", "b"))
            + f"  op p = max_pool(x0, kernel = 1{pool}) -> x: [{s}]\n"
            f"  op bn = elementwise.batchnorm(x, m, v, w, b, eps = 1e-5) -> y\n  output y\n}}\n")


def predict(shape, xd, pd, layout):
    with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as f:
        f.write(source(shape, xd, pd, layout))
    try:
        r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--runtime", "eager",
                            "--launch", "graph", f.name], capture_output=True, text=True, check=True)
    finally:
        os.unlink(f.name)
    ks = json.loads(r.stdout)["cost"]["runtime"]["per_kernel"]
    own = [k for k in ks if k["what"] == "kernel" and k["ops"] == ["bn"]]
    stats = [k for k in ks if k["what"] == "stats"]
    return {"shape": "x".join(map(str, shape)), "x": xd, "stats": pd, "layout": layout,
            "kernels": len(own) + len(stats), "bn_us": own[0]["kernel_us"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=sorted(SHAPES), required=True)
    ap.add_argument("--compare", nargs=2, metavar=("MEASURED", "PREDICTIONS"))
    a = ap.parse_args()
    if not a.compare:
        preds = [predict(s, xd, pd, lay) for s in SHAPES[a.part] for xd, pd in DTYPES for lay in LAYOUTS]
        print(json.dumps({"what": "fgraph's predictions for bn_probe.py, made before it is measured",
                          "part": a.part, "predictions": preds}, indent=1))
        return
    meas, preds = a.compare
    rows = list(csv.DictReader(open(meas)))
    n_count = n_time = n_big = 0
    for p in json.load(open(preds))["predictions"]:
        key = (p["shape"], p["x"], p["stats"], p["layout"])
        ks = [r for r in rows if (r["shape"], r["x"], r["stats"], r["layout"]) == key]
        kernels = [r for r in ks if "Memcpy" not in r["name"]]
        own = float(ks[-1]["duration_us"])
        err = p["bn_us"] / own - 1
        big = own > 20
        n_count += len(kernels) == p["kernels"]
        n_big += big
        n_time += big and abs(err) <= 0.20
        print(f"{p['shape']:14} {p['x']:5} {p['stats']:5} {p['layout']:14} kernels {p['kernels']}/{len(kernels)} "
              f"bn {p['bn_us']:8.2f} / {own:8.2f} µs {err:+7.1%}{'' if not big else (' ✓' if abs(err) <= 0.2 else ' ✗')}")
    print(f"kernel counts exact: {n_count} of {len(json.load(open(preds))['predictions'])}; "
          f"time within ±20% (kernels over 20 µs): {n_time} of {n_big}")


if __name__ == "__main__":
    main()
