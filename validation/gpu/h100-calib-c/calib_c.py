"""Calibration batch c for fgraph's hardware model (issue 11): FlashAttention forward, f32
matmuls (TF32 off, two with TF32 on) and softmax over rows of 256 to 32,768.

The same method as ../h100-calib/calib.py: one process runs every case; each case is warmed
up (3 calls), timed with CUDA events (warm L2, median of 25 calls) and, under Nsight Compute,
run once more inside its own cudaProfilerStart/Stop region that begins with a marker kernel
(torch.cuda._sleep, kernel `spin_kernel`), so the ncu CSV splits into cases by marker
(../h100-calib/summarize.py's `parse`).

  python3 calib_c.py --list            # print the cases (no GPU needed)
  python3 calib_c.py --out DIR         # events timing + cases.csv
  python3 calib_c.py --profile         # the ncu pass (regions only)
"""
import argparse, csv, os, sys

BYTES = {"f16": 2, "bf16": 2, "f32": 4}
CASES = []

# FlashAttention forward: (dtype, batch, heads, S, head dim, causal), q/k/v/o as [B, H, S, D].
# Each runs twice: the flash backend forced (FlashAttention-2's flash_fwd_kernel) and cuDNN's
# (PyTorch's default on an H100).
ATTN = [
    ("f16", 1, 32, 512, 128, False), ("f16", 1, 32, 1024, 128, False), ("f16", 1, 32, 2048, 128, False),
    ("f16", 1, 32, 4096, 128, False), ("f16", 1, 32, 8192, 128, False), ("f16", 1, 32, 4096, 128, True),
    ("bf16", 1, 32, 8192, 128, True), ("bf16", 4, 8, 2048, 128, False), ("bf16", 1, 16, 4096, 64, False),
    ("f16", 1, 12, 1024, 64, False), ("f16", 4, 12, 2048, 64, True), ("bf16", 1, 32, 8192, 64, False),
    ("f16", 1, 16, 2048, 64, True), ("bf16", 2, 32, 1024, 128, True),
]
for backend in ("flash", "cudnn"):
    for dt, B, H, S, D, causal in ATTN:
        e = BYTES[dt]
        CASES.append(dict(case=f"attn_{backend}_{dt}_{B}x{H}x{S}x{D}{'_causal' if causal else ''}",
                          kind="attention", family=backend, dtype=dt, B=B * H, M=S, K=D, N=S,
                          rows="", cols="", causal=int(causal), tf32=0,
                          read=3 * B * H * S * D * e, write=B * H * S * D * e,
                          flops=4 * B * H * S * S * D // (2 if causal else 1)))
# f32 matmuls: (B, M, K, N, tf32)
F32 = [(1, 512, 512, 512, 0), (1, 1024, 1024, 1024, 0), (1, 2048, 2048, 2048, 0), (1, 4096, 4096, 4096, 0),
       (1, 8192, 8192, 8192, 0), (1, 2048, 4096, 11008, 0), (1, 8192, 1024, 8192, 0), (1, 1024, 8192, 1024, 0),
       (32, 4096, 128, 4096, 0), (32, 4096, 4096, 128, 0), (1, 4096, 4096, 4096, 1), (1, 8192, 8192, 8192, 1)]
for B, M, K, N, tf in F32:
    CASES.append(dict(case=f"gemm_f32{'_tf32' if tf else ''}_{B}x{M}x{K}x{N}", kind="matmul",
                      family="tf32" if tf else "f32", dtype="f32", B=B, M=M, K=K, N=N, rows="", cols="",
                      causal=0, tf32=tf, read=B * (M * K + K * N) * 4, write=B * M * N * 4,
                      flops=2 * B * M * N * K))
# softmax over the last dim: (cols, dtype, MB of input)
SOFT = []
for cols in (256, 512, 1024, 2048, 4096, 8192, 32768):
    SOFT += [(cols, "f16", 32), (cols, "f16", 128), (cols, "f32", 64), (cols, "f32", 256)]
SOFT += [(2048, "f16", 1), (2048, "f32", 8), (256, "f16", 4), (32768, "f32", 4)]
for cols, dt, mb in SOFT:
    e = BYTES[dt]
    rows = max(1, mb * 2**20 // (cols * e))
    n = rows * cols * e
    CASES.append(dict(case=f"softmax_{dt}_{cols}w_{mb}MB", kind="memory", family="softmax", dtype=dt,
                      B="", M="", K="", N="", rows=rows, cols=cols, causal=0, tf32=0, read=n, write=n,
                      flops=rows * cols))


def build(c):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import sdpa_kernel, SDPBackend
    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[c["dtype"]]
    r = lambda *s: torch.randn(*s, device="cuda", dtype=dt) * 0.5
    if c["kind"] == "attention":
        BH, S, D = c["B"], c["M"], c["K"]
        H = int(c["case"].split("_")[3].split("x")[1])
        q, k, v = (r(BH // H, H, S, D) for _ in range(3))
        be = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}[c["family"]]
        causal = bool(c["causal"])

        def f():
            with sdpa_kernel(be):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return f
    if c["kind"] == "matmul":
        B, M, K, N, tf = c["B"], c["M"], c["K"], c["N"], bool(c["tf32"])
        a, b = (r(M, K), r(K, N)) if B == 1 else (r(B, M, K), r(B, K, N))
        mm = torch.mm if B == 1 else torch.bmm

        def f():
            torch.backends.cuda.matmul.allow_tf32 = tf
            return mm(a, b)
        return f
    x = r(c["rows"], c["cols"])
    return lambda: torch.softmax(x, dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.list:
        for c in CASES:
            print(c["case"], c["read"] + c["write"], c["flops"])
        print(len(CASES), "cases", file=sys.stderr)
        return
    import torch
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for i, c in enumerate(CASES):
        try:
            f = build(c)
            with torch.no_grad():
                for _ in range(3):
                    f()
                torch.cuda.synchronize()
                if a.profile:
                    torch.cuda.profiler.start()
                    torch.cuda._sleep(1000)
                    f()
                    torch.cuda.synchronize()
                    torch.cuda.profiler.stop()
                    print("profiled", i, c["case"], flush=True)
                else:
                    reps = 25
                    ts = []
                    for _ in range(reps):
                        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        s.record(); f(); e.record()
                        e.synchronize()
                        ts.append(s.elapsed_time(e) * 1000.0)
                    ts.sort()
                    rows.append(dict(c, index=i, warm_us_median=round(ts[reps // 2], 3), warm_us_min=round(ts[0], 3)))
                    print(i, c["case"], rows[-1]["warm_us_median"], flush=True)
            del f
            torch.cuda.empty_cache()
        except Exception as ex:
            print("FAILED", i, c["case"], repr(ex)[:300], flush=True)
            rows.append(dict(c, index=i, warm_us_median="", warm_us_min=""))
            if a.profile:
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()
    torch.backends.cuda.matmul.allow_tf32 = False
    if a.out:
        with open(os.path.join(a.out, "cases.csv"), "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
