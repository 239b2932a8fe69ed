"""Calibration batch h for fgraph's hardware model (issue 23, item 7): the new op families.

Every case is FIT or HELDOUT (`part`). The fit half is measured first and the families'
coefficients are fitted on it; fgraph's predictions for the held-out half are committed before
that half is measured (calib_h.sh refuses `heldout` without the predictions' commit).

Families (`family`; `group` is the stratum the split is made in):
  conv2d        F.conv2d, no bias, f16/bf16 (drawn per shape), every shape in BOTH layouts
                (`nchw`: contiguous input and weight; `channels_last`: both converted with
                memory_format=torch.channels_last). Groups: resnet50 (batch 32: 7x7/2 stem,
                1x1 and 3x3 bottleneck convs at 56/28/14/7, the strided 3x3 and the 1x1/2
                downsample), convnext (ConvNeXt-T 7x7 depthwise convs, groups = C, at
                56/28/14/7, and its 4x4/4 patchify stem; batch 32-128), sd_unet (Stable
                Diffusion 1.5 UNet 3x3 convs at 64x64 and 32x32 latents, C 320/640, conv_in
                4->320, the 3x3/2 downsample; batch 1-8)
  conv1d        F.conv1d, contiguous `ncl`: whisper_conv1, whisper_conv2 (Whisper-tiny's stem,
                80->384 k3 p1 and 384->384 k3 s2 p1 over 3000 frames, two batches each),
                mamba (Mamba-130m's causal depthwise conv, d_inner 1536, k 4, padding 3,
                groups 1536; the output has L+3 columns, as F.conv1d gives them)
  conv3d        F.conv3d 3x3x3 p1, `ncdhw` and `channels_last` (channels_last_3d): a video-UNet
                shape and a 3-D ResNet shape (one shape per part)
  group_norm    F.group_norm, 32 groups, affine, eps 1e-5, f16, contiguous, SD 1.5 UNet shapes
  max_pool2d    F.max_pool2d 3x3/2 pad 1 on ResNet's [N, 64, 112, 112], both layouts
  adaptive_avg_pool2d   F.adaptive_avg_pool2d(x, 1) on [N, C, 7, 7] (ResNet C 2048, ConvNeXt
                C 768), both layouts
  topk          torch.topk(x, k, dim=-1) over router probabilities [tokens, experts],
                experts 8/64/160, k 2/6/8, f32 or bf16
  sort          torch.sort(ids) (values and indices) of int64 expert ids, tokens*k of them
  argsort       torch.argsort(ids) of the same
  index_select  torch.index_select(src, 0, idx): src [T, H], idx a permutation of each row
                id repeated k times (an MoE dispatch), out [T*k, H]; f16/bf16
  index_add     out.index_add_(0, idx, src): out [T, H], src [T*k, H], idx as index_select's
                (an MoE combine: every row of out receives k rows); f16/bf16
  cumsum        torch.cumsum(x, dim=-1): short rows ([tokens, 64-160]) and long rows
                ([1-16, 2^18-2^24]); f32 or int64
  sdpa_decode   F.scaled_dot_product_attention(q, k, v, enable_gqa=True), default backend:
                q [B, 32, 1, 128], k and v [B, 8, L, 128], B 1-16, L 1024-32768, f16/bf16
  sdpa_prefill  the same with is_causal=True, q [B, 32, S, 128], k and v [B, 8, S, 128]
  attn_window   torch.nn.attention.varlen.varlen_attn(..., window_size=(W, 0)) (PyTorch's
                FlashAttention-2 sliding-window kernel, causal window of W keys before the
                query): F.scaled_dot_product_attention has no window argument (a mask is no
                window: it skips no blocks), so the windowed case goes through varlen_attn;
                q [B*S, 32, 128], k and v [B*S, 8, 128], B sequences of S. The case fails
                (recorded FAILED, an empty region) where this torch's varlen_attn takes no
                window_size.

Compulsory bytes and FLOPs (`read`, `write`, `flops`; e = the element size; every input read
once, every output written once; no workspace):
  conv      read = x + w, write = y; flops = 2 * N * K * prod(out spatial) * (C/groups) *
            prod(kernel); y's spatial size is floor((in + 2p - d(k-1) - 1)/s) + 1
  group_norm  read = x + weight + bias (2*C*e), write = y; flops = 8 * numel (nominal)
  max_pool2d  read = x, write = y (values only); flops = numel(y) * 9 (comparisons)
  adaptive_avg_pool2d  read = x, write = y; flops = numel(x)
  topk      read = x [T, E], write = values [T, k] * e + indices [T, k] * 8; flops = T * E
  sort      read = ids n*8, write = values n*8 + indices n*8; flops = n * ceil(log2 n) (nominal)
  argsort   read = ids n*8, write = indices n*8; flops as sort
  index_select  read = src T*H*e (every row is selected) + idx n*8, write = n*H*e; flops 0
  index_add  read = src n*H*e + idx n*8 + out T*H*e (read-modify-write), write = T*H*e;
            flops = n * H
  cumsum    read = x, write = y (same dtype); flops = numel
  attention (sdpa_decode, sdpa_prefill, attn_window): read = q + k + v (k, v with the KV
            heads: no copy for GQA), write = o (q's shape); flops = 4 * B * Hq * D * pairs,
            pairs = the (query, key) pairs visited: Sq*Sk for decode (Sq = 1), S(S+1)/2
            causal, sum over i < S of (min(i, W) + 1) for the window
`footprint` is the bytes the case allocates (inputs and outputs; sort's temporaries
nominally), all under 4 GB (the card has ~78 GiB).

The split: within each (family, group) stratum the shape groups (a conv shape's two layouts
are one group, so both go to the same part) are ordered by random.Random(SEED + 1).shuffle;
even ranks are `fit`, odd ranks `heldout`. Shapes and dtypes are drawn by random.Random(SEED).

The method is calib_e.py's (../h100-calib-e; its region() is used as is): each case is
warmed up (3 calls), then run once more inside its own cudaProfilerStart/Stop region that
starts with a `spin_kernel` marker (torch.cuda._sleep), profiled by Nsight Compute
(calib_h.sh: --cache-control all --clock-control none), so every kernel the PyTorch call
launches is recorded. A case that fails before its region gets an empty region (the marker
alone) so the CSV stays aligned with the case list. The timing pass (no ncu) times the whole
PyTorch call with CUDA events, 20 repeats after 3 warm-up calls: `wall_us` with L2 flushed
(a 256 MB read before each repeat) and `warm_us` without (a 100 us GPU spin before each
repeat hides the launch latency of the call's first kernel in both).

  python3 calib_h.py --list [--part fit|heldout]   # the cases (no GPU, no torch)
  python3 calib_h.py --json [--out DIR]            # cases.json, every case (no GPU)
  python3 calib_h.py --profile --part fit          # the ncu pass over one part (regions only)
  python3 calib_h.py --time --part fit --out DIR   # the events pass: DIR/time_fit.csv
"""
import argparse
import csv
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-e"))
import calib_e as E  # noqa: E402  (../h100-calib-e/calib_e.py: BYTES, logu, region)

SEED = 20261203
BYTES = dict(E.BYTES, i64=8, i32=4)
GiB = 1 << 30
REPS = 20
HQ, HKV, HD = 32, 8, 128  # attention: query heads, KV heads, head dim


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def out_size(n, k, s, p, d=1):
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


# ---------------------------------------------------------------- case records

def conv_case(family, group, dt, layout, N, C, K, spatial, kernel, stride, pad, groups=1, tag=""):
    nd = len(spatial)
    kernel, stride, pad = ([v] * nd if isinstance(v, int) else list(v) for v in (kernel, stride, pad))
    out_sp = [out_size(n, k, s, p) for n, k, s, p in zip(spatial, kernel, stride, pad)]
    e = BYTES[dt]
    x = [N, C] + list(spatial)
    w = [K, C // groups] + kernel
    y = [N, K] + out_sp
    read = (prod(x) + prod(w)) * e
    write = prod(y) * e
    flops = 2 * N * K * prod(out_sp) * (C // groups) * prod(kernel)
    desc = f"{tag}_{dt}_{layout}_{'x'.join(map(str, x))}_k{'x'.join(map(str, kernel))}s{stride[0]}g{groups}"
    return dict(family=family, group=group, dtype=dt, layout=layout, desc=desc,
                shapes=dict(x=x, w=w, y=y),
                params=dict(stride=stride, padding=pad, dilation=[1] * nd, groups=groups),
                read=read, write=write, flops=flops, footprint=read + write)


def simple_case(family, group, dt, layout, desc, shapes, params, read, write, flops, footprint=None):
    return dict(family=family, group=group, dtype=dt, layout=layout, desc=desc, shapes=shapes,
                params=params, read=read, write=write, flops=flops,
                footprint=footprint if footprint is not None else read + write)


def attn_pairs(kind, Sq, Sk, W=None):
    if kind == "decode":
        return Sq * Sk
    if kind == "causal":
        return Sq * (Sq + 1) // 2
    # causal window of W keys before the query (and the query itself)
    W = min(W, Sq - 1)
    return W * (W + 1) // 2 + (Sq - W) * (W + 1)


def attn_case(family, group, dt, B, Sq, Sk, kind, W=None):
    e = BYTES[dt]
    q = [B, HQ, Sq, HD]
    kv = [B, HKV, Sk, HD]
    read = (prod(q) + 2 * prod(kv)) * e
    write = prod(q) * e
    pairs = attn_pairs(kind, Sq, Sk, W) * B * HQ
    layout = "bhsd"
    params = dict(is_causal=kind == "causal", enable_gqa=True, q_heads=HQ, kv_heads=HKV)
    if kind == "window":
        layout = "thd"  # varlen_attn's packed [B*S, H, D]
        q, kv = [B * Sq, HQ, HD], [B * Sk, HKV, HD]
        params = dict(window_size=[W, 0], batch=B, seq=Sq, enable_gqa=True, q_heads=HQ, kv_heads=HKV)
    desc = f"{dt}_B{B}_q{Sq}_kv{Sk}" + (f"_w{W}" if W else "")
    return simple_case(family, group, dt, layout, desc, dict(q=q, k=kv, v=kv, o=q), params, read, write,
                       4 * HD * pairs)


def make_cases():
    rng = random.Random(SEED)
    groups = []  # (family, stratum, [cases of one shape group])

    def add(family, stratum, *cases):
        groups.append((family, stratum, list(cases)))

    def pick16():
        return rng.choice(["f16", "bf16"])

    # --- conv2d: ResNet-50, batch 32 (C, K, H_in, kernel, stride, pad)
    resnet = [("stem", 3, 64, 224, 7, 2, 3), ("l1_1x1a", 64, 64, 56, 1, 1, 0), ("l1_3x3", 64, 64, 56, 3, 1, 1),
              ("l1_1x1b", 64, 256, 56, 1, 1, 0), ("l1_1x1c", 256, 64, 56, 1, 1, 0),
              ("l2_3x3s2", 128, 128, 56, 3, 2, 1), ("l2_down", 256, 512, 56, 1, 2, 0),
              ("l2_3x3", 128, 128, 28, 3, 1, 1), ("l2_1x1c", 512, 128, 28, 1, 1, 0),
              ("l3_3x3", 256, 256, 14, 3, 1, 1), ("l3_1x1c", 1024, 256, 14, 1, 1, 0),
              ("l3_1x1b", 256, 1024, 14, 1, 1, 0), ("l4_3x3", 512, 512, 7, 3, 1, 1),
              ("l4_1x1c", 2048, 512, 7, 1, 1, 0), ("l4_1x1b", 512, 2048, 7, 1, 1, 0)]
    for tag, C, K, H, k, s, p in resnet:
        dt = pick16()
        add("conv2d", "resnet50", *(conv_case("conv2d", "resnet50", dt, lay, 32, C, K, [H, H], k, s, p, tag=tag)
                                    for lay in ("nchw", "channels_last")))
    # --- conv2d: ConvNeXt-T depthwise 7x7 (groups = C) and the 4x4/4 stem
    for tag, C, H in (("dw96", 96, 56), ("dw192", 192, 28), ("dw384", 384, 14), ("dw768", 768, 7)):
        dt, N = pick16(), rng.choice([32, 64, 128])
        add("conv2d", "convnext", *(conv_case("conv2d", "convnext", dt, lay, N, C, C, [H, H], 7, 1, 3, groups=C, tag=tag)
                                    for lay in ("nchw", "channels_last")))
    dt, N = pick16(), rng.choice([32, 64, 128])
    add("conv2d", "convnext", *(conv_case("conv2d", "convnext", dt, lay, N, 3, 96, [224, 224], 4, 4, 0, tag="stem")
                                for lay in ("nchw", "channels_last")))
    # --- conv2d: Stable Diffusion 1.5 UNet 3x3 convs (latents 64x64, 32x32)
    for tag, C, K, H, s in (("conv_in", 4, 320, 64, 1), ("d1_320", 320, 320, 64, 1), ("d1_down", 320, 320, 64, 2),
                            ("d2_320to640", 320, 640, 32, 1), ("d2_640", 640, 640, 32, 1)):
        dt, N = pick16(), rng.choice([1, 2, 4, 8])
        add("conv2d", "sd_unet", *(conv_case("conv2d", "sd_unet", dt, lay, N, C, K, [H, H], 3, s, 1, tag=tag)
                                   for lay in ("nchw", "channels_last")))
    # --- conv1d: Whisper-tiny stem, Mamba-130m causal depthwise conv
    for tag, C, K, s in (("conv1", 80, 384, 1), ("conv2", 384, 384, 2)):
        for N in rng.sample([1, 2, 4, 8, 16], 2):
            dt = pick16()
            add("conv1d", "whisper_" + tag, conv_case("conv1d", "whisper_" + tag, dt, "ncl", N, C, K, [3000], 3, s, 1,
                                                      tag=f"{C}to{K}"))
    for N, L in ((1, 2048), (4, 1024), (8, 2048), (16, 4096)):
        dt = pick16()
        add("conv1d", "mamba", conv_case("conv1d", "mamba", dt, "ncl", N, 1536, 1536, [L], 4, 1, 3, groups=1536,
                                         tag="causal_dw"))
    # --- conv3d: one shape per part, both layouts
    for tag, N, C, T, H in (("video_unet", 2, 320, 8, 32), ("r3d", 8, 64, 16, 56)):
        dt = pick16()
        add("conv3d", "conv3d", *(conv_case("conv3d", "conv3d", dt, lay, N, C, C, [T, H, H], 3, 1, 1, tag=tag)
                                  for lay in ("ncdhw", "channels_last")))
    # --- group_norm: SD 1.5 UNet shapes, 32 groups, f16
    for C, H in ((320, 64), (640, 64), (320, 32), (640, 32), (960, 32), (640, 16), (1280, 16), (1920, 16),
                 (1280, 8), (2560, 8)):
        N = rng.choice([1, 2, 4])
        x = [N, C, H, H]
        n = prod(x) * 2
        add("group_norm", "sd_unet", simple_case(
            "group_norm", "sd_unet", "f16", "nchw", f"f16_{'x'.join(map(str, x))}_g32", dict(x=x, weight=[C], bias=[C], y=x),
            dict(num_groups=32, eps=1e-5), n + 2 * C * 2, n, 8 * prod(x)))
    # --- pooling: ResNet max pool 3x3/2, global average pool (ResNet 2048, ConvNeXt 768)
    for N in (8, 32, 64, 128):
        dt = pick16()
        x, y = [N, 64, 112, 112], [N, 64, 56, 56]
        add("max_pool2d", "resnet50", *(simple_case(
            "max_pool2d", "resnet50", dt, lay, f"{dt}_{lay}_{'x'.join(map(str, x))}_k3s2", dict(x=x, y=y),
            dict(kernel=[3, 3], stride=[2, 2], padding=[1, 1]), prod(x) * 2, prod(y) * 2, prod(y) * 9)
            for lay in ("nchw", "channels_last")))
    for N, C in ((32, 2048), (128, 2048), (32, 768), (128, 768)):
        dt = pick16()
        x, y = [N, C, 7, 7], [N, C, 1, 1]
        add("adaptive_avg_pool2d", "global", *(simple_case(
            "adaptive_avg_pool2d", "global", dt, lay, f"{dt}_{lay}_{'x'.join(map(str, x))}", dict(x=x, y=y),
            dict(output_size=[1, 1]), prod(x) * 2, prod(y) * 2, prod(x))
            for lay in ("nchw", "channels_last")))
    # --- MoE routing: top-k, sort, argsort
    tokens = [4096, 8192, 16384, 32768]
    combos = [(8, 2), (64, 2), (64, 6), (64, 8), (160, 2), (160, 6), (160, 8)]
    seen = set()
    for j in range(10):
        Ex, k = combos[j % len(combos)]
        T, dt = rng.choice(tokens), rng.choice(["f32", "bf16"])
        while (T, Ex, k) in seen:
            T = rng.choice(tokens)
        seen.add((T, Ex, k))
        e = BYTES[dt]
        add("topk", "moe", simple_case(
            "topk", "moe", dt, "rows", f"{dt}_{T}x{Ex}_k{k}", dict(x=[T, Ex], values=[T, k], indices=[T, k]),
            dict(k=k, dim=-1, experts=Ex, largest=True, sorted=True), T * Ex * e, T * k * (e + 8), T * Ex))
    for fam in ("sort", "argsort"):
        seen = set()
        while len(seen) < 5:
            Ex, k = combos[rng.randrange(len(combos))]
            T = rng.choice(tokens)
            n = T * k
            if n in seen:
                continue
            seen.add(n)
            write = 2 * n * 8 if fam == "sort" else n * 8
            add(fam, "moe", simple_case(
                fam, "moe", "i64", "1d", f"i64_{n}_E{Ex}", dict(ids=[n], **({"values": [n]} if fam == "sort" else {}), indices=[n]),
                dict(experts=Ex, tokens=T, k=k, dim=-1), n * 8, write, n * math.ceil(math.log2(n)),
                footprint=n * 8 + write + 4 * n * 8))
    # --- MoE gather / scatter-add
    for fam in ("index_select", "index_add"):
        for j in range(8):
            T = int(round(E.logu(rng, 4096, 32768))) // 256 * 256
            H = rng.choice([2048, 2560, 3072, 4096])
            k = rng.choice([1, 2, 6, 8])
            dt = pick16()
            e, n = BYTES[dt], T * k
            if fam == "index_select":
                shapes = dict(src=[T, H], idx=[n], out=[n, H])
                read, write, flops = T * H * e + n * 8, n * H * e, 0
            else:
                shapes = dict(out=[T, H], idx=[n], src=[n, H])
                read, write, flops = n * H * e + n * 8 + T * H * e, T * H * e, n * H
            add(fam, "moe", simple_case(fam, "moe", dt, "rows", f"{dt}_T{T}_H{H}_k{k}", shapes,
                                        dict(dim=0, tokens=T, k=k), read, write, flops,
                                        footprint=(T * H + n * H) * e + n * 8))
    # --- cumsum: short rows (tokens x experts) and long rows
    seen = set()
    while len(seen) < 4:
        T, C, dt = rng.choice(tokens), rng.choice([64, 128, 160]), rng.choice(["f32", "i64"])
        if (T, C) in seen:
            continue
        seen.add((T, C))
        n = T * C * BYTES[dt]
        add("cumsum", "short_rows", simple_case("cumsum", "short_rows", dt, "rows", f"{dt}_{T}x{C}",
                                                dict(x=[T, C], y=[T, C]), dict(dim=-1), n, n, T * C))
    for R, L in ((1, 1 << 24), (4, 1 << 20), (16, 1 << 18), (2, 1 << 22)):
        dt = rng.choice(["f32", "i64"])
        n = R * L * BYTES[dt]
        add("cumsum", "long_rows", simple_case("cumsum", "long_rows", dt, "rows", f"{dt}_{R}x{L}",
                                               dict(x=[R, L], y=[R, L]), dict(dim=-1), n, n, R * L))
    # --- attention: decode with GQA, causal prefill with GQA, a causal window
    seen = set()
    while len(seen) < 12:
        B, L = rng.choice([1, 2, 4, 8, 16]), rng.choice([1024, 2048, 4096, 8192, 16384, 32768])
        if (B, L) in seen:
            continue
        seen.add((B, L))
        add("sdpa_decode", "gqa", attn_case("sdpa_decode", "gqa", pick16(), B, 1, L, "decode"))
    seen = set()
    while len(seen) < 6:
        B, S = rng.choice([1, 2, 4]), rng.choice([1024, 2048, 4096, 8192])
        if (B, S) in seen:
            continue
        seen.add((B, S))
        add("sdpa_prefill", "gqa_causal", attn_case("sdpa_prefill", "gqa_causal", pick16(), B, S, S, "causal"))
    for B, S, W in ((1, 16384, 4096), (2, 8192, 1024)):
        add("attn_window", "varlen", attn_case("attn_window", "varlen", pick16(), B, S, S, "window", W))

    # --- the split, per (family, stratum): shuffled shape groups, even ranks fit
    srng = random.Random(SEED + 1)
    strata = {}
    for g in groups:
        strata.setdefault((g[0], g[1]), []).append(g)
    for key, gs in strata.items():
        order = list(range(len(gs)))
        srng.shuffle(order)
        for rank, gi in enumerate(order):
            for c in gs[gi][2]:
                c["part"] = "fit" if rank % 2 == 0 else "heldout"
    cases = []
    for family, stratum, cs in groups:
        for c in cs:
            i = len(cases)
            rec = dict(part=c["part"], case=f"{c['part']}_{i:03d}_{family}_{stratum}_{c.pop('desc')}", index=i)
            rec.update(c)
            assert rec["footprint"] < 8 * GiB, rec["case"]
            cases.append(rec)
    return cases


CASES = make_cases()


def part_cases(part):
    return [c for c in CASES if part in (None, "all", c["part"])]


# Kernels per case, a guess for the ncu time estimate (a contiguous half-precision conv:
# transpose, implicit GEMM, transpose back; cub's radix sort: ~10 passes).
def est_kernels(c):
    f = c["family"]
    if f.startswith("conv"):
        return 1 if c["layout"] == "channels_last" else 3
    return {"group_norm": 2, "topk": 2, "sort": 10, "argsort": 10, "cumsum": 2, "sdpa_decode": 2}.get(f, 1)


def est_ncu_seconds(cases):
    """calib_e's pass: 104 cases, 109 kernels in 60 s under ncu (startup included):
    ~0.45 s a kernel, ~0.1 s a case, ~15 s to start, plus ncu's memory save/restore for
    replays (~0.5 s a GB of footprint)."""
    k = sum(est_kernels(c) for c in cases)
    gb = sum(c["footprint"] for c in cases) / 1e9
    return k, 15 + 0.45 * k + 0.1 * len(cases) + 0.5 * gb


# ---------------------------------------------------------------- PyTorch builders

def build(c):
    import torch
    import torch.nn.functional as F

    tdt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
    f, s, p = c["family"], c["shapes"], c["params"]
    dt = tdt.get(c["dtype"])

    def r(shape, scale=0.5):
        return torch.randn(*shape, device="cuda", dtype=dt) * scale

    def fmt(t):
        if c["layout"] == "channels_last":
            return t.contiguous(memory_format=torch.channels_last if t.dim() == 4 else torch.channels_last_3d)
        return t

    if f.startswith("conv"):
        x = fmt(r(s["x"]))
        w = fmt(r(s["w"], 1.0 / math.sqrt(prod(s["w"][1:]))))
        conv = {"conv1d": F.conv1d, "conv2d": F.conv2d, "conv3d": F.conv3d}[f]
        st, pd, dl, g = p["stride"], p["padding"], p["dilation"], p["groups"]
        return lambda: conv(x, w, None, st, pd, dl, g)
    if f == "group_norm":
        x, w, b = r(s["x"]), 1.0 + r(s["weight"], 0.1), r(s["bias"], 0.1)
        return lambda: F.group_norm(x, p["num_groups"], w, b, p["eps"])
    if f == "max_pool2d":
        x = fmt(r(s["x"]))
        return lambda: F.max_pool2d(x, p["kernel"], p["stride"], p["padding"])
    if f == "adaptive_avg_pool2d":
        x = fmt(r(s["x"]))
        return lambda: F.adaptive_avg_pool2d(x, p["output_size"])
    if f == "topk":
        x = torch.softmax(torch.randn(*s["x"], device="cuda", dtype=torch.float32), -1).to(dt)
        k = p["k"]
        return lambda: torch.topk(x, k, dim=-1)
    if f in ("sort", "argsort"):
        ids = torch.randint(0, p["experts"], tuple(s["ids"]), device="cuda", dtype=torch.int64)
        if f == "sort":
            return lambda: torch.sort(ids)
        return lambda: torch.argsort(ids)
    if f in ("index_select", "index_add"):
        T, k = p["tokens"], p["k"]
        idx = torch.arange(T, device="cuda", dtype=torch.int64).repeat_interleave(k)
        idx = idx[torch.randperm(T * k, device="cuda")].contiguous()
        if f == "index_select":
            src = r(s["src"])
            return lambda: torch.index_select(src, 0, idx)
        out, src = r(s["out"]), r(s["src"], 0.01)
        return lambda: out.index_add_(0, idx, src)
    if f == "cumsum":
        if c["dtype"] == "i64":
            x = torch.randint(0, 4, tuple(s["x"]), device="cuda", dtype=torch.int64)
        else:
            x = r(s["x"])
        return lambda: torch.cumsum(x, dim=-1)
    if f in ("sdpa_decode", "sdpa_prefill"):
        q, k, v = r(s["q"]), r(s["k"]), r(s["v"])
        causal = p["is_causal"]
        return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    if f == "attn_window":
        import inspect
        from torch.nn.attention.varlen import varlen_attn
        params = inspect.signature(varlen_attn).parameters
        if "window_size" not in params:
            raise RuntimeError("this torch's varlen_attn takes no window_size: no windowed kernel to measure")
        q, k, v = r(s["q"]), r(s["k"]), r(s["v"])
        B, S = p["batch"], p["seq"]
        cu = torch.arange(0, (B + 1) * S, S, device="cuda", dtype=torch.int32)
        kw = dict(window_size=tuple(p["window_size"]))
        if "enable_gqa" in params:
            kw["enable_gqa"] = True
        return lambda: varlen_attn(q, k, v, cu, cu, S, S, **kw)
    raise ValueError(f)


def setup_torch():
    import torch
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = False  # cuDNN's heuristics pick the kernels (PyTorch's default)
    return torch


def profile_cases(part):
    torch = setup_torch()
    for c in part_cases(part):
        i = c["index"]
        in_region = False
        try:
            f = build(c)
            with torch.no_grad():
                for _ in range(3):
                    f()
                torch.cuda.synchronize()
                in_region = True
                E.region(torch, f)
            print("profiled", i, c["case"], flush=True)
            del f
        except Exception as ex:  # noqa: BLE001
            print("FAILED", i, c["case"], repr(ex)[:300], flush=True)
            try:
                torch.cuda.synchronize()
            except Exception:  # noqa: BLE001
                pass
            if in_region:
                torch.cuda.profiler.stop()
            else:  # an empty region keeps the CSV aligned with the cases
                E.region(torch, lambda: None)
        torch.cuda.empty_cache()


def time_cases(part, out):
    torch = setup_torch()
    path = os.path.join(out, f"time_{part}.csv")
    flush = torch.empty(64 << 20, device="cuda", dtype=torch.float32).uniform_()  # 256 MB > 50 MB of L2
    fields = ["part", "index", "case", "family", "reps", "wall_us", "wall_min_us", "warm_us", "warm_min_us", "status"]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(fields)
        for c in part_cases(part):
            row = [c["part"], c["index"], c["case"], c["family"], REPS]
            try:
                f = build(c)
                with torch.no_grad():
                    for _ in range(3):
                        f()
                    torch.cuda.synchronize()
                    res = []
                    for cold in (True, False):
                        ts = []
                        for _ in range(REPS):
                            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                            if cold:
                                flush.sum()  # reads 256 MB: L2 holds clean lines of `flush` only
                            torch.cuda._sleep(200_000)  # ~100 us queued ahead of the call
                            s.record()
                            f()
                            e.record()
                            e.synchronize()
                            ts.append(s.elapsed_time(e) * 1000.0)
                        ts.sort()
                        res += [round(ts[REPS // 2], 3), round(ts[0], 3)]
                row += res + ["ok"]
                print("timed", c["index"], c["case"], res[0], res[2], flush=True)
                del f
            except Exception as ex:  # noqa: BLE001
                row += ["", "", "", "", "FAILED " + repr(ex)[:200].replace(",", ";").replace("\n", " ")]
                print("FAILED", c["index"], c["case"], repr(ex)[:300], flush=True)
            w.writerow(row)
            fh.flush()
            torch.cuda.empty_cache()


def summary(cases):
    fams = []
    for c in cases:
        if c["family"] not in fams:
            fams.append(c["family"])
    lines = [f"{'family':22s} {'fit':>4s} {'held':>5s}"]
    for fam in fams:
        n = [sum(1 for c in cases if c["family"] == fam and c["part"] == p) for p in ("fit", "heldout")]
        lines.append(f"{fam:22s} {n[0]:4d} {n[1]:5d}")
    for p in ("fit", "heldout"):
        cs = [c for c in cases if c["part"] == p]
        k, t = est_ncu_seconds(cs)
        lines.append(f"{p}: {len(cs)} cases, ~{k} kernels (guessed), ncu pass ~{t:.0f} s, "
                     f"largest footprint {max(c['footprint'] for c in cs) / GiB:.2f} GiB")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--part", choices=["fit", "heldout", "all"], default=None)
    ap.add_argument("--out", default=None, help="folder for cases.json (default: here) and time_<part>.csv ($OUT)")
    a = ap.parse_args()
    if (a.profile or a.time) and a.part not in ("fit", "heldout"):
        ap.error("--profile and --time take --part fit or --part heldout")
    if a.list:
        for c in part_cases(a.part):
            print(c["part"], c["family"], c["case"], c["read"], c["write"], c["flops"])
        print(summary(CASES), file=sys.stderr)
    if a.json:
        with open(os.path.join(a.out or HERE, "cases.json"), "w") as fh:
            json.dump(CASES, fh, indent=0)
            fh.write("\n")
    if a.profile:
        profile_cases(a.part)
    if a.time:
        time_cases(a.part, a.out or os.environ.get("OUT", "/tmp/out"))


if __name__ == "__main__":
    main()
