#!/usr/bin/env python3
"""Writes a chain of N elementwise ops as .fgraph source (for docs/PERFORMANCE.md).

    python3 scripts/gen_chain.py 1000000 > /tmp/chain1000000.fgraph
"""
import sys

n = int(sys.argv[1])
out = sys.stdout
out.write("graph chain {\n  dtype f16\n  input t0: [1024, 1024]\n")
for i in range(1, n + 1):
    out.write(f"  op o{i} = elementwise.relu(t{i - 1}) -> t{i}\n")
out.write("}\n")
