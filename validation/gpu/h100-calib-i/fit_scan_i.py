"""Fits the hardware model's `scan` family (issue 23 items 4 and 7) on batch i's FIT half:
`model.scan.selective` on mamba_ssm's own forward kernel (selective_scan_cuda cases, built on
the device from mamba_ssm_fwd/), `model.scan.associative` and
`associative_row_flops_per_s` on Inductor's Triton associative scans (assoc_scan cases).

    python3 validation/gpu/h100-calib-i/fit_scan_i.py [--write]

The model (src/cost/hwmodel/scan.rs): t = overhead + max(bytes / (bw * eff), work / rate)
- selective: work = B*D*L*N state updates; bytes = the compulsory reads, the output, the
  ungated output (with z) and the chunk-end states (B*D*ceil(L/2048)*N pairs of f32).
- associative: work = elements * the combine's FLOPs (add 1, linear 2); rate =
  min(elements_per_s, rows * associative_row_flops_per_s); bytes compulsory.
The Triton selective scan of scan_kernel.py (family selective_scan) is a reference kernel
with the same traffic (about 4x slower than mamba_ssm's): not used for the fit.
"""
import argparse, csv, json, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BW = 3.35e12
N_STATE = 16


def load(part):
    cases = {c["case"]: c for c in json.load(open(os.path.join(HERE, "cases.json")))}
    rows = []
    for r in csv.DictReader(open(os.path.join(HERE, part, f"measured_{part}.csv"))):
        c = cases.get(r["case"])
        if c and c["family"] in ("selective_scan_cuda", "assoc_scan") and r["gpu_time_ns"]:
            rows.append((c, int(r["dram_read"]), int(r["gpu_time_ns"]) / 1e3))
    return rows


def figures(c):
    """(bytes, work, rows) of a case as the model counts them."""
    s = c["shapes"]
    if c["family"] == "selective_scan_cuda":
        Bn, Dm, L = s["u"]
        y = c["write"]
        states = Bn * Dm * math.ceil(L / 2048) * N_STATE * 8
        return c["read"] + 2 * y + states, Bn * Dm * L * N_STATE, None
    R, L = (s["x"] if "x" in s else s["a"])
    per = 1 if c["params"]["combine"] == "add" else 2
    return c["read"] + c["write"], R * L * per, R


def model(co, c):
    b, work, rows = figures(c)
    rate = co["elements_per_s"]
    if rows is not None and co.get("row") is not None:
        rate = min(rate, rows * co["row"])
    return co["overhead_us"] + max(b / (BW * co["bandwidth_efficiency"]), work / rate) * 1e6


def err(p, m):
    return math.log(p / m) ** 2


def fit_selective(rows):
    best = None
    for o in [i / 2 for i in range(0, 21)]:
        for eff in [i / 100 for i in range(50, 101, 2)]:
            for r in [10 ** (11 + i / 80) for i in range(0, 161)]:
                co = dict(bandwidth_efficiency=eff, elements_per_s=r, overhead_us=o)
                s = sum(err(model(co, c), t) for c, _, t in rows)
                if best is None or s < best[0]:
                    best = (s, co)
    return best[1]


def fit_associative(rows):
    best = None
    for o in [i / 2 for i in range(0, 21)]:
        for eff in [i / 100 for i in range(50, 101, 2)]:
            for r in [10 ** (11 + i / 40) for i in range(0, 81)]:
                for row in [10 ** (8 + i / 40) for i in range(0, 121)]:
                    co = dict(bandwidth_efficiency=eff, elements_per_s=r, overhead_us=o, row=row)
                    s = sum(err(model(co, c), t) for c, _, t in rows)
                    if best is None or s < best[0]:
                        best = (s, co)
    return best[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rows = load("fit")
    sel = fit_selective([r for r in rows if r[0]["family"] == "selective_scan_cuda"])
    asc = fit_associative([r for r in rows if r[0]["family"] == "assoc_scan"])
    for c, rd, t in rows:
        co = sel if c["family"] == "selective_scan_cuda" else asc
        p = model(co, c)
        print(f"{c['case'][:64]:64} reads {c['read'] / rd - 1:+6.1%} (compulsory)  time {p:7.1f} / {t:7.1f} µs {p / t - 1:+5.0%}")
    rnd = lambda v: float(f"{v:.3g}")
    out = {"selective": {k: rnd(v) for k, v in sel.items()},
           "associative": {k: rnd(asc[k]) for k in ("bandwidth_efficiency", "elements_per_s", "overhead_us")},
           "associative_row_flops_per_s": rnd(asc["row"]),
           "source": "fitted by validation/gpu/h100-calib-i/fit_scan_i.py on batch i's fit half (H100 80GB HBM3, "
                     "ncu, L2 flushed): selective on mamba_ssm's selective_scan_fwd (state-spaces/mamba @ e9594ce, "
                     "built on the device; 5 cases), associative on torch.compile's Triton associative scans "
                     "(4 cases: add and the linear recurrence)"}
    print(json.dumps(out, indent=1))
    if a.write:
        for name in ("h100", "h100-measured"):
            path = os.path.join(ROOT, "src", "cost", "presets", name + ".json")
            j = json.load(open(path))
            j["model"]["scan"] = out
            with open(path, "w") as f:
                json.dump(j, f, indent=2, ensure_ascii=False)
                f.write("\n")
        with open(os.path.join(HERE, "fit_scan_i.json"), "w") as f:
            json.dump(out, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
