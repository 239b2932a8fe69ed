//! HBM traffic of a fusion plan (SPEC §3): each kernel reads its distinct external inputs once
//! and writes the member outputs that leave it; tensors internal to a kernel cost nothing. What
//! an op reads of each argument and writes is its op registry row's (`crate::ops`). Also here:
//! the bytes each tensor costs under a plan ([`round_trips`]) and what a FlashAttention
//! kernel saves of them ([`flash_savings`]).

use crate::fusion::plan::FusionPlan;
use crate::graph::{Graph, OpId, OpNode, TensorId};
use crate::ops::spec;
use serde::Serialize;
use std::collections::HashMap;

/// One read of a kernel: a whole tensor or one slice of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    pub tensor: TensorId,
    pub index: Option<u64>,
    pub bytes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Write {
    pub tensor: TensorId,
    pub bytes: u64,
}

/// What one kernel moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupTraffic {
    pub reads: Vec<Read>,
    pub writes: Vec<Write>,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

/// The seed's four numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Traffic {
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub total: u64,
    pub saved_by_fusion: u64,
}

/// A byte total that does not fit in 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("total traffic overflows 64 bits")
    }
}
impl std::error::Error for Overflow {}

/// Scratch space for the read sets of one kernel, reused from kernel to kernel so that a
/// plan's traffic allocates nothing per kernel but its result.
pub(crate) struct Scratch {
    /// The read set of each tensor: `slot[t]` indexes `sets` (`u32::MAX`: none yet).
    /// Dense (one entry per tensor) for whole plans; a map for one group of a large graph.
    slot: Slots,
    /// Distinct external tensors in first-seen order, and whether a whole read covers them.
    sets: Vec<(TensorId, bool)>,
    /// Slice reads `(set, index)` in the order met, duplicates included.
    slices: Vec<(u32, u64)>,
    /// Partial reads `(set, bytes)` of the ops that read part of an argument
    /// ([`arg_read_bytes`]), in the order met.
    parts: Vec<(u32, u64)>,
}

/// What op `op` reads of its argument `k`: `None` for the whole argument (tensor or view),
/// `Some(bytes)` for a part. The op registry's row decides (`crate::ops`, SPEC §3 as extended
/// by issue 10):
///
/// | kind | argument | read |
/// |---|---|---|
/// | `slice` | the input | the sliced part: the output's bytes |
/// | `gather` | the table (0) | the rows touched: `min(indices, table.shape[axis])` slices along `axis` |
/// | `update` | the buffer (0) | nothing: the new rows are written into it in place |
/// | any | any other | the whole argument |
pub fn arg_read_bytes(g: &Graph, op: &OpNode, k: usize) -> Option<u64> {
    let spec = spec(op.kind);
    if spec.partial_reads {
        (spec.read)(g, op, k)
    } else {
        None
    }
}

/// What op `op` writes when its output leaves its kernel: the output's bytes, except for an
/// `update`, which writes only its new rows into the buffer (the size of its argument 1).
pub fn op_write_bytes(g: &Graph, op: &OpNode) -> u64 {
    (spec(op.kind).write)(g, op)
}

enum Slots {
    Dense(Vec<u32>),
    Sparse(HashMap<TensorId, u32>),
}

impl Scratch {
    /// Scratch for any number of kernels of `g`.
    pub(crate) fn dense(g: &Graph) -> Self {
        Scratch {
            slot: Slots::Dense(vec![u32::MAX; g.tensors.len()]),
            sets: Vec::new(),
            slices: Vec::new(),
            parts: Vec::new(),
        }
    }

    /// Scratch for one kernel: costs what the kernel reads, not what the graph holds.
    fn sparse() -> Self {
        Scratch {
            slot: Slots::Sparse(HashMap::new()),
            sets: Vec::new(),
            slices: Vec::new(),
            parts: Vec::new(),
        }
    }

    fn set_of(&mut self, t: TensorId) -> usize {
        let k = match &mut self.slot {
            Slots::Dense(v) => &mut v[t.index()],
            Slots::Sparse(m) => m.entry(t).or_insert(u32::MAX),
        };
        if *k == u32::MAX {
            // At most one set per tensor, and tensor indices fit in u32.
            *k = self.sets.len() as u32;
            self.sets.push((t, false));
        }
        *k as usize
    }

    fn clear(&mut self) {
        match &mut self.slot {
            Slots::Dense(v) => {
                for &(t, _) in &self.sets {
                    v[t.index()] = u32::MAX;
                }
            }
            Slots::Sparse(m) => m.clear(),
        }
        self.sets.clear();
        self.slices.clear();
        self.parts.clear();
    }
}

/// Calls `read` for each distinct external read of the kernel made of `members` and the
/// `copies` it recomputes (in first-seen order; a whole read covers the tensor's slices, and
/// each distinct slice is read once) and `write` for each member output that leaves it (a
/// copy writes nothing). `inside(o)`: whether op `o` is computed in the kernel (member or
/// copy); `leaves(o)`: whether a reader in another kernel reads member `o`'s output from
/// HBM rather than computing it again.
fn visit(
    g: &Graph,
    (members, copies): (&[OpId], &[OpId]),
    inside: impl Fn(OpId) -> bool,
    leaves: impl Fn(OpId) -> bool,
    s: &mut Scratch,
    mut read: impl FnMut(Read),
    mut write: impl FnMut(Write),
) {
    for &o in members.iter().chain(copies) {
        let op = g.op(o);
        for (j, u) in op.inputs.iter().enumerate() {
            if g.producer(u.tensor).is_some_and(&inside) {
                continue;
            }
            let k = s.set_of(u.tensor);
            // `k` < number of tensors, which fits in u32.
            match (arg_read_bytes(g, op, j), u.index) {
                (Some(part), _) => s.parts.push((k as u32, part)),
                (None, None) => s.sets[k].1 = true,
                (None, Some(i)) => s.slices.push((k as u32, i)),
            }
        }
    }
    if !s.slices.is_empty() {
        // Stable: each set's slices stay in the order met.
        s.slices.sort_by_key(|&(k, _)| k);
    }
    if !s.parts.is_empty() {
        s.parts.sort_by_key(|&(k, _)| k);
    }
    let (mut next, mut next_part) = (0, 0);
    for (k, &(t, whole)) in s.sets.iter().enumerate() {
        let tensor = g.tensor(t);
        let start = next;
        while next < s.slices.len() && s.slices[next].0 as usize == k {
            next += 1;
        }
        // Parts read by several ops add up, to at most the whole tensor.
        let mut part: Option<u64> = None;
        while next_part < s.parts.len() && s.parts[next_part].0 as usize == k {
            let b = s.parts[next_part].1;
            part = Some(part.unwrap_or(0).saturating_add(b).min(tensor.bytes));
            next_part += 1;
        }
        if whole {
            read(Read {
                tensor: t,
                index: None,
                bytes: tensor.bytes,
            });
            continue;
        }
        // A part read of 0 bytes (an update's buffer) is no read at all.
        if let Some(bytes) = part.filter(|&b| b > 0) {
            read(Read {
                tensor: t,
                index: None,
                bytes,
            });
        }
        let slice = tensor.bytes / tensor.shape.first().copied().unwrap_or(1).max(1);
        let run = &s.slices[start..next];
        let mut emit = |i: u64| {
            read(Read {
                tensor: t,
                index: Some(i),
                bytes: slice,
            })
        };
        if run.len() <= 16 {
            for (j, &(_, i)) in run.iter().enumerate() {
                if !run[..j].iter().any(|&(_, x)| x == i) {
                    emit(i);
                }
            }
        } else {
            let mut seen = std::collections::HashSet::with_capacity(run.len());
            for &(_, i) in run {
                if seen.insert(i) {
                    emit(i);
                }
            }
        }
    }
    s.clear();
    for &o in members {
        let t = g.op(o).output;
        if g.is_output(t) || g.consumers(t).is_empty() || leaves(o) {
            write(Write {
                tensor: t,
                bytes: op_write_bytes(g, g.op(o)),
            });
        }
    }
}

/// `holders`: [`FusionPlan::copy_holders`] when the plan has copies.
fn group_traffic_in(
    g: &Graph,
    plan: &FusionPlan,
    group: usize,
    holders: Option<&[Vec<usize>]>,
    s: &mut Scratch,
) -> Result<GroupTraffic, Overflow> {
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let (mut bytes_read, mut bytes_written) = (Some(0u64), Some(0u64));
    let copies = &plan.groups[group].recomputed;
    visit(
        g,
        (&plan.groups[group].ops, copies),
        |o| plan.group_of[o.index()] == group || copies.binary_search(&o).is_ok(),
        |o| match holders {
            Some(h) => plan.read_elsewhere(g, o, h),
            None => g
                .consumers(g.op(o).output)
                .iter()
                .any(|&c| plan.reads_back(c, o)),
        },
        s,
        |r| {
            bytes_read = bytes_read.and_then(|b| b.checked_add(r.bytes));
            reads.push(r);
        },
        |w| {
            bytes_written = bytes_written.and_then(|b| b.checked_add(w.bytes));
            writes.push(w);
        },
    );
    Ok(GroupTraffic {
        reads,
        writes,
        bytes_read: bytes_read.ok_or(Overflow)?,
        bytes_written: bytes_written.ok_or(Overflow)?,
    })
}

/// The traffic of one group of `plan`.
pub fn group_traffic(g: &Graph, plan: &FusionPlan, group: usize) -> Result<GroupTraffic, Overflow> {
    let holders = has_copies(plan).then(|| plan.copy_holders(g.ops.len()));
    group_traffic_in(g, plan, group, holders.as_deref(), &mut Scratch::sparse())
}

/// Bytes read and written by op `o` run as a kernel of its own (the unfused plan).
pub(crate) fn alone_bytes(g: &Graph, o: OpId, s: &mut Scratch) -> Result<(u64, u64), Overflow> {
    let op = g.op(o);
    // The common case, a few whole-tensor arguments: `visit` without the scratch.
    let reads_part = spec(op.kind).partial_reads;
    if op.inputs.len() <= 8 && op.inputs.iter().all(|u| u.index.is_none()) && !reads_part {
        let mut read = 0u64;
        for (j, u) in op.inputs.iter().enumerate() {
            if g.producer(u.tensor) == Some(o)
                || op.inputs[..j].iter().any(|v| v.tensor == u.tensor)
            {
                continue;
            }
            read = read.checked_add(g.tensor(u.tensor).bytes).ok_or(Overflow)?;
        }
        let t = op.output;
        let consumers = g.consumers(t);
        let leaves = g.is_output(t) || consumers.is_empty() || consumers.iter().any(|&c| c != o);
        return Ok((read, if leaves { op_write_bytes(g, op) } else { 0 }));
    }
    let (mut read, mut written) = (Some(0u64), Some(0u64));
    visit(
        g,
        (&[o], &[]),
        |p| p == o,
        |p| g.consumers(g.op(p).output).iter().any(|&c| c != p),
        s,
        |r| read = read.and_then(|b| b.checked_add(r.bytes)),
        |w| written = written.and_then(|b| b.checked_add(w.bytes)),
    );
    Ok((read.ok_or(Overflow)?, written.ok_or(Overflow)?))
}

/// Whether any kernel of `plan` computes another kernel's op again.
fn has_copies(plan: &FusionPlan) -> bool {
    plan.groups.iter().any(|k| !k.recomputed.is_empty())
}

/// Totals of the unfused plan (every op alone, `saved_by_fusion` 0) without building it.
pub fn unfused_traffic(g: &Graph) -> Result<Traffic, Overflow> {
    let mut s = Scratch::dense(g);
    let (mut bytes_read, mut bytes_written) = (0u64, 0u64);
    for &o in &g.topo {
        let (r, w) = alone_bytes(g, o, &mut s)?;
        bytes_read = bytes_read.checked_add(r).ok_or(Overflow)?;
        bytes_written = bytes_written.checked_add(w).ok_or(Overflow)?;
    }
    Ok(Traffic {
        bytes_read,
        bytes_written,
        total: bytes_read.checked_add(bytes_written).ok_or(Overflow)?,
        saved_by_fusion: 0,
    })
}

fn checked_sum(mut it: impl Iterator<Item = u64>) -> Result<u64, Overflow> {
    it.try_fold(0u64, |a, b| a.checked_add(b)).ok_or(Overflow)
}

/// Per-group traffic of a plan and its totals (`saved_by_fusion` left 0).
pub fn plan_traffic(
    g: &Graph,
    plan: &FusionPlan,
) -> Result<(Vec<GroupTraffic>, Traffic), Overflow> {
    let mut s = Scratch::dense(g);
    let holders = has_copies(plan).then(|| plan.copy_holders(g.ops.len()));
    let groups = (0..plan.groups.len())
        .map(|k| group_traffic_in(g, plan, k, holders.as_deref(), &mut s))
        .collect::<Result<Vec<_>, _>>()?;
    let bytes_read = checked_sum(groups.iter().map(|t| t.bytes_read))?;
    let bytes_written = checked_sum(groups.iter().map(|t| t.bytes_written))?;
    let total = bytes_read.checked_add(bytes_written).ok_or(Overflow)?;
    Ok((
        groups,
        Traffic {
            bytes_read,
            bytes_written,
            total,
            saved_by_fusion: 0,
        },
    ))
}

/// Unfused and fused traffic of a graph under a plan.
#[derive(Clone, Debug)]
pub struct TrafficReport {
    pub unfused: Traffic,
    pub fused: Traffic,
    /// 100 · saved / unfused total; 0 when the unfused total is 0.
    pub savings_pct: f64,
    /// Traffic of each group of the fused plan.
    pub groups: Vec<GroupTraffic>,
}

/// Compares `plan` with running every op alone.
pub fn compare(g: &Graph, plan: &FusionPlan) -> Result<TrafficReport, Overflow> {
    compare_with_unfused(g, plan, unfused_traffic(g)?)
}

/// [`compare`] given the graph's [`unfused_traffic`], which does not depend on the plan (so a
/// caller may compute it while the plan is found).
pub fn compare_with_unfused(
    g: &Graph,
    plan: &FusionPlan,
    unfused_t: Traffic,
) -> Result<TrafficReport, Overflow> {
    let (groups, mut fused_t) = plan_traffic(g, plan)?;
    fused_t.saved_by_fusion = unfused_t.total.saturating_sub(fused_t.total);
    let savings_pct = if unfused_t.total == 0 {
        0.0
    } else {
        100.0 * fused_t.saved_by_fusion as f64 / unfused_t.total as f64
    };
    Ok(TrafficReport {
        unfused: unfused_t,
        fused: fused_t,
        savings_pct,
        groups,
    })
}

/// HBM bytes each tensor costs under a plan: its write plus every read of it.
pub fn round_trips(groups: &[GroupTraffic]) -> HashMap<TensorId, u64> {
    let mut m: HashMap<TensorId, u64> = HashMap::new();
    for gt in groups {
        for w in &gt.writes {
            let e = m.entry(w.tensor).or_default();
            *e = e.saturating_add(w.bytes);
        }
        for r in &gt.reads {
            let e = m.entry(r.tensor).or_default();
            *e = e.saturating_add(r.bytes);
        }
    }
    m
}

/// What a FlashAttention kernel saves on one pattern under a plan: the HBM round trips of
/// the pattern's intermediates (their writes and read-backs), which the kernel keeps on chip.
pub fn flash_savings(
    pattern: &crate::fusion::flash::AttentionPattern,
    trips: &HashMap<TensorId, u64>,
) -> u64 {
    pattern.intermediates.iter().fold(0u64, |a, t| {
        a.saturating_add(trips.get(t).copied().unwrap_or(0))
    })
}
