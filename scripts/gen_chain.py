#!/usr/bin/env python3
"""Writes a chain of N ops as .fgraph source (for docs/PERFORMANCE.md).

    python3 scripts/gen_chain.py 1000000 > /tmp/chain1000000.fgraph
    python3 scripts/gen_chain.py 200000 add > /tmp/add200000.fgraph
    python3 scripts/gen_chain.py 200000 matmul > /tmp/mm200000.fgraph

Shapes: `relu` (the default) is a chain of one-input elementwise ops; `add` has every op also
read a bias `b`; `matmul` is the benchmark's graph (benches/pipeline.rs), every fourth op a
matmul against a weight `w`.
"""
import sys

n = int(sys.argv[1])
shape = sys.argv[2] if len(sys.argv) > 2 else "relu"
if shape not in ("relu", "add", "matmul"):
    sys.exit(f"unknown shape {shape!r}: relu, add or matmul")
out = sys.stdout
if shape == "matmul":
    out.write("graph bench {\n  param N = 1024\n  dtype f16\n  input t0: [N, N]\n  weight w: [N, N]\n")
else:
    out.write("graph chain {\n  dtype f16\n  input t0: [1024, 1024]\n")
if shape == "add":
    out.write("  weight b: [1024]\n")
for i in range(1, n + 1):
    if shape == "add":
        out.write(f"  op o{i} = elementwise.add(t{i - 1}, b) -> t{i}\n")
    elif shape == "matmul" and i % 4 == 0:
        out.write(f"  op o{i} = matmul(t{i - 1}, w) -> t{i}\n")
    else:
        out.write(f"  op o{i} = elementwise.relu(t{i - 1}) -> t{i}\n")
out.write("}\n")
