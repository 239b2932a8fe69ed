"""Writes validation/measured.csv from the raw Nsight Compute output.

  python3 validation/gpu/extract.py [--batch1 ../shared/gpu/h100-batch1-ncu.csv]

Sources: h100-batch1 is ../shared/gpu/h100-batch1-ncu.csv (taken with
../shared/gpu/measure_example.py); h100-batch2 is validation/gpu/h100-batch2-ncu.csv (taken
with validation/gpu/measure_batch2.sh). Both hold, per profiled region ("### CASE MODE
cache=C"), one row per kernel and metric (dram__bytes_read.sum, dram__bytes_write.sum,
gpu__time_duration.sum, launch__grid_size).

Each kernel is matched to the fgraph ops it executes (the `ops` column, `+` between the ops
of one kernel), by kernel name and position; OPS below is that mapping, checked here against
the kernel names. An op that PyTorch runs as a view (no kernel) appears in no eager row.
"""
import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (case, mode) -> (graph file stem, [(ops, regex the kernel name must match)])
MM = r"nvjet|gemm|mm"
OPS = {
    ("seed_mlp", "eager"): ("seed_mlp", [("matmul1", MM), ("bias1", "CUDAFunctor_add"),
                                         ("relu", "clamp"), ("matmul2", MM)]),
    ("seed_mlp", "compiled"): ("seed_mlp", [("matmul1", MM), ("bias1+relu", "fused_add_relu"),
                                            ("matmul2", MM)]),
    ("seed_mlp", "compiled_max"): ("seed_mlp", [("matmul1+bias1+relu", "triton_tem_fused_add_mm_relu"),
                                                ("matmul2", "triton_tem")]),
    ("ln_gelu", "eager"): ("ln_gelu", [("layernorm", "layer_norm"), ("gelu", "Gelu")]),
    ("ln_gelu", "compiled"): ("ln_gelu", [("layernorm+gelu", "fused_gelu_native_layer_norm")]),
    ("add_gelu", "eager"): ("add_gelu", [("add", "CUDAFunctor_add"), ("gelu", "Gelu")]),
    ("add_gelu", "compiled"): ("add_gelu", [("add+gelu", "fused_add_gelu")]),
    ("ew_chain", "eager"): ("ew_chain", [("scale", "Mul"), ("relu", "clamp"),
                                         ("shift", "CUDAFunctorOnSelf_add"), ("sigmoid", "sigmoid")]),
    ("ew_chain", "compiled"): ("ew_chain", [("scale+relu+shift+sigmoid", "fused_add_mul_relu_sigmoid")]),
    ("softmax_dropout_free", "eager"): ("softmax_scale", [("softmax", "softmax"), ("scale", "Mul")]),
    ("softmax_dropout_free", "compiled"): ("softmax_scale", [("softmax+scale", "fused__softmax")]),
    ("attention", "eager"): ("attention", [("scores", MM), ("softmax", "SoftMax"), ("pv", MM)]),
    ("attention", "compiled"): ("attention", [("scores", MM), ("softmax", "fused__softmax"), ("pv", MM)]),
    ("transformer", "eager"): ("transformer", [
        ("qkv_proj", MM), ("attn_scores", MM), ("softmax", "softmax"), ("attn_output", MM),
        ("concat_heads", "direct_copy"), ("out_proj", MM), ("residual1", "CUDAFunctor_add"),
        ("layernorm1", "layer_norm"), ("ffn_up", MM), ("gelu", "Gelu"), ("ffn_down", MM),
        ("residual2", "CUDAFunctor_add"), ("layernorm2", "layer_norm")]),
    ("transformer", "compiled"): ("transformer", [
        ("qkv_proj+split_heads", MM), ("attn_scores", MM), ("softmax", "fused__softmax"),
        ("attn_output", MM), ("concat_heads", "clone_permute"), ("out_proj", MM),
        ("residual1+layernorm1", "fused_add_native_layer_norm"), ("ffn_up", MM),
        ("gelu", "fused_gelu"), ("ffn_down", MM),
        ("residual2+layernorm2", "fused_add_native_layer_norm")]),
    ("attention_sdpa", "eager"): ("attention_sdpa_math", [
        ("q_f32", "direct_copy"), ("k_f32", "direct_copy"), ("v_f32", "direct_copy"),
        ("q_scale", "MulFunctor"), ("k_scale", "MulFunctor"), ("scores", "gemm_f32"),
        ("softmax", "SoftMax"), ("isneginf", "isneginf"), ("all_rows", "and_kernel"),
        ("fill", "FillFunctor"), ("where", "where_kernel"), ("attn_f16", "float16_copy"),
        ("pv", "gemm_f32"), ("o_f16", "float16_copy")]),
    ("swiglu", "eager"): ("swiglu", [("gate_proj", MM), ("up_proj", MM), ("silu", "silu"),
                                     ("glu", "MulFunctor"), ("down_proj", MM)]),
    ("swiglu", "compiled"): ("swiglu", [("gate_proj", MM), ("up_proj", MM),
                                        ("silu+glu", "fused_mul_silu"), ("down_proj", MM)]),
    ("swiglu", "compiled_max"): ("swiglu", [("gate_proj", MM), ("up_proj", MM),
                                            ("silu+glu", "fused_mul_silu"), ("down_proj", MM)]),
    ("res_ln_gelu", "eager"): ("res_ln_gelu", [("add", "CUDAFunctor_add"),
                                               ("layernorm", "layer_norm"), ("gelu", "Gelu")]),
    ("res_ln_gelu", "compiled"): ("res_ln_gelu", [("add+layernorm+gelu", "fused_add_gelu_native_layer_norm")]),
    # One FlashAttention kernel: fgraph's attention.fgraph under --flash-attention.
    ("attention_flash", "eager"): ("attention", [("scores+softmax+pv", "sdpa|flash")]),
    ("attention_flash", "flash"): ("attention", [("scores+softmax+pv", "flash_fwd_kernel")]),
    ("attention_flash", "cudnn"): ("attention", [("scores+softmax+pv", "sdpa_sm90_flash")]),
}

METRICS = {"dram__bytes_read.sum": "read", "dram__bytes_write.sum": "write",
           "gpu__time_duration.sum": "time_ns"}


def short(name):
    """A kernel name without its template arguments' noise and without commas."""
    name = re.sub(r"^void ", "", name)
    keep = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", name)
    # the kernel template and the first functor-like identifiers are enough to recognise it
    ident = [k for k in keep if k not in ("at", "native", "unnamed", "void", "operator", "const",
                                          "lambda", "instance", "int", "char", "std", "array",
                                          "T1", "T2", "T3", "T5", "detail", "c10", "float",
                                          "Half", "long", "unsigned", "bool", "TensorIteratorBase",
                                          "TensorIterator", "gpu", "impl", "CUDA")]
    return " ".join(ident[:6])


def read(path):
    """{(case, mode, cache): [{name, read, write, time_ns}]} in profile order."""
    runs, key = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("### "):
                case, mode, cache = line[4:].split()
                key = (case, mode, cache.split("=")[1])
                runs[key] = {}
                continue
            if not line.startswith('"') or line.startswith('"ID"'):
                continue
            row = next(csv.reader([line]))
            k = runs[key].setdefault(int(row[0]), {"name": row[4]})
            if row[12] in METRICS:
                k[METRICS[row[12]]] = int(row[14].replace(",", ""))
    return {k: [v[i] for i in sorted(v)] for k, v in runs.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch1", default=os.path.join(ROOT, "..", "shared", "gpu", "h100-batch1-ncu.csv"))
    ap.add_argument("--batch2", default=os.path.join(HERE, "h100-batch2-ncu.csv"))
    ap.add_argument("--out", default=os.path.join(ROOT, "validation", "measured.csv"))
    a = ap.parse_args()
    rows = []
    for batch, path in (("h100-batch1", a.batch1), ("h100-batch2", a.batch2)):
        for (case, mode, cache), kernels in read(path).items():
            graph, ops = OPS[(case, mode)]
            if len(ops) != len(kernels):
                sys.exit(f"{case} {mode} {cache}: {len(kernels)} kernels, mapping has {len(ops)}")
            for i, (k, (op, pat)) in enumerate(zip(kernels, ops)):
                if not re.search(pat, k["name"]):
                    sys.exit(f"{case} {mode} {cache} kernel {i}: {k['name'][:80]} !~ {pat}")
                rows.append([batch, case, mode, cache, graph, i, op, short(k["name"]),
                             k["read"], k["write"], k["time_ns"]])
    with open(a.out, "w", newline="") as f:
        f.write("# Measured DRAM traffic and time per kernel on an NVIDIA H100 80GB HBM3 (Nsight Compute\n"
                "# 2025.3, --clock-control none; cache=all flushes L2 before every kernel, cache=none keeps\n"
                "# it warm). h100-batch1: ../shared/gpu/h100-batch1-ncu.csv; h100-batch2:\n"
                "# validation/gpu/h100-batch2-ncu.csv. Written by validation/gpu/extract.py; `ops` is the\n"
                "# fgraph ops (of validation/GRAPH.fgraph) that the kernel executes. See docs/VALIDATION.md.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["batch", "case", "mode", "cache", "graph", "kernel", "ops", "name",
                    "dram_read_bytes", "dram_write_bytes", "time_ns"])
        w.writerows(rows)
    print(f"{len(rows)} kernels -> {a.out}")


if __name__ == "__main__":
    main()
