//! The data of a fusion plan: its kernels ([`FusionGroup`]), the edges it did not fuse and
//! why ([`Boundary`]), the edges special passes fused ([`FusedEdge`], [`FlashKernel`],
//! [`HorizontalMerge`]), and the questions every later stage asks of a plan. The algorithms
//! that make plans are above this file (`super::greedy` and the passes); `crate::traffic`,
//! `crate::cost` and the reports read plans through these types only.

use super::flash::AttentionPattern;
use super::work::SearchStop;
use super::{BudgetHit, FusedBy, Reason};
use crate::graph::{Graph, OpId, TensorId};
use std::fmt;

/// One kernel: its ops in execution order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FusionGroup {
    pub ops: Vec<OpId>,
    /// Ops of other kernels that this kernel computes again (`--policy recompute`), sorted by
    /// id; empty otherwise. Each op belongs to exactly one group's `ops`.
    pub recomputed: Vec<OpId>,
}

impl FusionGroup {
    /// A kernel of `ops` that recomputes nothing.
    pub fn of(ops: Vec<OpId>) -> FusionGroup {
        FusionGroup {
            ops,
            recomputed: Vec::new(),
        }
    }
    /// Every op the kernel runs: its members, then its copies.
    pub fn computed(&self) -> Vec<OpId> {
        self.ops.iter().chain(&self.recomputed).copied().collect()
    }
}

/// A producer → consumer edge that fusion did not remove, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    pub producer: OpId,
    pub consumer: OpId,
    pub tensor: TensorId,
    pub reason: Reason,
    /// The edge that breaks `reason` when it is another edge of the kernel the merge would
    /// make (only under policies other than `boundary`: `policy::Members::cross_edge_reason`).
    pub via: Option<(OpId, OpId)>,
    /// For `budget-exceeded`: the budget, what the merged kernel would need and the limit.
    pub budget: Option<BudgetHit>,
}

#[derive(Clone, Debug)]
pub struct FusionPlan {
    /// Groups in the order of their last op.
    pub groups: Vec<FusionGroup>,
    /// In the order the greedy pass met them: by consumer, then by argument position.
    pub boundaries: Vec<Boundary>,
    /// The index into `groups` of every op.
    pub group_of: Vec<usize>,
    /// The FlashAttention kernels of the plan, in group order; empty unless the plan was
    /// made with [`super::FusionOptions::flash_attention`].
    pub flash: Vec<FlashKernel>,
    /// The edges fused as reduction epilogues, in the order the greedy pass fused them;
    /// empty unless the plan was made with [`super::FusionOptions::reduction_epilogue`].
    pub epilogues: Vec<FusedEdge>,
    /// Under `--policy recompute`: the edges into a kernel that computes its producer again
    /// (one per copy; the producer's own kernel is that of its first consumer), in the order
    /// the greedy pass met them; empty otherwise.
    pub recomputes: Vec<FusedEdge>,
    /// Under `--horizontal`: the launches that merged independent kernels; empty otherwise.
    pub horizontal: Vec<HorizontalMerge>,
    /// The search that made the plan stopped at its work bound (`super::work`): the plan is
    /// legal but keeps what was found before (`search-stopped` boundaries after it).
    pub stopped: Option<SearchStop>,
}

/// An edge inside a FlashAttention kernel: the FlashAttention pass keeps it on chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FusedEdge {
    pub producer: OpId,
    pub consumer: OpId,
    pub tensor: TensorId,
    /// Which pass fused it.
    pub fused_by: FusedBy,
    /// The boundary the default grouping reports on this edge, if any: the rule the
    /// FlashAttention pass overrides.
    pub overrides: Option<Reason>,
}

/// One FlashAttention kernel of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlashKernel {
    /// Its index in [`FusionPlan::groups`].
    pub group: usize,
    pub pattern: AttentionPattern,
    /// The edges between the pattern's ops, in execution order.
    pub fused_edges: Vec<FusedEdge>,
}

impl FusionPlan {
    /// The FlashAttention kernel that is group `group`, if it is one.
    pub fn flash_kernel(&self, group: usize) -> Option<&FlashKernel> {
        self.flash.iter().find(|f| f.group == group)
    }
    /// Whether op `c` reads `o`'s output from HBM: it is in another kernel, which does not
    /// compute `o` again.
    pub fn reads_back(&self, c: OpId, o: OpId) -> bool {
        let k = self.group_of[c.index()];
        k != self.group_of[o.index()] && self.groups[k].recomputed.binary_search(&o).is_err()
    }
    /// For each op, the kernels that compute it again (`--policy recompute`, `inline`);
    /// empty lists when there are no copies.
    pub fn copy_holders(&self, n_ops: usize) -> Vec<Vec<usize>> {
        let mut h = vec![Vec::new(); n_ops];
        for (k, grp) in self.groups.iter().enumerate() {
            for &o in &grp.recomputed {
                h[o.index()].push(k);
            }
        }
        h
    }
    /// Whether `o`'s output must leave its kernel for a reader: a consumer in another kernel
    /// that does not compute `o` again, or a copy of a consumer in a kernel that does not
    /// compute `o` (`holders` from [`FusionPlan::copy_holders`]).
    pub fn read_elsewhere(&self, g: &Graph, o: OpId, holders: &[Vec<usize>]) -> bool {
        let k = self.group_of[o.index()];
        g.consumers(g.op(o).output).iter().any(|&c| {
            self.reads_back(c, o)
                || holders.get(c.index()).is_some_and(|hs| {
                    hs.iter()
                        .any(|&h| h != k && self.groups[h].recomputed.binary_search(&o).is_err())
                })
        })
    }
    /// The FLOPs the copies of `--policy recompute` add, over all kernels.
    pub fn recomputed_flops(&self, g: &Graph) -> u64 {
        self.groups
            .iter()
            .flat_map(|k| &k.recomputed)
            .fold(0u64, |a, &o| {
                a.saturating_add(crate::cost::flops::op_flops(g, o).0)
            })
    }
}

/// One launch made of independent kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HorizontalMerge {
    /// Its index in [`FusionPlan::groups`].
    pub group: usize,
    /// The ops of each kernel it joined, in the order they were merged.
    pub parts: Vec<Vec<OpId>>,
    /// The tensors more than one part reads, now read once.
    pub shared: Vec<TensorId>,
    /// Fused traffic of the parts as separate kernels minus that of the merged launch.
    pub bytes_saved: u64,
}

impl Boundary {
    /// Why this boundary stays, in words; for `materialized`, which of the two causes holds.
    pub fn explain(&self, g: &Graph) -> String {
        let mut s = String::new();
        let _ = self.write_explanation(&mut s, g);
        s
    }

    /// [`Boundary::explain`] written into `f`.
    pub fn write_explanation(&self, f: &mut dyn fmt::Write, g: &Graph) -> fmt::Result {
        let b = self;
        let (p, c, t) = (
            &g.op(b.producer).name,
            &g.op(b.consumer).name,
            &g.tensor(b.tensor).name,
        );
        if let (Reason::BudgetExceeded, Some(hit)) = (b.reason, &b.budget) {
            return write!(
                f,
                "one kernel for `{p}` and `{c}` would need {} {}, over the {} budget of {}",
                hit.needed,
                hit.budget.counts(),
                hit.budget.as_str(),
                hit.limit
            );
        }
        match b.reason {
            Reason::Materialized if g.is_output(b.tensor) => write!(
                f,
                "`{t}` is a graph output, so it must be written to HBM anyway"
            ),
            Reason::Materialized => write!(
                f,
                "`{t}` is read by {} ops, so it must be written to HBM anyway",
                g.consumers(b.tensor).len()
            ),
            r => match b.via {
                Some((vp, vc)) => {
                    let vt = &g.tensor(g.op(vp).output).name;
                    let (vp, vc) = (&g.op(vp).name, &g.op(vc).name);
                    write!(
                        f,
                        "one kernel for `{p}` and `{c}` would hold the edge `{vp}` → `{vc}`, and "
                    )?;
                    r.write_explanation(f, vp, vc, vt)
                }
                None => r.write_explanation(f, p, c, t),
            },
        }
    }
}
