//! The per-GPU graph: the written graph's ops of this GPU's pipeline stage, in source order,
//! with every tensor's shape divided as its layout says and the collectives inserted
//! (an all-reduce right after an op whose output is a partial sum, an all-to-all right before
//! the op that reads expert rows, a `recv` before the first op that reads another stage's
//! tensor and a `send` after the op whose output a later stage reads). Then what the reports
//! show of it ([`Parallel`]).

use super::rules::{Fetch, Layout, Walk};
use super::{Inserted, Parallel, Plan, Sharded, SplitOutput, StageInfo, Totals};
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::graph::{
    AttrValue, CompactString, Graph, OpExtra, OpId, OpNode, Origin, Shape, Tensor, TensorId,
    TensorUse,
};
use crate::ops::collective::{AXIS, CONCAT_AXIS, GROUP, PEER, SIZE, SPLIT_AXIS, STRIDE};
use crate::types::OpKind;
use std::collections::HashMap;
use std::sync::Arc;

/// The stage of each op, for a pipeline.
struct Stages {
    of_op: Vec<u64>,
    this: u64,
    p: u64,
    group: usize,
    info: StageInfo,
}

/// The graph one GPU runs under `plan`, what the reports show of it, and for each of its ops
/// the written op it is made for (see [`remap`]); or why it cannot be sharded. Group sizes of
/// 1 insert nothing: a plan of size 1 everywhere gives the graph back with every number
/// unchanged.
pub fn shard(g: Graph, plan: &Plan) -> Result<(Graph, Parallel, Vec<usize>), Vec<Diagnostic>> {
    let mut walk = Walk::new(&g, plan);
    walk.assign();
    let stages = stages(&g, plan, &mut walk.diags);
    walk.run();
    walk.caches();
    if walk.diags.iter().any(Diagnostic::is_error) {
        return Err(walk.diags);
    }
    let (per_gpu, origin) = Builder::new(&g, plan, &walk, stages.as_ref()).build();
    let parallel = summary(&g, &per_gpu, plan, &walk, stages.as_ref());
    Ok((per_gpu, parallel, origin))
}

/// A range of written ops (a block instance's) as the range of the per-GPU graph's ops made
/// for them (`origin` from [`shard`]); empty for an instance of another pipeline stage.
pub fn remap(ops: &std::ops::Range<usize>, origin: &[usize]) -> std::ops::Range<usize> {
    let start = origin.partition_point(|&o| o < ops.start);
    let end = origin.partition_point(|&o| o < ops.end);
    start..end
}

/// Each op's stage: an instance of the repeat by its index, an op outside the repeat in the
/// first stage when the repeat reads what it makes, else in the last.
fn stages(g: &Graph, plan: &Plan, diags: &mut Vec<Diagnostic>) -> Option<Stages> {
    let st = plan.stages.as_ref()?;
    let p = plan.groups[st.group].size;
    let prefix = format!("{}.", st.layers);
    let layer = |o: usize| -> Option<u64> {
        g.ops[o]
            .name
            .strip_prefix(prefix.as_str())?
            .split('.')
            .next()?
            .parse()
            .ok()
    };
    let n = (0..g.ops.len()).filter_map(layer).max().map(|m| m + 1);
    let Some(n) = n else {
        diags.push(
            Diagnostic::new(
                Code::UndefinedTensor,
                format!("`{}` names no repeat of graph `{}`", st.layers, g.name),
            )
            .at(st.layers_span, "no instances of this name")
            .help("name the `repeat` whose layers divide into stages (`repeat 32 layers = ..`: `layers layers`)"),
        );
        return None;
    };
    if !n.is_multiple_of(p) {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "{n} instances of `{}` do not divide into {p} stages of equal count",
                    st.layers
                ),
            )
            .at(st.layers_span, format!("{n} instances"))
            .with(plan.groups[st.group].span, format!("{p} stages"))
            .help("pick a number of stages that divides the layers"),
        );
        return None;
    }
    let per = n / p;
    // Whether an op leads to an instance (reverse topological order).
    let mut reaches = vec![false; g.ops.len()];
    for &o in g.topo.iter().rev() {
        let oi = o.index();
        reaches[oi] = layer(oi).is_some() || g.successors(o).iter().any(|s| reaches[s.index()]);
    }
    let of_op = (0..g.ops.len())
        .map(|o| match layer(o) {
            Some(i) => i / per,
            None if reaches[o] => 0,
            None => p - 1,
        })
        .collect();
    Some(Stages {
        of_op,
        this: st.stage,
        p,
        group: st.group,
        info: StageInfo {
            index: st.stage,
            of: p,
            layers: st.layers.clone(),
            first: st.stage * per,
            end: (st.stage + 1) * per,
        },
    })
}

/// A tensor's shape on one GPU.
fn shape_on_gpu(full: &[u64], l: Layout, plan: &Plan) -> Vec<u64> {
    let mut s = full.to_vec();
    match l {
        Layout::Split { axis, g } | Layout::Seq { axis, g } => s[axis] /= plan.groups[g].size,
        Layout::Exchanged { g } => {
            let n = plan.groups[g].size;
            s[0] /= n;
            s[1] = s[1].saturating_mul(n);
        }
        _ => {}
    }
    s
}

struct Builder<'a> {
    g: &'a Graph,
    plan: &'a Plan,
    walk: &'a Walk<'a>,
    stages: Option<&'a Stages>,
    tensors: Vec<Tensor>,
    ops: Vec<OpNode>,
    /// The per-GPU tensor each written tensor is read as (after its all-reduce).
    map: Vec<Option<TensorId>>,
    /// Versions of a tensor read through a collective: (written tensor, which) to the
    /// per-GPU one.
    fetched: HashMap<(TensorId, u8), TensorId>,
    /// For each op made, the written op it is made for (its own, or the op an inserted
    /// collective follows or feeds): non-decreasing, so a block instance's ops stay one range.
    origin: Vec<usize>,
    /// The written op being built.
    at: usize,
}

impl<'a> Builder<'a> {
    fn new(g: &'a Graph, plan: &'a Plan, walk: &'a Walk<'a>, stages: Option<&'a Stages>) -> Self {
        Builder {
            g,
            plan,
            walk,
            stages,
            tensors: Vec::with_capacity(g.tensors.len()),
            ops: Vec::with_capacity(g.ops.len()),
            map: vec![None; g.tensors.len()],
            fetched: HashMap::new(),
            origin: Vec::with_capacity(g.ops.len()),
            at: 0,
        }
    }

    fn kept(&self, o: usize) -> bool {
        self.stages.is_none_or(|s| s.of_op[o] == s.this)
    }

    fn tensor(
        &mut self,
        name: CompactString,
        shape: Vec<u64>,
        like: &Tensor,
        origin: Origin,
    ) -> TensorId {
        let bytes = shape
            .iter()
            .fold(like.dtype.bytes(), |b, &d| b.saturating_mul(d));
        self.tensors.push(Tensor {
            name,
            shape: Shape::from(shape),
            dtype: like.dtype,
            bytes,
            origin,
            span: like.span,
        });
        TensorId(self.tensors.len() as u32 - 1)
    }

    /// A collective over group `gi` reading `input` (none for `recv`), writing `out`.
    #[allow(clippy::too_many_arguments)]
    fn collective(
        &mut self,
        name: String,
        kind: OpKind,
        gi: usize,
        input: Option<TensorId>,
        out: TensorId,
        ints: &[(&str, i64)],
        span: Span,
    ) {
        let grp = &self.plan.groups[gi];
        let mut attrs: Vec<(CompactString, i64)> = vec![
            (SIZE.name.into(), grp.size as i64),
            (STRIDE.name.into(), grp.stride as i64),
        ];
        attrs.extend(ints.iter().map(|&(k, v)| (CompactString::from(k), v)));
        self.origin.push(self.at);
        self.ops.push(OpNode {
            name: name.into(),
            kind,
            func: None,
            inputs: input
                .map(|t| TensorUse {
                    tensor: t,
                    index: None,
                    transpose: false,
                    span,
                })
                .into_iter()
                .collect(),
            output: out,
            attrs: attrs.into(),
            span,
            extra: Some(Arc::new(OpExtra {
                scalars: Vec::new(),
                attrs: vec![(GROUP.name.into(), AttrValue::Name(grp.name.as_str().into()))],
            })),
        });
    }

    fn next_op(&self) -> OpId {
        OpId(self.ops.len() as u32)
    }

    /// The per-GPU tensor op `o` reads for written tensor `t` (argument `i`): declared ones
    /// made on first use, another stage's received, expert rows fetched.
    fn read(&mut self, o: OpId, i: usize, t: TensorId, span: Span) -> TensorId {
        let base = match self.map[t.index()] {
            Some(n) => n,
            None => {
                let w = self.g.tensor(t);
                let shape = shape_on_gpu(&w.shape, self.walk.layout[t.index()], self.plan);
                let n = match w.origin {
                    // Made by another stage: received from it. (The ops are walked in
                    // topological order, so without a pipeline every producer was mapped
                    // before its readers and this arm is not reached.)
                    Origin::Produced(p) if let Some(st) = self.stages => {
                        let id = self.next_op();
                        let n = self.tensor(w.name.clone(), shape, w, Origin::Produced(id));
                        let peer = st.of_op[p.index()] as i64;
                        self.collective(
                            format!("{}+recv", w.name),
                            OpKind::Recv,
                            st.group,
                            None,
                            n,
                            &[(PEER.name, peer)],
                            span,
                        );
                        n
                    }
                    origin => self.tensor(w.name.clone(), shape, w, origin),
                };
                self.map[t.index()] = Some(n);
                n
            }
        };
        let Some(&f) = self.walk.fetch.get(&(o, i)) else {
            return base;
        };
        let w = self.g.tensor(t);
        // (group, cache key, layout of the result, kind, name, integer attributes)
        let (gi, key, l, kind, ints): (usize, u8, Layout, OpKind, Vec<(&str, i64)>) = match f {
            Fetch::Dispatch(gi) => (
                gi,
                0,
                Layout::Exchanged { g: gi },
                OpKind::AllToAll,
                vec![(SPLIT_AXIS.name, 0), (CONCAT_AXIS.name, 1)],
            ),
            Fetch::Combine(gi) => (
                gi,
                1,
                Layout::Full,
                OpKind::AllToAll,
                vec![(SPLIT_AXIS.name, 1), (CONCAT_AXIS.name, 0)],
            ),
            Fetch::Gather { g, axis } => (
                g,
                2,
                Layout::Full,
                OpKind::AllGather,
                vec![(AXIS.name, axis as i64)],
            ),
        };
        if self.plan.groups[gi].size == 1 {
            return base;
        }
        if let Some(&n) = self.fetched.get(&(t, key)) {
            return n;
        }
        let id = self.next_op();
        let name = format!("{}+{}", w.name, kind.as_str());
        let n = self.tensor(
            name.as_str().into(),
            shape_on_gpu(&w.shape, l, self.plan),
            w,
            Origin::Produced(id),
        );
        self.collective(name, kind, gi, Some(base), n, &ints, span);
        self.fetched.insert((t, key), n);
        n
    }

    fn build(mut self) -> (Graph, Vec<usize>) {
        let g = self.g;
        for oi in 0..g.ops.len() {
            if !self.kept(oi) {
                continue;
            }
            self.at = oi;
            let o = OpId(oi as u32);
            let op = &g.ops[oi];
            let inputs: Vec<TensorUse> = op
                .inputs
                .iter()
                .enumerate()
                .map(|(i, u)| TensorUse {
                    tensor: self.read(o, i, u.tensor, op.span),
                    ..*u
                })
                .collect();
            let w = g.tensor(op.output);
            let l = self.walk.layout[op.output.index()];
            let reduce = self
                .walk
                .reduce
                .get(&o)
                .copied()
                .filter(|&(gi, _)| self.plan.groups[gi].size > 1);
            let id = self.next_op();
            // Partial sums have the whole shape; what follows the reduction has `l`.
            let out = self.tensor(
                w.name.clone(),
                match reduce {
                    Some(_) => w.shape.to_vec(),
                    None => shape_on_gpu(&w.shape, l, self.plan),
                },
                w,
                Origin::Produced(id),
            );
            self.origin.push(self.at);
            self.ops.push(OpNode {
                inputs,
                output: out,
                ..op.clone()
            });
            let mut read_as = out;
            if let Some((gi, axis)) = reduce {
                let (kind, ints) = match axis {
                    Some(a) => (OpKind::ReduceScatter, vec![(AXIS.name, a as i64)]),
                    None => (OpKind::AllReduce, vec![]),
                };
                let id = self.next_op();
                read_as = self.tensor(
                    format!("{}+{}", w.name, kind.as_str()).into(),
                    shape_on_gpu(&w.shape, l, self.plan),
                    w,
                    Origin::Produced(id),
                );
                self.collective(
                    format!("{}+{}", op.name, kind.as_str()),
                    kind,
                    gi,
                    Some(out),
                    read_as,
                    &ints,
                    op.span,
                );
            }
            self.map[op.output.index()] = Some(read_as);
            // Sent to each later stage that reads it.
            if let Some(st) = self.stages {
                let mut to: Vec<u64> = g
                    .consumers(op.output)
                    .iter()
                    .map(|c| st.of_op[c.index()])
                    .filter(|&s| s != st.this)
                    .collect();
                to.sort_unstable();
                to.dedup();
                for s in to {
                    let id = self.next_op();
                    let suffix = if s == st.this + 1 {
                        "+send".to_string()
                    } else {
                        format!("+send{s}")
                    };
                    let shape = self.tensors[read_as.index()].shape.to_vec();
                    let sent = self.tensor(
                        format!("{}{suffix}", w.name).into(),
                        shape,
                        w,
                        Origin::Produced(id),
                    );
                    self.collective(
                        format!("{}{suffix}", w.name),
                        OpKind::Send,
                        st.group,
                        Some(read_as),
                        sent,
                        &[(PEER.name, s as i64)],
                        op.span,
                    );
                }
            }
        }
        // A stage before the last has none of the graph's outputs: what it sends is its
        // result, written to no HBM tensor (a send writes nothing).
        let outputs: Vec<TensorId> = g
            .outputs
            .iter()
            .filter_map(|t| self.map[t.index()])
            .collect();
        (
            assemble(g.name.clone(), self.tensors, self.ops, outputs),
            self.origin,
        )
    }
}

/// A graph from its tensors, ops (each input made before the op reads it, or by an op
/// anywhere in the list) and outputs: consumer lists and the topological order computed.
fn assemble(name: String, tensors: Vec<Tensor>, ops: Vec<OpNode>, outputs: Vec<TensorId>) -> Graph {
    let nt = tensors.len();
    let mut lists: Vec<Vec<OpId>> = vec![Vec::new(); nt];
    for (o, op) in ops.iter().enumerate() {
        for u in &op.inputs {
            let l = &mut lists[u.tensor.index()];
            if l.last() != Some(&OpId(o as u32)) && !l.contains(&OpId(o as u32)) {
                l.push(OpId(o as u32));
            }
        }
    }
    let mut consumer_start = Vec::with_capacity(nt + 1);
    let mut consumer_list = Vec::new();
    for l in &lists {
        consumer_start.push(consumer_list.len());
        consumer_list.extend_from_slice(l);
    }
    consumer_start.push(consumer_list.len());
    let mut is_output = vec![false; nt];
    for t in &outputs {
        is_output[t.index()] = true;
    }
    // In-degree: the distinct producers of each op's inputs.
    let indegree: Vec<usize> = ops
        .iter()
        .map(|op| {
            let mut ps: Vec<u32> = op
                .inputs
                .iter()
                .filter_map(|u| match tensors[u.tensor.index()].origin {
                    Origin::Produced(p) => Some(p.0),
                    _ => None,
                })
                .collect();
            ps.sort_unstable();
            ps.dedup();
            ps.len()
        })
        .collect();
    let (topo, _) = crate::sema::order::topo_sort(
        indegree,
        |t| &consumer_list[consumer_start[t]..consumer_start[t + 1]],
        |o| ops[o].output,
    );
    Graph {
        name,
        tensors,
        ops,
        outputs,
        is_output,
        consumer_start,
        consumer_list,
        topo,
    }
}

/// What the reports show: groups, the stage, weights, params and FLOPs per GPU, in the
/// written model and over the group, the divided weights and the inserted collectives.
fn summary(g: &Graph, per: &Graph, plan: &Plan, walk: &Walk<'_>, st: Option<&Stages>) -> Parallel {
    let world = plan.world();
    // Weights an `update` writes into are state (KV caches), counted apart.
    let is_state = |gr: &Graph, t: usize| {
        gr.consumers(TensorId(t as u32)).iter().any(|&o| {
            let op = gr.op(o);
            op.kind == OpKind::Update && op.inputs.first().is_some_and(|u| u.tensor.index() == t)
        })
    };
    // (bytes, elements) of the weights, state or not.
    let weights = |gr: &Graph, state: bool| {
        gr.tensors
            .iter()
            .enumerate()
            .filter(|&(i, t)| t.origin == Origin::Weight && is_state(gr, i) == state)
            .fold((0u64, 0u64), |(b, e), (_, t)| {
                (
                    b.saturating_add(t.bytes),
                    e.saturating_add(t.shape.iter().product::<u64>()),
                )
            })
    };
    // Over the group: each stage's weights on each of its GPUs (state and not).
    let group = |state: bool| -> (u64, u64) {
        let Some(st) = st else {
            let (b, e) = weights(per, state);
            return (b.saturating_mul(world), e.saturating_mul(world));
        };
        let mut by_stage = vec![(0u64, 0u64); st.p as usize];
        for (i, t) in g.tensors.iter().enumerate() {
            if t.origin != Origin::Weight || is_state(g, i) != state {
                continue;
            }
            let Some(&c) = g.consumers(TensorId(i as u32)).first() else {
                continue;
            };
            let e: u64 = shape_on_gpu(&t.shape, walk.layout[i], plan)
                .iter()
                .product();
            let slot = &mut by_stage[st.of_op[c.index()] as usize];
            slot.0 = slot.0.saturating_add(e.saturating_mul(t.dtype.bytes()));
            slot.1 = slot.1.saturating_add(e);
        }
        let each = world / st.p;
        by_stage
            .iter()
            .fold((0, 0), |(b, e): (u64, u64), &(sb, se)| {
                (
                    b.saturating_add(sb.saturating_mul(each)),
                    e.saturating_add(se.saturating_mul(each)),
                )
            })
    };
    let (wb, we) = weights(per, false);
    let (mb, me) = weights(g, false);
    let (gb, ge) = group(false);
    let (sb, _) = weights(per, true);
    let (smb, _) = weights(g, true);
    let (sgb, _) = group(true);
    let flops = |gr: &Graph| {
        (0..gr.ops.len()).fold(0u64, |f, o| {
            f.saturating_add(crate::cost::flops::op_flops(gr, OpId(o as u32)).0)
        })
    };
    let written: HashMap<&str, usize> = g
        .tensors
        .iter()
        .enumerate()
        .filter(|(_, w)| w.origin == Origin::Weight)
        .map(|(i, w)| (w.name.as_str(), i))
        .collect();
    let mut sharded: Vec<Sharded> = Vec::new();
    for t in &per.tensors {
        if t.origin != Origin::Weight {
            continue;
        }
        let Some(&i) = written.get(t.name.as_str()) else {
            continue;
        };
        if let (Some(&(role, _)), Layout::Split { axis, g: gi }) =
            (walk.roles.get(&TensorId(i as u32)), walk.layout[i])
        {
            sharded.push(Sharded {
                weight: t.name.to_string(),
                role,
                group: plan.groups[gi].name.clone(),
                axis,
                shape: t.shape.to_vec(),
            });
        }
    }
    let mut inserted: Vec<Inserted> = Vec::new();
    for op in &per.ops {
        if !super::is_inserted(&op.name) {
            continue;
        }
        let group = op.name_attr(GROUP.name).unwrap_or_default().to_string();
        let bytes = match op.inputs.first() {
            Some(u) => per.tensor(u.tensor).bytes,
            None => per.tensor(op.output).bytes,
        };
        let function = op.kind.as_str();
        match inserted
            .iter_mut()
            .find(|r| r.function == function && r.group == group)
        {
            Some(r) => {
                r.count += 1;
                r.bytes = r.bytes.saturating_add(bytes);
            }
            None => inserted.push(Inserted {
                function,
                group,
                count: 1,
                bytes,
            }),
        }
    }
    let split_outputs = g
        .outputs
        .iter()
        .filter_map(|&t| match walk.layout[t.index()] {
            Layout::Split { axis, g: gi } | Layout::Seq { axis, g: gi }
                if st
                    .is_none_or(|s| g.producer(t).is_none_or(|p| s.of_op[p.index()] == s.this)) =>
            {
                Some(SplitOutput {
                    tensor: g.tensor(t).name.to_string(),
                    group: plan.groups[gi].name.clone(),
                    axis,
                })
            }
            _ => None,
        })
        .collect();
    Parallel {
        groups: plan.groups.clone(),
        world,
        stage: st.map(|s| s.info.clone()),
        weights: Totals {
            per_gpu: wb,
            model: mb,
            group: gb,
        },
        params: Totals {
            per_gpu: we,
            model: me,
            group: ge,
        },
        state: Totals {
            per_gpu: sb,
            model: smb,
            group: sgb,
        },
        flops: super::Flops {
            per_gpu: flops(per),
            model: flops(g),
        },
        sharded,
        inserted,
        split_outputs,
    }
}

#[cfg(test)]
mod tests {
    use super::remap;

    #[test]
    fn instance_ranges_follow_the_ops_made_for_them() {
        // Written ops 0..6; op 2 gained an all-reduce after it, op 4 a recv before it, and
        // ops 0 and 1 went to another stage.
        let origin = [2, 2, 3, 4, 4, 5];
        assert_eq!(remap(&(0..2), &origin), 0..0);
        assert_eq!(remap(&(2..4), &origin), 0..3);
        assert_eq!(remap(&(4..6), &origin), 3..6);
        assert_eq!(remap(&(0..6), &origin), 0..6);
    }
}
