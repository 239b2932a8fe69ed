//! The routing and indexing kinds (issue 23): what a mixture-of-experts layer runs between its
//! router and its experts, and the scans and shifts beside them.
//!
//! | kind | class | FLOPs | reads | writes |
//! |---|---|---|---|---|
//! | `topk(x, k, axis)` | reduction | 1 per element of `x` | `x` | the values |
//! | `topk_indices(values)` | pointwise | 0 | nothing | the indices |
//! | `sort(x, axis, descending)` | reduction | 1 per element | `x` | the values |
//! | `argsort(x, axis, descending)` | reduction | 1 per element | `x` | the indices |
//! | `index_add(dest, ids, src, axis)` | reduction | 1 per element of `src` | `src`, `ids`, the rows of `dest` touched | the rows touched |
//! | `cumsum(x, axis)` | reduction | 1 per element | `x` | the sums |
//! | `one_hot(ids, classes)` | pointwise | 1 per output element | `ids` | `[.., C]` |
//! | `roll(x, shifts, dims)` | layout | 0 | `x` | a copy of `x` |
//!
//! `torch.topk` returns values and indices from one kernel. fgraph ops have one output, so the
//! pair is written as two ops, `topk(x, ..) -> v` then `topk_indices(v) -> ids`: the second
//! names the first's output, which marks the pair, and is priced at its output bytes only (it
//! reads nothing: the indices are found with the values). `index_select` is `gather`
//! (`movement`), which already takes a table and an index tensor along an axis.

use super::funcs::{AttrSpec, AttrType, attr};
use super::{
    Arity, Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, one, output, whole,
};
use crate::graph::{Graph, OpNode};
use crate::types::OpKind;

/// The kinds of this module: their attributes are checked by type and range from their rows
/// (`sema::funcs`), as functions' are.
pub const KINDS: &[OpKind] = &[
    OpKind::Topk,
    OpKind::TopkIndices,
    OpKind::Sort,
    OpKind::Argsort,
    OpKind::IndexAdd,
    OpKind::Cumsum,
    OpKind::OneHot,
    OpKind::Roll,
];

const AXIS: AttrSpec = attr(
    "axis",
    AttrType::Axis,
    "the axis the op runs along (default -1)",
);
const DESCENDING: AttrSpec = attr(
    "descending",
    AttrType::Bool,
    "`true` sorts from the largest (default `false`, ascending)",
);

const fn routing(kind: OpKind, class: FuseClass, arity: Arity) -> OpSpec {
    OpSpec {
        kind,
        class,
        compute: Compute::Vector,
        arity,
        attrs: &[],
        injective: false,
        cheap_to_recompute: false,
        accepts_copies: true,
        partial_reads: false,
        flops: per_input_element,
        read: whole,
        write: output,
    }
}

pub const TOPK: OpSpec = OpSpec {
    attrs: &[
        AttrSpec {
            required: true,
            ..attr(
                "k",
                AttrType::Int {
                    min: 1,
                    max: i64::MAX,
                },
                "how many values are kept along `axis`",
            )
        },
        AXIS,
        attr(
            "largest",
            AttrType::Bool,
            "`false` keeps the k smallest (default `true`)",
        ),
    ],
    ..routing(
        OpKind::Topk,
        FuseClass::Reduction,
        one("a topk takes one tensor: `topk(probs, k = 2, axis = -1)`"),
    )
};

pub const TOPK_INDICES: OpSpec = OpSpec {
    partial_reads: true,
    accepts_copies: false,
    injective: true,
    flops: no_arithmetic,
    read: nothing,
    // Ends its kernel: the indices are written by the top-k kernels and read back by whatever
    // uses them (a consumer fused in would read them from nowhere).
    ..routing(
        OpKind::TopkIndices,
        FuseClass::Reduction,
        one(
            "a topk_indices takes the values of a topk op: `topk(probs, k = 2) -> w` then \
             `topk_indices(w) -> ids: i32[..]`",
        ),
    )
};

pub const SORT: OpSpec = OpSpec {
    attrs: &[AXIS, DESCENDING],
    ..routing(
        OpKind::Sort,
        FuseClass::Reduction,
        one("a sort takes one tensor: `sort(x, axis = -1)`"),
    )
};

pub const ARGSORT: OpSpec = OpSpec {
    attrs: &[AXIS, DESCENDING],
    ..routing(
        OpKind::Argsort,
        FuseClass::Reduction,
        one("an argsort takes one tensor: `argsort(ids, axis = -1) -> order: i32[..]`"),
    )
};

pub const INDEX_ADD: OpSpec = OpSpec {
    attrs: &[attr(
        "axis",
        AttrType::Axis,
        "the axis of `dest` the ids pick (default 0)",
    )],
    partial_reads: true,
    accepts_copies: false,
    flops: per_source_element,
    read: index_add_read,
    write: index_add_write,
    ..routing(
        OpKind::IndexAdd,
        FuseClass::Reduction,
        Arity {
            min: 3,
            max: 3,
            text: "exactly 3 tensors",
            help: "an index_add takes the destination, the indices and the rows added: \
                   `index_add(out, ids, rows, axis = 0)`",
        },
    )
};

pub const CUMSUM: OpSpec = OpSpec {
    attrs: &[AXIS],
    ..routing(
        OpKind::Cumsum,
        FuseClass::Reduction,
        one("a cumsum takes one tensor: `cumsum(x, axis = -1)`"),
    )
};

pub const ONE_HOT: OpSpec = OpSpec {
    attrs: &[AttrSpec {
        required: true,
        ..attr(
            "classes",
            AttrType::Int {
                min: 1,
                max: i64::MAX,
            },
            "the number of classes: the length of the new last axis",
        )
    }],
    injective: true,
    flops: per_output_element,
    ..routing(
        OpKind::OneHot,
        FuseClass::Pointwise,
        one("a one_hot takes one tensor of ids: `one_hot(ids, classes = 8)`"),
    )
};

pub const ROLL: OpSpec = OpSpec {
    attrs: &[
        AttrSpec {
            required: true,
            ..attr(
                "shifts",
                AttrType::Axes,
                "how far each axis of `dims` is shifted (one number, or one per axis)",
            )
        },
        attr(
            "dims",
            AttrType::Axes,
            "the axes shifted (default: the tensor flattened, as `torch.roll`)",
        ),
    ],
    injective: true,
    cheap_to_recompute: true,
    flops: no_arithmetic,
    ..routing(
        OpKind::Roll,
        FuseClass::Layout,
        one("a roll takes one tensor: `roll(x, shifts = [1], dims = [0])`"),
    )
};

/// 1 FLOP per element of the first input (a comparison, an addition).
fn per_input_element(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let n = a.first.map_or(Some(0), |(s, _)| elements(s));
    (n, FlopSource::PerElement)
}

/// 1 FLOP per output element (`one_hot`'s comparison).
fn per_output_element(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    (elements(a.out), FlopSource::PerElement)
}

/// 1 addition per element of the rows added (`index_add`'s third argument).
fn per_source_element(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    (a.third.map_or(Some(0), elements), FlopSource::PerElement)
}

fn no_arithmetic(_: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    (Some(0), FlopSource::DataMovement)
}

/// Reads nothing: `topk_indices`'s argument is the values its indices were found with.
fn nothing(_: &Graph, op: &OpNode, k: usize) -> Option<u64> {
    op.inputs.get(k)?;
    Some(0)
}

/// The rows of `dest` (argument 0) the ids touch: `min(len(ids), dest.shape[axis])` of them.
fn touched_rows(g: &Graph, op: &OpNode) -> Option<u64> {
    let dest = op.inputs.first()?;
    let shape = g.use_shape(dest);
    let rank = shape.len() as i64;
    let axis = op.int_attr("axis").unwrap_or(0);
    let axis = if axis < 0 { axis + rank } else { axis };
    let dim = *shape.get(usize::try_from(axis).ok()?)?;
    let ids = op
        .inputs
        .get(1)
        .map_or(0, |ids| elements(&g.use_shape(ids)).unwrap_or(u64::MAX));
    // rows ≤ dim, so rows · (bytes / dim) ≤ bytes: no overflow.
    Some(ids.min(dim) * (g.use_bytes(dest) / dim.max(1)))
}

/// `dest` is read where it is added to (the touched rows); the ids and the rows added whole.
fn index_add_read(g: &Graph, op: &OpNode, k: usize) -> Option<u64> {
    op.inputs.get(k)?;
    if k == 0 { touched_rows(g, op) } else { None }
}

/// Only the touched rows of `dest` are written (in place, as `Tensor.index_add_`).
fn index_add_write(g: &Graph, op: &OpNode) -> u64 {
    let out = g.tensor(op.output).bytes;
    touched_rows(g, op).map_or(out, |b| b.min(out))
}
