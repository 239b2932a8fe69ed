//! The rows of the pooling kinds (issue 23): `max_pool`, `avg_pool` (windowed) and
//! `global_max_pool`, `global_avg_pool` (every spatial position: PyTorch's adaptive pooling to
//! 1×1), over `[N, C, *spatial]` with 1 to 3 spatial dims, in NCHW logical order
//! (`channels_last = true` says how the tensor is laid out in memory: it changes no shape and
//! no count, only the hardware model's price).
//!
//! **Fusion class: reduction.** An output element of a pool reads a window of neighbouring
//! input elements, so a pool is not pointwise: it cannot be a matmul's (or a convolution's)
//! epilogue, whose tiles do not hold a window's halo (rule 3), and it ends its kernel (rule
//! 2), as PyTorch runs it (one kernel of its own) and as `--reduction-epilogue` may relax for
//! any reduction. Pointwise producers fuse into it (a ReLU before a max pool is recomputed
//! for each window that reads an element, which is cheap), as into any reduction.
//!
//! **FLOPs:** one per window element of each output element (`elements(output) ·
//! prod(kernel)`; a global pool's window is every spatial position: one per input element).
//! **Bytes:** the input once and the output once (compulsory); the hardware model adds
//! what PyTorch's own max-pool kernel writes besides (its int64 indices).

use super::{Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::ops::funcs::{AttrSpec, AttrType, attr};
use crate::types::OpKind;

/// What `kernel` is, for the manual and messages.
pub const KERNEL_DOC: &str =
    "the window: one size for every spatial dim, or a list of one per spatial dim";
/// `kernel`: the window, one size or a list of one per spatial dim.
const KERNEL: AttrSpec = AttrSpec {
    required: true,
    ..attr(
        "kernel",
        AttrType::Int {
            min: 1,
            max: i64::MAX,
        },
        KERNEL_DOC,
    )
};
const STRIDE: AttrSpec = attr(
    "stride",
    AttrType::Int {
        min: 1,
        max: i64::MAX,
    },
    "the step between windows, one value or a list (default: the kernel)",
);
const PADDING: AttrSpec = attr(
    "padding",
    AttrType::Int {
        min: 0,
        max: i64::MAX,
    },
    "implicit padding on both sides of each spatial dim, one value or a list (default 0; at \
     most half the kernel)",
);
/// Channels-last memory layout (NHWC), as the convolution's attribute of the same name.
pub const CHANNELS_LAST: AttrSpec = attr(
    "channels_last",
    AttrType::Bool,
    "`true`: the tensor is stored channels-last (NHWC); shapes stay in NCHW order",
);
const WINDOWED: &[AttrSpec] = &[KERNEL, STRIDE, PADDING, CHANNELS_LAST];
const GLOBAL: &[AttrSpec] = &[CHANNELS_LAST];

const fn pool(kind: OpKind, attrs: &'static [AttrSpec], help: &'static str) -> OpSpec {
    OpSpec {
        kind,
        class: FuseClass::Reduction,
        compute: Compute::Vector,
        arity: super::one(help),
        attrs,
        injective: false,
        cheap_to_recompute: false,
        accepts_copies: true,
        partial_reads: false,
        flops: if attrs.len() > 1 {
            window_flops
        } else {
            global_flops
        },
        read: whole,
        write: output,
    }
}

pub const MAX_POOL: OpSpec = pool(
    OpKind::MaxPool,
    WINDOWED,
    "a max pool takes one tensor: `max_pool(x, kernel = 3, stride = 2, padding = 1)`",
);
pub const AVG_POOL: OpSpec = pool(
    OpKind::AvgPool,
    WINDOWED,
    "an average pool takes one tensor: `avg_pool(x, kernel = 2)`",
);
pub const GLOBAL_AVG_POOL: OpSpec = pool(
    OpKind::GlobalAvgPool,
    GLOBAL,
    "a global average pool takes one tensor: `global_avg_pool(x)`",
);
pub const GLOBAL_MAX_POOL: OpSpec = pool(
    OpKind::GlobalMaxPool,
    GLOBAL,
    "a global max pool takes one tensor: `global_max_pool(x)`",
);

/// Whether `kind` is one of the pooling kinds.
pub fn is_pool(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::MaxPool | OpKind::AvgPool | OpKind::GlobalAvgPool | OpKind::GlobalMaxPool
    )
}

/// Whether `kind` pools over every spatial position.
pub fn is_global(kind: OpKind) -> bool {
    matches!(kind, OpKind::GlobalAvgPool | OpKind::GlobalMaxPool)
}

/// The window of a windowed pool, one size per spatial dim of an input of `rank`, from its
/// `kernel` attribute (one integer or a list); `None` when it is missing or does not fit the
/// rank (the semantic pass reports that, so no checked graph has it).
pub fn window(
    ints: &[(crate::graph::CompactString, i64)],
    extra: Option<&crate::graph::OpExtra>,
    rank: usize,
) -> Option<Vec<u64>> {
    let spatial = rank.checked_sub(2)?;
    let value = |v: i64| u64::try_from(v).ok().filter(|&v| v >= 1);
    if let Some(&(_, k)) = ints.iter().find(|(n, _)| n == "kernel") {
        return Some(vec![value(k)?; spatial]);
    }
    let list = extra?.attrs.iter().find_map(|(n, v)| match v {
        crate::graph::AttrValue::List(l) if n == "kernel" => Some(l),
        _ => None,
    })?;
    if list.len() != spatial {
        return None;
    }
    list.iter().map(|&k| value(k)).collect()
}

/// One FLOP per window element of each output element.
fn window_flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let rank = a.first.map_or(a.out.len(), |(s, _)| s.len());
    let per = window(a.ints, a.extra, rank).and_then(|w| elements(&w));
    let n = match per {
        Some(p) => elements(a.out).and_then(|o| o.checked_mul(p)),
        // A window the semantic pass rejected: the output counts one each.
        None => elements(a.out),
    };
    (n, FlopSource::Pool)
}

/// One FLOP per input element: the window is every spatial position.
fn global_flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let input = a.first.map_or(Some(0), |(s, _)| elements(s));
    let n = elements(a.out).zip(input).map(|(o, i)| o.max(i));
    (n, FlopSource::Pool)
}
