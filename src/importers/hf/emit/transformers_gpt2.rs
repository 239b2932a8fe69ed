//! `--ops transformers` for GPT-2 (`model_type` gpt2, `attn_implementation` sdpa, and its
//! traced form, the causal mask built and passed to SDPA, `--attn sdpa-traced`): a prefill
//! or one decode step written as transformers' `GPT2LMHeadModel` runs its eager forward, op
//! by op (read off an H200's trace of transformers 5.17, validation/gpu/models/hf_real/
//! data/gpt2_h200): the token and position embeddings added, then per layer `ln_1`, `c_attn`
//! (`Conv1D`: `torch.addmm` with its bias, one kernel: `matmul(x, w, b)`), the Q, K and V
//! slices viewed as heads, at a decode step `DynamicLayer.update` (`torch.cat` of the cache
//! and the new row), SDPA (causal when more than one query), the heads merged, `c_proj`, the
//! residual add, `ln_2`, `c_fc`, the activation (`gelu_new` as `NewGELUActivation`'s eight
//! PyTorch ops: `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x³)))`), the MLP's
//! `c_proj`, the residual add; `ln_f` and the tied LM head.
//!
//! Left out, as for the Llama family: the position ids' `arange` and offset (two tiny
//! kernels), and at a prefill the cache a `use_cache` forward fills (two copies a layer).

use super::{Emitter, float};
use crate::importers::hf::Attn;

impl Emitter<'_> {
    /// The file: the layer block, then the graph.
    pub(super) fn gpt2_transformers_file(&mut self) {
        self.header();
        self.l(
            0,
            "// Written as transformers' GPT2LMHeadModel runs it (--ops transformers), op by op,",
        );
        self.l(
            0,
            format!(
                "// attn_implementation \"sdpa\"{}: --runtime eager prices the kernels its eager forward",
                if self.attn == Attn::SdpaTraced {
                    " as traced (torch.compile, CUDA-graph capture: the mask built)"
                } else {
                    ""
                }
            ),
        );
        self.l(
            0,
            "// launches. Left out: the position ids' arange and offset (two tiny kernels).",
        );
        self.l(0, "");
        let kinds = super::kinds(self.a);
        // GPT-2's layers are of one kind (a config has at least one layer).
        if let Some((k, name)) = kinds.first().cloned() {
            self.gpt2_layer_block(k, &name);
        }
        self.l(0, "");
        self.gpt2_graph(&kinds);
    }

    /// `GPT2Block.forward`.
    fn gpt2_layer_block(&mut self, k: crate::importers::hf::arch::Kind, name: &str) {
        let ints = self.block_ints(k);
        self.l(0, "// One decoder layer: GPT2Block.forward.");
        self.block_head(name, &ints);
        self.l(1, "input x: [B, S, H]");
        if self.attn == Attn::SdpaTraced {
            let keys = if self.decode() { "P + S" } else { "S" };
            self.l(
                1,
                format!(
                    "input mask: bool[B, 1, S, {keys}] // the causal mask, true where a query sees a key"
                ),
            );
        }
        for (w, shape) in [
            ("ln_1_w", "[H]"),
            ("ln_1_b", "[H]"),
            ("c_attn_w", "[H, 3 * H]"),
            ("c_attn_b", "[3 * H]"),
            ("c_proj_w", "[H, H]"),
            ("c_proj_b", "[H]"),
            ("ln_2_w", "[H]"),
            ("ln_2_b", "[H]"),
            ("c_fc_w", "[H, F]"),
            ("c_fc_b", "[F]"),
            ("mlp_proj_w", "[F, H]"),
            ("mlp_proj_b", "[H]"),
        ] {
            self.l(1, format!("weight {w}: {shape}"));
        }
        self.l(
            1,
            "op ln_1 = reduction.layernorm(x, ln_1_w, ln_1_b, eps = eps) -> xn: [B, S, H]",
        );
        self.l(
            1,
            "op c_attn = matmul(xn, c_attn_w, c_attn_b) -> qkv // Conv1D: torch.addmm",
        );
        for (i, t) in ["q", "k", "v"].iter().enumerate() {
            let (start, end) = match i {
                0 => ("0".to_string(), "H".to_string()),
                _ => (format!("{i} * H"), format!("{} * H", i + 1)),
            };
            self.l(
                1,
                format!(
                    "op {t}_split = slice(qkv, axis = -1, start = {start}, end = {end}) -> {t}"
                ),
            );
            self.l(
                1,
                format!("op {t}_view = reshape({t}) -> {t}4: [B, S, NH, HD]"),
            );
            self.l(
                1,
                format!("op {t}_transpose = permute({t}4, dims = [0, 2, 1, 3]) -> {t}h // [B, NH, S, HD]"),
            );
        }
        let (kh, vh) = self.cache_update("NH", "kh", "vh");
        // Traced, transformers builds the mask (it cannot skip it) and SDPA takes it.
        let causal = match (self.attn, self.decode()) {
            (Attn::SdpaTraced, _) => ", mask",
            (_, true) => "",
            (_, false) => ", causal = true",
        };
        self.l(
            1,
            format!(
                "op attention = attention(qh, {kh}, {vh}{causal}, scale = {}) -> ah // SDPA",
                float(self.a.scale)
            ),
        );
        self.l(
            1,
            "op attn_transpose = permute(ah, dims = [0, 2, 1, 3]) -> at // [B, S, NH, HD]",
        );
        self.l(
            1,
            "op attn_reshape = reshape(at) -> am: [B, S, H] // .contiguous()",
        );
        self.l(1, "op c_proj = matmul(am, c_proj_w, c_proj_b) -> o");
        self.l(1, "op residual = elementwise.add(o, x) -> h");
        self.l(
            1,
            "op ln_2 = reduction.layernorm(h, ln_2_w, ln_2_b, eps = eps) -> hn: [B, S, H]",
        );
        self.l(1, "op c_fc = matmul(hn, c_fc_w, c_fc_b) -> f");
        match self.a.act {
            Some("gelu_new") => {
                self.l(
                    1,
                    "// NewGELUActivation: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))),",
                );
                self.l(1, "// eight PyTorch ops, a kernel each.");
                self.l(1, "op gelu_half = elementwise.mul(f, 0.5) -> g1");
                self.l(1, "op gelu_cube = elementwise.pow(f, 3.0) -> g2");
                self.l(
                    1,
                    "op gelu_cube_scale = elementwise.mul(g2, 0.044715) -> g3",
                );
                self.l(1, "op gelu_inner = elementwise.add(f, g3) -> g4");
                self.l(
                    1,
                    format!(
                        "op gelu_scale = elementwise.mul(g4, {}) -> g5 // sqrt(2 / pi)",
                        float((2.0 / std::f64::consts::PI).sqrt())
                    ),
                );
                self.l(1, "op gelu_tanh = elementwise.tanh(g5) -> g6");
                self.l(1, "op gelu_one = elementwise.add(g6, 1.0) -> g7");
                self.l(1, "op gelu = elementwise.mul(g1, g7) -> ga");
            }
            _ => self.l(
                1,
                "op gelu = elementwise.gelu(f) -> ga // F.gelu, one kernel",
            ),
        }
        self.l(1, "op mlp_proj = matmul(ga, mlp_proj_w, mlp_proj_b) -> d");
        self.l(1, "op mlp_residual = elementwise.add(h, d) -> y");
        self.l(1, "output y");
        self.l(0, "}");
    }

    /// The graph: the embeddings, the layers, `ln_f` and the LM head.
    fn gpt2_graph(&mut self, kinds: &[(crate::importers::hf::arch::Kind, String)]) {
        let dt = self.dt();
        self.graph_head();
        self.l(1, format!("dtype {dt}"));
        self.l(1, "input input_ids: i64[B, S]");
        self.l(
            1,
            if self.decode() {
                "input position_ids: i64[B, S] // P, the new token's position"
            } else {
                "input position_ids: i64[B, S] // 0 … S - 1 in each sequence"
            },
        );
        self.l(1, "weight embed_tokens: [V, H] // wte");
        self.l(1, "weight embed_positions: [POS, H] // wpe");
        self.l(
            1,
            "op embed = gather(embed_tokens, input_ids, axis = 0) -> x0: [B, S, H] // the rows looked up",
        );
        self.l(
            1,
            "op embed_pos = gather(embed_positions, position_ids, axis = 0) -> pe: [B, S, H]",
        );
        self.l(1, "op add_pos = elementwise.add(x0, pe) -> x1");
        self.causal_mask();
        let plan = super::plan(&self.a.kinds);
        let h = self.layers(kinds, &plan, "x1");
        self.l(1, "weight ln_f_w: [H]");
        self.l(1, "weight ln_f_b: [H]");
        self.l(
            1,
            format!(
                "op ln_f = reduction.layernorm({h}, ln_f_w, ln_f_b, eps = {}) -> hn: [B, S, H]",
                float(self.a.eps)
            ),
        );
        self.lm_head();
        self.l(1, "output logits");
        self.l(0, "}");
    }
}

/// Why `--ops transformers` cannot write this GPT-2 model or step, if it cannot.
pub(super) fn unsupported_gpt2(e: &Emitter<'_>) -> Option<String> {
    if e.attn == Attn::Eager {
        return Some(
            "`--ops transformers` writes GPT-2 with `--attn sdpa` (transformers' default) or \
             `sdpa-traced`, not `eager`"
                .to_string(),
        );
    }
    match e.a.act {
        Some("gelu_new" | "gelu" | "gelu_pytorch_tanh") => None,
        other => Some(format!(
            "`--ops transformers` writes GPT-2's `gelu_new`, `gelu` and `gelu_pytorch_tanh`, \
             not activation_function `{}`",
            other.unwrap_or("?")
        )),
    }
}
