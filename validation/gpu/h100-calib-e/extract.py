"""Splits batch e's ncu CSV into measured.csv, one row per kernel (no GPU needed):

  python3 validation/gpu/h100-calib-e/extract.py

Columns (batch d's, ../h100-heldout-d/extract.py): part (`fit`), case (a case of calib_e.py),
mode (`kernel`), kernel (index in its region), plan_kernel (empty), ops (the fgraph ops the
case's kernel computes: the family for memory ops, `mm` for GEMMs, `scores+softmax+pv` for
attention), dram_read, dram_write (bytes), duration_ns (ncu's gpu__time_duration, L2 flushed
before each kernel), name. Every kernel of a case's region belongs to the case (a GEMM's
split-K reduction, cuDNN's second kernel, with it).
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib"))
from calib_e import CASES  # noqa: E402
from summarize import parse, val  # noqa: E402  (../h100-calib/summarize.py)


def case_ops(c):
    if c["kind"] == "matmul":
        return ["mm"]
    if c["kind"] == "attention":
        return ["scores", "softmax", "pv"]
    return [c["family"]]


def extract(case_list, folder):
    """folder/ncu_cases.csv, one region per case of case_list, into folder/measured.csv (batch
    g's extract.py calls this too)."""
    cases = parse(os.path.join(folder, "ncu_cases.csv"))
    assert len(cases) == len(case_list), (len(cases), len(case_list))
    with open(os.path.join(folder, "measured.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["part", "case", "mode", "kernel", "plan_kernel", "ops", "dram_read", "dram_write",
                    "duration_ns", "name"])
        n = 0
        for c, ks in zip(case_list, cases):
            assert ks, c["case"]
            for i, k in enumerate(ks):
                w.writerow([c["part"], c["case"], "kernel", i, "", "+".join(case_ops(c)),
                            int(round(val(k, "dram__bytes_read.sum"))), int(round(val(k, "dram__bytes_write.sum"))),
                            int(round(val(k, "gpu__time_duration.sum") * 1e3)), k["name"].replace(",", ";")])
                n += 1
    print(n, "kernels")


def main():
    extract(CASES, HERE)


if __name__ == "__main__":
    main()
