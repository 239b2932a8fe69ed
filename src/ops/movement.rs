//! The data-movement kinds that fuse like elementwise ops: `concat`, `gather`, `update`. No
//! FLOPs. A `gather` reads only the rows it touches of its table; an `update` writes only
//! its new rows into the buffer, which it does not read, at the buffer's dtype.

use super::funcs::{AttrType, attr};
use super::{Arity, Compute, FuseClass, OpSpec, no_flops, output, two, whole};
use crate::graph::{Graph, OpNode};
use crate::types::OpKind;

const fn movement(kind: OpKind, arity: Arity) -> OpSpec {
    OpSpec {
        kind,
        class: FuseClass::Pointwise,
        compute: Compute::Vector,
        arity,
        attrs: &[],
        injective: false,
        cheap_to_recompute: false,
        accepts_copies: true,
        partial_reads: false,
        flops: no_flops,
        read: whole,
        write: output,
    }
}

pub const CONCAT: OpSpec = OpSpec {
    attrs: &[attr(
        "axis",
        AttrType::Axis,
        "the axis the tensors are joined along",
    )],
    injective: true,
    ..movement(
        OpKind::Concat,
        Arity {
            min: 2,
            max: usize::MAX,
            text: "at least 2 tensors",
            help: "a concat joins two or more tensors: `concat(a, b, axis = -1)`",
        },
    )
};

pub const GATHER: OpSpec = OpSpec {
    attrs: &[attr(
        "axis",
        AttrType::Axis,
        "the axis of the table the indices pick (default 0)",
    )],
    partial_reads: true,
    accepts_copies: false,
    read: gather_read,
    ..movement(
        OpKind::Gather,
        two("a gather takes a table and indices: `gather(table, ids, axis = 0)`"),
    )
};

pub const UPDATE: OpSpec = OpSpec {
    attrs: &[
        attr(
            "axis",
            AttrType::Axis,
            "the axis of the buffer written along",
        ),
        attr(
            "start",
            AttrType::Int {
                min: 0,
                max: i64::MAX,
            },
            "the first index written",
        ),
    ],
    partial_reads: true,
    accepts_copies: false,
    read: update_read,
    write: update_write,
    ..movement(
        OpKind::Update,
        two(
            "an update takes the buffer and the new rows: `update(cache, new, axis = 1, start = T)`",
        ),
    )
};

/// The table (argument 0): the rows touched, `min(indices, table.shape[axis])` slices along
/// `axis`.
fn gather_read(g: &Graph, op: &OpNode, k: usize) -> Option<u64> {
    let u = op.inputs.get(k)?;
    if k != 0 {
        return None;
    }
    let table = g.use_shape(u);
    let rank = table.len() as i64;
    let axis = op.int_attr("axis").unwrap_or(0);
    let axis = if axis < 0 { axis + rank } else { axis };
    let dim = *table.get(usize::try_from(axis).ok()?)?;
    let indices = op.inputs.get(1).map_or(0, |ids| {
        g.use_shape(ids)
            .iter()
            .try_fold(1u64, |a, &d| a.checked_mul(d))
            .unwrap_or(u64::MAX)
    });
    // rows ≤ dim, so rows · (bytes / dim) ≤ bytes: no overflow.
    Some(indices.min(dim) * (g.use_bytes(u) / dim.max(1)))
}

/// The buffer (argument 0) is not read: the new rows are written into it in place.
fn update_read(_: &Graph, op: &OpNode, k: usize) -> Option<u64> {
    op.inputs.get(k)?;
    (k == 0).then_some(0)
}

/// Only the new rows (argument 1) are written, at the buffer's dtype (rows of another dtype
/// are converted: the warning `dtype-mismatch`).
fn update_write(g: &Graph, op: &OpNode) -> u64 {
    let out = g.tensor(op.output);
    match op.inputs.get(1) {
        Some(new) => {
            // A whole number of elements; they fit in the buffer, so their bytes at its dtype
            // are at most its bytes.
            let elements = g.use_bytes(new) / g.tensor(new.tensor).dtype.bytes().max(1);
            elements
                .checked_mul(out.dtype.bytes())
                .map_or(out.bytes, |b| b.min(out.bytes))
        }
        None => out.bytes,
    }
}
