//! The edge rules of SPEC §2 that depend only on the two ops of an edge and the number of
//! matmuls the merged kernel would hold, written once: the greedy pass (`super::greedy`
//! through `mod.rs`), the store/inline policies' cross-edge check (`super::policy`) and the
//! recompute copies all ask these. The op registry (`crate::ops`) gives each kind its class;
//! these rules only ask for the class.
//!
//! | rule | edge `p → c` breaks it when |
//! |---|---|
//! | 1 | `c` is a contraction (a matmul has no prologue) |
//! | 2 | `p` is a reduction and `c` may not be its epilogue (`--reduction-epilogue`, [`super::epilogue::fits`]) |
//! | 3 | `c` is a reduction and the merged kernel holds a matmul |
//! | 5 | the merged kernel would hold two matmuls |
//!
//! Rules 4 (materialized tensors) and 6 (cycles), the matmul epilogue and the budgets need
//! the whole plan so far, and stay with the greedy pass and its policies.

use super::{Reason, epilogue};
use crate::graph::{Graph, OpId};

/// Rule 1: a matmul starts its kernel. So does a collective (issue 25), which is a kernel of
/// its own: with [`after_reduction`] holding for it too, no pass merges it with anything (the
/// plan names such boundaries `collective`, [`collective_edge`]).
pub(crate) fn matmul_starts_group(g: &Graph, c: OpId) -> bool {
    g.op(c).kind.is_contraction() || g.op(c).kind.is_collective()
}

/// Rule 2: a reduction ends its kernel, unless `c` may be its epilogue. A collective ends its
/// kernel always.
pub(crate) fn after_reduction(g: &Graph, p: OpId, c: OpId, reduction_epilogue: bool) -> bool {
    g.op(p).kind.is_collective()
        || (g.op(p).kind.is_reduction() && !(reduction_epilogue && epilogue::fits(g, p, c)))
}

/// Whether the edge `p → c` touches a collective (issue 25): a boundary whatever the options,
/// whose reason is `collective`.
pub(crate) fn collective_edge(g: &Graph, p: OpId, c: OpId) -> bool {
    g.op(p).kind.is_collective() || g.op(c).kind.is_collective()
}

/// Rule 3: no reduction in a kernel that holds a matmul.
pub(crate) fn reduction_after_matmul(g: &Graph, c: OpId, merged_matmuls: u32) -> bool {
    g.op(c).kind.is_reduction() && merged_matmuls > 0
}

/// Rule 5: one matmul per kernel.
pub(crate) fn second_matmul(merged_matmuls: u32) -> bool {
    merged_matmuls > 1
}

/// The first of rules 1–3 the edge `p → c` breaks, for a merged kernel of `merged_matmuls`
/// matmuls; `after_reduction` is rule 2's answer (the caller may ask it of another edge, as
/// the recompute copies do).
pub(crate) fn first_of_rules_1_to_3(
    g: &Graph,
    c: OpId,
    after_reduction: bool,
    merged_matmuls: u32,
) -> Option<Reason> {
    if matmul_starts_group(g, c) {
        Some(Reason::MatmulStartsGroup)
    } else if after_reduction {
        Some(Reason::AfterReduction)
    } else if reduction_after_matmul(g, c, merged_matmuls) {
        Some(Reason::ReductionAfterMatmul)
    } else {
        None
    }
}
