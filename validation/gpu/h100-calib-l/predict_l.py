"""fgraph's predictions for batch l's held-out cases (issue 23 item 7), written BEFORE they are
measured, and the earlier held-out cases of the refitted families predicted again.

    cargo build && python3 validation/gpu/h100-calib-l/predict_l.py
        # writes predictions_l.json (every case of cases.json), refit_k.json (batch k's
        # held-out top-k and associative-scan cases under batch l's refit, which was fitted on
        # them) and refit_i.json (batch i's held-out top-k, w4a16 and associative-scan cases
        # under the model now: fit figures, not held-out ones)
    python3 validation/gpu/h100-calib-l/predict_l.py --compare
        # once heldout/measured_heldout.csv exists: the committed predictions against it
    python3 validation/gpu/h100-calib-l/predict_l.py --compare-k
        # refit_k.json against batch k's measurements (a fit figure)

Each case is written as a small `.fgraph` file (predict_i.py's `source`) and run through the
built binary (predict_i.py's `analyze`): the sum of its kernels' `dram_read` and `kernel_us`
(launches excluded; what ncu's `gpu__time_duration` sums) are the predictions. Targets
(issue 23): DRAM reads within ±15%, time within ±20% for cases over 20 µs.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(GPU, "h100-calib-h"))
sys.path.insert(0, os.path.join(GPU, "h100-calib-i"))
sys.path.insert(0, os.path.join(GPU, "h100-calib-k"))
import predict_i  # noqa: E402  (source, analyze, compare)
import predict_k  # noqa: E402  (predict)

REFITTED = ("topk", "assoc_scan")


def write(name, what, coefficients, cases):
    predict_k.write(name, what, coefficients, cases, made_by="validation/gpu/h100-calib-l/predict_l.py", here=HERE)


def again(path, families):
    return [dict(case=p["case"], family=p["family"], fgraph=p["fgraph"], **predict_i.analyze(p["fgraph"], p["case"]))
            for p in json.load(open(path))["cases"] if p["family"] in families]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--compare-k", action="store_true")
    a = ap.parse_args()
    if a.compare:
        preds = json.load(open(os.path.join(HERE, "predictions_l.json")))["cases"]
        predict_i.compare(preds, os.path.join(HERE, "heldout", "measured_heldout.csv"))
        return
    if a.compare_k:
        preds = json.load(open(os.path.join(HERE, "refit_k.json")))["cases"]
        predict_i.compare(preds, os.path.join(GPU, "h100-calib-k", "heldout", "measured_heldout.csv"))
        return
    if not os.path.exists(predict_i.BIN):
        sys.exit("build fgraph first: cargo build")
    preds = predict_k.predict(json.load(open(os.path.join(HERE, "cases.json"))))
    write("predictions_l.json",
          "fgraph's predictions for batch l's held-out cases, made before they are measured: DRAM reads (bytes) "
          "and kernel time (µs, launches excluded) per case, under --traffic-model hardware on the h100 preset",
          "src/cost/presets/h100.json: model.routing.topk/topk_rows and model.scan.associative_split (fit_l.py "
          "on batches h, i and k), fitted without batch l", preds)
    for p in preds:
        print(f"{p['case'][:80]:80} reads {p['dram_read']:>12}  {p['kernel_us']:>9.1f} µs")
    write("refit_k.json",
          "batch k's held-out top-k and associative-scan cases as fgraph predicts them after batch l's refit, which "
          "was fitted on them: fit figures (predictions_k.json keeps the pre-registered figures)",
          "src/cost/presets/h100.json (fit_l.py)",
          again(os.path.join(GPU, "h100-calib-k", "predictions_k.json"), REFITTED))
    write("refit_i.json",
          "batch i's held-out top-k, w4a16 and associative-scan cases as fgraph predicts them after batches k and "
          "l's refits, which were fitted on them: fit figures (predictions_i.json keeps the pre-registered figures)",
          "src/cost/presets/h100.json (fit_k.py, fit_l.py)",
          again(os.path.join(GPU, "h100-calib-i", "predictions_i.json"), ("topk", "w4a16", "assoc_scan")))


if __name__ == "__main__":
    main()
