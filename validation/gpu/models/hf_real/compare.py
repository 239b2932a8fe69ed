"""fgraph against transformers' own models and against the emitted files (VALIDATION §55):
`FGRAPH=target/release/fgraph python3 validation/gpu/models/hf_real/compare.py`.

For each case and mode: fgraph's pre-registered prediction (predictions.json), its prediction
now (the files in files/ analysed again), transformers' model measured (data/hf/) and the
emitted file measured (data/em/ for the sdpa files as emitted since the 4-D SDPA change,
data/em_5d/ for the eager-attention files, whose module that change left as it was)."""
import csv, json, os, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
BIN = os.environ.get("FGRAPH", os.path.join(ROOT, "target", "release", "fgraph"))


def measured(folder):
    path = os.path.join(HERE, "data", folder, "measured_models.csv")
    return {(r["case"], r["runtime"], r["launch"]): (float(r["time_us"]), int(r["kernels"]))
            for r in csv.DictReader(open(path)) if r["status"] == "ok"}


def now(case, runtime, launch):
    r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--runtime", runtime,
                        "--launch", launch, os.path.relpath(os.path.join(HERE, "files", case + ".fgraph"), ROOT)],
                       capture_output=True, text=True, cwd=ROOT)
    rt = json.loads(r.stdout)["cost"]["runtime"]
    return rt["time_us"], rt["kernels"]


def err(p, m):
    return f"{(p / m - 1) * 100:+6.1f}%" if m else "   n/a"


def main():
    pre = {(p["case"], p["runtime"], p["launch"]): (p["time_us"], p["kernels"])
           for p in json.load(open(os.path.join(HERE, "predictions.json")))}
    hf, em, em5 = measured("hf"), measured("em"), measured("em_5d")
    print(f"{'case':28} {'runtime':8} {'launch':6} {'pre µs':>9} {'now µs':>9} {'k now':>5} | {'HF µs':>9} {'k':>5} "
          f"{'pre':>7} {'now':>7} | {'file µs':>9} {'k':>5} {'now':>7}")
    for (case, runtime, launch), (p0, _) in pre.items():
        p1, k1 = now(case, runtime, launch)
        h = hf.get((case, runtime, launch))
        e = (em if case.endswith("_sdpa") else em5).get((case, runtime, launch))
        hs = f"{h[0]:9.1f} {h[1]:5d} {err(p0, h[0]):>7} {err(p1, h[0]):>7}" if h else f"{'failed':>9} {'':5} {'':7} {'':7}"
        es = f"{e[0]:9.1f} {e[1]:5d} {err(p1, e[0]):>7}" if e else f"{'':9} {'':5} {'':7}"
        print(f"{case:28} {runtime:8} {launch:6} {p0:9.1f} {p1:9.1f} {k1:5d} | {hs} | {es}")


if __name__ == "__main__":
    main()
