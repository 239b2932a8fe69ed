"""fgraph's predictions for batch k's held-out cases (issue 23 item 7), written BEFORE they are
measured, and batch i's held-out cases of the refitted families predicted again.

    cargo build && python3 validation/gpu/h100-calib-k/predict_k.py
        # writes predictions_k.json (every case of cases.json) and refit_i.json (batch i's
        # held-out top-k, w4a16 and associative-scan cases under batch k's refit: fitted on,
        # so not a held-out figure)
    python3 validation/gpu/h100-calib-k/predict_k.py --compare
        # once heldout/measured_heldout.csv exists: the committed predictions against it
    python3 validation/gpu/h100-calib-k/predict_k.py --compare-i
        # refit_i.json against batch i's held-out measurements (a fit figure)

Each case is written as a small `.fgraph` file (predict_i.py's `source`) and run through the
built binary, `target/debug/fgraph analyze --format json --traffic-model hardware --hardware
h100` (predict_i.py's `analyze`): the sum of its kernels' `dram_read` and `kernel_us`
(launches excluded; what ncu's `gpu__time_duration` sums) are the predictions. Targets
(issue 23): DRAM reads within ±15%, time within ±20% for cases over 20 µs.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
I = os.path.join(HERE, "..", "h100-calib-i")
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-h"))
sys.path.insert(0, I)
import predict_i  # noqa: E402  (source, analyze, compare)

REFITTED = ("topk", "w4a16", "assoc_scan")


def predict(cases):
    out = []
    for c in cases:
        text = predict_i.source(c)
        out.append(dict(case=c["case"], family=c["family"], fgraph=text, **predict_i.analyze(text, c["case"])))
    return out


def write(name, what, coefficients, cases, made_by="validation/gpu/h100-calib-k/predict_k.py", here=HERE):
    """A predictions file: `cases` with what they are and the coefficients they come from."""
    with open(os.path.join(here, name), "w") as fh:
        json.dump(dict(what=what, made_by=made_by, coefficients=coefficients, cases=cases), fh, indent=1)
        fh.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--compare-i", action="store_true")
    a = ap.parse_args()
    if a.compare:
        preds = json.load(open(os.path.join(HERE, "predictions_k.json")))["cases"]
        predict_i.compare(preds, os.path.join(HERE, "heldout", "measured_heldout.csv"))
        return
    if a.compare_i:
        preds = json.load(open(os.path.join(HERE, "refit_i.json")))["cases"]
        predict_i.compare(preds, os.path.join(I, "heldout", "measured_heldout.csv"))
        return
    if not os.path.exists(predict_i.BIN):
        sys.exit("build fgraph first: cargo build")
    preds = predict(json.load(open(os.path.join(HERE, "cases.json"))))
    write("predictions_k.json",
          "fgraph's predictions for batch k's held-out cases, made before they are measured: DRAM reads (bytes) "
          "and kernel time (µs, launches excluded) per case, under --traffic-model hardware on the h100 preset",
          "src/cost/presets/h100.json: model.routing.topk/topk_rows, model.quant.weight_only and "
          "model.scan.associative_split (fit_k.py on batches h and i, both halves), fitted without batch k",
          preds)
    for p in preds:
        print(f"{p['case'][:80]:80} reads {p['dram_read']:>12}  {p['kernel_us']:>9.1f} µs")
    pi = json.load(open(os.path.join(I, "predictions_i.json")))["cases"]
    refit = [dict(case=p["case"], family=p["family"], fgraph=p["fgraph"], **predict_i.analyze(p["fgraph"], p["case"]))
             for p in pi if p["family"] in REFITTED]
    write("refit_i.json",
          "batch i's held-out top-k, w4a16 and associative-scan cases as fgraph predicts them after batch k's "
          "refit, which was fitted on them: fit figures, not held-out ones (predictions_i.json keeps the "
          "pre-registered figures)",
          "src/cost/presets/h100.json (fit_k.py)", refit)


if __name__ == "__main__":
    main()
