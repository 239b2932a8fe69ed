#!/usr/bin/env python3
"""Writes a model of about N ops written with one `repeat` (for docs/ROBUSTNESS.md and
docs/PERFORMANCE.md): the Llama-3 decoder layer of examples/llama3_8b.fgraph (39 ops, with
its nested RoPE and FFN blocks from examples/lib/llama3.fgraph, copied in so that the file
imports nothing), repeated N // 39 times at S = 16 tokens.

    python3 scripts/gen_repeat.py 1000000 > /tmp/r1m.fgraph     # 25,641 layers, 999,999 ops
    python3 scripts/gen_repeat.py 2097152 > /tmp/r2m.fgraph     # 53,773 layers, the ops limit
"""
import os
import sys

OPS_PER_LAYER = 39
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
n = int(sys.argv[1])
out = sys.stdout
with open(os.path.join(root, "lib", "llama3.fgraph")) as f:
    out.write("".join(l for l in f if not l.startswith("import")))
with open(os.path.join(root, "llama3_8b.fgraph")) as f:
    text = f.read()
start = text.index("block decoder")
out.write("\n" + text[start : text.index("\n}\n", start) + 3])
layers = n // OPS_PER_LAYER
out.write(
    "\ngraph g {\n  param S = 16\n  dtype bf16\n  input x: [S, 4096]\n  input cos: [S, 128]\n"
    f"  input sin: [S, 128]\n  repeat {layers} layers = decoder(x, cos, sin, S = S) -> h\n"
    "  output h\n}\n"
)
