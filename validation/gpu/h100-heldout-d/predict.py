"""Pre-registration: fgraph's predictions for every case of batch d, made before the device
call and committed with the hash of the fgraph that made them (predictions.json).

  cargo build --release && python3 validation/gpu/h100-heldout-d/predict.py [FGRAPH]

For each heldout/fit case (graphs/CASE.fgraph; attention cases with --flash-attention) and
each layer of validation/inductor/heldout/ (default fuser, and --fuser inductor) it runs

  fgraph analyze FILE --traffic-model hardware --hardware h100 --format json

and keeps, per kernel of fgraph's plan, the ops, the compulsory reads and roofline time
(`compulsory_read`, `roofline_us` = max(compute_us, memory_us)) and the hardware model's
`dram_read` and `kernel_us` (cost.hardware_model), and the graph's totals.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from cases import CASES, LAYERS  # noqa: E402


def analyze(fgraph, path, extra):
    cmd = [fgraph, "analyze", path, "--traffic-model", "hardware", "--hardware", "h100",
           "--format", "json"] + extra
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    d = json.loads(out.stdout)
    hm = d["cost"]["hardware_model"]
    kernels = []
    for g, k in zip(d["groups"], hm["kernels"]):
        c = g["cost"]
        kernels.append(dict(ops=g["ops"], compulsory_read=g["bytes_read"],
                            compulsory_written=g["bytes_written"],
                            roofline_us=max(c["compute_us"], c["memory_us"]),
                            dram_read=k["dram_read"], kernel_us=k["kernel_us"], family=k["family"]))
    assert len(d["groups"]) == len(hm["kernels"])
    return dict(command=" ".join(["fgraph"] + cmd[1:]), kernels=kernels,
                dram_read=hm["dram_read"], kernel_us=hm["kernel_us"],
                roofline_us=sum(k["roofline_us"] for k in kernels))


def main():
    fgraph = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "fgraph")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "src"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    res = dict(fgraph_commit=commit, src_clean=not dirty, cases={}, layers={})
    for c in CASES:
        path = os.path.relpath(os.path.join(HERE, "graphs", c["case"] + ".fgraph"), ROOT)
        extra = ["--flash-attention"] if c["kind"] == "attention" else []
        res["cases"][c["case"]] = analyze(fgraph, path, extra)
    for name in LAYERS:
        path = f"validation/inductor/heldout/{name}.fgraph"
        res["layers"][name] = {"seed": analyze(fgraph, path, []),
                               "inductor": analyze(fgraph, path, ["--fuser", "inductor"])}
    with open(os.path.join(HERE, "predictions.json"), "w") as fh:
        json.dump(res, fh, indent=1)
        fh.write("\n")
    print(len(res["cases"]), "cases,", len(res["layers"]), "layers; fgraph", commit, "src clean:", res["src_clean"])


if __name__ == "__main__":
    main()
