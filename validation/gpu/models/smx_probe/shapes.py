"""The shapes of the looped-softmax probe (VALIDATION.md §50) and their `.fgraph` files: the
scores of one sequence, `H` heads of `S` queries by `S` keys (f16), scaled and softmaxed
over the keys with or without the causal mask, as a prefill's attention writes them.

    python3 shapes.py --write DIR      # DIR/NAME.fgraph for every shape
    python3 shapes.py --predict FILE   # FILE: fgraph's price of each shape's kernel (CSV)

The probe (`smx_probe.py`) runs `fgraph emit torch` of each file, compiled. The masked
shapes test `families.softmax_looped` (fitted on rows of 2,048 only) with the rows padded
to a block of 2,048 columns; the unmasked ones are Inductor's other looped softmax, which
fgraph prices with PyTorch's `softmax` family: measured, not fitted on, for later.
"""
import csv, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
BIN = os.environ.get("FGRAPH", os.path.join(ROOT, "target", "release", "fgraph"))

MASKED = [(h, s) for s in (1152, 1280, 1536, 1792, 2048, 2304, 2560, 3072, 3584, 4096) for h in (8, 32)] \
    + [(16, 1536), (16, 2560), (24, 3072)]
UNMASKED = [(32, 1536), (32, 2048), (32, 3072), (32, 4096), (8, 2048)]
SHAPES = [(h, s, True) for h, s in MASKED] + [(h, s, False) for h, s in UNMASKED]


def name(h, s, masked):
    return f"smx_h{h}_s{s}_{'causal' if masked else 'plain'}"


def source(h, s, masked):
    causal = ", causal = true" if masked else ""
    return (f"// The looped-softmax probe: {h} heads of {s} × {s} scores (VALIDATION.md §50).\n"
            f"graph {name(h, s, masked)} {{\n"
            f"  input sc: f16[1, {h}, {s}, {s}]\n"
            f"  op scale = elementwise.mul(sc, 0.125) -> scs\n"
            f"  op softmax = reduction.softmax(scs, axis = -1{causal}) -> p\n"
            f"  output p\n}}\n")


def write(folder):
    os.makedirs(folder, exist_ok=True)
    for shape in SHAPES:
        with open(os.path.join(folder, name(*shape) + ".fgraph"), "w") as f:
            f.write(source(*shape))


def price(path):
    """fgraph's compiled kernel: (kernels, kernel µs of the softmax's kernel)."""
    r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--hardware", "h100",
                        "--runtime", "compile", "--launch", "graph", path], capture_output=True, text=True)
    ks = json.loads(r.stdout)["cost"]["runtime"]["per_kernel"]
    sm = [k for k in ks if k["family"] == "softmax"]
    return len(ks), sm[0]["kernel_us"]


def predict(out):
    import tempfile
    d = tempfile.mkdtemp()
    write(d)
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["case", "heads", "seq", "masked", "kernels", "predicted_us"])
        for h, s, m in SHAPES:
            n, us = price(os.path.join(d, name(h, s, m) + ".fgraph"))
            w.writerow([name(h, s, m), h, s, int(m), n, round(us, 2)])


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        write(sys.argv[2])
    elif sys.argv[1] == "--predict":
        predict(sys.argv[2])
