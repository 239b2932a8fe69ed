//! What would fuse a boundary (issue 13, item 7): for every boundary of a plan, the values
//! that make it one and the smallest change of the fusion options under which its producer
//! and consumer share a kernel, with the HBM bytes that change saves.
//!
//! The changes tried are the strategies' (`super::strategy::STRATEGIES`), one option each, relative to the options the plan was
//! made under; when no single change fuses an edge, pairs of them are tried. Each candidate
//! is planned once for the whole graph (not once per boundary), and only when some boundary
//! breaks a rule the candidate relaxes; an edge fuses under a candidate when its producer and
//! consumer are in one group of the candidate's plan, or the consumer's kernel computes the
//! producer again. The bytes are SPEC §3's, counted by [`crate::traffic`]:
//!
//! - [`Fix::saves_bytes`]: the fused total of the current plan minus that of the candidate's
//!   plan (what passing the option changes, over every edge it fuses; negative if the plan
//!   moves more);
//! - [`Fix::edge_saves_bytes`]: the current plan's traffic minus that of the same plan with
//!   the producer's and the consumer's kernels made one (what this edge alone is worth).
//!
//! Each candidate's plan search has the work bound of any plan search (`super::work`); the
//! candidates whose search stopped are listed ([`WhatIf::stopped`]) for the report's
//! `search-budget` warning.

use super::{Boundary, FusionOptions, FusionPlan, Reason, find_fusion_groups_with};
use crate::graph::{Graph, OpId, Origin};
use crate::traffic::{GroupTraffic, group_traffic, plan_traffic};
use crate::types::OpKind;
use serde::Serialize;
use std::collections::HashMap;

pub use super::strategy::Change;

/// `opts` with the what-if changes (`super::strategy`) named by `flags` made, in order; `None` for a flag
/// that is not there or a change the options have already.
pub fn apply(mut opts: FusionOptions, flags: &[&str]) -> Option<FusionOptions> {
    for flag in flags {
        let change = super::strategy::changes().find(|c| c.flag == *flag)?;
        opts = (change.apply)(opts)?;
    }
    Some(opts)
}

/// The smallest change that fuses one boundary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// The flags to add, as typed (one, or two when no single one fuses the edge).
    pub options: Vec<&'static str>,
    /// Fused total of the current plan minus that of the plan under the change.
    pub saves_bytes: i64,
    /// The current plan's traffic minus that of the same plan with the producer's and the
    /// consumer's kernels made one; `None` when not computed (the work bound of a very
    /// large graph).
    pub edge_saves_bytes: Option<u64>,
    /// The fused total under the change.
    pub plan_total: u64,
}

/// The values a boundary's rule involves (the JSON `values` object of a boundary).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Values {
    /// `kind.func` of the producer and the consumer of the edge that breaks the rule (the
    /// `via` edge when there is one).
    pub producer_kind: String,
    pub consumer_kind: String,
    /// `materialized`: how many ops read the tensor, the first [`MAX_NAMES`] of them by
    /// name, and whether it is a graph output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer_count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumers: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph_output: Option<bool>,
    /// `after-reduction`: the consumer's output shape, the reduction's input shape, and
    /// whether the first broadcasts into the second (what `--reduction-epilogue` needs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer_shape: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduction_input_shape: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epilogue_fits: Option<bool>,
    /// `reduction-after-matmul`, `second-matmul`, `matmul-epilogue`: the matmuls of the two
    /// kernels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matmuls: Option<Vec<String>>,
}

/// Names listed at most in [`Values`] (a tensor may have a million consumers, each edge a
/// boundary).
pub const MAX_NAMES: usize = 16;

/// What the engine found for one boundary. The values and the words are made when asked
/// ([`Hint::values`], [`Hint::sentence`]): a report of a million boundaries keeps only this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The smallest change that fuses the edge; `None` when no option does.
    pub fix: Option<Fix>,
    /// The first change that relaxes the boundary's rule, and the reason the edge keeps
    /// under it (when it was planned and does not fuse the edge).
    pub still: Option<(&'static str, Reason)>,
}

/// The engine's answer for a plan: one [`Hint`] per boundary, in the plan's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WhatIf {
    pub hints: Vec<Hint>,
    /// The candidates whose plan search stopped at its work bound (`super::work`), in the
    /// order they were planned: their options and the stop. A hint that relies on such a
    /// plan may miss a fix (the merge was left unchecked, `search-stopped`).
    pub stopped: Vec<(FusionOptions, super::SearchStop)>,
}

/// Ops visited at most by the per-edge byte counts of one plan (each merges two kernels):
/// beyond it `edge_saves_bytes` is left out, so that a huge kernel with many boundaries
/// costs linear time.
const EDGE_WORK: usize = 4_000_000;

/// Whether `plan` keeps the edge of `b` on chip: its two ops share a kernel, or the
/// consumer's kernel computes the producer again (`--policy recompute`).
fn fuses(plan: &FusionPlan, b: &Boundary) -> bool {
    !plan.reads_back(b.consumer, b.producer)
}

/// A candidate: its flags, its options, and (once planned) its plan and fused total.
struct Candidate {
    flags: Vec<&'static str>,
    opts: FusionOptions,
    relaxes: Vec<Reason>,
    planned: Option<(FusionPlan, u64)>,
    /// The reasons of its plan's boundaries, by edge (what is left when it does not fuse).
    boundaries: HashMap<(OpId, OpId), Reason>,
}

impl Candidate {
    fn plan(&mut self, g: &Graph) -> Option<&(FusionPlan, u64)> {
        if self.planned.is_none() {
            let plan = find_fusion_groups_with(g, self.opts);
            let total = plan_traffic(g, &plan).ok()?.1.total;
            self.boundaries = plan
                .boundaries
                .iter()
                .map(|b| ((b.producer, b.consumer), b.reason))
                .collect();
            self.planned = Some((plan, total));
        }
        self.planned.as_ref()
    }
}

/// The what-if of `plan`, made under `opts`, whose per-group traffic is `groups` (in group
/// order) and fused total `total`: one hint for each of the first `limit` boundaries.
pub fn what_if(
    g: &Graph,
    opts: FusionOptions,
    plan: &FusionPlan,
    groups: &[GroupTraffic],
    total: u64,
    limit: usize,
) -> WhatIf {
    let boundaries = &plan.boundaries[..limit.min(plan.boundaries.len())];
    if boundaries.is_empty() {
        return WhatIf::default();
    }
    // The changes that can matter for this graph.
    let changes: Vec<&Change> = super::strategy::changes()
        .filter(|c| (c.wanted)(g))
        .collect();
    let singles: Vec<Candidate> = changes
        .iter()
        .filter_map(|c| {
            Some(Candidate {
                flags: vec![c.flag],
                opts: (c.apply)(opts)?,
                relaxes: c.relaxes.to_vec(),
                planned: None,
                boundaries: HashMap::new(),
            })
        })
        .collect();
    let mut pairs = Vec::new();
    for (i, a) in changes.iter().enumerate() {
        for b in &changes[i + 1..] {
            let Some(o1) = (a.apply)(opts) else { continue };
            let Some(o2) = (b.apply)(o1) else { continue };
            // Two changes of one setting (two policies): the second undoes the first.
            if Some(o2) == (b.apply)(opts) || singles.iter().any(|s| s.opts == o2) {
                continue;
            }
            pairs.push(Candidate {
                flags: vec![a.flag, b.flag],
                opts: o2,
                relaxes: a.relaxes.iter().chain(b.relaxes).copied().collect(),
                planned: None,
                boundaries: HashMap::new(),
            });
        }
    }
    let mut tiers = [singles, pairs];
    // The tier (0: one change, 1: two) of the smallest change that fuses each boundary.
    let mut found: Vec<Option<usize>> = vec![None; boundaries.len()];
    for (tier, cands) in tiers.iter_mut().enumerate() {
        let before = found.clone();
        for cand in cands.iter_mut() {
            let relevant = boundaries
                .iter()
                .zip(&before)
                .any(|(b, f)| f.is_none() && cand.relaxes.contains(&b.reason));
            if !relevant {
                continue;
            }
            let Some((cand_plan, _)) = cand.plan(g) else {
                continue;
            };
            for (b, f) in boundaries.iter().zip(found.iter_mut()) {
                if f.is_none() && fuses(cand_plan, b) {
                    *f = Some(tier);
                }
            }
        }
    }
    // Within its tier, the candidate with the lowest fused total that fuses the edge (list
    // order among equals).
    let mut merger = Merger {
        plan: None,
        work: EDGE_WORK,
    };
    let hints = boundaries
        .iter()
        .zip(&found)
        .map(|(b, f)| {
            // What the first change that relaxes this rule leaves on the edge.
            let still = tiers[0].iter().find_map(|c| {
                c.relaxes.contains(&b.reason).then_some(())?;
                c.planned.as_ref()?;
                let r = c.boundaries.get(&(b.producer, b.consumer))?;
                Some((c.flags[0], *r))
            });
            let Some(tier) = *f else {
                return Hint { fix: None, still };
            };
            let best = tiers[tier]
                .iter()
                .filter_map(|c| {
                    let (cand_plan, t) = c.planned.as_ref()?;
                    fuses(cand_plan, b).then_some((c, *t))
                })
                .min_by_key(|&(_, t)| t);
            let Some((cand, cand_total)) = best else {
                return Hint { fix: None, still };
            };
            let edge = merger.edge_saves(
                g,
                plan,
                groups,
                plan.group_of[b.producer.index()],
                plan.group_of[b.consumer.index()],
            );
            Hint {
                still: None,
                fix: Some(Fix {
                    options: cand.flags.clone(),
                    saves_bytes: i128::from(total)
                        .saturating_sub(i128::from(cand_total))
                        .clamp(i128::from(i64::MIN), i128::from(i64::MAX))
                        as i64,
                    edge_saves_bytes: edge,
                    plan_total: cand_total,
                }),
            }
        })
        .collect();
    let stopped = tiers
        .iter()
        .flatten()
        .filter_map(|c| Some((c.opts, c.planned.as_ref()?.0.stopped?)))
        .collect();
    WhatIf { hints, stopped }
}

/// The per-edge byte counts: the current plan with two kernels made one, restored after.
struct Merger {
    /// A copy of the plan, made on first use.
    plan: Option<FusionPlan>,
    /// Ops the counts may still visit ([`EDGE_WORK`]).
    work: usize,
}

impl Merger {
    /// The current plan's traffic minus that of the plan with kernels `a` and `b` made one.
    fn edge_saves(
        &mut self,
        g: &Graph,
        plan: &FusionPlan,
        groups: &[GroupTraffic],
        a: usize,
        b: usize,
    ) -> Option<u64> {
        if a == b {
            return None;
        }
        let n = plan.groups[a].ops.len() + plan.groups[b].ops.len();
        self.work = self.work.checked_sub(n)?;
        let p = self.plan.get_or_insert_with(|| plan.clone());
        let moved = std::mem::take(&mut p.groups[b].ops);
        for o in &moved {
            p.group_of[o.index()] = a;
        }
        let keep = p.groups[a].ops.len();
        p.groups[a].ops.extend_from_slice(&moved);
        // The copies either kernel computed (`--policy recompute`), but of its own ops.
        let copies = p.groups[a].recomputed.clone();
        if !copies.is_empty() || !p.groups[b].recomputed.is_empty() {
            let mut all: Vec<OpId> = copies
                .iter()
                .chain(&p.groups[b].recomputed)
                .copied()
                .filter(|o| p.group_of[o.index()] != a)
                .collect();
            all.sort_unstable();
            all.dedup();
            p.groups[a].recomputed = all;
        }
        let merged = group_traffic(g, p, a);
        p.groups[a].recomputed = copies;
        p.groups[a].ops.truncate(keep);
        for o in &moved {
            p.group_of[o.index()] = b;
        }
        p.groups[b].ops = moved;
        let merged = merged.ok()?;
        let before = [&groups[a], &groups[b]].iter().try_fold(0u64, |s, t| {
            s.checked_add(t.bytes_read)?.checked_add(t.bytes_written)
        })?;
        let after = merged.bytes_read.checked_add(merged.bytes_written)?;
        Some(before.saturating_sub(after))
    }
}

/// The ops of the plan's kernel `k` that are matmuls.
fn matmuls_of<'a>(plan: &'a FusionPlan, g: &'a Graph, k: usize) -> impl Iterator<Item = OpId> + 'a {
    plan.groups[k]
        .ops
        .iter()
        .copied()
        .filter(|&o| g.op(o).kind.is_contraction())
}

/// The edge whose rule the boundary reports: its `via` edge, else itself.
fn rule_edge(b: &Boundary) -> (OpId, OpId) {
    b.via.unwrap_or((b.producer, b.consumer))
}

/// The values `b`'s rule involves.
pub fn values(g: &Graph, plan: &FusionPlan, b: &Boundary) -> Values {
    let (vp, vc) = rule_edge(b);
    let mut v = Values {
        producer_kind: g.op(vp).kind_func(),
        consumer_kind: g.op(vc).kind_func(),
        ..Values::default()
    };
    let (gp, gc) = (
        plan.group_of[b.producer.index()],
        plan.group_of[b.consumer.index()],
    );
    match b.reason {
        Reason::Materialized => {
            let consumers = g.consumers(b.tensor);
            v.consumer_count = Some(consumers.len());
            v.consumers = Some(
                consumers
                    .iter()
                    .take(MAX_NAMES)
                    .map(|&o| g.op(o).name.to_string())
                    .collect(),
            );
            v.graph_output = Some(g.is_output(b.tensor));
        }
        Reason::AfterReduction => {
            if let Some(rows) = g.op(vp).inputs.first() {
                v.reduction_input_shape = Some(g.use_shape(rows));
            }
            v.consumer_shape = Some(g.tensor(g.op(vc).output).shape.to_vec());
            v.epilogue_fits = Some(super::epilogue::fits(g, vp, vc));
        }
        Reason::ReductionAfterMatmul | Reason::SecondMatmul | Reason::MatmulEpilogue => {
            let mut m: Vec<OpId> = matmuls_of(plan, g, gp).collect();
            if gc != gp {
                m.extend(matmuls_of(plan, g, gc));
            }
            m.sort();
            v.matmuls = Some(m.into_iter().map(|o| g.op(o).name.to_string()).collect());
        }
        // `budget-exceeded`: the budget, what the merge needs and the limit are the
        // boundary's own `budget`.
        Reason::MatmulStartsGroup
        | Reason::WouldCreateCycle
        | Reason::BudgetExceeded
        | Reason::SearchStopped
        | Reason::Collective => {}
    }
    v
}

/// `` `a`, `b` and `c` `` (at most 6 names, then how many more of `total`).
fn names(items: &[String], total: usize) -> String {
    let quoted: Vec<String> = items.iter().take(6).map(|n| format!("`{n}`")).collect();
    if total > quoted.len() {
        return format!("{}, … {} more", quoted.join(", "), total - quoted.len());
    }
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

fn shape(s: &[u64]) -> String {
    crate::sema::fmt_shape(s)
}

/// The values of `b`'s rule in words: "`t` has 2 consumers (`a`, `b`)".
pub fn values_sentence(g: &Graph, b: &Boundary, v: &Values) -> String {
    let (vp, vc) = rule_edge(b);
    let (p, c) = (&g.op(vp).name, &g.op(vc).name);
    let t = &g.tensor(b.tensor).name;
    let through = if b.via.is_some() {
        format!("through the edge `{p}` → `{c}`, ")
    } else {
        String::new()
    };
    let m = v.matmuls.as_deref().unwrap_or_default();
    let body = match b.reason {
        Reason::Materialized => {
            let cons = v.consumers.as_deref().unwrap_or_default();
            let n = v.consumer_count.unwrap_or(cons.len());
            let plural = if n == 1 { "" } else { "s" };
            match (v.graph_output == Some(true), n) {
                (true, 0 | 1) => format!("`{t}` is a graph output"),
                (true, _) => format!(
                    "`{t}` is a graph output and has {n} consumer{plural} ({})",
                    names(cons, n)
                ),
                (false, _) => format!("`{t}` has {n} consumer{plural} ({})", names(cons, n)),
            }
        }
        Reason::MatmulStartsGroup => {
            format!("`{p}` ({}) feeds the matmul `{c}`", v.producer_kind)
        }
        Reason::AfterReduction => {
            let (cs, rs) = (
                v.consumer_shape.as_deref().unwrap_or_default(),
                v.reduction_input_shape.as_deref().unwrap_or_default(),
            );
            if g.op(vc).kind != OpKind::Elementwise {
                format!(
                    "`{p}` is {} and `{c}` is {}, not elementwise",
                    v.producer_kind, v.consumer_kind
                )
            } else if v.epilogue_fits == Some(true) {
                format!(
                    "`{p}` is {} and `{c}`'s output {} broadcasts into its input {}",
                    v.producer_kind,
                    shape(cs),
                    shape(rs)
                )
            } else {
                format!(
                    "`{p}` is {} and `{c}`'s output {} does not broadcast into its input {}",
                    v.producer_kind,
                    shape(cs),
                    shape(rs)
                )
            }
        }
        Reason::ReductionAfterMatmul => format!(
            "`{c}` is {} and the kernels hold the matmul{} {}",
            v.consumer_kind,
            if m.len() > 1 { "s" } else { "" },
            names(m, m.len())
        ),
        Reason::SecondMatmul => format!("the kernels hold the matmuls {}", names(m, m.len())),
        Reason::WouldCreateCycle => {
            format!("a path leaves `{p}`'s kernel and comes back into `{c}`'s")
        }
        Reason::BudgetExceeded => match b.budget {
            Some(hit) => format!(
                "one kernel for `{p}` and `{c}` would need {} {} against a limit of {}",
                hit.needed,
                hit.budget.counts(),
                hit.limit
            ),
            None => format!("one kernel for `{p}` and `{c}` would exceed a budget"),
        },
        Reason::MatmulEpilogue => format!(
            "`{c}` ({}) would join the kernel of the matmul{} {}",
            v.consumer_kind,
            if m.len() > 1 { "s" } else { "" },
            names(m, m.len())
        ),
        Reason::SearchStopped => format!(
            "the plan search reached its work bound before it checked one kernel for `{p}` and \
             `{c}`"
        ),
        Reason::Collective => {
            let which = if g.op(vp).kind.is_collective() { p } else { c };
            let kind = if g.op(vp).kind.is_collective() {
                &v.producer_kind
            } else {
                &v.consumer_kind
            };
            format!("`{which}` is {kind}, a collective")
        }
    };
    through + &body
}

/// Why no option fuses `b`, and what it would take in the graph where that means something;
/// `still`: the first change that relaxes its rule, and the reason the edge keeps under it.
fn no_fix(g: &Graph, b: &Boundary, still: Option<(&'static str, Reason)>) -> String {
    let (vp, vc) = rule_edge(b);
    let (p, c) = (&g.op(vp).name, &g.op(vc).name);
    // Where the option that relaxes the rule leaves another rule on the edge.
    let generic = match still {
        Some((flag, r)) => format!("with `{flag}` it stays a boundary [{r}]"),
        None => "one kernel for both would break another rule".to_string(),
    };
    let why = match b.reason {
        Reason::MatmulStartsGroup => {
            let producer = g.op(vp);
            let weights_only = !producer.inputs.is_empty()
                && producer
                    .inputs
                    .iter()
                    .all(|u| g.tensor(u.tensor).origin == Origin::Weight);
            if weights_only && !producer.kind.is_contraction() {
                format!(
                    "a matmul has no prologue; `{p}` reads only weights, so computing it ahead \
                     of time (into the weights) would remove this edge"
                )
            } else {
                "a matmul has no prologue (it reads its operands from HBM)".into()
            }
        }
        Reason::AfterReduction => {
            if g.op(vc).kind == OpKind::Elementwise && !super::epilogue::fits(g, vp, vc) {
                format!(
                    "a reduction ends its kernel, and `{c}` works on a larger domain than \
                     `{p}`'s rows, so it is no reduction epilogue"
                )
            } else if g.op(vc).kind != OpKind::Elementwise {
                "a reduction ends its kernel, and only elementwise work joins it as an epilogue"
                    .into()
            } else {
                format!("a reduction ends its kernel; {generic}")
            }
        }
        Reason::ReductionAfterMatmul => "matmul epilogues are elementwise or reshape only".into(),
        Reason::Collective => {
            "a collective is an NCCL kernel of its own, never fused with its neighbours".into()
        }
        Reason::SecondMatmul => "a kernel holds at most one matmul".into(),
        Reason::WouldCreateCycle => "one kernel for both would depend on itself".into(),
        Reason::BudgetExceeded => match b.budget {
            Some(hit) => format!(
                "the merge needs a budget of at least {} {} (`{} {}`)",
                hit.needed,
                hit.budget.counts(),
                match hit.budget {
                    super::Budget::Ops => "--max-kernel-ops",
                    super::Budget::Tensors => "--max-kernel-tensors",
                    super::Budget::Registers => "--max-registers",
                },
                hit.needed
            ),
            None => "no option raises the budget".into(),
        },
        Reason::MatmulEpilogue => {
            "the matmul takes only the epilogues `--matmul-epilogue` allows".into()
        }
        Reason::SearchStopped => {
            return "the merge was never checked (the `search-budget` warning says why); a \
                    higher `--max-plan-work` would check it"
                .into();
        }
        Reason::Materialized => generic,
    };
    format!("no option fuses this edge: {why}")
}

/// `67.1 MB`.
fn short_bytes(b: u64) -> String {
    crate::units::with_unit(b, "B")
}

impl Hint {
    /// The values `b`'s rule involves; `plan` is the plan `b` belongs to.
    pub fn values(&self, g: &Graph, plan: &FusionPlan, b: &Boundary) -> Values {
        values(g, plan, b)
    }

    /// When no option fuses the edge: why, and what it would take in the graph where that
    /// means something.
    pub fn no_fix(&self, g: &Graph, b: &Boundary) -> Option<String> {
        self.fix.is_none().then(|| no_fix(g, b, self.still))
    }

    /// The hint in words: "`t` has 2 consumers (`a` and `b`): with `--policy store` this
    /// edge fuses and saves 67.1 MB (the whole plan saves 80.2 MB)".
    pub fn sentence(&self, g: &Graph, plan: &FusionPlan, b: &Boundary) -> String {
        let lead = values_sentence(g, b, &values(g, plan, b));
        match (&self.fix, self.no_fix(g, b)) {
            (Some(f), _) => {
                let flags = f.options.join(" ");
                let plan = match f.saves_bytes {
                    s if s >= 0 => format!("the whole plan saves {}", short_bytes(s as u64)),
                    s => format!(
                        "but the whole plan moves {} more",
                        short_bytes(s.unsigned_abs())
                    ),
                };
                match f.edge_saves_bytes {
                    Some(e) => format!(
                        "{lead}: with `{flags}` this edge fuses and saves {} ({plan})",
                        short_bytes(e)
                    ),
                    None => format!("{lead}: with `{flags}` this edge fuses ({plan})"),
                }
            }
            (None, Some(why)) => format!("{lead}; {why}"),
            (None, None) => lead,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Hint, Values, WhatIf, what_if};
    use crate::analysis::Options;
    use crate::fusion::Policy;

    /// The what-if of `src` under `opts`, with each boundary as `p→c` and its sentence, and
    /// the values of each.
    fn run(src: &str, opts: &Options) -> (WhatIf, Vec<(String, String)>, Vec<Values>) {
        let (a, _) = crate::fusion::analysed(src, opts);
        let w = what_if(
            &a.graph,
            a.fusion,
            &a.plan,
            &a.traffic.groups,
            a.traffic.fused.total,
            usize::MAX,
        );
        assert_eq!(w.hints.len(), a.plan.boundaries.len());
        let g = &a.graph;
        let lines = a
            .plan
            .boundaries
            .iter()
            .zip(&w.hints)
            .map(|(b, h)| {
                (
                    format!("{}→{}", g.op(b.producer).name, g.op(b.consumer).name),
                    h.sentence(g, &a.plan, b),
                )
            })
            .collect();
        let values = a
            .plan
            .boundaries
            .iter()
            .zip(&w.hints)
            .map(|(b, h)| h.values(g, &a.plan, b))
            .collect();
        (w, lines, values)
    }

    fn fix(h: &Hint) -> Vec<&str> {
        h.fix.as_ref().map_or(Vec::new(), |f| f.options.clone())
    }

    const DIAMOND: &str = "graph d {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  op d = elementwise.add(u, v) -> y\n}\n";

    #[test]
    fn a_materialized_edge_is_fixed_by_store() {
        let (w, lines, v) = run(DIAMOND, &Options::default());
        let t = 64 * 64 * 4;
        for (h, v) in w.hints.iter().zip(&v) {
            assert_eq!(fix(h), ["--policy store"]);
            let f = h.fix.as_ref().expect("fix");
            // One kernel for {a} and {b, c, d}: `t` is neither written nor read back.
            assert_eq!(f.edge_saves_bytes, Some(2 * t));
            // Under store the whole graph is one kernel: x read, y written.
            assert_eq!(f.plan_total, 2 * t);
            assert_eq!(f.saves_bytes, 2 * t as i64);
            assert_eq!(v.consumers.as_deref(), Some(&["b".into(), "c".into()][..]));
            assert_eq!(v.graph_output, Some(false));
        }
        assert_eq!(
            lines[0],
            (
                "a→b".into(),
                "`t` has 2 consumers (`b` and `c`): with `--policy store` this edge fuses and \
                 saves 32.8 kB (the whole plan saves 32.8 kB)"
                    .into()
            )
        );
        // Under store there is nothing left to fix.
        let store = Options {
            fusion: crate::fusion::FusionOptions {
                policy: Policy::Store,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        assert!(run(DIAMOND, &store).0.hints.is_empty());
    }

    /// RMSNorm written out: the reduced value's only consumer works on its rows.
    const RMSNORM: &str = "graph rms {\n  input x: [64, 256]\n  weight w: [256]\n  op sq = elementwise.mul(x, x) -> x2\n  op ms = reduction.mean(x2, axis = -1) -> m: [64, 1]\n  op rs = elementwise.rsqrt(m) -> r\n  op nx = elementwise.mul(x, r) -> n\n  op y = elementwise.mul(n, w) -> out\n}\n";

    #[test]
    fn after_reduction_is_fixed_by_reduction_epilogue_where_it_fits() {
        let (w, lines, v) = run(RMSNORM, &Options::default());
        assert_eq!(lines.len(), 1);
        assert_eq!(fix(&w.hints[0]), ["--reduction-epilogue"]);
        assert_eq!(v[0].epilogue_fits, Some(true));
        assert!(
            lines[0].1.starts_with(
                "`ms` is reduction.mean and `rs`'s output [64, 1] broadcasts into its input \
                 [64, 256]: with `--reduction-epilogue` this edge fuses and saves"
            ),
            "{}",
            lines[0].1
        );
        // The consumer works on a larger domain: no option fuses it.
        let wider = "graph w {\n  input x: [64, 256]\n  input z: [4, 64, 256]\n  op s = reduction.sum(x, axis = -1) -> m: [64, 1]\n  op e = elementwise.mul(z, m) -> y\n}\n";
        let (w, lines, v) = run(wider, &Options::default());
        assert!(w.hints[0].fix.is_none());
        assert_eq!(v[0].epilogue_fits, Some(false));
        assert!(
            lines[0]
                .1
                .contains("does not broadcast into its input [64, 256]; no option fuses this edge"),
            "{}",
            lines[0].1
        );
    }

    #[test]
    fn a_reduced_value_with_two_readers_needs_two_changes() {
        // Rule 2 and rule 4 both hold on `s → a`: neither option alone fuses it.
        let shared = "graph s {\n  input x: [64, 256]\n  op s = reduction.sum(x, axis = -1) -> m: [64, 1]\n  op a = elementwise.exp(m) -> y\n  op b = elementwise.neg(m) -> z\n}\n";
        let (w, lines, v) = run(shared, &Options::default());
        assert_eq!(lines[0].0, "s→a");
        // A policy that fuses through `m` and reduction epilogues together do.
        let f = w.hints[0].fix.as_ref().expect("a pair fuses it");
        assert_eq!(f.options.len(), 2, "{f:?}");
        assert!(f.options.contains(&"--reduction-epilogue"), "{f:?}");
        assert!(lines[0].1.contains("this edge fuses"), "{}", lines[0].1);
        assert_eq!(v[0].epilogue_fits, Some(true));
    }

    #[test]
    fn a_matmul_prologue_is_never_fixable() {
        let src = "graph m {\n  dtype f16\n  input x: [64, 64]\n  weight w: [64, 64]\n  weight s: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op m = matmul(t, w) -> y\n  op q = elementwise.mul(w, s) -> ws\n  op n = matmul(y, ws) -> z\n}\n";
        let (w, lines, v) = run(src, &Options::default());
        let by = |name: &str| {
            let k = lines.iter().position(|(e, _)| e == name).expect(name);
            (&w.hints[k], &lines[k].1, &v[k])
        };
        let (h, s, values) = by("a→m");
        assert!(h.fix.is_none());
        assert_eq!(values.producer_kind, "elementwise.relu");
        assert_eq!(
            s,
            "`a` (elementwise.relu) feeds the matmul `m`; no option fuses this edge: a matmul \
             has no prologue (it reads its operands from HBM)"
        );
        // A producer of weights only could be computed ahead of time.
        let (h, s, _) = by("q→n");
        assert!(h.fix.is_none());
        assert!(s.contains("`q` reads only weights"), "{s}");
        // Nor under any other options.
        for opts in [
            Options {
                fusion: crate::fusion::FusionOptions {
                    policy: Policy::Store,
                    reduction_epilogue: true,
                    ..crate::fusion::FusionOptions::default()
                },
                ..Options::default()
            },
            Options {
                fusion: crate::fusion::FusionOptions {
                    flash_attention: true,
                    ..crate::fusion::FusionOptions::default()
                },
                ..Options::default()
            },
        ] {
            let (w, _, _) = run(src, &opts);
            assert!(w.hints.iter().all(|h| h.fix.is_none()));
        }
    }

    #[test]
    fn attention_edges_are_fixed_by_flash_attention() {
        let src = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/attention.fgraph"),
        )
        .expect("example");
        let (w, _, _) = run(&src, &Options::default());
        assert!(
            w.hints
                .iter()
                .any(|h| fix(h) == ["--flash-attention"] && h.fix.as_ref().unwrap().saves_bytes > 0)
        );
    }

    #[test]
    fn a_second_matmul_names_both() {
        let src = "graph m {\n  input x: [64, 64]\n  weight w: [64, 64]\n  weight v: [64, 64]\n  op m1 = matmul(x, w) -> y\n  op m2 = matmul(x, v) -> z\n  op e = elementwise.add(y, z) -> o\n}\n";
        let (_, lines, v) = run(src, &Options::default());
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].0, "m2→e");
        assert_eq!(
            v[0].matmuls.as_deref(),
            Some(&["m1".to_string(), "m2".to_string()][..])
        );
        assert!(
            lines[0]
                .1
                .ends_with("no option fuses this edge: a kernel holds at most one matmul"),
            "{}",
            lines[0].1
        );
    }
}
