"""Pre-registration: fgraph's predictions for every case and layer of batch f, made before the
device call and committed with the hash of the fgraph that made them (predictions.json).

  cargo build --release && python3 validation/gpu/h100-heldout-f/predict_f.py [FGRAPH]

Batch d's `analyze` (../h100-heldout-d/predict.py, imported) runs, for each case
(graphs/CASE.fgraph) and each layer (layers/NAME.fgraph),

  fgraph analyze FILE --traffic-model hardware --hardware h100 --format json

with the flags a user would give: attention cases `--flash-attention`, the is_causal ones
also `--causal-attention`; layers as they are (`seed`) and with `--fuser inductor` (what
torch.compile runs: `inductor`). Eager layers are priced by tests/hw_heldout_f.rs through
the library over fgraph's unfused plan (every op that is not a layout op a kernel of its
own; reshape, permute, slice, expand join their consumer's kernel: views in PyTorch), no
CLI flag giving that plan. It keeps, per kernel of fgraph's plan, the ops, the
compulsory reads and roofline time and the hardware model's `dram_read` and `kernel_us`
(cost.hardware_model), and the graph's totals.
"""
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from cases_f import CASES, LAYERS  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "h100-heldout-d"))
_spec = importlib.util.spec_from_file_location("predict_d", os.path.join(HERE, "..", "h100-heldout-d", "predict.py"))
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)


def main():
    fgraph = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "fgraph")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "src"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    res = dict(fgraph_commit=commit, src_clean=not dirty, cases={}, layers={})
    for c in CASES:
        path = os.path.relpath(os.path.join(HERE, "graphs", c["case"] + ".fgraph"), ROOT)
        extra = []
        if c["kind"] == "attention":
            extra = ["--flash-attention"] + (["--causal-attention"] if c["causal"] else [])
        res["cases"][c["case"]] = P.analyze(fgraph, path, extra)
    for name in LAYERS:
        path = os.path.relpath(os.path.join(HERE, "layers", name + ".fgraph"), ROOT)
        res["layers"][name] = {"seed": P.analyze(fgraph, path, []),
                               "inductor": P.analyze(fgraph, path, ["--fuser", "inductor"])}
    with open(os.path.join(HERE, "predictions.json"), "w") as fh:
        json.dump(res, fh, indent=1)
        fh.write("\n")
    print(len(res["cases"]), "cases,", len(res["layers"]), "layers; fgraph", commit, "src clean:", res["src_clean"])


if __name__ == "__main__":
    main()
