#!/usr/bin/env python3
"""Fits the hardware model's split-K reduction kernel (`model.split_k.reduce`, issue 24 item 2)
on the `splitKreduce_kernel` launches of batch e's fit cases (measured.csv, all fit data), and
prints the same formula's error on the split-K reductions of batches d and f (held out: read,
never fitted on).

cuBLAS runs a GEMM with too few output tiles to fill the GPU and a long K loop as split-K: the
GEMM kernel writes `splits` partial f32 products of the output, and `splitKreduce_kernel` reads
them, adds them up and writes the output. Its time is the memory-bound formula of the other
families, `overhead_us + max(bytes / (bandwidth * bandwidth_efficiency), elements /
elements_per_s)`, with bytes = the partials read (ncu's dram_read of the reduction) + the output
written (M * N * element bytes) and elements = M * N outputs.

    python3 validation/gpu/h100-calib-e/fit_splitk.py      # prints the fit and the check
"""
import csv
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
BW = 3.35e12  # the h100 preset's bandwidth_tb_s


def reductions(path, part):
    out = []
    for r in csv.DictReader(open(path)):
        if r["part"] != part or r["mode"] != "kernel" or "splitKreduce" not in r["name"]:
            continue
        m = re.search(r"_(f16|bf16|tf32|f32)_(\d+)x(\d+)x(\d+)x(\d+)", r["case"])
        dt, b, mm, k, n = m.group(1), *map(int, m.groups()[1:])
        e = 2 if dt in ("f16", "bf16") else 4
        out.append(dict(case=r["case"], elements=b * mm * n, bytes=int(r["dram_read"]) + b * mm * n * e,
                        us=int(r["duration_ns"]) / 1e3))
    return out


def time_us(d, eff, rate, t0):
    return t0 + max(d["bytes"] / (BW * eff), d["elements"] / rate) * 1e6


def main():
    fit = reductions(os.path.join(HERE, "measured.csv"), "fit")
    best = None
    for eff in [x / 100 for x in range(20, 101, 2)]:
        for rate in [float("%.3g" % (1e10 * 10 ** (i / 16))) for i in range(0, 49)]:
            for t0 in [x / 4 for x in range(0, 33)]:
                s = sum(math.log(time_us(d, eff, rate, t0) / d["us"]) ** 2 for d in fit)
                if best is None or s < best[0]:
                    best = (s, eff, rate, t0)
    _, eff, rate, t0 = best
    print(f"reduce: bandwidth_efficiency {eff}, elements_per_s {rate:.3g}, overhead_us {t0}")
    print("fit (batch e):")
    for d in fit:
        p = time_us(d, eff, rate, t0)
        print(f"  {d['case']:48} {d['bytes']/1e6:8.2f} MB {d['us']:7.2f} us  model {p:7.2f} ({p/d['us']-1:+.0%})")
    for batch in ("h100-heldout-d", "h100-heldout-f"):
        print(f"held out ({batch}, not fitted on):")
        for d in reductions(os.path.join(HERE, "..", batch, "measured.csv"), "heldout"):
            p = time_us(d, eff, rate, t0)
            print(f"  {d['case']:48} {d['bytes']/1e6:8.2f} MB {d['us']:7.2f} us  model {p:7.2f} ({p/d['us']-1:+.0%})")


# The split rule (`model.split_k`): a GEMM that is not batched splits K when K >= min_k and its
# output, in tiles of tile_m rows by tile_n columns (the skinny tiles cuBLAS's nvjet kernels
# take for such shapes: `nvjet_sm90_tst_64x32_...` is 64 columns by 32 rows of the output), has
# fewer than max_tiles_fraction * SMs of them.
MIN_K, TILE_M, TILE_N, MAX_TILES_FRACTION, SMS = 3072, 32, 64, 0.67, 132


def gemms(path):
    out = {}
    for r in csv.DictReader(open(path)):
        m = re.search(r"_(gemm|lin3d|tf32)[a-z_]*?_(f16|bf16|tf32|f32)_(\d+)x(\d+)x(\d+)x(\d+)$", r["case"])
        if not m or r["mode"] != "kernel":
            continue
        kind, b, mm, k, n = m.group(1), *map(int, m.groups()[2:])
        if kind == "lin3d":  # [B, M, K] . [K, N]: one GEMM of B * M rows
            b, mm = 1, b * mm
        d = out.setdefault(r["case"], dict(part=r["part"], b=b, m=mm, k=k, n=n, split=False))
        d["split"] |= "splitK" in r["name"]
    return out.values()


def splits(d):
    tiles = math.ceil(d["m"] / TILE_M) * math.ceil(d["n"] / TILE_N)
    return d["b"] == 1 and d["k"] >= MIN_K and tiles < MAX_TILES_FRACTION * SMS


def rule():
    for batch in ("h100-calib-e", "h100-heldout-d", "h100-heldout-f"):
        ds = list(gemms(os.path.join(HERE, "..", batch, "measured.csv")))
        agree = sum(splits(d) == d["split"] for d in ds)
        print(f"split rule, {batch}: {agree}/{len(ds)} GEMMs agree "
              f"({sum(d['split'] for d in ds)} split measured, {sum(splits(d) for d in ds)} predicted)")
        for d in ds:
            if splits(d) != d["split"]:
                print(f"  {'measured' if d['split'] else 'predicted'} split only: "
                      f"{d['b']}x{d['m']}x{d['k']}x{d['n']}")


if __name__ == "__main__":
    main()
    rule()
