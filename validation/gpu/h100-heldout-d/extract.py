"""Splits the ncu CSVs of batch d into measured.csv, one row per kernel (no GPU needed):

  python3 validation/gpu/h100-heldout-d/extract.py

Columns: part (heldout, fit, layers), case (a case of cases.py, or a layer), mode (`kernel`
for a single-kernel case; `compiled` or `eager` for a layer), kernel (index in its region),
name, ops (the fgraph ops the kernel computes, `+`-joined), dram_read, dram_write (bytes),
duration_ns (ncu's gpu__time_duration, L2 flushed before each kernel).

- heldout/fit: every kernel of a case's region computes the case's one fgraph kernel
  (a GEMM's split-K reduction, cuDNN's second kernel, with it).
- layers, eager: the NVTX range that the layer's source line opened (cases.py's LineLabels;
  the variable it assigns is the fgraph op's name), checked against layers_prep.json's
  labels, which torch.profiler took in another process.
- layers, compiled: Inductor's launch plan (validation/inductor/h100-inductor-heldout.json,
  `kernels[].ops`), aligned in launch order: each Triton kernel by its name; the CUDA kernels
  between two Triton kernels to the extern calls between them, a split-K reduction with its
  GEMM and cuDNN's attention kernels with the attention call.
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib"))
from cases import CASES, LAYERS  # noqa: E402
from summarize import parse, val  # noqa: E402  (../h100-calib/summarize.py)

NVTX_COL = "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg"


def case_ops(c):
    if c["kind"] == "matmul":
        return ["mm"]
    if c["kind"] == "attention":
        return ["scores", "softmax", "pv"]
    return [c["family"]]


def nvtx_labels(path):
    """ncu kernel ID -> the innermost NVTX range open at its launch ('' if none)."""
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    col = rows[0].index(NVTX_COL)
    out = {}
    for r in rows[1:]:
        m = re.findall(r'"<default domain>:([^:]*):', r[col])
        out[r[0]] = m[-1] if m else ""
    return out


def parse_ids(path):
    """summarize.parse, with each kernel's ncu ID (for its NVTX range)."""
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    ids = []
    for r in rows[1:]:
        if not ids or ids[-1] != r[0]:
            ids.append(r[0])
    cases = parse(path)
    it = iter(i for i in ids)
    out = []
    for case in cases:
        next(it)  # the marker
        out.append([(next(it), k) for k in case])
    return out


def align_compiled(name, plan, launched):
    """Each launched kernel's index into Inductor's plan."""
    out, p = [], 0
    pending = []  # non-Triton launches since the last Triton one

    def flush(upto):
        externs = list(range(p, upto))
        sdpa = [e for e in externs if "scaled_dot_product" in plan[e]["name"]]
        j = 0
        for ln in pending:
            if sdpa and ("cudnn" in ln or "sdpa" in ln or "fmha" in ln or "flash" in ln):
                out.append(sdpa[0])
                continue
            if ("splitKreduce" in ln or "reduce" in ln.lower()) and out and j > 0:
                out.append(externs[j - 1])
                continue
            if j >= len(externs):
                raise ValueError(f"{name}: more CUDA kernels than extern calls: {pending} for {externs}")
            if externs[j] in sdpa:
                j += 1
            out.append(externs[j])
            j += 1
        got = set(out[len(out) - len(pending):]) if pending else set()
        if got != set(externs):
            raise ValueError(f"{name}: CUDA kernels {pending} for extern calls {externs}")
        pending.clear()

    for ln in launched:
        if ln.startswith("triton_"):
            at = next(i for i in range(p, len(plan)) if plan[i]["name"] == ln)
            flush(at)
            out.append(at)
            p = at + 1
        else:
            pending.append(ln)
    flush(len(plan))
    return out


def main():
    rows = []
    cases = parse_ids(os.path.join(HERE, "ncu_cases.csv"))
    assert len(cases) == len(CASES), (len(cases), len(CASES))
    for c, ks in zip(CASES, cases):
        for i, (_, k) in enumerate(ks):
            rows.append(dict(part=c["part"], case=c["case"], mode="kernel", kernel=i, name=k["name"],
                             ops="+".join(case_ops(c)), k=k))
    nv = nvtx_labels(os.path.join(HERE, "ncu_layers.csv"))
    prep = json.load(open(os.path.join(HERE, "layers_prep.json")))
    plans = {g["name"]: g for g in json.load(open(os.path.join(ROOT, "validation/inductor/h100-inductor-heldout.json")))["graphs"]}
    regions = parse_ids(os.path.join(HERE, "ncu_layers.csv"))
    order = [(n, m) for n in LAYERS for m in ("compiled", "eager")]
    assert len(regions) == len(order), (len(regions), len(order))
    for (name, mode), ks in zip(order, regions):
        if mode == "eager":
            labels = [nv[i] for i, _ in ks]
            prep_labels = [e["label"] for e in prep[name]["eager"]
                           if not e["name"].startswith(("L:", "Memcpy", "Memset"))]
            assert labels == prep_labels, (name, labels, prep_labels)
            ops = labels
        else:
            plan = plans[name]["kernels"]
            idx = align_compiled(name, plan, [k["name"] for _, k in ks])
            ops = ["+".join(plan[j]["ops"]) for j in idx]
            for j, (_, k) in zip(idx, ks):
                if plan[j]["name"].startswith("triton_"):
                    assert plan[j]["name"] == k["name"]
            # plan index, so that several CUDA kernels of one extern call stay together
            ops = [f"{o}" for o in ops]
            for (i, (_, k)), o, j in zip(enumerate(ks), ops, idx):
                rows.append(dict(part="layers", case=name, mode=mode, kernel=i, name=k["name"], ops=o,
                                 plan_kernel=j, k=k))
            continue
        for i, ((_, k), o) in enumerate(zip(ks, ops)):
            rows.append(dict(part="layers", case=name, mode=mode, kernel=i, name=k["name"], ops=o, k=k))
    with open(os.path.join(HERE, "measured.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["part", "case", "mode", "kernel", "plan_kernel", "ops", "dram_read", "dram_write",
                    "duration_ns", "name"])
        for r in rows:
            k = r["k"]
            w.writerow([r["part"], r["case"], r["mode"], r["kernel"], r.get("plan_kernel", ""), r["ops"],
                        int(round(val(k, "dram__bytes_read.sum"))), int(round(val(k, "dram__bytes_write.sum"))),
                        int(round(val(k, "gpu__time_duration.sum") * 1e3)), k["name"].replace(",", ";")])
    print(len(rows), "kernels")


if __name__ == "__main__":
    main()
