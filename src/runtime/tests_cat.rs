//! Unit tests of PyTorch's `torch.cat` under `--runtime eager` (`eager::cat_by_copies`,
//! VALIDATION.md §55): an output of more than four dimensions is one `copy_` per input, a
//! kernel each unless source and destination are both one contiguous range (a memcpy);
//! under plain launches the host pays for the one call.

use super::tests::run;
use super::*;
use crate::cost::Hardware;

/// RoPE's rotation of `[B, KV heads, group, S, D]` heads, as `fgraph import hf` writes it.
fn rotation(shape: &str) -> String {
    format!(
        "graph g {{\n  dtype bf16\n  input q: [{shape}, 64]\n  \
         op lo = slice(q, axis = -1, start = 0, end = 32) -> t1\n  \
         op hi = slice(q, axis = -1, start = 32, end = 64) -> t2\n  \
         op neg = elementwise.mul(t2, -1) -> t2n\n  \
         op rot = concat(t2n, t1, axis = -1) -> r\n  output r\n}}\n"
    )
}

fn cat_kernel(src: &str) -> (usize, RuntimeKernel) {
    let (a, e) = run(src, Runtime::Eager);
    let k = e
        .kernels
        .iter()
        .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "rot"))
        .expect("rot")
        .clone();
    (e.kernels.iter().map(|k| k.launches).sum(), k)
}

#[test]
fn a_cat_of_five_dimensions_is_a_copy_per_input() {
    // Llama-3.2-1B's query rotation at 1,024 tokens: the profiler's two
    // `direct_copy_kernel_cuda` kernels, one call.
    let (all, k) = cat_kernel(&rotation("1, 8, 4, 1024"));
    assert_eq!((k.launches, k.prediction.extra_launches), (2, 1));
    assert_eq!(all, 3, "neg and the two copies");
    // Four dimensions: PyTorch's batched cat kernel, one launch.
    let (all, k) = cat_kernel(&rotation("8, 4, 1024"));
    assert_eq!((k.launches, all), (1, 2));
    // Every dimension before the last of size 1 and both inputs contiguous: memcpys, no
    // kernel, priced as the one cat kernel (no launch is removed).
    let src = "graph g {\n  dtype bf16\n  input a: [1, 1, 1, 1, 32]\n  input b: [1, 1, 1, 1, 32]\n  \
               op rot = concat(a, b, axis = -1) -> r\n  output r\n}\n";
    let (_, k) = cat_kernel(src);
    assert_eq!(k.launches, 1);
}

#[test]
fn the_host_issues_a_cat_of_copies_as_one_call() {
    let a = tests::analysis_of(&rotation("1, 8, 4, 1024"));
    let hw = Hardware::preset("h100").expect("preset");
    let e = estimate(&a, &hw, LaunchMode::Eager, Runtime::Eager).expect("estimate");
    let h = e.host_s.expect("host");
    // Three CUDA kernels (neg and two copies), two calls: the host's time is two figures,
    // and the GPU's kernels are short, so the step is the host's plus the last kernel's.
    let last = e.kernels.last().expect("kernel").prediction.time_s;
    assert!(
        e.time_s < 2.0 * h + last + 1e-9,
        "{} vs {}",
        e.time_s,
        2.0 * h + last
    );
    assert!(e.time_s > 2.0 * h, "{} vs {}", e.time_s, 2.0 * h);
}

#[test]
fn a_cat_of_contiguous_aligned_inputs_runs_the_vectorized_kernel() {
    // A decode step's KV-cache append as transformers' DynamicCache does it: the cache and the
    // new row, both contiguous. PyTorch's `CatArrayBatchedCopy_vectorized` streams it (4.3 µs
    // measured for Qwen2.5-1.5B at 4 × 2,047, VALIDATION.md §56), well under the generic
    // batched kernel's rate that a strided input keeps.
    let append = "graph g {\n  dtype bf16\n  input cache: [4, 2, 2047, 128]\n  input new: [4, 2, 1, 128]\n  op rot = concat(cache, new, axis = 2) -> all: [4, 2, 2048, 128]\n  output all\n}\n";
    let (_, fast) = cat_kernel(append);
    let strided = append
        .replace("input new: [4, 2, 1, 128]", "input two: [4, 2, 2, 128]")
        .replace(
            "  op rot",
            "  op one = slice(two, axis = 2, start = 0, end = 1) -> new\n  op rot",
        );
    let (_, slow) = cat_kernel(&strided);
    assert!(
        fast.prediction.kernel_s * 1.8 < slow.prediction.kernel_s,
        "{} vs {}",
        fast.prediction.kernel_s,
        slow.prediction.kernel_s
    );
    assert!(
        (3e-6..7e-6).contains(&fast.prediction.kernel_s),
        "{}",
        fast.prediction.kernel_s
    );
    // Rows of 8 bytes do not align to a vector load: the generic kernel.
    let unaligned = append.replace("128]", "4]");
    let (_, k) = cat_kernel(&unaligned);
    let (_, k2) = cat_kernel(&strided.replace("128]", "4]"));
    assert!((k.prediction.kernel_s - k2.prediction.kernel_s).abs() < 1e-9);
}
