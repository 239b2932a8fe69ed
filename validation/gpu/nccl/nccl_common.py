"""What nccl_bench.py and tp_decode.py share: the NVLink-multicast guard, process-group start
(torchrun's environment, or a lone process at world size 1), timers, the cross-rank
statistics and the CSV writer. Nothing here imports torch at module level, so the scripts'
--dry-run runs where torch is absent.

The multi-GPU device machines require NVLink multicast off (device KINDS.md): a program that
uses it can put the host's GPUs out of service. run.sh exports the three variables below;
every rank checks them before it touches NCCL (`require_multicast_off`) and refuses to start
if one is missing or has another value.
"""
import csv
import os
import sys
import time

MULTICAST_OFF = {
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}
GB = 1e9  # nccl-tests' GB/s are 1e9 bytes per second


def multicast_env():
    return " ".join(f"{k}={os.environ.get(k, '<unset>')}" for k in MULTICAST_OFF)


def require_multicast_off(who):
    """Exit (status 3) unless the three multicast-off variables hold their values here."""
    bad = [k for k, v in MULTICAST_OFF.items() if os.environ.get(k) != v]
    if bad:
        print(f"{who}: refusing to start: NVLink multicast must be off; {', '.join(bad)} "
              f"not set as required ({multicast_env()}); run through run.sh or export "
              + " ".join(f"{k}={v}" for k, v in MULTICAST_OFF.items()), file=sys.stderr)
        sys.exit(3)


class Dist:
    """The process group: rank, world, device, and the collectives' module."""

    def __init__(self, device_kind="cuda"):
        import torch
        import torch.distributed as dist
        self.torch, self.dist = torch, dist
        # A lone process (python3 script.py) is world size 1, as torchrun --nproc-per-node 1.
        os.environ.setdefault("RANK", "0")
        os.environ.setdefault("LOCAL_RANK", "0")
        os.environ.setdefault("WORLD_SIZE", "1")
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000))
        self.rank = int(os.environ["RANK"])
        self.local_rank = int(os.environ["LOCAL_RANK"])
        self.world = int(os.environ["WORLD_SIZE"])
        self.cuda = device_kind == "cuda"
        if self.cuda:
            torch.cuda.set_device(self.local_rank)
            self.device = torch.device("cuda", self.local_rank)
            dist.init_process_group("nccl", device_id=self.device)
        else:  # gloo on the CPU: a logic test of the harness only, no timing worth keeping
            self.device = torch.device("cpu")
            dist.init_process_group("gloo")
        assert dist.get_world_size() == self.world

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def barrier(self):
        self.sync()
        if self.cuda:
            self.dist.barrier(device_ids=[self.local_rank])
        else:
            self.dist.barrier()
        self.sync()

    def gather_floats(self, values):
        """Every rank's list of floats (the same length), as a list of lists on every rank."""
        t = self.torch.tensor(values, dtype=self.torch.float64, device=self.device)
        out = self.torch.empty(self.world * len(values), dtype=self.torch.float64, device=self.device)
        self.dist.all_gather_into_tensor(out, t)
        flat = out.tolist()
        return [flat[r * len(values):(r + 1) * len(values)] for r in range(self.world)]

    def nccl_version(self):
        try:
            v = self.torch.cuda.nccl.version()
            return ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
        except Exception as ex:  # noqa: BLE001
            return f"unknown ({ex!r})"

    def close(self):
        try:
            self.dist.destroy_process_group()
        except Exception:  # noqa: BLE001
            pass


class Timer:
    """Elapsed microseconds of `fn` called `n` times: CUDA events recorded on the current
    stream (every NCCL collective PyTorch issues is ordered after the current stream's earlier
    work and before its later work, so two events bracket the ops), or the host clock on CPU."""

    def __init__(self, d):
        self.d = d

    def us(self, fn, n):
        torch = self.d.torch
        if self.d.cuda:
            s = torch.cuda.Event(enable_timing=True)
            e = torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(n):
                fn()
            e.record()
            e.synchronize()
            return s.elapsed_time(e) * 1e3
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t0) * 1e6


def timed_runs(d, fn, warm, iters, runs, align=True):
    """nccl-tests' way: `warm` warm-up calls, then `runs` runs of `iters` back-to-back calls,
    each run after a barrier; returns this rank's per-call average of each run (µs)."""
    timer = Timer(d)
    for _ in range(warm):
        fn()
    per_run = []
    for _ in range(runs):
        if align:
            d.barrier()
        per_run.append(timer.us(fn, iters) / iters)
    return per_run


def rank_stats(d, per_run, ranks=None):
    """Collective over every rank: (mean over `ranks` of each rank's average, min over ranks,
    max over ranks, best run: the smallest over runs of the run's rank-average). `ranks`
    (default all) picks the ranks whose numbers count (send/recv: 0 and 1)."""
    mean_here = sum(per_run) / len(per_run)
    rows = d.gather_floats([mean_here] + list(per_run))
    ranks = list(range(d.world)) if ranks is None else ranks
    means = [rows[r][0] for r in ranks]
    runs = [[rows[r][1 + i] for r in ranks] for i in range(len(per_run))]
    best = min(sum(x) / len(x) for x in runs)
    return sum(means) / len(means), min(means), max(means), best


class CsvOut:
    """Rank 0's CSV, flushed after every row so a run cut short keeps what it measured."""

    def __init__(self, path, columns, active):
        self.columns = columns
        self.fh = None
        if active:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self.fh = open(path, "w", newline="")
            self.w = csv.DictWriter(self.fh, columns, lineterminator="\n")
            self.w.writeheader()
            self.fh.flush()

    def row(self, **kw):
        if self.fh:
            self.w.writerow({k: fmt(kw.get(k, "")) for k in self.columns})
            self.fh.flush()

    def close(self):
        if self.fh:
            self.fh.close()


def fmt(v):
    if isinstance(v, float):
        return f"{v:.4f}" if abs(v) < 1e6 else f"{v:.1f}"
    return "" if v is None else v
