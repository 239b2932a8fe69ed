"""Where a CUDA-graph replay of transformers' eager step spends the time its kernels do not
(VALIDATION §56 left it: Qwen2.5-1.5B's decode replayed in 6.4 ms with 4.0 ms of kernels, the
emitted module of the same file in 4.4 with 4.1). `python3 gap_probe.py OUT CASE.py ...`: for
each case file (a transformers case of cases*/ or an emitted module of emitted*/, both with
`Graph(device)` and `make_inputs(device)`), the step is captured as measure.py captures it,
timed (20 replays between CUDA events, median of 3 runs), the host's time of one `replay()`
call taken (20 calls without a synchronisation), and two replays are profiled: every
kernel's start, duration, grid, block and stream within the replay go to OUT/timeline.csv
(one row a kernel, `gap_us` the idle time before it), a summary to OUT/summary.txt."""
import csv
import json
import os
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from measure import built, graphed, issue_us, label_of, timed  # noqa: E402


def replay_kernels(replay):
    """The kernels of two profiled replays, from the profiler's chrome trace (`ts`, `dur` in µs)."""
    from torch.profiler import ProfilerActivity, profile
    replay()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        for _ in range(2):
            replay()
        torch.cuda.synchronize()
    path = tempfile.mktemp(suffix=".json")
    prof.export_chrome_trace(path)
    events = json.load(open(path))["traceEvents"]
    os.unlink(path)
    ks = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    ks.sort(key=lambda e: e["ts"])
    return ks


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    tl = open(os.path.join(out, "timeline.csv"), "w", newline="")
    w = csv.writer(tl)
    w.writerow(["case", "idx", "name", "start_us", "dur_us", "gap_us", "grid", "block", "stream", "cat"])
    summ = open(os.path.join(out, "summary.txt"), "w")
    print("torch", torch.__version__, torch.cuda.get_device_name(0), file=summ, flush=True)
    for path in sys.argv[2:]:
        label = label_of(path)
        try:
            with torch.inference_mode():
                step = built(path)
                step()
                torch.cuda.synchronize()
                replay = graphed(step)
                t, best = timed(replay)
                host = issue_us(replay)
                ks = replay_kernels(replay)
                t0 = ks[0]["ts"] if ks else 0.0
                prev_end, busy, gaps = None, 0.0, 0.0
                for i, e in enumerate(ks):
                    gap = 0.0 if prev_end is None else e["ts"] - prev_end
                    a = e.get("args", {})
                    w.writerow([label, i, e["name"][:120], round(e["ts"] - t0, 3), e["dur"], round(gap, 3),
                                a.get("grid"), a.get("block"), a.get("stream"), e.get("cat")])
                    prev_end = e["ts"] + e["dur"]
                    busy += e["dur"]
                    gaps += max(gap, 0.0)
                span = (prev_end - t0) if ks else 0.0
                n = len(ks) // 2
                print(f"{label}: replay {t:.1f} µs (best {best:.1f}), host {host:.1f} µs a replay call; profiled 2 replays: {len(ks)} ops, "
                      f"span {span:.1f}, busy {busy:.1f}, gaps {gaps:.1f} ({gaps / max(len(ks), 1):.2f} a kernel), "
                      f"{n} a replay", file=summ, flush=True)
            del step, replay
            torch.cuda.empty_cache()
        except Exception as e:  # noqa: BLE001
            print(f"{label}: error {e!r}"[:400], file=summ, flush=True)
    tl.close()
    summ.close()


if __name__ == "__main__":
    main()
