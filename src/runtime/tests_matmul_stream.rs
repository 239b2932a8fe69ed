//! Unit tests of how a matmul runs in a stream (`model.host.matmul_overlap_exponent`,
//! `matmul_resident_factor` and `matmul_resident_exponent`; VALIDATION.md §37), and of the
//! copy a compiled one-row `bmm` makes of its operand first (§53).

use super::*;
use crate::analysis::{Analysis, Options, check_file};

fn analysis(src: &str) -> Analysis {
    let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    r.graphs[0].analysis.clone().expect("analysis")
}

/// The h100 preset with its host's keys changed by `f`.
fn h100_with(f: impl Fn(&mut crate::cost::hwmodel::HostCoeffs)) -> Hardware {
    let mut hw = Hardware::preset("h100").expect("preset");
    f(hw.model
        .as_mut()
        .and_then(|m| m.host.as_mut())
        .expect("host"));
    hw
}

/// The kernel that holds the op named `name`.
fn kernel<'e>(a: &Analysis, e: &'e RuntimeEstimate, name: &str) -> &'e RuntimeKernel {
    e.kernels
        .iter()
        .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == name))
        .expect("kernel")
}

#[test]
fn a_compute_bound_matmuls_overhead_overlaps_its_compute() {
    // BERT-large's projection at 4 × 384 tokens (5.2 µs of compute) and a long GEMM.
    for (m, k, n) in [(1536, 1024, 1024), (8192, 8192, 8192)] {
        let src = format!(
            "graph g {{\n  input x: f16[{m}, {k}]\n  weight w: f16[{k}, {n}]\n  op mm = matmul(x, w) -> y\n  output y\n}}\n"
        );
        let a = analysis(&src);
        let hw = Hardware::preset("h100").expect("preset");
        let model = hw.model.as_ref().expect("model");
        let host = model.host.as_ref().expect("host");
        let q = host
            .matmul_overlap_exponent
            .expect("matmul_overlap_exponent");
        let overhead = model.mm_overhead_us * 1e-6;
        let old = h100_with(|h| h.matmul_overlap_exponent = None);
        for runtime in [Runtime::Eager, Runtime::Compile] {
            let e = estimate(&a, &hw, LaunchMode::Graph, runtime).expect("estimate");
            let p = kernel(&a, &e, "mm").prediction;
            assert!(p.compute_s > p.memory_s, "{p:?}");
            let want = (p.compute_s.powf(q) + overhead.powf(q)).powf(1.0 / q);
            let got = p.kernel_s / (1.0 + e.sustained_derate);
            assert!((got / want - 1.0).abs() < 1e-9, "{got} {want}");
            // Without the exponent: compute + overhead − the stream discount, longer.
            let o = estimate(&a, &old, LaunchMode::Graph, runtime).expect("estimate");
            let before = kernel(&a, &o, "mm").prediction.kernel_s / (1.0 + o.sustained_derate);
            let discount = host.stream_discount_us.expect("discount") * 1e-6;
            assert!((before - (p.compute_s + overhead - discount)).abs() < 1e-12);
            assert!(got < before, "{got} {before}");
            // A short GEMM pays most of its overhead, a long one almost none.
            let paid = (got - p.compute_s) / overhead;
            if m == 1536 {
                assert!((0.3..0.6).contains(&paid), "{paid}");
            } else {
                assert!(paid < 0.05, "{paid}");
            }
        }
    }
}

#[test]
fn a_memory_bound_matmul_reads_what_the_step_wrote_from_l2() {
    // BERT-large's attention at 4 × 384: the probabilities (18.9 MB, written whole by the
    // softmax) times V (a graph input: from DRAM).
    let src = "graph g {\n  input s: f16[4, 16, 384, 384]\n  input v: f16[4, 16, 384, 64]\n  \
               op p = reduction.softmax(s, axis = -1) -> pr\n  \
               op pv = matmul(pr, v) -> o: [4, 16, 384, 64]\n  output o\n}\n";
    let a = analysis(src);
    let hw = Hardware::preset("h100").expect("preset");
    let model = hw.model.as_ref().expect("model");
    let host = model.host.as_ref().expect("host");
    let (f, x) = (
        host.matmul_resident_factor.expect("factor"),
        host.matmul_resident_exponent.expect("exponent"),
    );
    let cold = h100_with(|h| h.matmul_resident_factor = None);
    for runtime in [Runtime::Eager, Runtime::Compile] {
        let e = estimate(&a, &hw, LaunchMode::Graph, runtime).expect("estimate");
        let c = estimate(&a, &cold, LaunchMode::Graph, runtime).expect("estimate");
        let (p, q) = (
            kernel(&a, &e, "pv").prediction,
            kernel(&a, &c, "pv").prediction,
        );
        assert!(q.memory_s > q.compute_s, "{q:?}");
        let moved = (q.dram_read + q.dram_written) as f64;
        let resident = (2 * 4 * 16 * 384 * 384 + q.dram_written) as f64;
        let stays = 1.0 / (1.0 + (moved / model.l2_effective_bytes).powf(x));
        let want = q.memory_s * (1.0 - stays * (1.0 - f) * resident / moved);
        assert!((p.memory_s / want - 1.0).abs() < 1e-9, "{p:?} {want}");
        assert!(p.kernel_s < q.kernel_s);
    }
}

#[test]
fn a_cache_an_update_appends_to_and_weights_stay_in_dram() {
    // A decode step's scores against a cache (`update` writes one row) times a weight-sized
    // operand: nothing the matmul reads is resident, only what it writes.
    let src = "graph g {\n  input c: f16[8, 1024, 64]\n  input r: f16[8, 1, 64]\n  input q: f16[8, 1, 64]\n  \
               op u = update(c, r, axis = 1, start = 1023) -> ca\n  \
               op t = permute(ca, dims = [0, 2, 1]) -> ct\n  \
               op s = matmul(q, ct) -> sc: [8, 1, 1024]\n  \
               op h = elementwise.relu(r) -> rr\n  op ht = permute(rr, dims = [0, 2, 1]) -> rt\n  \
               op hs = matmul(q, rt) -> hc: [8, 1, 1]\n  output sc\n  output hc\n}\n";
    let a = analysis(src);
    let g = &a.graph;
    let s = g.ops.iter().position(|o| o.name == "s").expect("s");
    let ct = g.op(OpId(s as u32)).inputs[1].tensor;
    assert!(!written_whole(g, ct));
    let q = g.op(OpId(s as u32)).inputs[0].tensor;
    assert!(!written_whole(g, q));
    assert_eq!(resident_bytes(g, &[OpId(s as u32)], 100), 100);
    // A view of a tensor an op wrote whole is resident.
    let hs = g.ops.iter().position(|o| o.name == "hs").expect("hs");
    let rt = g.op(OpId(hs as u32)).inputs[1].tensor;
    assert!(written_whole(g, rt));
    assert_eq!(
        resident_bytes(g, &[OpId(hs as u32)], 100),
        100 + g.tensor(rt).bytes
    );
}

#[test]
fn a_convolution_of_one_implicit_gemm_overlaps_its_overhead_too() {
    // ResNet-50's 3×3 conv of layer 3 at batch 36, channels-last: one compute-bound implicit
    // GEMM (VALIDATION.md §39).
    let src = "graph g {\n  input x: f16[36, 256, 14, 14]\n  weight w: f16[256, 256, 3, 3]\n  \
               op c = conv(x, w, padding = 1, channels_last = true) -> y: [36, 256, 14, 14]\n  \
               output y\n}\n";
    let a = analysis(src);
    let hw = Hardware::preset("h100").expect("preset");
    let q = hw
        .model
        .as_ref()
        .and_then(|m| m.host.as_ref())
        .and_then(|h| h.matmul_overlap_exponent)
        .expect("matmul_overlap_exponent");
    let old = h100_with(|h| h.matmul_overlap_exponent = None);
    for runtime in [Runtime::Eager, Runtime::Compile] {
        let e = estimate(&a, &hw, LaunchMode::Graph, runtime).expect("estimate");
        let o = estimate(&a, &old, LaunchMode::Graph, runtime).expect("estimate");
        let (p, before) = (
            kernel(&a, &e, "c").prediction,
            kernel(&a, &o, "c").prediction,
        );
        assert_eq!(p.family, crate::cost::hwmodel::Family::Conv);
        assert!(p.overhead_s > 0.0, "{p:?}");
        let alone = p.compute_s - p.overhead_s;
        let want = (alone.powf(q) + p.overhead_s.powf(q)).powf(1.0 / q);
        let got = p.kernel_s / (1.0 + e.sustained_derate);
        assert!((got / want - 1.0).abs() < 1e-9, "{got} {want}");
        assert!(got < before.kernel_s / (1.0 + o.sustained_derate));
        assert_eq!(e.overlapped_gemms, 1);
    }
}

#[test]
fn a_compiled_one_row_bmm_copies_its_operand_first_and_a_one_row_mm_does_not() {
    // A decode's Q·Kᵀ over 8 heads (one query row each) and a pooler-like one-row activation
    // times a weight (an `mm` once folded): the first's kernel holds the memcpy of Q (read and
    // written, no launch of its own), the second's does not (VALIDATION.md §53).
    let src = "graph g {\n  dtype bf16\n  input q: [8, 1, 64]\n  input k: [8, 64, 512]\n  \
               input x: [8, 1, 256]\n  weight w: [256, 256]\n  \
               op s = matmul(q, k) -> sc: [8, 1, 512]\n  \
               op m = matmul(x, w) -> y: [8, 1, 256]\n  output sc, y\n}\n";
    let (a, e) = super::tests::run(src, Runtime::Compile);
    let ks = super::tests::kernels(&a, &e);
    assert_eq!(ks, ["kernel:s", "kernel:m"], "{ks:?}");
    let q = 8 * 64 * 2;
    let (s, m) = (&e.kernels[0].prediction, &e.kernels[1].prediction);
    assert_eq!(s.dram_written, 8 * 512 * 2 + q);
    assert_eq!(m.dram_written, 8 * 256 * 2);
    assert_eq!(e.cuda_kernels(), 2);
}
