//! examples/mamba_130m.fgraph (issue 23 item 8): Mamba-130m's prefill with the
//! `selective_scan` op, its numbers worked out by hand from the published config and Hugging
//! Face's `modeling_mamba.py` (`MambaForCausalLM`).

use fgraph::analysis::{Analysis, GraphReport};
use fgraph::graph::Origin;
use fgraph::{Options, check_file};

fn load(name: &str) -> GraphReport {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("example");
    let mut r = check_file(&path, &bytes, &Options::default());
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    assert_eq!(r.graphs.len(), 1);
    r.graphs.remove(0)
}

/// Elements of every weight (a tied weight is one tensor, counted once).
fn parameters(a: &Analysis) -> u64 {
    a.graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .map(|t| t.shape.iter().product::<u64>())
        .sum()
}

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

#[test]
fn mamba_130m_is_clean_and_its_numbers_check_by_hand() {
    let g = load("mamba_130m.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    let (d, di, n, r, k, v, l) = (768u64, 1536u64, 16u64, 48u64, 4u64, 50_280u64, 2048u64);
    // d_inner = expand · d_model; dt_rank = ceil(d_model / 16).
    assert_eq!((di, r), (2 * d, d.div_ceil(16)));

    // Parameters, as `sum(p.numel() for p in MambaForCausalLM(config).parameters())` counts
    // them (the LM head is tied: one tensor). Per layer (`MambaBlock`): the RMSNorm weight
    // 768; in_proj 768·3072 = 2,359,296 (no bias); conv1d 1536·1·4 = 6,144 and its bias
    // 1,536; x_proj 1536·(48 + 2·16) = 122,880 (no bias); dt_proj 48·1536 = 73,728 and its
    // bias 1,536; A_log 1536·16 = 24,576; D 1,536; out_proj 1536·768 = 1,179,648 (no bias):
    // 3,771,648.
    let per_layer =
        d + d * 2 * di + (di * k + di) + di * (r + 2 * n) + (r * di + di) + di * n + di + di * d;
    assert_eq!(per_layer, 3_771_648);
    // Embedding 50280·768 = 38,615,040; 24 layers 90,519,552; norm_f 768: 129,135,360.
    let params = v * d + 24 * per_layer + d;
    assert_eq!(params, 129_135_360);
    assert_eq!(parameters(a), params);
    // bf16, but A_log, D and dt_proj's bias in f32 (3·1536 + 1536·16 = 29,184 per layer).
    let weight_bytes: u64 = a
        .graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .map(|t| t.bytes)
        .sum();
    let f32_per_layer = di * n + 2 * di;
    assert_eq!(weight_bytes, 2 * params + 2 * 24 * f32_per_layer);

    // Ops: 2 before the layers (the embedding and its cast to f32), 24 layers of 22, 3 after.
    assert_eq!(a.graph.ops.len(), 2 + 24 * 22 + 3);
    // Kernels: the embedding with its cast; per layer 8 (cast and RMSNorm; in_proj with the
    // views of x and z; the conv with its cut, bias and SiLU; x_proj; dt's slice, a copy
    // before its matmul; dt_proj; the scan with B's and C's views and -exp(A_log) as its
    // prologue; out_proj with the cast and the residual); norm_f, the cast, the LM head.
    assert_eq!(a.plan.groups.len(), 1 + 24 * 8 + 3);
    let s = kernel_of(a, "layers.0.scan");
    assert_eq!(
        op_names(a, s),
        [
            "layers.0.b_part",
            "layers.0.b_t",
            "layers.0.c_part",
            "layers.0.c_t",
            "layers.0.a_exp",
            "layers.0.a_neg",
            "layers.0.scan"
        ]
    );

    // FLOPs per layer at B = 1 (docs/cost-model.md):
    // the cast and the RMSNorm 1 per element each: 2·L·D = 3,145,728;
    // in_proj 2·L·D·2DI = 9,663,676,416;
    // the conv 2·(C/groups = 1)·4 per output over L + 3 positions: 8·1536·2051 = 25,202,688,
    // its bias 1 and SiLU 4 per element: 5·DI·L = 15,728,640;
    // x_proj 2·L·DI·80 = 503,316,480; dt_proj 2·DI·R·L = 301,989,888;
    // -exp(A_log): 2·DI·N = 49,152;
    // the scan: DI·L·(7·16 + 1 + 2 + 5 + 1 + 1) = DI·L·122 = 383,778,816;
    // out_proj 2·L·DI·D = 4,831,838,208; its cast and the residual 2·L·D = 3,145,728.
    // In all 15,731,871,744 per layer.
    let layer = 2 * l * d
        + 2 * l * d * 2 * di
        + 2 * k * di * (l + k - 1)
        + 5 * di * l
        + 2 * l * di * (r + 2 * n)
        + 2 * di * r * l
        + 2 * di * n
        + di * l * (7 * n + 10)
        + 2 * l * di * d
        + 2 * l * d;
    assert_eq!(di * l * (7 * n + 10), 383_778_816);
    assert_eq!(layer, 15_731_871_744);
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let cost = fgraph::cost::estimate(a, &hw, fgraph::LaunchMode::Graph).expect("cost");
    assert_eq!(
        cost.fused.kernels[s].flops,
        2 * di * n + di * l * (7 * n + 10)
    );
    // Outside the layers: the casts to f32 and to bf16 and norm_f, L·D each; the LM head
    // 2·L·D·V = 158,167,695,360. In all 24 · 15,731,871,744 + 3 · 1,572,864 +
    // 158,167,695,360 = 535,736,844,288.
    let total: u64 = cost.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, 24 * layer + 3 * l * d + 2 * l * d * v);
    assert_eq!(total, 535_736_844_288);

    // The output: logits [1, 2048, 50280], bf16.
    let out = a
        .graph
        .tensors
        .iter()
        .find(|t| t.name == "logits")
        .expect("logits");
    assert_eq!(out.shape.to_vec(), vec![1, l, v]);
    assert_eq!(out.dtype.to_string(), "bf16");
}
