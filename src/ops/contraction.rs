//! The row of `matmul`: `[..., M, K] × [..., K, N]`, starts its kernel (rule 1), one per
//! kernel (rule 5), `2·K` FLOPs per output element on the tensor cores.
//!
//! An optional third tensor is a bias `[N]` added to every row in the GEMM's epilogue:
//! `matmul(x, w, b)` is `nn.Linear`'s `F.linear(x, wᵀ, b)`, one cuBLAS kernel (cuBLASLt's
//! bias epilogue) where `matmul(x, w)` and an `add` are two under PyTorch eager. One FLOP more
//! per output element; the bias is read once.

use super::{Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::types::OpKind;

pub const MATMUL: OpSpec = OpSpec {
    kind: OpKind::Matmul,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: super::Arity {
        min: 2,
        max: 3,
        text: "2 or 3 tensors",
        help: "a matmul multiplies two tensors, with an optional bias [N] added to every row \
               (nn.Linear): `matmul(a, b)`, `matmul(x, w, b)`",
    },
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
    // A bias adds one FLOP per output element.
    let per = k
        .checked_mul(2)
        .and_then(|f| f.checked_add(u64::from(has_bias(a.inputs))));
    let n = elements(a.out).and_then(|e| e.checked_mul(per?));
    (n, FlopSource::Matmul)
}

/// Whether a matmul of `inputs` tensors takes a bias (its third tensor).
pub fn has_bias(inputs: usize) -> bool {
    inputs == 3
}

/// Whether op `o` is a matmul with a bias (`matmul(x, w, b)`).
pub fn is_biased(g: &crate::graph::Graph, o: crate::graph::OpId) -> bool {
    let op = g.op(o);
    op.kind == OpKind::Matmul && has_bias(op.inputs.len())
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
