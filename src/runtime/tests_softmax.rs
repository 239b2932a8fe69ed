//! Unit tests of Inductor's looped softmax (`seam::looped_softmax`, VALIDATION.md §50): rows
//! of more than 1,024 columns at `families.softmax_looped` (no mask) or
//! `softmax_looped_masked` (a causal mask applied by `masked_fill`), each row moved in blocks
//! of 2,048 columns.

use super::tests::run;
use super::*;

/// The probe's graph: `h` heads of `s × s` f16 scores, scaled and softmaxed.
fn scores(h: u64, s: u64, causal: bool) -> String {
    let causal = if causal { ", causal = true" } else { "" };
    format!(
        "graph g {{\n  input sc: f16[1, {h}, {s}, {s}]\n  op scale = elementwise.mul(sc, 0.125) -> scs\n  op softmax = reduction.softmax(scs, axis = -1{causal}) -> p\n  output p\n}}\n"
    )
}

/// The softmax's kernel: its memory term, and its time alone (before the stream's discount).
fn softmax(h: u64, s: u64, causal: bool, runtime: Runtime) -> (f64, f64) {
    let (a, e) = run(&scores(h, s, causal), runtime);
    let k = e
        .kernels
        .iter()
        .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "softmax"))
        .expect("softmax");
    (k.prediction.memory_s, k.prediction.kernel_s)
}

fn families() -> (
    f64,
    crate::cost::hwmodel::FamilyCoeffs,
    crate::cost::hwmodel::FamilyCoeffs,
) {
    let hw = crate::cost::Hardware::preset("h100").expect("preset");
    let m = hw.model.expect("model");
    (
        hw.bandwidth,
        m.families.softmax_looped.expect("softmax_looped"),
        m.families
            .softmax_looped_masked
            .expect("softmax_looped_masked"),
    )
}

#[test]
fn a_looped_softmax_moves_its_rows_in_blocks_of_2048() {
    let (bw, plain, masked) = families();
    for (s, padded) in [(2048u64, 2048u64), (1536, 2048), (2304, 4096), (4096, 4096)] {
        let bytes = 2.0 * 32.0 * (s * s) as f64 * 2.0;
        let pad = padded as f64 / s as f64;
        let (m, _) = softmax(32, s, true, Runtime::Compile);
        let want = bytes * pad / (bw * masked.bandwidth_efficiency);
        assert!((m / want - 1.0).abs() < 1e-9, "masked {s}: {m} {want}");
        let (m, _) = softmax(32, s, false, Runtime::Compile);
        let want = bytes * pad / (bw * plain.bandwidth_efficiency);
        assert!((m / want - 1.0).abs() < 1e-9, "plain {s}: {m} {want}");
    }
    // The probe's pre-registered shape (smx_probe): 32 × 2,304² masked traced 870 µs, 2.4
    // times the 362 of rows of 2,048; the price follows.
    let (_, long) = softmax(32, 2304, true, Runtime::Compile);
    let (_, short) = softmax(32, 2048, true, Runtime::Compile);
    assert!((2.0..2.5).contains(&(long / short)), "{long} {short}");
}

#[test]
fn the_masked_softmax_runs_slower_than_the_unmasked_one() {
    // Inductor's online softmax under the causal mask: 1.40 TB/s; without a mask 2.40 (the
    // probe: 362 µs against 228 for 32 × 2,048²).
    let (_, masked) = softmax(32, 2048, true, Runtime::Compile);
    let (_, plain) = softmax(32, 2048, false, Runtime::Compile);
    assert!((1.4..1.9).contains(&(masked / plain)), "{masked} {plain}");
    assert!((330e-6..420e-6).contains(&masked), "{masked}");
}

#[test]
fn rows_a_block_holds_and_eager_softmaxes_keep_their_prices() {
    // Rows of 1,024: Inductor's persistent softmax, at the streaming rate.
    let hw = crate::cost::Hardware::preset("h100").expect("preset");
    let e = hw.model.as_ref().expect("model").families.elementwise;
    let (m, _) = softmax(32, 1024, true, Runtime::Compile);
    let want = 2.0 * 32.0 * 1024.0 * 1024.0 * 2.0 / (hw.bandwidth * e.bandwidth_efficiency);
    assert!((m / want - 1.0).abs() < 1e-9, "{m} {want}");
    // PyTorch's own softmax under eager: the `softmax` family, not the looped ones.
    let mut without = hw.clone();
    if let Some(m) = without.model.as_mut() {
        m.families.softmax_looped = None;
        m.families.softmax_looped_masked = None;
    }
    for causal in [false, true] {
        let (a, e) = run(&scores(32, 2304, causal), Runtime::Eager);
        let other = estimate(&a, &without, crate::cost::LaunchMode::Graph, Runtime::Eager)
            .expect("estimate");
        assert_eq!(e.time_s, other.time_s, "causal {causal}");
    }
    // Without the families a compiled looped softmax is priced as PyTorch's again.
    let (a, e) = run(&scores(32, 2304, true), Runtime::Compile);
    let other = estimate(
        &a,
        &without,
        crate::cost::LaunchMode::Graph,
        Runtime::Compile,
    )
    .expect("estimate");
    assert!(
        other.time_s * 1.5 < e.time_s,
        "{} {}",
        other.time_s,
        e.time_s
    );
}

/// A decode's softmax over few long rows (batch × heads rows of the cache's keys): Inductor
/// reduces each row in chunks (`hwmodel::inductor::inner_split`), five Triton kernels, where
/// PyTorch's eager softmax is one (VALIDATION.md §64: Llama-3-8B's compiled decode at 2 ×
/// 16,383). Not below 8,193 columns, nor with rows enough to fill the GPU (2 · 132).
#[test]
fn a_softmax_over_few_long_rows_is_five_compiled_kernels() {
    let launches = |rows: u64, keys: u64, runtime: Runtime| {
        let src = format!(
            "graph g {{\n  input sc: f16[{rows}, 1, {keys}]\n  op softmax = reduction.softmax(sc, axis = -1) -> p\n  output p\n}}\n"
        );
        let (a, e) = run(&src, runtime);
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "softmax"))
            .expect("softmax")
            .launches
    };
    assert_eq!(launches(64, 16384, Runtime::Compile), 5);
    assert_eq!(launches(64, 16384, Runtime::Eager), 1);
    assert_eq!(launches(64, 8192, Runtime::Compile), 1);
    assert_eq!(launches(264, 16384, Runtime::Compile), 1);
}
