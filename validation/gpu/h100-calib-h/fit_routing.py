#!/usr/bin/env python3
"""Fit the hardware model's routing families (issue 23 item 3) on the FIT half of batch h.

Reads fit/measured_fit.csv (the fit half only: the held-out half is not measured yet) and
cases.json (shapes), fits the `model.routing` coefficients of the h100 presets and prints each
fit case's measured and modelled DRAM reads and kernel time. Pure Python (no numpy): closed
forms and small grid searches. With --write, stores the coefficients in fit_routing.json and in
the `model.routing` object of src/cost/presets/h100.json and h100-measured.json.

The model (src/cost/hwmodel/memory.rs, `HwModel::routing_kernel`), per kernel:
  time = overhead_us + max(bytes / (bandwidth * bandwidth_efficiency), elements / rate)
  topk     reads x, then the sort pass re-reads the values and int64 indices
           (rows * k * (e + 8)); elements = x's; ncu's time of gatherTopK + bitonicSortKVInPlace
  sort     CUB's onesweep radix sort of n keys of kb bytes carrying int64 indices: a
           histogram pass (n * kb) and kb passes of 8 bits over keys and indices
           (kb * n * (kb + 8)); elements = n; the 11 kernels' time summed
  gather   (index_select) alone: the rows touched once, and each repeated row again where it
           misses L2: reads = table_rows + (out - table_rows) * miss(table_rows),
           miss(b) = 1 / (1 + (repeat_miss_bytes / b) ** repeat_miss_exponent)
  index_add  reads src, ids and the touched rows of dest, and each repeated dest row again where
           it misses L2 (miss over dest's touched bytes, its own curve); the atomic kernel runs
           at `elements_per_s` elements of src
  cumsum   rate = min(elements_per_s, rows * scan_row_elements_per_s): PyTorch's
           tensor_kernel_scan_innermost_dim scans a long row with one block; a tensor that is
           one row (numel == size(dim)) goes to CUB's device-wide scan instead (ATen's
           scan_dim), priced memory-bound at the family's efficiency: no fit case has it
"""
import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../.."))
BW = 3.35e12  # the h100 preset's bandwidth (the model's efficiencies are fractions of it)
BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4}
SOURCE = ("fitted by validation/gpu/h100-calib-h/fit_routing.py on the fit half of batch h "
          "(H100 80GB HBM3, ncu, L2 flushed before each kernel)")
FAMILIES = ("topk", "sort", "argsort", "index_select", "index_add", "cumsum")


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def load():
    cases = {c["case"]: c for c in json.load(open(os.path.join(HERE, "cases.json")))}
    rows = []
    for r in csv.DictReader(open(os.path.join(HERE, "fit", "measured_fit.csv"))):
        if r["family"] not in FAMILIES or r["part"] != "fit":
            continue
        assert r["status"] == "ok", r["case"]
        c = cases[r["case"]]
        rows.append(dict(case=r["case"], family=r["family"], dtype=r["dtype"], shapes=c["shapes"],
                         read=float(r["dram_read"]), time=float(r["gpu_time_ns"]) * 1e-9,
                         read_c=float(r["read_c"]), write_c=float(r["write_c"])))
    return rows


def miss(b, half, e):
    return 0.0 if b <= 0 else 1.0 / (1.0 + (half / b) ** e)


def geo_grid(lo, hi, n):
    return [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]


def lin_fit(xs, ys):
    """y = a + b x, least squares on relative error (weights 1/y^2)."""
    w = [1 / y ** 2 for y in ys]
    sw = sum(w)
    sx = sum(wi * x for wi, x in zip(w, xs))
    sy = sum(wi * y for wi, y in zip(w, ys))
    sxx = sum(wi * x * x for wi, x in zip(w, xs))
    sxy = sum(wi * x * y for wi, x, y in zip(w, xs, ys))
    b = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
    a = (sy - b * sx) / sw
    return a, b


# ---- the per-family byte and element models (the Rust code does the same arithmetic) ----

def topk_reads(s, e):
    x, v = s["x"], s["values"]
    return prod(x) * e + prod(v) * (e + 8)


def sort_reads(n, kb):
    return n * kb + kb * n * (kb + 8)


def gather_reads(s, e, half, ex):
    table = min(s["idx"][0], s["src"][0]) * prod(s["src"][1:]) * e
    out = prod(s["out"]) * e
    return table + s["idx"][0] * 8 + max(out - table, 0) * miss(table, half, ex)


def index_add_reads(s, e, half, ex):
    row = prod(s["out"][1:]) * e
    touched = min(s["idx"][0], s["out"][0]) * row
    added = s["idx"][0] * row
    return prod(s["src"]) * e + s["idx"][0] * 8 + touched + max(added - touched, 0) * miss(touched, half, ex)


def fit():
    rows = load()
    by = lambda *f: [r for r in rows if r["family"] in f]
    out = {}
    # topk: time = overhead + elements / rate (memory never bounds these kernels).
    tk = by("topk")
    a, b = lin_fit([prod(r["shapes"]["x"]) for r in tk], [r["time"] for r in tk])
    out["topk"] = dict(bandwidth_efficiency=0.93, elements_per_s=1 / b, overhead_us=a * 1e6)
    # sort and argsort: one family (the same 11 kernels), over n keys.
    so = by("sort", "argsort")
    a, b = lin_fit([r["shapes"]["ids"][0] for r in so], [r["time"] for r in so])
    out["sort"] = dict(bandwidth_efficiency=0.93, elements_per_s=1 / b, overhead_us=a * 1e6)
    # gather: the miss curve that minimises the largest read error, then time on the measured
    # bytes: time = overhead + bytes / (BW * eff).
    ga = by("index_select")
    best = None
    for half in geo_grid(4e6, 4e8, 121):
        for ex in [0.25 * i for i in range(1, 33)]:
            err = max(abs(math.log(gather_reads(r["shapes"], BYTES[r["dtype"]], half, ex) / r["read"])) for r in ga)
            if best is None or err < best[0]:
                best = (err, half, ex)
    _, g_half, g_ex = best
    a, b = lin_fit([r["read"] + r["write_c"] for r in ga], [r["time"] for r in ga])
    out["gather"] = dict(bandwidth_efficiency=1 / (b * BW), elements_per_s=1e13, overhead_us=max(a, 0) * 1e6)
    # index_add: its own miss curve; time = overhead + src elements / rate.
    ia = by("index_add")
    best = None
    for half in geo_grid(4e6, 4e8, 121):
        for ex in [0.25 * i for i in range(1, 33)]:
            err = max(abs(math.log(index_add_reads(r["shapes"], BYTES[r["dtype"]], half, ex) / r["read"])) for r in ia)
            if best is None or err < best[0]:
                best = (err, half, ex)
    _, i_half, i_ex = best
    a, b = lin_fit([prod(r["shapes"]["src"]) for r in ia], [r["time"] for r in ia])
    out["index_add"] = dict(bandwidth_efficiency=0.93, elements_per_s=1 / b, overhead_us=max(a, 0) * 1e6)
    # cumsum: short rows are memory-bound (two points: efficiency and overhead); long rows
    # run one block per row (the geometric mean of the per-row rates).
    short = [r for r in by("cumsum") if r["shapes"]["x"][0] >= 1024]
    long_ = [r for r in by("cumsum") if r["shapes"]["x"][0] < 1024]
    a, b = lin_fit([r["read_c"] + r["write_c"] for r in short], [r["time"] for r in short])
    overhead = a
    per_row = [prod(r["shapes"]["x"][1:]) / (r["time"] - overhead) for r in long_]
    row_rate = math.exp(sum(math.log(x) for x in per_row) / len(per_row))
    out["scan"] = dict(bandwidth_efficiency=1 / (b * BW), elements_per_s=1e12, overhead_us=a * 1e6)
    routing = dict(out, repeat_miss_bytes=g_half, repeat_miss_exponent=g_ex,
                   index_add_miss_bytes=i_half, index_add_miss_exponent=i_ex,
                   scan_row_elements_per_s=row_rate)
    return rows, rounded(routing)


def rounded(d):
    if isinstance(d, dict):
        return {k: rounded(v) for k, v in d.items()}
    return float(f"{d:.3g}")


def predict(r, m):
    """(reads, seconds) of one fit case under coefficients m (as the Rust model)."""
    s, e, f = r["shapes"], BYTES[r["dtype"]], r["family"]

    def t(c, bytes_, elements, rate=None):
        rate = rate or c["elements_per_s"]
        return c["overhead_us"] * 1e-6 + max(bytes_ / (BW * c["bandwidth_efficiency"]), elements / rate)

    if f == "topk":
        reads = topk_reads(s, e)
        return reads, t(m["topk"], reads + r["write_c"], prod(s["x"]))
    if f in ("sort", "argsort"):
        n = s["ids"][0]
        reads = sort_reads(n, e)
        return reads, t(m["sort"], reads + r["write_c"], n)
    if f == "index_select":
        reads = gather_reads(s, e, m["repeat_miss_bytes"], m["repeat_miss_exponent"])
        return reads, t(m["gather"], reads + r["write_c"], prod(s["out"]))
    if f == "index_add":
        reads = index_add_reads(s, e, m["index_add_miss_bytes"], m["index_add_miss_exponent"])
        return reads, t(m["index_add"], reads + r["write_c"], prod(s["src"]))
    if f == "cumsum":
        rows, n = s["x"][0], prod(s["x"])
        rate = m["scan"]["elements_per_s"]
        if rows > 1:
            rate = min(rate, rows * m["scan_row_elements_per_s"])
        return r["read_c"], t(m["scan"], r["read_c"] + r["write_c"], n, rate)
    raise ValueError(f)


def main():
    rows, m = fit()
    print(json.dumps(m, indent=1))
    print(f"\n{'case':52} {'read meas':>11} {'model':>11} {'err':>6}  {'us meas':>8} {'model':>8} {'err':>6}")
    for r in rows:
        reads, secs = predict(r, m)
        print(f"{r['case']:52} {r['read']:11.0f} {reads:11.0f} {reads / r['read'] - 1:+6.1%}  "
              f"{r['time'] * 1e6:8.1f} {secs * 1e6:8.1f} {secs / r['time'] - 1:+6.1%}")
    if "--write" in sys.argv:
        json.dump(dict(m, source=SOURCE), open(os.path.join(HERE, "fit_routing.json"), "w"), indent=1)
        for preset in ("h100", "h100-measured"):
            p = os.path.join(ROOT, "src", "cost", "presets", f"{preset}.json")
            d = json.load(open(p))
            d["model"]["routing"] = dict(m, source=SOURCE)
            with open(p, "w") as fh:
                json.dump(d, fh, indent=2)
                fh.write("\n")


if __name__ == "__main__":
    main()
