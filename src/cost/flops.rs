//! FLOPs per op: the `flops = N` attribute, else the op registry's rule for the kind
//! (`crate::ops`), which takes per-element figures from the function registry
//! (`crate::ops::funcs`).
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

use crate::graph::{Graph, OpId};
pub use crate::ops::FlopSource;
pub use crate::ops::funcs::{UNKNOWN_FLOPS, flops_per_element as per_element};

/// The attribute that overrides the table: FLOPs per output element.
pub const OVERRIDE_ATTR: &str = "flops";

/// The FLOPs of one op and where the per-element figure came from.
pub fn op_flops(g: &Graph, o: OpId) -> (u64, FlopSource) {
    let op = g.op(o);
    if let Some(&(_, n)) = op.attrs.iter().find(|(k, _)| k == OVERRIDE_ATTR) {
        let out = crate::ops::elements(&g.tensor(op.output).shape);
        let n = u64::try_from(n).unwrap_or(0);
        return (n.saturating_mul(out), FlopSource::Attribute);
    }
    (crate::ops::spec(op.kind).flops)(g, op)
}
