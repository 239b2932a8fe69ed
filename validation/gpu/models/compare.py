"""The whole-model table (issue 24 item 4): fgraph's committed predictions
(predictions_models.json) against the measurement (DATA/measured_models.csv).

    python3 validation/gpu/models/compare.py [DATA [PREDICTIONS]]   # default: data, predictions_models.json
    python3 validation/gpu/models/compare.py validation/gpu/models/data2 predictions_models_2.json   # batch 2
    python3 validation/gpu/models/compare.py validation/gpu/models/data final_batch1.json           # batch 1 after the refit

Targets (issue 24): within ±10% by CUDA-graph replay, ±15% with plain launches. Per-layer
slopes for the cases measured at two depths (l4, l8): (t(8) − t(4)) / 4.
"""
import csv, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "data")
    pfile = sys.argv[2] if len(sys.argv) > 2 else "predictions_models.json"
    preds = {(p["case"], p["runtime"], p["launch"]): p for p in json.load(open(os.path.join(HERE, pfile)))["predictions"]}
    meas = {}
    for r in csv.DictReader(open(os.path.join(data, "measured_models.csv"))):
        if r["status"] == "ok":
            meas[(r["case"], r["runtime"], r["launch"])] = r
    n = ok = 0
    print(f"{'case':28} {'runtime':8} {'launch':6} {'pred µs':>10} {'meas µs':>10} {'err':>7}  kernels pred/meas")
    for key in sorted(preds):
        p, m = preds[key], meas.get(key)
        if not m:
            print(f"{key[0]:28} {key[1]:8} {key[2]:6} not measured")
            continue
        t, e = float(m["time_us"]), p["time_us"] / float(m["time_us"]) - 1
        tol = 0.10 if key[2] == "graph" else 0.15
        n += 1
        ok += abs(e) <= tol
        print(f"{key[0]:28} {key[1]:8} {key[2]:6} {p['time_us']:10.1f} {t:10.1f} {e:+7.1%}{'' if abs(e) <= tol else ' ✗'}"
              f"  {p['kernels']}/{m['kernels']}")
    print(f"within target (±10% graph, ±15% plain): {ok} of {n}")
    print("per-layer slopes (8 − 4 layers) / 4:")
    for base in sorted({k[0][:-3] for k in preds if k[0].endswith("_l4")}):
        for rt in ("eager", "compile"):
            for la in ("graph", "eager"):
                a, b = (base + "_l4", rt, la), (base + "_l8", rt, la)
                if a in meas and b in meas:
                    ps = (preds[b]["time_us"] - preds[a]["time_us"]) / 4
                    ms = (float(meas[b]["time_us"]) - float(meas[a]["time_us"])) / 4
                    print(f"  {base:24} {rt:8} {la:6} {ps:10.1f} {ms:10.1f} {ps / ms - 1:+7.1%}")


if __name__ == "__main__":
    main()
