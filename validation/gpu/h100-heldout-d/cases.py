"""Held-out batch d for fgraph's hardware model (issue 11): random shapes nobody tuned to.

Parts (each case's `part`):
  heldout  ~50 GEMMs (M, N, K log-uniform, f16/bf16, some batched), ~25 memory-bound kernels
           (add, mul, GELU, SiLU, row sum, softmax, LayerNorm, RMSNorm), 8 attention shapes
           through F.scaled_dot_product_attention with PyTorch's default backend (cuDNN on H100)
  fit      TF32 matmuls, LayerNorm/RMSNorm, softmax over long rows, FlashAttention-2 forced:
           data for the model's next terms (not scored as held-out)
  layers   the 7 layers of validation/inductor/measure_heldout.py, compiled (torch.compile
           default mode, as measure_heldout.py does) and eager, each kernel labelled with the
           fgraph op(s) it computes

The method is ../h100-calib-c/calib_c.py's: every case is warmed up (3 calls), then, under
Nsight Compute (--cache-control all --clock-control none, run_d.sh), run once more inside its
own cudaProfilerStart/Stop region that begins with a `spin_kernel` marker
(torch.cuda._sleep), so the ncu CSV splits into cases (../h100-calib/summarize.py's `parse`).

  python3 cases.py --list               # print the cases (no GPU, no torch needed)
  python3 cases.py --graphs DIR         # write one .fgraph per heldout/fit case (no GPU)
  python3 cases.py --profile            # the ncu pass over heldout + fit cases (regions only)
  python3 cases.py --layers-prep OUT    # layers, no ncu: compile (fills Inductor's cache),
                                        # output code, eager kernel labels (torch.profiler)
  python3 cases.py --layers-profile     # the ncu pass over the layers (regions only)
"""
import argparse
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "tf32": 4}
SEED = 20261125
MB = 1e6


def logu(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def gemm_case(part, i, dt, B, M, K, N, family="gemm"):
    e = BYTES[dt]
    return dict(part=part, case=f"{part}_{i:03d}_{family}_{dt}_{B}x{M}x{K}x{N}", kind="matmul",
                family=family, dtype=dt, B=B, M=M, K=K, N=N, rows=0, cols=0, causal=0,
                read=B * (M * K + K * N) * e, write=B * M * N * e, flops=2 * B * M * N * K)


def mem_case(part, i, op, dt, rows, cols):
    e = BYTES[dt]
    n = rows * cols * e
    read = {"add": 2 * n, "mul": 2 * n, "layernorm": n + 2 * cols * e, "rmsnorm": n + cols * e}.get(op, n)
    write = rows * e if op == "sum" else n
    return dict(part=part, case=f"{part}_{i:03d}_{op}_{dt}_{rows}x{cols}", kind="memory", family=op,
                dtype=dt, B=0, M=0, K=0, N=0, rows=rows, cols=cols, causal=0, read=read, write=write,
                flops=rows * cols)


def attn_case(part, i, backend, dt, B, H, S, D, causal):
    e = BYTES[dt]
    return dict(part=part, case=f"{part}_{i:03d}_attn_{backend}_{dt}_{B}x{H}x{S}x{D}{'_causal' if causal else ''}",
                kind="attention", family=backend, dtype=dt, B=B, M=S, K=D, N=H, rows=0, cols=0,
                causal=int(causal), read=3 * B * H * S * D * e, write=B * H * S * D * e,
                flops=4 * B * H * S * S * D // (2 if causal else 1))


def make_cases():
    rng = random.Random(SEED)
    cases = []
    # --- heldout GEMMs: 50, 10 batched, 12 decode-ish (M <= 64), 16 with a 20-60 MB working set
    for i in range(50):
        dt = rng.choice(["f16", "bf16"])
        batched = i % 5 == 4
        decode = i % 4 == 1
        dense = i % 3 == 0 and not batched
        while True:
            B = int(round(logu(rng, 2, 64))) if batched else 1
            M = int(round(logu(rng, 1, 64))) if decode else int(round(logu(rng, 64, 16384)))
            N = int(round(logu(rng, 256, 32768)))
            K = int(round(logu(rng, 64, 16384)))
            if rng.random() < 0.6:  # most real shapes are multiples of 8 (f16 alignment)
                N, K = max(8, N // 8 * 8), max(8, K // 8 * 8)
                M = M if M < 8 else M // 8 * 8
            ws = B * (M * K + K * N + M * N) * BYTES[dt]
            lo, hi = (20 * MB, 60 * MB) if dense else (1 * MB, 2000 * MB)
            if lo <= ws <= hi:
                break
        cases.append(gemm_case("heldout", len(cases), dt, B, M, K, N))
    # --- heldout memory-bound: 25 kernels, 1 MB - 1 GB of input
    ops = ["add", "mul", "gelu", "silu", "sum", "softmax", "layernorm", "rmsnorm"]
    for j in range(25):
        op = ops[j % len(ops)]
        dt = rng.choice(["f16", "bf16", "f32"])
        size = logu(rng, 1 * MB, 1000 * MB)
        if op == "softmax":
            cols = max(128, int(round(logu(rng, 128, 16384))) // 8 * 8)
        elif op in ("sum", "layernorm", "rmsnorm"):
            cols = int(round(logu(rng, 256, 16384))) // 64 * 64
        else:
            cols = int(round(logu(rng, 512, 8192))) // 8 * 8
        rows = max(1, int(size / (cols * BYTES[dt])))
        cases.append(mem_case("heldout", len(cases), op, dt, rows, cols))
    # --- heldout attention: 8, default backend (cuDNN on H100)
    for j in range(8):
        dt = rng.choice(["f16", "bf16"])
        S = int(round(logu(rng, 512, 8192))) // 128 * 128
        D = rng.choice([64, 128])
        H = rng.choice([8, 12, 16, 24, 32])
        B = rng.choice([1, 1, 2, 4])
        causal = j % 3 == 1
        cases.append(attn_case("heldout", len(cases), "default", dt, B, H, S, D, causal))
    # --- fit: TF32 matmuls
    for M, K, N in [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
                    (2048, 4096, 4096), (4096, 4096, 14336), (4096, 14336, 4096), (8192, 4096, 1024)]:
        cases.append(gemm_case("fit", len(cases), "tf32", 1, M, K, N, family="tf32"))
    # --- fit: LayerNorm and RMSNorm, 8 MB - 1 GB, dense around 50 MB
    for j in range(12):
        op = ["layernorm", "rmsnorm"][j % 2]
        dt = ["f16", "bf16", "f32"][(j // 2) % 3]
        cols = rng.choice([1024, 2048, 3072, 4096, 5120, 8192])
        size = logu(rng, 25 * MB, 100 * MB) if j % 3 != 2 else logu(rng, 8 * MB, 1000 * MB)
        rows = max(1, int(size / (cols * BYTES[dt])))
        cases.append(mem_case("fit", len(cases), op, dt, rows, cols))
    # --- fit: softmax over long rows
    for j in range(8):
        dt = ["f16", "bf16", "f32"][j % 3]
        cols = rng.choice([16384, 32768, 65536, 131072, 262144])
        size = logu(rng, 8 * MB, 512 * MB)
        rows = max(1, int(size / (cols * BYTES[dt])))
        cases.append(mem_case("fit", len(cases), "softmax", dt, rows, cols))
    # --- fit: FlashAttention-2 forced
    for j in range(8):
        dt = rng.choice(["f16", "bf16"])
        S = int(round(logu(rng, 512, 8192))) // 128 * 128
        D = rng.choice([64, 128])
        H = rng.choice([8, 12, 16, 32])
        B = rng.choice([1, 2])
        causal = j % 3 == 2
        cases.append(attn_case("fit", len(cases), "flash", dt, B, H, S, D, causal))
    return cases


CASES = make_cases()
LAYERS = ["qwen_layer", "vit_block", "bert_layer", "llama_decode", "moe_dense", "t5_layer", "ce_head"]

# ------------------------------------------------------------------------------------------
# fgraph graphs of the single-kernel cases


def fgraph_text(c):
    dt = c["dtype"]
    head = f"// held-out batch d, part {c['part']}: {c['case']} (validation/gpu/h100-heldout-d/cases.py)\n"
    if c["kind"] == "matmul":
        B, M, K, N = c["B"], c["M"], c["K"], c["N"]
        bd = f"{B}, " if B > 1 else ""
        body = (f"  input a: [{bd}{M}, {K}]\n  input b: [{bd}{K}, {N}]\n"
                f"  op mm = matmul(a, b) -> c: [{bd}{M}, {N}]\n  output c\n")
    elif c["kind"] == "attention":
        BH, S, D = c["B"] * c["N"], c["M"], c["K"]
        body = (f"  input q: [{BH}, {S}, {D}]\n  input k: [{BH}, {S}, {D}]\n  input v: [{BH}, {S}, {D}]\n"
                "  // fgraph: allow(large-intermediate)\n"
                f"  op scores = matmul(q, k.T) -> s: [{BH}, {S}, {S}]\n"
                "  // fgraph: allow(large-intermediate)\n"
                f"  op softmax = reduction.softmax(s, axis = -1) -> p: [{BH}, {S}, {S}]\n"
                f"  op pv = matmul(p, v) -> o: [{BH}, {S}, {D}]\n  output o\n")
    else:
        R, C, op = c["rows"], c["cols"], c["family"]
        x = f"  input x: [{R}, {C}]\n"
        body = {
            "add": x + f"  input y: [{R}, {C}]\n  op add = elementwise.add(x, y) -> z\n  output z\n",
            "mul": x + f"  input y: [{R}, {C}]\n  op mul = elementwise.mul(x, y) -> z\n  output z\n",
            "gelu": x + "  op gelu = elementwise.gelu(x) -> z\n  output z\n",
            "silu": x + "  op silu = elementwise.silu(x) -> z\n  output z\n",
            "sum": x + f"  op sum = reduction.sum(x, axis = -1) -> z: [{R}, 1]\n  output z\n",
            "softmax": x + f"  op softmax = reduction.softmax(x, axis = -1) -> z: [{R}, {C}]\n  output z\n",
            "layernorm": x + f"  weight w: [{C}]\n  weight bias: [{C}]\n"
                         f"  op layernorm = reduction.layernorm(x, w, bias, axis = -1) -> z: [{R}, {C}]\n  output z\n",
            "rmsnorm": x + f"  weight w: [{C}]\n"
                       f"  op rmsnorm = reduction.rmsnorm(x, w, axis = -1) -> z: [{R}, {C}]\n  output z\n",
        }[op]
    return head + f"graph {c['case']} {{\n  dtype {dt}\n\n" + body + "}\n"


# ------------------------------------------------------------------------------------------
# PyTorch side


def build(c):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "tf32": torch.float32}[c["dtype"]]

    def r(*s):
        return torch.randn(*s, device="cuda", dtype=dt) * 0.5

    if c["kind"] == "attention":
        B, H, S, D = c["B"], c["N"], c["M"], c["K"]
        q, k, v = (r(B, H, S, D) for _ in range(3))
        causal = bool(c["causal"])
        if c["family"] == "flash":
            def f():
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        else:
            def f():
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return f
    if c["kind"] == "matmul":
        B, M, K, N = c["B"], c["M"], c["K"], c["N"]
        a, b = (r(M, K), r(K, N)) if B == 1 else (r(B, M, K), r(B, K, N))
        mm = torch.mm if B == 1 else torch.bmm
        tf = c["dtype"] == "tf32"

        def f():
            torch.backends.cuda.matmul.allow_tf32 = tf
            return mm(a, b)
        return f
    R, C, op = c["rows"], c["cols"], c["family"]
    x = r(R, C)
    y = r(R, C) if op in ("add", "mul") else None
    w, bias = 1.0 + r(C), r(C)
    return {
        "add": lambda: x + y,
        "mul": lambda: x * y,
        "gelu": lambda: F.gelu(x),
        "silu": lambda: F.silu(x),
        "sum": lambda: x.sum(-1, keepdim=True),
        "softmax": lambda: torch.softmax(x, dim=-1),
        "layernorm": lambda: F.layer_norm(x, (C,), w, bias),
        "rmsnorm": lambda: F.rms_norm(x, (C,), w),
    }[op]


def region(torch, fn):
    """One profiler region: the marker, then fn."""
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    torch.cuda._sleep(1000)
    fn()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


def profile_cases():
    import torch
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    for i, c in enumerate(CASES):
        try:
            f = build(c)
            with torch.no_grad():
                for _ in range(3):
                    f()
                region(torch, f)
            print("profiled", i, c["case"], flush=True)
            del f
        except Exception as ex:  # noqa: BLE001
            print("FAILED", i, c["case"], repr(ex)[:300], flush=True)
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.cuda.empty_cache()


# ------------------------------------------------------------------------------------------
# Layers: measure_heldout.py's graphs (imported, not copied)


def layer_fns():
    sys.path.insert(0, os.path.join(HERE, "..", "..", "inductor"))
    import measure_heldout as MH  # noqa: F401  (registers the held-out graphs)
    import measure as M
    import torch
    import torch._inductor.config as ic

    ic.triton.cudagraphs = False  # as measure_heldout.py
    return M, torch


def layer_inputs(M, torch, name):
    """measure.py's `measure`: the same seeded inputs."""
    gen = torch.Generator(device="cpu").manual_seed(0)

    def r(*shape, dtype=M.F16, std=0.05):
        return (torch.randn(*shape, generator=gen, dtype=torch.float32) * std).to("cuda", dtype)

    f, ins = M.GRAPHS[name](r, False)
    return f, list(ins.values())


class LineLabels:
    """Labels each eager kernel launch with the variable its source line assigns: the graphs'
    variables are named as the fgraph ops that compute them (measure.py's docstring). A
    `sys.settrace` hook on the layer's function opens, at each line, an NVTX range (and a
    torch.profiler record_function) named after the line's left-hand side."""

    def __init__(self, torch, f, nvtx=True, rf=False):
        import inspect
        import re
        self.torch, self.code, self.nvtx, self.rf = torch, f.__code__, nvtx, rf
        lines, start = inspect.getsourcelines(f)
        self.names = {}
        for j, ln in enumerate(lines):
            m = re.match(r"\s*(\w+)\s*=[^=]", ln)
            self.names[start + j] = m.group(1) if m else "-"
        self.open = None

    def _close(self):
        if self.open is not None:
            if self.nvtx:
                self.torch.cuda.nvtx.range_pop()
            if self.rf:
                self.open.__exit__(None, None, None)
            self.open = None

    def tracer(self, frame, event, arg):
        if frame.f_code is not self.code:
            return None
        def local(fr, ev, a):
            if ev == "line":
                self._close()
                name = self.names.get(fr.f_lineno, "-")
                if self.rf:
                    self.torch.cuda.synchronize()
                if self.nvtx:
                    self.torch.cuda.nvtx.range_push(name)
                rf = self.torch.autograd.profiler.record_function("L:" + name) if self.rf else True
                if self.rf:
                    rf.__enter__()
                self.open = rf
            elif ev == "return":
                if self.rf:
                    self.torch.cuda.synchronize()
                self._close()
            return local
        return local

    def run(self, f, args):
        sys.settrace(self.tracer)
        try:
            return f(*args)
        finally:
            sys.settrace(None)
            self._close()


def layers_prep(out):
    """No ncu: compile each layer (Inductor's on-disk cache then serves the ncu pass the same
    code), save the output code, and label each eager launch with torch.profiler."""
    M, torch = layer_fns()
    from torch._inductor.utils import run_and_get_code
    from torch.profiler import ProfilerActivity, profile
    res = {}
    with open(os.path.join(out, "output_code.txt"), "w") as code_log:
        for name in LAYERS:
            try:
                torch._dynamo.reset()
                f, args = layer_inputs(M, torch, name)
                cf = torch.compile(f, fullgraph=True, dynamic=False)
                with torch.no_grad():
                    _, codes = run_and_get_code(cf, *args)
                    code_log.write(f"\n\n{'#' * 100}\n# graph {name}\n{'#' * 100}\n{codes[0]}\n")
                    for _ in range(2):
                        cf(*args)
                        f(*args)
                    torch.cuda.synchronize()
                    lab = LineLabels(torch, f, nvtx=False, rf=True)
                    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                        lab.run(f, args)
                        torch.cuda.synchronize()
                    with profile(activities=[ProfilerActivity.CUDA]) as profc:
                        cf(*args)
                        torch.cuda.synchronize()
                evs = prof.events()
                ranges = [(e.time_range.start, e.time_range.end, e.name[2:]) for e in evs
                          if e.name.startswith("L:") and e.device_type != torch.autograd.DeviceType.CUDA]
                kern = sorted([e for e in evs if e.device_type == torch.autograd.DeviceType.CUDA],
                              key=lambda e: e.time_range.start)
                eager = []
                for k in kern:
                    lab_ = [n for s, t, n in ranges if s <= k.time_range.start <= t]
                    eager.append(dict(name=k.name, label=lab_[-1] if lab_ else "?"))
                ck = sorted([e for e in profc.events() if e.device_type == torch.autograd.DeviceType.CUDA],
                            key=lambda e: e.time_range.start)
                res[name] = dict(eager=eager, compiled=[e.name for e in ck])
                print("prepared", name, len(eager), "eager launches,", len(ck), "compiled", flush=True)
            except Exception as ex:  # noqa: BLE001
                import traceback
                traceback.print_exc()
                res[name] = dict(error=repr(ex)[:500])
            code_log.flush()
    with open(os.path.join(out, "layers_prep.json"), "w") as fh:
        json.dump(res, fh, indent=1)


def layers_profile():
    M, torch = layer_fns()
    for name in LAYERS:
        for mode in ("compiled", "eager"):
            try:
                torch._dynamo.reset()
                f, args = layer_inputs(M, torch, name)
                fn = torch.compile(f, fullgraph=True, dynamic=False) if mode == "compiled" else f
                with torch.no_grad():
                    for _ in range(3):
                        fn(*args)
                    if mode == "eager":
                        lab = LineLabels(torch, f, nvtx=True)
                        region(torch, lambda: lab.run(f, args))
                    else:
                        region(torch, lambda: fn(*args))
                print("profiled", name, mode, flush=True)
            except Exception as ex:  # noqa: BLE001
                print("FAILED", name, mode, repr(ex)[:300], flush=True)
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--graphs")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--layers-prep")
    ap.add_argument("--layers-profile", action="store_true")
    a = ap.parse_args()
    if a.list:
        for c in CASES:
            print(c["part"], c["case"], c["read"] + c["write"], c["flops"])
        print(len(CASES), "cases", file=sys.stderr)
    if a.graphs:
        os.makedirs(a.graphs, exist_ok=True)
        for c in CASES:
            with open(os.path.join(a.graphs, c["case"] + ".fgraph"), "w") as fh:
                fh.write(fgraph_text(c))
        with open(os.path.join(HERE, "cases.json"), "w") as fh:
            json.dump(CASES, fh, indent=0)
            fh.write("\n")
    if a.profile:
        profile_cases()
    if a.layers_prep:
        layers_prep(a.layers_prep)
    if a.layers_profile:
        layers_profile()


if __name__ == "__main__":
    main()
