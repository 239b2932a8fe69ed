//! The collectives (issue 25): communication between the GPUs of a named group, each an NCCL
//! kernel of its own. A graph is written for **one GPU** of the group (the per-GPU view:
//! shapes are that GPU's shards); a collective says which group it runs over and how many GPUs
//! the group has.
//!
//! | kind | tensors | output | FLOPs (per GPU) | HBM (per GPU) |
//! |---|---|---|---|---|
//! | `all_reduce(x)` | 1 | `x`'s shape | `⌈(n−1)·E/n⌉`, E = elements of `x` | reads `x`, writes the output |
//! | `all_gather(x, axis = a)` | 1 | `x`'s with dim `a` × n | 0 | reads `x`, writes the output |
//! | `reduce_scatter(x, axis = a)` | 1 | `x`'s with dim `a` / n (n divides it) | `(n−1)·E_out` | reads `x`, writes the output |
//! | `all_to_all(x, split_axis = s, concat_axis = c)` | 1 | dim `s` / n, dim `c` × n (the same shape when s = c, the default 0) | 0 | reads `x`, writes the output |
//! | `broadcast(x, root = r)` | 1 | `x`'s shape | 0 | reads `x`, writes the output |
//! | `send(x, peer = p)` | 1 | `x`'s shape: the tensor as the peer receives it | 0 | reads `x`, writes nothing |
//! | `recv(peer = p) -> y: [..]` | 0 | declared | 0 | writes the output |
//!
//! n is the group's `size`. The reduce ops' FLOPs are the adds of the reduction that fall to
//! one GPU: a ring reduce-scatter adds n−1 received chunks of E/n elements into its own, so
//! `(n−1)·E/n` per GPU for an all-reduce (rounded up: NCCL's chunks differ by at most an
//! element) and `(n−1)·E_out` for a reduce-scatter (E_out = E/n exactly). The count does not
//! depend on the algorithm: under NVLink SHARP (`nvls`) the NVSwitch does the adds, and they
//! are counted all the same, on the CUDA cores, where they cost nothing beside the transfer.
//! `reduce = avg` adds one division per output element (NCCL's `ncclAvg`).
//!
//! Attributes, all kinds:
//! - `group = NAME` (required): the group, a bare identifier (`tp`, `ep`, `pp`, `dp`), shown
//!   in the report. The language has no strings: the attribute type
//!   [`AttrType::Name`](super::funcs::AttrType::Name) takes an identifier as written.
//! - `size = N` (required): the GPUs in the group, 1 to 2^20.
//! - `stride = S` (default 1): the rank distance between consecutive members. With the
//!   hardware's GPUs per node it decides the group's span: members `0, S, 2S, …` fill
//!   `⌈((n−1)·S + 1) / gpus_per_node⌉` nodes (n nodes once S ≥ gpus_per_node). Megatron
//!   places tensor parallelism innermost (stride 1) and data or pipeline parallelism across
//!   nodes (stride = the GPUs below it).
//!
//! `all_reduce`, `all_gather` and `reduce_scatter` take `algorithm = ring | tree | nvls`
//! (`tree`: all-reduce only, NCCL's double binary tree); without it the cost model takes the
//! fastest the hardware has (`crate::cost::comm`). `all_reduce` and `reduce_scatter` take
//! `reduce = sum | avg | max | min | prod` (default `sum`); `broadcast` its `root` and
//! `send`/`recv` their `peer` (ranks within the group, for the reader: a ring moves the same
//! bytes from any root).
//!
//! Fusion: class [`FuseClass::Collective`]: a collective is an NCCL kernel of its own, so
//! every edge into or out of one is a boundary (reason `collective`). Overlap of communication
//! with computation is not assumed: the report sums kernel times.

use super::funcs::{AttrSpec, AttrType, attr};
use super::{Arity, Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::graph::{AttrValue, Graph, OpNode};
use crate::types::OpKind;

/// The kinds of this module: their attributes are checked by type from their rows.
pub const KINDS: &[OpKind] = &[
    OpKind::AllReduce,
    OpKind::AllGather,
    OpKind::ReduceScatter,
    OpKind::AllToAll,
    OpKind::Broadcast,
    OpKind::Send,
    OpKind::Recv,
];

/// The largest group: 2^20 GPUs.
pub const MAX_GROUP: i64 = 1 << 20;

const fn required(a: AttrSpec) -> AttrSpec {
    AttrSpec {
        required: true,
        ..a
    }
}

/// Every algorithm name `algorithm = …` may give.
pub const ALGORITHMS: &[&str] = &["ring", "tree", "nvls"];
/// The reduce ops (NCCL's `ncclRedOp_t` but `ncclPremulSum`).
pub const REDUCE_OPS: &[&str] = &["sum", "avg", "max", "min", "prod"];

pub const GROUP: AttrSpec = required(attr(
    "group",
    AttrType::Name { values: &[] },
    "the group of GPUs, a bare name (`group = tp`), shown in the report",
));
pub const SIZE: AttrSpec = required(attr(
    "size",
    AttrType::Int {
        min: 1,
        max: MAX_GROUP,
    },
    "how many GPUs the group has (1 to 2^20)",
));
pub const STRIDE: AttrSpec = attr(
    "stride",
    AttrType::Int {
        min: 1,
        max: MAX_GROUP,
    },
    "the rank distance between consecutive members (default 1); with the hardware's GPUs \
     per node it decides whether the group spans nodes",
);
pub const ALGORITHM: AttrSpec = attr(
    "algorithm",
    AttrType::Name {
        values: &["ring", "tree", "nvls"],
    },
    "`ring`, `tree` (NCCL's double binary tree) or `nvls` (NVLink SHARP); default: the \
     fastest the hardware has",
);
/// The algorithms of `all_gather` and `reduce_scatter` (NCCL has no tree for them).
pub const ALGORITHM_NO_TREE: AttrSpec = attr(
    "algorithm",
    AttrType::Name {
        values: &["ring", "nvls"],
    },
    "`ring` or `nvls` (NVLink SHARP); default: the fastest the hardware has",
);
pub const REDUCE: AttrSpec = attr(
    "reduce",
    AttrType::Name { values: REDUCE_OPS },
    "the reduction: `sum` (default), `avg`, `max`, `min` or `prod`",
);
pub const AXIS: AttrSpec = attr(
    "axis",
    AttrType::Axis,
    "the axis the shards are joined or split along (default 0, as PyTorch's \
     `all_gather_into_tensor` and `reduce_scatter_tensor`)",
);
pub const SPLIT_AXIS: AttrSpec = attr(
    "split_axis",
    AttrType::Axis,
    "the axis split into n parts, one sent to each member (default 0)",
);
pub const CONCAT_AXIS: AttrSpec = attr(
    "concat_axis",
    AttrType::Axis,
    "the axis the n received parts are joined along (default 0)",
);
pub const ROOT: AttrSpec = attr(
    "root",
    AttrType::Int {
        min: 0,
        max: MAX_GROUP - 1,
    },
    "the rank within the group whose tensor is broadcast (default 0)",
);
pub const PEER: AttrSpec = attr(
    "peer",
    AttrType::Int {
        min: 0,
        max: MAX_GROUP - 1,
    },
    "the rank within the group sent to or received from",
);

const ONE_TENSOR: Arity = super::one(
    "a collective takes the tensor it communicates: `all_reduce(x, group = tp, size = 8)`",
);

const fn row(kind: OpKind, attrs: &'static [AttrSpec]) -> OpSpec {
    OpSpec {
        kind,
        class: FuseClass::Collective,
        compute: Compute::Vector,
        arity: ONE_TENSOR,
        attrs,
        injective: false,
        cheap_to_recompute: false,
        accepts_copies: false,
        partial_reads: false,
        flops: no_flops,
        read: whole,
        write: output,
    }
}

pub const ALL_REDUCE: OpSpec = OpSpec {
    flops: all_reduce_flops,
    ..row(OpKind::AllReduce, &[GROUP, SIZE, STRIDE, ALGORITHM, REDUCE])
};
pub const ALL_GATHER: OpSpec = row(
    OpKind::AllGather,
    &[GROUP, SIZE, STRIDE, ALGORITHM_NO_TREE, AXIS],
);
pub const REDUCE_SCATTER: OpSpec = OpSpec {
    flops: reduce_scatter_flops,
    ..row(
        OpKind::ReduceScatter,
        &[GROUP, SIZE, STRIDE, ALGORITHM_NO_TREE, REDUCE, AXIS],
    )
};
pub const ALL_TO_ALL: OpSpec = row(
    OpKind::AllToAll,
    &[GROUP, SIZE, STRIDE, SPLIT_AXIS, CONCAT_AXIS],
);
pub const BROADCAST: OpSpec = row(OpKind::Broadcast, &[GROUP, SIZE, STRIDE, ROOT]);
pub const SEND: OpSpec = OpSpec {
    arity: super::one(
        "a send takes the tensor it sends: `send(x, group = pp, size = 2, peer = 1)`",
    ),
    write: nothing,
    ..row(OpKind::Send, &[GROUP, SIZE, STRIDE, PEER])
};
pub const RECV: OpSpec = OpSpec {
    arity: Arity {
        min: 0,
        max: 0,
        text: "no tensor",
        help: "a recv takes no tensor; its output's shape is declared: `recv(group = pp, size \
               = 2, peer = 0) -> x: bf16[S, H]`",
    },
    ..row(OpKind::Recv, &[GROUP, SIZE, STRIDE, PEER])
};

fn no_flops(_: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    (Some(0), FlopSource::DataMovement)
}

/// A send writes nothing on its GPU: its output stands for the tensor on the peer.
fn nothing(_: &Graph, _: &OpNode) -> u64 {
    0
}

/// The group size of an op's integer attributes (1 when missing: it was reported).
fn size_of(ints: &[(crate::graph::CompactString, i64)]) -> u64 {
    ints.iter()
        .find(|(n, _)| n == SIZE.name)
        .and_then(|&(_, v)| u64::try_from(v).ok())
        .filter(|&v| v >= 1)
        .unwrap_or(1)
}

/// The reduce op named in an op's name attributes (`sum` when none).
fn reduce_of(extra: Option<&crate::graph::OpExtra>) -> &str {
    name_in(extra, REDUCE.name).unwrap_or("sum")
}

fn name_in<'x>(extra: Option<&'x crate::graph::OpExtra>, name: &str) -> Option<&'x str> {
    extra?.attrs.iter().find_map(|(n, v)| match v {
        AttrValue::Name(s) if n == name => Some(s.as_str()),
        _ => None,
    })
}

/// The adds of a reduction on one GPU: `⌈(n−1)·E/n⌉` for an all-reduce of E elements, and
/// `(n−1)·E_out` for a reduce-scatter whose output has E_out; plus E_out divisions for `avg`.
/// `None` past 2^64.
pub fn reduction_flops(kind: OpKind, out_elements: u64, n: u64, reduce: &str) -> Option<u64> {
    let n = n.max(1);
    let adds = match kind {
        OpKind::AllReduce => {
            let total = u128::from(out_elements) * u128::from(n - 1);
            u64::try_from(total.div_ceil(u128::from(n))).ok()?
        }
        OpKind::ReduceScatter => out_elements.checked_mul(n - 1)?,
        _ => return Some(0),
    };
    if reduce == "avg" && n > 1 {
        adds.checked_add(out_elements)
    } else {
        Some(adds)
    }
}

fn all_reduce_flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    reduce_flops(OpKind::AllReduce, a)
}

fn reduce_scatter_flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    reduce_flops(OpKind::ReduceScatter, a)
}

fn reduce_flops(kind: OpKind, a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let n = size_of(a.ints);
    (
        elements(a.out).and_then(|e| reduction_flops(kind, e, n, reduce_of(a.extra))),
        FlopSource::PerElement,
    )
}

/// An NCCL algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// A ring: each GPU sends to the next, receives from the previous.
    Ring,
    /// NCCL's double binary tree (all-reduce only).
    Tree,
    /// NVLink SHARP: the NVSwitch reduces and multicasts (H100/H200 NVSwitch systems).
    Nvls,
    /// A point-to-point transfer (`send`, `recv`) or the pairwise exchange of `all_to_all`.
    Direct,
}

impl Algorithm {
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Tree => "tree",
            Algorithm::Nvls => "nvls",
            Algorithm::Direct => "direct",
        }
    }
    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name {
            "ring" => Some(Algorithm::Ring),
            "tree" => Some(Algorithm::Tree),
            "nvls" => Some(Algorithm::Nvls),
            _ => None,
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A collective op as the cost model reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective<'g> {
    pub kind: OpKind,
    pub group: &'g str,
    /// GPUs in the group (≥ 1).
    pub size: u64,
    /// Rank distance between consecutive members (≥ 1).
    pub stride: u64,
    /// The algorithm the file names, if any.
    pub algorithm: Option<Algorithm>,
    /// The reduce op (`sum` for the kinds that do not reduce).
    pub reduce: &'g str,
    /// The bytes the collective is defined on, NCCL-tests' S: the tensor of an all-reduce,
    /// all-to-all, broadcast or send/recv; the whole (gathered) output of an all-gather; the
    /// whole input of a reduce-scatter.
    pub payload: u64,
}

impl<'g> Collective<'g> {
    /// The collective op `op` of `g`; `None` for another kind.
    pub fn of(g: &'g Graph, op: &'g OpNode) -> Option<Collective<'g>> {
        if !op.kind.is_collective() {
            return None;
        }
        let extra = op.extra.as_deref();
        let int = |name: &str| {
            op.int_attr(name)
                .and_then(|v| u64::try_from(v).ok())
                .filter(|&v| v >= 1)
        };
        let input = op.inputs.first().map(|u| g.use_bytes(u));
        let out = g.tensor(op.output).bytes;
        let payload = match op.kind {
            OpKind::AllGather | OpKind::Recv => out,
            _ => input.unwrap_or(out),
        };
        Some(Collective {
            kind: op.kind,
            group: name_in(extra, GROUP.name).unwrap_or(""),
            size: int(SIZE.name).unwrap_or(1),
            stride: int(STRIDE.name).unwrap_or(1),
            algorithm: name_in(extra, ALGORITHM.name).and_then(Algorithm::from_name),
            reduce: reduce_of(extra),
            payload,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_flops_by_hand() {
        // An all-reduce of [1, 8192] over 8 GPUs: 7 · 8192 / 8 = 7168 adds per GPU.
        assert_eq!(
            reduction_flops(OpKind::AllReduce, 8192, 8, "sum"),
            Some(7168)
        );
        // 10 elements over 4: ⌈30 / 4⌉ = 8.
        assert_eq!(reduction_flops(OpKind::AllReduce, 10, 4, "max"), Some(8));
        // A reduce-scatter to 1024 elements over 8: 7 · 1024; avg divides each output once.
        assert_eq!(
            reduction_flops(OpKind::ReduceScatter, 1024, 8, "sum"),
            Some(7168)
        );
        assert_eq!(
            reduction_flops(OpKind::ReduceScatter, 1024, 8, "avg"),
            Some(8192)
        );
        // A group of one reduces nothing.
        assert_eq!(reduction_flops(OpKind::AllReduce, 100, 1, "avg"), Some(0));
        assert_eq!(
            reduction_flops(OpKind::ReduceScatter, u64::MAX, 3, "sum"),
            None
        );
        assert_eq!(Algorithm::from_name("nvls"), Some(Algorithm::Nvls));
        assert_eq!(Algorithm::from_name("NVLS"), None);
        for a in ALGORITHMS {
            assert_eq!(Algorithm::from_name(a).map(Algorithm::as_str), Some(*a));
        }
    }

    #[test]
    fn every_kind_is_a_collective_with_group_and_size_required() {
        for &k in KINDS {
            let s = super::super::spec(k);
            assert_eq!(s.class, FuseClass::Collective, "{k}");
            assert!(k.is_collective() && !k.is_contraction() && !k.is_reduction());
            let names: Vec<&str> = s.attrs.iter().map(|a| a.name).collect();
            assert_eq!(&names[..3], ["group", "size", "stride"], "{k}");
            assert!(s.attrs[0].required && s.attrs[1].required && !s.attrs[2].required);
            assert!(super::super::is_name_attr(k.as_str(), "group"));
            assert!(!super::super::is_name_attr(k.as_str(), "size"));
        }
        assert!(super::super::is_name_attr("all_reduce", "algorithm"));
        assert!(!super::super::is_name_attr("matmul", "group"));
        assert!(!super::super::is_name_attr("nope", "group"));
    }
}
