"""fgraph's price of each shape of sdpa_probe.py (`analyze --traffic-model hardware --runtime
compile`, the H100 preset, CUDA graphs: the attention kernel's `time_us`) against the measured
kernel (data/sdpa_probe.csv), with the errors summarised by key length (VALIDATION.md §47).
compare.txt is the table before §48's refit, its baseline (refit.py prices the kernels before
and after it).

    cargo build --release && FGRAPH=target/release/fgraph \\
        python3 validation/gpu/models/sdpa_probe/compare.py > validation/gpu/models/sdpa_probe/compare.txt
"""
import csv
import json
import os
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("FGRAPH", os.path.join(HERE, "..", "..", "..", "..", "target", "release", "fgraph"))
SRC = """graph g {
  param B = 1
  param N = 1
  param L = 1
  param D = 1
  input q: f16[B, 8, N, D]
  input k: f16[B, 8, L, D]
  input v: f16[B, 8, L, D]
  op a = attention(q, k, v) -> o: [B, 8, N, D]
  output o
}
"""


def priced(path, b, n, d, kv):
    r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--hardware", "h100",
                        "--runtime", "compile", "--set", f"B={b}", "--set", f"N={n}", "--set", f"L={kv}",
                        "--set", f"D={d}", path], capture_output=True, text=True, check=True)
    ks = [k for k in json.loads(r.stdout)["cost"]["runtime"]["per_kernel"] if k["family"] == "attention"]
    return ks[0]["time_us"]


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as fh:
        fh.write(SRC)
        path = fh.name
    try:
        by_keys = {}
        print(f"{'batch':>5} {'queries':>7} {'head_dim':>8} {'keys':>5} {'priced':>8} {'measured':>9}  error")
        for r in csv.DictReader(open(os.path.join(HERE, "data", "sdpa_probe.csv"))):
            if not r["median_us"]:
                continue
            b, n, d, kv = (int(r[c]) for c in ("batch", "positions", "head_dim", "keys"))
            p, m = priced(path, b, n, d, kv), float(r["median_us"])
            label = "all" if kv == n else str(kv)
            by_keys.setdefault(label, []).append(p / m - 1)
            print(f"{b:5} {n:7} {d:8} {kv:5} {p:8.1f} {m:9.1f}  {p / m - 1:+6.1%}")
        for label, errs in by_keys.items():
            print(f"keys {label:>4}: {len(errs)} shapes, {sum(abs(e) <= 0.2 for e in errs)} within ±20%, "
                  f"median {statistics.median(errs):+.0%}, {min(errs):+.0%}..{max(errs):+.0%}")
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
