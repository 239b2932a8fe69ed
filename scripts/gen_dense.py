#!/usr/bin/env python3
"""Writes a dense graph as .fgraph source: the reproducer of the plan-search work bound
(docs/PERFORMANCE.md, "Plan-search work"; docs/language.md §13).

    python3 scripts/gen_dense.py layered 20 100 > /tmp/layered.fgraph
    python3 scripts/gen_dense.py shared 300 300 > /tmp/shared.fgraph
    python3 scripts/gen_dense.py chain 3000 50 > /tmp/chain.fgraph

Shapes:
- `layered A B`: A layers of B ops, each adding every tensor of the layer before (the first
  layer reads the input); the last layer's tensors are outputs. A·B ops, about A·B² edges.
- `shared A B`: A ops reading the input, then B ops each adding all A of their tensors.
- `chain A B`: A ops in a row, each adding the last B tensors made.
"""
import sys

if len(sys.argv) != 4 or sys.argv[1] not in ("layered", "shared", "chain"):
    sys.exit("usage: gen_dense.py layered|shared|chain A B")
shape, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = sys.stdout


def op(name, args, result):
    kind = "add" if len(args) > 1 else "relu"
    out.write(f"  op {name} = elementwise.{kind}({', '.join(args)}) -> {result}\n")


out.write("graph dense {\n  dtype f16\n  input x: [256, 256]\n")
if shape == "layered":
    prev = ["x"]
    for l in range(a):
        cur = []
        for i in range(b):
            op(f"l{l}_{i}", prev, f"tl{l}_{i}")
            cur.append(f"tl{l}_{i}")
        prev = cur
    out.write(f"  output {', '.join(prev)}\n")
elif shape == "shared":
    for i in range(a):
        op(f"s{i}", ["x"], f"s{i}t")
    shared = [f"s{i}t" for i in range(a)]
    for j in range(b):
        op(f"r{j}", shared, f"r{j}t")
    out.write(f"  output {', '.join(f'r{j}t' for j in range(b))}\n")
else:
    made = ["x"]
    for i in range(a):
        op(f"c{i}", made[-b:], f"c{i}t")
        made.append(f"c{i}t")
    out.write(f"  output {made[-1]}\n")
out.write("}\n")
