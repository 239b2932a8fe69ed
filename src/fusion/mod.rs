//! Which ops become one GPU kernel (SPEC §2): the rules, the default greedy grouping and the
//! reason for every boundary. [`find_fusion_groups_with`] adds the FlashAttention pass
//! ([`flash`]), which is off by default.

pub mod epilogue;
pub mod flash;
pub mod policy;
mod reason;
pub mod whatif;

pub use flash::AttentionPattern;
pub use policy::Policy;
pub use reason::{FusedBy, Reason};

use crate::graph::{Graph, OpId, TensorId};
use crate::types::OpKind;

/// One kernel: its ops in execution order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusionGroup {
    pub ops: Vec<OpId>,
}

/// A producer → consumer edge that fusion did not remove, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    pub producer: OpId,
    pub consumer: OpId,
    pub tensor: TensorId,
    pub reason: Reason,
    /// The edge that breaks `reason` when it is another edge of the kernel the merge would
    /// make (only under policies other than `boundary`: [`policy::Members::cross_edge_reason`]).
    pub via: Option<(OpId, OpId)>,
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
    /// made with [`FusionOptions::flash_attention`].
    pub flash: Vec<FlashKernel>,
    /// The edges fused as reduction epilogues, in the order the greedy pass fused them;
    /// empty unless the plan was made with [`FusionOptions::reduction_epilogue`].
    pub epilogues: Vec<FusedEdge>,
}

/// How to group. The default is SPEC §2 exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FusionOptions {
    /// Fuse every attention pattern ([`flash::detect`]) into one FlashAttention kernel
    /// before the greedy pass, which then runs unchanged with that kernel counting as one
    /// matmul: it starts with a matmul (no prologue on Q, K or V: rule 1), takes elementwise
    /// and reshape epilogues like any matmul, and never joins a second matmul's kernel.
    pub flash_attention: bool,
    /// What rule 4 does with a tensor that must be written anyway ([`policy`]).
    pub policy: Policy,
    /// Let elementwise work on a reduced value join the reduction's kernel ([`epilogue`]).
    pub reduction_epilogue: bool,
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
}

/// Union-find over ops with each root's matmul count; iterative path halving.
struct Groups {
    parent: Vec<u32>,
    matmuls: Vec<u32>,
}

impl Groups {
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let gp = self.parent[self.parent[x] as usize];
            self.parent[x] = gp;
            x = gp as usize;
        }
        x
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[rb] = ra as u32;
            self.matmuls[ra] += self.matmuls[rb];
        }
    }
}

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
    let patterns = flash::detect(g);
    if patterns.is_empty() {
        return greedy(g, &[], opts);
    }
    let mut plan = greedy(g, &patterns, opts);
    // The boundaries the default grouping puts inside each pattern are the rules overridden.
    let default = find_fusion_groups(g);
    let overridden = |p: OpId, c: OpId| {
        default
            .boundaries
            .iter()
            .find(|b| b.producer == p && b.consumer == c)
            .map(|b| b.reason)
    };
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

/// The greedy pass of SPEC §2, with each of `patterns` merged into one kernel beforehand,
/// rule 4 as `opts.policy` says and rule 2 relaxed for reduction epilogues when asked.
fn greedy(g: &Graph, patterns: &[AttentionPattern], opts: FusionOptions) -> FusionPlan {
    let policy = opts.policy;
    let mut epilogues = Vec::new();
    let n = g.ops.len();
    let mut uf = Groups {
        parent: (0..n as u32).collect(),
        matmuls: g
            .ops
            .iter()
            .map(|o| u32::from(o.kind == OpKind::Matmul))
            .collect(),
    };
    // Group members, for the cycle check of policies that fuse through materialized tensors.
    let mut members = (policy != Policy::Boundary).then(|| policy::Members::new(g));
    // Each pattern becomes one kernel, which counts as one matmul.
    for p in patterns {
        for o in p.ops() {
            let (ra, rb) = (uf.find(p.qk.index()), uf.find(o.index()));
            uf.union(ra, rb);
            if let Some(m) = members.as_mut()
                && ra != rb
            {
                // A FlashAttention kernel's softmax is its own: no edge into a reduction
                // that rule 3 could later forbid.
                m.merge(ra, rb, None);
            }
        }
        let root = uf.find(p.qk.index());
        uf.matmuls[root] = 1;
    }
    let mut boundaries = Vec::new();
    // `Graph::predecessors` without a Vec per op: distinct producers in argument order.
    let mut preds: Vec<OpId> = Vec::new();
    for &c in &g.topo {
        let consumer = g.op(c);
        preds.clear();
        if consumer.inputs.len() <= 16 {
            for u in &consumer.inputs {
                if let Some(p) = g.producer(u.tensor)
                    && !preds.contains(&p)
                {
                    preds.push(p);
                }
            }
        } else {
            preds.extend(g.predecessors(c));
        }
        for &p in &preds {
            let producer = g.op(p);
            let (gp, gc) = (uf.find(p.index()), uf.find(c.index()));
            if gp == gc {
                continue;
            }
            let merged_matmuls = uf.matmuls[gp] + uf.matmuls[gc];
            // Rule 6 (acyclic groups) cannot break under this policy: fused edges carry
            // tensors with one consumer, so every group is an in-tree whose root is its only
            // member read from outside, and a path out of the root cannot come back in. A
            // FlashAttention pattern is such an in-tree too (its intermediates have one
            // consumer each), so the argument holds with the pass on.
            let mut via = None;
            let mut into_reduction = None;
            let reason = if consumer.kind == OpKind::Matmul {
                Some(Reason::MatmulStartsGroup)
            } else if producer.kind == OpKind::Reduction
                && !(opts.reduction_epilogue && epilogue::fits(g, p, c))
            {
                Some(Reason::AfterReduction)
            } else if consumer.kind == OpKind::Reduction && merged_matmuls > 0 {
                Some(Reason::ReductionAfterMatmul)
            } else if policy == Policy::Boundary && materialized(g, producer.output) {
                Some(Reason::Materialized)
            } else if merged_matmuls > 1 {
                Some(Reason::SecondMatmul)
            } else if let Some(Err((r, edge))) = members.as_ref().map(|m| {
                m.cross_edge_reason(g, gp, gc, merged_matmuls, |o| uf.find(o.index()))
                    .map(|e| into_reduction = e)
            }) {
                via = (edge != (p, c)).then_some(edge);
                Some(r)
            } else if members.as_ref().is_some_and(|m| m.over_budget(gp, gc)) {
                Some(Reason::BudgetExceeded)
            } else if let Some(m) = members.as_mut()
                && m.would_cycle(g, gp, gc, |o| uf.find(o.index()))
            {
                // Rule 6: only reachable when rule 4 let a materialized edge through.
                Some(Reason::WouldCreateCycle)
            } else {
                None
            };
            match reason {
                Some(reason) => boundaries.push(Boundary {
                    producer: p,
                    consumer: c,
                    tensor: producer.output,
                    reason,
                    via,
                }),
                None => {
                    uf.union(gp, gc);
                    if let Some(m) = members.as_mut() {
                        m.merge(gp, gc, into_reduction);
                    }
                    if producer.kind == OpKind::Reduction {
                        epilogues.push(FusedEdge {
                            producer: p,
                            consumer: c,
                            tensor: producer.output,
                            fused_by: FusedBy::ReductionEpilogue,
                            overrides: Some(Reason::AfterReduction),
                        });
                    }
                }
            }
        }
    }
    // Collect members in visiting order; a group's position is that of its last op.
    let mut root_group = vec![usize::MAX; n];
    let mut members: Vec<Vec<OpId>> = Vec::new();
    let mut last_pos: Vec<usize> = Vec::new();
    for (pos, &o) in g.topo.iter().enumerate() {
        let r = uf.find(o.index());
        if root_group[r] == usize::MAX {
            root_group[r] = members.len();
            members.push(Vec::new());
            last_pos.push(0);
        }
        members[root_group[r]].push(o);
        last_pos[root_group[r]] = pos;
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&i| last_pos[i]);
    let mut rank = vec![0; members.len()];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k;
    }
    let mut group_of = vec![0; n];
    for o in 0..n {
        group_of[o] = rank[root_group[uf.find(o)]];
    }
    let mut slots: Vec<Option<Vec<OpId>>> = members.into_iter().map(Some).collect();
    let groups = order
        .iter()
        .map(|&i| FusionGroup {
            ops: slots[i].take().unwrap_or_default(),
        })
        .collect();
    FusionPlan {
        groups,
        boundaries,
        group_of,
        flash: Vec::new(),
        epilogues,
    }
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
            FusionGroup { ops: vec![o] }
        })
        .collect();
    FusionPlan {
        groups,
        boundaries: Vec::new(),
        group_of,
        flash: Vec::new(),
        epilogues: Vec::new(),
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
                .map(|&o| a.graph.op(o).name.clone())
                .collect()
        })
        .collect();
    (a, groups)
}
