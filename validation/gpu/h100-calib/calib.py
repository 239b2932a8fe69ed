"""Calibration data for fgraph's hardware traffic model (issue 11).

One process runs every case; each case is warmed up (3 calls), timed with CUDA events
(warm L2, median of 25 calls) and, under Nsight Compute, run once more inside its own
cudaProfilerStart/Stop region that begins with a marker kernel (torch.cuda._sleep, kernel
`spin_kernel`), so the ncu CSV splits into cases by marker. calib.sh runs this script twice:
once plain (events timing, cases.csv) and once under ncu --cache-control all (flushed DRAM
bytes and kernel times) .

  python3 calib.py --list            # print the cases (no GPU needed)
  python3 calib.py --out DIR         # events timing + cases.csv
  python3 calib.py --profile         # the ncu pass (regions only)
"""
import argparse, csv, json, os, sys

GEMM = []  # (family, dtype, B, M, K, N)


def g(fam, dt, M, K, N, B=1):
    GEMM.append((fam, dt, B, M, K, N))


for n in (256, 512, 1024, 1536, 1792, 2048, 2304, 2560, 2816, 3072, 3584, 4096, 6144, 8192, 16384):
    g("square", "f16", n, n, n)
for n in (1024, 2048, 3072, 4096, 8192):
    g("square", "bf16", n, n, n)
g("square", "bf16", 24576, 24576, 24576)
# prefill / wide shapes (Llama-3-8B, GPT-2, generic)
for (M, K, N) in ((2048, 4096, 4096), (2048, 4096, 6144), (2048, 4096, 14336), (2048, 14336, 4096),
                  (2048, 4096, 28672), (4096, 4096, 11008), (8192, 4096, 4096), (512, 4096, 4096),
                  (1024, 8192, 28672), (2048, 28672, 8192), (4096, 4096, 128256), (1024, 768, 2304),
                  (1024, 768, 3072), (1024, 3072, 768), (4096, 64, 4096), (4096, 128, 4096),
                  (8192, 256, 8192), (256, 28672, 256), (128, 16384, 128)):
    g("wide", "bf16" if N % 3 == 0 or K > 8192 else "f16", M, K, N)
# decode / skinny
for M in (1, 8, 16, 32, 64):
    for (K, N) in ((4096, 4096), (4096, 14336), (14336, 4096)):
        g("skinny", "bf16", M, K, N)
g("skinny", "f16", 1, 8192, 28672)
g("skinny", "f16", 4, 4096, 6144)
g("skinny", "bf16", 1, 4096, 128256)
g("skinny", "f16", 2, 28672, 8192)
# batched attention shapes: scores (S x 128 @ 128 x S) and output (S x S @ S x 128), 32 heads
for S in (512, 1024, 2048, 4096):
    g("batched", "f16", S, 128, S, B=32)
for S in (1024, 2048, 4096):
    g("batched", "f16", S, S, 128, B=32)
g("batched", "bf16", 1, 128, 32768, B=32)   # decode scores over a 32k cache
g("batched", "bf16", 1, 32768, 128, B=32)   # decode output
g("batched", "f16", 2048, 64, 2048, B=12)   # GPT-2 head dim 64

MEM = []  # (family, dtype, rows, cols)
SIZES_MB = (1, 8, 32, 128, 512, 1024)
for mb in (1, 16, 256, 1024):
    for dt in ("f16", "f32"):
        MEM.append(("add", dt, mb))
for mb in (1, 32, 512):
    MEM.append(("gelu", "bf16", mb))
for mb in (1, 16, 256, 1024):
    MEM.append(("sum_rows", "f16", mb))
for mb in (8, 128, 512):
    MEM.append(("softmax", "f16", mb))
    MEM.append(("softmax", "f32", mb))
for mb in (4, 64, 256):
    MEM.append(("layernorm", "f16", mb))
    MEM.append(("rmsnorm", "bf16", mb))
MEM.append(("layernorm", "f32", 128))
MEM.append(("copy", "bf16", 256))
MEM.append(("transpose_copy", "f16", 64))

BYTES = {"f16": 2, "bf16": 2, "f32": 4}


def cases():
    out = []
    for fam, dt, B, M, K, N in GEMM:
        e = BYTES[dt]
        out.append(dict(case=f"gemm_{fam}_{dt}_{B}x{M}x{K}x{N}", kind="matmul", family=fam, dtype=dt,
                        B=B, M=M, K=K, N=N, rows="", cols="",
                        read=B * (M * K + K * N) * e, write=B * M * N * e, flops=2 * B * M * N * K))
    for fam, dt, mb in MEM:
        e = BYTES[dt]
        cols = 4096
        rows = max(1, mb * 2**20 // (cols * e))
        n = rows * cols * e
        read = {"add": 2 * n, "sum_rows": n}.get(fam, n)
        write = {"sum_rows": rows * e}.get(fam, n)
        if fam in ("layernorm", "rmsnorm"):
            read += cols * e * (2 if fam == "layernorm" else 1)
        out.append(dict(case=f"mem_{fam}_{dt}_{mb}MB", kind="memory", family=fam, dtype=dt,
                        B="", M="", K="", N="", rows=rows, cols=cols, read=read, write=write,
                        flops=rows * cols))
    return out


def build(c):
    import torch
    import torch.nn.functional as F
    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[c["dtype"]]
    r = lambda *s: torch.randn(*s, device="cuda", dtype=dt) * 0.05
    if c["kind"] == "matmul":
        B, M, K, N = c["B"], c["M"], c["K"], c["N"]
        if B == 1:
            a, b = r(M, K), r(K, N)
            return lambda: torch.mm(a, b)
        a, b = r(B, M, K), r(B, K, N)
        return lambda: torch.bmm(a, b)
    rows, cols, fam = c["rows"], c["cols"], c["family"]
    x = r(rows, cols)
    if fam == "add":
        y = r(rows, cols)
        return lambda: x + y
    if fam == "gelu":
        return lambda: F.gelu(x, approximate="tanh")
    if fam == "sum_rows":
        return lambda: x.sum(dim=-1)
    if fam == "softmax":
        return lambda: torch.softmax(x, dim=-1)
    if fam == "layernorm":
        w, b = r(cols), r(cols)
        return lambda: F.layer_norm(x, (cols,), w, b)
    if fam == "rmsnorm":
        w = r(cols)
        return lambda: F.rms_norm(x, (cols,), w, 1e-5)
    if fam == "copy":
        return lambda: x.clone()
    if fam == "transpose_copy":
        return lambda: x.t().contiguous()
    raise ValueError(fam)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    cs = cases()
    if a.list:
        for c in cs:
            print(c["case"], c["read"] + c["write"])
        print(len([c for c in cs if c["kind"] == "matmul"]), "gemm,",
              len([c for c in cs if c["kind"] == "memory"]), "memory", file=sys.stderr)
        return
    import torch
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for i, c in enumerate(cs):
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
                    c = dict(c, index=i, warm_us_median=round(ts[reps // 2], 3), warm_us_min=round(ts[0], 3))
                    rows.append(c)
                    print(i, c["case"], c["warm_us_median"], flush=True)
            del f
            torch.cuda.empty_cache()
        except Exception as ex:
            print("FAILED", i, c["case"], repr(ex)[:200], flush=True)
            if a.profile:
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()
    if a.out:
        with open(os.path.join(a.out, "cases.csv"), "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
