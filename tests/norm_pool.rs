//! Normalisation and pooling (issue 23 item 2): group norm, max and average pooling (windowed
//! and global), layernorm/rmsnorm over several trailing dims, batch norm in inference form.
//! Shapes, errors, FLOPs and bytes worked out by hand, fusion, and the hardware model.

use fgraph::cost::{FlopSource, Hardware, hwmodel, op_flops};
use fgraph::{Analysis, Code, OpId, Options, check_file};

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

fn graph(body: &str) -> String {
    format!("graph g {{\n{body}\n}}\n")
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

fn group_bytes(a: &Analysis) -> Vec<(u64, u64)> {
    a.traffic
        .groups
        .iter()
        .map(|g| (g.bytes_read, g.bytes_written))
        .collect()
}

/// The single error of `body`, which must have exactly one.
fn one_error(body: &str) -> (Code, String) {
    let d = diags(&graph(body));
    assert_eq!(d.len(), 1, "{body}\n{d:?}");
    d.into_iter().next().expect("one")
}

#[test]
fn the_resnet_stem_max_pool_takes_112_to_56() {
    // ResNet-50's stem: conv 7×7/2 to [32, 64, 112, 112], then max pool 3×3/2, padding 1:
    // floor((112 + 2 - 3) / 2) + 1 = 56.
    let a = analysis(&graph(
        "  input x: f16[32, 64, 112, 112]\n  op pool = max_pool(x, kernel = 3, stride = 2, padding = 1) -> y",
    ));
    assert_eq!(shape_of(&a, "y"), [32, 64, 56, 56]);
    // 9 FLOPs (one per window element) per output element.
    let out = 32 * 64 * 56 * 56;
    assert_eq!(op_flops(&a.graph, OpId(0)), (9 * out, FlopSource::Pool));
    // Reads the input once, writes the output once (f16).
    assert_eq!(group_bytes(&a), [(32 * 64 * 112 * 112 * 2, out * 2)]);
    // Channels-last changes neither the shape nor the counts.
    let b = analysis(&graph(
        "  input x: f16[32, 64, 112, 112]\n  op pool = max_pool(x, kernel = [3, 3], stride = [2, 2], padding = [1, 1], channels_last = true) -> y: [32, 64, 56, 56]",
    ));
    assert_eq!(op_flops(&b.graph, OpId(0)).0, 9 * out);
    assert_eq!(group_bytes(&b), group_bytes(&a));
}

#[test]
fn windowed_pools_over_one_two_and_three_spatial_dims() {
    // 1-D: (100 - 4) / 4 + 1 = 25; stride defaults to the kernel.
    let a = analysis(&graph(
        "  input x: [2, 8, 100]\n  op p = avg_pool(x, kernel = 4) -> y",
    ));
    assert_eq!(shape_of(&a, "y"), [2, 8, 25]);
    assert_eq!(op_flops(&a.graph, OpId(0)).0, 4 * 2 * 8 * 25);
    // 2-D with a rectangular window: H (7 + 2 - 3) / 1 + 1 = 7, W (9 - 2) / 2 + 1 = 4.
    let b = analysis(&graph(
        "  input x: [1, 3, 7, 9]\n  op p = max_pool(x, kernel = [3, 2], stride = [1, 2], padding = [1, 0]) -> y",
    ));
    assert_eq!(shape_of(&b, "y"), [1, 3, 7, 4]);
    assert_eq!(op_flops(&b.graph, OpId(0)).0, 6 * 3 * 7 * 4);
    // 3-D: 2×2×2 of [2, 4, 8, 16, 16] halves each spatial dim.
    let c = analysis(&graph(
        "  input x: [2, 4, 8, 16, 16]\n  op p = avg_pool(x, kernel = 2) -> y",
    ));
    assert_eq!(shape_of(&c, "y"), [2, 4, 4, 8, 8]);
    assert_eq!(op_flops(&c.graph, OpId(0)).0, 8 * 2 * 4 * 4 * 8 * 8);
    // Floor, not ceil: (10 - 3) / 2 + 1 = 4 (ceil mode would give 5).
    let d = analysis(&graph(
        "  input x: [1, 1, 10, 10]\n  op p = max_pool(x, kernel = 3, stride = 2) -> y",
    ));
    assert_eq!(shape_of(&d, "y"), [1, 1, 4, 4]);
}

#[test]
fn global_pools_keep_n_and_c() {
    // ResNet-50's head: [32, 2048, 7, 7] to [32, 2048, 1, 1], one FLOP per input element.
    let a = analysis(&graph(
        "  input x: f16[32, 2048, 7, 7]\n  op p = global_avg_pool(x) -> y\n  op q = global_max_pool(x, channels_last = true) -> z",
    ));
    assert_eq!(shape_of(&a, "y"), [32, 2048, 1, 1]);
    assert_eq!(shape_of(&a, "z"), [32, 2048, 1, 1]);
    let input = 32 * 2048 * 49;
    assert_eq!(op_flops(&a.graph, OpId(0)), (input, FlopSource::Pool));
    assert_eq!(op_flops(&a.graph, OpId(1)).0, input);
    assert_eq!(
        group_bytes(&a),
        [(input * 2, 32 * 2048 * 2), (input * 2, 32 * 2048 * 2)]
    );
    // 1-D and 3-D.
    let b = analysis(&graph(
        "  input x: [2, 8, 100]\n  input v: [2, 8, 4, 5, 6]\n  op p = global_avg_pool(x) -> y\n  op q = global_avg_pool(v) -> w",
    ));
    assert_eq!(shape_of(&b, "y"), [2, 8, 1]);
    assert_eq!(shape_of(&b, "w"), [2, 8, 1, 1, 1]);
    // The same numbers as `reduction.mean` over the spatial axes.
    let c = analysis(&graph(
        "  input x: f16[32, 2048, 7, 7]\n  op p = reduction.mean(x, axis = [2, 3], keepdim = true) -> y",
    ));
    assert_eq!(shape_of(&c, "y"), [32, 2048, 1, 1]);
    assert_eq!(op_flops(&c.graph, OpId(0)).0, input);
    assert_eq!(group_bytes(&c)[0], group_bytes(&a)[0]);
}

#[test]
fn pool_errors_say_what_is_wrong() {
    let x = "  input x: [32, 64, 112, 112]\n";
    let cases: &[(&str, Code, &str)] = &[
        (
            "op p = max_pool(x, kernel = [3, 3, 3]) -> y",
            Code::BadAttribute,
            "lists 3 values for 2 spatial dims",
        ),
        (
            "op p = max_pool(x, kernel = 3, padding = 2) -> y",
            Code::BadAttribute,
            "more than half the window 3",
        ),
        (
            "op p = avg_pool(x) -> y",
            Code::BadAttribute,
            "needs the attribute `kernel`",
        ),
        (
            "op p = max_pool(x, kernel = 200) -> y",
            Code::BadAttribute,
            "larger than axis 2",
        ),
        (
            "op p = max_pool(x, kernel = 3, stride = 0) -> y",
            Code::BadAttribute,
            "`stride` of `max_pool` must be at least 1, found 0",
        ),
        (
            "op p = max_pool(x, kernel = 3, channels_last = 2) -> y",
            Code::BadAttribute,
            "must be `true` or `false`",
        ),
        (
            "op p = max_pool(x, kernel = true) -> y",
            Code::BadAttribute,
            "must be an integer, found `true`",
        ),
        (
            "op p = max_pool(x, kernel = 1.5) -> y",
            Code::BadAttribute,
            "must be an integer or a list of integers",
        ),
        (
            "op p = max_pool(x, kernel = 3, dilation = 2) -> y",
            Code::BadAttribute,
            "`max_pool` takes no attribute `dilation`",
        ),
        (
            "op p = global_avg_pool(x, kernel = 3) -> y",
            Code::BadAttribute,
            "`global_avg_pool` takes no attribute `kernel`",
        ),
        (
            "op p = max_pool(x, kernel = 3, stride = 2, padding = 1) -> y: [32, 64, 55, 56]",
            Code::ShapeMismatch,
            "does not match the inferred shape [32, 64, 56, 56]",
        ),
    ];
    for (op, code, text) in cases {
        let (c, m) = one_error(&format!("{x}  {op}"));
        assert_eq!(c, *code, "{op}: {m}");
        assert!(m.contains(text), "{op}: {m}");
    }
    // A pool needs [N, C, *spatial] with 1 to 3 spatial dims.
    for shape in ["[64, 112]", "[1, 2, 3, 4, 5, 6]"] {
        let (c, m) = one_error(&format!(
            "  input v: {shape}\n  op p = global_max_pool(v) -> y"
        ));
        assert_eq!(c, Code::ShapeMismatch, "{m}");
        assert!(m.contains("1 to 3 spatial dims"), "{m}");
    }
    // Two wrong attributes: both reported.
    let d = diags(&graph(&format!(
        "{x}  op p = max_pool(x, kernel = 3, stride = 0, channels_last = 2) -> y"
    )));
    assert_eq!(d.len(), 2, "{d:?}");
}

#[test]
fn group_norm_keeps_its_shape_and_counts_like_layernorm() {
    // SD 1.5's UNet: 32 groups of 320 channels at 64×64.
    let a = analysis(&graph(
        "  input h: f16[4, 320, 64, 64]\n  weight w: f16[320]\n  weight b: f16[320]\n  op gn = reduction.group_norm(h, w, b, groups = 32, eps = 1e-5) -> y",
    ));
    let n = 4 * 320 * 64 * 64;
    assert_eq!(shape_of(&a, "y"), [4, 320, 64, 64]);
    assert_eq!(op_flops(&a.graph, OpId(0)), (8 * n, FlopSource::Table));
    // Input, weight and bias once; the output once.
    assert_eq!(group_bytes(&a), [(n * 2 + 2 * 640, n * 2)]);
    // A residual add before it fuses in (a reduction's prologue); it ends its kernel.
    let b = analysis(&graph(
        "  input h: f16[2, 64, 8, 8]\n  input r: f16[2, 64, 8, 8]\n  op s = elementwise.add(h, r) -> x\n  op gn = reduction.group_norm(x, groups = 8) -> y\n  op act = elementwise.silu(y) -> z",
    ));
    assert_eq!(groups(&b), [vec!["s", "gn"], vec!["act"]]);
    // Declared: must be the input's shape.
    let (c, m) = one_error(
        "  input h: [2, 64, 8, 8]\n  op gn = reduction.group_norm(h, groups = 8) -> y: [2, 8, 8, 8]",
    );
    assert_eq!(c, Code::ShapeMismatch, "{m}");
}

#[test]
fn group_norm_errors() {
    let (c, m) = one_error(
        "  input h: [4, 320, 64, 64]\n  op gn = reduction.group_norm(h, groups = 33) -> y",
    );
    assert_eq!(c, Code::BadAttribute);
    assert!(
        m.contains("`groups = 33` does not divide the 320 channels"),
        "{m}"
    );
    let (c, m) = one_error("  input h: [4, 320, 64, 64]\n  op gn = reduction.group_norm(h) -> y");
    assert_eq!(c, Code::BadAttribute);
    assert!(m.contains("needs the attribute `groups`"), "{m}");
    let (c, m) = one_error(
        "  input h: [4, 320, 64, 64]\n  op gn = reduction.group_norm(h, groups = 0) -> y",
    );
    assert_eq!(c, Code::BadAttribute);
    assert!(m.contains("must be from 1"), "{m}");
    let (c, m) = one_error("  input h: [320]\n  op gn = reduction.group_norm(h, groups = 32) -> y");
    assert_eq!(c, Code::ShapeMismatch);
    assert!(m.contains("[N, C, *]"), "{m}");
    let (c, _) = one_error(
        "  input h: [4, 320, 64, 64]\n  op gn = reduction.group_norm(h, groups = 32, axis = -1) -> y",
    );
    assert_eq!(c, Code::BadAttribute);
}

#[test]
fn norms_over_the_last_two_dims() {
    // PyTorch's `layer_norm(x, normalized_shape = [16, 64])`.
    let a = analysis(&graph(
        "  input x: f16[8, 16, 64]\n  weight w: f16[16, 64]\n  op ln = reduction.layernorm(x, w, axis = [-2, -1]) -> y\n  op rn = reduction.rmsnorm(x, axis = [1, 2]) -> z",
    ));
    assert_eq!(shape_of(&a, "y"), [8, 16, 64]);
    assert_eq!(op_flops(&a.graph, OpId(0)).0, 8 * 8 * 16 * 64);
    // Not the trailing axes: an error that says which to write.
    let (c, m) =
        one_error("  input x: [8, 16, 64]\n  op ln = reduction.layernorm(x, axis = [0, 1]) -> y");
    assert_eq!(c, Code::BadAttribute);
    assert!(m.contains("not the last 2"), "{m}");
    // A softmax still works along one axis.
    let (c, m) =
        one_error("  input x: [8, 16, 64]\n  op s = reduction.softmax(x, axis = [1, 2]) -> y");
    assert_eq!(c, Code::BadAttribute);
    assert!(m.contains("must be one axis"), "{m}");
}

/// The hardware model's prediction for each kernel of `src` on the H100.
fn hw_kernels(src: &str) -> Vec<hwmodel::Prediction> {
    let a = analysis(src);
    let hw = Hardware::preset("h100").expect("preset");
    let model = hw.model.clone().expect("calibrated");
    a.plan
        .groups
        .iter()
        .zip(&a.traffic.groups)
        .map(|(grp, tr)| hwmodel::predict(&model, &a.graph, &grp.ops, tr, None, &hw, 0.0))
        .collect()
}

#[test]
fn a_norm_over_two_dims_is_priced_by_rows_of_both() {
    // 4,096 × 16 × 1,024 f16 (134 MB), alone: over the last two dims its rows are 32 KB,
    // which PyTorch's kernel reads again from DRAM (the re-read curves); over the last one
    // they are 2 KB, which stay on chip.
    let read = |axis: &str| {
        let p = hw_kernels(&graph(&format!(
            "  input x: f16[4096, 16, 1024]\n  op ln = reduction.layernorm(x, {axis}) -> y"
        )));
        p[0].dram_read as f64 / (4096.0 * 16.0 * 1024.0 * 2.0)
    };
    assert!(read("axis = [-2, -1]") > 1.5, "{}", read("axis = [-2, -1]"));
    assert!(read("axis = -1") < 1.1, "{}", read("axis = -1"));
}

#[test]
fn batchnorm_is_elementwise_and_folds_into_a_matmul_as_an_epilogue() {
    // Per-channel [C, 1, 1] operands broadcast over [N, C, H, W].
    let a = analysis(&graph(
        "  input x: f16[8, 64, 28, 28]\n  weight m: f16[64, 1, 1]\n  weight v: f16[64, 1, 1]\n  weight w: f16[64, 1, 1]\n  weight b: f16[64, 1, 1]\n  op bn = elementwise.batchnorm(x, m, v, w, b, eps = 1e-5) -> y",
    ));
    let n = 8 * 64 * 28 * 28;
    assert_eq!(shape_of(&a, "y"), [8, 64, 28, 28]);
    assert_eq!(op_flops(&a.graph, OpId(0)), (4 * n, FlopSource::Table));
    assert_eq!(group_bytes(&a), [(n * 2 + 4 * 128, n * 2)]);
    // After a contraction (a 1×1 convolution as a matmul here), it is an epilogue, and a
    // ReLU after it too: one kernel.
    let b = analysis(&graph(
        "  input x: f16[8, 784, 64]\n  weight k: f16[64, 64]\n  weight m: f16[64]\n  weight v: f16[64]\n  op c = matmul(x, k) -> y\n  op bn = elementwise.batchnorm(y, m, v) -> z\n  op r = elementwise.relu(z) -> o",
    ));
    assert_eq!(groups(&b), [["c", "bn", "r"]]);
    // Too few operands: `arity`.
    let d = diags(&graph(
        "  input x: [8, 64, 4, 4]\n  op bn = elementwise.batchnorm(x, x) -> y",
    ));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Code::Arity);
}

#[test]
fn pools_end_their_kernel_and_take_pointwise_producers() {
    // relu → max pool: one kernel (the ReLU is computed as the pool reads); the pool ends it.
    let a = analysis(&graph(
        "  input x: f16[8, 64, 112, 112]\n  op r = elementwise.relu(x) -> xr\n  op p = max_pool(xr, kernel = 3, stride = 2, padding = 1) -> y\n  op s = elementwise.mul(y, 2) -> z",
    ));
    assert_eq!(groups(&a), [vec!["r", "p"], vec!["s"]]);
    // A matmul's kernel cannot take a pool (rule 3: no halo in a tile).
    let b = analysis(&graph(
        "  input x: [1, 4, 8, 8]\n  weight w: [8, 8]\n  op m = matmul(x, w) -> y\n  op p = avg_pool(y, kernel = 2) -> z",
    ));
    assert_eq!(groups(&b), [vec!["m"], vec!["p"]]);
}

#[test]
fn the_hardware_model_prices_them_as_pytorch_runs_them() {
    // The fit half's cases, as validation/gpu/h100-calib-h/fit_normpool.py prints them.
    let us = |p: &hwmodel::Prediction| p.kernel_s * 1e6;
    // Max pool alone (PyTorch's kernel): 51.4 M input elements at 246 G/s + 5.5 µs; it
    // writes its int64 indices beside the output.
    let p = hw_kernels(&graph(
        "  input x: f16[64, 64, 112, 112]\n  op p = max_pool(x, kernel = 3, stride = 2, padding = 1) -> y",
    ));
    let out = 64 * 64 * 56 * 56;
    assert_eq!(p[0].family, hwmodel::Family::Pool);
    assert_eq!(p[0].dram_read, 64 * 64 * 112 * 112 * 2);
    assert_eq!(p[0].dram_written, out * 2 + out * 8);
    assert!((us(&p[0]) - 214.36).abs() < 0.05, "{}", us(&p[0]));
    // Fused after a ReLU (a compiler's kernel): no indices.
    let p = hw_kernels(&graph(
        "  input x: f16[64, 64, 112, 112]\n  op r = elementwise.relu(x) -> xr\n  op p = max_pool(xr, kernel = 3, stride = 2, padding = 1) -> y",
    ));
    assert_eq!(p[0].dram_written, out * 2);
    // Global average pools: NCHW at the pool rate, channels-last at its own fixed time.
    let p = hw_kernels(&graph(
        "  input x: f16[32, 2048, 7, 7]\n  op a = global_avg_pool(x) -> y\n  op b = global_avg_pool(x, channels_last = true) -> z",
    ));
    assert!((us(&p[0]) - 18.55).abs() < 0.05, "{}", us(&p[0]));
    assert!((us(&p[1]) - 11.58).abs() < 0.05, "{}", us(&p[1]));
    // Group norm: three kernels, the input read twice; 128 groups of 40,960 elements on
    // 132 SMs.
    let p = hw_kernels(&graph(
        "  input h: f16[4, 320, 64, 64]\n  weight w: f16[320]\n  weight b: f16[320]\n  op gn = reduction.group_norm(h, w, b, groups = 32) -> y",
    ));
    assert_eq!(p[0].family, hwmodel::Family::GroupNorm);
    assert_eq!(p[0].dram_read, 2 * (4 * 320 * 64 * 64 * 2 + 2 * 640));
    assert!((us(&p[0]) - 58.72).abs() < 0.05, "{}", us(&p[0]));
}

#[test]
fn without_their_families_pools_and_group_norms_take_reduction_and_norm() {
    let a = analysis(&graph(
        "  input x: f16[8, 64, 56, 56]\n  op p = max_pool(x, kernel = 2) -> y\n  op gn = reduction.group_norm(x, groups = 32) -> z",
    ));
    let hw = Hardware::preset("h100").expect("preset");
    let mut model = hw.model.clone().expect("calibrated");
    (model.families.pool, model.families.group_norm) = (None, None);
    assert!(model.validate().is_ok());
    let p: Vec<hwmodel::Prediction> = a
        .plan
        .groups
        .iter()
        .zip(&a.traffic.groups)
        .map(|(grp, tr)| hwmodel::predict(&model, &a.graph, &grp.ops, tr, None, &hw, 0.0))
        .collect();
    assert_eq!(p[0].family, hwmodel::Family::Reduction);
    assert_eq!(p[1].family, hwmodel::Family::Norm);
    // Nor does the pool write indices then.
    assert_eq!(p[0].dram_written, a.traffic.groups[0].bytes_written);
}
