//! The model examples of issue 10 (item 4): GPT-2 small, one ViT-B/16 block with its patch
//! embedding, and one Mixtral-8x7B MoE layer; and, from issue 23 item 8, ResNet-50,
//! ConvNeXt-T's stem and stage 1 and Whisper-tiny's audio encoder. Each file analyses with no
//! diagnostics, and its parameter count, op count, FLOPs and traffic agree with figures
//! worked out by hand from the published architectures.

use fgraph::analysis::{Analysis, GraphReport};
use fgraph::cost::CostReport;
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

/// Bytes of all weights (`Origin::Weight`): a tied weight is one tensor, counted once.
fn weight_bytes(a: &Analysis) -> u64 {
    a.graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .map(|t| t.bytes)
        .sum()
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

#[test]
fn gpt2_small_is_clean_and_its_numbers_check_by_hand() {
    let g = load("gpt2_small.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    // 3 embedding ops (gather, slice, add), 12 layers of 22 ops, final LayerNorm, LM head.
    assert_eq!(a.graph.ops.len(), 3 + 12 * 22 + 2);
    assert_eq!(a.graph.ops.len(), 269);

    // Parameters of the published 124M model. Per layer: ln_1 2·768, c_attn 768·2304 + 2304,
    // attn c_proj 768·768 + 768, ln_2 2·768, c_fc 768·3072 + 3072, mlp c_proj 3072·768 + 768
    // = 1,536 + 1,771,776 + 590,592 + 1,536 + 2,362,368 + 2,360,064 = 7,087,872.
    let per_layer: u64 = 2 * 768
        + (768 * 2304 + 2304)
        + (768 * 768 + 768)
        + 2 * 768
        + (768 * 3072 + 3072)
        + (3072 * 768 + 768);
    assert_eq!(per_layer, 7_087_872);
    // wte 50257·768 = 38,597,376 (once: the LM head reads it as wte.T), wpe 1024·768 =
    // 786,432, 12 layers = 85,054,464, ln_f 2·768 = 1,536.
    let params = 50257 * 768 + 1024 * 768 + 12 * per_layer + 2 * 768;
    assert_eq!(params, 124_439_808);
    // f16: 2 bytes each.
    assert_eq!(weight_bytes(a), 2 * params);
    assert_eq!(weight_bytes(a), 248_879_616);

    // FLOPs of one layer at S = 1024 (docs/cost-model.md §1).
    let (s, d, f, nh, hd) = (1024u64, 768u64, 3072u64, 12u64, 64u64);
    // Matmuls: QKV, output and the two MLP projections, 2·S·(768·2304 + 768² + 2·768·3072)
    // = 2,048 · 7,077,888 = 14,495,514,624; QK^T and PV, 2 · 2·NH·S·S·HD = 3,221,225,472.
    let matmul = 2 * s * (d * 3 * d + d * d + 2 * d * f) + 2 * 2 * nh * s * s * hd;
    assert_eq!(matmul, 17_716_740_096);
    // Elementwise, 1 per output element: the QKV bias S·2304; the scale and the mask NH·S·S
    // each; the output bias, the MLP output bias and the two residuals S·768 each; the fc
    // bias S·3072; GELU 8 per element of [S, 3072]. Reductions: two LayerNorms at 8 per
    // element of [S, 768], softmax at 5 per element of [NH, S, S]. 134,479,872 in all.
    let other =
        s * 3 * d + 2 * nh * s * s + 4 * s * d + s * f + 8 * s * f + 2 * 8 * s * d + 5 * nh * s * s;
    assert_eq!(other, 134_479_872);
    let cost = cost(a);
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    assert_eq!(summary.instances.len(), 13); // 12 layers and the ops outside blocks
    for row in &summary.instances[..12] {
        assert_eq!(row.ops, 22);
        assert_eq!(row.flops, matmul + other, "{}", row.name);
    }
    // The tied LM head alone: 2·S·768·50257 = 79,047,426,048.
    let head = kernel_of(a, "lm_head");
    assert_eq!(op_names(a, head), ["lm_head"]);
    assert_eq!(cost.fused.kernels[head].flops, 2 * s * d * 50257);
    assert_eq!(cost.fused.kernels[head].flops, 79_047_426_048);

    // The embedding kernel: the gather, the position slice and their sum fuse. It reads S
    // rows of wte (1024·768·2 = 1,572,864 B, not the 77 MB table), the token ids (1024·4 =
    // 4,096 B) and the first S rows of wpe (1,572,864 B); it writes x (1,572,864 B), which
    // the first layer reads twice (LayerNorm and residual).
    let embed = kernel_of(a, "tok_embed");
    assert_eq!(op_names(a, embed), ["tok_embed", "positions", "embed"]);
    let t = &a.traffic.groups[embed];
    let wte = t
        .reads
        .iter()
        .find(|r| a.graph.tensor(r.tensor).name == "wte")
        .expect("wte read");
    assert_eq!(wte.bytes, s * d * 2);
    assert_eq!(t.bytes_read, 2 * (s * d * 2) + s * 4);
    assert_eq!(t.bytes_read, 3_149_824);
    assert_eq!(t.bytes_written, 1_572_864);
}

#[test]
fn vit_block_is_clean_and_its_numbers_check_by_hand() {
    let g = load("vit_block.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    // 8 ops of patch embedding, CLS and positions; one encoder block of 21.
    assert_eq!(a.graph.ops.len(), 8 + 21);

    // Parameters. The block: the same shapes as a GPT-2 layer, 7,087,872. Outside it: the
    // patch kernel 768·768 = 589,824 and its bias 768, the CLS token 768, the position
    // embedding 197·768 = 151,296: 742,656. (The full ViT-B/16, 12 blocks, a final
    // LayerNorm 1,536 and the 1000-class head 769,000, is the published 86,567,656.)
    let block: u64 = 2 * 768
        + (768 * 2304 + 2304)
        + (768 * 768 + 768)
        + 2 * 768
        + (768 * 3072 + 3072)
        + (3072 * 768 + 768);
    let outside: u64 = 768 * 768 + 768 + 768 + 197 * 768;
    assert_eq!(outside, 742_656);
    assert_eq!(
        12 * block + outside + 2 * 768 + 768 * 1000 + 1000,
        86_567_656
    );
    assert_eq!(weight_bytes(a), 2 * (block + outside));
    assert_eq!(weight_bytes(a), 15_661_056);

    // FLOPs of the block at B = 32, N = 197 (6,304 token rows).
    let (b, n, d, f, nh, hd) = (32u64, 197u64, 768u64, 3072u64, 12u64, 64u64);
    let rows = b * n;
    // Matmuls: 2·6304·7,077,888 = 89,238,011,904; QK^T and PV 4·B·NH·N²·HD = 3,815,079,936.
    let matmul = 2 * rows * (d * 3 * d + d * d + 2 * d * f) + 4 * b * nh * n * n * hd;
    assert_eq!(matmul, 93_053_091_840);
    // QKV bias, scale, four [rows, 768] adds, fc bias, GELU (8), two LayerNorms (8),
    // softmax (5): 375,062,784.
    let other = rows * 3 * d
        + b * nh * n * n
        + 4 * rows * d
        + rows * f
        + 8 * rows * f
        + 2 * 8 * rows * d
        + 5 * b * nh * n * n;
    assert_eq!(other, 375_062_784);
    let cost = cost(a);
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    assert_eq!(summary.instances[0].name, "blocks.0");
    assert_eq!(summary.instances[0].flops, matmul + other);

    // Patch embedding: 2·B·196·768·768 = 7,398,752,256 for the matmul, plus its bias
    // B·196·768 = 4,816,896 and the position add B·197·768 = 4,841,472 fused after it
    // (the CLS broadcast and the concat move data only).
    let proj = kernel_of(a, "patch_proj");
    assert_eq!(
        op_names(a, proj),
        [
            "patch_proj",
            "patch_bias",
            "cls_batch",
            "with_cls",
            "add_pos"
        ]
    );
    assert_eq!(
        cost.fused.kernels[proj].flops,
        2 * b * 196 * d * d + b * 196 * d + b * 197 * d
    );
    assert_eq!(cost.fused.kernels[proj].flops, 7_408_410_624);
    // Patchify is a copy: it reads the f16 image, 32·3·224·224·2 = 9,633,792 B, and writes
    // the same bytes as [B, 196, 768] patches.
    let patchify = kernel_of(a, "patch_order");
    assert_eq!(
        op_names(a, patchify),
        ["patch_split", "patch_order", "patch_flat"]
    );
    let t = &a.traffic.groups[patchify];
    assert_eq!(t.bytes_read, 32 * 3 * 224 * 224 * 2);
    assert_eq!(t.bytes_read, 9_633_792);
    assert_eq!(t.bytes_written, 9_633_792);
}

#[test]
fn vit_block_stacks_into_the_whole_encoder() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/vit_block.fgraph");
    let bytes = std::fs::read(path).expect("example");
    let mut opts = Options::default();
    opts.overrides.insert("L".into(), 12);
    let r = check_file(path, &bytes, &opts);
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    assert_eq!(a.graph.ops.len(), 8 + 12 * 21);
    // 12 blocks of 7,087,872 and the 742,656 outside them, 2 bytes each.
    assert_eq!(weight_bytes(a), 2 * (12 * 7_087_872 + 742_656));
}

#[test]
fn mixtral_moe_is_clean_and_its_numbers_check_by_hand() {
    let g = load("mixtral_moe.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    // Issue 23 replaced the opaque routing functions with the real ops. Routing (13): norm,
    // router, softmax, topk, topk_indices, the weights' sum and division, the slots
    // flattened and argsorted, each slot's token, the gates flattened, sorted by slot and made
    // a column; dispatch (16): 8 slices of the sorted tokens, 8 gathers; 8 experts of 5 ops;
    // combine (3): concat, the gate product, index_add. (Before: 7 + 8 + 40 + 3 = 58.)
    assert_eq!(a.graph.ops.len(), 13 + 16 + 8 * 5 + 3);
    assert_eq!(a.graph.ops.len(), 72);
    // The routing indices are produced as i32.
    let tensor = |name: &str| {
        a.graph
            .tensors
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(tensor("top_i").bytes, 4096 * 2 * 4);
    assert_eq!(tensor("order").bytes, 4096 * 2 * 4);
    assert_eq!(tensor("tok").shape.as_slice(), [8192]);

    // Parameters (unchanged): the norm 4096, the router 4096·8 = 32,768, and 8 experts of
    // 3·4096·14336 = 176,160,768: 1,409,323,008, bf16.
    let expert: u64 = 3 * 4096 * 14336;
    assert_eq!(expert, 176_160_768);
    let params = 4096 + 4096 * 8 + 8 * expert;
    assert_eq!(params, 1_409_323_008);
    assert_eq!(weight_bytes(a), 2 * params);
    assert_eq!(weight_bytes(a), 2_818_646_016);

    // T = S·2/8 = 1,024 tokens per expert (balanced: HOT = COLD = LAST = T). One expert:
    // three matmuls 3 · 2·T·4096·14336 = 360,777,252,864, SiLU 4·T·14336 = 58,720,256, the
    // gate product T·14336 = 14,680,064: 360,850,653,184 (unchanged).
    let (s, t, h, f) = (4096u64, 1024u64, 4096u64, 14336u64);
    assert_eq!(t, s * 2 / 8);
    let per_expert = 3 * 2 * t * h * f + 4 * t * f + t * f;
    assert_eq!(per_expert, 360_850_653_184);
    let cost = cost(a);
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    assert_eq!(summary.blocks.len(), 1);
    assert_eq!(summary.blocks[0].instances, Some(8));
    // The experts' ops, summed (the summary's block FLOPs count the kernels wholly inside the
    // block, and expert 0's down projection now shares a kernel with the gate product).
    let expert_flops = |a: &Analysis| -> u64 {
        (0..a.graph.ops.len())
            .filter(|&o| a.graph.ops[o].name.starts_with("expert"))
            .map(|o| fgraph::cost::flops::op_flops(&a.graph, fgraph::graph::OpId(o as u32)).0)
            .sum()
    };
    assert_eq!(expert_flops(a), 8 * per_expert);
    // The router: 2·S·4096·8 = 268,435,456 (unchanged).
    let router = kernel_of(a, "router");
    assert_eq!(op_names(a, router), ["router"]);
    assert_eq!(cost.fused.kernels[router].flops, 2 * s * h * 8);
    assert_eq!(cost.fused.kernels[router].flops, 268_435_456);

    // The routing ops' FLOPs, which the opaque functions stated before (E / K = 4 per top-k
    // index, 1 per element of the rest): topk 1 per element of probs, S·8 = 32,768;
    // topk_indices 0; the weights' sum S·2 = 8,192 and division 8,192; argsort 8,192; the
    // tokens' division 8,192; the gate product S·2·4096 = 33,554,432; index_add one add per
    // element added, 33,554,432.
    let op_flops = |name: &str| {
        let o = a
            .graph
            .ops
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("{name}"));
        fgraph::cost::flops::op_flops(&a.graph, fgraph::graph::OpId(o as u32)).0
    };
    assert_eq!(op_flops("top_weights"), s * 8);
    assert_eq!(op_flops("top_experts"), 0);
    for name in ["weight_sum", "renorm", "by_expert", "slot_token"] {
        assert_eq!(op_flops(name), s * 2, "{name}");
    }
    assert_eq!(op_flops("weigh"), s * 2 * h);
    assert_eq!(op_flops("combine"), 33_554_432);

    // The top-k reads the probabilities, S·8·2 = 65,536 B, and writes the weights, S·2·2 =
    // 16,384 B. The indices are found with them: their kernel reads nothing and writes the
    // S·2 ids, S·2·4 = 32,768 B (PyTorch's top-k writes them; a `topk_indices` ends its
    // kernel, so what reads them reads them from memory). The flattening and the argsort
    // read the ids and write the sorted order, S·2·4 = 32,768 B.
    let top = kernel_of(a, "top_weights");
    assert_eq!(op_names(a, top), ["top_weights"]);
    let tr = &a.traffic.groups[top];
    assert_eq!((tr.bytes_read, tr.bytes_written), (65_536, 16_384));
    let ids = kernel_of(a, "top_experts");
    assert_eq!(op_names(a, ids), ["top_experts"]);
    let tr = &a.traffic.groups[ids];
    assert_eq!((tr.bytes_read, tr.bytes_written), (0, 32_768));
    let sort = kernel_of(a, "by_expert");
    assert_eq!(op_names(a, sort), ["flat_experts", "by_expert"]);
    let tr = &a.traffic.groups[sort];
    assert_eq!((tr.bytes_read, tr.bytes_written), (32_768, 32_768));

    // Each gather, with the slice of the sorted tokens that feeds it, is a kernel of its own
    // (its rows feed two matmuls). It reads its T rows of x, 1024·4096·2 = 8,388,608 B, not
    // all S of them, and its T tokens, 1024·4 = 4,096 B; it writes the T rows (unchanged).
    for e in 0..8 {
        let k = kernel_of(a, &format!("take{e}"));
        assert_eq!(
            op_names(a, k),
            [format!("ids{e}").as_str(), format!("take{e}").as_str()]
        );
        let tr = &a.traffic.groups[k];
        assert_eq!(tr.bytes_read, t * h * 2 + t * 4);
        assert_eq!(tr.bytes_read, 8_392_704);
        assert_eq!(tr.bytes_written, 8_388_608);
    }

    // The combine adds the S·2 weighted rows into the residual stream in place: it reads
    // them, 8192·4096·2 = 67,108,864 B, the tokens, 8192·4 = 32,768 B, and the rows of h it
    // touches, min(8192, 4096) = all 4,096: 33,554,432 B; it writes those rows.
    let combine = kernel_of(a, "combine");
    assert_eq!(op_names(a, combine), ["combine"]);
    let tr = &a.traffic.groups[combine];
    assert_eq!(tr.bytes_read, 67_108_864 + 32_768 + 33_554_432);
    assert_eq!(tr.bytes_written, 33_554_432);

    // A hot expert: HOT = 2048 rows for expert 0, COLD = 6144 div 7 = 877 for experts 1 to
    // 6, LAST = 8192 - 2048 - 6·877 = 882 for expert 7. The experts' FLOPs are those of
    // S·2 rows either way (6·H·F + 5·F per row); expert 0's gather reads twice the rows.
    let path = format!("{}/examples/mixtral_moe.fgraph", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("example");
    let mut options = Options::default();
    options.overrides.insert("HOT".into(), 2048);
    let r = check_file(&path, &bytes, &options);
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let ha = r.graphs[0].analysis.as_ref().expect("analysis");
    assert_eq!(2048 + 6 * 877 + 882, 8192);
    assert_eq!(expert_flops(ha), 8 * per_expert);
    assert_eq!(expert_flops(ha), (6 * h * f + 5 * f) * s * 2);
    let x0 = ha
        .graph
        .tensors
        .iter()
        .find(|t| t.name == "x0")
        .expect("x0");
    assert_eq!(x0.shape.as_slice(), [2048, 4096]);
    let x7 = ha
        .graph
        .tensors
        .iter()
        .find(|t| t.name == "x7")
        .expect("x7");
    assert_eq!(x7.shape.as_slice(), [882, 4096]);
}

#[test]
fn resnet50_is_clean_and_its_numbers_check_by_hand() {
    let g = load("resnet50.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    // Stem 3 ops and the max pool; 4 first blocks of 12 ops (with the shortcut's conv and
    // batch norm); 12 repeated blocks of 10; global pool, flatten, fc and its bias.
    assert_eq!(a.graph.ops.len(), 4 + 4 * 12 + 12 * 10 + 4);
    assert_eq!(a.graph.ops.len(), 176);
    // One kernel per conv with its batch norm, ReLU (and residual) as epilogue: 53 convs
    // (the stem, 16 blocks of 3, 4 shortcuts), plus the max pool, the global pool, the
    // flatten and the fc.
    assert_eq!(a.plan.groups.len(), 53 + 4);

    // Parameters, as torchvision counts them: conv weights, batch-norm weight and bias, fc
    // weight and bias. The batch norms' running mean and var are buffers (`*_mean`,
    // `*_var`), weights to fgraph but not parameters, so they are counted apart.
    // Stem: 64·3·7·7 = 9,408 and its norm 2·64: 9,536.
    // A repeated block of width M: 4M·M + 9M² + 4M² = 17M² of conv, 2·(M + M + 4M) = 12M of
    // norm. A first block from C channels adds the shortcut: C·M + 9M² + 4M² + 4M·C of conv,
    // 20M of norm. Stages (M, blocks, C in): (64, 3, 64), (128, 4, 256), (256, 6, 512),
    // (512, 3, 1024): 215,808, 1,219,584, 7,098,368 and 14,964,736. fc: 2048·1000 + 1000 =
    // 2,049,000. In all 25,557,032.
    let stage_params = |m: u64, n: u64, c: u64| {
        (c * m + 13 * m * m + 4 * m * c + 20 * m) + (n - 1) * (17 * m * m + 12 * m)
    };
    assert_eq!(stage_params(64, 3, 64), 215_808);
    assert_eq!(stage_params(128, 4, 256), 1_219_584);
    assert_eq!(stage_params(256, 6, 512), 7_098_368);
    assert_eq!(stage_params(512, 3, 1024), 14_964_736);
    let params = 9_536
        + stage_params(64, 3, 64)
        + stage_params(128, 4, 256)
        + stage_params(256, 6, 512)
        + stage_params(512, 3, 1024)
        + 2_049_000;
    assert_eq!(params, 25_557_032);
    let weights = |buffers: bool| -> u64 {
        a.graph
            .tensors
            .iter()
            .filter(|t| t.origin == Origin::Weight)
            .filter(|t| (t.name.ends_with("_mean") || t.name.ends_with("_var")) == buffers)
            .map(|t| t.bytes)
            .sum()
    };
    assert_eq!(weights(false), 2 * params); // f16
    // The running stats: one mean and one var per normalised channel, half the norm params:
    // 64 + 2·(sum over stages of 6M per block + 4M per shortcut) = 53,120 values.
    let bn_channels: u64 = 64
        + [(64u64, 3u64), (128, 4), (256, 6), (512, 3)]
            .iter()
            .map(|&(m, n)| n * 6 * m + 4 * m)
            .sum::<u64>();
    assert_eq!(bn_channels, 26_560);
    assert_eq!(weights(true), 2 * 2 * bn_channels);

    // FLOPs at B = 32. A conv is 2·MACs, MACs = (C/g)·kh·kw per output element.
    // MACs per image: stem 64·112²·3·49 = 118,013,952. A repeated block (any stage: width
    // and area trade off) 4M·M·H² + 9M²·H² + 4M²·H² = 218,365,952. A first block:
    // layer1 (C 64, 56² in and out) 231,211,008; layers 2–4 (the 1 × 1 reduce at the input
    // size, the rest at half of it) 372,506,624 each. Stages: 667,942,912, 1,027,604,480,
    // 1,464,336,384, 809,238,528. Convs in all 4,087,136,256 MACs per image, 4.089 G with
    // the fc's 2,048,000: torchvision's well-known 4.1 GMACs.
    let (b, rep, first1, first) = (32u64, 218_365_952u64, 231_211_008u64, 372_506_624u64);
    let conv_macs = 118_013_952
        + (first1 + 2 * rep)
        + (first + 3 * rep)
        + (first + 5 * rep)
        + (first + 2 * rep);
    assert_eq!(conv_macs, 4_087_136_256);
    assert_eq!(2 * b * conv_macs, 261_576_720_384);
    // The rest: batch norm 4 and ReLU 1 per element, the residual add 1, the max pool 9 per
    // output, the global pool 1 per input, the fc 2·32·2048·1000 = 131,072,000 and its
    // bias 32,000. Per repeated block of width M at H²: 5·M·H² twice, (4 + 1 + 1)·4M·H²:
    // 34·M·H² per image. M·H² is 200,704 in layer1 and halves with each stage after, so
    // at B = 32 a repeated block's rest is 218,365,952 in layer1 and 27,295,744 in layer4.
    let rep_other = |m: u64, h: u64| b * 34 * m * h * h;
    assert_eq!(rep_other(64, 56), 218_365_952);
    assert_eq!(rep_other(512, 7), 27_295_744);
    // A first block adds the shortcut's norm (4·4M·H²) and its conv1's norm and ReLU run at
    // the input size: 5·M·(S·H)² + 5·M·H² + 8·4M·H² + 2·4M·H².
    let first_other =
        |m: u64, h: u64, s: u64| b * (5 * m * s * s * h * h + 5 * m * h * h + 40 * m * h * h);
    assert_eq!(first_other(64, 56, 1), 321_126_400);
    assert_eq!(first_other(128, 28, 2), 208_732_160);
    // Stem norm and ReLU 5·32·64·112² = 128,450,560; max pool 9·32·64·56² = 57,802,752;
    // global pool 32·2048·49 = 3,211,264.
    let other = 5 * b * 64 * 112 * 112
        + 9 * b * 64 * 56 * 56
        + first_other(64, 56, 1)
        + 2 * rep_other(64, 56)
        + first_other(128, 28, 2)
        + 3 * rep_other(128, 28)
        + first_other(256, 14, 2)
        + 5 * rep_other(256, 14)
        + first_other(512, 7, 2)
        + 2 * rep_other(512, 7)
        + b * 2048 * 49
        + b * 1000;
    assert_eq!(other, 1_967_734_016);
    let fc = 2 * b * 2048 * 1000;
    let cost = cost(a);
    let total: u64 = cost.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, 2 * b * conv_macs + fc + other);
    assert_eq!(total, 263_675_526_400);
    // Per block, as the summary splits it: 16 blocks, then the ops outside them.
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    let per_block: Vec<u64> = summary.instances[..16].iter().map(|r| r.flops).collect();
    let mut want = vec![];
    for (m, n, h, c, s) in [
        (64u64, 3u64, 56u64, 64u64, 1u64),
        (128, 4, 28, 256, 2),
        (256, 6, 14, 512, 2),
        (512, 3, 7, 1024, 2),
    ] {
        let first_macs = m * (s * h) * (s * h) * c + 13 * m * m * h * h + 4 * m * h * h * c;
        want.push(2 * b * first_macs + first_other(m, h, s));
        for _ in 1..n {
            want.push(2 * b * rep + rep_other(m, h));
        }
    }
    assert_eq!(per_block, want);
    // The stem kernel: its conv and its norm and ReLU.
    let stem = kernel_of(a, "stem");
    assert_eq!(op_names(a, stem), ["stem", "stem_bn", "stem_relu"]);
    assert_eq!(
        cost.fused.kernels[stem].flops,
        2 * b * 118_013_952 + 5 * b * 64 * 112 * 112
    );

    // The logits.
    let logits = a
        .graph
        .tensors
        .iter()
        .find(|t| t.name == "logits")
        .expect("logits");
    assert_eq!(logits.shape.as_slice(), [32, 1000]);
}

#[test]
fn convnext_block_is_clean_and_its_numbers_check_by_hand() {
    let g = load("convnext_block.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    // Stem: conv, bias, permute, LayerNorm, permute back; 3 blocks of 12 ops.
    assert_eq!(a.graph.ops.len(), 5 + 3 * 12);
    // Kernels: the stem's conv with its bias and permute, its LayerNorm, its permute back;
    // per block the depthwise conv (bias, permute), the LayerNorm, fc1 (bias, GELU) and fc2
    // (bias, permute back, layer scale, residual).
    assert_eq!(a.plan.groups.len(), 3 + 3 * 4);

    // Parameters, as torchvision's `convnext_tiny` lays out `features[0]` and `features[1]`:
    // stem conv 4·4·3·96 = 4,608 and its bias 96, its LayerNorm2d 2·96: 4,896. A block:
    // dwconv 7·7·96 = 4,704 and its bias 96, norm 2·96 = 192, pwconv1 96·384 + 384 =
    // 37,248, pwconv2 384·96 + 96 = 36,960, layer_scale 96: 79,296. In all 242,784.
    let stem: u64 = 4 * 4 * 3 * 96 + 96 + 2 * 96;
    assert_eq!(stem, 4_896);
    let block: u64 = 7 * 7 * 96 + 96 + 2 * 96 + (96 * 384 + 384) + (384 * 96 + 96) + 96;
    assert_eq!(block, 79_296);
    let params = stem + 3 * block;
    assert_eq!(params, 242_784);
    assert_eq!(weight_bytes(a), 2 * params); // f16

    // FLOPs at B = 32 (docs/cost-model.md §1). Every tensor but the MLP's hidden one has
    // E = 32·96·56² = 9,633,792 elements; the hidden one 4·E.
    let e: u64 = 32 * 96 * 56 * 56;
    assert_eq!(e, 9_633_792);
    // Convs, 2·(C/g)·prod(kernel) per output element: the stem 2·3·16 = 96 per element,
    // the depthwise conv 2·1·49 = 98.
    let stem_conv = 2 * 3 * 4 * 4 * e;
    let dwconv = 2 * 7 * 7 * e;
    assert_eq!(stem_conv, 924_844_032);
    assert_eq!(dwconv, 944_111_616);
    // Matmuls, 2·K per output element: fc1 2·96·4E, fc2 2·384·E.
    let matmul = 2 * 96 * 4 * e + 2 * 384 * e;
    assert_eq!(matmul, 14_797_504_512);
    // LayerNorm 8 per element (of E); GELU 8 per element of 4E; adds and muls 1 per output
    // element: the conv bias E, the fc1 bias 4E, the fc2 bias, layer scale and residual E
    // each. Permutes move data only.
    let norm = 8 * e;
    let gelu = 8 * 4 * e;
    let pointwise = e + 4 * e + 3 * e;
    assert_eq!(dwconv + matmul + norm + gelu + pointwise, 1682 * e);
    let per_block = dwconv + matmul + norm + gelu + pointwise;
    assert_eq!(per_block, 16_204_038_144);
    // The stem: its conv, its bias E and its LayerNorm 8E: 105·E.
    let stem_flops = stem_conv + e + norm;
    assert_eq!(stem_flops, 1_011_548_160);
    let cost = cost(a);
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    assert_eq!(summary.instances.len(), 4); // 3 blocks and the ops outside them
    for row in &summary.instances[..3] {
        assert_eq!(row.ops, 12);
        assert_eq!(row.flops, per_block, "{}", row.name);
    }
    assert_eq!(summary.instances[3].flops, stem_flops);
    let total: u64 = cost.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, stem_flops + 3 * per_block);
    assert_eq!(total, 49_623_662_592);
    // One block's fc1 kernel: its matmul, bias and GELU.
    let fc1 = kernel_of(a, "stage1.0.fc1");
    assert_eq!(
        op_names(a, fc1),
        ["stage1.0.fc1", "stage1.0.fc1_bias", "stage1.0.gelu"]
    );
    assert_eq!(
        cost.fused.kernels[fc1].flops,
        2 * 96 * 4 * e + 4 * e + 8 * 4 * e
    );

    // The output: stage 1's [B, 96, 56, 56].
    let out = a.graph.tensors.iter().find(|t| t.name == "h1").expect("h1");
    assert_eq!(out.shape.as_slice(), [32, 96, 56, 56]);
}

#[test]
fn whisper_tiny_encoder_is_clean_and_its_numbers_check_by_hand() {
    let g = load("whisper_tiny_encoder.fgraph");
    let a = g.analysis.as_ref().expect("analysis");
    // Stem 8 ops (two convs with bias and GELU, the permute, the positions), 4 layers of 25
    // (LayerNorm; q 4, k 3 (no bias), v 4 ops; attention and the two ops merging the heads;
    // output projection, bias, residual; LayerNorm, fc1, bias, GELU, fc2, bias, residual),
    // the final LayerNorm.
    assert_eq!(a.graph.ops.len(), 8 + 4 * 25 + 1);
    assert_eq!(a.graph.ops.len(), 109);
    // Kernels: each conv with its bias and GELU (the second also the permute and the
    // positions); per layer ln1, q, k, v, attention, o, ln2, fc1, fc2 (9); ln_post.
    assert_eq!(a.plan.groups.len(), 2 + 4 * 9 + 1);

    // Parameters of the published Whisper-tiny encoder (d 384, FFN 1536). conv1 80·384·3 +
    // 384 = 92,544; conv2 384·384·3 + 384 = 442,752. Per layer: q, k, v and out projections
    // 4·384² with a bias on q, v and out (3·384): 590,976; two LayerNorms 4·384 = 1,536; fc1
    // 384·1536 + 1536 = 591,360; fc2 1536·384 + 384 = 590,208: 1,774,080. Final LayerNorm
    // 2·384 = 768. In all 7,632,384. The positional embedding, 1500·384 = 576,000, is a
    // buffer in OpenAI's code (a frozen, sinusoidal nn.Embedding in Hugging Face's, which
    // counts it: 8,208,384), a weight to fgraph, counted apart.
    let (d, f, s, t) = (384u64, 1536u64, 1500u64, 3000u64);
    let per_layer = (4 * d * d + 3 * d) + 4 * d + (d * f + f) + (f * d + d);
    assert_eq!(per_layer, 1_774_080);
    let params = (80 * d * 3 + d) + (d * d * 3 + d) + 4 * per_layer + 2 * d;
    assert_eq!(params, 7_632_384);
    assert_eq!(params + s * d, 8_208_384);
    let weights = |buffers: bool| -> u64 {
        a.graph
            .tensors
            .iter()
            .filter(|t| t.origin == Origin::Weight)
            .filter(|t| (t.name == "pos") == buffers)
            .map(|t| t.bytes)
            .sum()
    };
    assert_eq!(weights(false), 2 * params); // f16
    assert_eq!(weights(true), 2 * s * d);
    assert_eq!(weight_bytes(a), 2 * (params + s * d));

    // FLOPs at B = 1 (docs/cost-model.md §1; a conv is 2·(C/g)·k per output element).
    // conv1 2·384·3000·80·3 = 552,960,000; conv2 2·384·1500·384·3 = 1,327,104,000. Their
    // biases 1 and GELUs 8 per output element, 9·(384·3000 + 384·1500) = 15,552,000; the
    // positions 384·1500 = 576,000. Stem 1,896,192,000.
    let conv = 2 * d * t * 80 * 3 + 2 * d * s * d * 3;
    assert_eq!(conv, 1_880_064_000);
    let stem = conv + 9 * (d * t + d * s) + s * d;
    assert_eq!(stem, 1_896_192_000);
    // Per layer: the q, k, v, out projections 4·2·S·D² = 1,769,472,000, fc1 and fc2
    // 2·2·S·D·F = 3,538,944,000; attention (2·64 + 2·64 + 5) per (query, key) pair per head,
    // 6·1500²·261 = 3,523,500,000; the rest: two LayerNorms 2·8·S·D, the q, v, out and fc2
    // biases and the two residuals 6·S·D, the fc1 bias S·F and GELU 8·S·F: 33,408,000.
    let matmul = 4 * 2 * s * d * d + 2 * 2 * s * d * f;
    assert_eq!(matmul, 5_308_416_000);
    let attention = 6 * s * s * (2 * 64 + 2 * 64 + 5);
    assert_eq!(attention, 3_523_500_000);
    let other = 16 * s * d + 6 * s * d + 9 * s * f;
    assert_eq!(other, 33_408_000);
    let layer = matmul + attention + other;
    assert_eq!(layer, 8_865_324_000);
    let cost = cost(a);
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    assert_eq!(summary.instances.len(), 5); // 4 layers and the ops outside blocks
    for row in &summary.instances[..4] {
        assert_eq!(row.ops, 25);
        assert_eq!(row.flops, layer, "{}", row.name);
    }
    let k = kernel_of(a, "layers.0.attn");
    assert_eq!(
        op_names(a, k),
        ["layers.0.attn", "layers.0.merge_heads", "layers.0.merge"]
    );
    assert_eq!(cost.fused.kernels[k].flops, attention);
    // The stem's kernels, and the total with the final LayerNorm (8·S·D): 37,362,096,000.
    let c1 = kernel_of(a, "conv1");
    assert_eq!(op_names(a, c1), ["conv1", "conv1_bias", "conv1_gelu"]);
    assert_eq!(cost.fused.kernels[c1].flops, 2 * d * t * 80 * 3 + 9 * d * t);
    let c2 = kernel_of(a, "conv2");
    assert_eq!(
        op_names(a, c2),
        ["conv2", "conv2_bias", "conv2_gelu", "to_positions", "embed"]
    );
    let total: u64 = cost.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, stem + 4 * layer + 8 * s * d);
    assert_eq!(total, 37_362_096_000);

    // The output: [B, 1500, 384].
    let out = a
        .graph
        .tensors
        .iter()
        .find(|t| t.name == "out")
        .expect("out");
    assert_eq!(out.shape.as_slice(), [1, 1500, 384]);
}
