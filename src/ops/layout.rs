//! The layout kinds: `reshape`, `slice`, `permute`, `expand`. Free inside a kernel (a view of
//! a value on chip), a copy when alone; no FLOPs. A `slice` reads only its part of the input
//! (the output's bytes).

use super::funcs::{AttrType, attr};
use super::{
    Arity, Compute, FlopArgs, FlopSource, FuseClass, OpSpec, no_flops, one, output, whole,
};
use crate::graph::{Graph, OpNode};
use crate::types::OpKind;

const fn layout(kind: OpKind, arity: Arity, cheap: bool) -> OpSpec {
    OpSpec {
        kind,
        class: FuseClass::Layout,
        compute: Compute::Vector,
        arity,
        attrs: &[],
        injective: true,
        cheap_to_recompute: cheap,
        accepts_copies: true,
        partial_reads: false,
        flops: no_flops,
        read: whole,
        write: output,
    }
}

pub const RESHAPE: OpSpec = OpSpec {
    flops: reshape_flops,
    ..layout(
        OpKind::Reshape,
        one("a reshape takes one tensor: `reshape(t) -> u: [..]`"),
        true,
    )
};

pub const SLICE: OpSpec = OpSpec {
    attrs: &[
        attr("axis", AttrType::Axis, "the axis sliced"),
        attr(
            "start",
            AttrType::Int {
                min: i64::MIN,
                max: i64::MAX,
            },
            "the first index kept (default 0)",
        ),
        attr(
            "end",
            AttrType::Int {
                min: i64::MIN,
                max: i64::MAX,
            },
            "one past the last index kept (default: the axis's size)",
        ),
        attr(
            "step",
            AttrType::Int {
                min: 1,
                max: i64::MAX,
            },
            "the distance between kept indices (default 1)",
        ),
    ],
    partial_reads: true,
    read: slice_read,
    ..layout(
        OpKind::Slice,
        one("a slice takes one tensor: `slice(x, axis = -1, start = 0, end = 64)`"),
        false,
    )
};

pub const PERMUTE: OpSpec = OpSpec {
    attrs: &[attr(
        "dims",
        AttrType::Axes,
        "the input's axes in their new order",
    )],
    ..layout(
        OpKind::Permute,
        one("a permute takes one tensor: `permute(x, dims = [0, 2, 1, 3])`"),
        true,
    )
};

pub const EXPAND: OpSpec = layout(
    OpKind::Expand,
    one("an expand takes one tensor: `expand(k) -> k2: [..]`"),
    true,
);

fn reshape_flops(_: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    (Some(0), FlopSource::Reshape)
}

/// A slice reads the sliced part of its input: the output's bytes.
fn slice_read(g: &Graph, op: &OpNode, k: usize) -> Option<u64> {
    let u = op.inputs.get(k)?;
    (k == 0).then(|| g.tensor(op.output).bytes.min(g.use_bytes(u)))
}
