//! Unit tests of the runtimes on small graphs: views against copies (eager), each rewrite
//! (compile).

use super::*;
use crate::analysis::{Options, check_file};

/// The runtime's estimate of `src` on the H100 preset, CUDA graphs.
fn run(src: &str, runtime: Runtime) -> (Analysis, RuntimeEstimate) {
    let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        r.diagnostics
    );
    let a = r.graphs[0].analysis.clone().expect("analysis");
    let hw = Hardware::preset("h100").expect("preset");
    let e = estimate(&a, &hw, LaunchMode::Graph, runtime).expect("estimate");
    (a, e)
}

/// Each kernel as `what:op,op` (a copy as `copy(tensor)`).
fn kernels(a: &Analysis, e: &RuntimeEstimate) -> Vec<String> {
    let g = &a.graph;
    e.kernels
        .iter()
        .map(|k| {
            let ops: Vec<&str> = k.ops.iter().map(|&o| g.op(o).name.as_str()).collect();
            match &k.what {
                What::Copy { tensor, reason, .. } => {
                    format!(
                        "copy({}, {}){}",
                        g.tensor(*tensor).name,
                        reason.as_str(),
                        if ops.is_empty() {
                            String::new()
                        } else {
                            format!(":{}", ops.join(","))
                        }
                    )
                }
                w => format!("{}:{}", w.as_str(), ops.join(",")),
            }
        })
        .collect()
}

#[test]
fn eager_views_cost_nothing_and_a_reshape_of_a_permute_copies() {
    let src = "graph g {\n  dtype bf16\n  input q: [1024, 2048]\n  weight w: [2048, 2048]\n  op split = reshape(q) -> q3: [1024, 16, 128]\n  op heads = permute(q3, dims = [1, 0, 2]) -> qh\n  op lo = slice(qh, axis = -1, start = 0, end = 64) -> q1\n  op neg = elementwise.neg(q1) -> qn\n  op back = permute(qh, dims = [1, 0, 2]) -> qb\n  op merge = reshape(qb) -> qm: [1024, 2048]\n  op heads2 = permute(q3, dims = [1, 0, 2]) -> qh2\n  op merge2 = reshape(qh2) -> qm2: [16, 131072]\n  op proj = matmul(qm, w) -> o\n  output qn, o, qm2\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    // split, heads, lo, back (permuting back makes it contiguous), merge (a view of that) and
    // heads2 are views; merge2 flattens the permuted heads: a copy.
    assert_eq!(
        kernels(&a, &e),
        ["kernel:neg", "copy(qh2, reshape):merge2", "kernel:proj"]
    );
    assert_eq!(e.views, 6);
}

#[test]
fn eager_matmul_copies_a_broadcast_k_and_takes_a_transposed_one_as_is() {
    // Grouped-query attention by broadcast: K and V [8, 1, S, D] against 4 query heads each.
    let src = "graph g {\n  dtype bf16\n  input q: [8, 4, 256, 128]\n  input k: [8, 1, 256, 128]\n  input v: [8, 1, 256, 128]\n  op s = matmul(q, k.T) -> sc\n  op p = reduction.softmax(sc, axis = -1) -> pr: [8, 4, 256, 256]\n  op o = matmul(pr, v) -> out\n  op plain = matmul(q, q.T) -> qq\n  output out, qq\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        [
            "copy(k, broadcast)",
            "kernel:s",
            "kernel:p",
            "copy(v, broadcast)",
            "kernel:o",
            "kernel:plain"
        ]
    );
    // The copy writes the broadcast K (4x its bytes) and reads K once.
    let c = &e.kernels[0].prediction;
    assert_eq!(c.dram_written, 8 * 4 * 256 * 128 * 2);
    assert_eq!(c.dram_read, 8 * 256 * 128 * 2);
}

#[test]
fn eager_softmax_of_a_permuted_tensor_is_made_contiguous_first_but_elementwise_is_not() {
    let src = "graph g {\n  dtype f16\n  input x: [64, 128, 256]\n  op t = permute(x, dims = [0, 2, 1]) -> xt\n  op e = elementwise.exp(xt) -> y\n  op s = reduction.softmax(xt, axis = -1) -> z: [64, 256, 128]\n  output y, z\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        ["kernel:e", "copy(xt, contiguous)", "kernel:s"]
    );
    // A transposing copy.
    let t = &e.kernels[1];
    assert!(t.prediction.kernel_s > 0.0);
}

#[test]
fn eager_cast_to_its_own_dtype_is_no_kernel() {
    let src = "graph g {\n  dtype bf16\n  input x: [1024, 1024]\n  op same = elementwise.cast(x) -> y: bf16[1024, 1024]\n  op up = elementwise.cast(y) -> z: f32[1024, 1024]\n  output z\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(kernels(&a, &e), ["kernel:up"]);
    assert_eq!(e.views, 1);
}
