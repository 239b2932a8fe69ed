"""fgraph's predictions for issue 26's 8-GPU runs, written BEFORE they are measured: the
held-out NCCL sizes at world 8 (bf16; fit_comm.py's one-op graphs), the TP-8 Llama-3-70B
decode step (batches 1 and 16 against 4,096 cached positions, 40 and 80 layers) and the EP-8
Mixtral layer (1 to 4,096 tokens per rank). No 8-GPU machine has been lent yet; these wait
for one.

    cargo build && python3 validation/gpu/nccl/predict_w8.py          # predictions_w8.json
    # device (nvidia-h100-x8), after committing it:
    bash validation/gpu/nccl/run.sh 8 heldout COMMIT                  # collectives and steps
    #   (STEPS_ARGS="--what llama,moe --layers 40,80" for the step depths predicted here)
    python3 validation/gpu/nccl/extract.py FOLDER
    python3 validation/gpu/nccl/compare.py --predictions validation/gpu/nccl/predictions_w8.json \\
        --measured FOLDER --part heldout
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_comm as FC  # noqa: E402
import moe_steps as MS  # noqa: E402
import nccl_bench as B  # noqa: E402
import tp_steps as TS  # noqa: E402


def collectives():
    preds = []
    for c in B.cases(8, "heldout", dtypes=("bf16",)):
        col, dt, size = c["collective"], c["dtype"], c["size"]
        text = FC.source(col, 8, size, dt)
        with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as fh:
            fh.write(text)
            path = fh.name
        try:
            out = subprocess.run([FC.BIN, "analyze", "--format", "json", "--traffic-model", "hardware",
                                  "--hardware", "h100", path], capture_output=True, text=True, check=True)
        finally:
            os.unlink(path)
        hm = json.loads(out.stdout)["cost"]["hardware_model"]
        # The GPU's time, as fit_comm.py's predictions: CUDA-graph rows up to 64 MiB, eager above.
        mode = "graph" if size <= 64 << 20 and col != "send_recv" else "eager"
        preds.append(dict(collective=col, dtype=dt, size_bytes=size, world=8, mode=mode,
                          time_us=round(hm["kernel_us"], 3), fgraph=text))
    return preds


def steps():
    out = []
    for L in (40, 80):
        for b in (1, 16):
            text = TS.step(8, b, L)
            for mode in ("graph", "eager"):
                rt = TS.analyze(text, mode)["cost"]["runtime"]
                out.append(dict(what="llama3_70b_tp_decode", world=8, batch=b, layers=L, mode=mode,
                                time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
    for t in (1, 16, 512, 4096):
        text = MS.layer(8, t)
        for mode in ("graph", "eager"):
            rt = TS.analyze(text, mode)["cost"]["runtime"]
            out.append(dict(what="mixtral_moe_ep", world=8, batch=t, layers=1, mode=mode,
                            time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
    return out


def main():
    d = dict(what="fgraph's predictions for the 8-GPU runs (held-out NCCL sizes, TP-8 decode, EP-8 MoE), made "
                  "before they are measured", made_by="validation/gpu/nccl/predict_w8.py",
             collectives=collectives(), steps=steps())
    with open(os.path.join(HERE, "predictions_w8.json"), "w") as fh:
        json.dump(d, fh, indent=1)
        fh.write("\n")
    print(len(d["collectives"]), "collectives,", len(d["steps"]), "steps")


if __name__ == "__main__":
    main()
