//! Low-precision GEMMs (issue 23 item 6): `scaled_mm` (FP8 and INT8 with per-tensor or rowwise
//! scales, torch._scaled_mm), `matmul` of two i8 matrices into i32 (torch._int_mm) and
//! `quant_mm` (weight-only int4 / int8 with group scales: w4a16, w8a16). Shapes, errors, FLOPs,
//! bytes and times worked out by hand; the 8-bit tensor rates of the presets.

mod common;

use fgraph::cost::{self, Hardware, LaunchMode, Unit};
use fgraph::types::Dtype;
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

fn diagnostics(src: &str) -> Vec<(Code, String)> {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

fn graph(body: &str) -> String {
    format!("graph g {{\n{body}}}\n")
}

fn hw(name: &str) -> Hardware {
    Hardware::preset(name).expect("preset")
}

/// The output (shape, dtype, bytes) of the op named `name`.
fn out(a: &Analysis, name: &str) -> (Vec<u64>, Dtype, u64) {
    let g = &a.graph;
    let op = g
        .topo
        .iter()
        .map(|&o| g.op(o))
        .find(|op| op.name == name)
        .expect("op");
    let t = g.tensor(op.output);
    (t.shape.to_vec(), t.dtype, t.bytes)
}

/// (FLOPs, bytes read, bytes written) of the fused plan.
fn totals(a: &Analysis) -> (u64, u64, u64) {
    let c = cost::estimate(a, &hw("h100"), LaunchMode::Graph).expect("cost");
    (
        c.fused.flops,
        a.traffic.fused.bytes_read,
        a.traffic.fused.bytes_written,
    )
}

const FP8_ROWWISE: &str = "  input a: f8e4m3[256, 4096]\n  weight w: f8e4m3[1024, 4096]\n  \
                           input sa: f32[256, 1]\n  weight sw: f32[1, 1024]\n";

#[test]
fn scaled_mm_shapes_and_dtypes() {
    // Rowwise scales, a weight stored [N, K] read transposed; bf16 out by default.
    let a = analysis(&graph(&format!(
        "{FP8_ROWWISE}  op mm = scaled_mm(a, w.T, sa, sw) -> y\n"
    )));
    assert_eq!(
        out(&a, "mm"),
        (vec![256, 1024], Dtype::Bf16, 256 * 1024 * 2)
    );
    // Per-tensor scales as [1], a scalar or [1, 1]; out_dtype as the declared dtype.
    for s in ["[1]", "[]", "[1, 1]"] {
        let a = analysis(&graph(&format!(
            "  input a: f8e4m3[64, 128]\n  input b: f8e5m2[128, 32]\n  input s: f32{s}\n  \
             op mm = scaled_mm(a, b, s, s) -> y: f32[64, 32]\n"
        )));
        assert_eq!(out(&a, "mm"), (vec![64, 32], Dtype::F32, 64 * 32 * 4));
    }
    // e5m2 × e4m3 is allowed (only e5m2 × e5m2 is not); a bias [N].
    let a = analysis(&graph(
        "  input a: f8e5m2[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
         input bias: bf16[32]\n  op mm = scaled_mm(a, b, s, s, bias) -> y\n",
    ));
    assert_eq!(out(&a, "mm").0, [64, 32]);
    // INT8 with rowwise scales: bf16 out.
    let a = analysis(&graph(
        "  input a: i8[64, 128]\n  weight b: i8[128, 32]\n  input sa: f32[64, 1]\n  \
         weight sb: f32[1, 32]\n  op mm = scaled_mm(a, b, sa, sb) -> y\n",
    ));
    assert_eq!(out(&a, "mm"), (vec![64, 32], Dtype::Bf16, 64 * 32 * 2));
}

#[test]
fn two_i8_matrices_multiply_into_i32() {
    // torch._int_mm: the i32 accumulator, 4 bytes an element, unless declared otherwise.
    let a = analysis(&graph(
        "  input a: i8[64, 128]\n  weight b: i8[128, 32]\n  op mm = matmul(a, b) -> y\n  \
         op c = matmul(a, b) -> z: i8[64, 32]\n",
    ));
    assert_eq!(out(&a, "mm"), (vec![64, 32], Dtype::I32, 64 * 32 * 4));
    assert_eq!(out(&a, "c").1, Dtype::I8);
    // An fp8 matmul keeps its operand's dtype, as before.
    let a = analysis(&graph(
        "  input a: f8e4m3[64, 128]\n  weight b: f8e4m3[128, 32]\n  op mm = matmul(a, b) -> y\n",
    ));
    assert_eq!(out(&a, "mm").1, Dtype::F8e4m3);
}

/// FLOPs `2MNK` plus 2 per output element for the scales and 1 for the bias; bytes: both
/// operands, both scales, the bias and the output once each.
#[test]
fn scaled_mm_flops_and_bytes_by_hand() {
    let a = analysis(&graph(&format!(
        "{FP8_ROWWISE}  weight bias: bf16[1024]\n  op mm = scaled_mm(a, w.T, sa, sw) -> y\n  \
         op mb = scaled_mm(a, w.T, sa, sw, bias) -> z\n"
    )));
    let g = &a.graph;
    let flops: Vec<u64> = g.topo.iter().map(|&o| cost::op_flops(g, o).0).collect();
    // 2 · 256 · 1024 · 4096 = 2,147,483,648; + 2 · 256 · 1024 = 524,288; + 262,144 (bias).
    assert_eq!(flops, [2_148_007_936, 2_148_270_080]);
    let c = cost::estimate(&a, &hw("h100"), LaunchMode::Graph).expect("cost");
    let k = c.unfused_kernel(0);
    // a 1,048,576 + w 4,194,304 + sa 1,024 + sw 4,096 read; y 524,288 written.
    assert_eq!(k.bytes, 1_048_576 + 4_194_304 + 1_024 + 4_096 + 524_288);
    let kb = c.unfused_kernel(1);
    assert_eq!(kb.bytes, k.bytes + 2_048);
    // At the dense FP8 peak of the H100: 1,979 TFLOP/s, twice the 16-bit 989.
    assert_eq!(c.unfused.kernels[0].unit, Unit::TensorF8);
    assert!(
        (k.compute_s - 2_148_007_936.0 / 1979e12).abs() < 1e-15,
        "{k:?}"
    );
    // Intensity 2,148,007,936 / 5,772,288 = 372 FLOP/B, under the FP8 ridge 1,979 / 3.35 =
    // 590.7: memory-bound, where at the 16-bit rate it would have been compute-bound (295).
    assert_eq!(k.bound, cost::Bound::Memory);
}

#[test]
fn eight_bit_matmuls_run_at_the_8_bit_rate_or_the_16_bit_one_where_a_gpu_has_none() {
    let src = graph(
        "  input a: f8e4m3[4096, 4096]\n  weight b: f8e4m3[4096, 4096]\n  input s: f32[1]\n  \
         op f8 = scaled_mm(a, b, s, s) -> y\n  input i: i8[4096, 4096]\n  weight j: i8[4096, 4096]\n  \
         op i8 = matmul(i, j) -> z\n  op p = matmul(a, b) -> q\n",
    );
    let a = analysis(&src);
    let flops = |k: usize| cost::op_flops(&a.graph, a.graph.topo[k]).0 as f64;
    for (gpu, f8, i8) in [
        ("h100", 1979e12, 1979e12),
        ("h200", 1979e12, 1979e12),
        ("h100-measured", 1580e12, 1580e12),
        // The A100 has no FP8 tensor cores: its 16-bit peak; INT8 624 TOPS.
        ("a100", 312e12, 624e12),
    ] {
        let c = cost::estimate(&a, &hw(gpu), LaunchMode::Graph).expect("cost");
        let units: Vec<Unit> = c.unfused.kernels.iter().map(|k| k.unit).collect();
        assert_eq!(units, [Unit::TensorF8, Unit::TensorI8, Unit::TensorF8]);
        for (k, peak) in [(0, f8), (1, i8), (2, f8)] {
            let t = c.unfused_kernel(k).compute_s;
            assert!((t - flops(k) / peak).abs() < 1e-12 * t, "{gpu} {k}: {t}");
        }
    }
    // The human report says which rate it took.
    let run = |gpu: &str| {
        let path =
            std::env::temp_dir().join(format!("fgraph-quant-{}-{gpu}.fgraph", std::process::id()));
        std::fs::write(&path, &src).expect("write");
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
            .args(["analyze", path.to_str().expect("path"), "--hardware", gpu])
            .output()
            .expect("run");
        let _ = std::fs::remove_file(&path);
        String::from_utf8(o.stdout).expect("utf8")
    };
    let h = run("h100");
    assert!(h.contains("fp8 matmuls at 1979.0 TFLOP/s dense"), "{h}");
    assert!(h.contains("int8 matmuls at 1979.0 TOPS dense"), "{h}");
    let h = run("a100");
    assert!(
        h.contains("fp8 matmuls priced at the 16-bit peak: a100 gives no dense fp8 rate"),
        "{h}"
    );
    assert!(h.contains("int8 matmuls at 624.0 TOPS dense"), "{h}");
}

const W4: &str = "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  \
                  weight s: bf16[32, 14336]\n";

#[test]
fn quant_mm_shapes() {
    // int4 packed two per byte along K: [K / 2, N]; groups of 128 stated or taken from the
    // scales' rows.
    for attrs in ["", ", group_size = 128", ", bits = 4, group_size = 128"] {
        let a = analysis(&graph(&format!(
            "{W4}  op q = quant_mm(x, w, s{attrs}) -> y\n"
        )));
        assert_eq!(out(&a, "q"), (vec![1, 14336], Dtype::Bf16, 14336 * 2));
    }
    // Eight int4 per i32 (GPTQ's qweight [K / 8, N]), zero points, batched activations.
    let a = analysis(&graph(
        "  input x: f16[4, 16, 4096]\n  weight w: i32[512, 14336]\n  weight s: f16[32, 14336]\n  \
         weight z: f16[32, 14336]\n  op q = quant_mm(x, w, s, z) -> y\n",
    ));
    assert_eq!(out(&a, "q").0, [4, 16, 14336]);
    assert_eq!(out(&a, "q").1, Dtype::F16);
    // w8a16: int8 weights [K, N], one scale per output channel ([1, N]: groups of K).
    let a = analysis(&graph(
        "  input x: bf16[8, 4096]\n  weight w: i8[4096, 14336]\n  weight s: bf16[1, 14336]\n  \
         op q = quant_mm(x, w, s, bits = 8) -> y\n",
    ));
    assert_eq!(out(&a, "q").0, [8, 14336]);
}

/// A Llama-3-8B decode projection (4096 → 14336) in w4a16: the packed weights are a quarter
/// of bf16's bytes, plus 1/64 for the group scales.
#[test]
fn quant_mm_flops_and_bytes_by_hand() {
    let a = analysis(&graph(&format!("{W4}  op q = quant_mm(x, w, s) -> y\n")));
    let (flops, read, written) = totals(&a);
    // 2 · 1 · 14336 · 4096 = 117,440,512 for the product, 2 · 4096 · 14336 = 117,440,512 to
    // dequantise each weight once.
    assert_eq!(flops, 234_881_024);
    // w 2048 · 14336 = 29,360,128 (4096 · 14336 / 2), s 32 · 14336 · 2 = 917,504, x 8,192.
    assert_eq!(read, 29_360_128 + 917_504 + 8_192);
    assert_eq!(written, 28_672);
    assert_eq!(29_360_128 * 4, 4096 * 14336 * 2);
    // On the 16-bit tensor cores: the activations are bf16.
    let c = cost::estimate(&a, &hw("h100"), LaunchMode::Graph).expect("cost");
    assert_eq!(c.unfused.kernels[0].unit, Unit::Tensor16);
    assert_eq!(c.fused.kernels[0].bound, cost::Bound::Memory);
    // The same weights as i32 [512, N] move the same bytes.
    let a32 = analysis(&graph(
        "  input x: bf16[1, 4096]\n  weight w: i32[512, 14336]\n  weight s: bf16[32, 14336]\n  \
         op q = quant_mm(x, w, s) -> y\n",
    ));
    assert_eq!(totals(&a32), (flops, read, written));
}

/// Both kinds are contractions: an elementwise epilogue fuses into their kernel.
#[test]
fn low_precision_gemms_take_epilogues() {
    let a = analysis(&graph(&format!(
        "{W4}  weight u: u8[2048, 14336]\n  op g = quant_mm(x, w, s) -> gate\n  \
         op up = quant_mm(x, u, s) -> upv\n  op act = elementwise.silu(gate) -> sg\n  \
         op m = elementwise.mul(sg, upv) -> h\n  output h\n"
    )));
    // gate + silu in one kernel; up + mul in another (one contraction per kernel).
    assert_eq!(a.plan.groups.len(), 2);
    let a = analysis(&graph(&format!(
        "{FP8_ROWWISE}  op mm = scaled_mm(a, w.T, sa, sw) -> y\n  op r = elementwise.relu(y) -> z\n  \
         output z\n"
    )));
    assert_eq!(a.plan.groups.len(), 1);
}

#[test]
fn errors_say_what_is_wrong() {
    let cases: &[(&str, Code, &str)] = &[
        (
            "  input a: f8e5m2[64, 128]\n  input b: f8e5m2[128, 32]\n  input s: f32[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y\n",
            Code::InvalidDtype,
            "scaled_mm `mm` multiplies two f8e5m2 operands, `a` and `b`",
        ),
        (
            "  input a: bf16[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y\n",
            Code::InvalidDtype,
            "the operand `a` of scaled_mm `mm` is bf16, not an 8-bit type",
        ),
        (
            "  input a: i8[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y\n",
            Code::InvalidDtype,
            "no kernel mixes FP8 and INT8",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: bf16[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y\n",
            Code::InvalidDtype,
            "the scale `s` of scaled_mm `mm` is bf16, not f32",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y: i32[64, 32]\n",
            Code::InvalidDtype,
            "scaled_mm `mm` is declared to produce i32",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[32, 128]\n  input s: f32[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y\n",
            Code::ShapeMismatch,
            "scaled_mm inner dimensions differ: `a` is [64, 128] and `b` is [32, 128]",
        ),
        (
            "  input a: f8e4m3[2, 64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             op mm = scaled_mm(a, b, s, s) -> y\n",
            Code::ShapeMismatch,
            "scaled_mm operand `a` has shape [2, 64, 128], of rank 3",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             input sa: f32[1, 64]\n  op mm = scaled_mm(a, b, sa, s) -> y\n",
            Code::ShapeMismatch,
            "the scale_a `sa` of scaled_mm has shape [1, 64]: neither per-tensor [1] nor \
             rowwise [64, 1]",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             input sa: f32[64, 1]\n  op mm = scaled_mm(a, b, sa, s) -> y\n",
            Code::ShapeMismatch,
            "scaled_mm mixes a rowwise scale `sa` and a per-tensor scale `s`",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  input s: f32[1]\n  \
             input bias: bf16[64]\n  op mm = scaled_mm(a, b, s, s, bias) -> y\n",
            Code::ShapeMismatch,
            "the bias `bias` of scaled_mm has shape [64], not [32]",
        ),
        (
            "  input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  \
             op mm = scaled_mm(a, b) -> y\n",
            Code::Arity,
            "",
        ),
        (
            "  input x: f32[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s) -> y\n",
            Code::InvalidDtype,
            "the activations `x` of quant_mm `q` are f32, not 16-bit",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: bf16[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s) -> y\n",
            Code::InvalidDtype,
            "the packed weights `w` of quant_mm `q` are bf16, not an integer type",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: i8[32, 14336]\n  \
             op q = quant_mm(x, w, s) -> y\n",
            Code::InvalidDtype,
            "the scales `s` of quant_mm `q` are i8, not floating point",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[4096, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s) -> y\n",
            Code::ShapeMismatch,
            "the packed weights `w` [4096, 14336] hold 4096 × 2 = 8192 weights along K, but the \
             activations `x` [1, 4096] have K = 4096",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s, group_size = 64) -> y\n",
            Code::ShapeMismatch,
            "the scales `s` of quant_mm have shape [32, 14336], not [64, 14336] (K / group_size \
             = 4096 / 64)",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[3, 14336]\n  \
             op q = quant_mm(x, w, s) -> y\n",
            Code::ShapeMismatch,
            "the scales `s` of quant_mm have shape [3, 14336]",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             weight z: bf16[32, 4096]\n  op q = quant_mm(x, w, s, z) -> y\n",
            Code::ShapeMismatch,
            "the zeros `z` of quant_mm have shape [32, 4096]",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s, group_size = 100) -> y\n",
            Code::BadAttribute,
            "`group_size = 100` of quant_mm does not divide K = 4096",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s, bits = 6) -> y\n",
            Code::BadAttribute,
            "attribute `bits` of `quant_mm` is 6: quant_mm takes 4 or 8",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s, bits = 2) -> y\n",
            Code::BadAttribute,
            "attribute `bits` of `quant_mm` must be from 4 to 8, found 2",
        ),
        (
            "  input x: bf16[1, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
             op q = quant_mm(x, w, s, groups = 128) -> y\n",
            Code::BadAttribute,
            "",
        ),
    ];
    for (body, code, message) in cases {
        let d = diagnostics(&graph(body));
        assert!(
            d.iter().any(|(c, m)| c == code && m.contains(message)),
            "{body}\nwanted {code:?}: {message}\ngot {d:?}"
        );
    }
}

/// Two errors in one op are both reported: one never hides the other.
#[test]
fn one_error_does_not_hide_another() {
    let d = diagnostics(&graph(
        "  input a: f8e5m2[64, 128]\n  input b: f8e5m2[128, 32]\n  input s: bf16[1]\n  \
         input bias: bf16[7]\n  op mm = scaled_mm(a, b, s, s, bias) -> y\n",
    ));
    let codes: Vec<Code> = d.iter().map(|(c, _)| *c).collect();
    assert_eq!(
        codes.iter().filter(|&&c| c == Code::InvalidDtype).count(),
        3,
        "{d:?}"
    );
    assert!(codes.contains(&Code::ShapeMismatch), "{d:?}");
    let d = diagnostics(&graph(
        "  input x: f32[1, 4096]\n  weight w: u8[4096, 14336]\n  weight s: i8[32, 14336]\n  \
         op q = quant_mm(x, w, s) -> y\n",
    ));
    assert_eq!(d.len(), 3, "{d:?}");
}

#[test]
fn fmt_round_trips() {
    let src = graph(&format!(
        "{W4}  weight z: bf16[32, 14336]\n  op q = quant_mm(x, w, s, z, bits = 4, group_size = 128) -> y\n  \
         input a: f8e4m3[64, 128]\n  input b: f8e4m3[128, 32]\n  input sa: f32[1]\n  \
         op mm = scaled_mm(a, b, sa, sa) -> o: f16[64, 32]\n"
    ));
    let once = fgraph::format::format_source(&src).expect("format");
    let twice = fgraph::format::format_source(&once).expect("format");
    assert_eq!(once, twice);
    assert!(
        once.contains("quant_mm(x, w, s, z, bits = 4, group_size = 128)"),
        "{once}"
    );
    assert!(
        once.contains("scaled_mm(a, b, sa, sa) -> o: f16[64, 32]"),
        "{once}"
    );
    analysis(&once);
}

/// The hardware model's kernels of the plan on the H100.
fn model(a: &Analysis) -> cost::ModelReport {
    let mut c = cost::estimate(a, &hw("h100"), LaunchMode::Graph).expect("cost");
    cost::with_hardware_model(&mut c, a).expect("model");
    c.hardware_model.expect("model")
}

/// An FP8 8192³ GEMM: the matmul family's tiling at the FP8 peak, `f8_efficiency` and
/// `K / (K + mm8_k_half)`, by hand.
#[test]
fn an_fp8_gemm_runs_at_the_8_bit_peak_under_the_hardware_model() {
    let h100 = hw("h100");
    let m = h100.model.as_ref().expect("model");
    let q = m.quant.as_ref().expect("quant coefficients");
    // Fitted on batch i's torch._scaled_mm cases (validation/gpu/h100-calib-i/fit_quant_i.py).
    assert_eq!((q.f8_efficiency, q.mm8_k_half), (0.86, 2048.0));
    let a = analysis(&graph(
        "  input a: f8e4m3[8192, 8192]\n  weight w: f8e4m3[8192, 8192]\n  input s: f32[1]\n  \
         op mm = scaled_mm(a, w.T, s, s) -> y\n",
    ));
    let p = model(&a).kernels[0];
    assert_eq!(p.family, cost::Family::Gemm8);
    // Waves: 2,048 tiles of 256 × 128 fill 2,048 / (16 · 132) = 0.9697 of 16 waves (192 ×
    // 192 fills 1,849 / 1,980 = 0.934); ^0.25 = 0.99234. K term 8192 / 10240.
    let flops = 2.0 * 8192f64.powi(3);
    let wave = (2048.0f64 / 2112.0).powf(0.25);
    let compute = flops / (1979e12 * 0.86 * wave * 8192.0 / 10240.0);
    assert!((p.compute_s - compute).abs() < 1e-9 * compute, "{p:?}");
    // 813.8 µs: 1,351 TFLOP/s, 1.7× the bf16 GEMM's rate (the 8-bit K tile fills later).
    assert!((p.compute_s * 1e6 - 813.8).abs() < 0.5, "{p:?}");
    // The same GEMM in bf16 takes the 16-bit peak: about 1.7× as long.
    let b = analysis(&graph(
        "  input a: bf16[8192, 8192]\n  weight w: bf16[8192, 8192]\n  op mm = matmul(a, w.T) -> y\n",
    ));
    let pb = model(&b).kernels[0];
    assert_eq!(pb.family, cost::Family::Matmul);
    let ratio = pb.compute_s / p.compute_s;
    assert!((1.65..1.75).contains(&ratio), "{ratio}");
    // A plain matmul of fp8 operands is the same 8-bit GEMM.
    let c = analysis(&graph(
        "  input a: f8e4m3[8192, 8192]\n  weight w: f8e4m3[8192, 8192]\n  op mm = matmul(a, w) -> y\n",
    ));
    let pc = model(&c).kernels[0];
    assert_eq!(pc.family, cost::Family::Gemm8);
    assert!((pc.compute_s - p.compute_s).abs() < 1e-12, "{pc:?}");
}

/// w4a16 at decode (M = 1) streams its packed weights: a quarter of bf16's bytes, so about
/// 2.5× faster than the bf16 GEMM (tinygemm's MMAs do not hide under its loads: `overlap`
/// 0, batch k's refit); at prefill (M = 4,096) it is compute-bound at the 16-bit peak times
/// `weight_only.efficiency` (0.033: PyTorch's tinygemm kernel), plus its dequantisation per
/// 64 rows, and it reads the weights once per 64 rows.
#[test]
fn w4a16_is_memory_bound_at_decode_and_compute_bound_at_prefill() {
    let h100 = hw("h100");
    let w = h100
        .model
        .as_ref()
        .and_then(|m| m.quant.as_ref())
        .expect("quant")
        .weight_only;
    let decode = analysis(&graph(&format!("{W4}  op q = quant_mm(x, w, s) -> y\n")));
    let p = model(&decode).kernels[0];
    assert_eq!(p.family, cost::Family::QuantMatmul);
    // Reads as counted: 29,360,128 + 917,504 + 8,192; writes 28,672.
    assert_eq!((p.dram_read, p.dram_written), (30_285_824, 28_672));
    let memory = 30_314_496.0 / (3.35e12 * w.bandwidth_efficiency);
    assert!((p.memory_s - memory).abs() < 1e-15, "{p:?}");
    // 2 · 4096 · 14336 FLOPs at 989 · 0.033 · 4096 / 4352, and 4096 · 14336 weights at
    // 3e13/s: 3.82 + 1.96 = 5.78 µs, under the memory time.
    let compute = 117_440_512.0 / (989e12 * 0.033 * 4096.0 / 4352.0) + 58_720_256.0 / 3e13;
    assert!((p.compute_s - compute).abs() < 1e-15, "{p:?}");
    assert_eq!(w.overlap, Some(0.0));
    // 9.23 µs of memory (0.98 of 3.35 TB/s) + the 5.78 µs of compute it does not hide +
    // 3.25 µs start-up.
    assert!((p.kernel_s * 1e6 - 18.26).abs() < 0.01, "{p:?}");
    // The bf16 GEMM of the same shape reads 117.4 MB: about 3× as long.
    let bf16 = analysis(&graph(
        "  input x: bf16[1, 4096]\n  weight w: bf16[4096, 14336]\n  op q = matmul(x, w) -> y\n",
    ));
    let pb = model(&bf16).kernels[0];
    let ratio = pb.kernel_s / p.kernel_s;
    assert!((2.3..2.7).contains(&ratio), "{ratio}");
    // Prefill: compute-bound.
    let prefill = analysis(&graph(
        "  input x: bf16[4096, 4096]\n  weight w: u8[2048, 14336]\n  weight s: bf16[32, 14336]\n  \
         op q = quant_mm(x, w, s) -> y\n",
    ));
    let p = model(&prefill).kernels[0];
    let flops = 2.0 * 4096.0 * 14336.0 * 4096.0;
    let compute = flops / (989e12 * 0.033 * 4096.0 / 4352.0) + 58_720_256.0 * 64.0 / 3e13;
    assert!((p.compute_s - compute).abs() < 1e-12, "{p:?}");
    // 64 blocks of 64 rows: the packed weights and scales (29,360,128 + 917,504 B) are read
    // 63 more times.
    assert_eq!(p.dram_read, 4096 * 4096 * 2 + 64 * (29_360_128 + 917_504));
    assert!(p.compute_s > p.memory_s, "{p:?}");
}

/// Without `model.quant` (a user's hardware file from before), an 8-bit GEMM takes the matmul
/// coefficients at the 8-bit peak and a `quant_mm` the matmul family's on its counted bytes.
#[test]
fn a_model_without_quant_coefficients_still_prices_both() {
    let mut h100 = hw("h100");
    h100.model.as_mut().expect("model").quant = None;
    let a = analysis(&graph(&format!(
        "{W4}  op q = quant_mm(x, w, s) -> y\n  input a: f8e4m3[4096, 4096]\n  \
         weight b: f8e4m3[4096, 4096]\n  op mm = matmul(a, b) -> z\n"
    )));
    let mut c = cost::estimate(&a, &h100, LaunchMode::Graph).expect("cost");
    cost::with_hardware_model(&mut c, &a).expect("model");
    let r = c.hardware_model.expect("model");
    assert_eq!(r.kernels[0].family, cost::Family::Matmul);
    assert_eq!(r.kernels[0].dram_read, 30_285_824);
    assert_eq!(r.kernels[1].family, cost::Family::Gemm8);
    for k in &r.kernels {
        assert!(k.time_s.is_finite() && k.time_s > 0.0, "{k:?}");
    }
}

/// examples/llama3_8b_w4a16_decode.fgraph: Llama-3-8B's MLP sublayer in one decode step with
/// int4 weights, numbers by hand.
#[test]
fn the_llama3_8b_w4a16_decode_example() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/llama3_8b_w4a16_decode.fgraph"
    );
    let src = std::fs::read_to_string(path).expect("example");
    let a = analysis(&src);
    let g = &a.graph;
    // Weights: three packed int4 matrices of 4096 · 14336 weights, 2 per byte, a quarter of
    // bf16's 3 · 4096 · 14336 · 2 = 352,321,536 bytes; the scales one bf16 per 128 weights;
    // the RMSNorm weight 4096 · 2.
    let weight = |name: &str| {
        g.tensors
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.bytes)
            .expect("tensor")
    };
    let packed: u64 = ["w_gate", "w_up", "w_down"].iter().map(|n| weight(n)).sum();
    let scales: u64 = ["s_gate", "s_up", "s_down"].iter().map(|n| weight(n)).sum();
    assert_eq!(packed, 88_080_384);
    assert_eq!(packed * 4, 3 * 4096 * 14336 * 2);
    assert_eq!(scales, 2_752_512);
    assert_eq!(scales * 32, packed);
    assert_eq!(weight("norm_w"), 8_192);
    // FLOPs: each projection 2 · 4096 · 14336 (the product at M = 1) + 2 · 4096 · 14336 (the
    // dequantisation) = 234,881,024; RMSNorm 4,096 (1 per element), SiLU 4 · 14,336, the gate
    // multiply 14,336 and the residual add 4,096.
    let (flops, read, written) = totals(&a);
    assert_eq!(flops, 3 * 234_881_024 + 4_096 + 4 * 14_336 + 14_336 + 4_096);
    assert_eq!(flops, 704_722_944);
    // Four kernels: the norm; up; gate with SiLU and the gate multiply; down with the residual
    // add. Reads: the weights and scales once, x twice (norm, residual), xn twice, u and m
    // once; writes xn, u, m and y.
    assert_eq!(a.plan.groups.len(), 4);
    let (x, xn, h) = (8_192, 8_192, 28_672);
    assert_eq!(read, packed + scales + 8_192 + 2 * x + 2 * xn + 2 * h);
    assert_eq!(written, xn + 2 * h + x);
    assert_eq!((read, written), (90_931_200, 73_728));
    // The same sublayer in bf16 reads 4× the weight bytes: w4a16 moves 26% of them.
    let bf16 = src
        .replace("u8[H / 2, F]", "[H, F]")
        .replace("u8[F / 2, H]", "[F, H]")
        .replace(", group_size = GS", "");
    let bf16 = bf16
        .replace("quant_mm(xn, w_gate, s_gate)", "matmul(xn, w_gate)")
        .replace("quant_mm(xn, w_up, s_up)", "matmul(xn, w_up)")
        .replace("quant_mm(m, w_down, s_down)", "matmul(m, w_down)");
    let bf16: String = bf16
        .lines()
        .filter(|l| !l.trim_start().starts_with("weight s_"))
        .map(|l| format!("{l}\n"))
        .collect();
    let b = analysis(&bf16);
    let (_, read16, _) = totals(&b);
    // bf16 reads the weights, 352,321,536 bytes, and the same activations.
    assert_eq!(read16, 352_321_536 + 8_192 + 2 * x + 2 * xn + 2 * h);
    let ratio = read as f64 / read16 as f64;
    assert!((0.25..0.27).contains(&ratio), "{ratio}");
    // Under the hardware model each projection is a memory-bound `quant_mm` kernel of 18.1
    // to 18.3 µs (9.2 µs streaming 30.3 MB at 0.98 of 3.35 TB/s, 5.6 to 5.8 µs of MMAs and
    // dequantisation after it, 3.25 µs start-up).
    let r = model(&a);
    let families: Vec<cost::Family> = r.kernels.iter().map(|k| k.family).collect();
    assert_eq!(
        families,
        [
            cost::Family::Norm,
            cost::Family::QuantMatmul,
            cost::Family::QuantMatmul,
            cost::Family::QuantMatmul
        ]
    );
    for k in &r.kernels[1..] {
        assert!(k.memory_s > k.compute_s, "{k:?}");
        assert!((18.05..18.3).contains(&(k.kernel_s * 1e6)), "{k:?}");
    }
}

/// cuBLASLt's int8 GEMM behind `torch._int_mm` ran only row counts that are multiples of 32
/// on an H200 (VALIDATION.md §59): other counts are padded and sliced back, a count of 32
/// goes as it is; a `matmul` of two i8 matrices is `torch._int_mm` too.
#[test]
fn int8_products_are_emitted_as_int_mm_with_rows_by_32() {
    let src = |rows: u64, op: &str| {
        graph(&format!(
            "  input a: i8[{rows}, 64]\n  weight b: i8[64, 32]\n  weight sa: f32[{rows}, 1]\n  \
             weight sb: f32[1, 32]\n{op}  output y\n"
        ))
    };
    let scaled = "  op mm = scaled_mm(a, b, sa, sb) -> y\n";
    let py = common::emit_torch(&src(16, scaled));
    assert!(
        py.contains("torch._int_mm(torch.nn.functional.pad(a, (0, 0, 0, 16)), self.b)[:16]"),
        "{py}"
    );
    let py = common::emit_torch(&src(32, scaled));
    assert!(py.contains("torch._int_mm(a, self.b)"), "{py}");
    let plain = "  op mm = matmul(a, b) -> y\n";
    let py = common::emit_torch(
        &src(40, plain).replace("  weight sa: f32[40, 1]\n  weight sb: f32[1, 32]\n", ""),
    );
    assert!(
        py.contains("y = torch._int_mm(torch.nn.functional.pad(a, (0, 0, 0, 24)), self.b)[:40]"),
        "{py}"
    );
}
