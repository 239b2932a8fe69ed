"""fgraph's predictions for batch j's held-out conv cases (issue 23 item 7), written BEFORE
they are measured, and batch i's held-out conv cases predicted again after batch j's refit.

    cargo build && python3 validation/gpu/h100-calib-j/predict_j.py
        # writes predictions_j.json (every case of cases.json) and refit_i.json (batch i's
        # held-out conv cases under the refit: fitted on, so not a held-out figure)
    python3 validation/gpu/h100-calib-j/predict_j.py --compare
        # once heldout/measured_heldout.csv exists: the committed predictions against it
    python3 validation/gpu/h100-calib-j/predict_j.py --compare-i
        # refit_i.json against batch i's held-out measurements (a fit figure)

Each case is written as a small `.fgraph` file (batch h's `predict_conv.source`) and run
through the built binary, `target/debug/fgraph analyze --format json --traffic-model hardware
--hardware h100` (predict_i.py's `analyze`): the sum of its kernels' `dram_read` and
`kernel_us` (launches excluded; what ncu's `gpu__time_duration` sums) are the predictions.
Targets (issue 23): DRAM reads within ±15%, time within ±20% for cases over 20 µs.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
I = os.path.join(HERE, "..", "h100-calib-i")
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-h"))
sys.path.insert(0, I)
import predict_conv  # noqa: E402  (batch h's conv source)
import predict_i  # noqa: E402  (analyze, compare)

BIN = predict_i.BIN


def predict(cases):
    out = []
    for c in cases:
        text = predict_conv.source(c)
        out.append(dict(case=c["case"], family=c["family"], fgraph=text, **predict_i.analyze(text, c["case"])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--compare-i", action="store_true")
    a = ap.parse_args()
    if a.compare:
        preds = json.load(open(os.path.join(HERE, "predictions_j.json")))["cases"]
        predict_i.compare(preds, os.path.join(HERE, "heldout", "measured_heldout.csv"))
        return
    if a.compare_i:
        preds = json.load(open(os.path.join(HERE, "refit_i.json")))["cases"]
        predict_i.compare(preds, os.path.join(I, "heldout", "measured_heldout.csv"))
        return
    if not os.path.exists(BIN):
        sys.exit("build fgraph first: cargo build")
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    preds = predict(cases)
    out = dict(
        what="fgraph's predictions for batch j's held-out conv cases, made before they are measured: DRAM reads "
             "(bytes) and kernel time (µs, launches excluded) per case, under --traffic-model hardware on the "
             "h100 preset",
        made_by="validation/gpu/h100-calib-j/predict_j.py",
        coefficients="src/cost/presets/h100.json: model.conv (fit_conv_i.py, then fit_conv_j.py on batches h and i, "
                     "both halves), fitted without batch j",
        cases=preds)
    with open(os.path.join(HERE, "predictions_j.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    for p in preds:
        print(f"{p['case'][:80]:80} reads {p['dram_read']:>12}  {p['kernel_us']:>9.1f} µs")
    # Batch i's held-out conv cases under the refit (the same `.fgraph` texts as
    # predictions_i.json, which keeps the pre-registered figures).
    pi = json.load(open(os.path.join(I, "predictions_i.json")))["cases"]
    refit = []
    for p in pi:
        if p["family"].startswith("conv"):
            refit.append(dict(case=p["case"], family=p["family"], fgraph=p["fgraph"],
                              **predict_i.analyze(p["fgraph"], p["case"])))
    out = dict(
        what="batch i's held-out conv cases as fgraph predicts them after batch j's refit, which was fitted on "
             "them: fit figures, not held-out ones (predictions_i.json keeps the pre-registered figures)",
        made_by="validation/gpu/h100-calib-j/predict_j.py",
        coefficients="src/cost/presets/h100.json: model.conv (fit_conv_j.py)",
        cases=refit)
    with open(os.path.join(HERE, "refit_i.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
