"""§56: fgraph against transformers' own models, from the files `fgraph import hf --ops
transformers` writes: `FGRAPH=target/release/fgraph python3 validation/gpu/models/hf_real/compare3.py [--fourth]`.

For each case and mode: fgraph's pre-registered prediction (predictions_3.json, make.py --third),
its prediction now (files3/ analysed again), transformers' model measured (data/hf3/) and the
sdpa file's emitted module measured (data/em3/). `--fourth`: the decode steps (predictions_4.json,
files4/, data/hf4/, data/em4/). Writes the table to standard output."""
import json, os, subprocess, sys

from compare import BIN, HERE, ROOT, measured

SET = "4" if "--fourth" in sys.argv else "3"


def now(case, runtime, launch):
    r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--runtime", runtime,
                        "--launch", launch, os.path.relpath(os.path.join(HERE, "files" + SET, case + ".fgraph"), ROOT)],
                       capture_output=True, text=True, cwd=ROOT)
    rt = json.loads(r.stdout)["cost"]["runtime"]
    return rt["time_us"], rt["kernels"]


def err(p, m):
    return f"{(p / m - 1) * 100:+6.1f}%"


def main():
    pre = {(p["case"], p["runtime"], p["launch"]): (p["time_us"], p["kernels"])
           for p in json.load(open(os.path.join(HERE, f"predictions_{SET}.json")))}
    hf, em = measured("hf" + SET), measured("em" + SET)
    print(f"{'case':34} {'runtime':8} {'launch':6} {'pre µs':>9} {'now µs':>9} {'k now':>5} | {'HF µs':>9} {'k':>5} "
          f"{'pre':>7} {'now':>7} | {'file µs':>9} {'k':>5} {'now':>7}")
    within = {}
    for (case, runtime, launch), (p0, _) in pre.items():
        p1, k1 = now(case, runtime, launch)
        h, e = hf.get((case, runtime, launch)), em.get((case, runtime, launch))
        hs = (f"{h[0]:9.1f} {h[1]:5d} {err(p0, h[0]):>7} {err(p1, h[0]):>7}" if h
              else f"{'no graph':>9} {'':5} {'':7} {'':7}")
        es = f"{e[0]:9.1f} {e[1]:5d} {err(p1, e[0]):>7}" if e else f"{'':9} {'':5} {'':7}"
        print(f"{case:34} {runtime:8} {launch:6} {p0:9.1f} {p1:9.1f} {k1:5d} | {hs} | {es}")
        if h:
            target = 0.10 if launch == "graph" else 0.15
            n, k = within.get(launch, (0, 0))
            within[launch] = (n + (abs(p1 / h[0] - 1) <= target), k + 1)
    for launch, (n, k) in sorted(within.items()):
        print(f"transformers, {launch}: {n} of {k} within {'±10%' if launch == 'graph' else '±15%'}")


if __name__ == "__main__":
    main()
