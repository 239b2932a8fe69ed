//! Unit tests of the eager runtime's batch norm (its statistics kernels and its kernel by
//! layout and runner) and of its elementwise kernels' reads from L2.

use super::tests::{kernels, run};
use super::*;
use crate::analysis::{Options, check_file};

/// A conv (stated channels-last or not) followed by an inference batch norm of `x`'s dtype
/// with statistics of `p`'s, then a ReLU.
fn conv_bn(channels_last: bool, x: &str, p: &str) -> String {
    let cl = if channels_last {
        ", channels_last = true"
    } else {
        ""
    };
    format!(
        "graph g {{\n  input x: {x}[8, 64, 56, 56]\n  weight w: {x}[64, 64, 3, 3]\n  weight m: {p}[64, 1, 1]\n  weight v: {p}[64, 1, 1]\n  weight s: {p}[64, 1, 1]\n  weight b: {p}[64, 1, 1]\n  op c = conv(x, w, padding = 1{cl}) -> y: [8, 64, 56, 56]\n  op bn = elementwise.batchnorm(y, m, v, s, b, eps = 1e-5) -> n\n  op r = elementwise.relu(n) -> o\n  output o\n}}\n"
    )
}

#[test]
fn eager_batch_norm_runs_two_kernels_on_its_statistics_and_its_own_by_layout() {
    // PyTorch's inference batch norm on a half input with half statistics: the mean cast to
    // f32 and the inverse std, then its own kernel (VALIDATION.md §35).
    let (a, e) = run(&conv_bn(true, "f16", "f16"), Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        ["kernel:c", "stats:", "stats:", "kernel:bn", "kernel:r"]
    );
    let bn = |e: &RuntimeEstimate| {
        e.kernels
            .iter()
            .find(|k| k.what == What::Kernel && a.graph.op(k.ops[0]).name == "bn")
            .expect("bn")
            .prediction
    };
    // Channels-last: its own vectorized kernel (`families.batch_norm_channels_last`);
    // contiguous: the scalar family's rate, slower.
    let (_, nchw) = run(&conv_bn(false, "f16", "f16"), Runtime::Eager);
    let (cl_s, nchw_s) = (bn(&e).kernel_s, bn(&nchw).kernel_s);
    assert!(cl_s < nchw_s, "{cl_s} {nchw_s}");
    let hw = Hardware::preset("h100").expect("preset");
    let f = hw.model.as_ref().expect("model").families;
    let c = f
        .batch_norm_channels_last
        .expect("batch_norm_channels_last");
    let bytes = 2.0 * 2.0 * 8.0 * 64.0 * 56.0 * 56.0 + 4.0 * 128.0;
    let want = bytes / (hw.bandwidth * c.bandwidth_efficiency) + c.overhead_us * 1e-6 - 1.75e-6;
    assert!((cl_s / want - 1.0).abs() < 0.01, "{cl_s} {want}");
    // A batch norm's kernel is priced at its family's rates as the probe measured it, just
    // after the kernel writing its input (VALIDATION.md §52): only the ReLU reads warm, also
    // where cuDNN's one kernel (an f32 input) follows the conv directly.
    assert_eq!(e.warm_reads, 1);
    let (fa, f32_bn) = run(&conv_bn(true, "f32", "f32"), Runtime::Eager);
    assert_eq!(kernels(&fa, &f32_bn), ["kernel:c", "kernel:bn", "kernel:r"]);
    assert_eq!(f32_bn.warm_reads, 1);
    // Each statistics kernel is a small one: a few microseconds.
    for k in e
        .kernels
        .iter()
        .filter(|k| matches!(k.what, What::Stats { .. }))
    {
        assert!(k.prediction.kernel_s < 4e-6, "{:?}", k.prediction);
    }
    // bf16 with bf16 statistics too; with f32 statistics the mean's copy is a memcpy (no
    // kernel); a half input with f32 statistics goes to cuDNN (its one kernel), and so does
    // f32 (`bn_probe/`).
    let stats = |src: &str| {
        let (_, e) = run(src, Runtime::Eager);
        e.kernels
            .iter()
            .filter(|k| matches!(k.what, What::Stats { .. }))
            .count()
    };
    assert_eq!(stats(&conv_bn(true, "bf16", "bf16")), 2);
    assert_eq!(stats(&conv_bn(true, "bf16", "f32")), 1);
    assert_eq!(stats(&conv_bn(true, "f16", "f32")), 0);
    // cuDNN's channels-last kernel has its own family, slower than PyTorch's.
    let (ca, cudnn) = run(&conv_bn(true, "f16", "f32"), Runtime::Eager);
    let own = cudnn
        .kernels
        .iter()
        .find(|k| k.what == What::Kernel && ca.graph.op(k.ops[0]).name == "bn")
        .expect("bn");
    let c = f
        .batch_norm_cudnn_channels_last
        .expect("batch_norm_cudnn_channels_last");
    let elements = 8.0 * 64.0 * 56.0 * 56.0;
    let bytes = 2.0 * 2.0 * elements + 4.0 * 4.0 * 64.0;
    let want = (bytes / (hw.bandwidth * c.bandwidth_efficiency)).max(elements / c.elements_per_s)
        + c.overhead_us * 1e-6
        - 1.75e-6;
    let got = own.prediction.kernel_s;
    assert!(
        (got / want - 1.0).abs() < 0.01 && got > cl_s,
        "{got} {want} {cl_s}"
    );
    assert_eq!(stats(&conv_bn(true, "f32", "f32")), 0);
    // Without a weight and a bias cuDNN is not used: PyTorch's own, the f32 mean copied by
    // a memcpy (one statistics kernel).
    let bare = conv_bn(true, "f32", "f32").replace(", s, b, eps", ", eps");
    assert_eq!(stats(&bare), 1);
    // Compiled, the batch norm is part of a Triton kernel: no statistics kernels.
    let (_, c) = run(&conv_bn(true, "f16", "f16"), Runtime::Compile);
    assert!(
        c.kernels
            .iter()
            .all(|k| !matches!(k.what, What::Stats { .. }))
    );
}

#[test]
fn eager_elementwise_reads_what_the_kernel_before_wrote_from_l2() {
    // The ReLU reads the batch norm's output, just written: its read at `warm_read_factor`
    // of a DRAM byte's time (VALIDATION.md §36); without the key, from DRAM.
    let src = conv_bn(true, "f16", "f16");
    let relu = |hw: &Hardware| {
        let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
        let a = r.graphs[0].analysis.clone().expect("analysis");
        let e = estimate(&a, hw, LaunchMode::Graph, Runtime::Eager).expect("estimate");
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "r"))
            .expect("relu")
            .prediction
    };
    let hw = Hardware::preset("h100").expect("preset");
    let f = hw
        .model
        .as_ref()
        .and_then(|m| m.host.as_ref())
        .and_then(|h| h.warm_read_factor)
        .expect("warm_read_factor");
    let mut cold = hw.clone();
    if let Some(h) = cold.model.as_mut().and_then(|m| m.host.as_mut()) {
        h.warm_read_factor = None;
    }
    let (w, c) = (relu(&hw), relu(&cold));
    // Half its bytes are the read: the memory term falls by (1 - f) / 2.
    let want = c.memory_s * (1.0 - (1.0 - f) / 2.0);
    assert!(
        (w.memory_s / want - 1.0).abs() < 1e-3,
        "{} {}",
        w.memory_s,
        want
    );
    assert!(w.kernel_s < c.kernel_s, "{} {}", w.kernel_s, c.kernel_s);
}
