"""A held-out set on 4 H100s for the model as it is after issue 24's whole-model work (issue
26): fgraph's predictions, written BEFORE the run, of tp_decode.py's TP-4 Llama-3-70B decode
steps at batches 4 and 8 against 8,192 cached positions (40 and 80 layers) and of the
expert-parallel Mixtral layer at EP 4 (1, 16, 512 and 4,096 tokens per rank).

    cargo build && python3 validation/gpu/nccl/predict_w4.py     # predictions_w4_ctx8192.json
    # device (nvidia-h100-x4, four H100s), after committing it:
    STAGES=steps STEPS_ARGS="--what llama,moe --layers 40,80 --batches 4,8 --ctx 8192" \\
        bash validation/gpu/nccl/run.sh 4 heldout COMMIT
    python3 validation/gpu/nccl/predict_w4.py --compare data/heldout_w4_ctx8192

The steps are written op by op by tp_steps.py's `step` and moe_steps.py's `layer`, priced by
`--runtime eager` (`graph`: `--launch graph`, `eager`: `--launch eager`) on the h100 preset.
"""
import argparse, csv, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import moe_steps as MS  # noqa: E402
import tp_steps as TS  # noqa: E402

OUT = os.path.join(HERE, "predictions_w4_ctx8192.json")
# The second set (`--set 2`): after the query-block rule of attention (src/cost/hwmodel/
# matmul.rs, `QUERY_BLOCK`, read off validation/gpu/attention-hd/decode), TP-2 and TP-4 steps
# at batches 2 and 6 against 16,384 cached positions, predicted before they are measured:
#   STAGES=steps STEPS_ARGS="--what llama --layers 24,48 --batches 2,6 --ctx 16384" bash run.sh 2 heldout COMMIT
#   STAGES=steps STEPS_ARGS="--what llama --layers 40,80 --batches 2,6 --ctx 16384" bash run.sh 4 heldout COMMIT
OUT2 = os.path.join(HERE, "predictions_tp_ctx16384.json")
SET2 = {2: (24, 48), 4: (40, 80)}


def predict2():
    steps = []
    for n, depths in SET2.items():
        for L in depths:
            for b in (2, 6):
                text = TS.step(n, b, L, ctx=16384)
                for mode in ("graph", "eager"):
                    rt = TS.analyze(text, mode)["cost"]["runtime"]
                    steps.append(dict(what="llama3_70b_tp_decode", world=n, batch=b, layers=L, mode=mode, ctx=16384,
                                      time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
                    print(steps[-1])
    return steps


def predict():
    steps = []
    for L in (40, 80):
        for b in (4, 8):
            text = TS.step(4, b, L, ctx=8192)
            for mode in ("graph", "eager"):
                rt = TS.analyze(text, mode)["cost"]["runtime"]
                steps.append(dict(what="llama3_70b_tp_decode", world=4, batch=b, layers=L, mode=mode, ctx=8192,
                                  time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
                print(steps[-1])
    for t in (1, 16, 512, 4096):
        text = MS.layer(4, t)
        for mode in ("graph", "eager"):
            rt = TS.analyze(text, mode)["cost"]["runtime"]
            steps.append(dict(what="mixtral_moe_ep", world=4, batch=t, layers=1, mode=mode,
                              time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
            print(steps[-1])
    return steps


def compare(folder, out=OUT):
    meas = {}
    for r in csv.DictReader(open(os.path.join(folder, "measured_steps.csv"))):
        if r.get("status", "ok") == "ok" and r["time_us"]:
            meas[(r["what"], int(r["world"]), int(r["batch"]), int(r["layers"]), r["mode"])] = float(r["time_us"])
    n = {}
    for s in json.load(open(out))["steps"]:
        m = meas.get((s["what"], s["world"], s["batch"], s["layers"], s["mode"]))
        if m is None:
            print(f"{s['what']:22} w{s['world']} batch {s['batch']:5} L {s['layers']:3} {s['mode']:5} not measured")
            continue
        e = s["time_us"] / m - 1
        k = n.setdefault((s["what"], s["mode"]), [0, 0])
        k[0] += abs(e) <= 0.15
        k[1] += 1
        print(f"{s['what']:22} w{s['world']} batch {s['batch']:5} L {s['layers']:3} {s['mode']:5} pred {s['time_us']:10.1f} "
              f"meas {m:10.1f} us {e:+7.1%}{'' if abs(e) <= 0.15 else '  x'}")
    for (w, mode), (ok, tot) in sorted(n.items()):
        print(f"{w:22} {mode:5} {ok}/{tot} within ±15%")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", metavar="FOLDER")
    ap.add_argument("--set", choices=["1", "2"], default="1")
    a = ap.parse_args()
    if a.compare:
        compare(a.compare, OUT2 if a.set == "2" else OUT)
        return
    if a.set == "2":
        with open(OUT2, "w") as fh:
            json.dump(dict(what="fgraph's --runtime eager predictions (h100 preset) of tp_decode.py's TP-2 and TP-4 steps "
                                "at batch 2 and 6 against 16,384 cached positions, made before they are measured",
                           made_by="validation/gpu/nccl/predict_w4.py --set 2", steps=predict2()), fh, indent=1)
            fh.write("\n")
        return
    with open(OUT, "w") as fh:
        json.dump(dict(what="fgraph's --runtime eager predictions (h100 preset) of tp_decode.py's TP-4 steps at batch 4 "
                            "and 8 against 8,192 cached positions and of the EP-4 Mixtral layer, made before they are "
                            "measured", made_by="validation/gpu/nccl/predict_w4.py", steps=predict()), fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
