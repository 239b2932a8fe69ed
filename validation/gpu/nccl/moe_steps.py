"""fgraph's predictions for tp_decode.py's expert-parallel Mixtral-8x7B MoE layer
(`mixtral_moe_ep`, issue 26): writes, for each (world N, tokens per rank T), the `.fgraph` of ONE
GPU's layer op by op as `Moe.step` runs it, prices it with the built binary, and adds the
results to predictions_nccl.json's `steps`.

    cargo build && python3 validation/gpu/nccl/moe_steps.py --predict
    python3 validation/gpu/nccl/moe_steps.py --print 2 512          # one layer's file

Each torch call of the step is one op (so `--runtime eager` counts its kernels): RMSNorm, the
router, the f32 cast and softmax, top-2 (values and indices), the renormalised weights and
their cast, the one-hot of the expert ids (`zeros` + `scatter_`: a fill and a write), its
cumsum, the arrival position (`- 1`, `gather`: one element a row, written as an index_select of
the flattened counts), the slot (`<`, `*`, `+`, `full_like`,
`where`), the tokens' rows (`index_select`) copied into the send buffer at their slots
(`index_copy_`, priced as an `index_add` of the same rows), the all-to-all of the 8 · CAP
slots, the local experts' rows regrouped (`view`/`transpose`/`reshape`: a copy), the fused
gate/up and down GEMMs as batched matmuls over the 8/N local experts, SiLU and the product,
the rows regrouped back (a copy), the second all-to-all, each token's two slots gathered,
weighted and summed, and the residual add. CAP = ceil(T · 2 / 8 · 1.25) per expert per rank.

Predictions: `graph` = `--runtime eager --launch graph`, `eager` = `--runtime eager --launch
eager`, both `--traffic-model hardware --hardware h100`; the all-to-alls are `all_to_all`
over `ep` of size N (direct; NVLS plays no part).
"""
import argparse, json, math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tp_steps as TS  # noqa: E402  (its analyze())

H, F, E, K = 4096, 14336, 8, 2


def cap(t):
    return max(1, math.ceil(t * K / E * 1.25))


def layer(n, t):
    c = cap(t)
    el = E // n
    slots = E * c
    return f"""// tp_decode.py's mixtral_moe_ep layer on one GPU of EP = {n}: {t} tokens, capacity {c}
// (written by validation/gpu/nccl/moe_steps.py)
graph mixtral_moe_ep{n}_t{t} {{
  dtype bf16
  input x: [{t}, {H}]
  input tok: i64[{t * K}]
  weight norm_w: [{H}]
  weight router_w: [{H}, {E}]
  weight w13: [{el}, {H}, {2 * F}]
  weight w2: [{el}, {F}, {H}]
  weight send: [{slots + 1}, {H}]
  op norm = reduction.rmsnorm(x, norm_w, eps = 1e-5) -> y
  op router = matmul(y, router_w) -> logits
  op upcast = elementwise.cast(logits) -> lf: f32[{t}, {E}]
  op route_softmax = reduction.softmax(lf, axis = -1) -> probs
  op top_w = topk(probs, k = {K}, axis = -1) -> tw
  op top_i = topk_indices(tw) -> ti: i64[{t}, {K}]
  op w_sum = reduction.sum(tw, axis = -1, keepdim = true) -> ws
  op renorm = elementwise.div(tw, ws) -> wn
  op downcast = elementwise.cast(wn) -> wb: bf16[{t}, {K}]
  op flat_e = reshape(ti) -> e: i64[{t * K}]
  op onehot = one_hot(e, classes = {E}) -> oh: i32[{t * K}, {E}]
  op fill = elementwise.fill(oh) -> oh0
  op arrivals = cumsum(oh0, axis = 0) -> cs: i64[{t * K}, {E}]
  op minus1 = elementwise.sub(cs, 1) -> cs1
  op cs_flat = reshape(cs1) -> csf: i64[{t * K * E}]
  op arrive = gather(csf, e, axis = 0) -> pos: i64[{t * K}]
  op fits = elementwise.lt(pos, {c}) -> ok: bool[{t * K}]
  op base = elementwise.mul(e, {c}) -> eb
  op at = elementwise.add(eb, pos) -> sl0: i64[{t * K}]
  op dropped = elementwise.fill(sl0) -> full
  op slot_of = elementwise.where(ok, sl0, full) -> slot: i64[{t * K}]
  op rows = gather(y, tok, axis = 0) -> yr
  op dispatch = index_add(send, slot, yr, axis = 0) -> sent
  op to_send = slice(sent, axis = 0, start = 0, end = {slots}) -> sv
  op a2a_out = all_to_all(sv, group = ep, size = {n}) -> recv
  op rv = reshape(recv) -> r4: [{n}, {el}, {c}, {H}]
  op rt = permute(r4, dims = [1, 0, 2, 3]) -> r4t
  op rg = reshape(r4t) -> r: [{el}, {n * c}, {H}]
  op gate_up = matmul(r, w13) -> gu
  op gate = slice(gu, axis = -1, start = 0, end = {F}) -> g
  op up = slice(gu, axis = -1, start = {F}, end = {2 * F}) -> u
  op act = elementwise.silu(g) -> sg
  op prod = elementwise.mul(sg, u) -> m
  op down = matmul(m, w2) -> z
  op zv = reshape(z) -> z4: [{el}, {n}, {c}, {H}]
  op zt = permute(z4, dims = [1, 0, 2, 3]) -> z4t
  op zg = reshape(z4t) -> zr: [{slots}, {H}]
  op a2a_back = all_to_all(zr, group = ep, size = {n}) -> back
  op pick = gather(back, slot, axis = 0) -> picked
  op pk = reshape(picked) -> p3: [{t}, {K}, {H}]
  op wcol = reshape(wb) -> w3: [{t}, {K}, 1]
  op weigh = elementwise.mul(p3, w3) -> pw
  op combine = reduction.sum(pw, axis = 1) -> comb: [{t}, {H}]
  op residual = elementwise.add(x, comb) -> out
  output out
}}
"""


CASES = [(2, t) for t in (1, 16, 512, 4096)]


def predict():
    steps = []
    for n, t in CASES:
        text = layer(n, t)
        for mode, launch in (("graph", "graph"), ("eager", "eager")):
            j = TS.analyze(text, launch)
            rt = j["cost"]["runtime"]
            steps.append(dict(what="mixtral_moe_ep", world=n, batch=t, layers=1, mode=mode,
                              time_us=round(rt["time_us"], 3), kernels=rt["kernels"]))
            print(steps[-1])
    return steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--predict", action="store_true")
    ap.add_argument("--print", nargs=2, type=int, metavar=("N", "T"))
    a = ap.parse_args()
    if a.print:
        print(layer(*a.print), end="")
    if a.predict:
        path = os.path.join(HERE, "predictions_nccl.json")
        d = json.load(open(path))
        d["steps"] = [s for s in d["steps"] if s["what"] != "mixtral_moe_ep"] + predict()
        d["moe_steps_made_by"] = "validation/gpu/nccl/moe_steps.py --predict"
        with open(path, "w") as fh:
            json.dump(d, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
