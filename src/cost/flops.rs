//! FLOPs per op: the one table fgraph uses, and how an op's element count is taken.
//!
//! | op | FLOPs |
//! |---|---|
//! | `matmul` | `2·M·N·K` per batch element: `2 · K · elements(output)` |
//! | `reshape` | 0 |
//! | `slice`, `concat`, `permute`, `expand`, `gather`, `update` | 0 (data movement) |
//! | `elementwise.F` | `table(F) · elements(output)` |
//! | `reduction.F` | `table(F) · max(elements(first input), elements(output))` |
//! | any op with `flops = N` | `N · elements(output)` (the attribute wins) |
//!
//! Counts saturate at `u64::MAX` instead of overflowing. `docs/cost-model.md` gives the
//! sources of the table.

use crate::graph::{Graph, OpId, TensorUse};
use crate::types::OpKind;

/// FLOPs per element by function name (compared case-insensitively). Functions not listed
/// count [`UNKNOWN_FLOPS`].
pub const TABLE: &[(&str, u64)] = &[
    ("add", 1),
    ("sub", 1),
    ("mul", 1),
    ("div", 1),
    ("neg", 1),
    ("relu", 1),
    ("gelu", 8),
    ("silu", 4),
    ("softmax", 5),
    ("layernorm", 8),
    ("sum", 1),
    ("mean", 1),
];

/// FLOPs per element of a function the table does not list.
pub const UNKNOWN_FLOPS: u64 = 1;

/// The attribute that overrides the table: FLOPs per output element.
pub const OVERRIDE_ATTR: &str = "flops";

/// Where an op's FLOP count per element came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlopSource {
    /// `2·K` per output element.
    Matmul,
    /// A reshape moves data only.
    Reshape,
    /// `slice`, `concat`, `permute`, `expand`, `gather`, `update`: data movement only.
    DataMovement,
    /// The table's entry for the function.
    Table,
    /// The function is not in the table (or the op names none).
    Unknown,
    /// The op's `flops = N` attribute (negative values count as 0).
    Attribute,
}

/// FLOPs per element for a function name: the table's entry, or `None`.
pub fn per_element(func: &str) -> Option<u64> {
    // No name in the table is longer than this: longer names skip the scan.
    const LONGEST: usize = {
        let (mut i, mut n) = (0, 0);
        while i < TABLE.len() {
            if TABLE[i].0.len() > n {
                n = TABLE[i].0.len();
            }
            i += 1;
        }
        n
    };
    if func.len() > LONGEST {
        return None;
    }
    TABLE
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(func))
        .map(|&(_, f)| f)
}

fn elements(shape: &[u64]) -> u64 {
    shape.iter().fold(1u64, |a, &d| a.saturating_mul(d))
}

/// The shape an op reads through a view: `t[i]` drops the leading dim, `.T` swaps the last two.
pub fn use_shape(g: &Graph, u: &TensorUse) -> Vec<u64> {
    let t = g.tensor(u.tensor);
    let mut shape: Vec<u64> = match u.index {
        Some(_) => t.shape.iter().skip(1).copied().collect(),
        None => t.shape.clone(),
    };
    let r = shape.len();
    if u.transpose && r >= 2 {
        shape.swap(r - 1, r - 2);
    }
    shape
}

/// Elements of the shape an op reads through a view ([`use_shape`]), without building it:
/// a transpose does not change the count.
fn use_elements(g: &Graph, u: &TensorUse) -> u64 {
    let shape = &g.tensor(u.tensor).shape;
    match u.index {
        Some(_) => elements(shape.get(1..).unwrap_or(&[])),
        None => elements(shape),
    }
}

/// The last dim of the shape an op reads through a view ([`use_shape`]), without building it.
fn use_last_dim(g: &Graph, u: &TensorUse) -> Option<u64> {
    let shape = &g.tensor(u.tensor).shape;
    let shape = match u.index {
        Some(_) => shape.get(1..).unwrap_or(&[]),
        None => shape.as_slice(),
    };
    let r = shape.len();
    if u.transpose && r >= 2 {
        Some(shape[r - 2])
    } else {
        shape.last().copied()
    }
}

/// The FLOPs of one op and where the per-element figure came from.
pub fn op_flops(g: &Graph, o: OpId) -> (u64, FlopSource) {
    let op = g.op(o);
    let out = elements(&g.tensor(op.output).shape);
    if let Some(&(_, n)) = op.attrs.iter().find(|(k, _)| k == OVERRIDE_ATTR) {
        let n = u64::try_from(n).unwrap_or(0);
        return (n.saturating_mul(out), FlopSource::Attribute);
    }
    match op.kind {
        OpKind::Reshape => (0, FlopSource::Reshape),
        OpKind::Slice
        | OpKind::Concat
        | OpKind::Permute
        | OpKind::Expand
        | OpKind::Gather
        | OpKind::Update => (0, FlopSource::DataMovement),
        OpKind::Matmul => {
            // [..., M, K] x [..., K, N]: K is the last dim of the first operand as read.
            let k = op
                .inputs
                .first()
                .and_then(|u| use_last_dim(g, u))
                .unwrap_or(1);
            (out.saturating_mul(k).saturating_mul(2), FlopSource::Matmul)
        }
        OpKind::Elementwise | OpKind::Reduction => {
            let (per, source) = match op.func.as_deref().and_then(per_element) {
                Some(f) => (f, FlopSource::Table),
                None => (UNKNOWN_FLOPS, FlopSource::Unknown),
            };
            let n = if op.kind == OpKind::Reduction {
                let input = op.inputs.first().map(|u| use_elements(g, u)).unwrap_or(0);
                input.max(out)
            } else {
                out
            };
            (per.saturating_mul(n), source)
        }
    }
}
