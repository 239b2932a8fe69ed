//! The greedy pass of SPEC §2: visit ops in topological order and merge each op into every
//! producer's kernel unless the edge breaks a rule. Rules 1, 2, 3 and 5 are asked of
//! `super::rules`; rule 4 follows the multi-consumer policy (`super::policy`, copies from
//! `super::recompute`), the matmul epilogue (`super::policy::MatmulEpilogue`), diamonds
//! (`super::dominator`), budgets (`super::budget`) and the cycle check (rule 6) are asked here,
//! in that order. Each attention pattern (`super::flash`) enters as one kernel holding one
//! matmul; under `--horizontal` the finished plan goes through `super::horizontal::merge`.

use super::work::{Meter, Pass};
use super::{
    AttentionPattern, Boundary, FusedBy, FusedEdge, FusionGroup, FusionOptions, FusionPlan,
    Horizontal, Policy, Reason, dominator, horizontal, materialized, policy, recompute, rules,
};
use crate::graph::{Graph, OpId, TensorId};
use crate::types::OpKind;

/// Union-find over ops with each root's matmul count and size; iterative path halving.
struct Groups {
    parent: Vec<u32>,
    matmuls: Vec<u32>,
    size: Vec<u32>,
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
            self.size[ra] += self.size[rb];
        }
    }
}

/// Under `inline`: whether `c` is an `expand` of a value computed by `p` (not a layout op of
/// a tensor read from HBM). Inductor stores such a value and expands it in a kernel of its
/// own (the `repeat_kv` copy of a Llama layer).
fn realizes(g: &Graph, p: OpId, c: OpId) -> bool {
    if g.op(c).kind != OpKind::Expand {
        return false;
    }
    // Walk back through layout ops to the op that computes the value.
    let mut q = p;
    for _ in 0..64 {
        let op = g.op(q);
        if !op.kind.is_layout() {
            return !(op.kind.is_contraction() || op.kind.is_reduction());
        }
        match op.inputs.first().and_then(|u| g.producer(u.tensor)) {
            Some(next) => q = next,
            None => return false,
        }
    }
    false
}

/// Whether `c` loops over as many elements as `p` writes (a reduction loops over its input).
fn same_loop(g: &Graph, p: OpId, c: OpId) -> bool {
    let elements = |t: TensorId| g.tensor(t).shape.iter().product::<u64>();
    let op = g.op(c);
    let looped = match (op.kind, op.inputs.first()) {
        (k, Some(u)) if k.is_reduction() => u.tensor,
        _ => op.output,
    };
    elements(g.op(p).output) == elements(looped)
}

/// The greedy pass of SPEC §2, with each of `patterns` merged into one kernel beforehand,
/// rule 4 as `opts.policy` says and rule 2 relaxed for reduction epilogues when asked.
/// The checks of both passes (and of the two plans under `recompute`) spend one
/// [`Meter`]: past its bound the plan keeps what it found and records the stop.
pub(super) fn greedy(g: &Graph, patterns: &[AttentionPattern], opts: FusionOptions) -> FusionPlan {
    greedy_within(g, patterns, opts, &mut Meter::new(g, opts.work_limit))
}

/// [`greedy`] with the checks spending `meter`.
pub(super) fn greedy_within(
    g: &Graph,
    patterns: &[AttentionPattern],
    opts: FusionOptions,
    meter: &mut Meter,
) -> FusionPlan {
    let plan = greedy_once(g, patterns, opts, meter);
    if opts.policy != Policy::Recompute {
        return plan;
    }
    // The duplication rule is local (recompute.rs); the plan it makes must also pay as a
    // whole, or the plan without copies stands.
    let plain = greedy_once(
        g,
        patterns,
        FusionOptions {
            policy: Policy::Boundary,
            ..opts
        },
        meter,
    );
    let total = |p: &FusionPlan| crate::traffic::plan_traffic(g, p).map(|(_, t)| t.total);
    let mut chosen = match (total(&plan), total(&plain)) {
        (Ok(a), Ok(b)) if a < b => plan,
        _ => plain,
    };
    // The choice compared two searches: a stop in either is a stop of this one.
    chosen.stopped = meter.stop(&chosen);
    chosen
}

/// [`greedy`] without the check that recomputing pays.
fn greedy_once(
    g: &Graph,
    patterns: &[AttentionPattern],
    opts: FusionOptions,
    meter: &mut Meter,
) -> FusionPlan {
    let policy = opts.policy;
    let budgets = opts.effective_budgets();
    let mut epilogues = Vec::new();
    let mut recomputes = Vec::new();
    let n = g.ops.len();
    let mut uf = Groups {
        parent: (0..n as u32).collect(),
        matmuls: g
            .ops
            .iter()
            .map(|o| u32::from(o.kind.is_contraction()))
            .collect(),
        size: vec![1; n],
    };
    // Tensors inside a reconverging diamond, exempt from rule 4 (`diamonds`).
    let exempt = opts.diamonds.then(|| dominator::exempt(g, meter));
    // Merges through a materialized tensor can bring in other edges and close cycles: the
    // store policy and diamonds check every merge.
    let stores = matches!(policy, Policy::Store | Policy::Inline);
    let checked = stores || opts.diamonds;
    // Group members, for those checks and for the budgets.
    let mut members = (checked || budgets.any()).then(|| policy::Members::new(g));
    // Under recompute: which ops are duplicated, whether each has its home kernel yet, and
    // the copies each union-find root computes.
    // Under `addmm`: which adds keep a reader that is not a pointwise use (one pass).
    let addmm = if opts.matmul_epilogue == policy::MatmulEpilogue::Addmm {
        policy::addmm_readers(g)
    } else {
        Vec::new()
    };
    let dup = matches!(policy, Policy::Recompute | Policy::Inline).then(|| {
        recompute::Duplication::choose(
            g,
            opts.matmul_epilogue,
            &addmm,
            policy == Policy::Inline,
            meter,
        )
    });
    let mut placed = vec![false; if dup.is_some() { n } else { 0 }];
    let mut copies: Vec<Vec<OpId>> = vec![Vec::new(); if dup.is_some() { n } else { 0 }];
    // For each duplicated op, an op of every kernel that holds a copy of it (for the cycle
    // check: such a kernel reads what the op reads).
    let mut holders: Vec<Vec<OpId>> = vec![Vec::new(); if dup.is_some() { n } else { 0 }];
    let mut closure = Vec::new();
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
    // `Graph::predecessors` without a Vec per op: distinct producers in argument order (a
    // mark per producer for a long argument list, not a scan per argument).
    let mut preds: Vec<OpId> = Vec::new();
    let mut marked: Vec<u32> = Vec::new();
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
            if marked.is_empty() {
                marked = vec![u32::MAX; n];
            }
            for u in &consumer.inputs {
                if let Some(p) = g.producer(u.tensor)
                    && marked[p.index()] != c.0
                {
                    marked[p.index()] = c.0;
                    preds.push(p);
                }
            }
        }
        for &p in &preds {
            let producer = g.op(p);
            let (gp, gc) = (uf.find(p.index()), uf.find(c.index()));
            if gp == gc {
                continue;
            }
            let duplicated = dup.as_ref().is_some_and(|d| d.dup[p.index()]);
            if duplicated && placed[p.index()] {
                // A copy of `p` (and the duplicated ops it reads) joins `c`'s kernel.
                if let Some(d) = &dup {
                    d.closure(g, p, &mut closure);
                }
                // Rule 2 inside the kernel: a copy may read a reduction of the kernel only
                // as a reduction epilogue. The walk of the copy's inputs is work.
                let reason = if rules::matmul_starts_group(g, c) {
                    Some(Reason::MatmulStartsGroup)
                } else if !meter.spend(Pass::Greedy, inputs_of(g, &closure)) {
                    Some(Reason::SearchStopped)
                } else {
                    let after_reduction = closure.iter().any(|&q| {
                        g.op(q).inputs.iter().any(|u| {
                            g.producer(u.tensor).is_some_and(|r| {
                                uf.find(r.index()) == gc
                                    && rules::after_reduction(g, r, q, opts.reduction_epilogue)
                            })
                        })
                    });
                    rules::first_of_rules_1_to_3(g, c, after_reduction, uf.matmuls[gc])
                };
                if let Some(reason) = reason {
                    boundaries.push(Boundary {
                        producer: p,
                        consumer: c,
                        tensor: producer.output,
                        reason,
                        via: None,
                        budget: None,
                    });
                    continue;
                }
                // Duplicates and ops that become members later go at the end.
                copies[gc].extend(closure.iter().filter(|q| uf.find(q.index()) != gc));
                for &q in &closure {
                    holders[q.index()].push(c);
                }
                recomputes.push(FusedEdge {
                    producer: p,
                    consumer: c,
                    tensor: producer.output,
                    fused_by: FusedBy::Recompute,
                    overrides: Some(Reason::Materialized),
                });
                continue;
            }
            let merged_matmuls = uf.matmuls[gp] + uf.matmuls[gc];
            let materialized_here =
                match &dup {
                    // Under recompute a duplicated op's tensor is never written, and a tensor is
                    // read back by every kernel that holds a copy of its reader.
                    Some(d) => {
                        !duplicated && (d.readers[p.index()] >= 2 || g.is_output(producer.output))
                    }
                    None => materialized(g, producer.output),
                } && !exempt.as_ref().is_some_and(|e| e[producer.output.index()]);
            // Rule 6 (acyclic groups) cannot break under boundary or recompute: fused edges
            // carry tensors with one reading kernel, so every group is an in-tree whose root
            // is its only member read from outside, and a path out of the root cannot come
            // back in. A FlashAttention pattern is such an in-tree too (its intermediates
            // have one consumer each), so the argument holds with the pass on.
            let mut via = None;
            let mut budget = None;
            let mut into_reduction = None;
            // The rules in their order, the cheap ones first; past the work bound, a merge
            // that needs a check is refused (`search-stopped`).
            let reason = 'rule: {
                if let Some(r) = rules::first_of_rules_1_to_3(
                    g,
                    c,
                    rules::after_reduction(g, p, c, opts.reduction_epilogue),
                    merged_matmuls,
                ) {
                    break 'rule Some(r);
                }
                if (materialized_here
                    && (!stores || (policy == Policy::Inline && !same_loop(g, p, c))))
                    || (policy == Policy::Inline && realizes(g, p, c))
                {
                    // Under `inline`, a stored tensor is fused into a reader only when they
                    // loop over the same elements (Inductor's Triton backend fuses matching
                    // sizes).
                    break 'rule Some(Reason::Materialized);
                }
                if rules::second_matmul(merged_matmuls) {
                    break 'rule Some(Reason::SecondMatmul);
                }
                if merged_matmuls > 0
                    && !opts.matmul_epilogue.allows(
                        g,
                        p,
                        c,
                        uf.size[gp] + uf.size[gc],
                        uf.matmuls[gp] > 0,
                        &addmm,
                    )
                {
                    break 'rule Some(Reason::MatmulEpilogue);
                }
                if let Some(m) = members.as_mut().filter(|_| checked) {
                    match m.cross_edge_reason(
                        g,
                        gp,
                        gc,
                        merged_matmuls,
                        opts.reduction_epilogue,
                        |o| uf.find(o.index()),
                        meter,
                    ) {
                        None => break 'rule Some(Reason::SearchStopped),
                        Some(Err((r, edge))) => {
                            via = (edge != (p, c)).then_some(edge);
                            break 'rule Some(r);
                        }
                        Some(Ok(e)) => into_reduction = e,
                    }
                }
                if !copies.is_empty() {
                    // Rule 2 through a copy: the merged kernel would recompute, after one of
                    // its reductions, an op that reads the reduced value.
                    for &k in &[gp, gc] {
                        if !meter.spend(Pass::Greedy, inputs_of(g, &copies[k])) {
                            break 'rule Some(Reason::SearchStopped);
                        }
                        let found = copies[k].iter().any(|&q| {
                            g.op(q).inputs.iter().any(|u| {
                                g.producer(u.tensor).is_some_and(|r| {
                                    let kr = uf.find(r.index());
                                    (kr == gp || kr == gc)
                                        && rules::after_reduction(g, r, q, opts.reduction_epilogue)
                                })
                            })
                        });
                        if found {
                            break 'rule Some(Reason::AfterReduction);
                        }
                    }
                }
                if let Some(m) = members.as_ref() {
                    match m.over_budget(g, &budgets, gp, gc, meter) {
                        None => break 'rule Some(Reason::SearchStopped),
                        Some(Some(hit)) => {
                            budget = Some(hit);
                            break 'rule Some(Reason::BudgetExceeded);
                        }
                        Some(None) => {}
                    }
                }
                if let Some(m) = members.as_mut().filter(|_| checked) {
                    match m.would_cycle(g, gp, gc, |o| uf.find(o.index()), &holders, meter) {
                        // Rule 6: only reachable when rule 4 let a materialized edge through.
                        Some(true) => break 'rule Some(Reason::WouldCreateCycle),
                        None => break 'rule Some(Reason::SearchStopped),
                        Some(false) => {}
                    }
                }
                None
            };
            match reason {
                Some(reason) => boundaries.push(Boundary {
                    producer: p,
                    consumer: c,
                    tensor: producer.output,
                    reason,
                    via,
                    budget,
                }),
                None => {
                    uf.union(gp, gc);
                    if let Some(m) = members.as_mut() {
                        m.merge(gp, gc, into_reduction);
                    }
                    if duplicated {
                        // Its home kernel: the copies go to the other consumers.
                        placed[p.index()] = true;
                    }
                    if !copies.is_empty() && !copies[gc].is_empty() {
                        let mut moved = std::mem::take(&mut copies[gc]);
                        if moved.len() > copies[gp].len() {
                            std::mem::swap(&mut moved, &mut copies[gp]);
                        }
                        copies[gp].extend(moved);
                    }
                    // Other reduction → elementwise edges the merge put inside (store).
                    if let Some(m) = members.as_mut().filter(|_| checked) {
                        for (rp, rc) in m.epilogue_edges.drain(..) {
                            if (rp, rc) != (p, c) {
                                epilogues.push(FusedEdge {
                                    producer: rp,
                                    consumer: rc,
                                    tensor: g.op(rp).output,
                                    fused_by: FusedBy::ReductionEpilogue,
                                    overrides: Some(Reason::AfterReduction),
                                });
                            }
                        }
                    }
                    if producer.kind.is_reduction() {
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
    let mut groups: Vec<FusionGroup> = order
        .iter()
        .map(|&i| FusionGroup::of(slots[i].take().unwrap_or_default()))
        .collect();
    for (r, mut list) in copies.into_iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        let k = group_of[r];
        list.retain(|q| group_of[q.index()] != k);
        list.sort_unstable();
        list.dedup();
        groups[k].recomputed = list;
    }
    // An edge into or out of a collective (issue 25) breaks rules 1 and 2 as the rules are
    // written for it; its reason is its own.
    for b in &mut boundaries {
        let (p, c) = b.via.unwrap_or((b.producer, b.consumer));
        if rules::collective_edge(g, p, c) {
            b.reason = Reason::Collective;
        }
    }
    // A copy that ended in the kernel of its original (a later merge joined them) is none.
    recomputes.retain(|e| group_of[e.producer.index()] != group_of[e.consumer.index()]);
    let plan = FusionPlan {
        groups,
        boundaries,
        group_of,
        flash: Vec::new(),
        epilogues,
        recomputes,
        horizontal: Vec::new(),
        stopped: None,
    };
    let mut plan = if opts.horizontal == Horizontal::Off {
        plan
    } else {
        horizontal::merge(g, plan, opts.horizontal, &budgets, meter)
    };
    plan.stopped = meter.stop(&plan);
    plan
}

/// The work of walking the inputs of `ops`: one unit per op and per argument.
fn inputs_of(g: &Graph, ops: &[OpId]) -> u64 {
    ops.iter().map(|&q| 1 + g.op(q).inputs.len() as u64).sum()
}
