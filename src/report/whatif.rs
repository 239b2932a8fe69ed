//! The what-if of a report: under each boundary of an analysis's plan, the smallest change of
//! the fusion options that would fuse it and what that would save ([`whatif::what_if`], run
//! on the analysis). The renderers that show hints ask for them here, as many as they show.

use crate::analysis::Analysis;
use crate::fusion::whatif;

/// The what-if of an analysis's plan ([`whatif::what_if`]): one hint per boundary.
pub fn hints(a: &Analysis) -> whatif::WhatIf {
    hints_upto(a, usize::MAX)
}

/// [`hints`] for the first `limit` boundaries only.
pub fn hints_upto(a: &Analysis, limit: usize) -> whatif::WhatIf {
    whatif::what_if(
        &a.graph,
        a.fusion,
        &a.plan,
        &a.traffic.groups,
        a.traffic.fused.total,
        limit,
    )
}
