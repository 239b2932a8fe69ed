//! Diamond fusion (`--fuse-diamonds`, part of `--fuser tvm`): a tensor read by several ops
//! stays on chip when every path from its producer reconverges at one op through cheap ops.
//!
//! TVM's FuseOps (`src/relay/transforms/fuse_ops.cc`) builds the post-dominator tree of the
//! dataflow graph and fuses a node with its immediate post-dominator when every node on every
//! path between them is injective (elementwise, broadcast, reshape); the fork's tensor is then
//! never written, unlike under `--policy store`, and unlike `recompute` nothing is computed
//! twice. This module finds those regions; the greedy pass ([`super::greedy`]) then treats
//! the tensors inside them as not materialized (rule 4 does not apply) and fuses them under
//! the other rules.
//!
//! For an op `p` whose output has several readers (and is not a graph output), with `d` its
//! immediate post-dominator (every path from `p` to a graph output or a dead end passes
//! `d`), the region is the ops on the paths from `p` to `d`. It is fused when
//! - `p` is injective or a matmul (TVM's `kOutEWiseFusable` may take an epilogue region);
//! - every op strictly between is injective, and none is read outside the region (true of any
//!   post-dominated region) nor a graph output;
//! - `d` is injective, or a reduction when `p` is not a matmul (an elementwise region may feed
//!   a reduction, not follow a matmul into one: rule 3);
//! - the region holds at most [`MAX_REGION`] ops (TVM's `max_fuse_depth` is 256).

use super::work::{Meter, Pass};
use crate::graph::{Graph, OpId, TensorId};
use crate::types::OpKind;

/// The most ops a region may hold, and the most steps one post-dominator intersection may
/// walk: deeper regions are left alone.
pub const MAX_REGION: usize = 256;

/// Injective kinds: elementwise, and the layout and data-movement ops that map each output
/// element to input elements.
pub fn injective(kind: OpKind) -> bool {
    crate::ops::spec(kind).injective
}

/// Which tensors are exempt from rule 4: those inside a fused diamond. Every step of the
/// post-dominator intersections and of the region walks spends a unit of `meter`; past its
/// bound no further diamond is found (the tensors stay materialized).
pub(crate) fn exempt(g: &Graph, meter: &mut Meter) -> Vec<bool> {
    let n = g.ops.len();
    let mut out = vec![false; g.tensors.len()];
    let ipdom = post_dominators(g, meter);
    let mut in_region = vec![false; n];
    let mut region: Vec<OpId> = Vec::new();
    for &p in &g.topo {
        let t = g.op(p).output;
        if g.consumers(t).len() < 2 || g.is_output(t) {
            continue;
        }
        let pk = g.op(p).kind;
        if !(injective(pk) || pk.is_contraction()) {
            continue;
        }
        let Some(d) = ipdom[p.index()] else {
            continue;
        };
        let dk = g.op(d).kind;
        if !(injective(dk) || (dk.is_reduction() && !pk.is_contraction())) {
            continue;
        }
        // The ops strictly between p and d.
        region.clear();
        let mut ok = true;
        let mut stack: Vec<OpId> = g.consumers(t).to_vec();
        while let Some(x) = stack.pop() {
            if x == d || in_region[x.index()] {
                continue;
            }
            let op = g.op(x);
            if !injective(op.kind)
                || g.is_output(op.output)
                || region.len() >= MAX_REGION
                || !meter.spend(Pass::Greedy, 1 + g.consumers(op.output).len() as u64)
            {
                ok = false;
                break;
            }
            in_region[x.index()] = true;
            region.push(x);
            stack.extend_from_slice(g.consumers(op.output));
        }
        for &x in &region {
            in_region[x.index()] = false;
        }
        if !ok {
            continue;
        }
        out[t.index()] = true;
        for &x in &region {
            out[g.op(x).output.index()] = true;
        }
    }
    out
}

/// The immediate post-dominator of every op (`None`: the virtual exit, for an op whose paths
/// end in different graph outputs or dead ends, or whose intersection walked too far).
fn post_dominators(g: &Graph, meter: &mut Meter) -> Vec<Option<OpId>> {
    let n = g.ops.len();
    // Position in reverse topological order: post-dominators come first.
    let mut rank = vec![0usize; n];
    for (i, &o) in g.topo.iter().rev().enumerate() {
        rank[o.index()] = i;
    }
    let mut ipdom: Vec<Option<OpId>> = vec![None; n];
    let exits = |t: TensorId| g.is_output(t) || g.consumers(t).is_empty();
    for &o in g.topo.iter().rev() {
        let t = g.op(o).output;
        if exits(t) {
            continue;
        }
        let mut acc: Option<OpId> = None;
        let mut first = true;
        for &c in g.consumers(t) {
            acc = if first {
                Some(c)
            } else {
                acc.and_then(|a| intersect(&ipdom, &rank, a, c, meter))
            };
            first = false;
            if acc.is_none() {
                break;
            }
        }
        ipdom[o.index()] = acc;
    }
    ipdom
}

/// The nearest common post-dominator of `a` and `b` (Cooper, Harvey and Kennedy's
/// intersection over ranks; post-dominators have lower ranks); `None` past `meter`'s bound.
fn intersect(
    ipdom: &[Option<OpId>],
    rank: &[usize],
    a: OpId,
    b: OpId,
    meter: &mut Meter,
) -> Option<OpId> {
    let (mut a, mut b) = (a, b);
    for _ in 0..MAX_REGION * 4 {
        if !meter.spend(Pass::Greedy, 1) {
            return None;
        }
        if a == b {
            return Some(a);
        }
        if rank[a.index()] > rank[b.index()] {
            a = ipdom[a.index()]?;
        } else {
            b = ipdom[b.index()]?;
        }
    }
    None
}
