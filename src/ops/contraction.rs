//! The row of `matmul`: `[..., M, K] × [..., K, N]`, starts its kernel (rule 1), one per
//! kernel (rule 5), `2·K` FLOPs per output element on the tensor cores.

use super::{Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::types::OpKind;

pub const MATMUL: OpSpec = OpSpec {
    kind: OpKind::Matmul,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: super::two("a matmul multiplies two tensors: `matmul(a, b)`"),
    attrs: &[],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: false,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

fn flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    // K is the last dim of the first operand as read.
    let k = a.first.and_then(last_dim).unwrap_or(1);
    let n = elements(a.out).and_then(|e| e.checked_mul(k)?.checked_mul(2));
    (n, FlopSource::Matmul)
}

/// The last dim of a shape read through `.T` or not, without building the view.
fn last_dim((shape, transpose): (&[u64], bool)) -> Option<u64> {
    let r = shape.len();
    if transpose && r >= 2 {
        Some(shape[r - 2])
    } else {
        shape.last().copied()
    }
}
