//! The row of `conv` (issue 23): a 1-, 2- or 3-D convolution in PyTorch's layout, input
//! `[N, C, *spatial]`, weight `[K, C/groups, *kernel]`, output `[N, K, *out]` with
//! `out = floor((L + 2p - d(k-1) - 1) / s) + 1` per spatial dim (the shape rule is
//! `crate::sema::conv`). A contraction: it starts its kernel as a matmul does (rule 1), one
//! per kernel (rule 5), and takes an elementwise epilogue (a bias, an activation, a residual)
//! under the matmul-epilogue rules. `2 · (C/groups) · prod(kernel)` FLOPs per output element
//! on the tensor cores; it reads its input and weight once and writes its output once (an
//! implicit GEMM: no im2col buffer). `channels_last = true` states the memory layout
//! (`torch.channels_last`); shapes are written in the logical `[N, C, *spatial]` order either
//! way, as PyTorch prints them. The hardware model prices the layouts apart
//! (`crate::cost::hwmodel`'s `conv` family).

use super::funcs::{AttrSpec, AttrType, attr};
use super::{Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::types::OpKind;

/// A positive integer, or a list of them, one per spatial dim (the shape rule checks lists).
const POSITIVE: AttrType = AttrType::Int {
    min: 1,
    max: i64::MAX,
};

/// The attributes of `conv`, in the order the manual lists them.
pub const ATTRS: &[AttrSpec] = &[
    attr(
        "stride",
        POSITIVE,
        "the step of the window: one value, or a list with one per spatial dim (default 1)",
    ),
    attr(
        "padding",
        AttrType::Int {
            min: 0,
            max: i64::MAX,
        },
        "zeros added on both sides: one value, or a list with one per spatial dim (default 0)",
    ),
    attr(
        "dilation",
        POSITIVE,
        "the spacing of the kernel's taps: one value, or a list with one per spatial dim \
         (default 1)",
    ),
    attr(
        "groups",
        POSITIVE,
        "channel groups: C and K divisible by it; groups = C is a depthwise conv (default 1)",
    ),
    attr(
        "channels_last",
        AttrType::Bool,
        "the tensors are stored channels-last (`torch.channels_last`); shapes are still \
         written [N, C, *spatial] (default false: contiguous NCHW)",
    ),
];

pub const CONV: OpSpec = OpSpec {
    kind: OpKind::Conv,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: super::two(
        "a conv takes an input and a weight: `conv(x, w, stride = 2, padding = 3)`; add a bias \
         with `elementwise.add`",
    ),
    attrs: ATTRS,
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: false,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

/// `2 · (C/groups) · prod(kernel)` per output element: the weight's elements per output
/// channel (`prod(weight[1..])`), whatever view it is read through (a transpose of a weight
/// of rank 3 or more keeps that product).
fn flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let per_output = a.second.and_then(|w| w.get(1..)).map_or(Some(1), elements);
    let n = elements(a.out)
        .zip(per_output)
        .and_then(|(e, k)| e.checked_mul(k)?.checked_mul(2));
    (n, FlopSource::Conv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flops_are_two_per_tap_and_input_channel() {
        // ResNet-50's stem: [32, 64, 112, 112] from a [64, 3, 7, 7] weight.
        let args = FlopArgs {
            out: &[32, 64, 112, 112],
            first: Some((&[32, 3, 224, 224], false)),
            second: Some(&[64, 3, 7, 7]),
            func: None,
            third: None,
            ints: &[],
            extra: None,
            inputs: 2,
        };
        assert_eq!(
            flops(&args),
            (Some(2 * 32 * 64 * 112 * 112 * 3 * 49), FlopSource::Conv)
        );
        let huge = FlopArgs {
            out: &[1 << 40, 1 << 20],
            first: None,
            second: Some(&[1, 1 << 10]),
            func: None,
            third: None,
            ints: &[],
            extra: None,
            inputs: 2,
        };
        assert_eq!(flops(&huge).0, None);
    }
}
