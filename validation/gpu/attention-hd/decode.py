"""Decode attention on few (batch × head) blocks (issue 26's TP-4 step, issue 24): does
`F.scaled_dot_product_attention` with q `[B, H, G, 128]` (G query rows per key/value head: a
grouped-query decode as tp_decode.py writes it) against a cache `[B, H, T, 128]` stream the
cache at the rate fgraph prices, when B · H is far below the 132 SMs?

    cargo build --release
    python3 validation/gpu/attention-hd/decode.py --predict        # predictions_decode.json (commit it)
    # device (nvidia-h100-x1): python3 validation/gpu/attention-hd/decode.py --measure $OUT
    python3 validation/gpu/attention-hd/decode.py --compare DIR     # the table
    # add `--set 2` to each for the second set (CASES2, predictions_decode2.json), held out
    # from the query-block rule the first set led to

Measured by hd.py's `time_and_trace` (the median of 5 runs of 20 back-to-back calls between CUDA events;
one call's kernels from the profiler). Compared: fgraph's `kernel_us` for the one `attention`
op (`analyze --traffic-model hardware --hardware h100`) against the call's kernels summed
(a split-KV kernel's combine kernel included), target ±20% over 20 µs.
"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hd  # noqa: E402  (time_and_trace: hd.py's timing and profile of one call)
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
D = 128
CASES = [(f"dec_b{b}_h{h}_g{g}_t{t}", b, h, g, t)
         for (b, h) in ((1, 2), (4, 2), (8, 2), (1, 8), (4, 8), (16, 8), (32, 8), (64, 8))
         for g in (1, 8) for t in (4096, 8192, 32768)]
# The second set (`--set 2`, predictions_decode2.json): held out from the query-block rule
# that the first set led to (src/cost/hwmodel/matmul.rs, `QUERY_BLOCK`): 2 to 64 query rows,
# head dims 64 and 128, f16, 2,048 and 16,384 keys, 1 to 96 blocks.
CASES2 = [(f"dec2_b{b}_h{h}_g{g}_d{d}_t{t}", b, h, g, t, d)
          for (b, h, g, d) in ((1, 4, 2, 128), (2, 4, 4, 128), (3, 8, 16, 64), (6, 8, 32, 128), (12, 8, 64, 64),
                               (1, 1, 8, 128), (2, 16, 4, 64), (24, 4, 4, 128))
          for t in (2048, 16384)]


def cases(second):
    return [c if len(c) == 6 else (*c, D) for c in (CASES2 if second else CASES)]


def text(name, b, h, g, t, d=D, dt="bf16"):
    return (f"// {name}: validation/gpu/attention-hd/decode.py\ngraph {name} {{\n  dtype {dt}\n"
            f"  input q: [{b}, {h}, {g}, {d}]\n  input k: [{b}, {h}, {t}, {d}]\n  input v: [{b}, {h}, {t}, {d}]\n"
            f"  op attn = attention(q, k, v) -> o\n  output o\n}}\n")


def predict(second=False):
    fgraph = os.path.join(ROOT, "target", "release", "fgraph")
    folder = os.path.join(HERE, "graphs_decode2" if second else "graphs_decode")
    os.makedirs(folder, exist_ok=True)
    out = dict(what="fgraph's attention kernel per decode case, made before the measurement",
               made_by="validation/gpu/attention-hd/decode.py --predict", cases={})
    for c in cases(second):
        path = os.path.join(folder, c[0] + ".fgraph")
        with open(path, "w") as fh:
            fh.write(text(*c, dt="f16" if second else "bf16"))
        r = subprocess.run([fgraph, "analyze", os.path.relpath(path, ROOT), "--traffic-model", "hardware",
                            "--hardware", "h100", "--format", "json"], capture_output=True, text=True, cwd=ROOT,
                           check=True)
        hm = json.loads(r.stdout)["cost"]["hardware_model"]
        out["cases"][c[0]] = dict(kernel_us=round(hm["kernel_us"], 3), dram_read=hm["dram_read"],
                                  families=[k["family"] for k in hm["kernels"]])
        print(f"{c[0]:28} {hm['kernel_us']:9.2f} µs")
    with open(os.path.join(HERE, "predictions_decode2.json" if second else "predictions_decode.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


def measure(out, second=False):
    import torch
    import torch.nn.functional as F
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "env.txt"), "w") as fh:
        fh.write(f"{torch.cuda.get_device_name(0)}\ntorch {torch.__version__} cuda {torch.version.cuda} "
                 f"cudnn {torch.backends.cudnn.version()}\n")
    rows, kern = [], []
    dt = torch.float16 if second else torch.bfloat16
    for name, b, h, g, t, d in cases(second):
        q = torch.randn(b, h, g, d, device="cuda", dtype=dt)
        k, v = (torch.randn(b, h, t, d, device="cuda", dtype=dt) for _ in range(2))
        call_us, ks = hd.time_and_trace(lambda q=q, k=k, v=v: F.scaled_dot_product_attention(q, k, v))
        main = max(ks, key=lambda x: x[1]) if ks else ("none", 0.0)
        rows.append(dict(case=name, call_us=call_us,
                         kernels_us=round(sum(x[1] for x in ks), 3), main_us=round(main[1], 3),
                         kernels=len(ks), main_kernel=main[0][:150]))
        kern += [dict(case=name, index=i, name=n[:150], duration_us=round(d, 3)) for i, (n, d) in enumerate(ks)]
        print(rows[-1], flush=True)
        del q, k, v
    for fname, data in (("measured_decode.csv", rows), ("kernels_decode.csv", kern)):
        with open(os.path.join(out, fname), "w", newline="") as fh:
            w = csv.DictWriter(fh, list(data[0]))
            w.writeheader()
            w.writerows(data)


def compare(folder, second=False):
    pred = json.load(open(os.path.join(HERE, "predictions_decode2.json" if second else "predictions_decode.json")))["cases"]
    meas = {r["case"]: r for r in csv.DictReader(open(os.path.join(folder, "measured_decode.csv")))}
    ok = n = 0
    print(f"{'case':28} {'pred µs':>9} {'meas µs':>9} {'err':>8}  kernels")
    for name, *_ in cases(second):
        p, m = pred[name]["kernel_us"], float(meas[name]["kernels_us"])
        e = p / m - 1
        if m > 20:
            n += 1
            ok += abs(e) <= 0.20
        print(f"{name:28} {p:9.1f} {m:9.1f} {e:+8.1%}{'' if abs(e) <= 0.20 or m <= 20 else ' ✗'}  "
              f"{meas[name]['kernels']} {meas[name]['main_kernel'][:60]}")
    print(f"within ±20% (over 20 µs): {ok} of {n}")


if __name__ == "__main__":
    second = "--set" in sys.argv and sys.argv[sys.argv.index("--set") + 1] == "2"
    if "--predict" in sys.argv:
        predict(second)
    elif "--measure" in sys.argv:
        measure(sys.argv[sys.argv.index("--measure") + 1], second)
    elif "--compare" in sys.argv:
        compare(sys.argv[sys.argv.index("--compare") + 1], second)
    else:
        sys.exit(__doc__)
