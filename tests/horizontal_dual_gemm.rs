//! `--horizontal grouped-gemm` on a SwiGLU MLP (issue 24 item 5): the gate and up projections
//! of one input become ONE kernel, a dual GEMM (`src/fusion/horizontal.rs`), although the
//! gate kernel's SiLU·mul epilogue reads `up`. Before, the two kernels were dependent and
//! never merged; `x` was read twice and `up` went through HBM.
//!
//! Figures, before → after, under `--horizontal grouped-gemm` (the default output, with
//! horizontal fusion off, does not move):
//! - `examples/swiglu_mlp.fgraph` (T 2048, H 4096, F 11008, bf16): 3 → 2 kernels, fused
//!   traffic 501,219,328 → 394,264,576 B. Saved 106,954,752 B = `x` read once less
//!   (2048·4096·2 = 16,777,216) + `up` neither written nor read back (2·2048·11008·2 =
//!   90,177,536).
//! - `examples/llama3_8b.fgraph` (prefill, S 2048, F 14336, 32 layers): 387 → 355 kernels
//!   (one per layer), 67,494,232,064 → 63,199,264,768 B: per layer `xn` once less
//!   (2048·4096·2 = 16,777,216) and `u` not through HBM (2·2048·14336·2 = 117,440,512).
//! - `examples/llama3_8b_decode.fgraph` (batch 1): 387 → 355 kernels, 19,581,970,948 →
//!   19,579,873,796 B: per layer 8,192 B of `xn` and 57,344 B of `u`.
//! - `examples/llama3_8b_w4a16_decode.fgraph` (quant_mm gate/up): 4 → 3 kernels,
//!   91,004,928 → 90,939,392 B.

mod common;

use common::groups;
use fgraph::analysis::{Analysis, Options, check_file};
use fgraph::fusion::Horizontal;

fn analyse_src(path: &str, src: &[u8], h: Horizontal) -> Analysis {
    let mut opts = Options::default();
    opts.fusion.horizontal = h;
    let r = check_file(path, src, &opts);
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        r.diagnostics
    );
    r.graphs[0].analysis.clone().expect("analysis")
}

fn example(name: &str, h: Horizontal) -> Analysis {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("example");
    analyse_src(&path, &bytes, h)
}

/// (kernels, fused traffic in bytes)
fn figures(a: &Analysis) -> (usize, u64) {
    (a.plan.groups.len(), a.traffic.fused.total)
}

#[test]
fn swiglu_gate_and_up_are_one_dual_gemm() {
    let off = example("swiglu_mlp.fgraph", Horizontal::Off);
    assert_eq!(groups(&off), ["up_proj", "gate_proj silu glu", "down_proj"]);
    let a = example("swiglu_mlp.fgraph", Horizontal::GroupedGemm);
    assert_eq!(groups(&a), ["gate_proj up_proj silu glu", "down_proj"]);
    assert_eq!(figures(&off), (3, 501_219_328));
    assert_eq!(figures(&a), (2, 394_264_576));
    let (t, h, f) = (2048u64, 4096u64, 11008u64);
    let x = t * h * 2;
    let up = t * f * 2;
    assert_eq!(off.traffic.fused.total - a.traffic.fused.total, x + 2 * up);
    let m = &a.plan.horizontal[0];
    assert_eq!(m.parts.len(), 2);
    let shared: Vec<&str> = m
        .shared
        .iter()
        .map(|&t| a.graph.tensor(t).name.as_str())
        .collect();
    assert_eq!(shared, ["x"]);
    assert_eq!(m.bytes_saved, x + 2 * up);
    // Pointwise horizontal fusion leaves matmuls alone.
    let p = example("swiglu_mlp.fgraph", Horizontal::Pointwise);
    assert_eq!(figures(&p), figures(&off));
}

#[test]
fn llama_examples_merge_gate_up_once_per_layer_and_keep_qkv() {
    // (file, kernels and bytes before (Q/K/V merged only), after)
    let cases = [
        (
            "llama3_8b.fgraph",
            (387, 67_494_232_064u64),
            (355, 63_199_264_768u64),
            2048u64,
        ),
        (
            "llama3_8b_decode.fgraph",
            (387, 19_581_970_948),
            (355, 19_579_873_796),
            1,
        ),
    ];
    for (file, before, after, rows) in cases {
        let a = example(file, Horizontal::GroupedGemm);
        assert_eq!(figures(&a), after, "{file}");
        // 32 Q/K/V launches as before, and 32 dual GEMMs.
        assert_eq!(a.plan.horizontal.len(), 64, "{file}");
        let per_layer = rows * 4096 * 2 + 2 * rows * 14336 * 2;
        assert_eq!(before.1 - after.1, 32 * per_layer, "{file}");
        assert_eq!(before.0 - after.0, 32, "{file}");
        let g = groups(&a);
        assert!(
            g.contains(
                &"layers.0.mlp.gate layers.0.mlp.up layers.0.mlp.silu layers.0.mlp.swiglu"
                    .to_string()
            ),
            "{file}: {g:?}"
        );
        assert!(
            g.iter()
                .any(|k| k.starts_with("layers.0.q_proj layers.0.k_proj layers.0.v_proj"))
        );
        // The default output does not change.
        let off = example(file, Horizontal::Off);
        assert_eq!(figures(&off).0, 451, "{file}");
    }
    let off = example("llama3_8b_w4a16_decode.fgraph", Horizontal::Off);
    let a = example("llama3_8b_w4a16_decode.fgraph", Horizontal::GroupedGemm);
    assert_eq!(figures(&off), (4, 91_004_928));
    assert_eq!(figures(&a), (3, 90_939_392));
}

#[test]
fn no_dual_gemm_without_an_elementwise_epilogue_or_with_a_path_between() {
    let head = "graph d {\n  dtype f16\n  input x: [64, 128]\n  weight wg: [128, 256]\n  weight wu: [128, 256]\n  weight w2: [256, 256]\n  op gate = matmul(x, wg) -> g\n  op up = matmul(x, wu) -> u\n";
    // A second matmul between up and the epilogue: a path through another kernel.
    let src = format!(
        "{head}  op mix = matmul(u, w2) -> v\n  op act = elementwise.silu(g) -> ga\n  op glu = elementwise.mul(ga, v) -> h\n  output h\n}}\n"
    );
    let a = analyse_src("t.fgraph", src.as_bytes(), Horizontal::GroupedGemm);
    assert!(a.plan.horizontal.is_empty(), "{:?}", groups(&a));
    // Different first operands: no shared read, no merge.
    let src = "graph e {\n  dtype f16\n  input x: [64, 128]\n  input y: [64, 128]\n  weight wg: [128, 256]\n  weight wu: [128, 256]\n  op gate = matmul(x, wg) -> g\n  op up = matmul(y, wu) -> u\n  op act = elementwise.silu(g) -> ga\n  op glu = elementwise.mul(ga, u) -> h\n  output h\n}\n";
    let a = analyse_src("t.fgraph", src.as_bytes(), Horizontal::GroupedGemm);
    assert!(a.plan.horizontal.is_empty(), "{:?}", groups(&a));
    // Different output widths: the epilogue could not read `up` where it writes.
    let src = "graph f {\n  dtype f16\n  input x: [64, 128]\n  weight wg: [128, 256]\n  weight wu: [128, 1]\n  op gate = matmul(x, wg) -> g\n  op up = matmul(x, wu) -> u\n  op glu = elementwise.mul(g, u) -> h\n  output h\n}\n";
    let a = analyse_src("t.fgraph", src.as_bytes(), Horizontal::GroupedGemm);
    assert!(a.plan.horizontal.is_empty(), "{:?}", groups(&a));
    // up also an output: merged, but still written.
    let src = format!(
        "{head}  op act = elementwise.silu(g) -> ga\n  op glu = elementwise.mul(ga, u) -> h\n  output h, u\n}}\n"
    );
    let a = analyse_src("t.fgraph", src.as_bytes(), Horizontal::GroupedGemm);
    assert_eq!(groups(&a), ["gate up act glu"]);
    assert_eq!(
        a.plan.horizontal[0].bytes_saved,
        64 * 128 * 2 + 64 * 256 * 2
    );
}
