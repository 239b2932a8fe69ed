//! The row of `elementwise.F`: pointwise, `funcs(F)` FLOPs per output element, reads and
//! writes whole tensors.

use super::{
    Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, function_flops, output, whole,
};
use crate::types::OpKind;

pub const ELEMENTWISE: OpSpec = OpSpec {
    kind: OpKind::Elementwise,
    class: FuseClass::Pointwise,
    compute: Compute::Vector,
    arity: super::ANY,
    attrs: &[],
    injective: true,
    cheap_to_recompute: true,
    accepts_copies: true,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

fn flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    function_flops(a.func, elements(a.out))
}
