//! The feed-forward half of a layer block: an instance of the family's std block, or a
//! mixture of experts (router, top-k, the slots sorted by expert, grouped-GEMM experts from
//! std/moe.fgraph, shared experts, the combine).

use super::{Emitter, float};
use crate::importers::hf::arch::Style;

impl Emitter<'_> {
    /// The dense feed-forward half: an instance of the family's std block, `h` into `y`.
    pub(super) fn dense_ffn(&mut self) {
        let block = match self.a.style {
            Style::Llama | Style::Gemma | Style::Phi3 | Style::Bert => "ffn",
            Style::Gemma2 => "ffn_sandwich",
            Style::Gpt2 => "mlp",
        };
        self.l(
            1,
            format!("op mlp = {block}(h, S = B * S, H = H, F = F, eps = eps, DT = DT) -> y"),
        );
    }

    /// Experts that receive rows: `(RA experts with R + 1 rows)` when the rows do not divide
    /// evenly, `None` when every one of the EA experts gets R.
    pub(super) fn moe_split(&self) -> Option<u64> {
        let (_, _, ra) = self.moe_rows()?;
        (ra > 0).then_some(ra)
    }

    /// (EA, R, RA): experts that get rows, rows each (balanced), experts with one row more.
    pub(super) fn moe_rows(&self) -> Option<(u64, u64, u64)> {
        let m = self.a.moe.as_ref()?;
        let slots = self.step.batch * self.step.seq * m.top_k;
        let ea = m.experts.min(slots);
        Some((ea, slots / ea, slots % ea))
    }

    /// The mixture-of-experts feed-forward: the router's softmax and top-k, the (token,
    /// expert) slots sorted by expert, each expert's rows gathered, the experts as grouped
    /// GEMMs (std/moe.fgraph), the outputs weighted and added back at their tokens.
    pub(super) fn moe_ffn(&mut self) {
        let a = self.a;
        let Some(m) = &a.moe else { return };
        let Some((ea, _, ra)) = self.moe_rows() else {
            return;
        };
        let f = if a.mla.is_some() { "FE" } else { "F" };
        self.l(1, "weight post_attention_layernorm: [H]");
        self.l(1, "weight w_router: [H, E]");
        self.l(
            1,
            "op ffn_norm = reduction.rmsnorm(h, post_attention_layernorm, eps = eps) -> hn: [B * S, H]",
        );
        self.l(1, "op router = matmul(hn, w_router) -> logits: [B * S, E]");
        self.l(
            1,
            "op route_softmax = reduction.softmax(logits, axis = -1) -> probs",
        );
        self.l(1, "op top_weights = topk(probs, k = K, axis = -1) -> top_w");
        self.l(
            1,
            "op top_experts = topk_indices(top_w) -> top_i: i32[B * S, K]",
        );
        let mut gate = "top_w";
        if m.renormalize {
            self.l(
                1,
                "op weight_sum = reduction.sum(top_w, axis = -1, keepdim = true) -> top_sum",
            );
            self.l(1, "op renorm = elementwise.div(top_w, top_sum) -> gate_w");
            gate = "gate_w";
        }
        if let Some(s) = m.scaling {
            self.l(
                1,
                format!(
                    "op route_scale = elementwise.mul({gate}, {}) -> gate_s // routed_scaling_factor",
                    float(s)
                ),
            );
            gate = "gate_s";
        }
        self.l(
            1,
            "// The B · S · K (token, expert) slots sorted by expert; slot s is token s div K.",
        );
        self.l(
            1,
            "op flat_experts = reshape(top_i) -> slot_e: i32[B * S * K]",
        );
        self.l(1, "op by_expert = argsort(slot_e) -> order: i32[B * S * K]");
        self.l(
            1,
            format!("op slot_token = elementwise.div(order, {}) -> tok", m.top_k),
        );
        self.l(
            1,
            format!("op flat_gates = reshape({gate}) -> slot_w: [B * S * K]"),
        );
        self.l(1, "op sorted_gates = gather(slot_w, order) -> gates");
        self.l(1, "op gate_column = reshape(gates) -> gcol: [B * S * K, 1]");
        self.l(
            1,
            "op dispatch = gather(hn, tok) -> xs // each slot's row, by expert",
        );
        if ra == 0 {
            self.l(1, "op expert_rows = reshape(xs) -> xe: [EA, R, H]");
            self.l(
                1,
                format!("op experts = experts(xe, E = EA, R = R, H = H, F = {f}, DT = DT) -> ye"),
            );
            self.l(1, "op expert_out = reshape(ye) -> ys: [B * S * K, H]");
        } else {
            self.l(
                1,
                "op rows_a = slice(xs, axis = 0, start = 0, end = RA * (R + 1)) -> xsa",
            );
            self.l(1, "op split_a = reshape(xsa) -> xa: [RA, R + 1, H]");
            self.l(
                1,
                format!(
                    "op experts_a = experts(xa, E = RA, R = R + 1, H = H, F = {f}, DT = DT) -> ya"
                ),
            );
            self.l(1, "op merge_a = reshape(ya) -> ysa: [RA * (R + 1), H]");
            self.l(
                1,
                "op rows_b = slice(xs, axis = 0, start = RA * (R + 1), end = B * S * K) -> xsb",
            );
            self.l(1, "op split_b = reshape(xsb) -> xb: [EA - RA, R, H]");
            self.l(
                1,
                format!(
                    "op experts_b = experts(xb, E = EA - RA, R = R, H = H, F = {f}, DT = DT) -> yb"
                ),
            );
            self.l(1, "op merge_b = reshape(yb) -> ysb: [(EA - RA) * R, H]");
            self.l(1, "op slots = concat(ysa, ysb, axis = 0) -> ys");
        }
        if ea < m.experts {
            self.l(
                1,
                "// The experts no token reaches in this step: their weights exist, unread.",
            );
            for (w, shape) in [
                ("idle_w_gate", format!("[E - EA, H, {f}]")),
                ("idle_w_up", format!("[E - EA, H, {f}]")),
                ("idle_w_down", format!("[E - EA, {f}, H]")),
            ] {
                self.l(1, "// fgraph: allow(unused-tensor)");
                self.l(1, format!("weight {w}: {shape}"));
            }
        }
        self.l(1, "op weigh = elementwise.mul(ys, gcol) -> yw");
        let mut dest = "h";
        if m.shared_inter.is_some() {
            self.l(
                1,
                "op shared_experts = swiglu(hn, S = B * S, H = H, F = FS, DT = DT) -> y_shared",
            );
            self.l(1, "op shared_res = elementwise.add(y_shared, h) -> hs");
            dest = "hs";
        }
        self.l(
            1,
            format!("op combine = index_add({dest}, tok, yw, axis = 0) -> y // each slot added at its token"),
        );
    }
}
