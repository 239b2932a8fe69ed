//! The row of `matmul`: `[..., M, K] × [..., K, N]`, starts its kernel (rule 1), one per
//! kernel (rule 5), `2·K` FLOPs per output element on the tensor cores.

use super::{Compute, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::graph::{Graph, OpNode, TensorUse};
use crate::types::OpKind;

pub const MATMUL: OpSpec = OpSpec {
    kind: OpKind::Matmul,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: super::two("a matmul multiplies two tensors: `matmul(a, b)`"),
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: false,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

fn flops(g: &Graph, op: &OpNode) -> (u64, FlopSource) {
    let out = elements(&g.tensor(op.output).shape);
    // K is the last dim of the first operand as read.
    let k = op
        .inputs
        .first()
        .and_then(|u| use_last_dim(g, u))
        .unwrap_or(1);
    (out.saturating_mul(k).saturating_mul(2), FlopSource::Matmul)
}

/// The last dim of the shape an op reads through a view, without building it.
fn use_last_dim(g: &Graph, u: &TensorUse) -> Option<u64> {
    let shape = &g.tensor(u.tensor).shape;
    let shape = match u.index {
        Some(_) => shape.get(1..).unwrap_or(&[]),
        None => shape.as_slice(),
    };
    let r = shape.len();
    if u.transpose && r >= 2 {
        Some(shape[r - 2])
    } else {
        shape.last().copied()
    }
}
