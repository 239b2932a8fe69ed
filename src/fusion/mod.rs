//! Which ops become one GPU kernel (SPEC §2), and why every other edge is a boundary.
//!
//! The pipeline, as [`find_fusion_groups_with`] runs it:
//!
//! 1. `--flash-attention`: [`flash::detect`] finds the attention patterns (pre-pass);
//! 2. the greedy pass (`greedy`), asking the edge rules (`rules`) and the strategies'
//!    relaxations: the multi-consumer [`policy`] (with [`recompute`] copies), reduction
//!    [`epilogue`]s, diamonds ([`dominator`]), [`budget`]s;
//! 3. `--horizontal`: `horizontal::merge` (post-pass, inside the greedy pass so that
//!    `--policy recompute` compares whole plans);
//! 4. the FlashAttention kernels are recorded with the rules they override.
//!
//! The data lives below the algorithms: [`plan`] (the plan), [`options`] (what to ask for),
//! [`reason`] (why a boundary stays). [`preset`] maps compilers to options, [`whatif`] finds
//! the smallest change that fuses a boundary, and [`strategy`] is the table of strategies
//! (flag, JSON key, pass, report line, `--compare` settings, what-if changes).

pub mod budget;
pub mod dominator;
pub mod epilogue;
pub mod flash;
mod greedy;
pub mod horizontal;
pub mod options;
pub mod plan;
pub mod policy;
pub mod preset;
pub mod reason;
pub mod recompute;
mod rules;
pub mod strategy;
pub mod whatif;
pub mod work;

pub use budget::{Budget, BudgetHit, Budgets};
pub use flash::AttentionPattern;
pub use horizontal::Horizontal;
pub use options::FusionOptions;
pub use plan::{Boundary, FlashKernel, FusedEdge, FusionGroup, FusionPlan, HorizontalMerge};
pub use policy::{MatmulEpilogue, Policy};
pub use preset::Fuser;
pub use reason::{FusedBy, Reason};
pub use work::SearchStop;

use greedy::greedy;

use crate::graph::{Graph, OpId, TensorId};

/// A tensor that must be written to HBM whatever the grouping: two or more consumers, or a
/// graph output (rule 4).
pub fn materialized(g: &Graph, t: TensorId) -> bool {
    g.consumers(t).len() >= 2 || g.is_output(t)
}

/// The default grouping: visit ops in topological order; merge each op into every
/// producer's group whose edge satisfies rules 1–6; otherwise it starts a group.
pub fn find_fusion_groups(g: &Graph) -> FusionPlan {
    greedy(g, &[], FusionOptions::default())
}

/// The grouping under `opts`: [`find_fusion_groups`] when every option is off.
pub fn find_fusion_groups_with(g: &Graph, opts: FusionOptions) -> FusionPlan {
    if !opts.flash_attention {
        return greedy(g, &[], opts);
    }
    find_fusion_groups_with_patterns(g, opts, flash::detect(g))
}

/// The grouping under `opts` with a FlashAttention kernel for each of `patterns` (some of
/// [`flash::detect`]'s: those a compiler rewrites, `crate::runtime`), whatever
/// `opts.flash_attention` says.
pub fn find_fusion_groups_with_patterns(
    g: &Graph,
    opts: FusionOptions,
    patterns: Vec<AttentionPattern>,
) -> FusionPlan {
    if patterns.is_empty() {
        return greedy(g, &[], opts);
    }
    let mut plan = greedy(g, &patterns, opts);
    // The boundaries the default grouping puts inside each pattern are the rules overridden
    // (the first boundary of each edge, looked up, not searched for).
    let default = find_fusion_groups(g);
    let mut by_edge: std::collections::HashMap<(OpId, OpId), Reason> =
        std::collections::HashMap::new();
    for b in &default.boundaries {
        by_edge.entry((b.producer, b.consumer)).or_insert(b.reason);
    }
    let overridden = |p: OpId, c: OpId| by_edge.get(&(p, c)).copied();
    let mut flash: Vec<FlashKernel> = patterns
        .into_iter()
        .map(|pattern| {
            let ops = pattern.ops();
            let fused_edges = ops
                .windows(2)
                .map(|w| FusedEdge {
                    producer: w[0],
                    consumer: w[1],
                    tensor: g.op(w[0]).output,
                    fused_by: FusedBy::FlashAttention,
                    overrides: overridden(w[0], w[1]),
                })
                .collect();
            FlashKernel {
                group: plan.group_of[pattern.qk.index()],
                pattern,
                fused_edges,
            }
        })
        .collect();
    flash.sort_by_key(|f| f.group);
    plan.flash = flash;
    plan
}

/// Every op alone: the unfused plan.
pub fn unfused(g: &Graph) -> FusionPlan {
    let mut group_of = vec![0; g.ops.len()];
    let groups = g
        .topo
        .iter()
        .enumerate()
        .map(|(k, &o)| {
            group_of[o.index()] = k;
            FusionGroup::of(vec![o])
        })
        .collect();
    FusionPlan {
        groups,
        boundaries: Vec::new(),
        group_of,
        flash: Vec::new(),
        epilogues: Vec::new(),
        recomputes: Vec::new(),
        horizontal: Vec::new(),
        stopped: None,
    }
}

/// For the tests of the fusion passes: a source analysed under `opts` (no errors allowed),
/// and its groups as op names.
#[cfg(test)]
pub(crate) fn analysed(
    src: &str,
    opts: &crate::analysis::Options,
) -> (crate::analysis::Analysis, Vec<Vec<String>>) {
    let r = crate::analysis::check_file("t.fgraph", src.as_bytes(), opts);
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        r.diagnostics
    );
    let a = r.graphs[0].analysis.clone().expect("analysis");
    let groups = a
        .plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops
                .iter()
                .map(|&o| a.graph.op(o).name.to_string())
                .collect()
        })
        .collect();
    (a, groups)
}
