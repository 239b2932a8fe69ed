"""Calibration data for the hardware traffic model (issue 11): GEMM shapes and memory-bound
kernels on the lent GPU. Two passes, run by calib.sh:

  python3 calib.py --time OUT.csv    # CUDA-event kernel times, median of many repetitions,
                                     # cold (L2 flushed by a 256 MB write before each rep)
                                     # and warm (back-to-back reps on the same buffers)
  python3 calib.py --profile         # one call per case between cudaProfilerStart/Stop, under
                                     # ncu (dram__bytes_read/write.sum, gpu__time_duration.sum);
                                     # a torch.cuda._sleep marker kernel precedes every case so
                                     # extract can split ncu's rows by case, in CASES order
  python3 calib.py --dry-run         # list the cases (no GPU needed)

Case ids are stable: gemm_<dtype>_b<batch>_m<M>_n<N>_k<K>, mem_<op>_<dtype>_<rows>x<cols>.
"""
import argparse
import csv
import sys

CASES = []


def gemm(dt, b, m, n, k):
    CASES.append(dict(id=f"gemm_{dt}_b{b}_m{m}_n{n}_k{k}", kind="gemm", dtype=dt,
                      b=b, m=m, n=n, k=k, op="matmul"))


def mem(op, dt, rows, cols):
    CASES.append(dict(id=f"mem_{op}_{dt}_{rows}x{cols}", kind="mem", dtype=dt,
                      b=1, m=rows, n=cols, k=0, op=op))


# GEMMs: square, wide, skinny (decode M = 1..64), batched attention, K 64..28672.
for s in (512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384):
    gemm("f16", 1, s, s, s)
for s in (2048, 4096, 8192):
    gemm("bf16", 1, s, s, s)
# LLM projections (Llama-7B/70B-like): tokens x hidden x hidden/ffn
for t in (512, 2048, 4096, 8192):
    gemm("bf16", 1, t, 4096, 4096)
    gemm("bf16", 1, t, 11008, 4096)
    gemm("bf16", 1, t, 4096, 11008)
for t in (1024, 4096):
    gemm("bf16", 1, t, 28672, 8192)
    gemm("bf16", 1, t, 8192, 28672)
# L2 region: working sets ~ 10..80 MB
for (m, n, k) in ((2048, 2048, 4096), (4096, 2048, 2048), (2048, 4096, 3072), (3072, 3072, 3072),
                  (4096, 4096, 2048), (2048, 8192, 2048), (4096, 3072, 4096), (1024, 8192, 4096),
                  (8192, 1024, 4096), (4096, 4096, 1024)):
    gemm("f16", 1, m, n, k)
# wide / tall
for (m, n, k) in ((16384, 1024, 1024), (1024, 16384, 1024), (256, 16384, 8192), (16384, 256, 8192),
                  (32768, 4096, 64), (4096, 32768, 128), (8192, 8192, 64), (8192, 8192, 256)):
    gemm("f16", 1, m, n, k)
# decode: skinny M
for mm in (1, 8, 16, 32, 64):
    gemm("bf16", 1, mm, 4096, 4096)
    gemm("bf16", 1, mm, 11008, 4096)
    gemm("bf16", 1, mm, 4096, 11008)
for mm in (1, 16, 64):
    gemm("f16", 1, mm, 28672, 8192)
    gemm("f16", 1, mm, 8192, 28672)
# batched attention: (B*heads) x S x S x d and S x d x S
for (bh, s, d) in ((32, 1024, 128), (32, 2048, 128), (64, 4096, 64), (32, 4096, 128), (128, 512, 64)):
    gemm("f16", bh, s, s, d)     # Q K^T
    gemm("f16", bh, s, d, s)     # P V
# Memory-bound kernels: 1 MB .. 1 GB
for dt in ("f16", "bf16", "f32"):
    for (r, c) in ((256, 1024), (2048, 4096), (16384, 4096), (65536, 8192)):
        mem("add", dt, r, c)
for (r, c) in ((1024, 1024), (8192, 4096), (32768, 8192)):
    mem("gelu", "f16", r, c)
    mem("mul_silu", "bf16", r, c)
for dt in ("f16", "f32"):
    for (r, c) in ((1024, 1024), (8192, 4096), (32768, 8192)):
        mem("sum_rows", dt, r, c)
        mem("softmax", dt, r, c)
for (r, c) in ((512, 4096), (8192, 4096), (32768, 8192)):
    mem("layer_norm", "f16", r, c)
    mem("rms_norm", "bf16", r, c)
    mem("layer_norm", "f32", r, c)
for (r, c) in ((4096, 32000), (512, 128256)):
    mem("softmax", "bf16", r, c)
    mem("sum_rows", "bf16", r, c)


def dsize(dt):
    return {"f16": 2, "bf16": 2, "f32": 4}[dt]


def compulsory(c):
    """The seed's compulsory bytes (each input read once, each output written once)."""
    e = dsize(c["dtype"])
    if c["kind"] == "gemm":
        b, m, n, k = c["b"], c["m"], c["n"], c["k"]
        return b * (m * k + k * n) * e, b * m * n * e
    r, w = c["m"] * c["n"] * e, c["m"] * c["n"] * e
    if c["op"] in ("add", "mul_silu"):
        r *= 2
    if c["op"] == "sum_rows":
        w = c["m"] * e
    if c["op"] in ("layer_norm", "rms_norm"):
        r += 2 * c["n"] * e
    return r, w


def build(c):
    import torch
    import torch.nn.functional as F
    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[c["dtype"]]
    g = lambda *s: torch.randn(*s, device="cuda", dtype=dt) * 0.05
    b, m, n, k = c["b"], c["m"], c["n"], c["k"]
    if c["kind"] == "gemm":
        if b == 1:
            A, B = g(m, k), g(k, n)
            return lambda: torch.mm(A, B)
        A, B = g(b, m, k), g(b, k, n)
        return lambda: torch.bmm(A, B)
    x = g(m, n)
    op = c["op"]
    if op == "add":
        y = g(m, n)
        return lambda: x + y
    if op == "gelu":
        return lambda: F.gelu(x, approximate="tanh")
    if op == "mul_silu":
        y = g(m, n)
        return lambda: F.silu(x) * y  # two kernels in eager: silu, mul
    if op == "sum_rows":
        return lambda: x.sum(dim=-1)
    if op == "softmax":
        return lambda: torch.softmax(x, dim=-1)
    if op == "layer_norm":
        w, bb = g(n), g(n)
        return lambda: F.layer_norm(x, (n,), w, bb)
    if op == "rms_norm":
        w = g(n)
        return lambda: F.rms_norm(x, (n,), w)
    raise ValueError(op)


def time_pass(path, reps):
    import torch
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    out = open(path, "w", newline="")
    wr = csv.writer(out)
    wr.writerow(["id", "cold_us_median", "cold_us_min", "warm_us_median", "warm_us_min", "reps"])
    for c in CASES:
        try:
            f = build(c)
            for _ in range(3):
                f()
            torch.cuda.synchronize()
            cold, warm = [], []
            for _ in range(reps):
                flush.zero_()
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record(); f(); e.record()
                torch.cuda.synchronize()
                cold.append(s.elapsed_time(e) * 1e3)
            for _ in range(reps):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record(); f(); e.record()
                torch.cuda.synchronize()
                warm.append(s.elapsed_time(e) * 1e3)
            cold.sort(); warm.sort()
            row = [c["id"], "%.2f" % cold[len(cold) // 2], "%.2f" % cold[0],
                   "%.2f" % warm[len(warm) // 2], "%.2f" % warm[0], reps]
        except Exception as ex:  # record and keep going
            row = [c["id"], "ERR " + repr(ex)[:100], "", "", "", 0]
        wr.writerow(row)
        out.flush()
        print(*row, flush=True)
        del f
        torch.cuda.empty_cache()


def profile_pass():
    import torch
    for c in CASES:
        f = build(c)
        for _ in range(2):
            f()
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        torch.cuda._sleep(1000)  # marker kernel: extract splits the rows at it
        f()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        del f
        torch.cuda.empty_cache()
    print("profiled", len(CASES), flush=True)


def write_cases(path):
    with open(path, "w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["id", "kind", "op", "dtype", "b", "m", "n", "k", "compulsory_read", "compulsory_write"])
        for c in CASES:
            r, w = compulsory(c)
            wr.writerow([c["id"], c["kind"], c["op"], c["dtype"], c["b"], c["m"], c["n"], c["k"], r, w])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--time")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--cases")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    if a.cases:
        write_cases(a.cases)
    if a.dry_run:
        g = [c for c in CASES if c["kind"] == "gemm"]
        ws = sorted(sum(compulsory(c)) / 1e6 for c in CASES)
        print(len(g), "gemm", len(CASES) - len(g), "mem; working sets MB", ws[0], ws[-1],
              "in 20-60 MB:", sum(1 for x in ws if 20 <= x <= 60), file=sys.stderr)
    if a.time:
        time_pass(a.time, a.reps)
    if a.profile:
        profile_pass()
