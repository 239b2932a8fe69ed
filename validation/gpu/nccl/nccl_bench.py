"""NCCL collectives over message sizes 1 KiB - 1 GiB, timed as nccl-tests times them (issue 26).

One process per GPU, started by torchrun (`torchrun --nproc-per-node N nccl_bench.py ...`), or
alone (`python3 nccl_bench.py`: world size 1, where NCCL's collectives are local copies).
torch.distributed with the NCCL backend. NVLink multicast must be off (run.sh exports
NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1; every rank
refuses to start without them).

Collectives (`collective`, fgraph's name; `torch_op`, what is called):
  all_reduce      dist.all_reduce(buf) (sum, in place)              size = the buffer
  all_gather      dist.all_gather_into_tensor(out, in)              size = out (n x in)
  reduce_scatter  dist.reduce_scatter_tensor(out, in) (sum)         size = in (n x out)
  all_to_all      dist.all_to_all_single(out, in) (equal splits)    size = in (= out)
  broadcast       dist.broadcast(buf, src=0)                        size = the buffer
  send_recv       rank 0 dist.send(buf, 1), rank 1 dist.recv(buf, 0); others idle (N >= 2)
                                                                    size = the buffer
`size` is nccl-tests' size column (doc/PERFORMANCE.md: for all_gather the total output,
recvcount*n; for reduce_scatter the total input, n*recvcount), in bytes; element counts are
rounded down to a multiple of n (no rounding happens for n in 1, 2, 4, 8).

Sizes: 2^10 .. 2^30 bytes, every power of two (21 sizes). The split, fixed: even exponents
(1 KiB, 4 KiB, 16 KiB, ..., 256 MiB, 1 GiB; 11 sizes) are `fit`, odd exponents (2 KiB, 8 KiB,
..., 128 MiB, 512 MiB; 10 sizes) are `heldout`. Both halves span the range; over 1 MiB each has
five sizes (fit 4 MiB-1 GiB, held-out 2 MiB-512 MiB). dtypes: bf16 for every collective; f16
also for all_reduce and reduce_scatter (the reducing ones: the only ones whose kernels look
at the element type).

Method (nccl-tests' common.cu: warm-up iterations, then timed iterations, the average per op;
here with CUDA events): per (collective, dtype, size) a barrier, 5 warm-up calls, then 5 runs
of ITERS back-to-back calls (ITERS = 100 up to 1 MiB, 50 up to 64 MiB, 20 above), each run
after a barrier and bracketed by two CUDA events on the current stream; each rank's time is
its mean per-call time over the runs. rank 0 writes `time_us` = the mean over ranks (as
nccl-tests' default -a 1), `time_min_us`/`time_max_us` over ranks, `best_run_us` (the fastest
run's rank mean), algbw = size / time_us, busbw = algbw x the bus factor of nccl-tests'
doc/PERFORMANCE.md: all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all (n-1)/n;
broadcast 1; send_recv 1 (sendrecv_perf's). At n = 1 every factor is 0 (a copy on one GPU
crosses no bus): busbw is left empty. GB = 1e9 bytes.

mode `eager` is every case as above. mode `graph` (after the whole eager sweep, sizes up to
--graph-max, default 64 MiB; not send_recv) captures ITERS calls into one CUDA graph and replays it: the GPU's
time without the host's per-call launch cost, which is what a CUDA-graph serving step sees.

  python3 nccl_bench.py --dry-run [--world 8] [--part fit|heldout|all]   # the plan (no torch)
  torchrun --nproc-per-node N nccl_bench.py --part fit --out DIR         # DIR/nccl_wN_fit.csv
  python3 nccl_bench.py --device cpu --max-exp 16                        # gloo logic test
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nccl_common as C  # noqa: E402

COLLECTIVES = [  # (fgraph's name, the torch call)
    ("all_reduce", "all_reduce"),
    ("all_gather", "all_gather_into_tensor"),
    ("reduce_scatter", "reduce_scatter_tensor"),
    ("all_to_all", "all_to_all_single"),
    ("broadcast", "broadcast"),
    ("send_recv", "send/recv"),
]
TORCH_OP = dict(COLLECTIVES)
F16_SUBSET = ("all_reduce", "reduce_scatter")
EXP_MIN, EXP_MAX = 10, 30
ELEM = {"bf16": 2, "f16": 2}
WARM, RUNS = 5, 5
COLUMNS = ["collective", "torch_op", "dtype", "size_bytes", "count", "world", "part", "mode", "iters",
           "runs", "time_us", "time_min_us", "time_max_us", "best_run_us", "algbw_GBps", "busbw_GBps",
           "bus_factor", "status"]


def part_of(exp):
    """The fixed split: even exponents fit, odd held-out."""
    return "fit" if exp % 2 == 0 else "heldout"


def exps(part, lo=EXP_MIN, hi=EXP_MAX):
    return [e for e in range(lo, hi + 1) if part == "all" or part_of(e) == part]


def iters_for(size):
    return 100 if size <= 1 << 20 else 50 if size <= 64 << 20 else 20


def bus_factor(coll, n):
    """nccl-tests' doc/PERFORMANCE.md factors; None at n = 1 (no bus)."""
    if n <= 1:
        return None
    return {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n,
            "all_to_all": (n - 1) / n, "broadcast": 1.0, "send_recv": 1.0}[coll]


def cases(world, part, lo=EXP_MIN, hi=EXP_MAX, dtypes=("bf16", "f16")):
    out = []
    for coll, _ in COLLECTIVES:
        if coll == "send_recv" and world < 2:
            continue
        for dt in dtypes:
            if dt == "f16" and coll not in F16_SUBSET:
                continue
            for e in exps(part, lo, hi):
                out.append(dict(collective=coll, dtype=dt, exp=e, size=1 << e, part=part_of(e)))
    return out


def est_us(coll, size, n, busbw=330e9, copy=1.5e12, lat=20.0):
    """A rough time per op for the plan (not a prediction): 20 us + the bus bytes at 330 GB/s
    (this workplace's 2-GPU all-reduce), or a local copy at 1.5 TB/s at n = 1."""
    f = bus_factor(coll, n)
    return lat + (size * f / busbw if f else size / copy) * 1e6


def plan(world, part, lo, hi, graph_max, dtypes):
    cs = cases(world, part, lo, hi, dtypes)
    print(f"nccl_bench plan: world {world}, part {part}, sizes 2^{lo}..2^{hi} bytes, dtypes {'/'.join(dtypes)} "
          f"(f16 only for {', '.join(F16_SUBSET)}), warm-up {WARM}, runs {RUNS} x iters (100 <= 1 MiB, 50 <= 64 MiB, "
          f"20 above)")
    print("split: even exponents fit, odd exponents heldout")
    for p in ("fit", "heldout"):
        es = [e for e in exps("all", lo, hi) if part_of(e) == p]
        chosen = "measured" if part in ("all", p) else "not in this run"
        print(f"part {p}: {len(es)} sizes ({chosen}): " + ", ".join(human(1 << e) for e in es))
    total = 0.0
    for coll, op in COLLECTIVES:
        mine = [c for c in cs if c["collective"] == coll]
        if not mine:
            print(f"collective {coll} ({op}): skipped at world {world}")
            continue
        t = sum((WARM + RUNS * iters_for(c["size"])) * est_us(coll, c["size"], world) for c in mine) / 1e6
        t += len(mine) * 0.02  # barriers, the cross-rank gather, the CSV row
        g = [c for c in mine if c["size"] <= graph_max and coll != "send_recv"]
        t += sum((1 + RUNS) * iters_for(c["size"]) * est_us(coll, c["size"], world, lat=12.0) for c in g) / 1e6
        t += len(g) * 0.05  # capture
        total += t
        dts = sorted({c["dtype"] for c in mine})
        print(f"collective {coll} ({op}): {len(mine)} cases ({'/'.join(dts)}), graph mode for {len(g)}, ~{t:.1f} s")
    print(f"cases: {len(cs)} eager + graph mode up to {human(graph_max)}; estimated {total:.0f} s of collectives "
          f"+ ~30 s start-up (torchrun, NCCL init) = ~{total + 30:.0f} s")
    print("multicast: " + C.multicast_env())


def human(b):
    for unit, s in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << s:
            return f"{b >> s} {unit}"
    return f"{b} B"


# ----------------------------------------------------------------------------- the measurement

class Bench:
    def __init__(self, d, hi):
        torch = d.torch
        self.d, self.torch = d, torch
        cap = 1 << hi
        # Two buffers of the largest size, reused by every case (views of their first bytes).
        self.a = torch.zeros(cap, dtype=torch.uint8, device=d.device)
        self.b = torch.zeros(cap, dtype=torch.uint8, device=d.device)
        self.dt = {"bf16": torch.bfloat16, "f16": torch.float16}

    def buffers(self, coll, dtype, size):
        n, e = self.d.world, ELEM[dtype]
        count = size // e
        if coll in ("all_gather", "reduce_scatter", "all_to_all"):
            count = count // n * n
        a = self.a[:count * e].view(self.dt[dtype])
        b = self.b[:count * e].view(self.dt[dtype])
        return count, a, b

    def op(self, coll, dtype, size):
        """(count, the call) for one case."""
        dist, d = self.d.dist, self.d
        count, a, b = self.buffers(coll, dtype, size)
        n = d.world
        if coll == "all_reduce":
            return count, lambda: dist.all_reduce(a)
        if coll == "all_gather":
            src = a[:count // n]
            return count, lambda: dist.all_gather_into_tensor(b, src)
        if coll == "reduce_scatter":
            dst = b[:count // n]
            return count, lambda: dist.reduce_scatter_tensor(dst, a)
        if coll == "all_to_all":
            return count, lambda: dist.all_to_all_single(b, a)
        if coll == "broadcast":
            return count, lambda: dist.broadcast(a, src=0)
        if coll == "send_recv":
            if d.rank == 0:
                return count, lambda: dist.send(a, dst=1)
            if d.rank == 1:
                return count, lambda: dist.recv(a, src=0)
            return count, lambda: None
        raise ValueError(coll)

    def check(self):
        """One small call of each collective, its result checked (printed; not fatal)."""
        torch, dist, d = self.torch, self.d.dist, self.d
        n, r = d.world, d.rank
        k = 4096 * n
        x = torch.full((k,), float(r + 1), dtype=torch.bfloat16, device=d.device)
        msgs = []
        y = x.clone(); dist.all_reduce(y)
        msgs.append(("all_reduce", bool((y == n * (n + 1) / 2).all())))
        out = torch.empty(k * n, dtype=x.dtype, device=d.device); dist.all_gather_into_tensor(out, x)
        msgs.append(("all_gather", bool((out.view(n, k)[:, 0].float().cpu() == torch.arange(1, n + 1).float()).all())))
        rs = torch.empty(k // n, dtype=x.dtype, device=d.device); dist.reduce_scatter_tensor(rs, x)
        msgs.append(("reduce_scatter", bool((rs == n * (n + 1) / 2).all())))
        a2 = torch.empty_like(x); dist.all_to_all_single(a2, x)
        msgs.append(("all_to_all", bool((a2.view(n, -1)[:, 0].float().cpu() == torch.arange(1, n + 1).float()).all())))
        bc = x.clone(); dist.broadcast(bc, src=0)
        msgs.append(("broadcast", bool((bc == 1).all())))
        if n >= 2:
            sr = x.clone()
            if r == 0:
                dist.send(sr, dst=1)
            elif r == 1:
                dist.recv(sr, src=0)
            msgs.append(("send_recv", bool((sr == 1).all()) if r == 1 else True))
        d.barrier()
        flags = d.gather_floats([float(ok) for _, ok in msgs])
        return [(name, all(f[i] for f in flags)) for i, (name, _) in enumerate(msgs)]

    def measure(self, c, mode, out):
        d = self.d
        n = d.world
        coll, dtype, size = c["collective"], c["dtype"], c["size"]
        iters = iters_for(size)
        ranks = [0, 1] if coll == "send_recv" else None
        status = "ok"
        try:
            count, fn = self.op(coll, dtype, size)
            d.barrier()
            if mode == "eager":
                per_run = C.timed_runs(d, fn, WARM, iters, RUNS)
            else:
                per_run = self.graph_runs(fn, iters)
        except Exception as ex:  # noqa: BLE001
            count, per_run, status = size // ELEM[dtype], [float("nan")] * RUNS, f"FAILED {type(ex).__name__}: {ex}"[:200]
        if ranks is not None and d.rank not in ranks:
            per_run = [float("nan")] * RUNS
        t, tmin, tmax, best = C.rank_stats(d, per_run, ranks)
        f = bus_factor(coll, n)
        ok = status == "ok" and math.isfinite(t) and t > 0
        alg = size / (t * 1e-6) / C.GB if ok else None
        out.row(collective=coll, torch_op=TORCH_OP[coll], dtype=dtype, size_bytes=size, count=count, world=n,
                part=c["part"], mode=mode, iters=iters, runs=RUNS, time_us=t if ok else None,
                time_min_us=tmin if ok else None, time_max_us=tmax if ok else None, best_run_us=best if ok else None,
                algbw_GBps=alg, busbw_GBps=(alg * f if (ok and f) else None), bus_factor=f, status=status)
        if d.rank == 0:
            print(f"{mode:5} {coll:14} {dtype:4} {human(size):>8}  {t:10.2f} us  algbw {alg or 0:8.2f}  "
                  f"busbw {(alg or 0) * (f or 0):8.2f} GB/s  {status}", flush=True)

    def graph_runs(self, fn, iters):
        torch, d = self.torch, self.d
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(WARM):
                fn()
        torch.cuda.current_stream().wait_stream(s)
        d.barrier()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, capture_error_mode="thread_local"):
            for _ in range(iters):
                fn()
        d.barrier()
        g.replay()  # warm replay
        per_run = C.timed_runs(d, g.replay, 0, 1, RUNS)
        del g
        return [x / iters for x in per_run]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="print the plan; no torch")
    ap.add_argument("--world", type=int, default=int(os.environ.get("WORLD_SIZE", "8")),
                    help="world size for --dry-run (torchrun's WORLD_SIZE otherwise)")
    ap.add_argument("--part", choices=["fit", "heldout", "all"], default="all")
    ap.add_argument("--min-exp", type=int, default=EXP_MIN)
    ap.add_argument("--max-exp", type=int, default=EXP_MAX)
    ap.add_argument("--dtypes", default="bf16,f16")
    ap.add_argument("--graph-max", type=int, default=64 << 20, help="largest size timed in graph mode (0: none)")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda", help="cpu: gloo, a logic test only")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    a = ap.parse_args()
    dtypes = tuple(a.dtypes.split(","))
    if a.dry_run:
        plan(a.world, a.part, a.min_exp, a.max_exp, a.graph_max, dtypes)
        return
    if True:  # on CPU too, so a logic test exercises the check
        C.require_multicast_off(f"nccl_bench rank {os.environ.get('RANK', '0')}")
    d = C.Dist(a.device)
    print(f"rank {d.rank}/{d.world} device {d.device} {C.multicast_env()}", flush=True)
    path = os.path.join(a.out, f"nccl_w{d.world}_{a.part}.csv")
    out = C.CsvOut(path, COLUMNS, d.rank == 0)
    if d.rank == 0:
        print(f"torch {d.torch.__version__} nccl {d.nccl_version() if d.cuda else '-'} world {d.world} "
              f"part {a.part} -> {path}", flush=True)
    b = Bench(d, a.max_exp)
    for name, ok in b.check():
        if d.rank == 0:
            print(f"check {name}: {'ok' if ok else 'WRONG RESULT'}", flush=True)
    cs = cases(d.world, a.part, a.min_exp, a.max_exp, dtypes)
    for c in cs:
        b.measure(c, "eager", out)
    if d.cuda and a.graph_max > 0:
        for c in cs:
            if c["size"] <= a.graph_max and c["collective"] != "send_recv":
                b.measure(c, "graph", out)
    out.close()
    d.barrier()
    d.close()


if __name__ == "__main__":
    main()
