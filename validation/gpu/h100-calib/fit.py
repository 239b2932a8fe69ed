"""Fits the hardware traffic model's H100 coefficients (issue 11) on the cases whose index is 0 or 3 mod 4 in
cases.csv and reports on the odd-numbered (held-out) ones. Writes fit.json, whose numbers the
`h100` and `h100-measured` presets carry as their "model" object (src/cost/presets/h100.json,
h100-measured.json, compiled into fgraph; tests/validation.rs checks they agree).

    python3 validation/gpu/h100-calib/fit.py      # from anywhere; prints the statistics
    python3 validation/gpu/h100-calib/fit.py --preset h100 --preset h100-measured
                                                  # also puts the fit into those presets

The model (docs/cost-model.md, "The hardware model"; src/cost/hwmodel/ is the same
arithmetic in Rust):
- matmul DRAM reads: compulsory when M or N <= 64 (skinny/decode: each operand streams once);
  otherwise output tiles of 256x128, or 128x128 or 128x64 when the larger ones fill no wave, a wave of `sms` tiles covering c = min(tiles_n, W) tile
  columns and r = sms / c rows; each A panel is re-read tiles_n / c times and each B panel
  tiles_m / r times; a re-read hits L2 with probability 1 / (1 + (ws / L2eff)^p), ws = one
  batch's operand bytes. Fitted: W, L2eff, p.
- matmul time: max(flops / (peak * e * wave_eff * K / (K + k0)), bytes / (bw * b)), wave_eff =
  tiles / (waves * sms). Fitted: e, k0, b.
- memory-bound kernels, per family: max(bytes / (bw * eff), elements / rate) + t0. Fitted: eff,
  rate, t0.
Batch c (../h100-calib-c: FlashAttention forward, f32 matmuls, softmax over rows of 256 to
32,768), fitted on its cases whose index is 0 or 3 mod 4 and reported on the rest:
- attention (one FlashAttention forward kernel): max(flops / (peak * a * wave_eff * L / (L + l0)
  * D / (D + d0)), bytes / (bw * b)), tiles = batch * heads * ceil(S / 128) query blocks, L the
  keys each query block visits (S; S / 2 when causal), D the head dim. Fitted: a, l0, d0 on
  cuDNN's kernel (PyTorch's default on an H100) and, as attention_kernels.flash2 (`--attention-kernel
  flash2`), on FlashAttention-2's (forced).
- TF32 matmuls (`tf32` operands): the 16-bit matmul time at tf32_peak_fraction (0.5, the
  datasheets') of the 16-bit peak. Not fitted; reported.
- f32 matmuls (FFMA, TF32 off): the matmul time with the f32 peak and efficiency f32_e * wave_eff
  (no K term: FFMA has no tensor-core pipeline to fill). Fitted: f32_e.
- softmax: the family's elements_per_s and bandwidth_efficiency (fitted on 4,096-wide rows)
  each times a factor by row length, log-linear in log(cols) between knots at 256 ... 32,768
  (the end knots' beyond), 1 at 4,096 (PyTorch picks its warp-per-row kernel up to 2,048
  columns and a block-per-row kernel above). Fitted: the two factors of each other knot, on the fitted half's kernels that read their input
  once (rows that outgrow on-chip memory re-read it from DRAM: a miss of the reads model).
Kernel times are ncu's gpu__time_duration with L2 flushed (no launch overhead); kernels under
20 us are left out of the time fits, as the issue's time target leaves them out.
"""
import argparse, csv, json, math, os, statistics as st, sys
HERE = os.path.dirname(os.path.abspath(__file__))
PRESETS = os.path.join(HERE, "..", "..", "..", "src", "cost", "presets")
sys.path.insert(0, HERE)
from summarize import parse, val

SMS, PEAK, BW = 132, 989.4e12, 3.35e12
PEAK_F32 = 67e12  # the h100 preset's peak_tflops_f32 (the datasheet's)
FAMILY = {"add": "elementwise", "gelu": "elementwise", "transpose_copy": "elementwise",
          "sum_rows": "reduction", "softmax": "softmax", "layernorm": "norm", "rmsnorm": "norm",
          # batch d and e's names
          "mul": "elementwise", "silu": "elementwise", "where": "elementwise", "cat": "elementwise",
          "cast": "elementwise", "bias_add": "elementwise", "sum": "reduction", "transpose": "elementwise"}


def is_fit(d):
    """The fitted half: indices 0 and 3 mod 4 (neighbours in cases.csv differ in dtype or size,
    so each family and dtype lands on both sides)."""
    return d["index"] % 4 in (0, 3)


def load():
    cs = list(csv.DictReader(open(os.path.join(HERE, "cases.csv"))))
    fl = parse(os.path.join(HERE, "ncu_flushed.csv"))
    out = []
    for i, (c, ks) in enumerate(zip(cs, fl)):
        if not ks:
            continue  # mem_copy: a copy engine, no kernel
        out.append(dict(c, index=i, dram_read=sum(val(k, "dram__bytes_read.sum") for k in ks),
                        time_us=sum(val(k, "gpu__time_duration.sum") for k in ks)))
    return out


TILES = ((256, 128), (128, 128), (128, 64))


def tile(B, M, N):
    """The output tile: the largest of TILES that still fills one wave of SMs, else the
    smallest (cuBLAS picks smaller tiles for small problems)."""
    for tm, tn in TILES:
        if B * math.ceil(M / tm) * math.ceil(N / tn) >= SMS:
            return tm, tn
    return TILES[-1]


def mm_reads(B, M, K, N, e, W, L2, p):
    A, Bb = M * K * e, K * N * e
    comp = B * (A + Bb)
    if M <= 64 or N <= 64:
        return comp
    tM, tN = tile(B, M, N)
    tm, tn = math.ceil(M / tM), math.ceil(N / tN)
    c = min(tn, W)
    r = max(1.0, min(tm, SMS / c))
    extra = A * (max(1.0, tn / c) - 1) + Bb * (max(1.0, tm / r) - 1)
    h = 1 / (1 + ((A + Bb) / L2) ** p)
    return comp + B * extra * (1 - h)


# The tiles cuBLAS's large kernels use (nvjet_sm90 256x128, 128x256, 192x192): of those that
# fill a wave, the one whose last wave is fullest sets the time's wave efficiency.
WAVE_TILES = ((256, 128), (128, 256), (192, 192))


def wave_eff(B, M, N):
    """tiles / (waves * SMS) of the output tiling the time takes."""
    if min(M, N) <= 64:
        tiles = B * math.ceil(N / 128) * math.ceil(M / 64)
        return tiles / (math.ceil(tiles / SMS) * SMS)
    best = None
    for tM, tN in WAVE_TILES:
        tiles = B * math.ceil(M / tM) * math.ceil(N / tN)
        if tiles >= SMS:
            eff = tiles / (math.ceil(tiles / SMS) * SMS)
            best = eff if best is None else max(best, eff)
    if best is None:
        tM, tN = tile(B, M, N)
        tiles = B * math.ceil(M / tM) * math.ceil(N / tN)
        best = tiles / (math.ceil(tiles / SMS) * SMS)
    return best


def aligned(K, N, e):
    """K and N rows on 16-byte boundaries (cuBLAS's TMA kernels need them)."""
    return K * e % 16 == 0 and N * e % 16 == 0


def mm_time(B, M, K, N, e, m, reads, tf32=False):
    we = wave_eff(B, M, N) ** m.get("mm_wave_exponent", 1.0)
    if tf32:  # tensor cores at the TF32 peak, the 16-bit efficiency
        eff = m["mm_efficiency"] * we * K / (K + m["mm_k_half"])
        compute = 2 * B * M * N * K / (PEAK * m["tf32_peak_fraction"] * eff)
    elif e == 4:  # FFMA: the f32 peak, no K term
        eff = m["mm_f32_efficiency"] * we
        compute = 2 * B * M * N * K / (PEAK_F32 * eff)
    else:
        e0 = m["mm_efficiency"]
        if m.get("mm_unaligned_efficiency") and not aligned(K, N, e):
            e0 = m["mm_unaligned_efficiency"]
        eff = e0 * we * K / (K + m["mm_k_half"])
        compute = 2 * B * M * N * K / (PEAK * eff)
    memory = (reads + B * M * N * e) / (BW * m["mm_bandwidth_efficiency"])
    return max(compute, memory) * 1e6 + m.get("mm_overhead_us", 0)


def row_scale(knots, cols):
    """The softmax (rate, bandwidth) factors for rows of `cols`: log-linear in log(cols)
    between knots [cols, rate factor, bandwidth factor], the end knots' beyond."""
    if not knots:
        return 1.0, 1.0
    if cols <= knots[0][0]:
        return knots[0][1], knots[0][2]
    for k0, k1 in zip(knots, knots[1:]):
        if cols <= k1[0]:
            t = math.log(cols / k0[0]) / math.log(k1[0] / k0[0])
            return tuple(math.exp(math.log(a) + t * (math.log(b) - math.log(a))) for a, b in zip(k0[1:], k1[1:]))
    return knots[-1][1], knots[-1][2]


def miss(rr, row_bytes, input_bytes):
    """The fraction of a row-wise kernel's later pass that reads DRAM (RereadCoeffs::miss)."""
    curve = lambda x, half, e: 0.0 if x <= 0 else 1 / (1 + (half / x) ** e)
    return curve(row_bytes, rr["row_bytes"], rr["row_exponent"]) * curve(input_bytes, rr["input_bytes"], rr["input_exponent"])


def mem_reads(c, rr=None):
    """A memory-bound case's DRAM reads: its input, plus a norm's or softmax's later passes
    where they miss (rr: norm_reread or softmax_reread)."""
    read = int(c["read"])
    if not rr:
        return read
    elems = int(c["rows"]) * int(c["cols"])
    return read + rr["passes"] * read * miss(rr, int(c["cols"]) * read / elems, read)


def fit_reread(ds, passes):
    """norm_reread / softmax_reread on `ds`' reads: least squares on log(predicted / measured)."""
    best = None
    for rb in [1024 * 2 ** (i / 4) for i in range(0, 37)]:  # 1 KB .. 512 KB
        for re in (1, 2, 3, 4, 6, 8, 12):
            for ib in [4e6 * 2 ** (i / 4) for i in range(0, 37)]:  # 4 MB .. 1 GB
                for ie in (0.5, 1, 1.5, 2, 3, 4):
                    rr = dict(passes=passes, row_bytes=round(rb), row_exponent=re, input_bytes=round(ib), input_exponent=ie)
                    s = sum(math.log(mem_reads(d, rr) / d["dram_read"]) ** 2 for d in ds)
                    if best is None or s < best[0] - 1e-12:
                        best = (s, rr)
    return best[1]


def mem_time(c, f, knots=None, rr=None):
    b = mem_reads(c, rr) + int(c["write"])
    rows, cols = int(c["rows"]), int(c["cols"])
    elems = rows * cols
    rs, bs = row_scale(knots, cols) if knots else (1.0, 1.0)
    # A block per row (norms; softmaxes over rows longer than 2,048): fewer rows than SMs
    # leave SMs idle.
    fam = FAMILY.get(c["family"])
    u = min(1.0, rows / SMS) if fam == "norm" or (fam == "softmax" and cols > 2048) else 1.0
    return max(b / (BW * f["bandwidth_efficiency"] * bs), elems / (f["elements_per_s"] * rs)) / u * 1e6 + f["overhead_us"]


def load_c():
    """Batch c: ../h100-calib-c/cases.csv with its ncu kernels summed."""
    d = os.path.join(HERE, "..", "h100-calib-c")
    cs = list(csv.DictReader(open(os.path.join(d, "cases.csv"))))
    fl = parse(os.path.join(d, "ncu_flushed.csv"))
    return [dict(c, index=i, dram_read=sum(val(k, "dram__bytes_read.sum") for k in ks),
                 time_us=sum(val(k, "gpu__time_duration.sum") for k in ks)) for i, (c, ks) in enumerate(zip(cs, fl))]


def scalar_kernel(d):
    """PyTorch's non-vectorized kernels: a broadcast bias add (`elementwise_kernel`) and a cast
    to a wider type (`unrolled_elementwise_kernel`)."""
    return d["family"] in ("bias_add", "transpose") or (
        d["family"] == "cast" and d.get("out_dtype") == "f32" and d["dtype"] != "f32")


def load_d(part="fit", folder="h100-heldout-d"):
    """Batch d (../h100-heldout-d), or another batch in its format (batch e: ../h100-calib-e):
    its cases of `part` (`fit`: taken to fit terms; `heldout`: never fitted), each with its
    kernels' DRAM reads and ncu time summed."""
    d = os.path.join(HERE, "..", folder)
    if not os.path.exists(os.path.join(d, "measured.csv")):
        return []
    cases = {c["case"]: c for c in json.load(open(os.path.join(d, "cases.json")))}
    out = {}
    for r in csv.DictReader(open(os.path.join(d, "measured.csv"))):
        if r["part"] != part:
            continue
        c = out.setdefault(r["case"], dict(cases[r["case"]], dram_read=0, time_us=0.0))
        c["dram_read"] += int(r["dram_read"])
        c["time_us"] += int(r["duration_ns"]) / 1e3
    for i, c in enumerate(out.values()):
        c["index"] = i
        if c["kind"] == "attention":  # batch d's B is the batch, N the heads: batch c's layout
            c["B"], c["N"] = c["B"] * c["N"], c["M"]
        c["family"] = {"layernorm": "layernorm", "rmsnorm": "rmsnorm"}.get(c["family"], c["family"])
    return list(out.values())


def attn_time(bh, S, D, causal, e, a, bw_eff):
    """One FlashAttention forward kernel: batch*heads = bh, S queries and keys, head dim D."""
    tiles = bh * math.ceil(S / 128)
    waves = math.ceil(tiles / SMS)
    L = S / 2 if causal else S
    eff = a["efficiency"] * tiles / (waves * SMS) * L / (L + a["kv_half"]) * D / (D + a["head_dim_half"])
    flops = 4 * bh * S * L * D
    memory = 4 * bh * S * D * e / (BW * bw_eff)
    return max(flops / (PEAK * eff), memory) * 1e6


def attn_args(d):
    return int(d["B"]), int(d["M"]), int(d["K"]), int(d["causal"]), 2


def fit_attention(ds, bw_eff):
    best = None
    for e in [x / 100 for x in range(30, 100)]:
        for l0 in range(0, 1025, 32):
            for d0 in range(0, 161, 8):
                a = dict(efficiency=e, kv_half=l0, head_dim_half=d0)
                s = sum(math.log(attn_time(*attn_args(d), a, bw_eff) / d["time_us"]) ** 2 for d in ds)
                if best is None or s < best[0]:
                    best = (s, a)
    return best[1]


def dims(c):
    return int(c["B"]), int(c["M"]), int(c["K"]), int(c["N"]), 2


def dims_c(c):
    return int(c["B"]), int(c["M"]), int(c["K"]), int(c["N"]), 4


def stats(errs):
    a = [abs(x) for x in errs]
    return dict(n=len(a), median=round(st.median(a), 4), worst=round(max(a), 4))


def write_presets(m, names):
    """Puts the coefficients `m` (fit.json's object) under "model" in src/cost/presets/NAME.json
    for each of `names`, laid out as `fgraph hardware NAME --format json` prints it (keys in the
    order of the file's present model, numbers as floats), which a test in
    src/cost/hardware.rs requires; the rest of the file is kept."""
    def ordered(v, like):
        if isinstance(v, dict):
            like = like if isinstance(like, dict) else {}
            return {k: ordered(v[k], like.get(k)) for k in [k for k in like if k in v] + [k for k in v if k not in like]}
        if isinstance(v, list):
            return [ordered(x, None) for x in v]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            # Python and serde_json write a float alike from 1e-4 to 1e16.
            if v != 0 and not 1e-4 <= abs(v) < 1e16:
                sys.exit(f"fit.py: {v} would be written unlike fgraph writes it")
            return float(v)
        return v
    # A BTreeMap in fgraph: sorted by name, left out when empty.
    m = {k: dict(sorted(v.items())) if k == "attention_kernels" else v
         for k, v in m.items() if not (k == "attention_kernels" and not v)}
    for name in names:
        path = os.path.join(PRESETS, name + ".json")
        hw = json.load(open(path, encoding="utf-8"))
        hw["model"] = ordered(m, hw.get("model"))
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(hw, indent=2, ensure_ascii=False) + "\n")


def main(presets=()):
    data = load()
    gem = [d for d in data if d["kind"] == "matmul"]
    fit = lambda ds: [d for d in ds if is_fit(d)]
    best = None
    for W in range(4, 80, 2):
        for L2 in range(10_000_000, 80_000_000, 2_000_000):
            for p in (1, 1.5, 2, 3, 4, 6, 8):
                s = sum(math.log(mm_reads(*dims(d), W, L2, p) / d["dram_read"]) ** 2 for d in fit(gem))
                if best is None or s < best[0]:
                    best = (s, W, L2, p)
    _, W, L2, p = best
    m = dict(raster_width=W, l2_effective_bytes=L2, l2_hit_exponent=p, mm_overhead_us=0)
    # The start-up floor of a GEMM (mm_overhead_us: batch e's small aligned GEMMs run 4.1-6.0
    # us whatever their size) and the efficiencies, fitted in turn twice: the efficiencies on
    # the calibration's fitted half (kernels over 20 us), the floor on batch e's aligned GEMMs.
    e_gem = [d for d in load_d("fit", "h100-calib-e") if d["kind"] == "matmul"]
    # The wave exponent softens wave quantization (nvjet's persistent kernels start the next
    # wave's tiles as SMs free up): fitted with the efficiencies on the calibration's fitted
    # half and batch e's aligned GEMMs over 20 us.
    e_big = [d for d in e_gem if aligned(int(d["K"]), int(d["N"]), 2) and d["time_us"] > 20]
    for _ in range(2):
        best = None
        for e in [x / 100 for x in range(60, 96, 2)]:
            for k0 in (0, 32, 64, 128, 256, 512, 1024):
                for b in [x / 100 for x in range(60, 100, 3)]:
                  for we in (0.25, 0.5, 0.75, 1.0):
                    mm = dict(m, mm_efficiency=e, mm_k_half=k0, mm_bandwidth_efficiency=b, mm_wave_exponent=we)
                    s = sum(math.log(mm_time(*dims(d), mm, mm_reads(*dims(d), W, L2, p)) / d["time_us"]) ** 2
                            for d in fit(gem) + e_big if d["time_us"] > 20)
                    if best is None or s < best[0]:
                        best = (s, mm)
        m = best[1]
        best = None
        for o in [x / 4 for x in range(0, 25)] if e_gem else [0]:
            mm = dict(m, mm_overhead_us=o)
            s = sum(math.log(mm_time(*dims(d), mm, mm_reads(*dims(d), W, L2, p)) / d["time_us"]) ** 2
                    for d in e_gem if aligned(int(d["K"]), int(d["N"]), 2))
            if best is None or s < best[0]:
                best = (s, o)
        m["mm_overhead_us"] = best[1]
    best = None
    for u in [x / 100 for x in range(4, 61)] if e_gem else []:
        mm = dict(m, mm_unaligned_efficiency=u)
        s = sum(math.log(mm_time(*dims(d), mm, mm_reads(*dims(d), W, L2, p)) / d["time_us"]) ** 2
                for d in e_gem if not aligned(int(d["K"]), int(d["N"]), 2))
        if best is None or s < best[0]:
            best = (s, u)
    if best is not None:  # batch e measured misaligned GEMMs
        m["mm_unaligned_efficiency"] = best[1]
    # The later passes of norms and softmaxes that miss (reads), fitted before the families'
    # times, which take them as bytes moved.
    # On the fitted halves of the calibration and batch c, and batch d's fit part (norms of 6-64
    # KB rows, softmaxes of 16k-131k columns).
    c = load_c()
    dfit = [d for d in load_d() if d["kind"] == "memory"]
    e = load_d("fit", "h100-calib-e")
    small = [d for d in e if d["kind"] == "memory"]
    rows = fit([d for d in data if d["kind"] == "memory"] + [d for d in c if d["family"] == "softmax"]) + dfit
    rr = {"norm": fit_reread([d for d in rows if FAMILY[d["family"]] == "norm"], 1),
          "softmax": fit_reread([d for d in rows if d["family"] == "softmax"], 2)}
    m["norm_reread"], m["softmax_reread"] = rr["norm"], rr["softmax"]
    fams = {}
    for F in ("elementwise", "reduction", "softmax", "norm"):
        ds = [d for d in data if d["kind"] == "memory" and FAMILY[d["family"]] == F and d["family"] != "transpose_copy"]
        # The bandwidth efficiency, rate and a first floor on the calibration's fitted half and
        # batch d's fit part (norms); then the start-up floor alone on batch e's small kernels
        # (16 KB-15 MB) but for PyTorch's scalar kernels (below) and softmaxes (whose row
        # factors are fitted next), where the floor is all there is to see.
        big = fit(ds) + [d for d in dfit if FAMILY[d["family"]] == F and F == "norm"]
        tiny = [d for d in small if FAMILY.get(d["family"]) == F and F != "softmax" and not scalar_kernel(d)]
        best = None
        for eff in [x / 100 for x in range(40, 111, 1)]:
            for rate in [float('%.3g' % (1e10 * 10 ** (i / 16))) for i in range(0, 49)]:
                for t0 in [x / 2 for x in range(0, 21)]:
                    g = dict(bandwidth_efficiency=eff, elements_per_s=rate, overhead_us=t0)
                    s = sum(math.log(mem_time(d, g, rr=rr.get(F)) / d["time_us"]) ** 2 for d in big)
                    if best is None or s < best[0]:
                        best = (s, g)
        f = best[1]
        if tiny:
            best = None
            for t0 in [x / 4 for x in range(0, 41)]:
                g = dict(f, overhead_us=t0)
                s = sum(math.log(mem_time(d, g, rr=rr.get(F)) / d["time_us"]) ** 2 for d in tiny)
                if best is None or s < best[0]:
                    best = (s, g)
            f = best[1]
        fams[F] = f
    m["families"] = fams
    # PyTorch's non-vectorized elementwise kernels, each class a family of its own fitted on
    # batch g (2 MB-1 GB) and batch e's small ones: broadcasts and widening casts
    # (`elementwise_kernel`, `unrolled_elementwise_kernel`: limited by ~400 G elements/s), and
    # layout copies (a transpose made contiguous: strided, ~125 G elements/s).
    g_small = load_d("fit", "h100-calib-g") + small
    for key, ds in (("scalar", [d for d in g_small if scalar_kernel(d) and d["family"] != "transpose"]),
                    ("layout_copy", [d for d in g_small if d["family"] == "transpose"])):
        if not ds:
            continue
        best = None
        for eff in [x / 100 for x in range(20, 101, 2)]:
            for rate in [float('%.3g' % (1e10 * 10 ** (i / 16))) for i in range(0, 49)]:
                for t0 in [x / 2 for x in range(0, 17)]:
                    g = dict(bandwidth_efficiency=eff, elements_per_s=rate, overhead_us=t0)
                    s = sum(math.log(mem_time(d, g) / d["time_us"]) ** 2 for d in ds)
                    if best is None or s < best[0]:
                        best = (s, g)
        fams[key] = best[1]
    fitc = [d for d in c if is_fit(d) and d["time_us"] > 20]
    best = None
    for e in [x / 100 for x in range(30, 101)]:
        mm = dict(m, mm_f32_efficiency=e)
        s = sum(math.log(mm_time(*dims_c(d), mm, mm_reads(*dims_c(d), W, L2, p)) / d["time_us"]) ** 2
                for d in fitc if d["family"] == "f32")
        if best is None or s < best[0]:
            best = (s, e)
    m["mm_f32_efficiency"] = best[1]
    # cuDNN's attention coefficients: refitted with the keys in blocks of 128 by
    # ../models/sdpa_probe/refit.py (issue 24, VALIDATION.md §48), which writes them to
    # attention_fit.json; `fit_attention` on batch c's cuDNN kernels gave 0.99, 416, 56 before.
    refit = json.load(open(os.path.join(HERE, "..", "models", "sdpa_probe", "attention_fit.json")))
    m["attention"] = {k: refit[k] for k in ("efficiency", "kv_half", "head_dim_half")}
    # The attention op's decode start-up: fitted by ../h100-calib-h/fit_attention.py (not here).
    m["attention"]["memory_overhead_us"] = 4.3
    # cuDNN's kernels tile the head dim by 64 (../attention-hd, VALIDATION.md §25).
    m["attention"]["head_dim_step"] = 64
    m["attention"]["key_block"] = refit["key_block"]
    fa2 = fit_attention([d for d in fitc if d["family"] == "flash"]
                        + [d for d in load_d() if d["family"] == "flash" and d["time_us"] > 20], m["mm_bandwidth_efficiency"])
    # `--attention-kernel flash2` prices FlashAttention kernels with FlashAttention-2's own fit.
    m["attention_kernels"] = {"flash2": fa2}
    # TF32's dense peak is half the 16-bit one on the A100/H100/H200 datasheets (not fitted).
    m["tf32_peak_fraction"] = 0.5
    knots = []
    sm = [d for d in fitc if d["family"] == "softmax"]
    for cols in (256, 512, 1024, 2048, 4096, 8192, 32768):
        if cols == 4096:
            knots.append([cols, 1.0, 1.0])
            continue
        best = None
        # factors 2^(i/20); nearest 1 first, so a factor that does not bind stays near 1
        for i, j in sorted(((i, j) for i in range(-40, 41) for j in range(-10, 11)), key=lambda t: (abs(t[0]) + abs(t[1]), t)):
            f, b = round(2 ** (i / 20), 3), round(2 ** (j / 20), 3)
            s = sum(math.log(mem_time(d, fams["softmax"], [[cols, f, b]], rr["softmax"]) / d["time_us"]) ** 2
                    for d in sm if int(d["cols"]) == cols)
            if best is None or s < best[0] - 1e-9:
                best = (s, f, b)
        knots.append([cols, best[1], best[2]])
    m["softmax_row_scale"] = knots
    m["source"] = ("fitted by validation/gpu/h100-calib/fit.py on the cases whose index is 0 or 3 mod 4 in "
                   "validation/gpu/h100-calib/cases.csv and (attention, f32 matmuls, softmax row length) "
                   "validation/gpu/h100-calib-c/cases.csv, (norm and softmax re-reads, norm rate, FlashAttention-2) the "
                   "fit part of validation/gpu/h100-heldout-d, (start-up floors, misaligned GEMMs) "
                   "validation/gpu/h100-calib-e, (PyTorch's non-vectorized kernels) validation/gpu/h100-calib-g and "
                   "(the attention kernels' memory start-up) validation/gpu/h100-calib-h/fit_attention.py on the fit "
                   "half of batch h (H100 80GB HBM3, ncu, L2 flushed)")
    json.dump(m, open(os.path.join(HERE, "fit.json"), "w"), indent=2)
    write_presets(m, presets)
    print(json.dumps(m, indent=2))
    for part, sel in (("fitted", 0), ("held-out", 1)):
        g = [d for d in gem if is_fit(d) == (sel == 0)]
        rd = [mm_reads(*dims(d), W, L2, p) / d["dram_read"] - 1 for d in g]
        tm = [mm_time(*dims(d), m, mm_reads(*dims(d), W, L2, p)) / d["time_us"] - 1 for d in g if d["time_us"] > 20]
        comp = [int(d["read"]) / d["dram_read"] - 1 for d in g]
        mem = [d for d in data if d["kind"] == "memory" and is_fit(d) == (sel == 0) and d["family"] != "transpose_copy"]
        mt = [mem_time(d, fams[FAMILY[d["family"]]], rr=rr.get(FAMILY[d["family"]])) / d["time_us"] - 1 for d in mem if d["time_us"] > 20]
        mr = [mem_reads(d, rr.get(FAMILY[d["family"]])) / d["dram_read"] - 1 for d in mem + [d for d in c if is_fit(d) == (sel == 0) and d["family"] == "softmax"] if int(d["read"]) > 1e6]
        print(part, "gemm reads", stats(rd), "compulsory", stats(comp), "gemm time", stats(tm), "memory time", stats(mt),
              "memory reads (calibration and batch c softmax)", stats(mr))
        cc = [d for d in c if is_fit(d) == (sel == 0) and d["time_us"] > 20]
        f32 = [mm_time(*dims_c(d), m, mm_reads(*dims_c(d), W, L2, p)) / d["time_us"] - 1 for d in cc if d["family"] == "f32"]
        at = [attn_time(*attn_args(d), m["attention"], m["mm_bandwidth_efficiency"]) / d["time_us"] - 1 for d in cc if d["family"] == "cudnn"]
        fa = [attn_time(*attn_args(d), fa2, m["mm_bandwidth_efficiency"]) / d["time_us"] - 1 for d in cc if d["family"] == "flash"]
        smx = [mem_time(d, fams["softmax"], knots, rr["softmax"]) / d["time_us"] - 1 for d in cc if d["family"] == "softmax"]
        print(part, "batch c: f32 gemm time", stats(f32), "attention (cuDNN) time", stats(at),
              "FlashAttention-2 with its own fit", stats(fa), "softmax time", stats(smx))
    tf = [d for d in c if d["family"] == "tf32"]
    print("TF32 matmuls (never fitted) time", stats([mm_time(*dims_c(d), m, mm_reads(*dims_c(d), W, L2, p), tf32=True)
                                                   / d["time_us"] - 1 for d in tf]))
    print("FlashAttention-2 (sdpa_kernel(FLASH_ATTENTION)) coefficients (attention_kernels.flash2):", fa2)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="Fits the hardware model's H100 coefficients; writes fit.json.")
    ap.add_argument("--preset", action="append", default=[], metavar="NAME",
                    help="also put the fit under \"model\" in src/cost/presets/NAME.json (repeatable)")
    main(ap.parse_args().preset)
