"""Which cuDNN kernel PyTorch's channels-last depthwise 7×7 convolution (ConvNeXt's) runs, by
batch (issue 24, VALIDATION §43: ConvNeXt's block at batch 6 ran `conv2d_c1_k1_nhwc` at 45 µs
where batches 8-32 ran `conv2d_c1_k1_nhwc_specialized`, 28 µs at batch 8).

    python3 dw_probe.py OUT        (on the GPU machine; writes OUT/dw_kernels.csv)
    ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        --cache-control all --clock-control none --profile-from-start off --csv \
        --log-file OUT/ncu.csv python3 dw_probe.py --profile OUT
                                   (each case's kernel alone, L2 flushed, as the calibrations
                                    are: OUT/cases.csv names the profiled calls in order)

For each (channels, side) of ConvNeXt-T's four stages and each batch: the profiler's kernel
names of one call, and the median of 20 calls' CUDA-event time (warm L2, in a stream).
"""
import csv, os, statistics, sys

import torch
import torch.nn.functional as F

STAGES = [(96, 56), (192, 28), (384, 14), (768, 7)]
BATCHES = list(range(1, 17)) + [20, 24, 28, 32]


def kernels(fn):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def timed(fn, reps=20):
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b) * 1000.0)
    return statistics.median(ts)


PROFILE = [(c, s, n, k) for c, s in STAGES for n in range(1, 9) for k in (7,)] + \
    [(c, s, n, 3) for c, s in STAGES[:2] for n in (2, 5, 8)]


def profile(out):
    """Each case of PROFILE once under ncu (after three warm-up calls), in order."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cases.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["case", "channels", "side", "batch", "kernel"])
        for i, (c, s, n, k) in enumerate(PROFILE):
            wt = torch.randn(c, 1, k, k, device="cuda", dtype=torch.float16).to(memory_format=torch.channels_last)
            x = torch.randn(n, c, s, s, device="cuda", dtype=torch.float16).to(memory_format=torch.channels_last)
            for _ in range(3):
                F.conv2d(x, wt, padding=k // 2, groups=c)
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
            F.conv2d(x, wt, padding=k // 2, groups=c)
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
            w.writerow([i, c, s, n, k])


def main():
    if sys.argv[1] == "--profile":
        return profile(sys.argv[2])
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.backends.cudnn.benchmark = False
    with open(os.path.join(out, "dw_kernels.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["channels", "side", "batch", "kernels", "us"])
        for c, s in STAGES:
            wt = torch.randn(c, 1, 7, 7, device="cuda", dtype=torch.float16).to(memory_format=torch.channels_last)
            for n in BATCHES:
                x = torch.randn(n, c, s, s, device="cuda", dtype=torch.float16).to(memory_format=torch.channels_last)
                fn = lambda: F.conv2d(x, wt, padding=3, groups=c)  # noqa: E731
                for _ in range(3):
                    fn()
                torch.cuda.synchronize()
                names = kernels(fn)
                us = timed(fn)
                w.writerow([c, s, n, "|".join(names), f"{us:.3f}"])
                print(c, s, n, names, f"{us:.1f}", flush=True)


if __name__ == "__main__":
    main()
