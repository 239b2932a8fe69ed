"""fgraph's predictions for tp_decode.py's tensor-parallel Llama-3-70B decode steps (issue 26):
writes, for each (world, batch, layers), the `.fgraph` of ONE GPU's step op by op as
tp_decode.py's `Llama.step` runs it, and prices it with the built binary.

    cargo build && python3 validation/gpu/nccl/tp_steps.py --predict   # steps of predictions_nccl.json
    python3 validation/gpu/nccl/tp_steps.py --print 4 1 80               # one step's file

Each torch call of the step is one op (so `--runtime eager` counts its kernels): the
vocab-parallel embedding (ids − offset, the two range tests and their `or`, the masked ids, the
gather, the masked rows, the all-reduce), the RoPE tables' rows (two index_select), and per layer
RMSNorm, the fused QKV projection (split into views), RoPE as `rope` in tp_decode.py is written
(rotate-half: two slices (views), four products, a difference, a sum, a cat) on q and on k, the
two KV-cache writes (`update` of one position), SDPA over the 4,096 cached positions (GQA as
decode rows: q [B, KV/N, 8, 128]), the O projection, its all-reduce, the residual add, RMSNorm,
the fused gate/up projection (chunked into views), SiLU, the product, the down projection, its
all-reduce, the residual add; then the final RMSNorm, the LM head's V/N columns and the
all-gather of the logits. The collectives name `algorithm = ring` (NVLS is off on the hosts;
all-gather's default is the ring anyway).

Predictions: `graph` = `--runtime eager --launch graph` (the step replayed from a CUDA graph),
`eager` = `--runtime eager --launch eager` (plain launches; the host's time per kernel), both
`--traffic-model hardware --hardware h100`: `cost.runtime.time_us`.
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BIN = os.path.join(ROOT, "target", "debug", "fgraph")
H, HQ, HKV, HD, F, V, CTX = 8192, 64, 8, 128, 28672, 128256, 4096


def rope(name, x, heads, b):
    half = HD // 2
    return f"""  op {name}_x1 = slice({x}, axis = -1, start = 0, end = {half}) -> {name}_a
  op {name}_x2 = slice({x}, axis = -1, start = {half}, end = {HD}) -> {name}_b
  op {name}_m1 = elementwise.mul({name}_a, cos) -> {name}_ac
  op {name}_m2 = elementwise.mul({name}_b, sin) -> {name}_bs
  op {name}_d = elementwise.sub({name}_ac, {name}_bs) -> {name}_lo
  op {name}_m3 = elementwise.mul({name}_b, cos) -> {name}_bc
  op {name}_m4 = elementwise.mul({name}_a, sin) -> {name}_as
  op {name}_s = elementwise.add({name}_bc, {name}_as) -> {name}_hi
  op {name}_cat = concat({name}_lo, {name}_hi, axis = -1) -> {name}_r: [{b}, {heads}, {HD}]
"""


def step(n, b, layers, ctx=CTX):
    hq, hkv, vl, fl = HQ // n, HKV // n, V // n, F // n
    grp = hq // hkv
    out = [f"""// tp_decode.py's llama3_70b_tp_decode step on one GPU of TP = {n}: batch {b}, {layers} layers,
// {ctx} cached positions (written by validation/gpu/nccl/tp_steps.py)
block layer() {{
  dtype bf16
  input x: [{b}, {H}]
  input cos: [1, 1, {HD // 2}]
  input sin: [1, 1, {HD // 2}]
  weight n1: [{H}]
  weight n2: [{H}]
  weight wqkv: [{H}, {(hq + 2 * hkv) * HD}]
  weight wo: [{hq * HD}, {H}]
  weight wgu: [{H}, {2 * fl}]
  weight wdown: [{fl}, {H}]
  weight k_cache: [{b}, {hkv}, {ctx}, {HD}]
  weight v_cache: [{b}, {hkv}, {ctx}, {HD}]
  op norm1 = reduction.rmsnorm(x, n1, eps = 1e-5) -> y
  op qkv = matmul(y, wqkv) -> qkv_out
  op q_split = slice(qkv_out, axis = 1, start = 0, end = {hq * HD}) -> q
  op k_split = slice(qkv_out, axis = 1, start = {hq * HD}, end = {(hq + hkv) * HD}) -> k
  op v_split = slice(qkv_out, axis = 1, start = {(hq + hkv) * HD}, end = {(hq + 2 * hkv) * HD}) -> v
  op q_view = reshape(q) -> qh: [{b}, {hq}, {HD}]
  op k_view = reshape(k) -> kh: [{b}, {hkv}, {HD}]
  op v_view = reshape(v) -> vh: [{b}, {hkv}, 1, {HD}]
"""]
    out.append(rope("rq", "qh", hq, b))
    out.append(rope("rk", "kh", hkv, b))
    out.append(f"""  op k_row = reshape(rk_r) -> k4: [{b}, {hkv}, 1, {HD}]
  op k_write = update(k_cache, k4, axis = 2, start = {ctx - 1}) -> kc
  op v_write = update(v_cache, vh, axis = 2, start = {ctx - 1}) -> vc
  op q_rows = reshape(rq_r) -> q4: [{b}, {hkv}, {grp}, {HD}]
  op sdpa = attention(q4, kc, vc) -> a4: [{b}, {hkv}, {grp}, {HD}]
  op merge = reshape(a4) -> am: [{b}, {hq * HD}]
  op o_proj = matmul(am, wo) -> o
  op ar1 = all_reduce(o, group = tp, size = {n}, algorithm = ring) -> os
  op res1 = elementwise.add(x, os) -> x1
  op norm2 = reduction.rmsnorm(x1, n2, eps = 1e-5) -> y2
  op gu = matmul(y2, wgu) -> gu_out
  op gate = slice(gu_out, axis = 1, start = 0, end = {fl}) -> g
  op up = slice(gu_out, axis = 1, start = {fl}, end = {2 * fl}) -> u
  op act = elementwise.silu(g) -> sg
  op prod = elementwise.mul(sg, u) -> pu
  op down = matmul(pu, wdown) -> z
  op ar2 = all_reduce(z, group = tp, size = {n}, algorithm = ring) -> zs
  op res2 = elementwise.add(x1, zs) -> x2
  output x2
}}

graph llama3_70b_tp{n}_decode {{
  dtype bf16
  input ids: i64[{b}]
  input pos: i64[1]
  input cos_table: [{ctx}, {HD // 2}]
  input sin_table: [{ctx}, {HD // 2}]
  weight emb: [{vl}, {H}]
  weight norm_f: [{H}]
  weight head: [{H}, {vl}]
  op shift = elementwise.sub(ids, {vl}) -> local
  op below = elementwise.lt(local, 0) -> lo: bool[{b}]
  op above = elementwise.ge(local, {vl}) -> hi: bool[{b}]
  op outside = elementwise.logical_or(lo, hi) -> out_mask
  op safe = elementwise.where(out_mask, 0, local) -> idx: i64[{b}]
  op embed = gather(emb, idx, axis = 0) -> e
  op mask_rows = reshape(out_mask) -> m2: bool[{b}, 1]
  op zero_rows = elementwise.where(m2, 0.0, e) -> ez: bf16[{b}, {H}]
  op ar_embed = all_reduce(ez, group = tp, size = {n}, algorithm = ring) -> x0
  op cos_row = gather(cos_table, pos, axis = 0) -> c1
  op sin_row = gather(sin_table, pos, axis = 0) -> s1
  op cos_view = reshape(c1) -> cos: [1, 1, {HD // 2}]
  op sin_view = reshape(s1) -> sin: [1, 1, {HD // 2}]
  repeat {layers} layers = layer(x0, cos, sin) -> h
  op norm_final = reduction.rmsnorm(h, norm_f, eps = 1e-5) -> hn
  op lm_head = matmul(hn, head) -> lg
  op gather_logits = all_gather(lg, group = tp, size = {n}, axis = 0, algorithm = ring) -> logits
  output logits
}}
""")
    return "".join(out)


def analyze(text, launch):
    with tempfile.NamedTemporaryFile("w", suffix=".fgraph", delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--hardware", "h100",
                            "--runtime", "eager", "--launch", launch, path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        sys.exit(f"fgraph failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-2000:]}")
    return json.loads(r.stdout)


# The cases run.sh's `steps` stage measures (STEPS_ARGS="--what llama --layers 36,72"; 72 layers
# are what --layers auto gives at TP 2 on an 80 GB H100, and half of it), batches 1 and 16.
CASES = {2: (36, 72), 4: (36, 72)}


def predict():
    steps = []
    for n, depths in CASES.items():
        for L in depths:
            for b in (1, 16):
                text = step(n, b, L)
                for mode, launch in (("graph", "graph"), ("eager", "eager")):
                    j = analyze(text, launch)
                    rt = j["cost"]["runtime"]
                    comm = j["cost"].get("communication", {})
                    steps.append(dict(what="llama3_70b_tp_decode", world=n, batch=b, layers=L, mode=mode,
                                      time_us=round(rt["time_us"], 3), kernels=rt["kernels"],
                                      comm_us=round(comm.get("time_us", 0.0), 3) if isinstance(comm, dict) else None))
                    print(steps[-1])
    return steps


# A second held-out set (after issue 24's stream terms changed `--runtime`): TP 2, batches 4
# and 8 against 8,191 cached positions, 32 and 64 layers (run.sh's STEPS_ARGS="--what llama
# --layers 32,64 --batches 4,8 --ctx 8192"); predictions in predictions_steps_ctx8192.json.
CASES2 = {2: (32, 64)}


def predict2():
    steps = []
    for n, depths in CASES2.items():
        for L in depths:
            for b in (4, 8):
                text = step(n, b, L, ctx=8192)
                for mode in ("graph", "eager"):
                    rt = analyze(text, mode)["cost"]["runtime"]
                    steps.append(dict(what="llama3_70b_tp_decode", world=n, batch=b, layers=L, mode=mode, ctx=8192,
                                      time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
                    print(steps[-1])
    return steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--predict", action="store_true")
    ap.add_argument("--predict2", action="store_true", help="predictions_steps_ctx8192.json (CASES2)")
    ap.add_argument("--print", nargs=3, type=int, metavar=("N", "B", "L"))
    a = ap.parse_args()
    if a.print:
        print(step(*a.print), end="")
    if a.predict2:
        with open(os.path.join(HERE, "predictions_steps_ctx8192.json"), "w") as fh:
            json.dump(dict(what="fgraph's --runtime eager predictions (h100 preset) of tp_decode.py's TP-2 steps at "
                                "batch 4 and 8 against 8,192 cached positions, made before they are measured",
                           made_by="validation/gpu/nccl/tp_steps.py --predict2", collectives=[], steps=predict2()),
                      fh, indent=1)
            fh.write("\n")
    if a.predict:
        path = os.path.join(HERE, "predictions_nccl.json")
        d = json.load(open(path))
        d["steps"] = predict()
        d["steps_made_by"] = "validation/gpu/nccl/tp_steps.py --predict"
        with open(path, "w") as fh:
            json.dump(d, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
