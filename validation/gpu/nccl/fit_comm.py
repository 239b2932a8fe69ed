"""Fits the interconnect's coefficients (issue 26) on the FIT half of the NCCL sizes measured on
one H100 x4 host (data/fit/nccl_w{2,4}_fit.csv, NCCL 2.28.9, NVLS off), and writes fgraph's
predictions for the HELD-OUT half (predictions_nccl.json) with the built binary.

    validation venv: python3 -m venv V && V/bin/pip install numpy scipy
    V/bin/python validation/gpu/nccl/fit_comm.py --fit [--write]   # --write: the H100 presets
    cargo build && python3 validation/gpu/nccl/fit_comm.py --predict   # predictions_nccl.json

The model is src/cost/comm.rs's, within one node (NVLS is off on these hosts: every collective
is predicted with `algorithm = ring`; all-to-all and send are direct):

    time = base_latency_us + steps · link_latency_us
         + max(bytes sent, received) / bus
    bus  = link_gb_s · bus_efficiency_c · (1 − group_loss_c / n) / (1 + (small_message_bytes / S)^small_message_exponent)

with the bytes and steps of comm.rs's table (all-reduce 2(n−1)/n·S and 2(n−1) steps;
all-gather, reduce-scatter, all-to-all (n−1)/n·S and n−1; broadcast S and n−1; send S and 1),
S nccl-tests' size, n the group, and `efficiency_c`, `group_loss_c` one pair per collective
(send's group_loss fixed at 0: a transfer between two GPUs whatever the group). Why this form:
with one efficiency for every collective (the draft of 2026-11-26) the 1 GiB sizes fit within
4-21% but all-gather and reduce-scatter move 268 GB/s of bus bandwidth on 2 GPUs and 325 on 4
where broadcast and send move 370 on both (group_loss), and the bus bandwidth keeps growing
from 16 MiB to 1 GiB (NCCL's protocols and channel counts), which a latency plus one bandwidth
cannot follow (the small-message term).

What is fitted, and against which timing: fgraph predicts the GPU time of a collective (launch
excluded), so each size is taken from the CUDA-graph rows (ITERS calls replayed from a graph:
no host time) where they exist (up to 64 MiB) and from the eager rows above (256 MiB, 1 GiB,
where the host's ~35 µs per call is hidden behind the transfer); send/recv has no graph rows
and its eager rows under 64 MiB are host-bound (35-120 µs for 1-4 MiB), so they are left out.
bf16, sizes from 16 KiB (the tensor-parallel decode step's all-reduces are 16-256 KiB), least
squares of the log error (scipy.optimize.least_squares).
"""
import argparse, csv, json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BIN = os.path.join(ROOT, "target", "debug", "fgraph")
LINK = 450e9


COLLS = ("all_gather", "all_reduce", "all_to_all", "broadcast", "reduce_scatter", "send")
MIN_SIZE = 16 * 1024


def timings(part):
    """{(collective, world, size): (time_us, mode)}: graph rows where measured, else eager."""
    got = {}
    for w in (2, 4):
        p = os.path.join(HERE, "data", part, f"nccl_w{w}_{part}.csv")
        if not os.path.exists(p):
            continue
        for r in csv.DictReader(open(p)):
            if r["status"] != "ok" or r["dtype"] != "bf16" or not r["time_us"]:
                continue
            c = "send" if r["collective"] == "send_recv" else r["collective"]
            got.setdefault((c, w, int(r["size_bytes"])), {})[r["mode"]] = float(r["time_us"])
    out = {}
    for k, m in got.items():
        if "graph" in m:
            out[k] = (m["graph"], "graph")
        elif k[0] == "send" and k[2] < 64 << 20:
            continue  # host-bound eager rows: not the GPU's time
        else:
            out[k] = (m["eager"], "eager")
    return out


def bytes_steps(c, n, S):
    if c == "all_reduce":
        return 2 * (n - 1) / n * S, 2 * (n - 1)
    if c in ("all_gather", "reduce_scatter", "all_to_all"):
        return (n - 1) / n * S, n - 1
    if c == "broadcast":
        return S, n - 1
    return S, 1  # send


def model(x, c, n, S):
    """x = [base, lat, S0 (MB), p, (eff, loss) per collective of COLLS but send's loss]."""
    base, lat, s0, p = x[:4]
    i = COLLS.index(c)
    eff = x[4 + i]
    loss = 0.0 if c == "send" else x[4 + len(COLLS) + i]
    b, k = bytes_steps(c, n, S)
    bus = LINK * eff * (1 - loss / n) / (1 + (abs(s0) * 1e6 / S) ** p)
    return base + k * lat + b / bus * 1e6


def fit():
    import numpy as np
    from scipy.optimize import least_squares
    pts = [(c, n, S, t, m) for (c, n, S), (t, m) in sorted(timings("fit").items()) if S >= MIN_SIZE]
    res = lambda x: [math.log(model(x, c, n, S) / t) for c, n, S, t, _ in pts]
    x0 = [10.0, 1.0, 5.0, 0.5] + [0.8] * len(COLLS) + [0.3] * len(COLLS)
    lo = [0.0, 0.0, 1e-3, 0.05] + [0.1] * len(COLLS) + [-1.0] * len(COLLS)
    hi = [50.0, 10.0, 1e3, 2.0] + [2.0] * len(COLLS) + [1.0] * len(COLLS)
    x = least_squares(res, x0, bounds=(lo, hi)).x
    err = np.exp(np.array(res(x))) - 1
    print(f"{len(pts)} fit rows: rms {np.sqrt(np.mean(err ** 2)):.1%}, worst {np.max(abs(err)):.1%}")
    for (c, n, S, t, m), e in zip(pts, err):
        print(f"  {c:15s} n={n} {S:>11d} B {m:5s} {model(x, c, n, S):9.1f} / {t:9.1f} µs {e:+6.1%}")
    r = lambda v, d=3: round(float(v), d)
    fitted = dict(base_latency_us=r(x[0], 2), link_latency_us=r(x[1]), small_message_bytes=float(round(abs(x[2]) * 1e6)),
                  small_message_exponent=r(x[3]),
                  collectives={c: dict(bus_efficiency=r(x[4 + i]),
                                       group_loss=0.0 if c == "send" else r(x[4 + len(COLLS) + i]))
                               for i, c in enumerate(COLLS)})
    print(json.dumps(fitted, indent=1))
    return fitted


def source(c, n, S, dt):
    e = 2
    if c == "all_gather":
        body = f"  input x: {dt}[{S // e // n}]\n  op c = all_gather(x, group = g, size = {n}, axis = 0, algorithm = ring) -> y\n"
    elif c == "reduce_scatter":
        body = f"  input x: {dt}[{S // e}]\n  op c = reduce_scatter(x, group = g, size = {n}, axis = 0, algorithm = ring) -> y\n"
    elif c == "all_reduce":
        body = f"  input x: {dt}[{S // e}]\n  op c = all_reduce(x, group = g, size = {n}, algorithm = ring) -> y\n"
    elif c == "all_to_all":
        body = f"  input x: {dt}[{S // e}]\n  op c = all_to_all(x, group = g, size = {n}) -> y\n"
    elif c == "broadcast":
        body = f"  input x: {dt}[{S // e}]\n  op c = broadcast(x, group = g, size = {n}) -> y\n"
    else:
        body = f"  input x: {dt}[{S // e}]\n  op c = send(x, group = g, size = {n}, peer = 1) -> y\n"
    return f"graph case {{\n{body}  output y\n}}\n"


def predict():
    preds = []
    seen = set()
    for r in rows_all_parts("heldout"):
        key = (r["collective"], r["dtype"], int(r["size_bytes"]), int(r["world"]))
        if key in seen or r["dtype"] != "bf16":
            continue
        seen.add(key)
        c, dt, S, n = key
        text = source(c, n, S, dt)
        with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as fh:
            fh.write(text)
            path = fh.name
        out = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--hardware", "h100",
                              path], capture_output=True, text=True)
        os.unlink(path)
        if out.returncode != 0:
            sys.exit(f"{key}: fgraph failed: {out.stdout[-400:]}{out.stderr[-400:]}")
        hm = json.loads(out.stdout)["cost"]["hardware_model"]
        # The GPU's time: compared with the CUDA-graph rows where measured (up to 64 MiB;
        # send/recv has none), the eager rows above.
        mode = "graph" if S <= 64 << 20 and c != "send_recv" else "eager"
        preds.append(dict(collective=c, dtype=dt, size_bytes=S, world=n, mode=mode,
                          time_us=round(hm["kernel_us"], 3), fgraph=text))
    return preds


def rows_all_parts(part):
    """The held-out plan: nccl_bench.py's sizes of the part (no measurement needed)."""
    sys.path.insert(0, HERE)
    import nccl_bench as B  # noqa: E402  (its plan needs no torch)
    plan = []
    for n in (2, 4):
        for c in B.cases(n, part, dtypes=("bf16",)):
            plan.append(dict(collective=c["collective"], dtype=c["dtype"], size_bytes=c["size"], world=n))
    return plan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--predict", action="store_true")
    a = ap.parse_args()
    if a.fit:
        fitted = fit()
        if a.write:
            for name in ("h100", "h100-measured", "h100-2x8"):
                path = os.path.join(ROOT, "src", "cost", "presets", name + ".json")
                j = json.load(open(path))
                ic = j.get("interconnect")
                if not ic:
                    continue
                keys = list(ic)
                ic.update(fitted)
                # comm.rs's field order (`fgraph hardware NAME --format json` is canonical).
                order = keys[:keys.index("link_efficiency") + 1] + ["collectives", "small_message_bytes",
                        "small_message_exponent"] + [k for k in keys[keys.index("link_efficiency") + 1:]
                                                     if k not in ("collectives", "small_message_bytes",
                                                                  "small_message_exponent")]
                j["interconnect"] = {k: ic[k] for k in order}
                with open(path, "w") as f:
                    json.dump(j, f, indent=2, ensure_ascii=False)
                    f.write("\n")
    if a.predict:
        preds = predict()
        out = dict(what="fgraph's predictions for the held-out NCCL sizes (bf16, eager timing, worlds 2 and 4), "
                        "made before they are measured: kernel time (µs, launch excluded) of a one-op graph under "
                        "--traffic-model hardware on the h100 preset, ring algorithm (NVLS off on these hosts)",
                   made_by="validation/gpu/nccl/fit_comm.py --predict",
                   collectives=preds, steps=[])
        with open(os.path.join(HERE, "predictions_nccl.json"), "w") as fh:
            json.dump(out, fh, indent=1)
            fh.write("\n")
        print(len(preds), "predictions")


if __name__ == "__main__":
    main()
