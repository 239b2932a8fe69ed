"""The table of VALIDATION.md §45 from gn_ncu.py's Nsight Compute run (data/ncu/): for each
channels-last group norm's first kernel, its time, DRAM reads over the input's bytes, and the
L1 and L2 sectors loaded per element of the input.

    python3 ncu_table.py [data/ncu]
"""
import csv
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "data", "ncu")
    lines = open(os.path.join(d, "ncu.csv")).read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    by = {}
    for r in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        by.setdefault(int(r["ID"]), {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    cases = list(csv.DictReader(open(os.path.join(d, "cases.csv"))))
    print("| shape | µs | TB/s | DRAM reads / input | L1 sectors / element | L2 sectors / element | programs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for c, i in zip(cases, sorted(by)):
        m = by[i]
        b, ch, h = int(c["batch"]), int(c["channels"]), int(c["hw"])
        n = b * ch * h * h
        us = m["gpu__time_duration.sum"] / 1e3
        print(f"| {b} × {ch} × {h}² | {us:.1f} | {2 * n / us / 1e6:.2f} | {m['dram__bytes_read.sum'] / (2 * n):.2f} "
              f"| {m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'] / n:.2f} "
              f"| {m['lts__t_sectors_srcunit_tex_op_read.sum'] / n:.2f} | {m['launch__grid_size']:.0f} |")


if __name__ == "__main__":
    main()
