"""Calibration batch e for fgraph's hardware model (issue 11): all cases are FIT data.

Families (each case's `part` is "fit"; `kind`/`family` as batch d's cases.py, plus `group`):
  memory     ~43 small memory-bound PyTorch eager ops, 16 KB - 8 MB of output: add, mul, gelu,
             silu (vectorized kernels), bias_add ([N] broadcast onto [M, N]) and where
             (torch.where(bool mask, x, y)) (PyTorch's non-vectorized elementwise_kernel), cast
             (x.to(float32) from f16/bf16, x.float().to(bfloat16) from f32), cat (two halves
             along the last dim), row sum, softmax over rows of 256-2048, LayerNorm and RMSNorm
             (hidden 1024-4096) at 1-512 rows
  matmul     45 GEMMs through torch.matmul, f16/bf16 (8 of them batched [B,M,K].[B,K,N]):
             20 misaligned (K or N not a multiple of 8), 12 small aligned (multiples of 64,
             64-1024), 13 mid aligned with a small M (M 128-1024, N 1024-16384, K 1024-8192)
  attention  8 pairs of F.scaled_dot_product_attention with PyTorch's default backend (cuDNN on
             H100): one shape causal and not (S 1024-8192, head dim 64/128, batch*heads 8-64)

The method is ../h100-heldout-d/cases.py's (and ../h100-calib-c's): each case is warmed up
(3 calls), then run once more, under Nsight Compute (--cache-control all --clock-control none,
calib_e.sh), inside its own cudaProfilerStart/Stop region that starts with a `spin_kernel`
marker (torch.cuda._sleep); extract.py splits the CSV with ../h100-calib/summarize.py's `parse`.

  python3 calib_e.py --list        # print the cases (no GPU, no torch needed)
  python3 calib_e.py --json        # write cases.json (no GPU)
  python3 calib_e.py --profile     # the ncu pass (regions only)
"""
import argparse
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "bool": 1}
SEED = 20261126
KB, MB = 1e3, 1e6


def logu(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def gemm_case(i, group, dt, B, M, K, N):
    e = BYTES[dt]
    return dict(part="fit", case=f"fit_{i:03d}_gemm_{group}_{dt}_{B}x{M}x{K}x{N}", kind="matmul",
                family="gemm", group=group, dtype=dt, B=B, M=M, K=K, N=N, rows=0, cols=0, causal=0,
                read=B * (M * K + K * N) * e, write=B * M * N * e, flops=2 * B * M * N * K)


def mem_case(i, op, dt, rows, cols):
    """read/write: compulsory bytes, every input once and the output once. For `cast` the
    dtype is the source's; the output is f32 from f16/bf16 and bf16 from f32 (`out_dtype`)."""
    e = BYTES[dt]
    n = rows * cols * e
    out_dt = dt
    if op == "cast":
        out_dt = "bf16" if dt == "f32" else "f32"
    read = {"add": 2 * n, "mul": 2 * n, "bias_add": n + cols * e, "where": 2 * n + rows * cols,
            "layernorm": n + 2 * cols * e, "rmsnorm": n + cols * e}.get(op, n)
    write = rows * e if op == "sum" else rows * cols * BYTES[out_dt]
    return dict(part="fit", case=f"fit_{i:03d}_{op}_{dt}_{rows}x{cols}", kind="memory", family=op,
                group="small_memory", dtype=dt, out_dtype=out_dt, B=0, M=0, K=0, N=0, rows=rows,
                cols=cols, causal=0, read=read, write=write, flops=rows * cols)


def attn_case(i, dt, B, H, S, D, causal):
    e = BYTES[dt]
    return dict(part="fit", case=f"fit_{i:03d}_attn_default_{dt}_{B}x{H}x{S}x{D}{'_causal' if causal else ''}",
                kind="attention", family="default", group="sdpa_pair", dtype=dt, B=B, M=S, K=D, N=H,
                rows=0, cols=0, causal=int(causal), read=3 * B * H * S * D * e, write=B * H * S * D * e,
                flops=4 * B * H * S * S * D // (2 if causal else 1))


def make_cases():
    rng = random.Random(SEED)
    cases = []
    # --- small memory-bound kernels
    plan = [("add", 4), ("mul", 3), ("gelu", 3), ("silu", 3), ("bias_add", 4), ("where", 4),
            ("cast", 4), ("cat", 3), ("sum", 3), ("softmax", 4), ("layernorm", 4), ("rmsnorm", 4)]
    for op, n in plan:
        for j in range(n):
            if op == "cast":
                dt = ["f16", "bf16", "f32", "f32"][j]
            else:
                dt = ["f16", "bf16", "f32"][(j + len(cases)) % 3]
            e = BYTES[dt]
            if op in ("softmax", "layernorm", "rmsnorm"):
                cols = (rng.choice([256, 384, 512, 768, 1024, 1536, 2048]) if op == "softmax"
                        else rng.choice([1024, 1536, 2048, 3072, 4096]))
                rows = max(1, int(round(logu(rng, 1, 512))))
            elif op == "sum":
                cols = rng.choice([512, 1024, 2048, 4096, 8192])
                rows = max(1, int(round(logu(rng, 1, 512))))
            else:
                out_e = BYTES["bf16" if dt == "f32" else "f32"] if op == "cast" else e
                size = logu(rng, 16 * KB, 8 * MB)  # bytes of output
                cols = rng.choice([256, 512, 768, 1024, 2048, 4096])
                rows = max(1, int(size / (cols * out_e)))
            cases.append(mem_case(len(cases), op, dt, rows, cols))
    # --- GEMMs: 20 misaligned, 12 small aligned, 13 mid aligned small-M; 8 batched among them
    for j in range(20):
        dt = rng.choice(["f16", "bf16"])
        batched = j % 7 == 3  # 3 batched
        while True:
            B = int(round(logu(rng, 2, 16))) if batched else 1
            M = int(round(logu(rng, 64, 8192)))
            N = int(round(logu(rng, 256, 16384)))
            K = int(round(logu(rng, 64, 8192)))
            which = j % 3  # 0: K misaligned, 1: N misaligned, 2: both
            if which == 1:
                K = K // 8 * 8
            if which == 0:
                N = N // 8 * 8
            if (which != 1 and K % 8 == 0) or (which != 0 and N % 8 == 0):
                continue
            if B * M * N * K * 2 <= 1.2e12 and B * (M * K + K * N + M * N) * 2 <= 1.5e9:
                break
        cases.append(gemm_case(len(cases), "misaligned", dt, B, M, K, N))
    for j in range(12):
        dt = rng.choice(["f16", "bf16"])
        B = int(round(logu(rng, 2, 32))) if j % 6 == 2 else 1  # 2 batched
        M, N, K = (max(64, int(round(logu(rng, 64, 1024))) // 64 * 64) for _ in range(3))
        cases.append(gemm_case(len(cases), "small_aligned", dt, B, M, K, N))
    for j in range(13):
        dt = rng.choice(["f16", "bf16"])
        B = int(round(logu(rng, 2, 8))) if j % 4 == 1 else 1  # 3 batched
        M = max(128, int(round(logu(rng, 128, 1024))) // 8 * 8)
        N = max(1024, int(round(logu(rng, 1024, 16384))) // 64 * 64)
        K = max(1024, int(round(logu(rng, 1024, 8192))) // 64 * 64)
        cases.append(gemm_case(len(cases), "mid_small_m", dt, B, M, K, N))
    # --- attention pairs: default backend, the same shape causal and not
    for j in range(8):
        dt = rng.choice(["f16", "bf16"])
        S = int(round(logu(rng, 1024, 8192))) // 64 * 64
        D = rng.choice([64, 128])
        while True:
            B = rng.choice([1, 2, 4])
            H = rng.choice([8, 12, 16, 24, 32])
            if 8 <= B * H <= 64:
                break
        for causal in (False, True):
            cases.append(attn_case(len(cases), dt, B, H, S, D, causal))
    return cases


CASES = make_cases()


def build(c):
    import torch
    import torch.nn.functional as F

    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[c["dtype"]]

    def r(*s):
        return torch.randn(*s, device="cuda", dtype=dt) * 0.5

    if c["kind"] == "attention":
        B, H, S, D = c["B"], c["N"], c["M"], c["K"]
        q, k, v = (r(B, H, S, D) for _ in range(3))
        causal = bool(c["causal"])
        return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    if c["kind"] == "matmul":
        B, M, K, N = c["B"], c["M"], c["K"], c["N"]
        a, b = (r(M, K), r(K, N)) if B == 1 else (r(B, M, K), r(B, K, N))
        return lambda: torch.matmul(a, b)
    R, C, op = c["rows"], c["cols"], c["family"]
    x = r(R, C)
    if op == "add":
        y = r(R, C)
        return lambda: x + y
    if op == "mul":
        y = r(R, C)
        return lambda: x * y
    if op == "gelu":
        return lambda: F.gelu(x)
    if op == "silu":
        return lambda: F.silu(x)
    if op == "bias_add":
        b = r(C)
        return lambda: x + b
    if op == "where":
        y = r(R, C)
        mask = torch.rand(R, C, device="cuda") > 0.5
        return lambda: torch.where(mask, x, y)
    if op == "cast":
        if c["dtype"] == "f32":
            return lambda: x.float().to(torch.bfloat16)
        return lambda: x.to(torch.float32)
    if op == "cat":
        h = C // 2
        a, b = r(R, h), r(R, C - h)
        return lambda: torch.cat([a, b], dim=-1)
    if op == "sum":
        return lambda: x.sum(-1, keepdim=True)
    if op == "softmax":
        return lambda: torch.softmax(x, dim=-1)
    w, bias = 1.0 + r(C), r(C)
    if op == "layernorm":
        return lambda: F.layer_norm(x, (C,), w, bias)
    if op == "rmsnorm":
        return lambda: F.rms_norm(x, (C,), w)
    raise ValueError(op)


def region(torch, fn):
    """One profiler region: the marker, then fn."""
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    torch.cuda._sleep(1000)
    fn()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


def profile_cases():
    import torch
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    for i, c in enumerate(CASES):
        try:
            f = build(c)
            with torch.no_grad():
                for _ in range(3):
                    f()
                region(torch, f)
            print("profiled", i, c["case"], flush=True)
            del f
        except Exception as ex:  # noqa: BLE001
            print("FAILED", i, c["case"], repr(ex)[:300], flush=True)
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    if a.list:
        for c in CASES:
            print(c["part"], c["group"], c["case"], c["read"], c["write"], c["flops"])
        print(len(CASES), "cases", file=sys.stderr)
    if a.json:
        with open(os.path.join(HERE, "cases.json"), "w") as fh:
            json.dump(CASES, fh, indent=0)
            fh.write("\n")
    if a.profile:
        profile_cases()


if __name__ == "__main__":
    main()
