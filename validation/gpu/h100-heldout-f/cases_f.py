"""Held-out batch f for fgraph's hardware model (issue 11): a fresh pre-registered check of the
model as it stands at fgraph 27c52e0, on random shapes and whole layers nobody has measured.

Parts (each case's `part`):
  heldout  60 GEMMs (M, N, K log-uniform; 75% rounded to multiples of 64, the rest to 8;
           a fifth with M <= 64; f16/bf16; 12 batched [B,M,K]x[B,K,N]; 8 linear layers
           [B,S,D]x[D,N], family `lin3d`), 6 TF32 matmuls (f32 with allow_tf32), 20
           memory-bound kernels (add, mul, GELU, SiLU, row sum, softmax, LayerNorm, RMSNorm;
           64 KB - 1 GB, a third under 4 MB), 10 F.scaled_dot_product_attention calls
           (PyTorch's default backend, half of them is_causal=True)
  layers   4 whole layers (layers_f.py; graphs layers/NAME.fgraph), compiled
           (torch.compile default mode, as validation/inductor/measure_heldout.py) and eager

Batch d's code (../h100-heldout-d/cases.py) is imported, not copied: its case records,
fgraph text, PyTorch builders, profiler regions, ncu pass over the cases and the layers
(`LineLabels` NVTX labelling of eager kernels). Only what batch d lacks is here: the new
seed and distributions, the `lin3d` case and the four layers.

  python3 cases_f.py --list               # print the cases (no GPU, no torch needed)
  python3 cases_f.py --graphs DIR         # write one .fgraph per case (no GPU)
  python3 cases_f.py --profile            # the ncu pass over the cases (regions only)
  python3 cases_f.py --layers-prep OUT    # layers without ncu: compile, output code, labels
  python3 cases_f.py --layers-profile     # the ncu pass over the layers (regions only)
"""
import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("cases_d", os.path.join(HERE, "..", "h100-heldout-d", "cases.py"))
D = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(D)

SEED = 20261126
MB = 1e6
BYTES = D.BYTES
logu = D.logu


def lin3d_case(i, dt, B, S, Dm, N):
    e = BYTES[dt]
    return dict(part="heldout", case=f"heldout_{i:03d}_lin3d_{dt}_{B}x{S}x{Dm}x{N}", kind="matmul",
                family="lin3d", dtype=dt, B=B, M=S, K=Dm, N=N, rows=0, cols=0, causal=0,
                read=(B * S * Dm + Dm * N) * e, write=B * S * N * e, flops=2 * B * S * N * Dm)


def rnd(v, q):
    return max(q, int(round(v / q)) * q)


def make_cases():
    rng = random_ = __import__("random").Random(SEED)
    cases = []
    # --- GEMMs: 40 plain, 12 batched, 8 linear layers over a 3-D activation
    for i in range(60):
        dt = rng.choice(["f16", "bf16"])
        batched = 40 <= i < 52
        lin3d = i >= 52
        decode = i % 5 == 1
        while True:
            q = 64 if rng.random() < 0.75 else 8
            B = int(round(logu(rng, 2, 64))) if batched else 1
            M = rnd(logu(rng, 16, 64), 8) if decode else rnd(logu(rng, 64, 16384), q)
            N = rnd(logu(rng, 256, 32768), q)
            K = rnd(logu(rng, 256, 16384), q)
            if lin3d:
                B = rng.choice([2, 4, 8, 16])
                S = M if decode else max(8, rnd(M / B, q if M / B >= 64 else 8))
                M = S
            ws = B * (M * K + M * N) * BYTES[dt] + (1 if lin3d else B) * K * N * BYTES[dt]
            if 1 * MB <= ws <= 2000 * MB:
                break
        if lin3d:
            cases.append(lin3d_case(len(cases), dt, B, M, K, N))
        else:
            cases.append(D.gemm_case("heldout", len(cases), dt, B, M, K, N))
    # --- TF32 matmuls (f32 tensors, allow_tf32)
    for j in range(6):
        M, N, K = (rnd(logu(rng, 256, 8192), 64) for _ in range(3))
        cases.append(D.gemm_case("heldout", len(cases), "tf32", 1, M, K, N, family="tf32"))
    # --- memory-bound: 20 kernels, 64 KB - 1 GB of input, a third under 4 MB
    ops = ["add", "mul", "gelu", "silu", "sum", "softmax", "layernorm", "rmsnorm"]
    for j in range(20):
        op = ops[j % len(ops)]
        dt = rng.choice(["f16", "bf16", "f32"])
        size = logu(rng, 0.064 * MB, 4 * MB) if j % 3 == 0 else logu(rng, 4 * MB, 1000 * MB)
        if op == "softmax":
            cols = rnd(logu(rng, 128, 32768), 8)
        elif op in ("sum", "layernorm", "rmsnorm"):
            cols = rnd(logu(rng, 256, 16384), 64)
        else:
            cols = rnd(logu(rng, 512, 8192), 8)
        rows = max(1, int(size / (cols * BYTES[dt])))
        cases.append(D.mem_case("heldout", len(cases), op, dt, rows, cols))
    # --- attention: 10, default backend, half causal
    for j in range(10):
        dt = rng.choice(["f16", "bf16"])
        S = rnd(logu(rng, 512, 8192), 128)
        Dh = rng.choice([64, 128])
        while True:
            B, H = rng.choice([1, 2, 4]), rng.choice([8, 12, 16, 24, 32])
            if 8 <= B * H <= 64:
                break
        cases.append(D.attn_case("heldout", len(cases), "default", dt, B, H, S, Dh, j % 2 == 1))
    return cases


CASES = make_cases()
LAYERS = ["mistral_layer", "gpt2m_block", "phi2_block", "gemma_mlp"]


def fgraph_text(c):
    if c["family"] == "lin3d":
        B, S, K, N = c["B"], c["M"], c["K"], c["N"]
        body = (f"  input a: [{B}, {S}, {K}]\n  weight b: [{K}, {N}]\n"
                f"  op mm = matmul(a, b) -> c: [{B}, {S}, {N}]\n  output c\n")
        return (f"// held-out batch f, part heldout: {c['case']} (validation/gpu/h100-heldout-f/cases_f.py)\n"
                f"graph {c['case']} {{\n  dtype {c['dtype']}\n\n" + body + "}\n")
    return D.fgraph_text(c).replace("held-out batch d", "held-out batch f").replace(
        "h100-heldout-d/cases.py", "h100-heldout-f/cases_f.py")


_build_d = D.build


def build(c):
    if c["family"] != "lin3d":
        return _build_d(c)
    import torch
    dt = {"f16": torch.float16, "bf16": torch.bfloat16}[c["dtype"]]
    B, S, K, N = c["B"], c["M"], c["K"], c["N"]
    a = torch.randn(B, S, K, device="cuda", dtype=dt) * 0.5
    w = torch.randn(K, N, device="cuda", dtype=dt) * 0.5
    return lambda: a @ w


def layer_fns():
    sys.path.insert(0, os.path.join(HERE, "..", "..", "inductor"))
    sys.path.insert(0, HERE)
    import layers_f  # noqa: F401  (registers the layers in measure.py's GRAPHS)
    import measure as M
    import torch
    import torch._inductor.config as ic

    ic.triton.cudagraphs = False  # as measure_heldout.py
    return M, torch


# batch d's GPU passes run over batch f's cases, builders and layers
D.CASES, D.build, D.LAYERS, D.layer_fns = CASES, build, LAYERS, layer_fns


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
            print(c["part"], c["case"], round((c["read"] + c["write"]) / MB, 2), "MB", round(c["flops"] / 1e9, 2), "GFLOP")
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
        D.profile_cases()
    if a.layers_prep:
        D.layers_prep(a.layers_prep)
    if a.layers_profile:
        D.layers_profile()


if __name__ == "__main__":
    main()
