//! Issue 23 item 8: one DeepSeek-V2-Lite decoder layer's mixture-of-experts feed-forward
//! (`examples/deepseek_v2_lite_moe.fgraph`) with its routing written with the real ops. The
//! file analyses with no diagnostics, and its parameter count, FLOPs, weight bytes, kernels
//! and output shape agree with figures worked out by hand from the published config
//! (deepseek-ai/DeepSeek-V2-Lite: hidden 2048, 64 routed experts of 1408, top 6 by softmax,
//! 2 shared experts) and transformers' `DeepseekV2Moe`.

use fgraph::analysis::{Analysis, GraphReport};
use fgraph::cost::CostReport;
use fgraph::graph::{OpId, Origin};
use fgraph::{Options, check_file};

const S: u64 = 2048; // tokens: batch 1 × 2048
const H: u64 = 2048; // hidden_size
const E: u64 = 64; // n_routed_experts
const K: u64 = 6; // num_experts_per_tok
const F: u64 = 1408; // moe_intermediate_size
const FS: u64 = 2 * F; // n_shared_experts · moe_intermediate_size

fn path() -> String {
    format!(
        "{}/examples/deepseek_v2_lite_moe.fgraph",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn load(options: &Options) -> GraphReport {
    let path = path();
    let bytes = std::fs::read(&path).expect("example");
    let mut r = check_file(&path, &bytes, options);
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    assert_eq!(r.graphs.len(), 1);
    r.graphs.remove(0)
}

fn cost(a: &Analysis) -> CostReport {
    fgraph::cost::estimate(
        a,
        &fgraph::Hardware::preset("h100").expect("preset"),
        fgraph::LaunchMode::Graph,
    )
    .expect("cost")
}

/// The index of the fused kernel that holds the op called `name`.
fn kernel_of(a: &Analysis, name: &str) -> usize {
    a.plan
        .groups
        .iter()
        .position(|grp| grp.ops.iter().any(|&o| a.graph.op(o).name == name))
        .unwrap_or_else(|| panic!("no op {name}"))
}

fn op_names(a: &Analysis, k: usize) -> Vec<&str> {
    a.plan.groups[k]
        .ops
        .iter()
        .map(|&o| a.graph.op(o).name.as_str())
        .collect()
}

fn op_flops(a: &Analysis, name: &str) -> u64 {
    let o = a
        .graph
        .ops
        .iter()
        .position(|o| o.name == name)
        .unwrap_or_else(|| panic!("no op {name}"));
    fgraph::cost::flops::op_flops(&a.graph, OpId(o as u32)).0
}

fn tensor<'a>(a: &'a Analysis, name: &str) -> &'a fgraph::graph::Tensor {
    a.graph
        .tensors
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tensor {name}"))
}

/// The FLOPs of the ops of the routed experts' instances (`expert0.` to `expert63.`).
fn routed_expert_flops(a: &Analysis) -> u64 {
    (0..a.graph.ops.len())
        .filter(|&o| a.graph.ops[o].name.starts_with("expert"))
        .map(|o| fgraph::cost::flops::op_flops(&a.graph, OpId(o as u32)).0)
        .sum()
}

#[test]
fn deepseek_v2_lite_moe_parameters_match_the_published_model() {
    let g = load(&Options::default());
    let a = g.analysis.as_ref().expect("analysis");
    // transformers' DeepseekV2Moe holds, for this config: `gate` (nn.Linear(2048, 64,
    // bias=False): 64·2048; DeepSeek-V2 has no `e_score_correction_bias`, V3 does),
    // `experts.gate_up_proj` [64, 2·1408, 2048] and `experts.down_proj` [64, 2048, 1408]
    // (the same 3·2048·1408 = 8,650,752 per expert as the checkpoint's separate gate, up and
    // down projections), and `shared_experts`, a DeepseekV2MLP of intermediate 2·1408 = 2816
    // (mlp_bias false: 3·2048·2816). sum(p.numel()) = 571,080,704.
    let gate = E * H;
    let expert = 3 * H * F;
    let shared = 3 * H * FS;
    assert_eq!(gate, 131_072);
    assert_eq!(expert, 8_650_752);
    assert_eq!(shared, 17_301_504);
    let moe = gate + E * expert + shared;
    assert_eq!(E * expert, 553_648_128);
    assert_eq!(moe, 571_080_704);
    // The file adds the decoder layer's post_attention_layernorm (2048).
    let params = moe + H;
    let weights = |f: &dyn Fn(&str) -> bool| -> u64 {
        a.graph
            .tensors
            .iter()
            .filter(|t| t.origin == Origin::Weight && f(&t.name))
            .map(|t| t.bytes)
            .sum()
    };
    assert_eq!(weights(&|_| true), 2 * params); // bf16
    assert_eq!(weights(&|_| true), 1_142_165_504);
    assert_eq!(weights(&|n| n == "w_router"), 2 * gate);
    assert_eq!(weights(&|n| n.starts_with("shared.")), 2 * shared);
    assert_eq!(weights(&|n| n.starts_with("expert")), 2 * E * expert);
    // 64 routed experts of three weights, the shared experts' three, router and norm.
    let count = a
        .graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .count();
    assert_eq!(count, 64 * 3 + 3 + 2);

    // Cross-check against the published 15.7B total (config: 27 layers, vocab 102400, 16
    // heads, q_lora_rank null, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head 128,
    // untied embeddings). MLA per layer: q_proj 2048·16·192, kv_a_proj_with_mqa
    // 2048·(512 + 64), kv_a_layernorm 512, kv_b_proj 512·16·(128 + 128), o_proj 16·128·2048,
    // and the layer's two RMSNorms: 13,767,168. Layer 0's dense MLP 3·2048·10944; layers 1
    // to 26 this MoE; embed_tokens and lm_head 102400·2048 each; the final norm 2048.
    let attention = 2048 * 16 * 192 + 2048 * 576 + 512 + 512 * 16 * 256 + 16 * 128 * 2048;
    let layer_norms = 2 * 2048;
    assert_eq!(attention + layer_norms, 13_767_168);
    let total =
        27 * (attention + layer_norms) + 3 * 2048 * 10944 + 26 * moe + 2 * 102400 * 2048 + 2048;
    assert_eq!(total, 15_706_484_224); // "15.7B total parameters"
    // Activated per token in an MoE layer: the router, 6 routed experts and the shared ones.
    assert_eq!(gate + K * expert + shared, 69_337_088);
}

#[test]
fn deepseek_v2_lite_moe_flops_kernels_and_bytes_check_by_hand() {
    let g = load(&Options::default());
    let a = g.analysis.as_ref().expect("analysis");
    let slots = S * K;
    assert_eq!(slots, 12_288);
    // Balanced: T = S·6/64 = 192 rows per expert.
    let t = slots / E;
    assert_eq!(t, 192);

    // Ops. Routing (15): norm, the two casts to f32, router, softmax, topk, topk_indices,
    // the routed_scaling_factor product, the slots flattened and argsorted, each slot's token,
    // the gates flattened, sorted by slot, made a column and cast to bf16. Dispatch (128): 64
    // slices of the sorted tokens, 64 gathers. 64 routed experts and the shared experts, 5
    // ops each. Combine (4): concat, the gate product, the residual add, index_add.
    assert_eq!(a.graph.ops.len(), 15 + 128 + 65 * 5 + 4);
    assert_eq!(a.graph.ops.len(), 472);

    // The routing tensors' dtypes: f32 router, int64 indices as torch.topk and argsort give.
    assert_eq!(tensor(a, "logits").bytes, S * E * 4);
    assert_eq!(tensor(a, "probs").bytes, S * E * 4);
    assert_eq!(tensor(a, "top_w").bytes, S * K * 4);
    assert_eq!(tensor(a, "top_i").bytes, S * K * 8);
    assert_eq!(tensor(a, "order").bytes, slots * 8);
    assert_eq!(tensor(a, "tok").shape.as_slice(), [slots]);
    assert_eq!(tensor(a, "ys").shape.as_slice(), [slots, H]);
    for e in 0..E {
        assert_eq!(tensor(a, &format!("x{e}")).shape.as_slice(), [t, H]);
    }

    // FLOPs (docs/cost-model.md §1). A routed expert row: three matmuls 3·2·2048·1408 =
    // 17,301,504, SiLU 4·1408 and the gate product 1408: 17,308,544; S·6 rows.
    let routed_row = 6 * H * F + 5 * F;
    assert_eq!(routed_row, 17_308_544);
    let routed = routed_row * slots;
    assert_eq!(routed, 212_687_388_672);
    assert_eq!(routed_expert_flops(a), routed);
    for e in 0..E {
        let per = |op: &str| op_flops(a, &format!("expert{e}.{op}"));
        assert_eq!(per("gate"), 2 * t * H * F);
        assert_eq!(per("up"), 2 * t * H * F);
        assert_eq!(per("down"), 2 * t * F * H);
        assert_eq!(per("silu"), 4 * t * F);
        assert_eq!(per("glu"), t * F);
    }
    // The shared experts: every token, intermediate 2816: 6·2048·2816 + 5·2816 = 34,617,088
    // per token.
    let shared_row = 6 * H * FS + 5 * FS;
    assert_eq!(shared_row, 34_617_088);
    let shared = shared_row * S;
    assert_eq!(shared, 70_895_796_224);
    let shared_ops: u64 = ["gate", "up", "silu", "glu", "down"]
        .iter()
        .map(|op| op_flops(a, &format!("shared.{op}")))
        .sum();
    assert_eq!(shared_ops, shared);
    // The router, f32: 2·S·2048·64 = 536,870,912; the casts 1 per element; RMSNorm 1 per
    // element (the table's floor); softmax 5 per logit; topk 1 per probability; the indices
    // 0; the scaling factor, argsort, the tokens' division and the gates' cast 1 per slot.
    let router = 2 * S * H * E;
    assert_eq!(router, 536_870_912);
    assert_eq!(op_flops(a, "router"), router);
    assert_eq!(op_flops(a, "norm"), S * H);
    assert_eq!(op_flops(a, "x_f32"), S * H);
    assert_eq!(op_flops(a, "router_f32"), H * E);
    assert_eq!(op_flops(a, "route_softmax"), 5 * S * E);
    assert_eq!(op_flops(a, "top_weights"), S * E);
    assert_eq!(op_flops(a, "top_experts"), 0);
    for name in ["route_scale", "by_expert", "slot_token", "gate_bf16"] {
        assert_eq!(op_flops(a, name), slots, "{name}");
    }
    let routing = S * H + S * H + H * E + router + 5 * S * E + S * E + 4 * slots;
    assert_eq!(routing, 546_226_176);
    // Combine: the gate product and index_add 1 per element of the S·6 rows, the residual
    // add 1 per element of [S, H].
    assert_eq!(op_flops(a, "weigh"), slots * H);
    assert_eq!(op_flops(a, "residual"), S * H);
    assert_eq!(op_flops(a, "combine"), slots * H);
    let combine = 2 * slots * H + S * H;
    assert_eq!(combine, 54_525_952);
    let c = cost(a);
    let total: u64 = c.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, routed + shared + routing + combine);
    assert_eq!(total, 284_183_937_024);
    // 284 GFLOP for 2048 tokens: 2 FLOPs per activated weight per token is
    // 2·(6·8,650,752 + 17,301,504 + 131,072)·2048 = 284,004,712,448; the other 179,224,576
    // are the activations, norms and routing.
    let dense = 2 * (K * 3 * H * F + 3 * H * FS + H * E) * S;
    assert_eq!(dense, 284_004_712_448);
    assert_eq!(total - dense, 179_224_576);

    // Kernels. Routing 9: norm; the two f32 casts (a cast feeding a matmul stays a kernel of
    // its own: a matmul starts its kernel); router; softmax; topk; the indices (a
    // `topk_indices` ends its kernel: the top-k writes them, PyTorch's argsort reads them);
    // the flattening with the argsort; the tokens' division (read by 64 slices, so written).
    // Dispatch 64: each expert's slice of the sorted tokens with its gather. Routed experts
    // 3 each: up; gate with SiLU and the gate product (one matmul per kernel, the product
    // joins the second); down. Expert 0's down projection also carries the combine's
    // prologue and epilogue: the gate weights' scaling, flattening, sorting, column and cast,
    // the concat of the 64 outputs (it writes its rows into the slots buffer) and the gate
    // product. The shared experts 3 (the residual add is the down projection's epilogue), and
    // index_add: 9 + 64 + 192 + 3 + 1 = 269.
    assert_eq!(a.plan.groups.len(), 9 + 64 + 3 * 64 + 3 + 1);
    assert_eq!(a.plan.groups.len(), 269);
    assert_eq!(c.fused.kernels.len(), 269);
    let first = |name: &str| op_names(a, kernel_of(a, name));
    assert_eq!(first("norm"), ["norm"]);
    assert_eq!(first("x_f32"), ["x_f32"]);
    assert_eq!(first("router_f32"), ["router_f32"]);
    assert_eq!(first("router"), ["router"]);
    assert_eq!(first("route_softmax"), ["route_softmax"]);
    assert_eq!(first("top_weights"), ["top_weights"]);
    assert_eq!(first("by_expert"), ["flat_experts", "by_expert"]);
    assert_eq!(first("top_experts"), ["top_experts"]);
    assert_eq!(first("slot_token"), ["slot_token"]);
    assert_eq!(
        first("weigh"),
        [
            "route_scale",
            "flat_gates",
            "sorted_gates",
            "gate_column",
            "gate_bf16",
            "expert0.down",
            "slots",
            "weigh"
        ]
    );
    assert_eq!(first("shared.down"), ["shared.down", "residual"]);
    assert_eq!(first("combine"), ["combine"]);
    let summary = fgraph::report::summary::summarize(a, &g.instances, Some(&c)).expect("summary");
    assert_eq!(summary.blocks.len(), 1);
    assert_eq!(summary.blocks[0].instances, Some(65)); // 64 routed, 1 shared

    // Bytes. The router reads the f32 copy of x, S·2048·4 = 16,777,216 B, and the f32 gate
    // weight, 2048·64·4 = 524,288 B, and writes the f32 logits, S·64·4 = 524,288 B.
    let tr = &a.traffic.groups[kernel_of(a, "router")];
    assert_eq!(tr.bytes_read, 16_777_216 + 524_288);
    assert_eq!(tr.bytes_written, 524_288);
    // Each gather reads its 192 rows of x, 192·2048·2 = 786,432 B, not all S, and its 192
    // tokens (int64), 1,536 B; it writes the rows.
    for e in 0..E {
        let tr = &a.traffic.groups[kernel_of(a, &format!("take{e}"))];
        assert_eq!(tr.bytes_read, t * H * 2 + t * 8);
        assert_eq!(tr.bytes_read, 787_968);
        assert_eq!(tr.bytes_written, 786_432);
    }
    // The routed experts' weights: every expert is hit, so each of the 64·3 matrices of
    // 2048·1408 bf16 (5,767,168 B) is read once, by its own kernel: 1,107,296,256 B, 71% of
    // the layer's 1,554,534,400 B of reads at S = 2048 (with the 12,288 int64 ids the argsort
    // reads back from the top-k, 98,304 B).
    let weight_reads = |a: &Analysis, prefix: &str| -> u64 {
        a.traffic
            .groups
            .iter()
            .flat_map(|g| g.reads.iter())
            .filter(|r| {
                let t = a.graph.tensor(r.tensor);
                t.origin == Origin::Weight && t.name.starts_with(prefix)
            })
            .map(|r| r.bytes)
            .sum()
    };
    assert_eq!(weight_reads(a, "expert"), E * 3 * H * F * 2);
    assert_eq!(weight_reads(a, "expert"), 1_107_296_256);
    let reads: u64 = a.traffic.groups.iter().map(|g| g.bytes_read).sum();
    assert_eq!(reads, 1_554_534_400);
    // One expert's up projection reads its 192 rows and its weight and writes [192, 1408].
    let tr = &a.traffic.groups[kernel_of(a, "expert5.up")];
    assert_eq!(tr.bytes_read, t * H * 2 + H * F * 2);
    assert_eq!(tr.bytes_written, t * F * 2);
    // The combine adds the S·6 weighted rows, 12288·2048·2 = 50,331,648 B, at their tokens
    // (12288·8 = 98,304 B) into the rows of h + shared(x) they touch, min(12288, 2048) = all
    // 2048: 8,388,608 B, read and written in place.
    let tr = &a.traffic.groups[kernel_of(a, "combine")];
    assert_eq!(tr.bytes_read, 50_331_648 + 98_304 + 8_388_608);
    assert_eq!(tr.bytes_written, 8_388_608);

    // The output: the residual stream, [S, H] bf16.
    let out = tensor(a, "out");
    assert_eq!(out.shape.as_slice(), [S, H]);
    assert_eq!(out.bytes, S * H * 2);
}

#[test]
fn a_hot_expert_moves_rows_not_flops() {
    // The hottest expert possible: every token picks expert 0 (a token's 6 experts are
    // distinct, so no expert serves more than S rows). HOT = 2048, COLD = 10240 div 63 = 162
    // for experts 1 to 62, LAST = 12288 - 2048 - 62·162 = 196 for expert 63.
    let mut options = Options::default();
    options.overrides.insert("HOT".into(), 2048);
    let g = load(&options);
    let a = g.analysis.as_ref().expect("analysis");
    assert_eq!(2048 + 62 * 162 + 196, S * K);
    assert_eq!(tensor(a, "x0").shape.as_slice(), [2048, H]);
    assert_eq!(tensor(a, "x1").shape.as_slice(), [162, H]);
    assert_eq!(tensor(a, "x62").shape.as_slice(), [162, H]);
    assert_eq!(tensor(a, "x63").shape.as_slice(), [196, H]);
    // The routed FLOPs are those of S·6 rows either way; every expert's weights are still
    // read once; expert 0's gather reads all S rows of x.
    assert_eq!(routed_expert_flops(a), (6 * H * F + 5 * F) * S * K);
    let tr = &a.traffic.groups[kernel_of(a, "take0")];
    assert_eq!(tr.bytes_read, 2048 * H * 2 + 2048 * 8);
    let c = cost(a);
    let total: u64 = c.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, 284_183_937_024);
}
