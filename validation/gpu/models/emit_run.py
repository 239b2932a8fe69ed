"""Runs `fgraph emit torch` modules for real on a CUDA GPU: each module's `Graph` built on the
GPU, its forward run once on its own random inputs, every output checked against OUTPUTS
(shape and dtype). CI runs the modules on PyTorch's meta device only (tests/emit_torch.rs):
this finds what only a real kernel refuses (cuBLASLt's int8 GEMM refused `torch._int_mm` on
16 rows, VALIDATION.md §59).

    for f in examples/*.fgraph tests/fixtures/emit/every_op.fgraph; do
        target/release/fgraph emit torch $f -o emitted_all/$(basename $f .fgraph).py; done
    python3 validation/gpu/models/emit_run.py emitted_all/*.py

Prints `OK name outputs` or the error's traceback per module; exits 1 if any failed."""
import importlib.util
import os
import sys
import traceback

import torch


def run(path):
    spec = importlib.util.spec_from_file_location("emitted", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    g = m.Graph(device="cuda")
    gen = torch.Generator(device="cuda")
    ins = [m._random(s["shape"], s["dtype"], "cuda", gen) for s in m.INPUTS]
    with torch.inference_mode():
        outs = g(*ins)
    torch.cuda.synchronize()
    outs = outs if isinstance(outs, tuple) else (outs,)
    assert len(outs) == len(m.OUTPUTS), ("outputs", len(outs), len(m.OUTPUTS))
    for s, o in zip(m.OUTPUTS, outs):
        assert tuple(o.shape) == s["shape"] and o.dtype == s["dtype"], (s, o.shape, o.dtype)
    return len(outs)


def main(paths):
    failed = 0
    for p in paths:
        name = os.path.basename(p)
        try:
            print(f"OK {name} {run(p)}", flush=True)
        except Exception:
            failed += 1
            print(f"FAILED {name}", flush=True)
            traceback.print_exc()
        torch.cuda.empty_cache()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
