//! FLOPs per op: the `flops = N` attribute, else the op registry's rule for the kind
//! (`crate::ops`), which takes per-element figures from the function registry
//! (`crate::ops::funcs`).
//!
//! | op | FLOPs |
//! |---|---|
//! | `matmul` | `2·M·N·K` per batch element: `2 · K · elements(output)`; with a bias, `(2 · K + 1) · elements(output)` |
//! | `reshape` | 0 |
//! | `slice`, `concat`, `permute`, `expand`, `gather`, `update` | 0 (data movement) |
//! | `elementwise.F` | `table(F) · elements(output)` |
//! | `reduction.F` | `table(F) · max(elements(first input), elements(output))` |
//! | `max_pool`, `avg_pool` | `prod(kernel) · elements(output)`: one per window element |
//! | `global_avg_pool`, `global_max_pool` | `elements(input)` |
//! | any op with `flops = N` | `N · elements(output)` (the attribute wins) |
//!
//! Counts are exact: the semantic pass counts every op through the same rule
//! ([`crate::ops::flops`]) and reports an op, or a graph in all, whose FLOPs do not fit 64
//! bits (`size-overflow`), so a checked graph has none, and a sum over any of its ops fits.
//! `docs/cost-model.md` gives the sources of the table.

use crate::graph::{Graph, OpId};
pub use crate::ops::FlopSource;
pub use crate::ops::funcs::{UNKNOWN_FLOPS, flops_per_element as per_element};

/// The attribute that overrides the table: FLOPs per output element.
pub const OVERRIDE_ATTR: &str = "flops";

/// The FLOPs of one op and where the per-element figure came from.
pub fn op_flops(g: &Graph, o: OpId) -> (u64, FlopSource) {
    let op = g.op(o);
    let read = |u: &crate::graph::TensorUse| {
        let shape = g.tensor(u.tensor).shape.as_slice();
        let shape = match u.index {
            Some(_) => shape.get(1..).unwrap_or(&[]),
            None => shape,
        };
        (shape, u.transpose)
    };
    let first = op.inputs.first().map(read);
    let second = op.inputs.get(1).map(|u| {
        let shape = g.tensor(u.tensor).shape.as_slice();
        match u.index {
            Some(_) => shape.get(1..).unwrap_or(&[]),
            None => shape,
        }
    });
    let args = crate::ops::FlopArgs {
        out: &g.tensor(op.output).shape,
        first,
        second,
        func: op.func.as_deref(),
        third: op.inputs.get(2).map(|u| {
            let shape = g.tensor(u.tensor).shape.as_slice();
            match u.index {
                Some(_) => shape.get(1..).unwrap_or(&[]),
                None => shape,
            }
        }),
        ints: &op.attrs,
        extra: op.extra.as_deref(),
        inputs: op.inputs.len(),
    };
    // The semantic pass admits only 0 to 2^63 - 1.
    let per_element = op
        .int_attr(OVERRIDE_ATTR)
        .map(|n| u64::try_from(n).unwrap_or(0));
    let (n, source) = crate::ops::flops(op.kind, &args, per_element);
    // The semantic pass reported a count that does not fit: a checked graph has none.
    (n.unwrap_or(u64::MAX), source)
}
