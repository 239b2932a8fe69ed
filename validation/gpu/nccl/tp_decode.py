"""Whole steps under model parallelism (issue 26): a tensor-parallel Llama-3-70B decode step and
a Mixtral-8x7B expert-parallel MoE layer, plain PyTorch ops over torch.distributed (NCCL), random
weights of the real shapes (nothing is downloaded), timed eagerly and by CUDA-graph replay.

One process per GPU (`torchrun --nproc-per-node N tp_decode.py ...`), or alone at world size 1.
NVLink multicast must be off (run.sh exports the variables; every rank checks them).

llama3_70b_tp_decode (TP = N; N divides 8): hidden 8192, 64 query heads and 8 KV heads of 128
  (GQA), MLP 28672 (SwiGLU), vocab 128256, RMSNorm eps 1e-5, RoPE theta 5e5, bf16. Megatron's
  sharding: per layer RMSNorm -> column-parallel QKV [8192 -> (64+16)/N x 128] -> RoPE on q, k ->
  k and v written in place into the layer's KV cache [B, 8/N, CTX, 128] at the step's position
  (index_copy_ with a device tensor, so one captured graph serves every position) -> attention
  over the CTX cached positions (SDPA; each KV head's 8 query heads are passed as 8 query rows
  of that head, the decode form of GQA, no mask: every cached position is visible) ->
  row-parallel O [64/N x 128 -> 8192] -> all_reduce -> residual -> RMSNorm -> column-parallel
  gate+up [8192 -> 2 x 28672/N] -> SiLU(gate) x up -> row-parallel down [28672/N -> 8192] ->
  all_reduce -> residual. Before the layers, the vocab-parallel embedding (each rank holds
  128256/N rows; ids outside its range give zeros) and its all_reduce; after them the final
  RMSNorm, the vocab-parallel LM head [8192 -> 128256/N] and the all_gather of the logits
  (all_gather_into_tensor: [N, B, 128256/N]). Collectives per step: 2L + 1 all_reduces of
  B x 8192 x 2 bytes and one all_gather of N x B x 128256/N x 2 bytes.
  Batches 1 and 16, CTX 4096 (--ctx). Depths: --layers auto picks the deepest of 80 (rounded
  down to a multiple of 8) whose weights and KV cache fit this GPU's free memory less 4 GiB;
  the step is also timed at half that depth (same weights: the first L/2 layers), so the
  per-layer slope is (t(L) - t(L/2)) / (L/2) (extract.py prints it).
  Per GPU (weights + KV cache for batch 16 at CTX 4096; 1 GB = 1e9 B): a layer is 1.711 GB of
  weights and 0.268 GB of cache, divided by N; embedding and LM head 4.20 GB / N. 80 layers:
  N = 1 162.5 GB (no), N = 2 81.3 GB (not on an 80 GB card with the rest: auto gives 72
  layers), N = 4 40.6 GB, N = 8 20.3 GB. `--dry-run` prints this table.

mixtral_moe_ep (EP = N; N divides 8): Mixtral-8x7B's sparse MoE block, hidden 4096, 8 experts of
  SwiGLU 14336, top-2, bf16; 8/N experts per rank. Each rank holds its own T tokens (batch =
  tokens per rank): RMSNorm -> router [4096 -> 8] -> softmax, top-2, weights renormalised ->
  dispatch with a fixed capacity, GShard's: each expert takes at most CAP = ceil(T x 2 / 8 x 1.25)
  tokens from each rank (later ones are dropped), so the send buffer is [8 x CAP, 4096] whatever
  the routing and the whole layer is capturable (no host sync) -> all_to_all_single (equal
  splits: rank j receives its experts' slots from every rank) -> the local experts as batched
  GEMMs over [8/N, N x CAP, 4096] -> all_to_all_single back -> weighted combine of each token's
  two slots -> residual. Bytes each rank sends per all_to_all: 8 x CAP x 4096 x 2 (the
  `comm` column). The attention half of a Mixtral layer is not included. Tokens per rank
  1, 16, 512, 4096 (--moe-tokens); --moe-layers stacks that many blocks with their own weights.

Timing: `eager`: 3 warm-up steps, then 3 runs of REPS steps (REPS 20, a barrier before each run),
CUDA events; `graph`: the step captured once into a CUDA graph (after 3 warm-up steps on a side
stream), 3 replays to warm, then 3 runs of REPS replays. time_us is the mean over ranks of each
rank's mean per step; per_layer_us = time_us / layers. Rows go to DIR/steps_wN.csv.

  python3 tp_decode.py --dry-run [--world 8]         # memory table, cases, time (no torch)
  torchrun --nproc-per-node N tp_decode.py --out DIR [--what llama,moe] [--layers auto|80|40,80]
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nccl_common as C  # noqa: E402

LLAMA = dict(hidden=8192, layers=80, heads=64, kv_heads=8, head_dim=128, inter=28672, vocab=128256,
             theta=500000.0, eps=1e-5)
MIXTRAL = dict(hidden=4096, inter=14336, experts=8, topk=2, eps=1e-5, capacity=1.25)
WARM, RUNS, REPS = 3, 3, 20
RESERVE = 4 << 30
COLUMNS = ["what", "world", "batch", "layers", "mode", "ctx", "dtype", "time_us", "time_min_us", "time_max_us",
           "best_run_us", "per_layer_us", "reps", "weights_gb", "cache_gb", "mem_peak_gb", "comm", "status"]


# ----------------------------------------------------------------------------- sizes (no torch)

def llama_layer_bytes(n, ctx, bmax, m=LLAMA):
    h, hd, hq, hkv, f = m["hidden"], m["head_dim"], m["heads"], m["kv_heads"], m["inter"]
    qkv = h * (hq + 2 * hkv) * hd
    o = hq * hd * h
    mlp = 3 * h * f
    w = (qkv + o + mlp + 2 * h) * 2 / n  # + the two norms (replicated, counted /n: negligible)
    cache = bmax * max(hkv // n, 1) * ctx * hd * 2 * 2
    return w, cache


def llama_edge_bytes(n, m=LLAMA):
    return 2 * m["vocab"] * m["hidden"] * 2 / n + m["hidden"] * 2


def auto_layers(n, ctx, bmax, free):
    w, c = llama_layer_bytes(n, ctx, bmax)
    fit = int((free - RESERVE - llama_edge_bytes(n)) // (w + c))
    return max(0, min(LLAMA["layers"], fit // 8 * 8 if fit >= 8 else fit))


def moe_cap(t, m=MIXTRAL):
    return max(1, math.ceil(t * m["topk"] / m["experts"] * m["capacity"]))


def moe_expert_bytes(m=MIXTRAL):
    return 3 * m["hidden"] * m["inter"] * 2


def plan(world, ctx, batches, moe_tokens, layers_arg, what):
    card = 81559 << 20  # nvidia-smi's H100 80GB HBM3
    free = card - (600 << 20)  # less the CUDA context, as a plan's guess
    bmax = max(batches)
    print(f"tp_decode plan: world {world}, ctx {ctx}, batches {batches}, moe tokens/rank {moe_tokens}; "
          f"warm-up {WARM}, {RUNS} runs x {REPS} steps, eager and graph")
    print("llama3_70b_tp_decode memory per GPU (weights + KV cache for batch "
          f"{bmax} at ctx {ctx}), 80 layers, and the depth --layers auto picks on an 80 GB H100:")
    for n in (1, 2, 4, 8):
        w, c = llama_layer_bytes(n, ctx, bmax)
        e = llama_edge_bytes(n)
        full = 80 * (w + c) + e
        L = auto_layers(n, ctx, bmax, free)
        print(f"  N={n}: layer {w / 1e9:.3f} GB weights + {c / 1e9:.3f} GB cache, embedding+head {e / 1e9:.2f} GB; "
              f"80 layers {full / 1e9:.1f} GB ({'fits' if full + RESERVE <= free else 'does not fit'}); auto: {L} layers")
    depths = layer_list(layers_arg, auto_layers(world, ctx, bmax, free))
    steps = []
    if "llama" in what:
        for L in depths:
            for b in batches:
                steps.append(("llama3_70b_tp_decode", b, L))
    if "moe" in what:
        for t in moe_tokens:
            steps.append(("mixtral_moe_ep", t, 1))
    est = 0.0
    for name, b, L in steps:
        if name.startswith("llama"):
            w, c = llama_layer_bytes(world, ctx, b)
            t = L * (w + c * b / bmax) / 2.5e12 + L * 2 * 25e-6 + llama_edge_bytes(world) / 2.5e12
        else:
            rows = 8 * moe_cap(b)  # expert rows each rank computes (padded slots)
            t = (max((8 // world) * moe_expert_bytes() / 2.5e12, rows * moe_expert_bytes() / 6e14)
                 + 2 * rows * 4096 * 2 / 2.5e11 + 200e-6)
        est += 2 * (WARM + RUNS * REPS + 3) * t + 2.0
        print(f"  case {name} world {world} batch {b} layers {L}: eager + graph, ~{t * 1e3:.2f} ms a step")
    print(f"moe: {MIXTRAL['experts']} experts / {world} ranks, capacity factor {MIXTRAL['capacity']}: "
          + ", ".join(f"T={t}: cap {moe_cap(t)}, {8 * moe_cap(t) * 4096 * 2 / 1e6:.2f} MB per all_to_all" for t in moe_tokens))
    print(f"cases: {2 * len(steps)} ({len(steps)} steps x eager/graph); estimated {est:.0f} s + weights init + "
          f"~30 s start-up = ~{est + 60:.0f} s")
    print("multicast: " + C.multicast_env())


def layer_list(arg, auto):
    out = []
    for tok in str(arg).split(","):
        tok = tok.strip()
        if tok == "auto":
            out += [max(1, auto // 2), auto] if auto >= 2 else [max(auto, 1)]
        elif tok:
            out.append(int(tok))
    return sorted(set(x for x in out if x > 0))


# ----------------------------------------------------------------------------- the models

class Llama:
    def __init__(self, d, layers, ctx, batches, m=LLAMA):
        torch = d.torch
        self.d, self.m, self.torch = d, m, torch
        n, dev, dt = d.world, d.device, torch.bfloat16
        assert m["heads"] % n == 0 and m["kv_heads"] % n == 0 and m["vocab"] % n == 0, f"TP {n} must divide 8"
        h, hd = m["hidden"], m["head_dim"]
        self.hq, self.hkv = m["heads"] // n, m["kv_heads"] // n
        self.vl = m["vocab"] // n
        self.fl = m["inter"] // n
        self.ctx = ctx
        bmax = max(batches)
        g = torch.Generator(device=dev)
        g.manual_seed(1234 + d.rank)

        def w(*shape, std=0.02):
            return torch.empty(*shape, dtype=dt, device=dev).normal_(0.0, std, generator=g)

        self.emb = w(self.vl, h)
        self.head = w(self.vl, h)
        self.norm_f = torch.ones(h, dtype=dt, device=dev)
        self.layers = []
        for _ in range(layers):
            self.layers.append(dict(
                n1=torch.ones(h, dtype=dt, device=dev), n2=torch.ones(h, dtype=dt, device=dev),
                qkv=w((self.hq + 2 * self.hkv) * hd, h), o=w(h, self.hq * hd),
                gu=w(2 * self.fl, h), down=w(h, self.fl),
                k=torch.zeros(bmax, self.hkv, ctx, hd, dtype=dt, device=dev),
                v=torch.zeros(bmax, self.hkv, ctx, hd, dtype=dt, device=dev)))
        inv = 1.0 / (m["theta"] ** (torch.arange(0, hd, 2, device=dev, dtype=torch.float32) / hd))
        ang = torch.outer(torch.arange(ctx, device=dev, dtype=torch.float32), inv)
        self.cos, self.sin = ang.cos().to(dt), ang.sin().to(dt)
        self.pos = torch.full((1,), ctx - 1, dtype=torch.long, device=dev)  # the step writes the last slot
        self.ids = torch.randint(0, m["vocab"], (bmax,), device=dev, generator=g)
        d.dist.broadcast(self.ids, src=0)  # every rank decodes the same tokens
        self.logits = {b: torch.empty(n * b, self.vl, dtype=dt, device=dev) for b in batches}

    def rope(self, x, cos, sin):  # x [B, heads, hd]; rotate-half
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        return self.torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)

    def step(self, b, L):
        torch, F, dist, m = self.torch, self.torch.nn.functional, self.d.dist, self.m
        h, hd, eps = m["hidden"], m["head_dim"], m["eps"]
        ids = self.ids[:b]
        lo = self.d.rank * self.vl
        local = ids - lo
        outside = (local < 0) | (local >= self.vl)
        x = F.embedding(local.masked_fill(outside, 0), self.emb)
        x = x.masked_fill(outside[:, None], 0.0)
        dist.all_reduce(x)
        cos = self.cos.index_select(0, self.pos)[:, None, :]  # [1, 1, hd/2]
        sin = self.sin.index_select(0, self.pos)[:, None, :]
        grp = self.hq // self.hkv
        for lay in self.layers[:L]:
            y = F.rms_norm(x, (h,), lay["n1"], eps)
            qkv = F.linear(y, lay["qkv"])
            q, k, v = qkv.split([self.hq * hd, self.hkv * hd, self.hkv * hd], dim=-1)
            q = self.rope(q.view(b, self.hq, hd), cos, sin)
            k = self.rope(k.view(b, self.hkv, hd), cos, sin)
            kc, vc = lay["k"][:b], lay["v"][:b]
            kc.index_copy_(2, self.pos, k.unsqueeze(2))
            vc.index_copy_(2, self.pos, v.view(b, self.hkv, 1, hd))
            a = F.scaled_dot_product_attention(q.view(b, self.hkv, grp, hd), kc, vc)
            a = F.linear(a.reshape(b, self.hq * hd), lay["o"])
            dist.all_reduce(a)
            x = x + a
            y = F.rms_norm(x, (h,), lay["n2"], eps)
            gu = F.linear(y, lay["gu"])
            gate, up = gu.chunk(2, dim=-1)
            z = F.linear(F.silu(gate) * up, lay["down"])
            dist.all_reduce(z)
            x = x + z
        y = F.rms_norm(x, (h,), self.norm_f, eps)
        lg = F.linear(y, self.head)
        out = self.logits[b]  # [N x B, V/N]: rank r's logits in rows r*B .. r*B + B - 1
        dist.all_gather_into_tensor(out, lg)
        return out

    def comm(self, b, L):
        n, h = self.d.world, self.m["hidden"]
        return (f"all_reduce x{2 * L + 1} of {b * h * 2} B; all_gather of {n * b * self.vl * 2} B")


class Moe:
    def __init__(self, d, tokens, layers, m=MIXTRAL):
        torch = d.torch
        self.d, self.m, self.torch = d, m, torch
        n, dev, dt = d.world, d.device, torch.bfloat16
        assert m["experts"] % n == 0, f"EP {n} must divide {m['experts']}"
        self.el = m["experts"] // n
        h, f = m["hidden"], m["inter"]
        g = torch.Generator(device=dev)
        g.manual_seed(4321 + d.rank)

        def w(*shape, std=0.02):
            return torch.empty(*shape, dtype=dt, device=dev).normal_(0.0, std, generator=g)

        self.layers = [dict(norm=torch.ones(h, dtype=dt, device=dev), router=w(m["experts"], h),
                            w13=w(self.el, h, 2 * f), w2=w(self.el, f, h)) for _ in range(layers)]
        self.bufs = {}
        for t in tokens:
            cap = moe_cap(t)
            slots = m["experts"] * cap
            self.bufs[t] = dict(
                cap=cap, x=w(t, h, std=1.0),
                send=torch.zeros(slots + 1, h, dtype=dt, device=dev),  # the last row takes dropped tokens
                recv=torch.empty(slots, h, dtype=dt, device=dev),
                back=torch.zeros(slots + 1, h, dtype=dt, device=dev),  # the last row stays zero
                tok=torch.arange(t * m["topk"], device=dev) // m["topk"])

    def step(self, t, L):
        torch, F, dist, m = self.torch, self.torch.nn.functional, self.d.dist, self.m
        bf = self.bufs[t]
        cap, E, K, h = bf["cap"], m["experts"], m["topk"], m["hidden"]
        n, el = self.d.world, self.el
        slots = E * cap
        x = bf["x"]
        for lay in self.layers[:L]:
            y = F.rms_norm(x, (h,), lay["norm"], m["eps"])
            probs = F.linear(y, lay["router"]).float().softmax(-1)
            wts, exp = probs.topk(K, dim=-1)  # [T, K]
            wts = (wts / wts.sum(-1, keepdim=True)).to(x.dtype)
            e = exp.reshape(-1)
            onehot = torch.zeros(t * K, E, dtype=torch.int32, device=x.device).scatter_(1, e[:, None], 1)
            pos = (onehot.cumsum(0) - 1).gather(1, e[:, None]).squeeze(1)  # arrival order at the expert
            slot = torch.where(pos < cap, e * cap + pos, torch.full_like(e, slots))
            bf["send"].index_copy_(0, slot, y.index_select(0, bf["tok"]))
            dist.all_to_all_single(bf["recv"], bf["send"][:slots])
            r = bf["recv"].view(n, el, cap, h).transpose(0, 1).reshape(el, n * cap, h)
            gu = torch.bmm(r, lay["w13"])
            gate, up = gu.chunk(2, dim=-1)
            z = torch.bmm(F.silu(gate) * up, lay["w2"])  # [el, n*cap, h]
            z = z.view(el, n, cap, h).transpose(0, 1).reshape(slots, h)
            dist.all_to_all_single(bf["back"][:slots], z)
            comb = (bf["back"].index_select(0, slot).view(t, K, h) * wts[..., None]).sum(1)
            x = x + comb
        return x

    def comm(self, t, L):
        b = self.m["experts"] * moe_cap(t) * self.m["hidden"] * 2
        return f"all_to_all_single x{2 * L} of {b} B (capacity {moe_cap(t)} per expert per rank)"


# ----------------------------------------------------------------------------- timing

def time_step(d, fn, mode):
    torch = d.torch
    if mode == "eager":
        return C.timed_runs(d, fn, WARM, REPS, RUNS)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(WARM):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    d.barrier()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, capture_error_mode="thread_local"):
        fn()
    d.barrier()
    try:
        return C.timed_runs(d, g.replay, 3, REPS, RUNS)
    finally:
        del g


def run_case(d, out, what, b, L, ctx, fn, comm, weights_gb, cache_gb):
    torch = d.torch
    for mode in ("eager", "graph") if d.cuda else ("eager",):
        status = "ok"
        if d.cuda:
            torch.cuda.reset_peak_memory_stats()
        try:
            d.barrier()
            per = time_step(d, fn, mode)
        except Exception as ex:  # noqa: BLE001
            per, status = [float("nan")] * RUNS, f"FAILED {type(ex).__name__}: {ex}"[:200]
        t, tmin, tmax, best = C.rank_stats(d, per)
        ok = status == "ok" and math.isfinite(t)
        peak = torch.cuda.max_memory_allocated() / 1e9 if d.cuda else None
        out.row(what=what, world=d.world, batch=b, layers=L, mode=mode, ctx=ctx, dtype="bf16",
                time_us=t if ok else None, time_min_us=tmin if ok else None, time_max_us=tmax if ok else None,
                best_run_us=best if ok else None, per_layer_us=t / L if ok else None, reps=REPS,
                weights_gb=weights_gb, cache_gb=cache_gb, mem_peak_gb=peak, comm=comm, status=status)
        if d.rank == 0:
            print(f"{what} world {d.world} batch {b} layers {L} {mode}: {t:.1f} us ({t / L:.1f} per layer) {status}",
                  flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--world", type=int, default=int(os.environ.get("WORLD_SIZE", "8")))
    ap.add_argument("--what", default="llama,moe")
    ap.add_argument("--layers", default="auto", help="auto (the deepest that fits, and half of it) or a list: 40,80")
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--batches", default="1,16")
    ap.add_argument("--moe-tokens", default="1,16,512,4096")
    ap.add_argument("--moe-layers", type=int, default=1)
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda", help="cpu: gloo, a logic test only")
    ap.add_argument("--tiny", action="store_true", help="small shapes (a logic test; rows say `tiny`)")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    a = ap.parse_args()
    batches = [int(x) for x in a.batches.split(",")]
    tokens = [int(x) for x in a.moe_tokens.split(",")]
    what = a.what.split(",")
    if a.tiny:  # the same code on small shapes, for a logic test (CPU or one GPU)
        LLAMA.update(hidden=256, layers=4, heads=16, kv_heads=8, head_dim=16, inter=512, vocab=1024)
        MIXTRAL.update(hidden=128, inter=256)
    if a.dry_run:
        plan(a.world, a.ctx, batches, tokens, a.layers, what)
        return
    if True:  # on CPU too, so a logic test exercises the check
        C.require_multicast_off(f"tp_decode rank {os.environ.get('RANK', '0')}")
    d = C.Dist(a.device)
    torch = d.torch
    print(f"rank {d.rank}/{d.world} device {d.device} {C.multicast_env()}", flush=True)
    out = C.CsvOut(os.path.join(a.out, f"steps_w{d.world}.csv"), COLUMNS, d.rank == 0)
    torch.backends.cuda.matmul.allow_tf32 = False
    ctx = torch.inference_mode()
    ctx.__enter__()
    if "llama" in what:
        free = torch.cuda.mem_get_info()[0] if d.cuda else 64 << 30
        free = min(d.gather_floats([float(free)]))[0] if d.world > 1 else free
        auto = auto_layers(d.world, a.ctx, max(batches), free)
        depths = layer_list(a.layers, auto)
        if d.rank == 0:
            print(f"llama: free {free / 2**30:.1f} GiB, auto depth {auto}, timing depths {depths}", flush=True)
        model = Llama(d, max(depths), a.ctx, batches)
        w, c = llama_layer_bytes(d.world, a.ctx, max(batches))
        for L in depths:
            for b in batches:
                run_case(d, out, "llama3_70b_tp_decode" + ("_tiny" if a.tiny else ""), b, L, a.ctx, lambda b=b, L=L: model.step(b, L),
                         model.comm(b, L), (L * w + llama_edge_bytes(d.world)) / 1e9, L * c / 1e9)
        del model
        if d.cuda:
            torch.cuda.empty_cache()
    if "moe" in what:
        model = Moe(d, tokens, a.moe_layers)
        wgb = a.moe_layers * model.el * moe_expert_bytes() / 1e9
        for t in tokens:
            run_case(d, out, "mixtral_moe_ep" + ("_tiny" if a.tiny else ""), t, a.moe_layers, 0, lambda t=t: model.step(t, a.moe_layers),
                     model.comm(t, a.moe_layers), wgb, 0.0)
    ctx.__exit__(None, None, None)
    out.close()
    d.barrier()
    d.close()


if __name__ == "__main__":
    main()
