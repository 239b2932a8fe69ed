"""Batch j's refit of the hardware model's `conv` family (issue 23 item 7): the convolutions
batch i's held-out half found the model missing (VALIDATION.md §19), fitted on every conv case
measured so far: batch h's two halves, batch i's fit half AND batch i's held-out half (that
half is reported already, §19, with the predictions committed before it was measured, so it
may now be fitted on; batch j's held-out cases, ./cases.json, check the refit).

    python3 validation/gpu/h100-calib-j/fit_conv_j.py           # fit, print the tables
    python3 validation/gpu/h100-calib-j/fit_conv_j.py --write   # also write `model.conv` into
        src/cost/presets/h100.json, h100-measured.json, h100-2x8.json (the H100 on two nodes,
        which src/cost/hardware.rs holds equal to h100 but for its interconnect) and
        ../h100-calib/fit.json (which tests/validation.rs holds equal to those presets)

The model is batch i's (../h100-calib-i/fit_conv_i.py, src/cost/hwmodel/conv.rs) with four
changes, each read off the kernels of the data (kernels_*.csv: name, DRAM bytes, time, grid):
1. **CUTLASS align8 kernels** (`model.conv.cutlass`). An ungrouped 2-D conv of 3 or 4 channels
   that the direct path does not take, in bf16 with at least `min_taps_bf16` taps or in f16
   with at least `min_taps_f16`, runs cuDNN's `cutlass_tensorop_{bf16,f16}_s16816fprop_
   optimized_*_nhwc_align8` (ResNet's 7x7/2 stem in bf16, SD's conv_in 4->320 in bf16, ViT's
   16x16/16 and 14x14/14 patchify in both), with the channels padded to 8 (the copies write,
   and the kernel reads, 8/3 of a 3-channel input). Its tile is 128x128 when 128-wide tiles
   waste no more output channels than 64-wide ones (K = 768, 1024 in the data), else 256x64
   (K = 64, 320), as the kernel names say; its grid is ceil(M/tm) x ceil(K/tn) CTAs
   (M = N * prod(out)) in ceil(CTAs / SMs) waves, each of `overhead_us + CTA_flops /
   flops_per_sm_s` with CTA_flops = 2 tm tn (8 taps). f16's 7x7/2 stem keeps batch h's path
   (cuDNN's sm90 "first layer" kernel), bf16 DiT's 2x2/2 (4 taps) the sm90 implicit GEMM.
2. **Fills of padded copies** (`padded_copy_l2_bytes`). A copy that pads channels
   (`nchwToNhwcKernel` padding, `nhwcAddPaddingKernel`) writes partial sectors: what it writes
   beyond the first `padded_copy_l2_bytes` (what stays in L2) is read from DRAM first, so its
   reads are `x + max(0, x' - padded_copy_l2_bytes)` (ResNet's bf16 stem at batch 64: 66 MB
   read for a 19 MB input). The copy's time stays batch h's fit (the fill is in its bytes).
3. **3-D implicit GEMMs**: `gemm_3d_efficiency` refitted on every 3-D case (batch h's sm80
   kernel and batch i's sm90 ones).
4. **sm80 indexed kernels** (`model.conv.indexed`). An ungrouped f16 2-D conv of padded channels with
   fewer than `direct_max_taps` taps, in channels-last (MobileNet's and Swin's stems) or in
   NCHW when the direct path does not take it (SD's conv_in 4->320), runs cuDNN's
   `sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_*` on the unpadded input: the direct
   kernel's formula (`overhead + max(bytes / (bw * eff), flops / flops_per_s)`) with its own
   coefficients, in NCHW behind plain (unpadded) transposes of input and weight and before the
   output's transpose back. bf16 never ran it (its stems run the direct kernels).
The other coefficients stay as fit_conv_i.py fitted them.
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
I = os.path.join(HERE, "..", "h100-calib-i")
sys.path.insert(0, I)
import fit_conv_i as FI  # noqa: E402

F = FI.F
BW, SMS = F.BW, F.SMS
prod = F.prod


def depthwise(d):
    return d["g"] == d["C"] and d["g"] > 1 and d["Cg"] == 1


def padded(d):
    return F.padded_channels(d["Cg"], d["e"]) != d["Cg"]


def is_cutlass(d, co):
    c = co.get("cutlass")
    if c is None or d["spatial"] != 2 or d["g"] != 1 or not padded(d) or FI.is_direct(d, co):
        return False
    need = {"bf16": c.get("min_taps_bf16"), "f16": c.get("min_taps_f16")}.get(d["dtype"])
    return need is not None and d["taps"] >= need


def indexed_shape(d, co):
    """cuDNN's sm80 "indexed" kernel (change 4): f16, channels padded, fewer than
    `direct_max_taps` taps, in channels-last, or in NCHW when the direct path does not take it."""
    if "indexed" not in co or d["dtype"] != "f16" or d["spatial"] != 2 or d["g"] != 1 or not padded(d):
        return False
    if d["taps"] >= co["direct_max_taps"]:
        return False
    return d["cl"] or not FI.is_direct(d, co)


def indexed_plan(d, co):
    c = co["indexed"]
    rb = d["xb"] * FI.covered(d) + d["wb"]
    t = c["overhead_us"] + max((rb + d["yb"]) / (BW * c["bandwidth_efficiency"]), d["flops"] / c["flops_per_s"]) * 1e6
    if d["cl"]:
        return [("indexed", rb, t)]
    return [("to_nhwc", d["xb"], F.memory_kernel(co["to_nhwc"], d["xb"], d["xb"], prod(d["x"]))),
            ("weight_to_nhwc", d["wb"], F.memory_kernel(co["weight_to_nhwc"], d["wb"], d["wb"], d["K"] * d["Cg"])),
            ("indexed", rb, t),
            ("to_nchw", d["yb"], F.memory_kernel(co["to_nchw"], d["yb"], d["yb"], d["outputs"]))]


def tile(k):
    """cuDNN's CUTLASS tile (tm, tn) for K output channels."""
    return (128, 128) if -(-k // 128) * 128 <= -(-k // 64) * 64 else (256, 64)


def cutlass_time(d, c):
    tm, tn = tile(d["K"])
    m = d["N"] * prod(d["y"][2:])
    ctas = -(-m // tm) * -(-d["K"] // tn)
    waves = -(-ctas // SMS)
    cp = -(-d["Cg"] // 8) * 8
    cta_flops = 2 * tm * tn * cp * d["taps"]
    return waves * (c["overhead_us"] + cta_flops / c["flops_per_sm_s"] * 1e6)


def fill(d, xp, co):
    r = co.get("padded_copy_l2_bytes")
    return 0.0 if r is None else max(0.0, xp - r)


def plan(d, co):
    """The kernels for conv `d` under batch j's model: [(role, reads, µs)]."""
    if indexed_shape(d, co):
        return indexed_plan(d, co)
    if is_cutlass(d, co):
        c = co["cutlass"]
        grow = (-(-d["Cg"] // 8) * 8) / d["Cg"]
        xp, wp = d["xb"] * grow, d["wb"] * grow
        ks = []
        if not d["cl"]:
            ks.append(("to_nhwc_padded", d["xb"] + fill(d, xp, co),
                       F.memory_kernel(co["to_nhwc_padded"], d["xb"], xp, prod(d["x"]))))
            ks.append(("weight_to_nhwc", d["wb"],
                       F.memory_kernel(co["weight_to_nhwc"], d["wb"], wp, d["K"] * d["Cg"])))
        else:
            ks.append(("pad", d["xb"] + fill(d, xp, co), F.memory_kernel(co["pad"], d["xb"], xp, prod(d["x"]))))
            ks.append(("pad", d["wb"], F.memory_kernel(co["pad"], d["wb"], wp, prod(d["w"]))))
        ks.append(("cutlass", xp * FI.covered(d) + wp, cutlass_time(d, c)))
        if not d["cl"]:
            ks.append(("to_nchw", d["yb"], F.memory_kernel(co["to_nchw"], d["yb"], d["yb"], d["outputs"])))
        return ks
    ks = FI.plan(d, co)
    if padded(d) and not depthwise(d) and not FI.is_direct(d, co):
        xp = d["xb"] * F.padded_channels(d["Cg"], d["e"]) / d["Cg"]
        out, first = [], True
        for r, b, t in ks:
            if r in ("to_nhwc_padded", "pad") and first:
                b, first = b + fill(d, xp, co), False
            out.append((r, b, t))
        ks = out
    return ks


def training():
    return (FI.load_part(FI.H, "fit") + FI.load_part(FI.H, "heldout")
            + FI.load_part(I, "fit") + FI.load_part(I, "heldout"))


def err(p, m):
    return math.log(p / m) ** 2


def fit(data, base):
    co = json.loads(json.dumps(base))
    co["cutlass"] = {"overhead_us": 4.0, "flops_per_sm_s": 1e12, "min_taps_bf16": 9.0, "min_taps_f16": 64.0}
    # 1. The CUTLASS kernel's start-up per wave and rate per SM, on its measured kernels.
    pts = [(d, t) for _, d, ks, _ in data if is_cutlass(d, co) for r, b, t in ks if r == "implicit_gemm"]
    best = None
    for o in [i / 10 for i in range(0, 101)]:
        for rate in [10 ** (11.5 + i / 200) for i in range(0, 201)]:
            c = {"overhead_us": o, "flops_per_sm_s": rate}
            s = sum(err(cutlass_time(d, c), t) for d, t in pts)
            if best is None or s < best[0]:
                best = (s, o, rate)
    co["cutlass"]["overhead_us"] = best[1]
    co["cutlass"]["flops_per_sm_s"] = float(f"{best[2]:.3g}")
    print(f"CUTLASS kernels fitted: {len(pts)}")
    # 4. The sm80 indexed kernel, on its measured kernels (fitted before the fills: the
    # indexed convs have no padding copies).
    co["indexed"] = {"bandwidth_efficiency": 0.3, "flops_per_s": 3e13, "overhead_us": 3.0}
    pts = [(d["xb"] * FI.covered(d) + d["wb"] + d["yb"], d["flops"], t) for _, d, ks, _ in data
           if indexed_shape(d, co) for r, b, t in ks if r == "implicit_gemm"]
    best = None
    for o in [i / 2 for i in range(0, 21)]:
        for eff in [i / 100 for i in range(5, 101)]:
            for rate in [10 ** (12 + i / 40) for i in range(0, 121)]:
                s = sum(err(o + max(b / (BW * eff), f / rate) * 1e6, t) for b, f, t in pts)
                if best is None or s < best[0]:
                    best = (s, eff, rate, o)
    co["indexed"] = {"bandwidth_efficiency": best[1], "flops_per_s": float(f"{best[2]:.3g}"), "overhead_us": best[3]}
    print(f"indexed kernels fitted: {len(pts)}")
    # 2. The fill of padded copies: on the reads of every input copy that pads.
    cp = []
    for _, d, ks, _ in data:
        if depthwise(d) or not padded(d) or FI.is_direct(d, co) or indexed_shape(d, co):
            continue
        cpad = -(-d["Cg"] // 8) * 8 if is_cutlass(d, co) else F.padded_channels(d["Cg"], d["e"])
        xp = d["xb"] * cpad / d["Cg"]
        for r, b, t in ks:
            if r in ("to_nhwc_padded", "pad"):
                cp.append((d["xb"], xp, b))
                break
    best = None
    for r in [i * 0.25e6 for i in range(0, 200)]:
        s = sum((math.log((x + max(0.0, xp - r)) / b)) ** 2 for x, xp, b in cp)
        if best is None or s < best[0]:
            best = (s, r)
    co["padded_copy_l2_bytes"] = best[1]
    print(f"padded input copies fitted: {len(cp)}")
    # 3. The 3-D implicit GEMM's efficiency on every 3-D case (batch i's other GEMM terms).
    g3 = []
    for _, d, ks, _ in data:
        if d["spatial"] == 3 and not depthwise(d):
            for r, b, t in ks:
                if r == "implicit_gemm":
                    m, n, k = d["N"] * prod(d["y"][2:]), d["K"], d["Cg"] * d["taps"]
                    g3.append((m, n, k, d["e"], d["xb"] + d["wb"] + d["yb"], t))
    best = None
    for eff in [i / 100 for i in range(10, 101)]:
        s = sum(err(F.gemm_time(m, n, k, e, rw, eff, co["gemm_k_half"], co["gemm_overhead_us"]), t)
                for m, n, k, e, rw, t in g3)
        if best is None or s < best[0]:
            best = (s, eff)
    co["gemm_3d_efficiency"] = best[1]
    print(f"3-D implicit GEMMs fitted: {len(g3)}")
    co["source"] = ("fitted by validation/gpu/h100-calib-i/fit_conv_i.py on batch h (both halves) and batch i's "
                    "fit half, then by validation/gpu/h100-calib-j/fit_conv_j.py (the CUTLASS align8 and sm80 indexed kernels, "
                    "padded copies' fills, 3-D efficiency) on batch h and batch i (both halves, 128 conv cases); "
                    "H100 80GB HBM3, cuDNN 9.19, ncu, L2 flushed")
    co = F.rounded(co)
    # The presets' order: batch i's keys, the new ones, the source last.
    preset = json.load(open(os.path.join(ROOT, "src", "cost", "presets", "h100.json")))["model"]["conv"]
    order = [k for k in preset if k not in ("source", "cutlass", "indexed", "padded_copy_l2_bytes")]
    order += ["cutlass", "indexed", "padded_copy_l2_bytes", "source"]
    return {k: co[k] for k in order}


def family(d):
    return f"conv{d['spatial']}d"


def report(data, co, label):
    fams = {}
    for name, d, ks, m in data:
        pl = plan(d, co)
        pr, pt = sum(b for _, b, _ in pl), sum(t for _, _, t in pl)
        mr, mt = int(m["dram_read"]), int(m["gpu_time_ns"]) / 1e3
        okr, okt = abs(pr / mr - 1) <= 0.15, abs(pt / mt - 1) <= 0.20
        path = "cutlass" if is_cutlass(d, co) else "indexed" if indexed_shape(d, co) else ""
        f = fams.setdefault(f"{family(d)} {path}".strip(), [0, 0, 0, 0])
        f[0] += 1
        f[1] += okr
        if mt > 20:
            f[2] += 1
            f[3] += okt
        path = path or (pl[-1][0] if pl else "?")
        print(f"{name[:72]:<72} {path[:14]:<14} reads {pr/mr-1:+6.0%} time {pt:7.1f}/{mt:7.1f} µs "
              f"{pt/mt-1:+5.0%} {'' if okr else 'R'}{'' if okt or mt <= 20 else 'T'}")
    for f, (n, nr, nt, ntok) in sorted(fams.items()):
        print(f"{label} {f:14s} {n:3d} cases: reads within ±15% {nr}/{n}, time within ±20% {ntok}/{nt} (over 20 µs)")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    base = json.load(open(os.path.join(I, "fit_conv_i.json")))  # batch i's fit, as fit_conv_i.py wrote it
    data = training()
    co = fit(data, base)
    print(json.dumps({k: v for k, v in co.items()
                      if k in ("cutlass", "indexed", "padded_copy_l2_bytes", "gemm_3d_efficiency")},
                     indent=1))
    print("batch i's coefficients on the training data:")
    report(data, base, "before")
    print("refitted:")
    report(data, co, "after")
    json.dump(co, open(os.path.join(HERE, "fit_conv_j.json"), "w"), indent=2)
    if a.write:
        for name in ("h100", "h100-measured", "h100-2x8"):
            path = os.path.join(ROOT, "src", "cost", "presets", name + ".json")
            j = json.load(open(path))
            j["model"]["conv"] = co
            with open(path, "w") as f:
                json.dump(j, f, indent=2, ensure_ascii=False)
                f.write("\n")
        path = os.path.join(ROOT, "validation", "gpu", "h100-calib", "fit.json")
        j = json.load(open(path))
        j["conv"] = co
        with open(path, "w") as f:
            json.dump(j, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
