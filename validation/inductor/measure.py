"""Measured ground truth of what torch.compile (TorchInductor, default mode) launches, for the
graphs of validation/inductor/*.fgraph; docs/VALIDATION.md section 15 describes it, and
tests/inductor.rs compares fgraph's plans with the recorded data.

Every graph below is the PyTorch program of the .fgraph file of the same name, with the same
shapes and dtypes. Every intermediate variable is named exactly as the fgraph op that
computes it: TorchDynamo names the FX nodes after the Python variables, and Inductor's
generated code lists, for every kernel, the FX nodes it computes ("Topologically Sorted
Source Nodes: [...]"), so those lists are lists of fgraph op names.

For each graph the script
  1. compiles the function with torch.compile (default mode, fullgraph=True, dynamic=False,
     CUDA graphs off, the FX graph cache off so that the code is generated afresh) and keeps
     the output code Inductor generates (torch._inductor.utils.run_and_get_code);
  2. checks the compiled result against eager (relative error of every output);
  3. parses the call() function of the output code into the ordered list of launches: every
     Triton kernel (name, poi/red/per, the source nodes of its definition, the buffers it
     writes) and every extern kernel (extern_kernels.mm/addmm/bmm/..., the source nodes of
     the comment above its call, the buffer it writes);
  4. profiles one call with torch.profiler and records the CUDA kernels really launched.

  python3 validation/inductor/measure.py --out DIR            # every graph
  python3 validation/inductor/measure.py --out DIR --graph rmsnorm
  python3 validation/inductor/measure.py --out DIR --device cpu --small   # a dry run, no GPU

It writes DIR/h100-inductor.json (the data), DIR/output_code.txt (Inductor's code for every
graph) and DIR/env.txt; committed beside this script as h100-inductor.json,
h100-inductor-output-code.txt, h100-inductor-env.txt and h100-inductor.log (the run's
output). After a change to the parser, the committed data can be parsed again without a
GPU (the profiled launches and numerics are kept):

  python3 validation/inductor/measure.py --out validation/inductor --reparse
"""
import argparse
import json
import math
import os
import re
import sys
import time
import traceback

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))

GRAPHS = {}


def graph(fn):
    GRAPHS[fn.__name__] = fn
    return fn


# Each builder takes (r, small) where r(*shape, dtype) makes a random input and small shrinks
# the shapes for a CPU dry run; it returns (f, {input name: tensor}) with f's parameters named
# as the fgraph inputs and weights.

F16, BF16 = torch.float16, torch.bfloat16


@graph
def mlp_bias_relu(r, small):
    T, H, Fd = (64, 32, 128) if small else (2048, 1024, 4096)

    def f(x, w1, b1, w2, b2):
        matmul1 = x @ w1
        bias1 = matmul1 + b1
        relu = torch.relu(bias1)
        matmul2 = relu @ w2
        bias2 = matmul2 + b2
        return bias2

    return f, dict(x=r(T, H), w1=r(H, Fd), b1=r(Fd), w2=r(Fd, H), b2=r(H))


@graph
def ln_gelu(r, small):
    R, C = (64, 128) if small else (8192, 1024)

    def f(x, w, b):
        layernorm = F.layer_norm(x, (C,), w, b, eps=1e-5)
        gelu = F.gelu(layernorm, approximate="tanh")
        return gelu

    return f, dict(x=r(R, C), w=r(C), b=r(C))


@graph
def res_ln(r, small):
    R, C = (64, 128) if small else (8192, 1024)

    def f(x, r, w, b):
        residual = x + r
        layernorm = F.layer_norm(residual, (C,), w, b, eps=1e-5)
        return layernorm, residual

    return f, dict(x=r(R, C), r=r(R, C), w=r(C), b=r(C))


@graph
def rmsnorm(r, small):
    T, H = (64, 128) if small else (8192, 2048)

    def f(x, w):
        sq = x * x
        ms = sq.mean(-1, keepdim=True)
        add_eps = ms + 1e-6
        rstd = torch.rsqrt(add_eps)
        normalize = x * rstd
        weight_mul = normalize * w
        return weight_mul

    return f, dict(x=r(T, H, dtype=BF16), w=r(H, dtype=BF16))


@graph
def softmax_scale(r, small):
    B, S = (2, 64) if small else (16, 1024)

    def f(x):
        scale = x * 0.125
        softmax = torch.softmax(scale, dim=-1)
        return softmax

    return f, dict(x=r(B, S, S))


@graph
def ew_chain(r, small):
    N = 4096 if small else 16 * 1024 * 1024

    def f(a, b):
        scale = a * 2.0
        relu = torch.relu(scale)
        add_b = relu + b
        sigmoid = torch.sigmoid(add_b)
        return sigmoid

    return f, dict(a=r(N), b=r(N))


@graph
def two_consumers(r, small):
    N = 4096 if small else 16 * 1024 * 1024

    def f(x, y):
        prod = x * y
        expo = torch.exp(prod)
        plus1 = prod + 1.0
        out = expo * plus1
        return out

    return f, dict(x=r(N), y=r(N))


@graph
def two_consumers_red(r, small):
    R, C = (64, 128) if small else (8192, 2048)

    def f(x, y):
        prod = x * y
        expo = torch.exp(prod)
        rowsum = prod.sum(-1, keepdim=True)
        return expo, rowsum

    return f, dict(x=r(R, C), y=r(R, C))


@graph
def swiglu(r, small):
    T, H, Fd = (64, 32, 96) if small else (2048, 1024, 2816)

    def f(x, wg, wu, wd):
        gate_proj = x @ wg
        up_proj = x @ wu
        gate_act = F.silu(gate_proj)
        glu = gate_act * up_proj
        down_proj = glu @ wd
        return down_proj

    return f, dict(x=r(T, H, dtype=BF16), wg=r(H, Fd, dtype=BF16), wu=r(H, Fd, dtype=BF16),
                   wd=r(Fd, H, dtype=BF16))


@graph
def qkv_proj(r, small):
    T, H, KV = (64, 128, 32) if small else (2048, 2048, 512)

    def f(x, wq, wk, wv):
        q_proj = x @ wq
        k_proj = x @ wk
        v_proj = x @ wv
        return q_proj, k_proj, v_proj

    return f, dict(x=r(T, H, dtype=BF16), wq=r(H, H, dtype=BF16), wk=r(H, KV, dtype=BF16),
                   wv=r(H, KV, dtype=BF16))


@graph
def reduce_broadcast(r, small):
    R, C = (64, 128) if small else (8192, 2048)

    def f(x):
        mean = x.mean(-1, keepdim=True)
        center = x - mean
        expo = torch.exp(center)
        return expo

    return f, dict(x=r(R, C))


def causal_mask(T, dtype, dev):
    m = torch.full((T, T), float("-inf"), device=dev, dtype=dtype)
    return torch.triu(m, diagonal=1)


@graph
def llama_layer(r, small):
    if small:
        T, H, NH, NKV, Fd = 32, 64, 4, 2, 96
    else:
        T, H, NH, NKV, Fd = 1024, 2048, 16, 4, 5632
    HD = H // NH
    G = NH // NKV
    HALF = HD // 2
    KVD = NKV * HD
    B = BF16
    pos = torch.arange(T, dtype=torch.float32)
    inv = 1.0 / (500000.0 ** (torch.arange(0, HD, 2, dtype=torch.float32) / HD))
    ang = torch.outer(pos, inv)
    ang = torch.cat((ang, ang), dim=-1)
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

    ins = dict(x=r(T, H, dtype=B, std=1.0), cos=ang.cos().to(dev, B), sin=ang.sin().to(dev, B),
               mask=causal_mask(T, B, dev), attn_norm_w=1.0 + r(H, dtype=B),
               wq=r(H, H, dtype=B), wk=r(H, KVD, dtype=B), wv=r(H, KVD, dtype=B),
               wo=r(H, H, dtype=B), ffn_norm_w=1.0 + r(H, dtype=B), wg=r(H, Fd, dtype=B),
               wu=r(H, Fd, dtype=B), wd=r(Fd, H, dtype=B))
    return f, ins


@graph
def gpt2_block(r, small):
    T, D, NH = (32, 64, 4) if small else (1024, 1024, 16)
    HD = D // NH
    Fd = 4 * D
    dev = r(1).device

    def f(x, mask, ln1_w, ln1_b, w_qkv, b_qkv, w_o, b_o, ln2_w, ln2_b, w_fc, b_fc, w_proj,
          b_proj):
        ln1 = F.layer_norm(x, (D,), ln1_w, ln1_b, eps=1e-5)
        qkv_proj = ln1 @ w_qkv
        qkv_bias = qkv_proj + b_qkv
        qkv_split = qkv_bias.view(T, 3, NH, HD)
        qkv_heads = qkv_split.permute(1, 2, 0, 3)
        scores = qkv_heads[0] @ qkv_heads[1].transpose(-2, -1)
        scale = scores * (1.0 / math.sqrt(HD))
        causal = scale + mask
        softmax = torch.softmax(causal, dim=-1)
        attn = softmax @ qkv_heads[2]
        merge_heads = attn.permute(1, 0, 2)
        merge = merge_heads.reshape(T, D)
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

    ins = dict(x=r(T, D, std=1.0), mask=causal_mask(T, F16, dev), ln1_w=1.0 + r(D), ln1_b=r(D),
               w_qkv=r(D, 3 * D), b_qkv=r(3 * D), w_o=r(D, D), b_o=r(D), ln2_w=1.0 + r(D),
               ln2_b=r(D), w_fc=r(D, Fd), b_fc=r(Fd), w_proj=r(Fd, D), b_proj=r(D))
    return f, ins


# ---------------------------------------------------------------------------------------
# Parsing Inductor's output code


OP_RE = re.compile(r"^\s*op\s+(\w+)\s*=\s*([\w.]+)\((.*)\)\s*->\s*(\w+)", re.M)


def fgraph_graph(name):
    """The ops of validation/inductor/NAME.fgraph in source order: (name, kind, tensor
    arguments without their views, output); kind is elementwise.FUNC for elementwise ops.
    Every op of these files is on one line."""
    with open(os.path.join(HERE, name + ".fgraph")) as fh:
        text = fh.read()
    ops = []
    for m in OP_RE.finditer(text):
        tensors = []
        for a in split_args(m.group(3)):
            if "=" in a or re.match(r"^-?[0-9.]", a):
                continue
            tensors.append(re.match(r"\w+", a).group(0))
        kind = m.group(2) if m.group(2).startswith("elementwise.") else m.group(2).split(".")[0]
        ops.append((m.group(1), kind, tensors, m.group(4)))
    return ops


def fgraph_ops(name):
    return [o[0] for o in fgraph_graph(name)]


def identify_externs(kernels, ops, placeholders):
    """Which fgraph ops an extern matmul kernel computes. The comment Inductor writes above an
    extern call lists the origins of its inputs' views and, for an addmm made by a pattern
    rewrite, may lack the matmul itself, so it is not used for the ops; instead each extern
    call is matched to the fgraph matmul whose input and weight operands (arg<i>_1, the i-th
    graph input) it reads, or, for matmuls of two intermediates (attention), to the next such
    matmul in order. An addmm's bias operand adds the fgraph add of that bias to the
    matmul's output."""
    produced = {o[3] for o in ops}
    matmuls = [o for o in ops if o[1] == "matmul"]
    assigned = set()
    for k in kernels:
        if k["kind"] != "extern":
            continue
        names = []
        for a in k["args"]:
            m = re.match(r"arg(\d+)_1$", a)
            names.append(placeholders[int(m.group(1))] if m and int(m.group(1)) < len(placeholders) else None)
        external = {n for n in names if n}
        base = k["name"].split(".")[-1]
        operands = names[1:3] if base in ("addmm", "baddbmm") else names[:2]
        found = None
        for o in matmuls:
            if o[0] in assigned:
                continue
            ext = [t for t in o[2] if t not in produced]
            if ext and all(t in external for t in ext) or not ext and not any(operands):
                found = o
                break
        if found is None:
            k["ops"] = []
            continue
        assigned.add(found[0])
        k["ops"] = [found[0]]
        if base in ("addmm", "baddbmm"):
            # The add of the bias (a graph input, named) or of an intermediate (a residual).
            adds = [o for o in ops if o[1] == "elementwise.add" and found[3] in o[2]
                    and (names[0] in o[2] if names[0] else True)]
            if len(adds) == 1:
                k["ops"].append(adds[0][0])


def split_args(s):
    """Split a call's argument text at its top-level commas."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def call_args(line, start):
    """The argument text of the call whose '(' is at line[start]."""
    depth = 0
    for i in range(start, len(line)):
        if line[i] == "(":
            depth += 1
        elif line[i] == ")":
            depth -= 1
            if depth == 0:
                return line[start + 1:i]
    return line[start + 1:]


def base_buffer(arg):
    """The buffer an argument names: buf3, reinterpret_tensor(buf3, ...) -> buf3."""
    m = re.match(r"\s*(?:reinterpret_tensor\()?\s*([A-Za-z_][A-Za-z0-9_]*)", arg)
    return m.group(1) if m else arg.strip()


SOURCE_RE = re.compile(r"#\s*(?:Topologically Sorted )?Source Nodes:\s*\[([^\]]*)\]")


def parse_nodes(text):
    return [n.strip() for n in text.split(",") if n.strip()]


def fragment_stored(lines, i):
    """The source nodes whose values the kernel defined at lines[i] stores, from the comment
    above its definition: the "Source node to ATen node mapping" (source node => post-grad
    nodes) and the "Graph fragment", whose last line returns the post-grad nodes stored."""
    j = i - 1
    while j >= 0 and lines[j].startswith("#"):
        j -= 1
    header = lines[j + 1:i]
    to_source, returned = {}, set()
    in_map = False
    for h in header:
        if h.startswith("# Source node to ATen node mapping"):
            in_map = True
            continue
        if h.startswith("# Graph fragment"):
            in_map = False
            continue
        m = re.match(r"#\s+(\w+) => (.*)", h)
        if in_map and m:
            for a in m.group(2).split(","):
                to_source[a.strip()] = m.group(1)
        m = re.match(r"#\s+return (.*)", h)
        if m:
            returned = {x.strip().lstrip("%") for x in m.group(1).split(",")}
    return sorted({to_source[a] for a in returned if a in to_source})


def parse_output_code(code):
    """The launches of one Inductor output module, in call() order."""
    lines = code.split("\n")
    # Kernel definitions: name -> (source nodes, parameter names).
    defs = {}
    pending = None
    for i, line in enumerate(lines):
        m = SOURCE_RE.match(line.strip())
        if m and line.startswith("#"):
            pending = parse_nodes(m.group(1))
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*) = async_compile\.(triton|cpp_pybinding|cpp)\(", line)
        if m:
            kname = m.group(1)
            params = None
            for j in range(i, min(i + 400, len(lines))):
                d = re.match(r"^\s*def\s+" + re.escape(kname) + r"\((.*)\)\s*:", lines[j])
                if d:
                    params = [p.split(":")[0].strip() for p in split_args(d.group(1))]
                    break
                d = re.search(r"extern \"C\".*void\s+kernel\((.*)\)", lines[j])
                if d:
                    params = [p.strip().split()[-1].lstrip("*") for p in split_args(d.group(1))]
                    break
            defs[kname] = (pending or [], params, fragment_stored(lines, i))
            pending = None
    # The body of call().
    start = None
    for i, line in enumerate(lines):
        if re.match(r"^\s*def call\((self, )?args\)", line):
            start = i
            break
    if start is None:
        raise RuntimeError("no call() in the output code")
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1:]:
        if line.strip() and (len(line) - len(line.lstrip())) <= indent:
            break
        body.append(line)
    allocs, kernels, returns = {}, [], []
    comment = None
    for line in body:
        s = line.strip()
        m = SOURCE_RE.match(s)
        if m:
            comment = parse_nodes(m.group(1))
            continue
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*) = empty_strided_\w+\(\((.*?)\), \((.*?)\), (torch\.\w+)", s)
        if m:
            allocs[m.group(1)] = dict(shape=[int(v) for v in m.group(2).split(",") if v.strip()],
                                      dtype=m.group(4).replace("torch.", ""))
            continue
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*) = ([A-Za-z_][A-Za-z0-9_]*);\s*del", s)
        if m and m.group(2) in allocs:  # buffer reuse
            allocs[m.group(1)] = allocs[m.group(2)]
            continue
        m = re.match(r"return \((.*)\)", s)
        if m:
            returns = [base_buffer(a) for a in split_args(m.group(1))]
            continue
        m = re.match(r"(extern_kernels\.\w+|torch\.ops\.[\w.]+|aten\.[\w.]+)\(", s)
        if m:
            args = split_args(call_args(s, m.end() - 1))
            out = [base_buffer(a[4:]) for a in args if a.startswith("out=")]
            pos = [base_buffer(a) for a in args if not re.match(r"^\w+=", a)]
            kernels.append(dict(name=m.group(1), kind="extern", source_nodes=comment or [],
                                writes=out, args=pos))
            comment = None
            continue
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)\.run\(", s) or re.match(r"(cpp_fused\w*)\(", s)
        if m and m.group(1) in defs:
            kname = m.group(1)
            nodes, params, stored = defs[kname]
            args = [a for a in split_args(call_args(s, m.end() - 1)) if "=" not in a.split("(")[0]]
            writes = []
            if params:
                for p, a in zip(params, args):
                    if p.startswith(("out_ptr", "in_out_ptr")):
                        writes.append(base_buffer(a))
            kind = "triton" if kname.startswith("triton") else "cpp"
            # The comment above the call lists what this call computes; the one above the
            # definition, what the first call of an identical kernel computed.
            first = not any(k["name"] == kname for k in kernels)
            kernels.append(dict(name=kname, kind=kind, source_nodes=comment or nodes or [],
                                writes=writes, stored=stored if first else None))
            comment = None
    for k in kernels:
        k["writes"] = [dict(buffer=b, **allocs.get(b, {})) for b in k["writes"]]
    return kernels, returns


def triton_class(name):
    m = re.match(r"triton_(poi|red|per|tem)_", name)
    return m.group(1) if m else None


# ---------------------------------------------------------------------------------------


def computed_ops(kernels, graph_ops):
    """The fgraph ops each Triton kernel computes. The source nodes Inductor lists for a
    kernel are the origins of everything that went into its IR, which includes the
    producers of a buffer it only loads when that buffer was realized late (the copy of a
    repeat_kv lists the RoPE that an earlier kernel computed and stored). A realized buffer
    is always loaded, never recomputed, so: a listed op is computed by the kernel unless an
    earlier kernel stored its value (or an extern kernel computed it), and an op listed
    only because it feeds such a stored value is not computed either. Unrealized pointwise
    ops that Inductor inlines into several kernels are computed by each of them, and are
    listed in each kernel's ops (recomputation). Walking the listed ops from the last to the
    first: an op not stored earlier is computed if no listed op reads it (it is the kernel's
    result) or a computed listed op reads it."""
    order = [o[0] for o in graph_ops]
    out_of = {o[0]: o[3] for o in graph_ops}
    readers = {o[0]: [c[0] for c in graph_ops if out_of[o[0]] in c[2]] for o in graph_ops}
    stored = set()
    for k in kernels:
        if k["kind"] == "extern":
            stored.update(k["ops"])
            continue
        listed = {n for n in k["source_nodes"] if n in out_of}
        computed = set()
        for op in reversed(order):
            if op not in listed or op in stored:
                continue
            inside = [c for c in readers[op] if c in listed]
            if not inside or any(c in computed for c in inside):
                computed.add(op)
        k["ops"] = [o for o in order if o in computed]
        k["listed_ops"] = [o for o in order if o in listed]
        # What it stores: from its definition's graph fragment (the first call of a kernel
        # only: an identical kernel called again names the first call's nodes), else its
        # results (the computed ops no computed op of it reads).
        if k.get("stored") is not None:
            stored.update(n for n in k["stored"] if n in out_of)
        else:
            stored.update(o for o in computed if not any(c in computed for c in readers[o]))
        stored.update(o for o in computed if not any(c in computed for c in readers[o]))


def plan_of(name, code, placeholders):
    """The launches of one graph's output code, with the fgraph ops of each."""
    ops = fgraph_ops(name)
    kernels, returns = parse_output_code(code)
    opset = set(ops)
    unmapped = sorted({n for k in kernels for n in k["source_nodes"] if n not in opset})
    graph_ops = fgraph_graph(name)
    identify_externs(kernels, graph_ops, placeholders)
    computed_ops(kernels, graph_ops)
    for k in kernels:
        if k["kind"] == "triton":
            k["class"] = triton_class(k["name"])
    covered = {o for k in kernels for o in k["ops"]}
    # Ops no launch computes: layout ops Inductor turned into index arithmetic or strides
    # ("view"), and ops whose FX node a pattern rewrite replaced, so that no kernel names
    # it ("rewritten": softmax(x * c) becomes a softmax with the scale inside, whose nodes
    # carry only the softmax's name). consumer_kernels: the kernels (indices into kernels)
    # that compute the ops reading its value.
    out_of = {o[0]: o[3] for o in graph_ops}
    no_kernel = []
    for o in graph_ops:
        if o[0] in covered:
            continue
        readers = [c[0] for c in graph_ops if out_of[o[0]] in c[2]]
        ks = sorted({i for i, k in enumerate(kernels) for c in readers if c in k["ops"]})
        view = o[1] in ("reshape", "permute", "slice", "expand")
        no_kernel.append(dict(op=o[0], reason="view" if view else "rewritten",
                              consumer_kernels=ks))
    order = [dict(name=k["name"], kind=k["kind"] if k["kind"] != "cpp" else "triton",
                  **({"class": k["class"]} if k.get("class") else {}),
                  ops=k["ops"], source_nodes=k["source_nodes"],
                  **({"listed_ops": k["listed_ops"]} if "listed_ops" in k else {}),
                  **({"stores": k["stored"]} if k.get("stored") is not None else {}),
                  writes=k["writes"],
                  **({"args": k["args"]} if "args" in k else {}))
             for k in kernels]
    return dict(
        fgraph_ops=ops,
        kernels=order,
        kernel_count=len(order),
        triton_kernel_count=sum(1 for k in order if k["kind"] == "triton"),
        extern_kernel_count=sum(1 for k in order if k["kind"] == "extern"),
        ops_in_no_kernel=no_kernel,
        unmapped_source_nodes=unmapped,
        returns=returns,
    )


def reparse(out_dir):
    """Parse DIR/output_code.txt again into DIR/h100-inductor.json (no GPU): for a change to
    the parser after the measurement."""
    path = os.path.join(out_dir, "h100-inductor.json")
    with open(path) as fh:
        data = json.load(fh)
    code = os.path.join(out_dir, "output_code.txt")
    if not os.path.exists(code):  # as committed beside this script
        code = os.path.join(out_dir, "h100-inductor-output-code.txt")
    with open(code) as fh:
        text = fh.read()
    parts = re.split(r"^#{100}\n# graph (\w+)\n#{100}\n", text, flags=re.M)
    codes = dict(zip(parts[1::2], parts[2::2]))
    for g in data["graphs"]:
        g.update(plan_of(g["name"], codes[g["name"]], g["graph_inputs"]))
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    for g in data["graphs"]:
        report(g)


def report(g):
    print(f"{g['name']:20s} kernels {g['kernel_count']:2d} (triton {g['triton_kernel_count']}, "
          f"extern {g['extern_kernel_count']})  cuda launches {g['cuda_kernel_count']:2d}  "
          f"err {g['max_rel_err']:.1e} (fp32: compiled {g.get('rel_err_compiled_vs_fp32', -1):.1e}, "
          f"eager {g.get('rel_err_eager_vs_fp32', -1):.1e}) {'ok' if g['matches_eager'] else 'MISMATCH'}  "
          f"compile {g['compile_s']}s", flush=True)
    for k in g["kernels"]:
        print(f"    {k['kind']:6s} {k['name']:50s} {k['ops']}", flush=True)
    for o in g["ops_in_no_kernel"]:
        print(f"    no kernel: {o['op']} ({o['reason']}, read by kernels {o['consumer_kernels']})")
    if g["unmapped_source_nodes"]:
        print("    unmapped source nodes:", g["unmapped_source_nodes"], flush=True)


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def measure(name, dev, small, code_log):
    gen = torch.Generator(device="cpu").manual_seed(0)

    def r(*shape, dtype=F16, std=0.05):
        return (torch.randn(*shape, generator=gen, dtype=torch.float32) * std).to(dev, dtype)

    f, ins = GRAPHS[name](r, small)
    args = list(ins.values())
    from torch._inductor.utils import run_and_get_code

    placeholders = []
    inductor = torch._TorchCompileInductorWrapper(None, None, False)  # what torch.compile uses

    def backend(gm, example_inputs):
        # The graph inputs in order: Inductor's arg<i>_1 is the i-th.
        placeholders.clear()
        for n in gm.graph.nodes:
            if n.op == "placeholder":
                ga = n.meta.get("grapharg")
                m = re.search(r"L\['(\w+)'\]", str(getattr(ga, "source", "")))
                placeholders.append(m.group(1) if m else re.sub(r"^l_|_$", "", n.name))
        return inductor(gm, example_inputs)

    torch._dynamo.reset()
    cf = torch.compile(f, backend=backend, fullgraph=True, dynamic=False)
    t0 = time.time()
    with torch.no_grad():
        out, codes = run_and_get_code(cf, *args)
    compile_s = time.time() - t0
    if len(codes) != 1:
        raise RuntimeError(f"{name}: {len(codes)} compiled graphs (a graph break?)")
    code = codes[0]
    code_log.write(f"\n\n{'#' * 100}\n# graph {name}\n{'#' * 100}\n{code}\n")
    # Numerics: the compiled result against eager, and both against eager in float32 on
    # the same (upcast) inputs. Inductor computes 16-bit pointwise and reduction work in
    # float32, eager in the tensor's dtype, so the two 16-bit results differ by up to the
    # 16-bit error of each; the check is that the compiled one is no further from the
    # float32 result than eager is (2x, or 1e-2 where eager is closer than that).
    def tup(v):
        return v if isinstance(v, tuple) else (v,)

    with torch.no_grad():
        ref = tup(f(*args))
        out = tup(cf(*args))
        ref32 = tup(f(*[a.float() for a in args]))
    errs = [rel_err(o, e) for o, e in zip(out, ref)]
    err_c32 = [rel_err(o, e) for o, e in zip(out, ref32)]
    err_e32 = [rel_err(o, e) for o, e in zip(ref, ref32)]
    ok = all(c <= max(2 * e, 1e-2) for c, e in zip(err_c32, err_e32))

    plan = plan_of(name, code, placeholders)

    def launched(fn):
        """The CUDA kernels, memcpys and memsets of one call, in order (torch.profiler)."""
        from torch.profiler import ProfilerActivity, profile

        with torch.no_grad():
            for _ in range(2):
                fn(*args)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                fn(*args)
                torch.cuda.synchronize()
        evs = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        evs.sort(key=lambda e: e.time_range.start)
        return [e.name for e in evs]

    def is_kernel(n):
        return not n.startswith(("Memcpy", "Memset"))

    cuda_kernels = launched(cf) if dev == "cuda" else []
    eager_kernels = launched(f) if dev == "cuda" else []
    launches = [n for n in cuda_kernels if is_kernel(n)]
    return dict(
        name=name,
        fgraph_file=f"validation/inductor/{name}.fgraph",
        graph_inputs=placeholders,
        inputs={k: dict(shape=list(v.shape), dtype=str(v.dtype).replace("torch.", ""))
                for k, v in ins.items()},
        **plan,
        cuda_kernels=cuda_kernels,
        cuda_kernel_count=len(launches),
        cuda_other_count=len(cuda_kernels) - len(launches),
        eager_cuda_kernel_count=sum(1 for n in eager_kernels if is_kernel(n)),
        eager_cuda_kernels=eager_kernels,
        max_rel_err=max(errs),
        rel_err_compiled_vs_fp32=max(err_c32),
        rel_err_eager_vs_fp32=max(err_e32),
        matches_eager=ok,
        compile_s=round(compile_s, 2),
    )


def env_info(dev):
    import triton  # noqa: F401  (present with torch on the GPU machine)

    e = dict(torch=torch.__version__, triton=getattr(triton, "__version__", "?"),
             cuda=torch.version.cuda, python=sys.version.split()[0])
    if dev == "cuda":
        p = torch.cuda.get_device_properties(0)
        e.update(gpu=torch.cuda.get_device_name(0), sm_count=p.multi_processor_count,
                 capability=".".join(map(str, torch.cuda.get_device_capability(0))))
        try:
            import subprocess

            e["driver"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                capture_output=True, text=True, timeout=30).stdout.strip()
        except Exception:  # noqa: BLE001
            pass
    else:
        e["gpu"] = "none (cpu dry run)"
    e["mode"] = "torch.compile default (TorchInductor), fullgraph=True, dynamic=False, cudagraphs off"
    return e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--graph", action="append")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--reparse", action="store_true",
                    help="parse OUT/output_code.txt again into OUT/h100-inductor.json")
    a = ap.parse_args()
    if a.reparse:
        reparse(a.out)
        return 0
    os.makedirs(a.out, exist_ok=True)
    import torch._inductor.config as ic

    ic.fx_graph_cache = False
    ic.triton.cudagraphs = False
    torch.manual_seed(0)
    env = env_info(a.device)
    with open(os.path.join(a.out, "env.txt"), "w") as fh:
        for k, v in env.items():
            fh.write(f"{k}: {v}\n")
    print(json.dumps(env), flush=True)
    names = a.graph or list(GRAPHS)
    results, failed = [], []
    with open(os.path.join(a.out, "output_code.txt"), "w") as code_log:
        for n in names:
            try:
                g = measure(n, a.device, a.small, code_log)
                results.append(g)
                report(g)
            except Exception:  # noqa: BLE001  (record and go on with the next graph)
                traceback.print_exc()
                failed.append(n)
            code_log.flush()
    with open(os.path.join(a.out, "h100-inductor.json"), "w") as fh:
        json.dump(dict(env=env, graphs=results, failed=failed), fh, indent=1)
        fh.write("\n")
    print("failed:", failed, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
