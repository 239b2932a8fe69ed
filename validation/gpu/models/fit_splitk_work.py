"""Fits `model.split_k.work` (issue 24, VALIDATION.md §63): which skinny GEMMs cuBLAS splits.

`model.split_k` lets a GEMM split its K loop when it is not batched, K >= min_k and it has
fewer than `max_tiles_fraction * sms` output tiles of 32 x 64. The eager traces of batches
1-38 (`data*/kernels_models.csv`, H100, torch 2.11) name what cuBLAS ran: a GEMM followed by
`splitKreduce_kernel` (or named `*_splitK_*`) split. Every measured eager step whose trace has
as many GEMM launches as `--runtime eager` has matmul kernels is paired GEMM by GEMM in launch
order; the binary, with the preset's `work` removed (`--hardware-file`), says which the basic
rule lets split, and each GEMM's M, N, K come from `analyze --format json`. Among those, the
work rule keeps a split when the GEMM has fewer than `few_tiles_fraction * sms` skinny tiles
(N / tile_n columns, `tile_n_16` for 9 to 16 rows, as cuBLAS's nvjet 64x8 and 128x16 kernels
are named) or when `K * sms / tiles >= min_work`. The script prints the GEMM launches called
wrong by the basic rule and by each (few_tiles_fraction, min_work) of a grid, and the bracket
of `min_work` the data allow (the largest work of an unsplit GEMM with many tiles, the
smallest of a split one).

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_splitk_work.py
"""
import collections
import csv
import glob
import json
import math
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BIN = os.environ.get("FGRAPH", os.path.join(ROOT, "target", "release", "fgraph"))
SMS = 132
GEMM = ("nvjet", "gemm", "gemv", "Kernel2", "cutlass", "sm90_xmma")


def traces():
    """(data folder, case) → its eager trace's kernel names in launch order."""
    out = {}
    for path in glob.glob(os.path.join(HERE, "data*", "kernels_models.csv")):
        folder = os.path.basename(os.path.dirname(path))
        rows = collections.defaultdict(list)
        for r in csv.DictReader(open(path)):
            if r["runtime"] == "eager":
                rows[r["case"]].append(r)
        for case, rs in rows.items():
            out[(folder, case)] = [r["name"] for r in sorted(rs, key=lambda r: int(r["index"]))]
    return out


def analyze(case, hardware):
    """`analyze --format json` of a case of cases.json under `--runtime eager`."""
    src = open(os.path.join(ROOT, case["file"])).read()
    if case.get("depth"):
        old, new = case["depth"]
        src = src.replace(f"repeat {old} ", f"repeat {new} ")
    # Beside the examples, so that their imports resolve.
    path = os.path.join(ROOT, "examples", ".fit_splitk_case.fgraph")
    with open(path, "w") as fh:
        fh.write(src)
    args = [BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--runtime", "eager",
            "--launch", "graph", "--hardware-file", hardware, path]
    for k, v in case["params"].items():
        args += ["--set", f"{k}={v}"]
    try:
        return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    finally:
        os.remove(path)


def gemms():
    """(M, N, K, dtype, basic rule splits, measured split) of every paired GEMM launch."""
    preset = json.loads(subprocess.run([BIN, "hardware", "h100", "--format", "json"], capture_output=True,
                                       text=True, check=True).stdout)
    preset["model"]["split_k"].pop("work", None)
    hw = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(preset, hw)
    hw.close()
    tr = traces()
    out, seen, unpaired = [], set(), 0
    try:
        for case in json.load(open(os.path.join(HERE, "cases.json")))["cases"]:
            folder = "data" if case["batch"] == "1" else "data" + case["batch"]
            names = tr.get((folder, case["case"]))
            if not names or case["case"] in seen:
                continue
            seen.add(case["case"])
            j = analyze(case, hw.name)
            ops = {o["name"]: o for o in j["ops"]}
            by_output = {o["output"]: o for o in j["ops"]}
            kernels = [k for k in j["cost"]["runtime"]["per_kernel"] if k["family"] == "matmul"]
            launched = []
            for i, n in enumerate(names):
                if "splitKreduce" not in n and any(g in n for g in GEMM):
                    after = names[i + 1] if i + 1 < len(names) else ""
                    launched.append("splitK" in n or "splitKreduce" in after)
            if len(launched) != len(kernels):
                unpaired += 1
                continue
            for split, k in zip(launched, kernels):
                op = ops[k["ops"][0]]
                x = by_output.get(op["inputs"][0])
                if op["kind"] != "matmul" or x is None:
                    continue
                m = math.prod(op["shape"][:-1])
                out.append((m, op["shape"][-1], x["shape"][-1], op["dtype"], k["launches"] == 2, split))
    finally:
        os.remove(hw.name)
    return out, unpaired


def splits(m, n, k, basic, few, min_work, tile_n=64, tile_n_16=128, tile_m=32):
    """The work rule on top of the basic rule's decision."""
    if not basic:
        return False
    width = tile_n_16 if 8 < m <= 16 else tile_n
    tiles = math.ceil(m / tile_m) * math.ceil(n / width)
    return tiles < few * SMS or k * SMS / tiles >= min_work


def main():
    rows, unpaired = gemms()
    print(f"{len(rows)} GEMM launches paired ({unpaired} steps left out: their GEMM launches and "
          f"matmul kernels differ in number)")
    wrong = sum(basic != split for *_, basic, split in rows)
    print(f"basic rule: {wrong} called wrong")
    for few in (0.3, 0.35, 0.4, 0.45):
        for w in (9000, 9700, 10000, 12000, 14000, 17000, 20000, 23000):
            bad = sum(splits(m, n, k, basic, few, w) != split for m, n, k, _, basic, split in rows)
            print(f"few_tiles_fraction {few:4} min_work {w:6}: {bad} called wrong")
    few = 0.4
    many = [(k * SMS / (math.ceil(m / 32) * math.ceil(n / (128 if 8 < m <= 16 else 64))), split)
            for m, n, k, _, basic, split in rows
            if basic and math.ceil(m / 32) * math.ceil(n / (128 if 8 < m <= 16 else 64)) >= few * SMS]
    whole = max((w for w, s in many if not s), default=0)
    split = min((w for w, s in many if s), default=float("inf"))
    print(f"many tiles (>= {few} * {SMS}): unsplit up to {whole:.0f}, split from {split:.0f}")
    left = collections.Counter((m, n, k, dt, split) for m, n, k, dt, basic, split in rows
                               if splits(m, n, k, basic, few, 9700) != split)
    for (m, n, k, dt, split), c in sorted(left.items()):
        print(f"  still wrong: M {m} N {n} K {k} {dt}: {c} launches, measured {'split' if split else 'whole'}")


if __name__ == "__main__":
    main()
