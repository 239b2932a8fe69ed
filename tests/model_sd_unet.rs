//! Issue 23 item 8: Stable Diffusion 1.5's UNet input conv and first down block at 64 × 64
//! latents (`examples/sd15_unet_down_block.fgraph`), batch 2 (classifier-free guidance), f16.
//! The file analyses with no diagnostics, and its parameter count, FLOPs, kernels and output
//! shapes agree with figures worked out by hand from diffusers' source
//! (github.com/huggingface/diffusers, `src/diffusers/models/`: `resnet.py` ResnetBlock2D,
//! `downsampling.py` Downsample2D, `transformers/transformer_2d.py` Transformer2DModel,
//! `attention.py` BasicTransformerBlock and FeedForward, `activations.py` GEGLU,
//! `attention_processor.py` Attention and AttnProcessor2_0, `unets/unet_2d_blocks.py`
//! CrossAttnDownBlock2D, `unets/unet_2d_condition.py` conv_in).
//!
//! The parameter count a reader can reproduce with diffusers (the SD 1.5 config is the
//! class's defaults with `cross_attention_dim=768`, so no download is needed):
//!
//! ```python
//! from diffusers import UNet2DConditionModel
//! u = UNet2DConditionModel(cross_attention_dim=768)  # or .from_pretrained(
//! #   "runwayml/stable-diffusion-v1-5", subfolder="unet")
//! sum(p.numel() for m in (u.conv_in, u.down_blocks[0]) for p in m.parameters())
//! # 10536320  (u.conv_in alone: 11840; u.down_blocks[0] alone: 10524480)
//! ```
//!
//! Run once with diffusers 0.42.1 and PyTorch 2.11 on an H100 (the session that wrote this
//! file): 11,840 + 10,524,480 = 10,536,320 parameters, and PyTorch's FLOP counter gave
//! 219,290,664,960 for the forward pass below (convolution 71,072,481,280, addmm
//! 46,979,481,600, mm 13,724,549,120, SDPA 87,514,152,960; PyTorch ran SDPA as cuDNN's
//! attention there), the output [2, 320, 32, 32] and the skip states [2, 320, 64, 64] twice
//! and [2, 320, 32, 32].

use fgraph::analysis::{Analysis, GraphReport};
use fgraph::cost::CostReport;
use fgraph::graph::Origin;
use fgraph::{Options, check_file};

const FILE: &str = "sd15_unet_down_block.fgraph";

fn load_with(opts: &Options) -> GraphReport {
    let path = format!("{}/examples/{FILE}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("example");
    let mut r = check_file(&path, &bytes, opts);
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

fn shape_of<'a>(a: &'a Analysis, name: &str) -> &'a [u64] {
    a.graph
        .tensors
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tensor {name}"))
        .shape
        .as_slice()
}

// The sizes: batch 2, 320 channels, 64 × 64 latents (S = 4096 tokens), 8 heads of 40, 77 text
// tokens of 768, GEGLU's inner 1280, the time embedding's 1280.
const B: u64 = 2;
const C: u64 = 320;
const HW: u64 = 64 * 64;
const S: u64 = HW;
const NH: u64 = 8;
const HD: u64 = 40;
const L: u64 = 77;
const E: u64 = 768;
const F: u64 = 1280;
const T: u64 = 1280;

#[test]
fn the_parameters_are_diffusers_count() {
    let g = load_with(&Options::default());
    let a = g.analysis.as_ref().expect("analysis");

    // conv_in: Conv2d(4, 320, 3, padding=1), weight 320·4·3·3 = 11,520 and bias 320.
    let conv_in = C * 4 * 9 + C;
    assert_eq!(conv_in, 11_840);
    // A 3 × 3 conv 320 → 320 with a bias: 320·320·9 + 320 = 921,920 (conv1, conv2, and the
    // Downsample2D's conv). A GroupNorm or LayerNorm of 320 (affine): weight and bias, 640.
    let conv3 = C * C * 9 + C;
    assert_eq!(conv3, 921_920);
    let norm = 2 * C;
    // ResnetBlock2D(320 → 320, temb 1280), no conv_shortcut (in == out): norm1 640, conv1
    // 921,920, time_emb_proj Linear(1280, 320) 409,600 + 320, norm2 640, conv2 921,920.
    let resnet = norm + conv3 + (T * C + C) + norm + conv3;
    assert_eq!(resnet, 2_255_040);
    // Transformer2DModel(8 heads of 40, in 320, cross 768, one BasicTransformerBlock):
    // norm GroupNorm 640; proj_in Conv2d(320, 320, 1) 102,400 + 320 = 102,720;
    // attn1: to_q, to_k, to_v Linear(320, 320, bias=False) 3·102,400, to_out[0]
    //   Linear(320, 320) 102,720: 409,920;
    // attn2: to_q 102,400, to_k and to_v Linear(768, 320, bias=False) 2·245,760, to_out[0]
    //   102,720: 696,640;
    // norm1, norm2, norm3 LayerNorm(320) 3·640;
    // ff: GEGLU proj Linear(320, 2560) 819,200 + 2,560 = 821,760, net[2] Linear(1280, 320)
    //   409,600 + 320 = 409,920: 1,231,680;
    // BasicTransformerBlock 409,920 + 696,640 + 1,920 + 1,231,680 = 2,340,160;
    // proj_out Conv2d(320, 320, 1) 102,720.
    let inner = NH * HD;
    assert_eq!(inner, C);
    let attn1 = 3 * C * inner + (inner * C + C);
    assert_eq!(attn1, 409_920);
    let attn2 = C * inner + 2 * E * inner + (inner * C + C);
    assert_eq!(attn2, 696_640);
    let ff = (C * 2 * F + 2 * F) + (F * C + C);
    assert_eq!(ff, 1_231_680);
    let basic = attn1 + attn2 + 3 * norm + ff;
    assert_eq!(basic, 2_340_160);
    let transformer = norm + (C * C + C) + basic + (C * C + C);
    assert_eq!(transformer, 2_546_240);
    // down_blocks[0] = 2 · (resnet + transformer) + Downsample2D's conv = 10,524,480; with
    // conv_in 10,536,320.
    let down_block = 2 * (resnet + transformer) + conv3;
    assert_eq!(down_block, 10_524_480);
    let params = conv_in + down_block;
    assert_eq!(params, 10_536_320);

    // fgraph's weights: every weight tensor is a parameter (no buffers here), f16.
    let weights: Vec<_> = a
        .graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .collect();
    let elements: u64 = weights
        .iter()
        .map(|t| t.shape.iter().product::<u64>())
        .sum();
    assert_eq!(elements, params);
    assert_eq!(weights.iter().map(|t| t.bytes).sum::<u64>(), 2 * params);
    // 4 weights outside the layers, 10 per resnet and 26 per transformer.
    assert_eq!(weights.len(), 4 + 2 * (10 + 26));
}

#[test]
fn the_flops_kernels_and_shapes_check_by_hand() {
    let g = load_with(&Options::default());
    let a = g.analysis.as_ref().expect("analysis");
    // Ops: conv_in and its bias; per layer 15 in the resnet (norm1, SiLU, conv1, bias; SiLU,
    // Linear, bias and the reshape of temb; the add; norm2, SiLU, conv2, bias, residual and
    // the division by output_scale_factor) and 54 in the transformer (5 in, 17 per attention,
    // 10 in the feed-forward, 5 out); the downsample conv and its bias.
    assert_eq!(a.graph.ops.len(), 2 + 2 * (15 + 54) + 2);
    assert_eq!(a.graph.ops.len(), 142);

    // FLOPs as fgraph counts them (docs/cost-model.md §1): a conv 2·(C/groups)·prod(kernel)
    // per output element (its MACs × 2), a matmul 2·K per output element, the attention op
    // (2·D + 2·D_v + 5) per (query, key) pair per head (the two products and the softmax's 5),
    // group norm and layer norm 8 per element, SiLU 4, GELU 8 (the tanh form's count; diffusers
    // runs the exact erf form), add, mul and div 1 per output element; reshape, permute and
    // slice 0. A feature map or token tensor has M = B·C·H·W = 2,621,440 elements.
    let m = B * C * HW;
    assert_eq!(m, 2_621_440);

    // conv_in: 2·4·9 per output element = 188,743,680, its bias M: 191,365,120.
    let conv_in = 2 * 4 * 9 * m + m;
    assert_eq!(conv_in, 191_365_120);
    // Downsample2D: a 3 × 3 stride-2 conv to [2, 320, 32, 32] (655,360 elements), 2·320·9 per
    // output element = 3,774,873,600, and its bias: 3,775,528,960.
    let md = B * C * 32 * 32;
    let down = 2 * C * 9 * md + md;
    assert_eq!(down, 3_775_528_960);

    // ResnetBlock2D: conv1 and conv2, 2·320·9 per output element each: 2·15,099,494,400;
    // two group norms 16·M, two SiLUs 8·M, five adds/divs of M (conv1's bias, + temb,
    // conv2's bias, the residual, / 1.0): 29·M = 76,021,760; the time embedding's SiLU 4·2·1280,
    // Linear 2·2·1280·320, bias 2·320: 1,649,280.
    let conv3 = 2 * C * 9 * m;
    assert_eq!(conv3, 15_099_494_400);
    let temb = 4 * B * T + 2 * B * T * C + B * C;
    assert_eq!(temb, 1_649_280);
    let resnet = 2 * conv3 + 29 * m + temb;
    assert_eq!(resnet, 30_276_659_840);

    // Transformer2DModel. GEMMs (a 1 × 1 conv is one too): proj_in, to_q/to_k/to_v of attn1,
    // to_out of attn1, to_q and to_out of attn2, proj_out, each 2·B·S·320·320 =
    // 1,677,721,600 (8 of them); attn2's to_k and to_v on the text, 2·2·B·77·768·320 =
    // 151,388,160; GEGLU's proj 2·B·S·320·2560 = 13,421,772,800; ff's out 2·B·S·1280·320 =
    // 6,710,886,400. In all 33,705,820,160.
    let sq = 2 * B * S * C * C;
    assert_eq!(sq, 1_677_721_600);
    let gemm = 8 * sq + 2 * 2 * B * L * E * C + 2 * B * S * C * 2 * F + 2 * B * S * F * C;
    assert_eq!(gemm, 33_705_820_160);
    // Attention: (2·40 + 2·40 + 5) = 165 per pair, 2·8 heads; self 4096 × 4096 pairs:
    // 44,291,850,240; cross 4096 × 77 pairs: 832,634,880.
    let self_attn = B * NH * S * S * (4 * HD + 5);
    assert_eq!(self_attn, 44_291_850_240);
    let cross_attn = B * NH * S * L * (4 * HD + 5);
    assert_eq!(cross_attn, 832_634_880);
    // The rest: the group norm and three layer norms 32·M; eleven adds/divs of M (proj_in's
    // bias; each attention's to_out bias, / rescale_output_factor and residual, 6; ff's out
    // bias and residual; proj_out's bias and the block's residual); GEGLU's bias B·S·2560, GELU
    // 8·B·S·1280 and the product B·S·1280: 43·M + 115,343,360 = 228,065,280.
    let ew = 43 * m + B * S * 2 * F + 9 * B * S * F;
    assert_eq!(ew, 228_065_280);
    let transformer = gemm + self_attn + cross_attn + ew;
    assert_eq!(transformer, 79_058_370_560);
    let layer = resnet + transformer;
    assert_eq!(layer, 109_335_030_400);

    let cost = cost(a);
    let summary =
        fgraph::report::summary::summarize(a, &g.instances, Some(&cost)).expect("summary");
    assert_eq!(summary.instances.len(), 3); // 2 layers and the ops outside blocks
    for row in &summary.instances[..2] {
        assert_eq!(row.ops, 69);
        assert_eq!(row.kernels, 27);
        assert_eq!(row.flops, layer, "{}", row.name);
    }
    assert_eq!(summary.instances[2].flops, conv_in + down);
    let total: u64 = cost.fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, conv_in + 2 * layer + down);
    assert_eq!(total, 222_636_954_880);
    // The convolutions and GEMMs alone (2 FLOPs per MAC, biases aside): conv_in 188,743,680,
    // per layer the two 3 × 3 convs, the temb Linear 2·B·1280·320 and the transformer's GEMMs
    // 63,905,628,160, the downsample 3,774,873,600: 131,776,512,000. With the attention's two
    // products (4·D per pair: 42,949,672,960 self, 807,403,520 cross, per layer) that is
    // 219,290,664,960, the figure PyTorch's FLOP counter gives (it counts convs, matmuls and
    // SDPA's two products, nothing elementwise):
    //   from torch.utils.flop_counter import FlopCounterMode
    //   u = UNet2DConditionModel(cross_attention_dim=768).half().cuda().eval()
    //   x, temb, text = (torch.randn(*s, dtype=torch.half, device="cuda")
    //                    for s in ((2, 4, 64, 64), (2, 1280), (2, 77, 768)))
    //   with torch.no_grad(), FlopCounterMode(display=False) as fc:
    //       u.down_blocks[0](u.conv_in(x), temb, text)
    //   fc.get_total_flops()
    // fgraph's total adds the softmax's 5 per pair, the norms, activations, biases and adds.
    let contraction = 2 * 4 * 9 * m + 2 * (2 * conv3 + 2 * B * T * C + gemm) + 2 * C * 9 * md;
    assert_eq!(contraction, 131_776_512_000);
    let sdpa_products = B * NH * S * (S + L) * 4 * HD;
    assert_eq!(sdpa_products, 42_949_672_960 + 807_403_520);
    assert_eq!(contraction + 2 * sdpa_products, 219_290_664_960);
    // Its parts as the counter reported them: the convolutions (conv_in, four 3 × 3, two 1 × 1
    // per layer, the downsample) and the two layers' SDPA.
    let convs = 2 * 4 * 9 * m + 2 * (2 * conv3 + 2 * sq) + 2 * C * 9 * md;
    assert_eq!(convs, 71_072_481_280);
    assert_eq!(2 * sdpa_products, 87_514_152_960);
    let softmax = 5 * B * NH * S * (S + L);
    assert_eq!(
        total,
        contraction
            + 2 * (sdpa_products + softmax)
            + 2 * (29 * m + 4 * B * T + B * C + ew)
            + m
            + md
    );

    // Kernels: 56 = conv_in's + 27 per layer + the downsample's. Why (docs/language.md §11):
    // a conv or matmul starts its kernel and takes its elementwise epilogue (bias, + temb,
    // residual, / 1.0, and the layout ops after it); a norm is a reduction and ends its
    // kernel, so each SiLU after a group norm is its own kernel; a norm after a conv or matmul
    // starts a new one (reduction-after-matmul); a tensor read twice (the residual streams,
    // GEGLU's projection read by both chunks) is materialised. Per layer:
    //   resnet 8: norm1 | SiLU | SiLU(temb) | temb Linear (+ bias, reshape) |
    //     conv1 (+ bias, + temb) | norm2 | SiLU | conv2 (+ bias, residual, / 1.0);
    //   transformer 19: norm | proj_in (+ bias, permute, reshape) | ln1 | q1 | k1 | v1 |
    //     attn1 (+ merging the heads) | to_out (+ bias, / 1.0, residual) | ln2 | q2 | k2 | v2 |
    //     attn2 | to_out | ln3 | GEGLU proj (+ bias) | chunks, GELU, product |
    //     ff out (+ bias, residual, reshape, permute) | proj_out (+ bias, residual).
    assert_eq!(a.plan.groups.len(), 1 + 2 * (8 + 19) + 1);
    assert_eq!(a.plan.groups.len(), 56);
    let k = kernel_of(a, "layers.0.resnet.conv1");
    assert_eq!(
        op_names(a, k),
        [
            "layers.0.resnet.conv1",
            "layers.0.resnet.conv1_bias",
            "layers.0.resnet.add_temb"
        ]
    );
    assert_eq!(cost.fused.kernels[k].flops, conv3 + 2 * m);
    let k = kernel_of(a, "layers.1.resnet.conv2");
    assert_eq!(
        op_names(a, k),
        [
            "layers.1.resnet.conv2",
            "layers.1.resnet.conv2_bias",
            "layers.1.resnet.residual",
            "layers.1.resnet.output_scale"
        ]
    );
    let k = kernel_of(a, "layers.0.attn.attn1");
    assert_eq!(
        op_names(a, k),
        [
            "layers.0.attn.attn1",
            "layers.0.attn.merge1_heads",
            "layers.0.attn.merge1"
        ]
    );
    assert_eq!(cost.fused.kernels[k].flops, self_attn);
    let k = kernel_of(a, "layers.0.attn.attn2");
    assert_eq!(cost.fused.kernels[k].flops, cross_attn);
    let k = kernel_of(a, "layers.0.attn.gelu");
    assert_eq!(
        op_names(a, k),
        [
            "layers.0.attn.ff_hidden",
            "layers.0.attn.ff_gate",
            "layers.0.attn.gelu",
            "layers.0.attn.geglu"
        ]
    );
    assert_eq!(cost.fused.kernels[k].flops, 9 * B * S * F);
    // The group norms are kernels of their own.
    let k = kernel_of(a, "layers.1.attn.norm");
    assert_eq!(op_names(a, k), ["layers.1.attn.norm"]);
    assert_eq!(cost.fused.kernels[k].flops, 8 * m);

    // The outputs: the downsampled [2, 320, 32, 32], and the second layer's skip state
    // [2, 320, 64, 64].
    assert_eq!(shape_of(a, "d"), [2, 320, 32, 32]);
    assert_eq!(shape_of(a, "h"), [2, 320, 64, 64]);
    // The text states' keys and values: [2, 8, 77, 40].
    assert_eq!(shape_of(a, "layers.0.attn.k2"), [2, 8, 77, 40]);
}

#[test]
fn reduction_epilogues_fuse_each_silu_into_its_group_norm() {
    // With `--reduction-epilogue` the SiLU after each resnet's two group norms joins the norm's
    // kernel (as TorchInductor generates it): 4 kernels fewer, the same FLOPs.
    let opts = Options {
        fusion: fgraph::fusion::FusionOptions {
            reduction_epilogue: true,
            ..fgraph::fusion::FusionOptions::default()
        },
        ..Options::default()
    };
    let g = load_with(&opts);
    let a = g.analysis.as_ref().expect("analysis");
    assert_eq!(a.plan.groups.len(), 56 - 4);
    let k = kernel_of(a, "layers.1.resnet.norm2");
    assert_eq!(
        op_names(a, k),
        ["layers.1.resnet.norm2", "layers.1.resnet.act2"]
    );
    let total: u64 = cost(a).fused.kernels.iter().map(|k| k.flops).sum();
    assert_eq!(total, 222_636_954_880);
}
