"""The four whole layers of held-out batch f, as PyTorch programs of layers/NAME.fgraph (the
same shapes, dtypes and ops; every intermediate variable named as the fgraph op that computes
it, as validation/inductor/measure.py's docstring asks). Registered in measure.py's GRAPHS,
so batch d's `layer_inputs` (measure.py's seeded inputs) and passes run them.

  mistral_layer  Mistral-7B-style decoder layer, prefill of 1,024 tokens: RMSNorm, Q/K/V
                 (32 query heads over 8 KV heads of 128), RoPE, repeat_kv, causal mask,
                 softmax, o_proj, residual, RMSNorm, SwiGLU FFN of 14,336, residual; bf16
  gpt2m_block    GPT-2-medium block over a batch of 2 sequences of 1,024 ([2, 1024, 1024]
                 activations): LayerNorm, fused QKV + bias, 16 heads of 64, causal mask,
                 softmax, o_proj + bias, residual, LayerNorm, MLP 4,096 with tanh GELU; f16
  phi2_block     Phi-2-style parallel block, 2,048 tokens: one LayerNorm feeds both the
                 attention (32 heads of 80, causal mask; no rotary embedding) and the MLP
                 (10,240, tanh GELU); both outputs and the input summed; f16
  gemma_mlp      Gemma-2B-style MLP: RMSNorm, GeGLU (tanh GELU) of 16,384, residual;
                 2,048 tokens of 2,048; bf16
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "inductor"))
import measure as M  # noqa: E402
from measure import BF16, F16, causal_mask  # noqa: E402
from measure_heldout import rope_tables  # noqa: E402


def graph(fn):
    M.GRAPHS[fn.__name__] = fn
    return fn


@graph
def mistral_layer(r, small):
    if small:
        T, H, NH, NKV, Fd = 32, 64, 4, 2, 96
    else:
        T, H, NH, NKV, Fd = 1024, 4096, 32, 8, 14336
    HD = H // NH
    G = NH // NKV
    HALF = HD // 2
    KVD = NKV * HD
    B = BF16
    cos, sin = rope_tables(torch.arange(T), HD, 1000000.0)
    dev = r(1).device

    def f(x, cos, sin, mask, attn_norm_w, wq, wk, wv, wo, ffn_norm_w, wg, wu, wd):
        attn_norm = F.rms_norm(x, (H,), attn_norm_w, eps=1e-5)
        q_proj = attn_norm @ wq
        k_proj = attn_norm @ wk
        v_proj = attn_norm @ wv
        q_split = q_proj.view(T, NH, HD)
        q_heads = q_split.permute(1, 0, 2)
        k_split = k_proj.view(T, NKV, HD)
        k_heads = k_split.permute(1, 0, 2)
        v_split = v_proj.view(T, NKV, HD)
        v_heads = v_split.permute(1, 0, 2)
        q_lo = q_heads[..., :HALF]
        q_hi = q_heads[..., HALF:]
        q_neg = -q_hi
        q_rot = torch.cat((q_neg, q_lo), dim=-1)
        q_cos = q_heads * cos
        q_sin = q_rot * sin
        q_rope = q_cos + q_sin
        k_lo = k_heads[..., :HALF]
        k_hi = k_heads[..., HALF:]
        k_neg = -k_hi
        k_rot = torch.cat((k_neg, k_lo), dim=-1)
        k_cos = k_heads * cos
        k_sin = k_rot * sin
        k_rope = k_cos + k_sin
        k_group = k_rope[:, None, :, :]
        k_expand = k_group.expand(NKV, G, T, HD)
        k_repeat = k_expand.reshape(NH, T, HD)
        v_group = v_heads[:, None, :, :]
        v_expand = v_group.expand(NKV, G, T, HD)
        v_repeat = v_expand.reshape(NH, T, HD)
        scores = q_rope @ k_repeat.transpose(-2, -1)
        scale = scores * (1.0 / math.sqrt(HD))
        causal = scale + mask
        softmax = torch.softmax(causal, dim=-1)
        attn = softmax @ v_repeat
        attn_heads = attn.permute(1, 0, 2)
        attn_merge = attn_heads.reshape(T, H)
        o_proj = attn_merge @ wo
        res1 = x + o_proj
        ffn_norm = F.rms_norm(res1, (H,), ffn_norm_w, eps=1e-5)
        gate_proj = ffn_norm @ wg
        up_proj = ffn_norm @ wu
        gate_act = F.silu(gate_proj)
        glu = gate_act * up_proj
        down_proj = glu @ wd
        res2 = res1 + down_proj
        return res2

    ins = dict(x=r(T, H, dtype=B, std=1.0), cos=cos.to(dev, B), sin=sin.to(dev, B),
               mask=causal_mask(T, B, dev), attn_norm_w=1.0 + r(H, dtype=B),
               wq=r(H, H, dtype=B), wk=r(H, KVD, dtype=B), wv=r(H, KVD, dtype=B),
               wo=r(H, H, dtype=B), ffn_norm_w=1.0 + r(H, dtype=B), wg=r(H, Fd, dtype=B),
               wu=r(H, Fd, dtype=B), wd=r(Fd, H, dtype=B))
    return f, ins


@graph
def gpt2m_block(r, small):
    Bn, S, D, NH = (2, 32, 64, 4) if small else (2, 1024, 1024, 16)
    HD = D // NH
    Fd = 4 * D
    dev = r(1).device

    def f(x, mask, ln1_w, ln1_b, w_qkv, b_qkv, w_o, b_o, ln2_w, ln2_b, w_fc, b_fc, w_proj, b_proj):
        ln1 = F.layer_norm(x, (D,), ln1_w, ln1_b, eps=1e-5)
        qkv_proj = ln1 @ w_qkv
        qkv_bias = qkv_proj + b_qkv
        qkv_split = qkv_bias.view(Bn, S, 3, NH, HD)
        qkv_heads = qkv_split.permute(2, 0, 3, 1, 4)
        scores = qkv_heads[0] @ qkv_heads[1].transpose(-2, -1)
        scale = scores * (1.0 / math.sqrt(HD))
        causal = scale + mask
        softmax = torch.softmax(causal, dim=-1)
        attn = softmax @ qkv_heads[2]
        merge_heads = attn.permute(0, 2, 1, 3)
        merge = merge_heads.reshape(Bn, S, D)
        o_proj = merge @ w_o
        o_bias = o_proj + b_o
        res1 = o_bias + x
        ln2 = F.layer_norm(res1, (D,), ln2_w, ln2_b, eps=1e-5)
        fc = ln2 @ w_fc
        fc_bias = fc + b_fc
        gelu = F.gelu(fc_bias, approximate="tanh")
        proj = gelu @ w_proj
        proj_bias = proj + b_proj
        res2 = proj_bias + res1
        return res2

    ins = dict(x=r(Bn, S, D, std=1.0), mask=causal_mask(S, F16, dev), ln1_w=1.0 + r(D),
               ln1_b=r(D), w_qkv=r(D, 3 * D), b_qkv=r(3 * D), w_o=r(D, D), b_o=r(D),
               ln2_w=1.0 + r(D), ln2_b=r(D), w_fc=r(D, Fd), b_fc=r(Fd), w_proj=r(Fd, D),
               b_proj=r(D))
    return f, ins


@graph
def phi2_block(r, small):
    T, D, NH, Fd = (32, 80, 4, 160) if small else (2048, 2560, 32, 10240)
    HD = D // NH
    dev = r(1).device

    def f(x, mask, ln_w, ln_b, wq, bq, wk, bk, wv, bv, w_dense, b_dense, w_fc1, b_fc1, w_fc2, b_fc2):
        ln = F.layer_norm(x, (D,), ln_w, ln_b, eps=1e-5)
        q_proj = ln @ wq
        q_bias = q_proj + bq
        k_proj = ln @ wk
        k_bias = k_proj + bk
        v_proj = ln @ wv
        v_bias = v_proj + bv
        q_split = q_bias.view(T, NH, HD)
        q_heads = q_split.permute(1, 0, 2)
        k_split = k_bias.view(T, NH, HD)
        k_heads = k_split.permute(1, 0, 2)
        v_split = v_bias.view(T, NH, HD)
        v_heads = v_split.permute(1, 0, 2)
        scores = q_heads @ k_heads.transpose(-2, -1)
        scale = scores * (1.0 / math.sqrt(HD))
        causal = scale + mask
        softmax = torch.softmax(causal, dim=-1)
        attn = softmax @ v_heads
        attn_heads = attn.permute(1, 0, 2)
        attn_merge = attn_heads.reshape(T, D)
        dense = attn_merge @ w_dense
        dense_bias = dense + b_dense
        fc1 = ln @ w_fc1
        fc1_bias = fc1 + b_fc1
        gelu = F.gelu(fc1_bias, approximate="tanh")
        fc2 = gelu @ w_fc2
        fc2_bias = fc2 + b_fc2
        mix = dense_bias + fc2_bias
        res = mix + x
        return res

    ins = dict(x=r(T, D, std=1.0), mask=causal_mask(T, F16, dev), ln_w=1.0 + r(D), ln_b=r(D),
               wq=r(D, D), bq=r(D), wk=r(D, D), bk=r(D), wv=r(D, D), bv=r(D),
               w_dense=r(D, D), b_dense=r(D), w_fc1=r(D, Fd), b_fc1=r(Fd), w_fc2=r(Fd, D),
               b_fc2=r(D))
    return f, ins


@graph
def gemma_mlp(r, small):
    T, D, Fd = (32, 64, 256) if small else (2048, 2048, 16384)
    B = BF16

    def f(x, norm_w, wg, wu, wd):
        norm = F.rms_norm(x, (D,), norm_w, eps=1e-6)
        gate_proj = norm @ wg
        up_proj = norm @ wu
        gate_act = F.gelu(gate_proj, approximate="tanh")
        glu = gate_act * up_proj
        down_proj = glu @ wd
        res = x + down_proj
        return res

    ins = dict(x=r(T, D, dtype=B, std=1.0), norm_w=1.0 + r(D, dtype=B), wg=r(D, Fd, dtype=B),
               wu=r(D, Fd, dtype=B), wd=r(Fd, D, dtype=B))
    return f, ins
