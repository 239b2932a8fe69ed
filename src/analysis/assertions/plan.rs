//! The fusion plan of one graph, indexed for the questions fusion assertions ask: which kernel
//! an op belongs to, which kernels compute it again (`--policy recompute`), which kernel writes
//! a tensor to HBM, the boundary recorded on an edge, and the path between two ops that crosses
//! the fewest kernel boundaries. `eval.rs` asks; nothing here writes a message.

use super::{Assertion, Test};
use crate::analysis::Analysis;
use crate::graph::{Graph, OpId, TensorId};
use std::collections::{HashMap, HashSet, VecDeque};

/// The plan of one graph, indexed for the questions assertions ask. Only the ops and tensors
/// the assertions name are indexed (a table of a million-op graph's every name would cost
/// more than its ops).
pub(super) struct Plan<'a> {
    pub(super) a: &'a Analysis,
    pub(super) ops: HashMap<&'a str, OpId>,
    pub(super) tensors: HashMap<&'a str, TensorId>,
    /// The kernel that writes each named tensor the fused plan writes to HBM.
    pub(super) written: HashMap<TensorId, usize>,
    /// The kernels that compute an op again besides its own (`--policy recompute`).
    pub(super) copies: HashMap<OpId, Vec<usize>>,
}

impl<'a> Plan<'a> {
    /// The plan of `a`, indexed for `assertions`.
    pub(super) fn new(a: &'a Analysis, assertions: &[Assertion]) -> Self {
        let g = &a.graph;
        let named: HashSet<&str> = assertions
            .iter()
            .flat_map(|x| match &x.test {
                Test::Names { names, .. } => names.as_slice(),
                Test::Compare { .. } => &[],
            })
            .map(|n| n.name.as_str())
            .collect();
        let ops = g
            .ops
            .iter()
            .enumerate()
            .filter(|(_, o)| named.contains(o.name.as_str()))
            .map(|(i, o)| (o.name.as_str(), OpId(i as u32)))
            .collect();
        let tensors: HashMap<&str, TensorId> = g
            .tensors
            .iter()
            .enumerate()
            .filter(|(_, t)| named.contains(t.name.as_str()))
            .map(|(i, t)| (t.name.as_str(), TensorId(i as u32)))
            .collect();
        let indexed: HashSet<TensorId> = tensors.values().copied().collect();
        let mut written = HashMap::new();
        for (k, gt) in a.traffic.groups.iter().enumerate() {
            for w in &gt.writes {
                if indexed.contains(&w.tensor) {
                    written.entry(w.tensor).or_insert(k);
                }
            }
        }
        let mut copies: HashMap<OpId, Vec<usize>> = HashMap::new();
        for (k, group) in a.plan.groups.iter().enumerate() {
            for &o in &group.recomputed {
                copies.entry(o).or_default().push(k);
            }
        }
        Plan {
            a,
            ops,
            tensors,
            written,
            copies,
        }
    }

    pub(super) fn g(&self) -> &'a Graph {
        &self.a.graph
    }

    /// The kernel `o` belongs to.
    pub(super) fn kernel_of(&self, o: OpId) -> usize {
        self.a.plan.group_of[o.index()]
    }

    /// Whether kernel `k` computes `o`: as its own op, or again (a recomputed copy).
    pub(super) fn computes(&self, k: usize, o: OpId) -> bool {
        self.kernel_of(o) == k || self.copies.get(&o).is_some_and(|c| c.contains(&k))
    }

    /// A kernel that computes both `a` and `b`, if any: `a`'s own, else one with a copy.
    pub(super) fn shared(&self, a: OpId, b: OpId) -> Option<usize> {
        let own = std::iter::once(self.kernel_of(a));
        let copies = self.copies.get(&a).into_iter().flatten().copied();
        own.chain(copies).find(|&k| self.computes(k, b))
    }
    /// The boundary the plan records on the edge `p` → `c`, if any.
    pub(super) fn boundary(&self, p: OpId, c: OpId) -> Option<&'a crate::fusion::Boundary> {
        self.a
            .plan
            .boundaries
            .iter()
            .find(|b| b.producer == p && b.consumer == c)
    }

    /// The edges (producer, consumer, tensor) of a path between ops `a` and `b` that follows
    /// edges in either direction and crosses the fewest kernel boundaries (0-1 breadth-first
    /// search); `inside` keeps it within that kernel (its ops and copies). `None` when no
    /// path connects them.
    pub(super) fn path(
        &self,
        a: OpId,
        b: OpId,
        inside: Option<usize>,
    ) -> Option<Vec<(OpId, OpId, TensorId)>> {
        let g = self.g();
        let n = g.ops.len();
        let mut dist = vec![u32::MAX; n];
        let mut via: Vec<Option<(OpId, OpId, TensorId, OpId)>> = vec![None; n];
        let mut queue = VecDeque::new();
        dist[a.index()] = 0;
        queue.push_back(a);
        let mut done: HashSet<OpId> = HashSet::new();
        while let Some(u) = queue.pop_front() {
            if !done.insert(u) {
                continue;
            }
            if u == b {
                break;
            }
            let out = g.op(u).output;
            let forward = g.consumers(out).iter().map(|&c| (c, (u, c, out)));
            let backward = g
                .op(u)
                .inputs
                .iter()
                .filter_map(|i| g.producer(i.tensor).map(|p| (p, (p, u, i.tensor))));
            for (v, edge) in forward.chain(backward) {
                let w = match inside {
                    Some(k) if !self.computes(k, v) => continue,
                    Some(_) => 0,
                    None => u32::from(self.shared(u, v).is_none()),
                };
                let nd = dist[u.index()] + w;
                if nd < dist[v.index()] {
                    dist[v.index()] = nd;
                    via[v.index()] = Some((edge.0, edge.1, edge.2, u));
                    if w == 0 {
                        queue.push_front(v);
                    } else {
                        queue.push_back(v);
                    }
                }
            }
        }
        if dist[b.index()] == u32::MAX {
            return None;
        }
        let mut edges = Vec::new();
        let mut cur = b;
        while cur != a {
            let (p, c, t, prev) = via[cur.index()]?;
            edges.push((p, c, t));
            cur = prev;
        }
        edges.reverse();
        Some(edges)
    }
}
