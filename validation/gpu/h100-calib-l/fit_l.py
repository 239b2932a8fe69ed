"""Batch l's refit (issue 23 item 7): what batch k's held-out half (docs/VALIDATION.md §31)
found of its refit of top-k and Inductor's split scan, fitted on every case measured so far;
batch l (calib_l.py, all held out) checks it.

    python3 validation/gpu/h100-calib-l/fit_l.py [--write]
        # prints each family's fit, case by case; --write puts the coefficients into the H100
        # presets (h100, h100-measured, h100-2x8) and fit_routing_l.json, fit_scan_l.json

- top-k, 33 cases (batches h, i and k, both halves of each; batch k's 512 experts over 4,096
  rows ran PyTorch's multi-block radix select, 13 kernels, and is left out): `gatherTopK`
  reads a row a warp at a time, so its time per row steps with `ceil(E / 32)` (40 and 60
  experts cost what 64 do: batch k's −23% at 40): `overhead + rows · max(1 / rows_per_s,
  32 · ceil(E / 32) / elements_per_s) + rows · k / kept_per_s`; the sort as batch k fitted it.
- the split scan, 9 cases (batch i's two, batch k's seven): the blocks that wait on one
  another are the blocks of a row, or, when a row has more blocks than the GPU holds, every
  block after them in launch order (batch k's 8 rows of 2M took what one row of 16M did):
  `chain = all blocks · min(1, blocks per row / resident_blocks)`, `overhead + max(bytes /
  (bw · bandwidth_efficiency), chain_overhead_us + chain · block_us)` (one row of 1M, 512
  blocks, took 15.5 µs: a chain has a fixed cost too).
"""
import argparse
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-k"))
import fit_k as K  # noqa: E402

ROOT = K.ROOT
PRESETS = K.PRESETS
SOURCE = "validation/gpu/h100-calib-l/fit_l.py"
CHUNK = 32
RUNS = (("h100-calib-h", ("fit", "heldout")), ("h100-calib-i", ("fit", "heldout")), ("h100-calib-k", ("heldout",)))


def fit_topk():
    G = []
    for folder, parts in RUNS:
        for part in parts:
            for name, (c, rs) in K.kernels(folder, part, "topk").items():
                if any("computeBlockDigitCounts" in r["name"] for r in rs):
                    continue  # the multi-block radix select
                T, E = c["shapes"]["x"]
                G.append((name, T, E, c["params"]["k"], K.us(rs, lambda r: "gatherTopK" in r["name"]),
                          K.us(rs, lambda r: "bitonicSort" in r["name"])))
    T, E, Kk, t = (np.array([g[i] for g in G], float) for i in (1, 2, 3, 4))
    W = np.ceil(E / CHUNK) * CHUNK

    def gather(o, row_ns, el_ns, kept_ns, T=T, W=W, Kk=Kk):
        return o + T * np.maximum(row_ns, W * el_ns) * 1e-3 + T * Kk * kept_ns * 1e-3

    o, row_ns, el_ns, kept_ns = K.grid_min(
        lambda *p: np.sum(np.log(gather(*p) / t) ** 2),
        np.linspace(3, 8, 21), np.linspace(0.5, 1.6, 23), np.linspace(0.030, 0.050, 41), np.linspace(0, 0.12, 25))
    S = [(g[1], g[5]) for g in G if g[3] > 1]
    ST, st = np.array([s[0] for s in S], float), np.array([s[1] for s in S], float)
    (so, sr_ns), *_ = np.linalg.lstsq(np.stack([np.ones(len(S)), ST], 1) / st[:, None], np.ones(len(S)), rcond=None)
    sr_ns *= 1e3
    print(f"top-k: gather {o:.2f} µs + rows · max({row_ns:.3f} ns, 32·ceil(E/32) · {el_ns:.4f} ns) + rows · k · "
          f"{kept_ns:.3f} ns; sort {so:.2f} µs + rows · {sr_ns:.3f} ns ({len(G)} cases, {len(S)} sorts)")
    worst = []
    for name, T_, E_, k_, g_, s_ in G:
        pg = gather(o, row_ns, el_ns, kept_ns, T_, math.ceil(E_ / CHUNK) * CHUNK, k_)
        ps = so + T_ * sr_ns * 1e-3 if k_ > 1 else 0.0
        e = (pg + ps) / (g_ + s_) - 1
        worst.append(abs(e))
        print(f"  {name[:60]:60} gather {pg:6.1f}/{g_:6.1f}  sort {ps:5.1f}/{s_:5.1f}  call {e:+6.1%}")
    print(f"  worst call error {max(worst):.1%}; within ±10%: {sum(w <= 0.1 for w in worst)} of {len(worst)}")
    return dict(overhead_us=round(float(o), 2), rows_per_s=float(f"{1e9 / row_ns:.3g}"),
                elements_per_s=float(f"{1e9 / el_ns:.3g}"), kept_per_s=float(f"{1e9 / kept_ns:.3g}"),
                sort_overhead_us=round(float(so), 2), sort_rows_per_s=float(f"{1e9 / sr_ns:.3g}"), row_chunk=float(CHUNK))


def fit_split_scan(preset):
    bw = preset["bandwidth_tb_s"] * 1e12
    pts = []
    for folder, parts in RUNS[1:]:
        for part in parts:
            for name, (c, rs) in K.kernels(folder, part, "assoc_scan").items():
                if any("triton_spl" in r["name"] for r in rs):
                    R, L = c["shapes"]["x"]
                    pts.append((name, R, L, c["read"] + c["write"], K.us(rs, lambda r: "triton_spl" not in r["name"]),
                                K.us(rs)))
    block = 2048.0
    o = round(float(np.mean([p[4] for p in pts])), 2)  # the flags' zeroing kernel
    R, L, B, t = (np.array([p[i] for p in pts], float) for i in (1, 2, 3, 5))
    per_row = np.ceil(L / block)

    def model(be, bus, res, co):
        chain = R * per_row * np.minimum(1.0, per_row / res)
        return o + np.maximum(B / (bw * be) * 1e6, co + chain * bus)

    be, bus, res, co = K.grid_min(lambda *p: np.sum(np.log(model(*p) / t) ** 2),
                                  np.linspace(0.4, 0.7, 31), np.linspace(0.012, 0.024, 49), np.linspace(64, 528, 30),
                                  np.linspace(0, 10, 21))
    print(f"split scan: bandwidth_efficiency {be:.3f}, block_us {bus:.4f}, resident_blocks {res:.0f}, "
          f"chain_overhead_us {co:.1f}, overhead {o} µs")
    for p, pp in zip(pts, model(be, bus, res, co)):
        print(f"  {p[0][:60]:60} {pp:7.1f} / {p[5]:7.1f} µs {pp / p[5] - 1:+6.1%}")
    return dict(bandwidth_efficiency=round(float(be), 3), block_us=round(float(bus), 4), block_elements=block,
                overhead_us=o, resident_blocks=float(round(res)), chain_overhead_us=round(float(co), 2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    preset = json.load(open(PRESETS[0]))
    topk = fit_topk()
    split = fit_split_scan(preset)
    if not a.write:
        return
    for path in PRESETS:
        j = json.load(open(path))
        m = j["model"]
        r = m["routing"]
        r["topk"]["overhead_us"] = topk["overhead_us"]
        r["topk"]["elements_per_s"] = topk["elements_per_s"]
        r["topk_rows"].update({k: v for k, v in topk.items() if k not in ("overhead_us", "elements_per_s")})
        r["source"] = r["source"].split(", then by validation/gpu/h100-calib-k")[0] + (
            ", then by validation/gpu/h100-calib-k/fit_k.py and " + SOURCE +
            " (gatherTopK and the sort per kernel, batches h, i and k)")
        sc = m["scan"]
        source = sc.pop("source").split("; associative_split")[0] + (
            "; associative_split (Inductor's split scan) fitted by " + SOURCE + " on batches i and k")
        sc["associative_split"] = split
        sc["source"] = source
        with open(path, "w") as f:
            json.dump(j, f, indent=2, ensure_ascii=False)
            f.write("\n")
    m = json.load(open(PRESETS[0]))["model"]
    for key in ("routing", "scan"):
        with open(os.path.join(HERE, f"fit_{key}_l.json"), "w") as f:
            json.dump(m[key], f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
