//! The row of `elementwise.F`: pointwise, `funcs(F)` FLOPs per output element, reads and
//! writes whole tensors.

use super::{Compute, FuseClass, OpSpec, elements, function_flops, output, whole};
use crate::graph::{Graph, OpNode};
use crate::types::OpKind;

pub const ELEMENTWISE: OpSpec = OpSpec {
    kind: OpKind::Elementwise,
    class: FuseClass::Pointwise,
    compute: Compute::Vector,
    arity: super::ANY,
    injective: true,
    cheap_to_recompute: true,
    accepts_copies: true,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

fn flops(g: &Graph, op: &OpNode) -> (u64, super::FlopSource) {
    function_flops(op, elements(&g.tensor(op.output).shape))
}
