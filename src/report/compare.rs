//! `fgraph analyze --compare`: one graph planned under every compiler preset and policy, side
//! by side — kernels, launches, HBM traffic, FLOPs (recomputed ones included) and estimated
//! time. This is the rows; `render::human::compare` draws the table and the JSON report
//! carries them under `compare`. Each row's plan search has the work bound of any plan
//! search (`fusion::work`): a row whose search stopped says so (`search_stopped`), and the
//! report adds the warning `search-budget` for it.

use crate::cost::{Hardware, LaunchMode, plan_cost};
use crate::fusion::{FusionOptions, SearchStop, find_fusion_groups_with};
use crate::graph::Graph;
use crate::traffic::{Overflow, compare_with_unfused, unfused_traffic};
use serde::Serialize;

/// One strategy's plan of the graph.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// How the strategy is asked for on the command line.
    pub strategy: String,
    /// Kernels the vertical passes made (before horizontal merges).
    pub kernels: usize,
    /// Launches: kernels after horizontal merges.
    pub launches: usize,
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub total_bytes: u64,
    pub flops: u64,
    /// Estimated time on the run's hardware, in microseconds.
    pub time_us: f64,
    /// Whether this is the plan the rest of the report shows.
    pub current: bool,
    /// The plan search stopped at its work bound (absent when it did not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_stopped: Option<SearchStop>,
    /// The options planned.
    #[serde(skip)]
    pub options: FusionOptions,
}

/// The strategies compared, each with its flags: the strategy table's settings
/// (`fusion::strategy`), then the presets.
pub fn strategies() -> Vec<(String, FusionOptions)> {
    crate::fusion::strategy::compared()
}

/// Every strategy of [`strategies`] (with `current`'s FlashAttention choice), and `current`
/// itself when it is none of them.
pub fn rows(
    g: &Graph,
    current: &FusionOptions,
    hw: &Hardware,
    launch: LaunchMode,
) -> Result<Vec<Row>, Overflow> {
    let unfused = unfused_traffic(g)?;
    let mut list = strategies();
    for (_, o) in &mut list {
        o.flash_attention = current.flash_attention;
        o.work_limit = current.work_limit;
    }
    if !list.iter().any(|(_, o)| o == current) {
        list.push(("(this run's flags)".into(), *current));
    }
    let flash = if current.flash_attention {
        " --flash-attention"
    } else {
        ""
    };
    list.into_iter()
        .map(|(name, opts)| {
            let plan = find_fusion_groups_with(g, opts);
            let traffic = compare_with_unfused(g, &plan, unfused)?;
            let cost = plan_cost(g, &plan, &traffic.groups, hw, launch);
            let merged: usize = plan.horizontal.iter().map(|h| h.parts.len() - 1).sum();
            Ok(Row {
                strategy: format!("{name}{flash}"),
                kernels: plan.groups.len() + merged,
                launches: plan.groups.len(),
                bytes_read: traffic.fused.bytes_read,
                bytes_written: traffic.fused.bytes_written,
                total_bytes: traffic.fused.total,
                flops: cost.flops,
                time_us: cost.time_s * 1e6,
                current: opts == *current,
                search_stopped: plan.stopped,
                options: opts,
            })
        })
        .collect()
}
