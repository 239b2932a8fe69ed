//! The row of `reduction.F`: ends its kernel (rule 2), `funcs(F)` FLOPs per element of the
//! larger of its first input and its output, reads and writes whole tensors.

use super::{
    Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, function_flops, output, whole,
};
use crate::types::OpKind;

pub const REDUCTION: OpSpec = OpSpec {
    kind: OpKind::Reduction,
    class: FuseClass::Reduction,
    compute: Compute::Vector,
    arity: super::ANY,
    attrs: &[],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: true,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

fn flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    // A transpose does not change the count.
    let input = a.first.map_or(Some(0), |(s, _)| elements(s));
    let n = elements(a.out).zip(input).map(|(o, i)| o.max(i));
    function_flops(a.func, n)
}
