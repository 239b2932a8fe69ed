"""Where a compiled step's host time goes (issue 24, VALIDATION §55): loads an emitted module,
torch.compiles it, times the host's issue of one call (the GPU synchronized before and after)
and profiles 20 calls with cProfile: `python3 prof.py CASE.py OUT.txt`."""
import cProfile, importlib.util, io, pstats, statistics, sys, time

import torch


def main():
    path, out = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("m", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    with torch.inference_mode():
        model = m.Graph("cuda")
        inputs = m.make_inputs("cuda")
        f = torch.compile(model)
        for _ in range(5):
            f(*inputs)
        torch.cuda.synchronize()
        a, b = torch.ones(16, device="cuda"), torch.ones(16, device="cuda")
        def probe():
            torch.cuda.synchronize()
            t = time.perf_counter()
            for _ in range(200):
                torch.add(a, b)
            torch.cuda.synchronize()
            return (time.perf_counter() - t) / 200 * 1e6
        host = []
        for _ in range(30):
            torch.cuda.synchronize()
            t = time.perf_counter()
            f(*inputs)
            host.append((time.perf_counter() - t) * 1e6)
            torch.cuda.synchronize()
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(20):
            f(*inputs)
            torch.cuda.synchronize()
        pr.disable()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(30)
        s2 = io.StringIO()
        pstats.Stats(pr, stream=s2).sort_stats("cumulative").print_stats(30)
        with open(out, "w") as fh:
            fh.write(f"{path}: host issue median {statistics.median(host):.1f} us, min {min(host):.1f}; probe {probe():.2f} us\n")
            fh.write(s.getvalue())
            fh.write(s2.getvalue())
    print(path, f"host {statistics.median(host):.1f} us")


if __name__ == "__main__":
    main()
