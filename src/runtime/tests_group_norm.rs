//! Unit tests of Inductor's group norm over a channels-last input whose split straddles
//! channels (`hwmodel::inductor`, VALIDATION.md §40), and of its kernels' start-ups (§49).

use super::tests::run;
use super::*;

/// SD 1.5's resnet conv, its bias and a group norm with its SiLU over `b × 320 × h²`.
fn conv_gn(b: u64, h: u64) -> String {
    format!(
        "graph g {{\n  dtype f16\n  input x: [{b}, 320, {h}, {h}]\n  weight w: [320, 320, 3, 3]\n  weight cb: [1, 320, 1, 1]\n  weight gw: [320]\n  weight gb: [320]\n  op conv = conv(x, w, padding = 1) -> c: [{b}, 320, {h}, {h}]\n  op bias = elementwise.add(c, cb) -> d\n  op gn = reduction.group_norm(d, gw, gb, groups = 32, eps = 1e-5) -> n\n  op act = elementwise.silu(n) -> o\n  output o\n}}\n"
    )
}

fn gn_kernel_s(b: u64, h: u64, runtime: Runtime) -> f64 {
    let (a, e) = run(&conv_gn(b, h), runtime);
    e.kernels
        .iter()
        .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "gn"))
        .map(|k| k.prediction.kernel_s)
        .expect("gn")
}

#[test]
fn a_straddling_split_reads_across_the_channels_under_compile_only() {
    // 2 × 320 × 72²: seven chunks of 7,405.7 elements per group, each across channels:
    // the moments pass at `group_norm_strided` (6.6 MB, a sector an element, at 0.285 TB/s
    // and 3 µs: about 26 µs; gn_probe measured 26.6 µs channels-last, 10.6 contiguous).
    let strided = gn_kernel_s(2, 72, Runtime::Compile);
    // 2 × 320 × 64²: five chunks of two whole channels: the streaming passes (4.9 µs
    // measured).
    let whole = gn_kernel_s(2, 64, Runtime::Compile);
    let bytes = |h: f64| 2.0 * 320.0 * h * h * 2.0;
    // Per byte, the straddling norm costs about three times as much.
    let ratio = (strided / bytes(72.0)) / (whole / bytes(64.0));
    assert!((2.0..5.0).contains(&ratio), "{ratio}");
    assert!((20e-6..40e-6).contains(&strided), "{strided}");
    // PyTorch's own group norm under eager is priced as before, straddling or not.
    let eager = |h: u64| gn_kernel_s(2, h, Runtime::Eager);
    let per_byte = (eager(72) / bytes(72.0)) / (eager(64) / bytes(64.0));
    assert!((0.8..1.25).contains(&per_byte), "{per_byte}");
    // Without the family, the compiled norm streams at either size.
    let mut hw = crate::cost::Hardware::preset("h100").expect("preset");
    if let Some(m) = hw.model.as_mut() {
        m.families.group_norm_strided = None;
    }
    let (a, _) = run(&conv_gn(2, 72), Runtime::Compile);
    let e = estimate(&a, &hw, crate::cost::LaunchMode::Graph, Runtime::Compile).expect("estimate");
    let plain = e
        .kernels
        .iter()
        .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "gn"))
        .map(|k| k.prediction.kernel_s)
        .expect("gn");
    assert!(plain * 1.8 < strided, "{plain} {strided}");

    // Four CUDA kernels where Inductor splits the groups (each of the 64 into seven chunks
    // here), two where it does not (8 × 320 × 16²: 256 groups of 2,560 elements).
    let launches = |b: u64, h: u64| {
        let (a, e) = run(&conv_gn(b, h), Runtime::Compile);
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "gn"))
            .map(|k| k.launches)
            .expect("gn")
    };
    assert_eq!((launches(2, 72), launches(8, 16)), (4, 2));
}

/// `conv_gn` with the residual added before the norm (a second full-size tensor the norm's
/// first kernel reads).
fn conv_add_gn(b: u64, h: u64) -> String {
    conv_gn(b, h)
        .replace(
            "  weight w:",
            &format!("  input r: [{b}, 320, {h}, {h}]\n  weight w:"),
        )
        .replace(
            "op gn = reduction.group_norm(d,",
            "op res = elementwise.add(d, r) -> e\n  op gn = reduction.group_norm(e,",
        )
}

#[test]
fn each_of_inductors_group_norm_kernels_starts_up_and_the_walk_is_over_the_input() {
    // §49: 2 × 320 × 64² splits into four kernels, each priced with the Triton start-up
    // (`elementwise.overhead_us`, 2.75 µs on the H100) before its stream discount: at least
    // three start-ups above the two passes alone.
    let hw = crate::cost::Hardware::preset("h100").expect("preset");
    let start = hw
        .model
        .as_ref()
        .expect("model")
        .families
        .elementwise
        .overhead_us
        * 1e-6;
    let (a, _) = run(&conv_gn(2, 64), Runtime::Compile);
    let gn = |hw: &crate::cost::Hardware| {
        let e = estimate(&a, hw, crate::cost::LaunchMode::Graph, Runtime::Compile).expect("e");
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "gn"))
            .map(|k| (k.launches, k.prediction.memory_s))
            .expect("gn")
    };
    let mut no_start = hw.clone();
    if let Some(m) = no_start.model.as_mut() {
        m.families.elementwise.overhead_us = 0.0;
    }
    let ((launches, with), (_, without)) = (gn(&hw), gn(&no_start));
    assert_eq!(launches, 4);
    // The first kernel's start-up is the passes' own (in `kernel_s`); the other three's.
    assert!(
        (with - without - 3.0 * start).abs() < 1e-12,
        "{with} {without}"
    );
    // The strided moments pass of a straddling split walks the norm's input alone: a
    // residual added before it (read by the same kernel, written just before it) adds its
    // streaming bytes, not a strided walk of its own.
    let with_residual = {
        let (a, e) = run(&conv_add_gn(2, 72), Runtime::Compile);
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "gn"))
            .map(|k| k.prediction.kernel_s)
            .expect("gn")
    };
    let alone = gn_kernel_s(2, 72, Runtime::Compile);
    let input_bytes = 2.0 * 320.0 * 72.0 * 72.0 * 2.0;
    let walk = input_bytes / (hw.bandwidth * 0.085);
    assert!(with_residual > alone, "{with_residual} {alone}");
    assert!(
        with_residual - alone < 0.5 * walk,
        "{with_residual} {alone} {walk}"
    );
}
