//! The attention half of a layer block: the pre-norm, the Q/K/V projections (separate or
//! fused, with biases where the model has them), the heads laid out [B, A, G, S, D], RoPE
//! (std/rope.fgraph), a decode step's KV-cache append, the scores, scale, softcap, masked
//! softmax, the weighted values, the heads merged, the output projection and the residual
//! add; DeepSeek-V2's latent attention beside it.

use super::{ALLOW, Attn, Emitter, float};
use crate::importers::hf::arch::{Kind, Norm, Style};

impl Emitter<'_> {
    /// The pre-attention norm of `x` into `xn` (none for BERT, which normalises after).
    pub(super) fn pre_norm(&mut self) -> &'static str {
        let a = self.a;
        match (a.style, a.norm) {
            (Style::Bert, _) => "x",
            (_, Norm::Layer) => {
                self.l(1, "weight ln_1_w: [H]");
                self.l(1, "weight ln_1_b: [H]");
                self.l(
                    1,
                    "op ln_1 = reduction.layernorm(x, ln_1_w, ln_1_b, eps = eps) -> xn: [B * S, H]",
                );
                "xn"
            }
            (_, Norm::Rms) => {
                self.l(1, "weight input_layernorm: [H]");
                self.l(
                    1,
                    "op attn_norm = reduction.rmsnorm(x, input_layernorm, eps = eps) -> xn: [B * S, H]",
                );
                "xn"
            }
        }
    }

    /// `op NAME = matmul(src, w) -> out` (and its bias add).
    pub(super) fn linear(&mut self, name: &str, src: &str, w: &str, out: &str, bias: Option<&str>) {
        match bias {
            Some(b) => {
                self.l(1, format!("op {name} = matmul({src}, {w}) -> {out}_nb"));
                self.l(
                    1,
                    format!("op {name}_bias = elementwise.add({out}_nb, {b}) -> {out}"),
                );
            }
            None => self.l(1, format!("op {name} = matmul({src}, {w}) -> {out}")),
        }
    }

    /// `src` [B·S, A·G·D] as heads [B, A, G, S, D]: a reshape and a permute at prefill, a
    /// reshape alone for one token.
    pub(super) fn heads(&mut self, name: &str, src: &str, out: &str, dims: [&str; 3]) {
        let [a, g, d] = dims;
        if self.decode() {
            self.l(
                1,
                format!("op {name}_heads = reshape({src}) -> {out}: [B, {a}, {g}, S, {d}]"),
            );
        } else {
            self.l(
                1,
                format!("op {name}_split = reshape({src}) -> {out}5: [B, S, {a}, {g}, {d}]"),
            );
            self.l(
                1,
                format!(
                    "op {name}_heads = permute({out}5, dims = [0, 2, 3, 1, 4]) -> {out} // [B, {a}, {g}, S, {d}]"
                ),
            );
        }
    }

    /// Scores, scale, softcap, softmax, weighted values and the heads merged: `qr` and `kr`
    /// [B, A, G, S, D] (kr with G = 1), `v` [B, A, 1, S, VD] into `am` [B·S, width].
    pub(super) fn core(&mut self, k: Kind, (qr, kr, v): (&str, &str, &str), width: &str) {
        let a = self.a;
        if self.attn == Attn::Sdpa {
            let mut attrs = String::new();
            if a.causal {
                attrs.push_str(", causal = true");
            }
            if k.window.is_some() {
                attrs.push_str(", window = W");
            }
            self.l(
                1,
                format!(
                    "op attn = attention({qr}, {kr}, {v}{attrs}, scale = {}) -> ah // scaled_dot_product_attention (--attn sdpa)",
                    float(a.scale)
                ),
            );
            self.merge_heads(width);
            return;
        }
        self.l(
            1,
            format!("op scores = matmul({qr}, {kr}.T) -> sc // [B, KV heads, query heads per KV head, S, keys]"),
        );
        self.l(
            1,
            "// Eager attention writes the scores to HBM and reads them back (`--flash-attention`",
        );
        self.l(
            1,
            "// models the fused kernel): large-intermediate is expected until the softmax.",
        );
        self.l(1, ALLOW);
        self.l(
            1,
            format!(
                "op scale = elementwise.mul(sc, {}) -> scs // the attention's scale",
                float(a.scale)
            ),
        );
        let mut scores = "scs".to_string();
        if let Some(cap) = a.attn_softcap {
            self.l(1, ALLOW);
            self.l(
                1,
                format!(
                    "op softcap_div = elementwise.mul(scs, {}) -> cap1 // attn_logit_softcapping: cap · tanh(s / cap)",
                    float(1.0 / cap)
                ),
            );
            self.l(1, ALLOW);
            self.l(1, "op softcap_tanh = elementwise.tanh(cap1) -> cap2");
            self.l(1, ALLOW);
            self.l(
                1,
                format!(
                    "op softcap_mul = elementwise.mul(cap2, {}) -> cap3",
                    float(cap)
                ),
            );
            scores = "cap3".into();
        }
        let mut attrs = String::from("axis = -1");
        if a.causal {
            attrs.push_str(", causal = true");
        }
        if k.window.is_some() {
            attrs.push_str(", window = W");
        }
        self.l(1, ALLOW);
        self.l(
            1,
            format!("op softmax = reduction.softmax({scores}, {attrs}) -> p"),
        );
        self.l(1, format!("op attn = matmul(p, {v}) -> ah"));
        self.merge_heads(width);
    }

    /// The heads `ah` [B, A, G, S, D] merged into `am` [B·S, width].
    fn merge_heads(&mut self, width: &str) {
        if self.decode() {
            self.l(1, format!("op merge = reshape(ah) -> am: [B * S, {width}]"));
        } else {
            self.l(
                1,
                "op merge = permute(ah, dims = [0, 3, 1, 2, 4]) -> am5 // [B, S, KV heads, query heads per KV head, D]",
            );
            self.l(1, format!("op flat = reshape(am5) -> am: [B * S, {width}]"));
        }
    }

    /// Appends `new` to a per-instance cache (decode); the cache's name for the keys.
    pub(super) fn cache(&mut self, which: &str, new: &str, dims: &str) -> String {
        let d = self.cache_dim(which);
        self.l(1, format!("weight {which}_cache: [B, {dims}, P + S, {d}]"));
        self.l(
            1,
            format!("op {which}_append = update({which}_cache, {new}, axis = 3, start = P) -> {which}_all"),
        );
        format!("{which}_all")
    }

    pub(super) fn cache_dim(&self, which: &str) -> &'static str {
        match (&self.a.mla, which) {
            (Some(_), "k") => "ND + RD",
            (Some(_), _) => "VD",
            (None, _) => "HD",
        }
    }

    /// Grouped-query attention with RoPE (or learned positions), biases as the model has them.
    pub(super) fn attention(&mut self, k: Kind) {
        let a = self.a;
        self.l(1, "param G = NH / NKV // query heads per key/value head");
        let xn = self.pre_norm();
        let bias = a.qkv_bias;
        let (q, kk, v) = if a.qkv_fused {
            self.l(1, "weight w_qkv: [H, (NH + 2 * NKV) * HD]");
            if bias {
                self.l(1, "weight b_qkv: [(NH + 2 * NKV) * HD]");
            }
            self.linear("qkv_proj", xn, "w_qkv", "qkv", bias.then_some("b_qkv"));
            self.l(
                1,
                "op q_part = slice(qkv, axis = -1, start = 0, end = NH * HD) -> q",
            );
            self.l(
                1,
                "op k_part = slice(qkv, axis = -1, start = NH * HD, end = (NH + NKV) * HD) -> k",
            );
            self.l(
                1,
                "op v_part = slice(qkv, axis = -1, start = (NH + NKV) * HD, end = (NH + 2 * NKV) * HD) -> v",
            );
            ("q", "k", "v")
        } else {
            self.l(1, "weight wq: [H, NH * HD]");
            self.l(1, "weight wk: [H, NKV * HD]");
            self.l(1, "weight wv: [H, NKV * HD]");
            if bias {
                self.l(1, "weight bq: [NH * HD]");
                self.l(1, "weight bk: [NKV * HD]");
                self.l(1, "weight bv: [NKV * HD]");
            }
            self.linear("q_proj", xn, "wq", "q", bias.then_some("bq"));
            self.linear("k_proj", xn, "wk", "k", bias.then_some("bk"));
            self.linear("v_proj", xn, "wv", "v", bias.then_some("bv"));
            ("q", "k", "v")
        };
        self.l(1, "weight wo: [NH * HD, H]");
        if a.o_bias {
            self.l(1, "weight bo: [H]");
        }
        self.heads("q", q, "qh", ["NKV", "G", "HD"]);
        self.heads("k", kk, "kh", ["NKV", "1", "HD"]);
        self.heads("v", v, "vh", ["NKV", "1", "HD"]);
        let (qr, kr) = if a.rope {
            self.l(
                1,
                "op q_rope = rope_heads(qh, cos, sin, B = B, A = NKV, G = G, S = S, D = HD, DT = DT) -> qr",
            );
            self.l(
                1,
                "op k_rope = rope_heads(kh, cos, sin, B = B, A = NKV, G = 1, S = S, D = HD, DT = DT) -> kr",
            );
            ("qr", "kr")
        } else {
            ("qh", "kh")
        };
        let (kr, vh) = if self.decode() {
            let kc = self.cache("k", kr, "NKV, 1");
            let vc = self.cache("v", "vh", "NKV, 1");
            (kc, vc)
        } else {
            (kr.to_string(), "vh".to_string())
        };
        self.core(k, (qr, &kr, &vh), "NH * HD");
        self.linear("o_proj", "am", "wo", "o", a.o_bias.then_some("bo"));
        self.residual("o");
    }

    /// The attention's output `o` added to the residual stream into `h` (Gemma 2 normalises
    /// it first; BERT normalises after).
    pub(super) fn residual(&mut self, o: &str) {
        match self.a.style {
            Style::Gemma2 => {
                self.l(1, "weight post_attention_layernorm: [H]");
                self.l(
                    1,
                    format!("op attn_post_norm = reduction.rmsnorm({o}, post_attention_layernorm, eps = eps) -> on: [B * S, H]"),
                );
                self.l(1, "op res = elementwise.add(on, x) -> h");
            }
            Style::Bert => {
                self.l(1, "weight attn_ln_w: [H]");
                self.l(1, "weight attn_ln_b: [H]");
                self.l(1, format!("op res = elementwise.add({o}, x) -> r"));
                self.l(
                    1,
                    "op attn_ln = reduction.layernorm(r, attn_ln_w, attn_ln_b, eps = eps) -> h: [B * S, H]",
                );
            }
            _ => self.l(1, format!("op res = elementwise.add({o}, x) -> h")),
        }
    }

    /// DeepSeek-V2's multi-head latent attention, as transformers runs it: queries (through
    /// their low-rank projection when `q_lora_rank` is set), the compressed key/value and the
    /// shared rotary key from one projection, the latent normalised and expanded per head,
    /// RoPE on the rotary parts only, the keys and queries concatenated.
    pub(super) fn mla_attention(&mut self) {
        let a = self.a;
        let Some(m) = &a.mla else { return };
        let xn = self.pre_norm();
        match m.q_rank {
            Some(_) => {
                self.l(1, "weight q_a_proj: [H, QR]");
                self.l(1, "weight q_a_layernorm: [QR]");
                self.l(1, "weight q_b_proj: [QR, NH * (ND + RD)]");
                self.linear("q_a", xn, "q_a_proj", "qa", None);
                self.l(
                    1,
                    "op q_a_norm = reduction.rmsnorm(qa, q_a_layernorm, eps = eps) -> qan: [B * S, QR]",
                );
                self.linear("q_b", "qan", "q_b_proj", "q", None);
            }
            None => {
                self.l(1, "weight q_proj: [H, NH * (ND + RD)]");
                self.linear("q_proj", xn, "q_proj", "q", None);
            }
        }
        self.l(1, "weight kv_a_proj: [H, KVR + RD]");
        self.l(1, "weight kv_a_layernorm: [KVR]");
        self.l(1, "weight kv_b_proj: [KVR, NH * (ND + VD)]");
        self.l(1, "weight o_proj: [NH * VD, H]");
        self.heads("q", "q", "qh", ["NH", "1", "ND + RD"]);
        self.l(
            1,
            "op q_nope = slice(qh, axis = -1, start = 0, end = ND) -> qn",
        );
        self.l(
            1,
            "op q_pe = slice(qh, axis = -1, start = ND, end = ND + RD) -> qp",
        );
        self.linear("kv_a", xn, "kv_a_proj", "ckv", None);
        self.l(
            1,
            "op kv_latent = slice(ckv, axis = -1, start = 0, end = KVR) -> lat",
        );
        self.l(
            1,
            "op k_pe = slice(ckv, axis = -1, start = KVR, end = KVR + RD) -> kp",
        );
        self.l(
            1,
            "op kv_a_norm = reduction.rmsnorm(lat, kv_a_layernorm, eps = eps) -> latn: [B * S, KVR]",
        );
        self.linear("kv_b", "latn", "kv_b_proj", "kv", None);
        self.heads("kv", "kv", "kvh", ["NH", "1", "ND + VD"]);
        self.l(
            1,
            "op k_nope = slice(kvh, axis = -1, start = 0, end = ND) -> kn",
        );
        self.l(
            1,
            "op v_heads = slice(kvh, axis = -1, start = ND, end = ND + VD) -> vh",
        );
        self.l(
            1,
            "op k_pe_heads = reshape(kp) -> kp5: [B, 1, 1, S, RD] // one rotary key for all heads",
        );
        self.l(
            1,
            "op q_rope = rope_heads(qp, cos, sin, B = B, A = NH, G = 1, S = S, D = RD, DT = DT) -> qr",
        );
        self.l(
            1,
            "op k_rope = rope_heads(kp5, cos, sin, B = B, A = 1, G = 1, S = S, D = RD, DT = DT) -> kr",
        );
        self.l(1, "op k_pe_expand = expand(kr) -> kre: [B, NH, 1, S, RD]");
        self.l(
            1,
            "op q_cat = concat(qn, qr, axis = -1) -> qc // [B, NH, 1, S, ND + RD]",
        );
        self.l(1, "op k_cat = concat(kn, kre, axis = -1) -> kc");
        let (kc, vh) = if self.decode() {
            let kc = self.cache("k", "kc", "NH, 1");
            let vc = self.cache("v", "vh", "NH, 1");
            (kc, vc)
        } else {
            ("kc".to_string(), "vh".to_string())
        };
        self.core(
            Kind {
                window: None,
                moe: false,
            },
            ("qc", &kc, &vh),
            "NH * VD",
        );
        self.linear("o_proj", "am", "o_proj", "o", None);
        self.residual("o");
    }
}
