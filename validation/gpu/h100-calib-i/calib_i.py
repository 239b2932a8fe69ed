"""Calibration batch i for fgraph's hardware model (issue 23, items 1, 3, 4, 6 and 7).

Two purposes:
  1. New cases for the two batch-h families that missed their targets on batch h's held-out
     half (convolutions: strided 1x1 downsamples, patchify stems, small-channel stems, more
     ResNet shapes, Mamba's depthwise conv1d, conv3d; top-k over few and many experts). The
     refitted conv and top-k models are fitted on batch h (both halves) plus batch i's fit
     half and checked on batch i's held-out half, which no coefficient has seen.
  2. The families of this session: the selective scan (Mamba-1), a generic associative scan,
     fp8 and int8 GEMMs with scales, and weight-only int4 GEMMs with group scales (w4a16).

Every case is FIT or HELDOUT (`part`); the fit half is measured first, the coefficients are
fitted on it, and fgraph's predictions for the held-out half are committed before that half
is measured (calib_i.sh refuses `heldout` without the predictions' commit).

Families (`family`; `group` the stratum of the split):
  conv2d, conv1d, conv3d  F.conv{1,2,3}d, no bias, f16/bf16, both layouts where 2-D/3-D
                (calib_h.py's builders and case records)
  topk          torch.topk(x, k, dim=-1), router probabilities [tokens, experts]
  selective_scan  scan_kernel.selective_scan (a Triton kernel with mamba_ssm's contract and
                traffic: mamba_ssm itself cannot be installed on the device): u, delta, z
                [B, D, L] f16/bf16, A [D, 16] f32, B and C [B, 16, L], D and delta_bias [D]
                f32, delta_softplus; y [B, D, L]
  assoc_scan    torch._higher_order_ops.associative_scan under torch.compile (Inductor's
                Triton scan): `add` over [R, L] (f32), and the pair scan of the linear
                recurrence h = a*h + b (combine (a1,b1),(a2,b2) -> (a1*a2, a2*b1 + b2)), f32
  scaled_mm     torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=bf16): a [M, K] and b [K, N]
                (column-major, as cuBLASLt takes it) float8_e4m3fn, scales per tensor (f32
                scalars) or rowwise ([M, 1] and [1, N] f32)
  int_mm        torch._int_mm(a, b): a [M, K], b [K, N] int8 -> int32 [M, N] (M > 16)
  w4a16         torch._weight_int4pack_mm(x, w_packed, 128, scales_and_zeros): x [M, K] bf16,
                w_packed from torch._convert_weight_to_int4pack (K*N/2 bytes), group size
                128, scales_and_zeros [K/128, N, 2] bf16 (tinygemm, gpt-fast's int4 kernel)

Compulsory bytes (`read`, `write`; e the element size; every input read once, every output
written once):
  selective_scan  read = (3*B*D*L + 2*B*16*L) * e + D*16*4 + 2*D*4, write = B*D*L*e
  assoc_scan    read = the inputs, write = the outputs (the pair scan writes both)
  scaled_mm     read = M*K + K*N + the scales' f32s, write = M*N*2
  int_mm        read = M*K + K*N, write = M*N*4
  w4a16         read = M*K*2 + K*N/2 + (K/128)*N*2*2, write = M*N*2
FLOPs: 2*M*N*K for the GEMMs; scans as their cases say (nominal, fgraph counts its own).

The method, the ncu flags and the timing pass are batch h's (calib_h.py's profile_cases and
time_cases, through its `build`, extended here).

  python3 calib_i.py --list [--part fit|heldout]
  python3 calib_i.py --json [--out DIR]
  python3 calib_i.py --profile --part fit
  python3 calib_i.py --time --part fit --out DIR
  python3 calib_i.py --smoke --out DIR      # checks the Triton scan against the reference,
                                            # the APIs, and the published parameter counts
"""
import argparse
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-h"))
sys.path.insert(0, HERE)
import calib_h as H  # noqa: E402

SEED = 20261126
E = H.E
BYTES = dict(H.BYTES, f8e4m3=1, i8=1)
GiB = 1 << 30
prod = H.prod
conv_case, simple_case = H.conv_case, H.simple_case
NS = 16  # Mamba's d_state


def make_cases():
    rng = random.Random(SEED)
    rng_mamba = random.Random(SEED + 2)
    groups = []
    late = []  # strata added after batch i's first fit pass: split and numbered after the rest

    def add(family, stratum, *cases):
        groups.append((family, stratum, list(cases)))

    def pick16():
        return rng.choice(["f16", "bf16"])

    def conv2(stratum, tag, N, C, K, H_, k, s, p, groups_=1):
        dt = pick16()
        add("conv2d", stratum, *(conv_case("conv2d", stratum, dt, lay, N, C, K, [H_, H_], k, s, p, groups=groups_, tag=tag)
                                 for lay in ("nchw", "channels_last")))

    # --- conv2d: strided 1x1 downsamples (ResNet-50 stages 3-4, ResNet-18/34)
    for tag, N, C, K, H_ in (("r50_l3_down", 32, 512, 1024, 28), ("r50_l4_down", 32, 1024, 2048, 14),
                             ("r18_l2_down", 64, 64, 128, 56), ("r18_l3_down", 64, 128, 256, 28),
                             ("r18_l4_down", 128, 256, 512, 14), ("r50_l2_down_b8", 8, 256, 512, 56)):
        conv2("strided_1x1", tag, N, C, K, H_, 1, 2, 0)
    # --- conv2d: patchify stems (kernel = stride, no padding)
    for tag, N, C, K, H_, k in (("vit_b16", 32, 3, 768, 224, 16), ("vit_b16_n8", 8, 3, 768, 224, 16),
                                ("swin_b", 32, 3, 128, 224, 4), ("convnext_n64", 64, 3, 96, 224, 4),
                                ("dit_xl2", 8, 4, 1152, 32, 2), ("vit_l14", 16, 3, 1024, 224, 14)):
        conv2("patchify", tag, N, C, K, H_, k, k, 0)
    # --- conv2d: small-channel stems (3-4 input channels, k > stride)
    for tag, N, C, K, H_, k, s, p in (("mbv2_stem", 32, 3, 32, 224, 3, 2, 1), ("mbv2_stem_n128", 128, 3, 32, 224, 3, 2, 1),
                                      ("r50_stem_n8", 8, 3, 64, 224, 7, 2, 3), ("r50_stem_n64", 64, 3, 64, 224, 7, 2, 3),
                                      ("sd_conv_in_n2", 2, 4, 320, 64, 3, 1, 1), ("sd_conv_in_n16", 16, 4, 320, 64, 3, 1, 1)):
        conv2("small_c_stem", tag, N, C, K, H_, k, s, p)
    # --- conv2d: more ResNet/UNet bodies at other batches (the small channels-last kernels)
    for tag, N, C, K, H_, k, s, p in (("r50_l1_1x1b_n16", 16, 64, 256, 56, 1, 1, 0), ("r50_l1_3x3_n64", 64, 64, 64, 56, 3, 1, 1),
                                      ("r50_l2_3x3_n16", 16, 128, 128, 28, 3, 1, 1), ("r50_l3_3x3_n64", 64, 256, 256, 14, 3, 1, 1),
                                      ("r50_l3_1x1b_n64", 64, 256, 1024, 14, 1, 1, 0), ("r50_l4_3x3_n16", 16, 512, 512, 7, 3, 1, 1),
                                      ("sd_d3_1280_n4", 4, 1280, 1280, 16, 3, 1, 1), ("sd_d2_640_n2", 2, 640, 640, 32, 3, 1, 1)):
        conv2("bodies", tag, N, C, K, H_, k, s, p)
    # --- conv1d: Mamba's causal depthwise conv (d_inner 1536 / 2048 / 5120), both dtypes
    for N, Dm, L in ((2, 1536, 2048), (4, 2048, 1024), (8, 1536, 1024), (1, 5120, 4096), (16, 2048, 512), (4, 1536, 4096)):
        dt = pick16()
        add("conv1d", "mamba", conv_case("conv1d", "mamba", dt, "ncl", N, Dm, Dm, [L], 4, 1, 3, groups=Dm, tag="causal_dw"))
    # --- conv3d: 3x3x3 p1, both layouts
    for tag, N, C, K, T, H_ in (("video_unet_640", 2, 640, 640, 8, 16), ("r3d_l2", 8, 128, 128, 8, 28),
                                ("video_unet_320_t16", 1, 320, 320, 16, 32), ("r3d_l3", 8, 256, 256, 4, 14)):
        dt = pick16()
        add("conv3d", "conv3d", *(conv_case("conv3d", "conv3d", dt, lay, N, C, K, [T, H_, H_], 3, 1, 1, tag=tag)
                                  for lay in ("ncdhw", "channels_last")))
    # --- top-k over few and many experts
    combos = [(8, 1), (8, 2), (16, 2), (16, 4), (32, 4), (64, 1), (64, 4), (128, 2), (128, 8), (256, 8),
              (64, 6), (160, 6), (8, 2), (256, 4)]
    seen = set()
    for Ex, k in combos:
        T, dt = rng.choice([2048, 4096, 8192, 16384, 32768, 65536]), rng.choice(["f32", "bf16"])
        while (T, Ex, k) in seen:
            T = rng.choice([2048, 4096, 8192, 16384, 32768, 65536])
        seen.add((T, Ex, k))
        e = BYTES[dt]
        add("topk", "moe", simple_case(
            "topk", "moe", dt, "rows", f"{dt}_{T}x{Ex}_k{k}", dict(x=[T, Ex], values=[T, k], indices=[T, k]),
            dict(k=k, dim=-1, experts=Ex, largest=True, sorted=True), T * Ex * e, T * k * (e + 8), T * Ex))
    # --- selective scan (Mamba-130m/370m/2.8b widths)
    seen = set()
    for Bn, Dm, L in ((1, 1536, 2048), (4, 1536, 1024), (8, 1536, 2048), (1, 2048, 8192), (2, 2048, 4096),
                      (16, 2048, 512), (1, 5120, 2048), (4, 5120, 1024), (2, 1536, 8192), (8, 2048, 1024)):
        dt = pick16()
        e = BYTES[dt]
        read = (3 * Bn * Dm * L + 2 * Bn * NS * L) * e + Dm * NS * 4 + 2 * Dm * 4
        add("selective_scan", "mamba", simple_case(
            "selective_scan", "mamba", dt, "bdl", f"{dt}_B{Bn}_D{Dm}_L{L}_N{NS}",
            dict(u=[Bn, Dm, L], delta=[Bn, Dm, L], A=[Dm, NS], B=[Bn, NS, L], C=[Bn, NS, L], D=[Dm], z=[Bn, Dm, L],
                 delta_bias=[Dm], y=[Bn, Dm, L]),
            dict(delta_softplus=True, d_state=NS), read, Bn * Dm * L * e, Bn * Dm * L * (9 * NS + 10)))
    # --- generic associative scans under torch.compile
    for combine, R, L in (("add", 1, 1 << 24), ("add", 4096, 2048), ("add", 64, 1 << 16), ("add", 16384, 512),
                          ("linear", 4096, 2048), ("linear", 64, 1 << 16), ("linear", 1, 1 << 22), ("linear", 1024, 4096)):
        n = R * L * 4
        ins = 1 if combine == "add" else 2
        shapes = dict(x=[R, L], y=[R, L]) if combine == "add" else dict(a=[R, L], b=[R, L], a_out=[R, L], h=[R, L])
        add("assoc_scan", combine, simple_case(
            "assoc_scan", combine, "f32", "rows", f"{combine}_f32_{R}x{L}", shapes, dict(dim=1, combine=combine),
            ins * n, ins * n, R * L * (1 if combine == "add" else 3)))
    # --- fp8 GEMMs (torch._scaled_mm), int8 GEMMs (torch._int_mm), w4a16 (tinygemm)
    NK = [(4096, 4096), (14336, 4096), (4096, 14336), (6144, 4096), (28672, 8192), (8192, 28672)]
    seen = set()
    for i in range(14):
        M = [1, 16, 128, 2048, 8192][i % 5] if i < 10 else rng.choice([64, 512, 4096, 16])
        N, K = rng.choice(NK)
        scale = "tensor" if i % 2 == 0 else "rowwise"
        if (M, N, K, scale) in seen:
            continue
        seen.add((M, N, K, scale))
        sb = 8 if scale == "tensor" else (M + N) * 4
        add("scaled_mm", "fp8", simple_case(
            "scaled_mm", "fp8", "f8e4m3", scale, f"e4m3_{scale}_M{M}_N{N}_K{K}",
            dict(a=[M, K], b=[K, N], scale_a=[1] if scale == "tensor" else [M, 1], scale_b=[1] if scale == "tensor" else [1, N], y=[M, N]),
            dict(out_dtype="bf16", scale=scale), M * K + K * N + sb, M * N * 2, 2 * M * N * K))
    for M in (32, 128, 512, 2048, 4096, 8192, 64, 1024):
        N, K = rng.choice(NK)
        add("int_mm", "int8", simple_case(
            "int_mm", "int8", "i8", "rowmajor", f"i8_M{M}_N{N}_K{K}", dict(a=[M, K], b=[K, N], y=[M, N]),
            dict(out_dtype="i32"), M * K + K * N, M * N * 4, 2 * M * N * K))
    for M in (1, 2, 4, 8, 16, 32, 1, 4, 64, 2048):
        N, K = rng.choice(NK[:4])
        g = 128
        while (M, N, K) in seen:
            N, K = rng.choice(NK[:4])
        seen.add((M, N, K))
        add("w4a16", "int4", simple_case(
            "w4a16", "int4", "bf16", "tinygemm", f"bf16_M{M}_N{N}_K{K}_g{g}",
            dict(x=[M, K], w_packed_bytes=[K * N // 2], scales_and_zeros=[K // g, N, 2], y=[M, N]),
            dict(group_size=g, inner_k_tiles=8), M * K * 2 + K * N // 2 + (K // g) * N * 4, M * N * 2, 2 * M * N * K))

    # --- mamba_ssm's own selective_scan_fwd (built on the device from mamba_ssm_fwd/), the
    # same shapes as the Triton reference above (appended: added after the fit pass of the
    # other families, so the cases above keep their indices; split like every stratum)
    for Bn, Dm, L in ((1, 1536, 2048), (4, 1536, 1024), (8, 1536, 2048), (1, 2048, 8192), (2, 2048, 4096),
                      (16, 2048, 512), (1, 5120, 2048), (4, 5120, 1024), (2, 1536, 8192), (8, 2048, 1024)):
        dt = rng_mamba.choice(["f16", "bf16"])
        e = BYTES[dt]
        read = (3 * Bn * Dm * L + 2 * Bn * NS * L) * e + Dm * NS * 4 + 2 * Dm * 4
        late.append(("selective_scan_cuda", "mamba_ssm", simple_case(
            "selective_scan_cuda", "mamba_ssm", dt, "bdl", f"{dt}_B{Bn}_D{Dm}_L{L}_N{NS}",
            dict(u=[Bn, Dm, L], delta=[Bn, Dm, L], A=[Dm, NS], B=[Bn, NS, L], C=[Bn, NS, L], D=[Dm], z=[Bn, Dm, L],
                 delta_bias=[Dm], y=[Bn, Dm, L]),
            dict(delta_softplus=True, d_state=NS), read, Bn * Dm * L * e, Bn * Dm * L * (7 * NS + 10))))

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
    order = list(range(len(late)))
    random.Random(SEED + 3).shuffle(order)
    for rank, gi in enumerate(order):
        late[gi][2]["part"] = "fit" if rank % 2 == 0 else "heldout"
    cases = []
    for family, stratum, cs in groups + [(f, st, [c]) for f, st, c in late]:
        for c in cs:
            i = len(cases)
            rec = dict(part=c["part"], case=f"{c['part']}_{i:03d}_{family}_{stratum}_{c.pop('desc')}", index=i)
            rec.update(c)
            assert rec["footprint"] < 8 * GiB, rec["case"]
            cases.append(rec)
    return cases


CASES = make_cases()
H.CASES = CASES  # calib_h's profile_cases/time_cases walk this list


def est_kernels(c):
    f = c["family"]
    if f.startswith("conv"):
        return 1 if c["layout"] == "channels_last" else 3
    return {"topk": 2, "assoc_scan": 1, "selective_scan_cuda": 1, "scaled_mm": 1, "int_mm": 1, "w4a16": 1, "selective_scan": 1}.get(f, 1)


H.est_kernels = est_kernels
_build_h = H.build


def build(c):
    import torch
    f, s, p = c["family"], c["shapes"], c["params"]
    if f == "selective_scan":
        import scan_kernel as S
        dt = {"f16": torch.float16, "bf16": torch.bfloat16}[c["dtype"]]
        Bn, Dm, L = s["u"]
        args = S.make_inputs(Bn, Dm, L, NS, dt)
        return lambda: S.selective_scan(*args, delta_softplus=True)
    if f == "selective_scan_cuda":
        import scan_kernel as S
        ext = mamba_ext()
        dt = {"f16": torch.float16, "bf16": torch.bfloat16}[c["dtype"]]
        Bn, Dm, L = s["u"]
        u, delta, A, B, C, D, z, db = S.make_inputs(Bn, Dm, L, NS, dt)
        B4, C4 = B.unsqueeze(1).contiguous(), C.unsqueeze(1).contiguous()  # "b 1 dstate l", as mamba_ssm passes them
        return lambda: ext.fwd(u, delta, A, B4, C4, D, z, db, True)
    if f == "assoc_scan":
        from torch._higher_order_ops.associative_scan import associative_scan
        torch._dynamo.reset()  # one compile per case: no automatic dynamic shapes (batch i's fit
        # pass lost two cases to "lifted arguments" of a recompile with symbolic sizes)
        if p["combine"] == "add":
            x = torch.rand(*s["x"], device="cuda", dtype=torch.float32)
            fn = torch.compile(lambda x: associative_scan(lambda a, b: a + b, x, dim=1), fullgraph=True, dynamic=False)
            return lambda: fn(x)
        a = torch.rand(*s["a"], device="cuda", dtype=torch.float32) * 0.5 + 0.5
        b = torch.randn(*s["b"], device="cuda", dtype=torch.float32)

        def comb(x, y):
            return x[0] * y[0], y[0] * x[1] + y[1]
        fn = torch.compile(lambda a, b: associative_scan(comb, (a, b), dim=1), fullgraph=True, dynamic=False)
        return lambda: fn(a, b)
    if f == "scaled_mm":
        M, K = s["a"]
        N = s["b"][1]
        a = (torch.randn(M, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        b = (torch.randn(N, K, device="cuda") * 0.5).to(torch.float8_e4m3fn).t()  # column-major [K, N]
        if p["scale"] == "tensor":
            sa = torch.tensor(1.0, device="cuda")
            sb = torch.tensor(1.0, device="cuda")
        else:
            sa = torch.rand(M, 1, device="cuda") + 0.5
            sb = torch.rand(1, N, device="cuda") + 0.5
        return lambda: torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
    if f == "int_mm":
        M, K = s["a"]
        N = s["b"][1]
        a = torch.randint(-8, 8, (M, K), device="cuda", dtype=torch.int8)
        b = torch.randint(-8, 8, (N, K), device="cuda", dtype=torch.int8).t()
        return lambda: torch._int_mm(a, b)
    if f == "w4a16":
        M, K = s["x"]
        N = s["y"][1]
        g = p["group_size"]
        x = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randint(0, 256, (N, K // 2), device="cuda", dtype=torch.uint8)
        wp = torch._convert_weight_to_int4pack(w, p["inner_k_tiles"])
        sz = (torch.rand(K // g, N, 2, device="cuda") * 0.01).to(torch.bfloat16)
        return lambda: torch._weight_int4pack_mm(x, wp, g, sz)
    return _build_h(c)


H.build = build


MAMBA_BUILD = os.environ.get("MAMBA_BUILD", "/tmp/mamba_ssm_fwd_build")
_MAMBA = []


def mamba_ext():
    """mamba_ssm's forward selective scan (mamba_ssm_fwd/, state-spaces/mamba @ e9594ce, the
    backward removed), built for sm_90 with setup.py's flags; cached in MAMBA_BUILD."""
    so = os.environ.get("MAMBA_SO")
    if not _MAMBA and so:  # a module built by an earlier call (calib_i_mamba.sh brings it back)
        import importlib.util
        import torch  # noqa: F401  (the module links against torch's libraries)
        spec = importlib.util.spec_from_file_location("selective_scan_cuda_fwd", so)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _MAMBA.append(mod)
    if not _MAMBA:
        from torch.utils.cpp_extension import load
        src = os.path.join(HERE, "mamba_ssm_fwd")
        os.makedirs(MAMBA_BUILD, exist_ok=True)
        _MAMBA.append(load(
            name="selective_scan_cuda_fwd",
            sources=[os.path.join(src, f) for f in ("selective_scan.cpp", "selective_scan_fwd_fp32.cu",
                                                    "selective_scan_fwd_fp16.cu", "selective_scan_fwd_bf16.cu")],
            extra_cflags=["-O3", "-std=c++17"],
            extra_cuda_cflags=["-O3", "-std=c++17", "-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__",
                               "-U__CUDA_NO_BFLOAT16_OPERATORS__", "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
                               "-U__CUDA_NO_BFLOAT162_OPERATORS__", "-U__CUDA_NO_BFLOAT162_CONVERSIONS__",
                               "--expt-relaxed-constexpr", "--expt-extended-lambda", "--use_fast_math",
                               "-lineinfo", "-gencode", "arch=compute_90,code=sm_90", "--threads", "4"],
            build_directory=MAMBA_BUILD, verbose=False))
    return _MAMBA[0]


def check_mamba(out):
    """Builds mamba_ssm's kernel and checks it against the reference (and the Triton kernel)."""
    import time
    import torch
    import scan_kernel as S
    t0 = time.time()
    ext = mamba_ext()
    lines = [f"mamba_ssm fwd built/loaded in {time.time() - t0:.0f} s"]
    for dt in (torch.float16, torch.bfloat16):
        u, delta, A, B, C, D, z, db = S.make_inputs(2, 48, 100, NS, dt)
        y = ext.fwd(u, delta, A, B.unsqueeze(1).contiguous(), C.unsqueeze(1).contiguous(), D, z, db, True)
        outs = [tuple(t.shape) for t in y]
        got = y[2] if len(y) > 2 else y[0]
        ref = S.reference(u, delta, A, B, C, D, z, db)
        err = ((got.float() - ref).abs().max() / ref.abs().max()).item()
        lines.append(f"mamba_ssm fwd {dt}: outputs {outs}, max rel err of out_z {err:.2e} ({'OK' if err < 2e-2 else 'BAD'})")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "mamba_check.txt"), "w") as fh:
        fh.write(text + "\n")


def smoke(out):
    """On the device, before the fit pass: the Triton scan against the reference, each API
    once, and the parameter counts of the published models the examples describe."""
    import torch
    import scan_kernel as S
    lines = []
    for dt in (torch.float16, torch.bfloat16):
        args = S.make_inputs(2, 48, 100, NS, dt)
        y = S.selective_scan(*args).float()
        ref = S.reference(*args)
        err = ((y - ref).abs().max() / ref.abs().max()).item()
        lines.append(f"selective_scan {dt}: max rel err {err:.2e} ({'OK' if err < 2e-2 else 'BAD'})")
    for c in CASES:
        if c["family"] in ("assoc_scan", "scaled_mm", "int_mm", "w4a16") and c["family"] not in " ".join(lines):
            try:
                f = build(c)
                r = f()
                torch.cuda.synchronize()
                shp = [tuple(t.shape) for t in (r if isinstance(r, (tuple, list)) else [r])]
                lines.append(f"{c['family']}: ok {c['case']} -> {shp}")
            except Exception as ex:  # noqa: BLE001
                lines.append(f"{c['family']}: FAILED {c['case']} {repr(ex)[:400]}")
    # associative_scan correctness against cumsum / a loop
    try:
        from torch._higher_order_ops.associative_scan import associative_scan
        x = torch.rand(4, 1000, device="cuda")
        fn = torch.compile(lambda x: associative_scan(lambda a, b: a + b, x, dim=1), fullgraph=True)
        lines.append(f"assoc add vs cumsum: {(fn(x) - x.cumsum(1)).abs().max().item():.2e}")
    except Exception as ex:  # noqa: BLE001
        lines.append(f"assoc check FAILED {repr(ex)[:300]}")
    lines += param_counts(torch)
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "smoke.txt"), "w") as fh:
        fh.write(text + "\n")


def param_counts(torch):
    lines = []
    try:
        from transformers import MambaConfig, MambaForCausalLM
        cfg = MambaConfig(vocab_size=50280, hidden_size=768, state_size=16, num_hidden_layers=24, conv_kernel=4,
                          expand=2, time_step_rank=48, use_bias=False, use_conv_bias=True, tie_word_embeddings=True)
        with torch.device("meta"):
            m = MambaForCausalLM(cfg)
        n = sum(p.numel() for p in m.parameters())
        lines.append(f"mamba-130m (MambaForCausalLM, tied): {n} parameters")
        for name, p in list(m.named_parameters())[:12]:
            lines.append(f"  {name} {tuple(p.shape)}")
    except Exception as ex:  # noqa: BLE001
        lines.append(f"mamba FAILED {repr(ex)[:300]}")
    try:
        from transformers import DeepseekV2Config, DeepseekV2ForCausalLM
        cfg = DeepseekV2Config(vocab_size=102400, hidden_size=2048, intermediate_size=10944, moe_intermediate_size=1408,
                               num_hidden_layers=2, num_attention_heads=16, num_key_value_heads=16, n_shared_experts=2,
                               n_routed_experts=64, num_experts_per_tok=6, routed_scaling_factor=1.0, kv_lora_rank=512,
                               q_lora_rank=None, qk_rope_head_dim=64, v_head_dim=128, qk_nope_head_dim=128,
                               topk_method="greedy", n_group=1, topk_group=1, norm_topk_prob=False,
                               first_k_dense_replace=1, moe_layer_freq=1, max_position_embeddings=4096)
        with torch.device("meta"):
            m = DeepseekV2ForCausalLM(cfg)
        mlp = m.model.layers[1].mlp
        lines.append(f"deepseek-v2-lite layer-1 mlp ({type(mlp).__name__}): {sum(p.numel() for p in mlp.parameters())} parameters")
        for name, p in mlp.named_parameters():
            if "experts.1." in name or "experts.2" in name[:12]:
                continue
            lines.append(f"  {name} {tuple(p.shape)}")
        lines.append(f"deepseek-v2-lite layer-1 attention: {sum(p.numel() for p in m.model.layers[1].self_attn.parameters())}")
    except Exception as ex:  # noqa: BLE001
        lines.append(f"deepseek FAILED {repr(ex)[:300]}")
    try:
        from diffusers import UNet2DConditionModel
        cfg = dict(sample_size=64, in_channels=4, out_channels=4, down_block_types=(
            "CrossAttnDownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D", "DownBlock2D"),
            up_block_types=("UpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D"),
            block_out_channels=(320, 640, 1280, 1280), layers_per_block=2, cross_attention_dim=768,
            attention_head_dim=8, norm_num_groups=32)
        with torch.device("meta"):
            u = UNet2DConditionModel(**cfg)
        ci = sum(p.numel() for p in u.conv_in.parameters())
        d0 = sum(p.numel() for p in u.down_blocks[0].parameters())
        lines.append(f"sd15 unet: conv_in {ci}, down_blocks[0] {d0}, sum {ci + d0}, whole unet {sum(p.numel() for p in u.parameters())}")
        for name, mod in u.down_blocks[0].named_children():
            lines.append(f"  down_blocks[0].{name}: {sum(p.numel() for p in mod.parameters())}")
        for name, mod in u.down_blocks[0].attentions[0].named_children():
            lines.append(f"  attentions[0].{name}: {sum(p.numel() for p in mod.parameters())}")
        lines.append(f"  resnets[0]: {sum(p.numel() for p in u.down_blocks[0].resnets[0].parameters())}")
    except Exception as ex:  # noqa: BLE001
        lines.append(f"diffusers FAILED {repr(ex)[:300]}")
    return lines


def main():
    ap = argparse.ArgumentParser()  # --list/--json always list every case
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--check-mamba", action="store_true")
    ap.add_argument("--family", action="append", help="only these families (with --profile/--time)")
    ap.add_argument("--part", choices=["fit", "heldout", "all"], default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if (a.profile or a.time) and a.part not in ("fit", "heldout"):
        ap.error("--profile and --time take --part fit or --part heldout")
    if a.list:
        for c in H.part_cases(a.part):
            print(c["part"], c["family"], c["case"], c["read"], c["write"], c["flops"])
        print(H.summary(CASES), file=sys.stderr)
    if a.json:
        with open(os.path.join(a.out or HERE, "cases.json"), "w") as fh:
            json.dump(CASES, fh, indent=0)
            fh.write("\n")
    if a.family:
        H.CASES = [c for c in CASES if c["family"] in a.family]
    if a.smoke:
        smoke(a.out or os.environ.get("OUT", "/tmp/out"))
    if a.check_mamba:
        check_mamba(a.out or os.environ.get("OUT", "/tmp/out"))
    if a.profile:
        H.profile_cases(a.part)
    if a.time:
        H.time_cases(a.part, a.out or os.environ.get("OUT", "/tmp/out"))


if __name__ == "__main__":
    main()
