//! `--ops transformers`: a Llama-family step (llama, mistral, qwen2; a prefill or one decode
//! step) written as transformers' modeling code runs its eager forward, op by op, so that
//! `--runtime eager` prices the kernels transformers launches (docs/VALIDATION.md §56):
//! `LlamaRMSNorm` as its eight operations (f32 upcast, `pow`, `mean`, `+ eps`, `rsqrt`, the
//! product, the cast back, the weight), the rotary tables computed every step from `inv_freq`
//! and the positions (`LlamaRotaryEmbedding`: a matmul, `cat`, `cos` and `sin` scaled, cast),
//! `rotate_half` with its `neg` and `cat` per head, hidden states `[B, S, H]` and heads
//! `[B, heads, S, D]` (`.view(..).transpose(1, 2)`), a decode step's `DynamicLayer.update`
//! (the new key and value appended to the cache by `torch.cat`, a copy of the whole cache),
//! and the attention `attn_implementation` names: `sdpa` one `scaled_dot_product_attention`
//! call (`is_causal` when more than one query, `enable_gqa`: no copy of K or V), `eager`
//! `eager_attention_forward` (`repeat_kv`'s expand and reshape, the scores times `scaling`
//! plus the causal mask built once per step, the softmax in f32 between casts, P·V, the heads
//! merged by `.transpose(1, 2).contiguous()`).
//!
//! A linear layer with a bias (Qwen2's Q, K and V projections) is `matmul(x, w, b)`: as
//! `nn.Linear`, one cuBLAS kernel with the bias in its epilogue. GPT-2's step is written by
//! `super::transformers_gpt2`, which `Emitter::transformers_file` hands it to.
//!
//! What it leaves out, with its cost: the dozen kernels transformers spends on position and
//! mask bookkeeping before the first layer (`arange`, `cumsum` over a few positions: about
//! 15 µs under CUDA graphs). A sliding window shorter than the step's keys (a windowed mask)
//! is refused.

use super::{Emitter, float};
use crate::importers::hf::arch::Kind;
use crate::importers::hf::{Attn, Options};
use crate::types::Dtype;

/// Why `--ops transformers` cannot write this model or step, if it cannot.
pub(super) fn unsupported(e: &Emitter<'_>, _: &Options) -> Option<String> {
    let a = e.a;
    if a.model_type == "gpt2" {
        return super::transformers_gpt2::unsupported_gpt2(e);
    }
    let llama = matches!(a.model_type, "llama" | "mistral" | "qwen2");
    if !llama || a.moe.is_some() || a.mla.is_some() || !a.rope || a.qkv_fused {
        return Some(format!(
            "`--ops transformers` writes the llama, mistral, qwen2 and gpt2 families \
             (model_type {} is imported as the model's computation: leave out `--ops`)",
            a.model_type
        ));
    }
    let keys = e.step.seq + e.step.past.unwrap_or(0);
    if let Some(w) = a.kinds.iter().filter_map(|k| k.window).min()
        && w < keys
    {
        return Some(format!(
            "`--ops transformers` writes causal attention: this model's sliding window ({w} \
             positions) is shorter than the {keys} positions of the step, where transformers \
             builds a windowed mask the file does not model yet"
        ));
    }
    None
}

/// The most negative finite value of `dt` (`torch.finfo(dtype).min`, the mask's value).
fn lowest(dt: Dtype) -> f64 {
    match dt {
        Dtype::F16 => -65504.0,
        Dtype::Bf16 => -3.3895313892515355e38,
        Dtype::F64 => f64::MIN,
        _ => f64::from(f32::MIN),
    }
}

impl Emitter<'_> {
    /// The scalar type's name in fgraph (`bf16`).
    fn dts(&self) -> &'static str {
        self.a.dtype.as_str()
    }

    /// `op NAME = matmul(src, w[, b]) -> out`: `nn.Linear`, its bias in cuBLAS's epilogue.
    fn nn_linear(&mut self, name: &str, src: &str, w: &str, out: &str, bias: Option<&str>) {
        let bias = bias.map(|b| format!(", {b}")).unwrap_or_default();
        self.l(1, format!("op {name} = matmul({src}, {w}{bias}) -> {out}"));
    }

    pub(super) fn transformers_file(&mut self) -> Result<(), String> {
        if self.a.model_type == "gpt2" {
            self.gpt2_transformers_file();
            return Ok(());
        }
        self.header();
        self.l(
            0,
            format!(
                "// Written as transformers' modeling code runs it (--ops transformers), op by op, \
                 attn_implementation \"{}\"{}:",
                self.attn.implementation(),
                if self.attn == Attn::SdpaTraced {
                    " as traced (torch.compile, CUDA-graph capture)"
                } else {
                    ""
                }
            ),
        );
        self.l(
            0,
            "// --runtime eager prices the kernels its eager forward launches. Left out: the dozen",
        );
        self.l(
            0,
            "// kernels of position and mask bookkeeping before the first layer.",
        );
        if self.attn == Attn::Sdpa {
            self.l(
                0,
                "// Under torch.compile or a CUDA-graph capture transformers builds the mask and repeats",
            );
            self.l(
                0,
                "// K and V instead: `--attn sdpa-traced` writes that step (VALIDATION.md §57).",
            );
        }
        self.l(0, "");
        self.rms_norm_block();
        self.l(0, "");
        self.rope_block();
        self.l(0, "");
        let kinds = super::kinds(self.a);
        for (k, name) in &kinds {
            self.hf_layer_block(*k, name);
            self.l(0, "");
        }
        let plan = super::plan(&self.a.kinds);
        if let super::Plan::Pairs { .. } = plan {
            self.pair_block(&kinds);
            self.l(0, "");
        }
        self.hf_graph(&kinds, &plan);
        Ok(())
    }

    /// `LlamaRMSNorm.forward`, op by op.
    fn rms_norm_block(&mut self) {
        let dt = self.dts();
        let eps = float(self.a.eps);
        self.l(
            0,
            "// LlamaRMSNorm: the hidden states in f32, their mean square, + eps, rsqrt, the",
        );
        self.l(0, "// product cast back, times the weight (eight kernels).");
        self.l(0, format!("block rms_norm(B, S, H, DT = {dt}) {{"));
        self.l(1, "dtype DT");
        self.l(1, "input x: [B, S, H]");
        self.l(1, "weight w: [H]");
        self.l(1, "op to_f32 = elementwise.cast(x) -> xf: f32[B, S, H]");
        self.l(1, "op pow = elementwise.pow(xf, 2) -> x2");
        self.l(
            1,
            "op mean = reduction.mean(x2, axis = -1, keepdim = true) -> variance: [B, S, 1]",
        );
        self.l(
            1,
            format!("op add_eps = elementwise.add(variance, {eps}) -> ve // rms_norm_eps"),
        );
        self.l(1, "op rsqrt = elementwise.rsqrt(ve) -> r");
        self.l(1, "op normalize = elementwise.mul(xf, r) -> xr");
        self.l(
            1,
            format!("op to_dtype = elementwise.cast(xr) -> xd: {dt}[B, S, H]"),
        );
        self.l(1, "op scale = elementwise.mul(w, xd) -> y");
        self.l(1, "output y");
        self.l(0, "}");
    }

    /// `apply_rotary_pos_emb` on one tensor of heads: `t * cos + rotate_half(t) * sin`.
    fn rope_block(&mut self) {
        self.l(
            0,
            "// apply_rotary_pos_emb on [B, N, S, D] heads: t * cos + rotate_half(t) * sin,",
        );
        self.l(
            0,
            "// rotate_half(t) = cat(-t[..., D/2:], t[..., :D/2]) (the slices are views).",
        );
        self.l(
            0,
            format!("block rotary(B, N, S, D, DT = {}) {{", self.dts()),
        );
        self.l(1, "dtype DT");
        self.l(1, "param HALF = D / 2");
        self.l(1, "input t: [B, N, S, D]");
        self.l(1, "input cos: [B, 1, S, D]");
        self.l(1, "input sin: [B, 1, S, D]");
        self.l(1, "op t_cos = elementwise.mul(t, cos) -> c");
        self.l(
            1,
            "op first_half = slice(t, axis = -1, start = 0, end = HALF) -> t1",
        );
        self.l(
            1,
            "op second_half = slice(t, axis = -1, start = HALF, end = D) -> t2",
        );
        self.l(1, "op neg = elementwise.neg(t2) -> t2n");
        self.l(1, "op rotate_half = concat(t2n, t1, axis = -1) -> rot");
        self.l(1, "op rot_sin = elementwise.mul(rot, sin) -> s");
        self.l(1, "op add = elementwise.add(c, s) -> y");
        self.l(1, "output y");
        self.l(0, "}");
    }

    /// The inputs of a layer block (and of the pair block) in this form.
    pub(super) fn hf_block_inputs(&mut self) {
        self.l(1, "input x: [B, S, H]");
        self.l(1, "input cos: [B, 1, S, HD]");
        self.l(1, "input sin: [B, 1, S, HD]");
        let keys = if self.decode() { "P + S" } else { "S" };
        match self.attn {
            Attn::Eager => self.l(
                1,
                format!(
                    "input mask: [B, 1, S, {keys}] // the causal mask, 0 or the dtype's minimum"
                ),
            ),
            Attn::SdpaTraced => self.l(
                1,
                format!(
                    "input mask: bool[B, 1, S, {keys}] // the causal mask, true where a query sees a key"
                ),
            ),
            Attn::Sdpa => {}
        }
    }

    /// `LlamaDecoderLayer.forward` of kind `k`.
    fn hf_layer_block(&mut self, k: Kind, name: &str) {
        let a = self.a;
        let ints = self.block_ints(k);
        self.l(
            0,
            format!(
                "// One decoder layer{}: LlamaDecoderLayer.forward.",
                if k.window.is_some() {
                    ", attending to the W most recent positions"
                } else {
                    ""
                }
            ),
        );
        self.block_head(name, &ints);
        self.l(1, "param G = NH / NKV // query heads per key/value head");
        self.hf_block_inputs();
        self.l(1, "weight wq: [H, NH * HD]");
        self.l(1, "weight wk: [H, NKV * HD]");
        self.l(1, "weight wv: [H, NKV * HD]");
        if a.qkv_bias {
            self.l(1, "weight bq: [NH * HD]");
            self.l(1, "weight bk: [NKV * HD]");
            self.l(1, "weight bv: [NKV * HD]");
        }
        self.l(1, "weight wo: [NH * HD, H]");
        if a.o_bias {
            self.l(1, "weight bo: [H]");
        }
        self.l(1, "weight w_gate: [H, F]");
        self.l(1, "weight w_up: [H, F]");
        self.l(1, "weight w_down: [F, H]");
        self.l(
            1,
            "op input_layernorm = rms_norm(x, B = B, S = S, H = H, DT = DT) -> xn",
        );
        let bias = a.qkv_bias;
        self.nn_linear("q_proj", "xn", "wq", "q", bias.then_some("bq"));
        self.nn_linear("k_proj", "xn", "wk", "k", bias.then_some("bk"));
        self.nn_linear("v_proj", "xn", "wv", "v", bias.then_some("bv"));
        for (t, n) in [("q", "NH"), ("k", "NKV"), ("v", "NKV")] {
            self.l(
                1,
                format!("op {t}_view = reshape({t}) -> {t}4: [B, S, {n}, HD]"),
            );
            self.l(
                1,
                format!("op {t}_transpose = permute({t}4, dims = [0, 2, 1, 3]) -> {t}h // [B, {n}, S, HD]"),
            );
        }
        self.l(
            1,
            "op q_rotary = rotary(qh, cos, sin, B = B, N = NH, S = S, D = HD, DT = DT) -> qr",
        );
        self.l(
            1,
            "op k_rotary = rotary(kh, cos, sin, B = B, N = NKV, S = S, D = HD, DT = DT) -> kr",
        );
        let (kr, vh) = self.cache_update("NKV", "kr", "vh");
        match self.attn {
            Attn::Sdpa => {
                // is_causal is `q_len > 1`: one new token sees every key. A sliding window is
                // never shorter than the keys here (`unsupported`), so it masks nothing.
                let causal = if self.decode() { "" } else { ", causal = true" };
                self.l(
                    1,
                    format!(
                        "op attention = attention(qr, {kr}, {vh}{causal}, scale = {}) -> ah // SDPA, enable_gqa",
                        float(a.scale)
                    ),
                );
            }
            Attn::SdpaTraced => {
                // Traced, transformers builds the mask (it cannot skip it), and with a mask
                // SDPA's `enable_gqa` is not used: K and V are repeated to every head.
                let (k, v) = self.repeat_kv(kr, vh);
                self.l(
                    1,
                    format!(
                        "op attention = attention(qr, {k}, {v}, mask, scale = {}) -> ah // SDPA with the mask",
                        float(a.scale)
                    ),
                );
            }
            Attn::Eager => self.eager_attention(kr, vh),
        }
        self.l(
            1,
            "op attn_transpose = permute(ah, dims = [0, 2, 1, 3]) -> at // [B, S, NH, HD]",
        );
        self.l(
            1,
            "op attn_reshape = reshape(at) -> am: [B, S, NH * HD] // .contiguous()",
        );
        self.nn_linear("o_proj", "am", "wo", "o", a.o_bias.then_some("bo"));
        self.l(1, "op residual = elementwise.add(x, o) -> h");
        self.l(
            1,
            "op post_attention_layernorm = rms_norm(h, B = B, S = S, H = H, DT = DT) -> hn",
        );
        self.l(1, "op gate_proj = matmul(hn, w_gate) -> g");
        self.l(1, "op act_fn = elementwise.silu(g) -> ga");
        self.l(1, "op up_proj = matmul(hn, w_up) -> u");
        self.l(1, "op gate_up = elementwise.mul(ga, u) -> m");
        self.l(1, "op down_proj = matmul(m, w_down) -> d");
        self.l(1, "op mlp_residual = elementwise.add(h, d) -> y");
        self.l(1, "output y");
        self.l(0, "}");
    }

    /// At a decode step, `DynamicLayer.update` of keys `k` and values `v` (`heads` of them):
    /// the new row appended to the cache by `torch.cat`, a copy of the whole cache; the
    /// names of the keys and values attention reads.
    pub(super) fn cache_update<'n>(
        &mut self,
        heads: &str,
        k: &'n str,
        v: &'n str,
    ) -> (&'n str, &'n str) {
        if !self.decode() {
            return (k, v);
        }
        self.l(
            1,
            "// DynamicLayer.update: the new key and value appended by torch.cat, which copies the cache.",
        );
        self.l(
            1,
            format!("weight k_cache: [B, {heads}, P, HD] // the keys of the P positions before"),
        );
        self.l(1, format!("weight v_cache: [B, {heads}, P, HD]"));
        for (t, new) in [("k", k), ("v", v)] {
            self.l(
                1,
                format!(
                    "op {t}_update = concat({t}_cache, {new}, axis = 2) -> {t}_all: [B, {heads}, P + S, HD]"
                ),
            );
        }
        ("k_all", "v_all")
    }

    /// `repeat_kv` of the keys and values: expand and reshape, a copy where a KV head serves
    /// several query heads; their names after it.
    fn repeat_kv<'n>(&mut self, kr: &'n str, vh: &'n str) -> (&'n str, &'n str) {
        let keys = if self.decode() { "P + S" } else { "S" };
        if self.a.heads == self.a.kv_heads {
            // repeat_kv returns its input when each KV head serves one query head.
            (kr, vh)
        } else {
            for (t, src) in [("k", kr), ("v", vh)] {
                self.l(
                    1,
                    format!("op {t}_repeat_view = reshape({src}) -> {t}5: [B, NKV, 1, {keys}, HD] // repeat_kv"),
                );
                self.l(
                    1,
                    format!("op {t}_repeat_expand = expand({t}5) -> {t}6: [B, NKV, G, {keys}, HD]"),
                );
                self.l(
                    1,
                    format!("op {t}_repeat = reshape({t}6) -> {t}x: [B, NH, {keys}, HD]"),
                );
            }
            ("kx", "vx")
        }
    }

    /// `eager_attention_forward`: `repeat_kv`, the scores scaled and masked, the softmax in
    /// f32, P·V.
    fn eager_attention(&mut self, kr: &str, vh: &str) {
        let dt = self.dts();
        let keys = if self.decode() { "P + S" } else { "S" };
        let (k, v) = self.repeat_kv(kr, vh);
        self.l(
            1,
            "// Eager attention writes the scores to HBM and reads them back: large-intermediate",
        );
        self.l(1, "// is expected until the softmax.");
        self.l(1, format!("op scores = matmul(qr, {k}.T) -> sc"));
        self.l(1, super::ALLOW);
        self.l(
            1,
            format!(
                "op scaling = elementwise.mul(sc, {}) -> scs",
                float(self.a.scale)
            ),
        );
        self.l(1, super::ALLOW);
        self.l(1, "op mask_add = elementwise.add(scs, mask) -> scm");
        self.l(1, super::ALLOW);
        self.l(
            1,
            format!("op softmax_f32 = elementwise.cast(scm) -> sf: f32[B, NH, S, {keys}]"),
        );
        self.l(1, super::ALLOW);
        self.l(
            1,
            format!("op softmax = reduction.softmax(sf, axis = -1) -> pf: f32[B, NH, S, {keys}]"),
        );
        self.l(
            1,
            format!("op softmax_dtype = elementwise.cast(pf) -> p: {dt}[B, NH, S, {keys}]"),
        );
        self.l(1, format!("op attn_output = matmul(p, {v}) -> ah"));
    }

    /// The causal mask eager attention adds, or the boolean one transformers builds while
    /// traced (`sdpa_mask`), once per step; nothing under `sdpa`.
    pub(super) fn causal_mask(&mut self) {
        let a = self.a;
        let dt = self.dts();
        if self.attn == Attn::SdpaTraced {
            self.l(
                1,
                "// The causal mask transformers builds while traced (sdpa_mask): true where key",
            );
            self.l(1, "// j <= query i, once per step.");
        }
        if self.attn == Attn::Eager {
            self.l(
                1,
                "// The causal mask eager attention adds: 0 where key j <= query i, the minimum",
            );
            self.l(1, "// elsewhere, built once per step.");
        }
        if self.attn != Attn::Sdpa {
            let keys = if self.decode() { "P + S" } else { "S" };
            self.l(
                1,
                "input cache_position: i64[S] // the positions of the S tokens",
            );
            self.l(
                1,
                format!("input key_position: i64[{keys}] // the positions of the keys"),
            );
            self.l(
                1,
                format!("op key_index = reshape(key_position) -> kv_idx: [1, {keys}]"),
            );
            self.l(
                1,
                "op query_index = reshape(cache_position) -> q_idx: [S, 1]",
            );
            self.l(1, super::ALLOW);
            self.l(
                1,
                format!("op causal = elementwise.le(kv_idx, q_idx) -> allowed: bool[S, {keys}]"),
            );
            if self.attn == Attn::Eager {
                self.l(1, super::ALLOW);
                self.l(
                    1,
                    format!(
                        "op mask_values = elementwise.where(allowed, 0.0, {}) -> m2: {dt}[S, {keys}]",
                        float(lowest(a.dtype))
                    ),
                );
                self.l(
                    1,
                    format!("op mask_4d = reshape(m2) -> m4: [1, 1, S, {keys}]"),
                );
            } else {
                self.l(
                    1,
                    format!("op mask_4d = reshape(allowed) -> m4: [1, 1, S, {keys}]"),
                );
            }
            self.l(
                1,
                format!("op mask_expand = expand(m4) -> mask: [B, 1, S, {keys}]"),
            );
        }
    }

    /// The graph: embedding, the rotary tables, the mask (eager attention), the layers, the
    /// final norm and the LM head.
    fn hf_graph(&mut self, kinds: &[(Kind, String)], plan: &super::Plan) {
        let dt = self.dts();
        self.graph_head();
        self.l(1, format!("dtype {dt}"));
        self.l(1, "input input_ids: i64[B, S]");
        self.l(
            1,
            if self.decode() {
                "input position_ids: i64[B, 1, S] // P, the new token's position"
            } else {
                "input position_ids: i64[B, 1, S] // 0 … S - 1 in each sequence"
            },
        );
        self.l(
            1,
            "input inv_freq: f32[1, HD / 2, 1] // LlamaRotaryEmbedding's buffer (not a parameter)",
        );
        self.l(1, "weight embed_tokens: [V, H]");
        self.l(
            1,
            "op embed = gather(embed_tokens, input_ids, axis = 0) -> x0: [B, S, H] // the rows looked up",
        );
        self.l(
            1,
            "// LlamaRotaryEmbedding.forward: the tables of the S positions, computed every step.",
        );
        self.l(
            1,
            "op inv_freq_expanded = expand(inv_freq) -> ife: [B, HD / 2, 1]",
        );
        self.l(
            1,
            "op position_ids_f32 = elementwise.cast(position_ids) -> pf: f32[B, 1, S]",
        );
        self.l(
            1,
            "op freqs_matmul = matmul(ife, pf) -> fr: f32[B, HD / 2, S]",
        );
        self.l(
            1,
            "op freqs = permute(fr, dims = [0, 2, 1]) -> ft // [B, S, HD / 2]",
        );
        self.l(1, "op emb = concat(ft, ft, axis = -1) -> em: f32[B, S, HD]");
        self.l(1, "op cos_f32 = elementwise.cos(em) -> c0");
        self.l(
            1,
            "op cos_scaling = elementwise.mul(c0, 1.0) -> c1 // attention_scaling: a value",
        );
        self.l(1, "op sin_f32 = elementwise.sin(em) -> s0");
        self.l(1, "op sin_scaling = elementwise.mul(s0, 1.0) -> s1");
        self.l(
            1,
            format!("op cos_dtype = elementwise.cast(c1) -> c2: {dt}[B, S, HD]"),
        );
        self.l(
            1,
            format!("op sin_dtype = elementwise.cast(s1) -> s2: {dt}[B, S, HD]"),
        );
        self.l(
            1,
            "op cos_unsqueeze = reshape(c2) -> cos: [B, 1, S, HD] // unsqueeze(1)",
        );
        self.l(1, "op sin_unsqueeze = reshape(s2) -> sin: [B, 1, S, HD]");
        self.causal_mask();
        let h = self.layers(kinds, plan, "x0");
        self.l(
            1,
            format!("op norm = rms_norm({h}, B = B, S = S, H = H, DT = {dt}) -> hn"),
        );
        self.lm_head();
        self.l(1, "output logits");
        self.l(0, "}");
    }
}
