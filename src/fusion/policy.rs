//! Multi-consumer policies (`--policy`): what the greedy pass does with an edge whose tensor
//! must be written to HBM anyway (rule 4, `materialized`: several consumers or a graph
//! output), and the cycle check that guards every merge such an edge allows (rule 6).
//!
//! - `boundary` (the default, SPEC §2): the edge is a kernel boundary. Every group is then an
//!   in-tree, so no merge can create a cycle and no check runs.
//! - `recompute` (XLA's choice): a cheap producer is computed again in each consumer's kernel
//!   ([`super::recompute`]); its tensor is never written. Groups stay in-trees, so no cycle
//!   check runs.
//! - `store` (TorchInductor's choice, `torch/_inductor/scheduler.py`: a buffer with other
//!   readers is still stored when its producer fuses into one reader): the producer joins the
//!   consumer's kernel and the tensor is still written for the readers outside it. The fused
//!   traffic rule (SPEC §3) already charges exactly that: a member output with a consumer
//!   outside its group (or a graph output) is written once, and the consumers inside the group
//!   do not read it back. A merge through such an edge can close a cycle (`p → x → c` with `x`
//!   outside both groups), so each is checked first and refused with `would-create-cycle`.

use super::Reason;
use super::work::{Meter, Pass};
use crate::graph::{Graph, OpId};
use crate::ops::funcs::{self};
use crate::types::OpKind;

/// What rule 4 does (`--policy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// A materialized tensor is a kernel boundary (SPEC §2).
    #[default]
    Boundary,
    /// Fuse through a materialized tensor and still store it for the other readers.
    Store,
    /// Compute a cheap elementwise producer again in each consumer's kernel when that saves
    /// traffic ([`super::recompute`]).
    Recompute,
    /// TorchInductor's: a cheap pointwise producer is inlined into (computed again in) every
    /// reader's kernel unless it reads many tensors or a matmul reads it; every other
    /// shared tensor is handled as under `store`.
    Inline,
}

impl Policy {
    pub const ALL: &'static [Policy] = &[
        Policy::Boundary,
        Policy::Store,
        Policy::Recompute,
        Policy::Inline,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Boundary => "boundary",
            Policy::Store => "store",
            Policy::Recompute => "recompute",
            Policy::Inline => "inline",
        }
    }
}

/// What may join a matmul's kernel after it (`--matmul-epilogue`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum MatmulEpilogue {
    /// Elementwise and reshape ops (SPEC §2: a matmul epilogue).
    #[default]
    Elementwise,
    /// Only a bias add (a vector broadcast over the rows) and views: what a cuBLAS call with
    /// a bias takes, and what TorchInductor's default mode does (`addmm`, every other
    /// epilogue in a Triton kernel of its own: `torch/_inductor/lowering.py`, `tuned_addmm`).
    Bias,
    /// TorchInductor's `addmm` rule (`fx_passes/post_grad.py`): an add of a tensor that
    /// broadcasts to the output of a 2-D matmul (a bias or a residual) joins the cuBLAS call,
    /// unless every reader of the sum is elementwise (then the add goes with its readers).
    Addmm,
    /// Nothing but views: the matmul is a library call on its own.
    None,
}

impl MatmulEpilogue {
    pub fn as_str(self) -> &'static str {
        match self {
            MatmulEpilogue::Elementwise => "elementwise",
            MatmulEpilogue::Bias => "bias",
            MatmulEpilogue::Addmm => "addmm",
            MatmulEpilogue::None => "none",
        }
    }

    /// Whether the edge `p → c` may join two kernels (`size` ops together, at least one
    /// holding a matmul; `p_has_matmul`: `p`'s kernel does) under this setting. Views
    /// (reshape, permute) are free in any kernel. `addmm`: [`addmm_readers`] of `g` (read
    /// under `Addmm` only).
    pub(crate) fn allows(
        self,
        g: &Graph,
        p: OpId,
        c: OpId,
        size: u32,
        p_has_matmul: bool,
        addmm: &[bool],
    ) -> bool {
        let view = |o: OpId| matches!(g.op(o).kind, OpKind::Reshape | OpKind::Permute);
        match self {
            MatmulEpilogue::Elementwise => true,
            // A matmul's output read through strides (a reshape, or a permute) needs no
            // kernel; a reshape of a permuted output needs a copy, which Inductor makes a
            // kernel of its own.
            MatmulEpilogue::Addmm if p_has_matmul && view(c) => {
                !(g.op(c).kind == OpKind::Reshape && g.op(p).kind == OpKind::Permute)
            }
            _ if p_has_matmul && view(c) => true,
            MatmulEpilogue::None => false,
            MatmulEpilogue::Bias => {
                p_has_matmul && size == 2 && g.op(p).kind.is_contraction() && is_bias_add(g, p, c)
            }
            MatmulEpilogue::Addmm => {
                p_has_matmul
                    && size == 2
                    && g.op(p).kind.is_contraction()
                    && is_addmm(g, p, c, addmm)
            }
        }
    }
}

/// Whether Inductor turns matmul `p` and add `c` into one `addmm` ([`addmm_shape`]), with
/// `kept` from [`addmm_readers`].
pub(crate) fn is_addmm(g: &Graph, p: OpId, c: OpId, kept: &[bool]) -> bool {
    addmm_shape(g, p, c) && kept.get(c.index()).copied().unwrap_or(false)
}

/// For each op, whether not every reader of its output is a pointwise use
/// (`should_prefer_unfused_addmm`, `torch/_inductor/fx_passes/post_grad.py`; a sum nothing
/// reads, a graph output, qualifies), where a reader that is itself an add Inductor makes an
/// `addmm` is no pointwise use: the pattern pass walks the graph from its end, so the last
/// residual add of a stack that is a graph output becomes an `addmm`, and then every add
/// before it whose other reader is a norm; a stack read by a final norm keeps every residual
/// add unfused. Measured (validation/gpu/models/code_probe/addmm, torch 2.11): one or three
/// layers of residual adds read by RMSNorms, 2 `addmm`s when the last sum is the output, none
/// when a norm reads it; Llama-3-8B's whole prefill, none. Decided from the last op backwards
/// in one pass (no recursion along the stream).
pub(crate) fn addmm_readers(g: &Graph) -> Vec<bool> {
    let mut kept = vec![false; g.ops.len()];
    for &c in g.topo.iter().rev() {
        let out = g.op(c).output;
        let readers = g.consumers(out);
        kept[c.index()] = readers.is_empty()
            || g.is_output(out)
            || readers.iter().any(|&r| {
                !pointwise_use(g, r, out)
                    || (kept[r.index()]
                        && g.op(r)
                            .inputs
                            .iter()
                            .any(|u| g.producer(u.tensor).is_some_and(|q| addmm_shape(g, q, r))))
            });
    }
    kept
}

/// Whether matmul `p` and add `c` have `addmm`'s shape: `p` is a 2-D matmul (both operands of
/// rank 2: batched products are `bmm`, and a `[B, S, D]` activation times a weight is a view,
/// an `mm` and a view, which the pattern does not match through), and `c` adds to `p`'s
/// output a tensor of the same dtype that broadcasts to it.
fn addmm_shape(g: &Graph, p: OpId, c: OpId) -> bool {
    let (mm, op) = (g.op(p), g.op(c));
    let out = mm.output;
    if !mm.kind.is_contraction()
        || op.kind != OpKind::Elementwise
        || !op.func.as_deref().is_some_and(|f| funcs::is(f, "add"))
        || op.inputs.len() != 2
        || mm.inputs.len() < 2
        || crate::ops::contraction::is_biased(g, p)
        || mm.inputs.iter().take(2).any(|u| g.use_shape(u).len() != 2)
    {
        return false;
    }
    let shape = &g.tensor(out).shape;
    let addend_fits = op.inputs.iter().any(|u| {
        u.tensor != out && g.tensor(u.tensor).dtype == g.tensor(out).dtype && {
            let a = g.use_shape(u);
            a.len() <= shape.len()
                && a.iter()
                    .rev()
                    .zip(shape.iter().rev())
                    .all(|(&x, &y)| x == y || x == 1)
        }
    });
    addend_fits && op.inputs.iter().any(|u| u.tensor == out)
}

/// Whether Inductor sees reader `r` of `t` as a pointwise use: an elementwise op, or a
/// LayerNorm or softmax of a 16-bit tensor, which Inductor decomposes into ops whose first
/// use of `t` is a pointwise upcast to f32 (measured: the seed transformer's `out_proj +
/// x` read by a LayerNorm stays out of the matmul, docs/VALIDATION.md §15). An RMSNorm is
/// one fused op (`_fused_rms_norm`) in PyTorch 2.11: not pointwise.
fn pointwise_use(g: &Graph, r: OpId, t: crate::graph::TensorId) -> bool {
    let op = g.op(r);
    match op.kind {
        OpKind::Elementwise => true,
        OpKind::Reduction => {
            op.func
                .as_deref()
                .is_some_and(funcs::inductor_pointwise_16bit)
                && g.tensor(t).dtype.bytes() == 2
        }
        _ => false,
    }
}

/// Whether `c` adds a vector, broadcast over the rows, to the output of `p`.
pub(crate) fn is_bias_add(g: &Graph, p: OpId, c: OpId) -> bool {
    let op = g.op(c);
    let out = g.op(p).output;
    // A matmul with a bias of its own (`matmul(x, w, b)`) has its epilogue's bias already.
    if op.kind != OpKind::Elementwise
        || !op.func.as_deref().is_some_and(|f| funcs::is(f, "add"))
        || op.inputs.len() != 2
        || crate::ops::contraction::is_biased(g, p)
    {
        return false;
    }
    let cols = g.tensor(out).shape.last().copied().unwrap_or(0);
    op.inputs.iter().any(|u| {
        u.tensor != out && {
            let shape = g.use_shape(u);
            shape.last() == Some(&cols) && shape.iter().rev().skip(1).all(|&d| d == 1)
        }
    }) && op.inputs.iter().any(|u| u.tensor == out)
}

/// Inductor's `max_fusion_size` (`torch/_inductor/config.py`: 64 nodes per fused kernel):
/// the ops-per-kernel budget of the `store` policy unless another is set. It also bounds the
/// work of every check below, which walks a kernel's members: without it a million-op chain
/// would be quadratic.
pub const MAX_FUSION_SIZE: usize = super::budget::DEFAULT_OPS as usize;

/// The members of every group while the greedy pass merges them (kept only under policies
/// that fuse through materialized tensors), and the scratch of the checks.
pub(crate) struct Members {
    /// Members of each union-find root; empty for non-roots.
    lists: Vec<Vec<OpId>>,
    /// For each root, an edge inside its group whose consumer is a reduction, if any (what
    /// rule 3 forbids once the group holds a matmul).
    into_reduction: Vec<Option<(OpId, OpId)>>,
    /// The topological position of every op.
    pos: Vec<usize>,
    /// Visit marks of the search, by op: equal to `epoch` when seen in this search.
    seen: Vec<u32>,
    epoch: u32,
    stack: Vec<OpId>,
    /// The reduction → elementwise edges the last [`Members::cross_edge_reason`] let into the
    /// merged kernel as reduction epilogues.
    pub(crate) epilogue_edges: Vec<(OpId, OpId)>,
}

impl Members {
    pub(crate) fn new(g: &Graph) -> Members {
        let mut pos = vec![0; g.ops.len()];
        for (i, &o) in g.topo.iter().enumerate() {
            pos[o.index()] = i;
        }
        Members {
            lists: (0..g.ops.len()).map(|i| vec![OpId(i as u32)]).collect(),
            into_reduction: vec![None; g.ops.len()],
            pos,
            seen: vec![0; g.ops.len()],
            epoch: 0,
            stack: Vec::new(),
            epilogue_edges: Vec::new(),
        }
    }

    /// Records that root `from` was merged into root `into`; `into_reduction` is the merged
    /// group's ([`Members::cross_edge_reason`] found it).
    pub(crate) fn merge(&mut self, into: usize, from: usize, into_reduction: Option<(OpId, OpId)>) {
        let mut moved = std::mem::take(&mut self.lists[from]);
        // The longer list stays in place: each op moves O(log n) times.
        if moved.len() > self.lists[into].len() {
            std::mem::swap(&mut moved, &mut self.lists[into]);
        }
        self.lists[into].extend(moved);
        self.into_reduction[into] = into_reduction;
        self.into_reduction[from] = None;
    }

    /// The first of `budgets` that one kernel for the groups rooted at `a` and `b` would
    /// break ([`super::budget`]); `None` when the walk it needs is past `meter`'s bound.
    pub(crate) fn over_budget(
        &self,
        g: &Graph,
        budgets: &super::Budgets,
        a: usize,
        b: usize,
        meter: &mut Meter,
    ) -> Option<Option<super::BudgetHit>> {
        budgets.check(
            g,
            &self.lists[a],
            &self.lists[b],
            &self.pos,
            meter,
            Pass::Greedy,
        )
    }

    /// The lowest rule of SPEC §2 that one kernel for the groups rooted at `a` and `b` (with
    /// `matmuls` matmuls) would break, with the edge that breaks it; and otherwise the merged
    /// group's edge into a reduction, if any (`Ok`). Under `boundary` every group is an
    /// in-tree and the greedy pass meets each edge into it; under `store` a tensor read by two
    /// ops of the merged kernel brings in other edges (a reduction `r` of `t` and an op `c`
    /// of `t` and `r`'s output: fusing `t` into `r` and then `c` would put `r → c`, rule 2,
    /// inside one kernel), so every edge between the two groups is checked, from the smaller
    /// group's side (rule 2 giving way to a reduction epilogue when `reduction_epilogue`).
    /// `root` gives an op's union-find root. Each member looked at spends one unit of `meter`
    /// and one per edge; `None` when that passes its bound (nothing is decided).
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    pub(crate) fn cross_edge_reason(
        &mut self,
        g: &Graph,
        a: usize,
        b: usize,
        matmuls: u32,
        reduction_epilogue: bool,
        mut root: impl FnMut(OpId) -> usize,
        meter: &mut Meter,
    ) -> Option<Result<Option<(OpId, OpId)>, (Reason, (OpId, OpId))>> {
        let (small, big) = if self.lists[a].len() <= self.lists[b].len() {
            (a, b)
        } else {
            (b, a)
        };
        let mut worst: Option<(Reason, (OpId, OpId))> = None;
        let mut into_reduction = self.into_reduction[a].or(self.into_reduction[b]);
        self.epilogue_edges.clear();
        let epilogue_edges = &mut self.epilogue_edges;
        let mut edge = |m: OpId, s: OpId, worst: &mut Option<(Reason, (OpId, OpId))>| {
            let (producer, consumer) = (g.op(m).kind, g.op(s).kind);
            if consumer.is_reduction() {
                into_reduction.get_or_insert((m, s));
            }
            if producer.is_reduction() && !consumer.is_contraction() {
                epilogue_edges.push((m, s));
            }
            // Rules 1 and 2 (rule 3 is the caller's, on the merged kernel's matmul count).
            let reason = super::rules::first_of_rules_1_to_3(
                g,
                s,
                super::rules::after_reduction(g, m, s, reduction_epilogue),
                0,
            );
            if let Some(r) = reason
                && worst.is_none_or(|(w, _)| r.rule() < w.rule())
            {
                *worst = Some((r, (m, s)));
            }
        };
        for &m in &self.lists[small] {
            let work = 1 + g.successors(m).len() + g.op(m).inputs.len();
            if !meter.spend(Pass::Greedy, work as u64) {
                return None;
            }
            for &s in g.successors(m) {
                if root(s) == big {
                    edge(m, s, &mut worst);
                }
            }
            for u in &g.op(m).inputs {
                if let Some(p) = g.producer(u.tensor)
                    && root(p) == big
                {
                    edge(p, m, &mut worst);
                }
            }
        }
        // Rule 3 (a reduction in a kernel with a matmul) ranks below rules 1 and 2.
        if worst.is_none()
            && matmuls > 0
            && let Some(e) = into_reduction
        {
            worst = Some((Reason::ReductionAfterMatmul, e));
        }
        Some(match worst {
            Some(w) => Err(w),
            None => Ok(into_reduction),
        })
    }

    /// Whether merging the groups rooted at `a` and `b` would make a kernel depend on itself:
    /// a path that leaves one of them, passes through ops of neither, and comes back into
    /// either. Kernels run whole, so the search moves between groups, not ops: reaching one
    /// member of a group reaches every op its kernel feeds. Iterative. The greedy pass merges
    /// only at the op it visits, so every op after the last member (in topological order) is
    /// still a group of its own, and a path through one never comes back: the search stays
    /// before the last member. `root` gives an op's union-find root.
    /// Under the policies that recompute: `holders[s]` lists an op of each group that holds a
    /// copy of `s` (or holds `s` itself, where `s` was already a member when its copy came).
    /// Such a group reads what `s` reads, so an edge into `s` leads into it too; and an edge
    /// from `m` into a group that computes `m` again carries no dependency (asked of holders,
    /// not of the group's list of copies: a few holders per op, not a scan per edge).
    ///
    /// Each op the search takes from its stack (the members of both groups first) spends one
    /// unit of `meter` and one per edge out of it; `None` when that passes its bound (the
    /// search stops undecided).
    pub(crate) fn would_cycle(
        &mut self,
        g: &Graph,
        a: usize,
        b: usize,
        mut root: impl FnMut(OpId) -> usize,
        holders: &[Vec<OpId>],
        meter: &mut Meter,
    ) -> Option<bool> {
        let no_holders: &[OpId] = &[];
        let held = |s: OpId| holders.get(s.index()).map_or(no_holders, Vec::as_slice);
        // Whether the group rooted at `r` computes `m` again.
        let recomputes = |r: usize, m: OpId, root: &mut dyn FnMut(OpId) -> usize| {
            held(m).iter().any(|&h| root(h) == r)
        };
        let last = self.lists[a]
            .iter()
            .chain(&self.lists[b])
            .map(|o| self.pos[o.index()])
            .max()
            .unwrap_or(0);
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        self.stack.clear();
        for i in 0..2 {
            let r0 = [a, b][i];
            for k in 0..self.lists[r0].len() {
                let m = self.lists[r0][k];
                if !meter.spend(Pass::Greedy, 1 + g.successors(m).len() as u64) {
                    return None;
                }
                for &s in g.successors(m) {
                    for &t in std::iter::once(&s).chain(held(s)) {
                        let r = root(t);
                        if r != a && r != b && !recomputes(r, m, &mut root) {
                            self.reach(t, r, last);
                        }
                    }
                }
            }
        }
        while let Some(x) = self.stack.pop() {
            if !meter.spend(Pass::Greedy, 1 + g.successors(x).len() as u64) {
                return None;
            }
            for &s in g.successors(x) {
                for &t in std::iter::once(&s).chain(held(s)) {
                    let r = root(t);
                    if recomputes(r, x, &mut root) {
                        continue;
                    }
                    if r == a || r == b {
                        return Some(true);
                    }
                    self.reach(t, r, last);
                }
            }
        }
        Some(false)
    }

    /// Marks the group rooted at `r`, which `x` belongs to, as reached by the search of
    /// [`Members::would_cycle`] and queues its members (unless seen, or after `last`).
    fn reach(&mut self, x: OpId, r: usize, last: usize) {
        if self.seen[x.index()] == self.epoch || self.pos[x.index()] >= last {
            return;
        }
        for &y in &self.lists[r] {
            self.seen[y.index()] = self.epoch;
            self.stack.push(y);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Policy;
    use crate::analysis::{Options, check_file};
    use crate::fusion::Reason;

    /// Groups (by op names) and boundaries (producer, consumer, reason, via) of `src`.
    fn plan(src: &str, policy: Policy) -> (Vec<Vec<String>>, Vec<String>) {
        let opts = Options {
            fusion: crate::fusion::FusionOptions {
                policy,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        let (a, groups) = crate::fusion::analysed(src, &opts);
        let name = |o: crate::graph::OpId| a.graph.op(o).name.clone();
        let boundaries = a
            .plan
            .boundaries
            .iter()
            .map(|b| {
                let via = b.via.map_or(String::new(), |(p, c)| {
                    format!(" via {}→{}", name(p), name(c))
                });
                format!(
                    "{}→{} {}{via}",
                    name(b.producer),
                    name(b.consumer),
                    b.reason
                )
            })
            .collect();
        (groups, boundaries)
    }

    const DIAMOND: &str = "graph d {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  op d = elementwise.add(u, v) -> y\n}\n";

    #[test]
    fn store_fuses_through_a_tensor_with_two_consumers() {
        let (groups, boundaries) = plan(DIAMOND, Policy::Boundary);
        assert_eq!(groups, [vec!["a"], vec!["b", "c", "d"]]);
        assert_eq!(boundaries, ["a→b materialized", "a→c materialized"]);
        let (groups, boundaries) = plan(DIAMOND, Policy::Store);
        assert_eq!(groups, [vec!["a", "b", "c", "d"]]);
        assert!(boundaries.is_empty());
    }

    #[test]
    fn store_writes_the_tensor_once_for_readers_outside_and_not_back_to_itself() {
        // `t` is fused into `b`'s kernel and also read by the matmul `m`: written once, read
        // by `m` only.
        let src = "graph s {\n  dtype f16\n  input x: [64, 64]\n  weight w: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op m = matmul(t, w) -> v\n  output u, v\n}\n";
        let opts = Options {
            fusion: crate::fusion::FusionOptions {
                policy: Policy::Store,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        let r = check_file("s.fgraph", src.as_bytes(), &opts);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let t = 64 * 64 * 2;
        // Kernel {a, b}: reads x, writes t (for m) and u (an output); kernel {m}: reads t, w.
        assert_eq!(a.plan.groups.len(), 2);
        assert_eq!(a.traffic.fused.bytes_read, t + 2 * t);
        assert_eq!(a.traffic.fused.bytes_written, 2 * t + t);
        // Under boundary: {a}, {b}, {m}: t written once and read twice.
        let b = check_file("s.fgraph", src.as_bytes(), &Options::default());
        let b = b.graphs[0].analysis.as_ref().expect("analysis");
        assert_eq!(b.plan.groups.len(), 3);
        assert!(a.traffic.fused.total < b.traffic.fused.total);
    }

    #[test]
    fn store_refuses_a_merge_that_would_create_a_cycle() {
        // a → m (a matmul, its own kernel) → c, and a → c: one kernel for a and c would
        // feed m and wait for it.
        let src = "graph c {\n  input x: [64, 64]\n  weight w: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op m = matmul(t, w) -> u\n  op c = elementwise.add(t, u) -> y\n}\n";
        let (groups, boundaries) = plan(src, Policy::Store);
        assert_eq!(groups, [vec!["a"], vec!["m", "c"]]);
        assert_eq!(
            boundaries,
            ["a→m matmul-starts-group", "a→c would-create-cycle"]
        );
        // Under boundary the same edge is `materialized`, and rule 6 never comes up.
        let (_, boundaries) = plan(src, Policy::Boundary);
        assert_eq!(boundaries, ["a→m matmul-starts-group", "a→c materialized"]);
    }

    #[test]
    fn store_checks_every_edge_the_merged_kernel_would_hold() {
        // Fusing t into the reduction r, then c (which reads t and r's output) into that
        // kernel would put r → c, rule 2, inside one kernel.
        let src = "graph s {\n  input x: [4, 8]\n  op a = elementwise.relu(x) -> t\n  op r = reduction.max(t, axis = -1) -> s: [4, 1]\n  op c = elementwise.sub(t, s) -> y\n}\n";
        let (groups, boundaries) = plan(src, Policy::Store);
        assert_eq!(groups, [vec!["a", "r"], vec!["c"]]);
        assert_eq!(
            boundaries,
            ["a→c after-reduction via r→c", "r→c after-reduction"]
        );
        assert_eq!(Reason::AfterReduction.rule(), 2);
    }

    #[test]
    fn store_refuses_a_cycle_between_kernels_that_no_op_path_shows() {
        // No op path leads from `b` to `c` through ops outside {a, b, c}: `mm` reaches only
        // `e`. But `mm` shares a kernel with `f`, which feeds `c`: kernel {a, b, c} would feed
        // kernel {p, mm, e, f} and wait for it. (Found by the store property test.)
        let src = "graph k {\n  input x: [64, 64]\n  weight w: [64, 64]\n  op a = elementwise.relu(x) -> t3\n  op b = elementwise.gelu(t3) -> t5\n  op p = elementwise.exp(x) -> t2\n  op mm = matmul(t5, w) -> t8\n  op e = elementwise.add(t8, t2) -> t13\n  op f = elementwise.neg(t2) -> t17\n  op c = elementwise.add(t3, t17) -> y\n  output y, t13\n}\n";
        let (groups, boundaries) = plan(src, Policy::Store);
        assert_eq!(groups, [vec!["a", "b"], vec!["p", "mm", "e", "f", "c"]]);
        assert_eq!(
            boundaries,
            ["b→mm matmul-starts-group", "a→c would-create-cycle"]
        );
    }

    #[test]
    fn store_keeps_kernels_within_the_budget() {
        let mut src = String::from("graph chain {\n  input t0: [8, 8]\n");
        for i in 1..=70 {
            src += &format!("  op e{i} = elementwise.relu(t{}) -> t{i}\n", i - 1);
        }
        src += "}\n";
        let (groups, boundaries) = plan(&src, Policy::Store);
        assert_eq!(
            groups.iter().map(Vec::len).collect::<Vec<_>>(),
            [super::MAX_FUSION_SIZE, 70 - super::MAX_FUSION_SIZE]
        );
        assert_eq!(boundaries, ["e64→e65 budget-exceeded"]);
        // No budget under the default policy.
        let (groups, _) = plan(&src, Policy::Boundary);
        assert_eq!(groups.len(), 1);
    }

    /// Two residual adds of matmul outputs read by RMSNorms (validation/gpu/models/
    /// code_probe/addmm): Inductor makes both `addmm`s when the last sum is the graph's
    /// output, and neither when a final norm reads it.
    #[test]
    fn residual_adds_join_their_matmuls_only_when_the_stack_ends_in_an_output() {
        let stack = |tail: &str| {
            format!(
                "graph r {{\n  dtype bf16\n  input x: [64, 64]\n  weight g: [64]\n  weight wo: [64, 64]\n  weight wd: [64, 64]\n  op na = reduction.rmsnorm(x, g, eps = 1e-5) -> a: [64, 64]\n  op o = matmul(a, wo) -> oo\n  op ra = elementwise.add(x, oo) -> h\n  op nb = reduction.rmsnorm(h, g, eps = 1e-5) -> b: [64, 64]\n  op d = matmul(b, wd) -> dd\n  op rb = elementwise.add(h, dd) -> y\n{tail}}}\n"
            )
        };
        let opts = Options {
            fusion: crate::fusion::Fuser::Inductor.options(),
            ..Options::default()
        };
        let (_, out) = crate::fusion::analysed(&stack("  output y\n"), &opts);
        assert_eq!(
            out,
            [vec!["na"], vec!["o", "ra"], vec!["nb"], vec!["d", "rb"]]
        );
        let (_, normed) = crate::fusion::analysed(
            &stack("  op nf = reduction.rmsnorm(y, g, eps = 1e-5) -> z: [64, 64]\n  output z\n"),
            &opts,
        );
        assert_eq!(
            normed,
            [
                vec!["na"],
                vec!["o"],
                vec!["ra", "nb"],
                vec!["d"],
                vec!["rb", "nf"]
            ]
        );
    }
}
