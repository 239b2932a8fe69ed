//! `conv` (issue 23 item 1): shapes by PyTorch's output-size formula over 1, 2 and 3 spatial
//! dims, FLOPs and bytes worked out by hand, the errors, fusion as a contraction with an
//! elementwise epilogue, and the hardware model's `conv` family.

use fgraph::cost::{FlopSource, op_flops};
use fgraph::{Analysis, Code, Options, check_file};

fn analysis(src: &str) -> Analysis {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(
        report.diagnostics.is_empty(),
        "{src}\n{:?}",
        report.diagnostics
    );
    report.graphs[0].analysis.clone().expect("analysis")
}

/// (code, message) of every diagnostic.
fn diags(src: &str) -> Vec<(Code, String)> {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

fn shape_of(a: &Analysis, name: &str) -> Vec<u64> {
    let t = a
        .graph
        .tensors
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tensor {name}"));
    t.shape.to_vec()
}

fn graph(body: &str) -> String {
    format!("graph g {{\n  dtype f16\n{body}\n}}\n")
}

/// The output shape of one conv of input `x` and weight `w` with `attrs`.
fn conv_shape(x: &str, w: &str, attrs: &str) -> Vec<u64> {
    let sep = if attrs.is_empty() { "" } else { ", " };
    let a = analysis(&graph(&format!(
        "  input x: {x}\n  weight w: {w}\n  op c = conv(x, w{sep}{attrs}) -> y\n  output y"
    )));
    shape_of(&a, "y")
}

fn groups(a: &Analysis) -> Vec<Vec<String>> {
    a.plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops
                .iter()
                .map(|&o| a.graph.op(o).name.to_string())
                .collect()
        })
        .collect()
}

// ---- shapes --------------------------------------------------------------------------------

#[test]
fn resnet50_stem_halves_224_to_112() {
    assert_eq!(
        conv_shape(
            "[32, 3, 224, 224]",
            "[64, 3, 7, 7]",
            "stride = 2, padding = 3"
        ),
        [32, 64, 112, 112]
    );
    // The same in channels-last: the shapes stay in logical NCHW order.
    assert_eq!(
        conv_shape(
            "[32, 3, 224, 224]",
            "[64, 3, 7, 7]",
            "stride = 2, padding = 3, channels_last = true"
        ),
        [32, 64, 112, 112]
    );
    // Defaults: stride 1, padding 0, dilation 1: 224 - 7 + 1.
    assert_eq!(
        conv_shape("[1, 3, 224, 224]", "[64, 3, 7, 7]", ""),
        [1, 64, 218, 218]
    );
}

#[test]
fn stride_padding_and_dilation_lists_are_per_dim() {
    // H: floor((30 + 2·1 - 2·(3-1) - 1) / 1) + 1 = 28; W: floor((40 + 0 - 1·(5-1) - 1) / 3) + 1 = 12.
    assert_eq!(
        conv_shape(
            "[2, 8, 30, 40]",
            "[16, 8, 3, 5]",
            "stride = [1, 3], padding = [1, 0], dilation = [2, 1]"
        ),
        [2, 16, 28, 12]
    );
    // A single value applies to every spatial dim; a declared shape that agrees is accepted.
    let a = analysis(&graph(
        "  input x: [1, 4, 9, 9]\n  weight w: [4, 4, 3, 3]\n  op c = conv(x, w, stride = 2, dilation = 2) -> y: [1, 4, 3, 3]\n  output y",
    ));
    assert_eq!(shape_of(&a, "y"), [1, 4, 3, 3]);
}

#[test]
fn grouped_and_depthwise_convs() {
    // ResNeXt: 32 groups of 4 channels.
    assert_eq!(
        conv_shape(
            "[8, 128, 56, 56]",
            "[128, 4, 3, 3]",
            "padding = 1, groups = 32"
        ),
        [8, 128, 56, 56]
    );
    // ConvNeXt's 7×7 depthwise conv: groups = C, one input channel per filter.
    assert_eq!(
        conv_shape(
            "[128, 96, 56, 56]",
            "[96, 1, 7, 7]",
            "padding = 3, groups = 96"
        ),
        [128, 96, 56, 56]
    );
    // A depthwise conv with a channel multiplier: K = 2·C.
    assert_eq!(
        conv_shape("[1, 8, 10, 10]", "[16, 1, 3, 3]", "groups = 8"),
        [1, 16, 8, 8]
    );
}

#[test]
fn conv1d_whisper_and_mamba() {
    // Whisper's stem: 80 → 384 k3 p1 keeps 3000 frames; 384 → 384 k3 s2 p1 halves them.
    assert_eq!(
        conv_shape("[1, 80, 3000]", "[384, 80, 3]", "padding = 1"),
        [1, 384, 3000]
    );
    assert_eq!(
        conv_shape("[1, 384, 3000]", "[384, 384, 3]", "stride = 2, padding = 1"),
        [1, 384, 1500]
    );
    // Mamba's causal depthwise conv: padding 3 on both sides gives L + 3 columns.
    assert_eq!(
        conv_shape(
            "[4, 1536, 1024]",
            "[1536, 1, 4]",
            "padding = 3, groups = 1536"
        ),
        [4, 1536, 1027]
    );
}

#[test]
fn conv3d() {
    assert_eq!(
        conv_shape(
            "[2, 320, 8, 32, 32]",
            "[320, 320, 3, 3, 3]",
            "padding = 1, channels_last = true"
        ),
        [2, 320, 8, 32, 32]
    );
    // Per-dim lists in 3-D: a temporal stride of 1, spatial 2.
    assert_eq!(
        conv_shape(
            "[8, 64, 16, 56, 56]",
            "[128, 64, 3, 3, 3]",
            "stride = [1, 2, 2], padding = [1, 1, 1]"
        ),
        [8, 128, 16, 28, 28]
    );
}

// ---- FLOPs and bytes -------------------------------------------------------------------------

/// A ResNet-50 bottleneck (conv2_x, batch 32, f16, channels-last): 1×1 256→64, 3×3 64→64,
/// 1×1 64→256 at 56×56, each with a bias and a ReLU, plus the residual add.
const BOTTLENECK: &str = "graph bottleneck {
  dtype f16
  input x: [32, 256, 56, 56]
  weight w1: [64, 256, 1, 1]
  weight b1: [64, 1, 1]
  weight w2: [64, 64, 3, 3]
  weight b2: [64, 1, 1]
  weight w3: [256, 64, 1, 1]
  weight b3: [256, 1, 1]
  op c1 = conv(x, w1, channels_last = true) -> y1
  op a1 = elementwise.add(y1, b1) -> z1
  op r1 = elementwise.relu(z1) -> h1
  op c2 = conv(h1, w2, padding = 1, channels_last = true) -> y2
  op a2 = elementwise.add(y2, b2) -> z2
  op r2 = elementwise.relu(z2) -> h2
  op c3 = conv(h2, w3, channels_last = true) -> y3
  op a3 = elementwise.add(y3, b3) -> z3
  op res = elementwise.add(z3, x) -> s
  op r3 = elementwise.relu(s) -> out
  output out
}
";

#[test]
fn bottleneck_flops_by_hand() {
    let a = analysis(BOTTLENECK);
    let flops = |name: &str| {
        let o = a
            .graph
            .ops
            .iter()
            .position(|op| op.name == name)
            .expect("op");
        op_flops(&a.graph, fgraph::OpId(o as u32))
    };
    // 2 · N · K · H · W · C/g · kh · kw, with N·H·W = 32·56·56 = 100,352 output pixels.
    let pixels: u64 = 32 * 56 * 56;
    assert_eq!(flops("c1"), (2 * pixels * 64 * 256, FlopSource::Conv));
    assert_eq!(flops("c2"), (2 * pixels * 64 * 64 * 9, FlopSource::Conv));
    assert_eq!(flops("c3"), (2 * pixels * 256 * 64, FlopSource::Conv));
    // 3,288,334,336 + 7,398,752,256 + 3,288,334,336 (cases.json's figures for these shapes).
    assert_eq!(flops("c1").0, 3_288_334_336);
    assert_eq!(flops("c2").0, 7_398_752_256);
    let convs = flops("c1").0 + flops("c2").0 + flops("c3").0;
    assert_eq!(convs, 13_975_420_928);
    // The epilogues: one FLOP per output element each (add, relu, add, add, relu, relu).
    let small: u64 = pixels * 64;
    let big: u64 = pixels * 256;
    let expected = convs + 4 * small + 3 * big;
    let total: u64 = (0..a.graph.ops.len())
        .map(|o| op_flops(&a.graph, fgraph::OpId(o as u32)).0)
        .sum();
    assert_eq!(total, expected);
}

#[test]
fn bytes_are_input_weight_and_output_once() {
    // The stem in f16: x 32·3·224·224·2 = 9,633,792 B, w 64·3·7·7·2 = 18,816 B,
    // y 32·64·112·112·2 = 51,380,224 B: cases.json's read 9,652,608 and write 51,380,224.
    let a = analysis(&graph(
        "  input x: [32, 3, 224, 224]\n  weight w: [64, 3, 7, 7]\n  op c = conv(x, w, stride = 2, padding = 3) -> y\n  output y",
    ));
    assert_eq!(
        (a.traffic.fused.bytes_read, a.traffic.fused.bytes_written),
        (9_652_608, 51_380_224)
    );
    // A depthwise conv reads its small weight once too: 96·1·7·7·2 = 9,408 B.
    let a = analysis(&graph(
        "  input x: [128, 96, 56, 56]\n  weight w: [96, 1, 7, 7]\n  op c = conv(x, w, padding = 3, groups = 96) -> y\n  output y",
    ));
    assert_eq!(
        (a.traffic.fused.bytes_read, a.traffic.fused.bytes_written),
        (77_070_336 + 9_408, 77_070_336)
    );
}

// ---- fusion ----------------------------------------------------------------------------------

#[test]
fn conv_bias_relu_is_one_kernel_and_convs_start_kernels() {
    let src = graph(
        "  input x: [8, 64, 28, 28]\n  weight w: [64, 64, 3, 3]\n  weight b: [64, 1, 1]\n  op c = conv(x, w, padding = 1) -> y\n  op bias = elementwise.add(y, b) -> z\n  op r = elementwise.relu(z) -> o\n  output o",
    );
    let a = analysis(&src);
    assert_eq!(groups(&a), [["c", "bias", "r"]]);
    // Reads x, w and b once, writes o once: the conv's output stays on chip.
    let x = 8 * 64 * 28 * 28 * 2;
    assert_eq!(
        (a.traffic.fused.bytes_read, a.traffic.fused.bytes_written),
        (x + 64 * 64 * 9 * 2 + 64 * 2, x)
    );
    // The bottleneck: each conv starts a kernel (rule 1) and takes its epilogue; the residual
    // add and the last ReLU join the third conv's kernel.
    let a = analysis(BOTTLENECK);
    assert_eq!(
        groups(&a),
        [
            vec!["c1", "a1", "r1"],
            vec!["c2", "a2", "r2"],
            vec!["c3", "a3", "res", "r3"]
        ]
    );
    // An op before a conv does not join its kernel (no prologue, as for a matmul).
    let a = analysis(&graph(
        "  input x: [1, 4, 8, 8]\n  weight w: [4, 4, 3, 3]\n  op e = elementwise.relu(x) -> h\n  op c = conv(h, w) -> y\n  output y",
    ));
    assert_eq!(groups(&a), [vec!["e"], vec!["c"]]);
}

// ---- errors ----------------------------------------------------------------------------------

fn conv_errors(x: &str, w: &str, attrs: &str) -> Vec<(Code, String)> {
    let sep = if attrs.is_empty() { "" } else { ", " };
    diags(&graph(&format!(
        "  input x: {x}\n  weight w: {w}\n  op c = conv(x, w{sep}{attrs}) -> y\n  output y"
    )))
}

#[track_caller]
fn one_error(d: Vec<(Code, String)>, code: Code, needle: &str) {
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, code, "{d:?}");
    assert!(d[0].1.contains(needle), "{d:?}");
}

#[test]
fn wrong_channels_is_a_shape_mismatch() {
    one_error(
        conv_errors("[1, 3, 32, 32]", "[8, 4, 3, 3]", ""),
        Code::ShapeMismatch,
        "takes 4 input channels, but `x` [1, 3, 32, 32] gives 3",
    );
    // With groups: the weight's dim 1 is C / groups.
    one_error(
        conv_errors("[1, 8, 32, 32]", "[8, 8, 3, 3]", "groups = 2"),
        Code::ShapeMismatch,
        "takes 8 input channels, but `x` [1, 8, 32, 32] gives 4",
    );
    // Ranks: a weight without the kernel dims, an input without spatial dims or too many.
    one_error(
        conv_errors("[1, 3, 32, 32]", "[8, 3]", ""),
        Code::ShapeMismatch,
        "has rank 2, the input `x` [1, 3, 32, 32] rank 4",
    );
    one_error(
        conv_errors("[3, 32]", "[8, 3]", ""),
        Code::ShapeMismatch,
        "has rank 2: a conv takes",
    );
    one_error(
        conv_errors("[1, 1, 2, 2, 2, 2]", "[1, 1, 1, 1, 1, 1]", ""),
        Code::ShapeMismatch,
        "has rank 6",
    );
}

#[test]
fn groups_must_divide_the_channels() {
    one_error(
        conv_errors("[1, 6, 8, 8]", "[8, 1, 3, 3]", "groups = 4"),
        Code::BadAttribute,
        "`groups = 4` does not divide the 6 input channels",
    );
    one_error(
        conv_errors("[1, 8, 8, 8]", "[6, 2, 3, 3]", "groups = 4"),
        Code::BadAttribute,
        "`groups = 4` does not divide the 6 output channels",
    );
    one_error(
        conv_errors("[1, 8, 8, 8]", "[8, 2, 3, 3]", "groups = 0"),
        Code::BadAttribute,
        "`groups` of `conv` must be at least 1, found 0",
    );
}

#[test]
fn attribute_lists_and_values_are_checked() {
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "stride = [1, 2, 2]"),
        Code::BadAttribute,
        "`stride` of `conv` lists 3 values for 2 spatial dims",
    );
    one_error(
        conv_errors("[1, 3, 8]", "[4, 3, 3]", "padding = [1, 1]"),
        Code::BadAttribute,
        "lists 2 values for 1 spatial dim",
    );
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "padding = -1"),
        Code::BadAttribute,
        "`padding` of `conv` must be at least 0, found -1",
    );
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "stride = [1, 0]"),
        Code::BadAttribute,
        "`stride` of `conv` must be at least 1, found 0",
    );
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "dilation = 1.5"),
        Code::BadAttribute,
        "`dilation` of `conv` must be an integer or a list",
    );
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "channels_last = 2"),
        Code::BadAttribute,
        "`channels_last` of `conv` must be `true` or `false`, found 2",
    );
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "stride = true"),
        Code::BadAttribute,
        "must be an integer, found `true`",
    );
    one_error(
        conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "layout = 1"),
        Code::BadAttribute,
        "`conv` takes no attribute `layout`",
    );
    // Two bad attributes: both are reported.
    let d = conv_errors("[1, 3, 8, 8]", "[4, 3, 3, 3]", "stride = 0, padding = [1]");
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d.iter().all(|(c, _)| *c == Code::BadAttribute), "{d:?}");
}

#[test]
fn an_output_below_one_is_a_shape_mismatch() {
    one_error(
        conv_errors("[1, 3, 5, 9]", "[4, 3, 7, 7]", ""),
        Code::ShapeMismatch,
        "would have no element along spatial dim 0: the kernel 7 is larger than the input 5 \
         with padding 0",
    );
    // Every spatial dim is checked: two without an output element are two errors.
    let d = conv_errors("[1, 3, 5, 5]", "[4, 3, 7, 7]", "");
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[1].1.contains("spatial dim 1"), "{d:?}");
    // Dilation widens the kernel: 3 taps 3 apart span 7.
    one_error(
        conv_errors("[1, 3, 6, 6]", "[4, 3, 3, 3]", "dilation = [1, 3]"),
        Code::ShapeMismatch,
        "spatial dim 1: the kernel 3 (dilated 3: it spans 7)",
    );
    // Padding makes it fit: 5 + 2 ≥ 7.
    assert_eq!(
        conv_shape("[1, 3, 5, 5]", "[4, 3, 7, 7]", "padding = 1"),
        [1, 4, 1, 1]
    );
    // A declared shape that disagrees with the formula.
    let d = diags(&graph(
        "  input x: [1, 3, 224, 224]\n  weight w: [64, 3, 7, 7]\n  op c = conv(x, w, stride = 2, padding = 3) -> y: [1, 64, 224, 224]\n  output y",
    ));
    one_error(
        d,
        Code::ShapeMismatch,
        "the inferred shape [1, 64, 112, 112]",
    );
}

#[test]
fn hostile_sizes_are_limits_not_panics() {
    // A padding near 2^63 makes an output dim past 2^48 (and past 2^64 before the stride).
    let d = conv_errors("[1, 1, 8]", "[1, 1, 1]", "padding = 9223372036854775807");
    assert!(d.iter().all(|(c, _)| *c == Code::LimitExceeded), "{d:?}");
    assert_eq!(d.len(), 1, "{d:?}");
    let d = conv_errors("[1, 1, 8]", "[1, 1, 1]", "padding = 281474976710656");
    one_error(d, Code::LimitExceeded, "above the limit");
    // Huge dilation: the kernel's reach passes 2^64 in 64-bit arithmetic.
    one_error(
        conv_errors("[1, 1, 8]", "[1, 1, 3]", "dilation = 9223372036854775807"),
        Code::ShapeMismatch,
        "would have no element",
    );
    // FLOPs that do not fit 64 bits: 2^47 output pixels times a 2^20-element kernel.
    let d = diags(
        "graph g {\n  dtype f16\n  input x: [1, 1, 140737488355328]\n  weight w: [1, 1, 1048576]\n  op c = conv(x, w, padding = 524288) -> y\n  output y\n}\n",
    );
    assert!(
        d.iter()
            .any(|(c, _)| matches!(c, Code::SizeOverflow | Code::LimitExceeded)),
        "{d:?}"
    );
}

#[test]
fn fmt_keeps_a_conv_as_written() {
    let src = "graph g {\n  dtype f16\n  input x: [1, 3, 8, 8]\n  weight w: [4, 3, 3, 3]\n  op c = conv(x, w, stride = [1, 2], padding = 1, channels_last = true) -> y\n  output y\n}\n";
    let out = fgraph::format::format_source(src).expect("formats");
    assert_eq!(out, src);
}

// ---- the hardware model ------------------------------------------------------------------------

/// The hardware model's prediction for the one kernel of `src`: (DRAM reads, kernel µs).
fn hardware(src: &str) -> (u64, f64) {
    let a = analysis(src);
    let hw = fgraph::Hardware::preset("h100").expect("h100");
    let mut c = fgraph::cost::estimate(&a, &hw, fgraph::LaunchMode::Graph).expect("cost");
    fgraph::cost::with_hardware_model(&mut c, &a).expect("calibrated");
    let m = c.hardware_model.expect("model");
    assert_eq!(m.kernels.len(), 1);
    (m.kernels[0].dram_read, m.kernels[0].kernel_s * 1e6)
}

fn one_conv(x: &str, w: &str, attrs: &str) -> String {
    graph(&format!(
        "  input x: {x}\n  weight w: {w}\n  op c = conv(x, w, {attrs}) -> y\n  output y"
    ))
}

#[test]
fn nchw_half_precision_reads_its_copies_again() {
    // ResNet-50's 3×3 conv at 56×56 (f16): x = y = 12,845,056 B, w = 73,728 B. Channels-last
    // reads x + w once; NCHW transposes x and w to NHWC (read, then read again by the GEMM)
    // and the output back: 2x + 2w + y.
    let (x, w) = (12_845_056u64, 73_728u64);
    let (cl, cl_t) = hardware(&one_conv(
        "[32, 64, 56, 56]",
        "[64, 64, 3, 3]",
        "padding = 1, channels_last = true",
    ));
    let (nchw, nchw_t) = hardware(&one_conv(
        "[32, 64, 56, 56]",
        "[64, 64, 3, 3]",
        "padding = 1",
    ));
    assert_eq!(cl, x + w);
    assert_eq!(nchw, 2 * x + 2 * w + x);
    assert!(nchw_t > cl_t * 1.5, "{nchw_t} vs {cl_t}");
    // A 1×1 conv is one GEMM in either layout when its pixels are 16-byte aligned.
    let (a, at) = hardware(&one_conv(
        "[32, 256, 56, 56]",
        "[64, 256, 1, 1]",
        "groups = 1",
    ));
    let (b, bt) = hardware(&one_conv(
        "[32, 256, 56, 56]",
        "[64, 256, 1, 1]",
        "channels_last = true",
    ));
    assert_eq!((a, at), (b, bt));
    // Depthwise: one kernel at the compulsory bytes, ~5× slower in NCHW.
    let dw = |cl: &str| {
        hardware(&one_conv(
            "[128, 96, 56, 56]",
            "[96, 1, 7, 7]",
            &format!("padding = 3, groups = 96{cl}"),
        ))
    };
    let ((r1, t1), (r2, t2)) = (dw(""), dw(", channels_last = true"));
    assert_eq!(r1, 77_070_336 + 9_408);
    assert_eq!(r2, r1);
    assert!(t1 > 4.0 * t2, "{t1} vs {t2}");
}

/// Every conv case of the fit half of validation/gpu/h100-calib-h, written as a one-op file:
/// the hardware model's reads within 30% and time within 35% of the measurement (the
/// per-kernel figures are fit_conv.py's table; this keeps fgraph and the fit in step).
#[test]
fn the_fit_half_is_within_its_fitted_accuracy() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("validation/gpu/h100-calib-h");
    let cases: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).expect("cases"))
            .expect("json");
    let csv = std::fs::read_to_string(dir.join("fit/measured_fit.csv")).expect("measured");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (case_c, read_c, time_c) = (col("case"), col("dram_read"), col("gpu_time_ns"));
    let measured: std::collections::HashMap<String, (f64, f64)> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|f| {
            (
                f[case_c].to_string(),
                (
                    f[read_c].parse().expect("reads"),
                    f[time_c].parse::<f64>().expect("time") / 1e3,
                ),
            )
        })
        .collect();
    let list = |v: &serde_json::Value| -> String {
        let items: Vec<String> = v
            .as_array()
            .expect("list")
            .iter()
            .map(|d| d.to_string())
            .collect();
        format!("[{}]", items.join(", "))
    };
    let mut n = 0;
    for c in cases.as_array().expect("cases") {
        let family = c["family"].as_str().expect("family");
        if c["part"] != "fit" || !family.starts_with("conv") {
            continue;
        }
        let p = &c["params"];
        let cl = if c["layout"] == "channels_last" {
            ", channels_last = true"
        } else {
            ""
        };
        let src = format!(
            "graph g {{\n  dtype {}\n  input x: {}\n  weight w: {}\n  op c = conv(x, w, stride = {}, padding = {}, dilation = {}, groups = {}{cl}) -> y: {}\n  output y\n}}\n",
            c["dtype"].as_str().expect("dtype"),
            list(&c["shapes"]["x"]),
            list(&c["shapes"]["w"]),
            list(&p["stride"]),
            list(&p["padding"]),
            list(&p["dilation"]),
            p["groups"],
            list(&c["shapes"]["y"]),
        );
        let (reads, us) = hardware(&src);
        let name = c["case"].as_str().expect("case");
        let (m_reads, m_us) = measured[name];
        let (er, et) = (reads as f64 / m_reads - 1.0, us / m_us - 1.0);
        assert!(er.abs() < 0.30, "{name}: reads {reads} vs {m_reads}");
        assert!(et.abs() < 0.35, "{name}: {us:.1} µs vs {m_us:.1}");
        n += 1;
    }
    assert_eq!(n, 34);
}

#[test]
fn explain_names_a_conv_kernel() {
    let dir = std::env::temp_dir().join(format!("fgraph-conv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("c.fgraph");
    std::fs::write(
        &path,
        graph(
            "  input x: [1, 4, 8, 8]\n  weight w: [4, 4, 3, 3]\n  weight b: [4, 1, 1]\n  op c = conv(x, w, padding = 1) -> y\n  op bias = elementwise.add(y, b) -> z\n  output z",
        ),
    )
    .expect("write");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(["analyze", "--explain", "bias"])
        .arg(&path)
        .output()
        .expect("run");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("(conv with epilogue, 2 ops)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--flash-attention` looks for Q·Kᵀ and P·V matmuls: a convolution before a softmax is not
/// a score matmul, so a conv → softmax → matmul chain is no FlashAttention kernel.
#[test]
fn a_conv_before_a_softmax_is_not_attention() {
    let src = graph(
        "  input x: [1, 4, 4, 4]\n  weight w: [8, 4, 1, 1]\n  weight v: [4, 4]\n  \
         op c = conv(x, w) -> s\n  \
         op sm = reduction.softmax(s, axis = -1) -> p\n  \
         op pv = matmul(p, v) -> o\n  output o\n",
    );
    let mut opts = Options::default();
    opts.fusion.flash_attention = true;
    let report = check_file("t.fgraph", src.as_bytes(), &opts);
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    assert!((0..a.plan.groups.len()).all(|k| a.plan.flash_kernel(k).is_none()));
}
