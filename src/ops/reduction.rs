//! The row of `reduction.F`: ends its kernel (rule 2), `funcs(F)` FLOPs per element of the
//! larger of its first input and its output, reads and writes whole tensors.

use super::{Compute, FuseClass, OpSpec, elements, function_flops, output, use_elements, whole};
use crate::graph::{Graph, OpNode};
use crate::types::OpKind;

pub const REDUCTION: OpSpec = OpSpec {
    kind: OpKind::Reduction,
    class: FuseClass::Reduction,
    compute: Compute::Vector,
    arity: super::ANY,
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: true,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

fn flops(g: &Graph, op: &OpNode) -> (u64, super::FlopSource) {
    let out = elements(&g.tensor(op.output).shape);
    let input = op.inputs.first().map(|u| use_elements(g, u)).unwrap_or(0);
    function_flops(op, input.max(out))
}
