//! The op registry: one row ([`OpSpec`]) per op kind, holding everything the kind means to
//! the passes: its fusion class, where its arithmetic runs, how many tensors it takes, its
//! FLOPs, and the bytes it reads of each argument and writes.
//! Passes ask the row (`spec(kind).class == FuseClass::Contraction`), never compare kinds by
//! name; [`spec`] is an exhaustive match, so a new kind cannot compile without its row.
//!
//! | module | kinds | class |
//! |---|---|---|
//! | [`elementwise`] | `elementwise` | pointwise |
//! | [`reduction`] | `reduction` | reduction |
//! | [`contraction`] | `matmul` | contraction |
//! | [`conv`] | `conv` | contraction |
//! | [`layout`] | `reshape`, `slice`, `permute`, `expand` | layout |
//! | [`movement`] | `concat`, `gather`, `update` | pointwise |
//! | [`routing`] | `topk`, `topk_indices`, `sort`, `argsort`, `index_add`, `cumsum`, `one_hot`, `roll` | reduction, pointwise, layout |
//! | [`pool`] | `max_pool`, `avg_pool`, `global_avg_pool`, `global_max_pool` | reduction |
//! | [`attention`] | `attention` | contraction (a FlashAttention kernel) |
//! | [`scan`] | `selective_scan`, `associative_scan` | reduction |
//! | [`quant`] | `scaled_mm`, `quant_mm` | contraction (low-precision GEMMs) |
//! | [`collective`] | `all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `broadcast`, `send`, `recv` | collective (a kernel of its own) |
//!
//! [`funcs`] is the registry beside it: every function name (`gelu`, `softmax`, `rmsnorm`)
//! with its FLOPs per element and cost family, matched case-insensitively everywhere.
//!
//! Adding a kind: a variant in `crate::types::OpKind` (`ALL` and `as_str`), its row in the
//! module of its class, one arm in [`spec`], its shape rule in `sema` (an exhaustive
//! match there too), and its PyTorch call in `crate::emit::torch` (another exhaustive match;
//! `tests/fixtures/emit/every_op.fgraph` needs an op of it).

pub mod attention;
pub mod batchnorm;
pub mod collective;
pub mod contraction;
pub mod conv;
pub mod elementwise;
pub mod funcs;
pub mod layout;
pub mod movement;
pub mod pool;
pub mod quant;
pub mod reduction;
pub mod routing;
pub mod scan;

use crate::graph::{Graph, OpNode};
pub use crate::types::OpKind;

/// How a kind fuses (SPEC §2): the rules only ever ask for the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FuseClass {
    /// Computes each output element from input elements at the same place (or a broadcast
    /// of them): fuses freely.
    Pointwise,
    /// A view or copy of one tensor (`reshape`, `slice`, `permute`, `expand`): free inside a
    /// kernel, a copy alone.
    Layout,
    /// Reads a whole row per output element: ends its kernel (rule 2).
    Reduction,
    /// A matmul: starts its kernel (rule 1), one per kernel (rule 5).
    Contraction,
    /// A collective or point-to-point transfer between GPUs (issue 25, [`collective`]): an
    /// NCCL kernel of its own, never fused with a neighbour (the boundary's reason is
    /// `collective`).
    Collective,
}

/// Where an op's arithmetic runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compute {
    /// The f32 CUDA cores (all non-matmul math).
    Vector,
    /// The tensor cores, at the rate of the first operand's dtype (`Unit::for_matmul`).
    TensorCores,
}

/// How many tensors an op of a kind takes, and what to say when it is wrong.
#[derive(Clone, Copy, Debug)]
pub struct Arity {
    pub min: usize,
    pub max: usize,
    pub text: &'static str,
    pub help: &'static str,
}

/// Where an op's FLOP count per element came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlopSource {
    /// `2·K` per output element (`2·K + 1` with a bias).
    Matmul,
    /// `2 · (C/groups) · prod(kernel)` per output element: a convolution.
    Conv,
    /// A reshape moves data only.
    Reshape,
    /// `slice`, `concat`, `permute`, `expand`, `gather`, `update`: data movement only.
    DataMovement,
    /// The function registry's entry for the function ([`funcs`]).
    Table,
    /// The function is not in the registry (or the op names none).
    Unknown,
    /// The op's `flops = N` attribute (the semantic pass takes only 0 to 2^63 − 1).
    Attribute,
    /// The kind's own count per element (the routing kinds, [`routing`]).
    PerElement,
    /// A pool: one per window element of each output element ([`pool`]).
    Pool,
    /// An attention op: `(2·D + 2·D_v + 5)` per unmasked (query, key) pair and q-head.
    Attention,
    /// A low-precision GEMM ([`quant`]): `2·K` per output element plus its epilogue
    /// (`scaled_mm`'s scales and bias) or its weights' dequantisation (`quant_mm`).
    Quant,
}

/// What a kind's FLOP rule reads: the output's shape, the first tensor argument as the op
/// reads it, and the function. Both the semantic pass (which reports a count that does not fit
/// 64 bits) and the cost model (`crate::cost::flops`) count through it, so they agree.
#[derive(Clone, Copy, Debug)]
pub struct FlopArgs<'x> {
    pub out: &'x [u64],
    /// The first tensor argument's shape after its index view (`t[i]` drops the leading
    /// dimension), and whether it is read transposed (`.T`).
    pub first: Option<(&'x [u64], bool)>,
    /// The second tensor argument's shape after its index view (a conv's weight).
    pub second: Option<&'x [u64]>,
    pub func: Option<&'x str>,
    /// The third tensor argument's shape as the op reads it (`index_add`'s rows added).
    pub third: Option<&'x [u64]>,
    /// The op's integer attributes and its list and float ones (a pool's `kernel`).
    pub ints: &'x [(crate::graph::CompactString, i64)],
    pub extra: Option<&'x crate::graph::OpExtra>,
    /// How many tensor arguments the op has (a selective scan's optional inputs,
    /// `scaled_mm`'s optional bias).
    pub inputs: usize,
}

/// Everything an op kind means after the semantic check.
pub struct OpSpec {
    pub kind: OpKind,
    pub class: FuseClass,
    pub compute: Compute,
    /// How many tensors it takes (`sema` reports `arity` from this row; the function of an
    /// `elementwise` or `reduction` op narrows it, [`funcs::FuncSpec::operands`]).
    pub arity: Arity,
    /// The attributes it takes besides `flops`, which every op may have (for `elementwise`
    /// and `reduction`, its function's, [`funcs::FuncSpec::attrs`]). The shape rules in
    /// `sema` check their values; the semantic pass rejects any other name.
    pub attrs: &'static [funcs::AttrSpec],
    /// Maps each output element to input elements (TVM's injective ops: a diamond of them
    /// can stay on chip, `fusion::dominator`).
    pub injective: bool,
    /// Cheap enough to compute twice (`--policy recompute`).
    pub cheap_to_recompute: bool,
    /// May take a producer computed again inside its own kernel (`--policy recompute`):
    /// not a matmul (no prologue, rule 1), nor a `gather` or `update`, which read only part
    /// of an argument.
    pub accepts_copies: bool,
    /// Reads only part of an argument ([`OpSpec::read`] answers `Some` for it).
    pub partial_reads: bool,
    /// The FLOPs of one op (before a `flops = N` attribute, which [`flops`] applies); `None`
    /// when the count does not fit 64 bits.
    pub flops: fn(&FlopArgs<'_>) -> (Option<u64>, FlopSource),
    /// What the op reads of argument `k`: `None` for the whole argument, `Some(bytes)` for a
    /// part. Only called when [`OpSpec::partial_reads`].
    pub read: fn(&Graph, &OpNode, usize) -> Option<u64>,
    /// What the op writes when its output leaves its kernel.
    pub write: fn(&Graph, &OpNode) -> u64,
}

/// The row of `kind`.
pub fn spec(kind: OpKind) -> &'static OpSpec {
    match kind {
        OpKind::Elementwise => &elementwise::ELEMENTWISE,
        OpKind::Reduction => &reduction::REDUCTION,
        OpKind::Matmul => &contraction::MATMUL,
        OpKind::Reshape => &layout::RESHAPE,
        OpKind::Slice => &layout::SLICE,
        OpKind::Permute => &layout::PERMUTE,
        OpKind::Expand => &layout::EXPAND,
        OpKind::Concat => &movement::CONCAT,
        OpKind::Gather => &movement::GATHER,
        OpKind::Update => &movement::UPDATE,
        OpKind::Conv => &conv::CONV,
        OpKind::Topk => &routing::TOPK,
        OpKind::TopkIndices => &routing::TOPK_INDICES,
        OpKind::Sort => &routing::SORT,
        OpKind::Argsort => &routing::ARGSORT,
        OpKind::IndexAdd => &routing::INDEX_ADD,
        OpKind::Cumsum => &routing::CUMSUM,
        OpKind::OneHot => &routing::ONE_HOT,
        OpKind::Roll => &routing::ROLL,
        OpKind::MaxPool => &pool::MAX_POOL,
        OpKind::AvgPool => &pool::AVG_POOL,
        OpKind::GlobalAvgPool => &pool::GLOBAL_AVG_POOL,
        OpKind::GlobalMaxPool => &pool::GLOBAL_MAX_POOL,
        OpKind::Attention => &attention::ATTENTION,
        OpKind::SelectiveScan => &scan::SELECTIVE_SCAN,
        OpKind::AssociativeScan => &scan::ASSOCIATIVE_SCAN,
        OpKind::ScaledMm => &quant::SCALED_MM,
        OpKind::QuantMm => &quant::QUANT_MM,
        OpKind::AllReduce => &collective::ALL_REDUCE,
        OpKind::AllGather => &collective::ALL_GATHER,
        OpKind::ReduceScatter => &collective::REDUCE_SCATTER,
        OpKind::AllToAll => &collective::ALL_TO_ALL,
        OpKind::Broadcast => &collective::BROADCAST,
        OpKind::Send => &collective::SEND,
        OpKind::Recv => &collective::RECV,
    }
}

impl OpKind {
    /// The kind's fusion class ([`spec`]).
    pub fn class(self) -> FuseClass {
        spec(self).class
    }
    /// A matmul-like kind: starts its kernel, one per kernel.
    pub fn is_contraction(self) -> bool {
        self.class() == FuseClass::Contraction
    }
    /// A reduction-like kind: ends its kernel.
    pub fn is_reduction(self) -> bool {
        self.class() == FuseClass::Reduction
    }
    /// A view or layout copy.
    pub fn is_layout(self) -> bool {
        self.class() == FuseClass::Layout
    }
    /// A collective or point-to-point transfer (issue 25): a kernel of its own.
    pub fn is_collective(self) -> bool {
        self.class() == FuseClass::Collective
    }
}

/// Whether attribute `attr` of an op of kind `kind` (as written) takes a bare identifier
/// ([`funcs::AttrType::Name`]: `group = tp`): its value is kept as written, never read as a
/// param nor renamed by block expansion.
pub fn is_name_attr(kind: &str, attr: &str) -> bool {
    OpKind::from_name(kind).is_some_and(|k| {
        spec(k)
            .attrs
            .iter()
            .any(|a| a.name == attr && matches!(a.ty, funcs::AttrType::Name { .. }))
    })
}

/// The FLOPs of an op of `kind`: `per_element · elements(output)` when it has a `flops = N`
/// attribute (`per_element` = N), else its kind's rule. `None` when the count does not fit 64
/// bits, which the semantic pass reports (`size-overflow`), so that no checked graph has one.
pub fn flops(
    kind: OpKind,
    args: &FlopArgs<'_>,
    per_element: Option<u64>,
) -> (Option<u64>, FlopSource) {
    match per_element {
        Some(n) => (
            elements(args.out).and_then(|e| e.checked_mul(n)),
            FlopSource::Attribute,
        ),
        None => (spec(kind).flops)(args),
    }
}

// Shared rules of the rows.

/// Elements of a shape; `None` when the count does not fit 64 bits.
pub(crate) fn elements(shape: &[u64]) -> Option<u64> {
    shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d))
}

/// One or more tensors: the arity of `elementwise.F` and `reduction.F`.
pub(crate) const ANY: Arity = Arity {
    min: 1,
    max: usize::MAX,
    text: "at least 1 tensor",
    help: "pass the tensors the op reads",
};

/// Exactly one tensor.
pub(crate) const fn one(help: &'static str) -> Arity {
    Arity {
        min: 1,
        max: 1,
        text: "exactly 1 tensor",
        help,
    }
}

/// Exactly two tensors.
pub(crate) const fn two(help: &'static str) -> Arity {
    Arity {
        min: 2,
        max: 2,
        text: "exactly 2 tensors",
        help,
    }
}

/// Reads the whole of every argument.
fn whole(_: &Graph, _: &OpNode, _: usize) -> Option<u64> {
    None
}

/// Writes its whole output.
fn output(g: &Graph, op: &OpNode) -> u64 {
    g.tensor(op.output).bytes
}

/// No arithmetic: a view or data movement.
fn no_flops(_: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    (Some(0), FlopSource::DataMovement)
}

/// `per_element(func) · n`, from the function registry.
fn function_flops(func: Option<&str>, n: Option<u64>) -> (Option<u64>, FlopSource) {
    let (per, source) = match func.and_then(funcs::flops_per_element) {
        Some(f) => (f, FlopSource::Table),
        None => (funcs::UNKNOWN_FLOPS, FlopSource::Unknown),
    };
    (n.and_then(|n| n.checked_mul(per)), source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_row() {
        for &k in OpKind::ALL {
            assert_eq!(spec(k).kind, k);
        }
    }

    #[test]
    fn the_classes_are_those_of_spec_2() {
        use FuseClass::*;
        let class = |k: OpKind| spec(k).class;
        assert_eq!(class(OpKind::Matmul), Contraction);
        assert_eq!(class(OpKind::Conv), Contraction);
        assert_eq!(class(OpKind::Reduction), Reduction);
        for k in [
            OpKind::MaxPool,
            OpKind::AvgPool,
            OpKind::GlobalAvgPool,
            OpKind::GlobalMaxPool,
        ] {
            assert_eq!(class(k), Reduction, "{k}");
        }
        for k in [
            OpKind::Elementwise,
            OpKind::Concat,
            OpKind::Gather,
            OpKind::Update,
        ] {
            assert_eq!(class(k), Pointwise, "{k}");
        }
        for k in [
            OpKind::Reshape,
            OpKind::Slice,
            OpKind::Permute,
            OpKind::Expand,
        ] {
            assert_eq!(class(k), Layout, "{k}");
        }
    }
}
