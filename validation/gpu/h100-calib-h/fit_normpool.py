"""Fits the hardware model's pooling and group-norm families (issue 23 item 2) on the FIT half of
batch h (fit/measured_fit.csv; never the held-out half), the arithmetic of
src/cost/hwmodel/memory.rs (`HwModel::norm_pool_kernel`) in Python:

  python3 validation/gpu/h100-calib-h/fit_normpool.py            # prints the fit and its errors
  python3 validation/gpu/h100-calib-h/fit_normpool.py --write    # also writes the three families
      into validation/gpu/h100-calib/fit.json and src/cost/presets/{h100,h100-measured}.json

Families (`model.families.*`, FamilyCoeffs: bandwidth_efficiency, elements_per_s, overhead_us):

- `pool`: a pool kernel takes max(bytes / (BW * eff), elements / rate) + overhead, with `bytes`
  the input once, the output once and, for PyTorch's own max pool, its int64 indices (8 bytes
  per output element: ncu's writes show them, 111 MB for a 25.7 MB output), `elements` the
  input's. Fitted on max_pool2d (both layouts) and the NCHW adaptive_avg_pool2d cases: all four
  kinds of kernel run at ~240 G input elements/s (non-vectorized loads, one thread per output
  element; `reduce_kernel` over rows of 49 contiguous elements), so the element rate binds and
  the bandwidth efficiency is identified only as a lower bound (at least 0.34: the max pools
  move 231 MB in 209 us with their indices); among the efficiencies that fit equally the search
  keeps the highest, the `reduction` family's 0.94. A bandwidth-only model cannot fit both
  kernels: the max pools would need 0.34, the NCHW global pools 0.14.
- `pool_global_channels_last`: a global pool over a channels-last input (`reduce_kernel` along
  strided rows, vectorized along C): ~12 us whatever the size on the fit half (6.4 and 9.6 MB),
  so only its fixed time is identified; its rate and bandwidth efficiency are the `reduction`
  family's (1.78e12 elements/s, 0.94).
- `group_norm`: PyTorch's three kernels. RowwiseMomentsCUDAKernel runs a block per group of a
  sample (N*G rows, 32-128 on the fit half, fewer than the 132 SMs): max(input / (BW * eff),
  elements / (rate * busy)) with busy = min(1, N*G / 132); ComputeFusedParamsCUDAKernel ~3.5
  us; the apply (`elementwise_kernel`, non-vectorized) at the `scalar` family's rates
  (max((read + write) / (BW * 0.66), elements / 4.22e11)), its fixed time part of this
  family's `overhead_us`. DRAM reads: twice the input (ncu flushes L2 before each kernel, so
  the apply pass reads it again). `bandwidth_efficiency` never binds on the fit half (the
  moments pass is latency-bound, ~1.2 G elements/s per block): the `norm` family's 0.84.

Time is ncu's gpu__time_duration summed over the case's kernels (gpu_time_ns), L2 flushed.
"""
import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
BW = 3.35e12
SMS = 132
# The H100 preset's families these build on (src/cost/presets/h100.json).
SCALAR = dict(bandwidth_efficiency=0.66, elements_per_s=4.22e11, overhead_us=4.5)
REDUCTION = dict(bandwidth_efficiency=0.94, elements_per_s=1.78e12, overhead_us=6.0)
NORM_EFF = 0.84
ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4}


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def cases(part):
    cs = json.load(open(os.path.join(HERE, "cases.json")))
    return [c for c in cs if c["part"] == part and c["family"] in ("group_norm", "max_pool2d", "adaptive_avg_pool2d")]


def measured_fit():
    rows = list(csv.DictReader(open(os.path.join(HERE, "fit", "measured_fit.csv"))))
    return {r["case"]: r for r in rows if r["status"] == "ok"}


def pool_bytes(c):
    """(read, written, input elements) of a pool case as fgraph's hardware model counts them."""
    e = ELEM_BYTES[c["dtype"]]
    n_in, n_out = prod(c["shapes"]["x"]), prod(c["shapes"]["y"])
    idx = 8 * n_out if c["family"] == "max_pool2d" else 0
    return n_in * e, n_out * e + idx, n_in


def pool_time(c, f):
    r, w, n = pool_bytes(c)
    return max((r + w) / (BW * f["bandwidth_efficiency"]), n / f["elements_per_s"]) * 1e6 + f["overhead_us"]


def pool_family(c):
    return "pool_global_channels_last" if c["family"] == "adaptive_avg_pool2d" and c["layout"] == "channels_last" else "pool"


def gn_terms(c):
    x = c["shapes"]["x"]
    e = ELEM_BYTES[c["dtype"]]
    n = prod(x)
    read = n * e + 2 * x[1] * e  # input, weight, bias
    write = n * e
    rows = x[0] * c["params"]["num_groups"]
    return read, write, n, rows


def gn_time(c, f):
    read, write, n, rows = gn_terms(c)
    busy = min(1.0, rows / SMS)
    moments = max(read / (BW * f["bandwidth_efficiency"]), n / (f["elements_per_s"] * busy))
    apply = max((read + write) / (BW * SCALAR["bandwidth_efficiency"]), n / SCALAR["elements_per_s"])
    return (moments + apply) * 1e6 + f["overhead_us"]


def gn_reads(c):
    return 2 * gn_terms(c)[0]


def predict(c, fams):
    """(DRAM reads, kernel time in us) as the model gives them."""
    if c["family"] == "group_norm":
        return gn_reads(c), gn_time(c, fams["group_norm"])
    return pool_bytes(c)[0], pool_time(c, fams[pool_family(c)])


def loss(ds, t):
    return sum(math.log(t(c) / (float(m["gpu_time_ns"]) / 1e3)) ** 2 for c, m in ds)


def rates():
    return [float("%.3g" % (1e10 * 10 ** (i / 64))) for i in range(0, 3 * 64 + 1)]  # 1e10..1e13


def fit():
    meas = measured_fit()
    fit_cases = [(c, meas[c["case"]]) for c in cases("fit") if c["case"] in meas]
    fams = {}
    # pool: the element rate and the fixed time (bandwidth efficiency: the best that does not
    # bind, searched from the reduction family's down).
    pool = [(c, m) for c, m in fit_cases if c["family"] != "group_norm" and pool_family(c) == "pool"]
    best = None
    # Descending, strict improvement: among efficiencies that fit equally (one that does not
    # bind), the highest is kept.
    for eff in [0.94] + [x / 100 for x in range(92, 29, -2)]:
        for rate in rates():
            for t0 in [x / 4 for x in range(0, 61)]:
                f = dict(bandwidth_efficiency=eff, elements_per_s=rate, overhead_us=t0)
                s = loss(pool, lambda c: pool_time(c, f))
                # ties (an efficiency that does not bind): the highest efficiency
                if best is None or s < best[0] - 1e-12:
                    best = (s, f)
    fams["pool"] = best[1]
    glob = [(c, m) for c, m in fit_cases if pool_family(c) == "pool_global_channels_last"]
    best = None
    for t0 in [x / 4 for x in range(0, 81)]:
        f = dict(REDUCTION, overhead_us=t0)
        s = loss(glob, lambda c: pool_time(c, f))
        if best is None or s < best[0]:
            best = (s, f)
    fams["pool_global_channels_last"] = best[1]
    gn = [(c, m) for c, m in fit_cases if c["family"] == "group_norm"]
    best = None
    for rate in rates():
        for t0 in [x / 4 for x in range(0, 81)]:
            f = dict(bandwidth_efficiency=NORM_EFF, elements_per_s=rate, overhead_us=t0)
            s = loss(gn, lambda c: gn_time(c, f))
            if best is None or s < best[0]:
                best = (s, f)
    fams["group_norm"] = best[1]
    return fams, fit_cases


def report(fams, fit_cases):
    print(json.dumps(fams, indent=2))
    print("%-68s %10s %10s %7s %9s %9s %7s" % ("fit case", "reads", "predicted", "err", "time us", "predicted", "err"))
    for c, m in fit_cases:
        r, t = predict(c, fams)
        mr, mt = int(m["dram_read"]), float(m["gpu_time_ns"]) / 1e3
        print("%-68s %10d %10d %+6.1f%% %9.2f %9.2f %+6.1f%%" % (c["case"], mr, r, (r / mr - 1) * 100, mt, t, (t / mt - 1) * 100))


def write(fams):
    """Puts the families into fit.json and the two H100 presets (which must stay equal:
    tests/validation.rs `h100_preset_carries_the_fitted_coefficients`)."""
    paths = [os.path.join(ROOT, "validation", "gpu", "h100-calib", "fit.json")] + [
        os.path.join(ROOT, "src", "cost", "presets", p + ".json") for p in ("h100", "h100-measured")]
    for p in paths:
        text = open(p).read()
        doc = json.loads(text)
        model = doc["model"] if "model" in doc else doc
        for k, v in fams.items():
            model["families"][k] = v
        with open(p, "w") as f:
            json.dump(doc, f, indent=2)
            if text.endswith("\n"):
                f.write("\n")
        print("wrote", os.path.relpath(p, ROOT))


if __name__ == "__main__":
    fams, fit_cases = fit()
    report(fams, fit_cases)
    if "--write" in sys.argv[1:]:
        write(fams)
