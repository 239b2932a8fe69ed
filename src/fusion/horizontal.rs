//! Horizontal fusion (`--horizontal`): kernels with no path between them that read the same
//! tensor become one launch, which reads that tensor once.
//!
//! TorchInductor fuses nodes that share reads and have no dependency between them
//! ("horizontal" fusion: `Scheduler.can_fuse_horizontal` in `torch/_inductor/scheduler.py`),
//! and XLA fuses sibling consumers of one operand into a multi-output fusion
//! (`xla/service/gpu/multi_output_fusion.cc`). The vertical plan ([`super::greedy`]) is made
//! first; then, for each tensor read from HBM by several kernels, in the order of the graph,
//! the readers are merged into the first one while
//! - neither is reachable from the other (a launch cannot wait for itself);
//! - both are pointwise kernels (no matmul) over loops of the same size (the elements of the
//!   last op's output, of a reduction's input, or of the rows an `update` writes: Inductor's
//!   Triton backend fuses only matching sizes, and stores into a cache's slice loop over
//!   that slice), or both hold matmuls and `grouped-gemm` was asked for (one grouped GEMM
//!   launch for the Q/K/V or gate/up projections of one input, any sizes);
//! - the merged launch stays within the budgets in force ([`super::budget`]).
//!
//! `inductor` (the `inductor` preset's mode) merges pointwise kernels as Inductor's scheduler
//! does, with two more conditions, each read off its code and checked against the kernels it
//! generated (docs/VALIDATION.md §62):
//! - the kernels read the *same elements* of the tensor: a fusion is scored by the memory
//!   dependencies two nodes share, each a buffer and an index, and refused with none ("no
//!   shared data due to indexing mismatch"), so readers of disjoint slices of one tensor (the
//!   key and value columns of GPT-2's fused QKV projection) are not merged ([`Region`]);
//! - the merge cannot raise peak memory (`can_fusion_increase_peak_memory`,
//!   [`raises_peak_memory`]).
//!
//! Under `grouped-gemm` one dependent pair merges too, as serving stacks run a SwiGLU MLP
//! (vLLM's merged `gate_up_proj`, CUTLASS's dual GEMM): a **dual GEMM**. Two kernels that
//! read the same tensor `x` merge although one reads what the other writes when
//! - the producer kernel is one contraction alone (`up = x @ w_up`), nothing recomputed;
//! - the consumer kernel starts with a contraction of the same kind with the same first
//!   operand `x` and an output of the same shape and dtype (`gate = x @ w_gate`), holds no
//!   other contraction and nothing recomputed, and every op of it that reads the producer's
//!   output is pointwise with an output of that shape (the SiLU·mul epilogue reads `up` at
//!   the place it writes);
//! - the consumer is reached from the producer only by those direct edges (no path through
//!   a third kernel: the launch could not wait for it), and budgets hold.
//!
//! The merged kernel reads `x` once and both weights, and writes the epilogue's output only
//! (the producer's output is still written when another kernel reads it).
//!
//! The work is bounded: at most [`MAX_TRIES`] merges are tried, each search visits at most
//! [`MAX_SEARCH`] kernels (past that the merge is refused), and every try, every kernel a
//! search visits and every edge out of it spends a unit of the plan search's meter
//! (`super::work`): past its bound no further merge is tried, and the merges made stand.
//!
//! Each merge is reported with the kernels it joined, the tensors they now read once, and the
//! bytes and launches saved (the traffic of the parts minus that of the merged launch).

pub use super::plan::HorizontalMerge;
use super::work::{Meter, Pass};
use super::{Budgets, FusionGroup, FusionPlan};
use crate::graph::{Graph, OpId, TensorId};
use crate::types::OpKind;
use serde::Serialize;

/// Which kernels horizontal fusion may merge (`--horizontal`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Horizontal {
    /// No horizontal fusion (SPEC §2).
    #[default]
    Off,
    /// Kernels without a matmul.
    Pointwise,
    /// Pointwise kernels, and kernels with matmuls with each other (a grouped GEMM).
    GroupedGemm,
    /// Pointwise kernels as TorchInductor's scheduler merges them (`--fuser inductor`): only
    /// over a read of the same elements, and not where the merge could raise peak memory.
    Inductor,
}

impl Horizontal {
    pub fn as_str(self) -> &'static str {
        match self {
            Horizontal::Off => "off",
            Horizontal::Pointwise => "pointwise",
            Horizontal::GroupedGemm => "grouped-gemm",
            Horizontal::Inductor => "inductor",
        }
    }
}

/// At most this many merges are tried per plan: each try searches the kernel graph.
pub const MAX_TRIES: usize = 4096;

/// At most this many kernels are visited by one search; a search that would visit more
/// answers "reachable", and the merge is not made.
pub const MAX_SEARCH: usize = 20_000;

/// `plan` with independent kernels that share a read merged as `mode` allows.
pub(crate) fn merge(
    g: &Graph,
    plan: FusionPlan,
    mode: Horizontal,
    budgets: &Budgets,
    meter: &mut Meter,
) -> FusionPlan {
    let k = plan.groups.len();
    if k < 2 {
        return plan;
    }
    // Kernel graph: each kernel's successors (kernels that read what it writes).
    let computes = |grp: usize, o: OpId| {
        plan.group_of[o.index()] == grp || plan.groups[grp].recomputed.binary_search(&o).is_ok()
    };
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); k];
    // The last kernel each kernel's successor list got: the lists are built kernel by kernel,
    // so a repeat is always the last entry (no scan of the list).
    let mut last_succ = vec![usize::MAX; k];
    // (Tensor, region) → kernels that read it from HBM, in kernel order.
    let mut readers: Vec<((TensorId, Region), usize)> = Vec::new();
    for (grp, group) in plan.groups.iter().enumerate() {
        for &o in group.ops.iter().chain(&group.recomputed) {
            for u in &g.op(o).inputs {
                let part = if mode == Horizontal::Inductor {
                    region(g, o)
                } else {
                    None
                };
                let read = (u.tensor, part);
                match g.producer(u.tensor) {
                    Some(p) if computes(grp, p) => {}
                    Some(p) => {
                        let from = plan.group_of[p.index()];
                        if last_succ[from] != grp {
                            last_succ[from] = grp;
                            succ[from].push(grp);
                        }
                        readers.push((read, grp));
                    }
                    None => readers.push((read, grp)),
                }
            }
        }
    }
    readers.sort_unstable();
    readers.dedup();
    let matmuls: Vec<bool> = plan
        .groups
        .iter()
        .map(|grp| grp.ops.iter().any(|&o| g.op(o).kind.is_contraction()))
        .collect();
    // The loop size of each kernel: the elements of its last op's output (of its input for
    // a reduction, of the rows it writes for an `update`, which Inductor runs as a store
    // into that slice of the cache). Pointwise kernels share a launch only when their loops
    // are the same.
    let domain: Vec<u64> = plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops.last().map_or(0, |&o| {
                let op = g.op(o);
                let t = match (op.kind, op.inputs.first(), op.inputs.get(1)) {
                    (k, Some(u), _) if k.is_reduction() => u.tensor,
                    (OpKind::Update, _, Some(rows)) => rows.tensor,
                    _ => op.output,
                };
                g.tensor(t).shape.iter().product::<u64>()
            })
        })
        .collect();
    // A collective is an NCCL kernel of its own (issue 25): it shares no launch.
    let collective: Vec<bool> = plan
        .groups
        .iter()
        .map(|grp| grp.ops.iter().any(|&o| g.op(o).kind.is_collective()))
        .collect();
    let eligible = |a: usize, b: usize| match mode {
        _ if collective[a] || collective[b] => false,
        Horizontal::Off => false,
        Horizontal::Pointwise | Horizontal::Inductor => {
            !matmuls[a] && !matmuls[b] && domain[a] == domain[b]
        }
        Horizontal::GroupedGemm => {
            matmuls[a] == matmuls[b] && (matmuls[a] || domain[a] == domain[b])
        }
    };
    let kernel_reads = (mode == Horizontal::Inductor).then(|| KernelReads::new(g, k, &readers));
    let mut pos = vec![0usize; g.ops.len()];
    for (i, &o) in g.topo.iter().enumerate() {
        pos[o.index()] = i;
    }
    // Union-find over kernels; each root's member kernels.
    let mut parent: Vec<usize> = (0..k).collect();
    let mut parts: Vec<Vec<usize>> = (0..k).map(|i| vec![i]).collect();
    let mut ops_of: Vec<Vec<OpId>> = plan.groups.iter().map(|grp| grp.ops.clone()).collect();
    let mut seen = vec![0u32; k];
    let mut epoch = 0u32;
    let mut tries = 0usize;
    let mut i = 0;
    while i < readers.len() {
        let t = readers[i].0;
        let mut j = i;
        while j < readers.len() && readers[j].0 == t {
            j += 1;
        }
        let group_readers: Vec<usize> = readers[i..j].iter().map(|&(_, r)| r).collect();
        i = j;
        if group_readers.len() < 2 {
            continue;
        }
        for idx in 1..group_readers.len() {
            let b0 = group_readers[idx];
            // The first reader this one may join.
            'readers: for &a0 in &group_readers[..idx] {
                let (a, b) = (root(&mut parent, a0), root(&mut parent, b0));
                if a == b || !eligible(a0, b0) || !eligible(a, b) {
                    continue;
                }
                tries += 1;
                if tries > MAX_TRIES || !meter.spend(Pass::Horizontal, 1) {
                    return rebuild(g, plan, &mut parent, &parts);
                }
                // A dual GEMM: `from` may feed `to` directly (the producer of the pair).
                let dual = if mode != Horizontal::GroupedGemm
                    || parts[a].len() != 1
                    || parts[b].len() != 1
                {
                    None
                } else if dual_gemm(g, &plan.groups[a], &plan.groups[b]) {
                    Some(a)
                } else if dual_gemm(g, &plan.groups[b], &plan.groups[a]) {
                    Some(b)
                } else {
                    None
                };
                epoch = epoch.wrapping_add(1).max(1);
                for (from, to) in [(a, b), (b, a)] {
                    match reaches(
                        &succ,
                        &parts,
                        &mut parent,
                        &mut seen,
                        epoch,
                        from,
                        to,
                        dual == Some(from),
                        meter,
                    ) {
                        Some(false) => {}
                        Some(true) => continue 'readers,
                        None => return rebuild(g, plan, &mut parent, &parts),
                    }
                }
                if let Some(kr) = &kernel_reads {
                    match raises_peak_memory(kr, &parts[a], &parts[b], meter) {
                        Some(false) => {}
                        Some(true) => continue,
                        None => return rebuild(g, plan, &mut parent, &parts),
                    }
                }
                match budgets.check(g, &ops_of[a], &ops_of[b], &pos, meter, Pass::Horizontal) {
                    Some(None) => {}
                    Some(Some(_)) => continue,
                    None => return rebuild(g, plan, &mut parent, &parts),
                }
                parent[b] = a;
                let moved = std::mem::take(&mut parts[b]);
                parts[a].extend(moved);
                let moved = std::mem::take(&mut ops_of[b]);
                ops_of[a].extend(moved);
                break;
            }
        }
    }
    rebuild(g, plan, &mut parent, &parts)
}

/// The part of its input an op reads under `--horizontal inductor`: `None` for all of it, or
/// a slice's (axis, start, end, step), the axis counted from the front. Two kernels share a
/// read only when they read the same part: Inductor scores a fusion by the memory
/// dependencies two nodes share, each a buffer *and* an index, so the key and value slices of
/// one fused QKV projection are not a shared read (measured: transformers' GPT-2 decode under
/// `torch.compile` concatenates K and V onto their caches in two kernels, VALIDATION §62).
type Region = Option<(i64, i64, i64, i64)>;

fn region(g: &Graph, o: OpId) -> Region {
    let op = g.op(o);
    if op.kind != OpKind::Slice {
        return None;
    }
    let shape: &[u64] = op
        .inputs
        .first()
        .map_or(&[], |u| g.tensor(u.tensor).shape.as_slice());
    let axis = op.int_attr("axis").unwrap_or(0);
    let axis = if axis < 0 {
        axis.saturating_add(shape.len() as i64)
    } else {
        axis
    };
    let dim = usize::try_from(axis)
        .ok()
        .and_then(|a| shape.get(a))
        .map_or(i64::MAX, |&d| i64::try_from(d).unwrap_or(i64::MAX));
    // The end defaults to the axis's size (sema checked both bounds).
    let start = op.int_attr("start").unwrap_or(0);
    let end = op.int_attr("end").unwrap_or(dim).min(dim);
    Some((axis, start, end, op.int_attr("step").unwrap_or(1)))
}

/// What Inductor's peak-memory check ([`raises_peak_memory`]) reads of each kernel: the parts
/// of tensors it reads from HBM with their bytes, and the tensors it computes and alone reads,
/// as (bytes, dtype), each list sorted.
struct KernelReads {
    reads: Vec<Vec<((TensorId, Region), u64)>>,
    single: Vec<Vec<(u64, usize)>>,
}

impl KernelReads {
    fn new(g: &Graph, k: usize, readers: &[((TensorId, Region), usize)]) -> KernelReads {
        let mut reads = vec![Vec::new(); k];
        for &((t, part), grp) in readers {
            reads[grp].push(((t, part), part_bytes(g, t, part)));
        }
        // The kernels reading each tensor, any part of it.
        let mut pairs: Vec<(TensorId, usize)> = readers.iter().map(|&((t, _), r)| (t, r)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let mut single = vec![Vec::new(); k];
        let mut i = 0;
        while i < pairs.len() {
            let t = pairs[i].0;
            let j = pairs[i..].iter().take_while(|p| p.0 == t).count();
            if j == 1 && g.producer(t).is_some() {
                let dt = g.tensor(t).dtype as usize;
                single[pairs[i].1].push((g.tensor(t).bytes, dt));
            }
            i += j;
        }
        for v in &mut single {
            v.sort_unstable();
            v.dedup();
        }
        KernelReads { reads, single }
    }
}

/// The bytes of `part` of tensor `t`: a slice's share of its elements.
fn part_bytes(g: &Graph, t: TensorId, part: Region) -> u64 {
    let tensor = g.tensor(t);
    let Some((axis, start, end, step)) = part else {
        return tensor.bytes;
    };
    let dim = usize::try_from(axis)
        .ok()
        .and_then(|d| tensor.shape.get(d).copied())
        .unwrap_or(1)
        .max(1);
    let step = step.max(1);
    let kept = end.saturating_sub(start).max(0).saturating_add(step - 1) / step;
    tensor.bytes / dim * u64::try_from(kept).unwrap_or(0).min(dim)
}

/// Inductor's `Scheduler.can_fusion_increase_peak_memory` (`torch/_inductor/scheduler.py`):
/// a buffer that only one kernel reads can be reused once that kernel has run; two merged
/// kernels that each read such a buffer of the same size and dtype keep both alive at once.
/// The merge is refused when those sizes (each size and dtype once) exceed 32 times the bytes
/// the two kernels share. Measured (VALIDATION §62): Llama-2's decode RoPE of Q and of K
/// share the cos and sin rows (512 B) but each reads its own projection's output (128 KiB):
/// two kernels ("Fusion will increase peak memory"); Phi-3's read one fused projection, which
/// three kernels read: one kernel. `None`: the meter ran out.
fn raises_peak_memory(
    kr: &KernelReads,
    a: &[usize],
    b: &[usize],
    meter: &mut Meter,
) -> Option<bool> {
    let gather = |ks: &[usize]| {
        let mut reads: Vec<((TensorId, Region), u64)> = ks
            .iter()
            .flat_map(|&k| kr.reads[k].iter().copied())
            .collect();
        reads.sort_unstable();
        reads.dedup();
        let mut single: Vec<(u64, usize)> = ks
            .iter()
            .flat_map(|&k| kr.single[k].iter().copied())
            .collect();
        single.sort_unstable();
        single.dedup();
        (reads, single)
    };
    let work = |ks: &[usize]| {
        ks.iter()
            .map(|&k| (kr.reads[k].len() + kr.single[k].len()) as u64)
            .sum::<u64>()
    };
    if !meter.spend(Pass::Horizontal, work(a).saturating_add(work(b))) {
        return None;
    }
    let ((ra, sa), (rb, sb)) = (gather(a), gather(b));
    let shared: u64 = ra
        .iter()
        .filter(|x| rb.binary_search(x).is_ok())
        .map(|&(_, bytes)| bytes)
        .sum();
    let overhead: u64 = sa
        .iter()
        .filter(|x| sb.binary_search(x).is_ok())
        .map(|&(bytes, _)| bytes)
        .sum();
    Some(overhead > shared.saturating_mul(32))
}

/// The root of kernel `x` in the union-find `parent` (path halving).
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Whether kernel `prod` may be the producer of a dual GEMM with kernel `cons` (see the
/// module's notes): `prod` is one contraction reading `x`, `cons` starts with a contraction
/// of the same kind reading `x` into an output of the same shape and dtype, holds no other
/// contraction, and reads `prod`'s output only in pointwise ops of that shape.
fn dual_gemm(g: &Graph, prod: &FusionGroup, cons: &FusionGroup) -> bool {
    let ([p], Some(&c)) = (prod.ops.as_slice(), cons.ops.first()) else {
        return false;
    };
    if !prod.recomputed.is_empty() || !cons.recomputed.is_empty() {
        return false;
    }
    let (po, co) = (g.op(*p), g.op(c));
    if !po.kind.is_contraction() || po.kind != co.kind {
        return false;
    }
    match (po.inputs.first(), co.inputs.first()) {
        (Some(x), Some(y))
            if x.tensor == y.tensor && x.index == y.index && x.transpose == y.transpose => {}
        _ => return false,
    }
    let (pt, ct) = (g.tensor(po.output), g.tensor(co.output));
    if pt.shape != ct.shape || pt.dtype != ct.dtype {
        return false;
    }
    let mut reads = false;
    for (i, &o) in cons.ops.iter().enumerate() {
        let op = g.op(o);
        if i > 0 && op.kind.is_contraction() {
            return false;
        }
        let mut uses = op
            .inputs
            .iter()
            .filter(|u| u.tensor == po.output)
            .peekable();
        if uses.peek().is_some() {
            if op.kind.class() != crate::ops::FuseClass::Pointwise
                || uses.any(|u| u.index.is_some() || u.transpose)
                || g.tensor(op.output).shape != pt.shape
            {
                return false;
            }
            reads = true;
        }
    }
    reads
}

/// Whether any kernel of the merged kernel rooted at `to` is reachable from the one rooted
/// at `from` (iterative; every kernel of a merged root counts as one node). With `direct`,
/// an edge from a kernel of `from` straight into `to` does not count (a dual GEMM's producer
/// feeding its consumer): only a path through another kernel does. A search past
/// [`MAX_SEARCH`] kernels says yes: the merge is refused rather than the run slowed. Each
/// kernel visited spends a unit of `meter` and one per edge out of it: `None` when that
/// passes its bound.
#[allow(clippy::too_many_arguments)]
fn reaches(
    succ: &[Vec<usize>],
    parts: &[Vec<usize>],
    parent: &mut [usize],
    seen: &mut [u32],
    epoch: u32,
    from: usize,
    to: usize,
    direct: bool,
    meter: &mut Meter,
) -> Option<bool> {
    let mut stack: Vec<usize> = parts[from].clone();
    for &x in &stack {
        seen[x] = epoch;
    }
    let mut visited = 0usize;
    while let Some(x) = stack.pop() {
        visited += 1;
        if visited > MAX_SEARCH {
            return Some(true);
        }
        if !meter.spend(Pass::Horizontal, 1 + succ[x].len() as u64) {
            return None;
        }
        let in_from = direct && root(parent, x) == from;
        for &s in &succ[x] {
            let r = root(parent, s);
            if r == to {
                if in_from {
                    continue;
                }
                return Some(true);
            }
            if r == from {
                continue;
            }
            for &m in &parts[r] {
                if seen[m] != epoch {
                    seen[m] = epoch;
                    stack.push(m);
                }
            }
        }
    }
    Some(false)
}

/// The plan with kernels merged as `parent` says, in the order of their last ops, with the
/// merges described.
fn rebuild(g: &Graph, plan: FusionPlan, parent: &mut [usize], parts: &[Vec<usize>]) -> FusionPlan {
    let k = plan.groups.len();
    if (0..k).all(|i| parent[i] == i) {
        return plan;
    }
    let mut pos = vec![0usize; g.ops.len()];
    for (i, &o) in g.topo.iter().enumerate() {
        pos[o.index()] = i;
    }
    // Old kernels are in the order of their last ops; a merged one sits at its last part.
    let mut last_of_root = vec![0usize; k];
    for i in 0..k {
        let r = root(parent, i);
        last_of_root[r] = last_of_root[r].max(i);
    }
    let mut roots: Vec<usize> = (0..k).filter(|&i| root(parent, i) == i).collect();
    roots.sort_by_key(|&r| last_of_root[r]);
    let mut new_index = vec![0usize; k];
    for (n, &r) in roots.iter().enumerate() {
        new_index[r] = n;
    }
    let old_traffic: Vec<u64> = (0..k)
        .map(|i| {
            if parts[root(parent, i)].len() > 1 {
                crate::traffic::group_traffic(g, &plan, i)
                    .map(|t| t.bytes_read.saturating_add(t.bytes_written))
                    .unwrap_or(0)
            } else {
                0
            }
        })
        .collect();
    let mut groups: Vec<FusionGroup> = Vec::with_capacity(roots.len());
    // (new index, the ops of each part, what each part computes, traffic of the parts apart)
    type Merge = (usize, Vec<Vec<OpId>>, Vec<Vec<OpId>>, u64);
    let mut merges: Vec<Merge> = Vec::new();
    for &r in &roots {
        let mut ops: Vec<OpId> = parts[r]
            .iter()
            .flat_map(|&i| plan.groups[i].ops.iter().copied())
            .collect();
        ops.sort_by_key(|o| pos[o.index()]);
        let mut recomputed: Vec<OpId> = parts[r]
            .iter()
            .flat_map(|&i| plan.groups[i].recomputed.iter().copied())
            .collect();
        recomputed.sort_unstable();
        recomputed.dedup();
        if parts[r].len() > 1 {
            let part_ops = parts[r]
                .iter()
                .map(|&i| plan.groups[i].ops.clone())
                .collect();
            let computed = parts[r]
                .iter()
                .map(|&i| plan.groups[i].computed())
                .collect();
            let before = parts[r].iter().map(|&i| old_traffic[i]).sum();
            merges.push((new_index[r], part_ops, computed, before));
        }
        groups.push(FusionGroup { ops, recomputed });
    }
    let mut group_of = plan.group_of.clone();
    for slot in group_of.iter_mut() {
        *slot = new_index[root(parent, *slot)];
    }
    let mut out = FusionPlan {
        groups,
        group_of,
        ..plan
    };
    // A copy of an op that is now a member of the same launch is no copy.
    for grp in &mut out.groups {
        let k = out.group_of[grp.ops[0].index()];
        grp.recomputed.retain(|o| out.group_of[o.index()] != k);
    }
    let group_of = &out.group_of;
    out.recomputes
        .retain(|e| group_of[e.producer.index()] != group_of[e.consumer.index()]);
    let mut horizontal = Vec::new();
    for (n, part_ops, computed, before) in merges {
        let after = crate::traffic::group_traffic(g, &out, n)
            .map(|t| t.bytes_read.saturating_add(t.bytes_written))
            .unwrap_or(0);
        let shared = shared_reads(g, &out, n, &computed);
        horizontal.push(HorizontalMerge {
            group: n,
            parts: part_ops,
            shared,
            bytes_saved: before.saturating_sub(after),
        });
    }
    out.horizontal = horizontal;
    out
}

/// The tensors read from HBM by more than one of `parts` (what each kernel merged into group
/// `n` of `plan` computes), in first-read order.
fn shared_reads(g: &Graph, plan: &FusionPlan, n: usize, parts: &[Vec<OpId>]) -> Vec<TensorId> {
    let mut count: Vec<(TensorId, usize)> = Vec::new();
    // Each tensor's entry in `count`, and the last part that counted it.
    let mut entry: std::collections::HashMap<TensorId, (usize, usize)> =
        std::collections::HashMap::new();
    for (k, part) in parts.iter().enumerate() {
        for &o in part {
            for u in &g.op(o).inputs {
                let inside = g.producer(u.tensor).is_some_and(|p| {
                    plan.group_of[p.index()] == n
                        || plan.groups[n].recomputed.binary_search(&p).is_ok()
                });
                if inside {
                    continue;
                }
                match entry.get_mut(&u.tensor) {
                    Some((_, last)) if *last == k => {}
                    Some((i, last)) => {
                        *last = k;
                        count[*i].1 += 1;
                    }
                    None => {
                        entry.insert(u.tensor, (count.len(), k));
                        count.push((u.tensor, 1));
                    }
                }
            }
        }
    }
    count
        .into_iter()
        .filter(|&(_, c)| c > 1)
        .map(|(t, _)| t)
        .collect()
}
