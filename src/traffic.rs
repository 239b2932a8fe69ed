//! HBM traffic of a fusion plan (SPEC §3): each kernel reads its distinct external inputs once
//! and writes the member outputs that leave it; tensors internal to a kernel cost nothing.

use crate::fusion::{FusionPlan, find_fusion_groups, unfused};
use crate::graph::{Graph, TensorId};
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

enum ReadSet {
    Whole,
    Slices(Vec<u64>),
}

/// The traffic of one group of `plan`.
pub fn group_traffic(g: &Graph, plan: &FusionPlan, group: usize) -> Result<GroupTraffic, Overflow> {
    let members = &plan.groups[group].ops;
    let inside = |t: TensorId| {
        g.producer(t)
            .is_some_and(|p| plan.group_of[p.index()] == group)
    };
    // Distinct external reads in first-seen order; a whole read covers the tensor's slices.
    let mut seen: HashMap<TensorId, usize> = HashMap::new();
    let mut sets: Vec<(TensorId, ReadSet)> = Vec::new();
    for &o in members {
        for u in &g.op(o).inputs {
            if inside(u.tensor) {
                continue;
            }
            let k = *seen.entry(u.tensor).or_insert_with(|| {
                sets.push((u.tensor, ReadSet::Slices(Vec::new())));
                sets.len() - 1
            });
            match (&mut sets[k].1, u.index) {
                (ReadSet::Whole, _) => {}
                (s @ ReadSet::Slices(_), None) => *s = ReadSet::Whole,
                (ReadSet::Slices(v), Some(i)) => {
                    if !v.contains(&i) {
                        v.push(i);
                    }
                }
            }
        }
    }
    let mut reads = Vec::new();
    for (t, set) in sets {
        match set {
            ReadSet::Whole => reads.push(Read {
                tensor: t,
                index: None,
                bytes: g.tensor(t).bytes,
            }),
            ReadSet::Slices(v) => {
                let tensor = g.tensor(t);
                let slice = tensor.bytes / tensor.shape.first().copied().unwrap_or(1).max(1);
                reads.extend(v.into_iter().map(|i| Read {
                    tensor: t,
                    index: Some(i),
                    bytes: slice,
                }));
            }
        }
    }
    let mut writes = Vec::new();
    for &o in members {
        let t = g.op(o).output;
        let consumers = g.consumers(t);
        let leaves = g.is_output(t)
            || consumers.is_empty()
            || consumers.iter().any(|c| plan.group_of[c.index()] != group);
        if leaves {
            writes.push(Write {
                tensor: t,
                bytes: g.tensor(t).bytes,
            });
        }
    }
    let bytes_read = checked_sum(reads.iter().map(|r| r.bytes))?;
    let bytes_written = checked_sum(writes.iter().map(|w| w.bytes))?;
    Ok(GroupTraffic {
        reads,
        writes,
        bytes_read,
        bytes_written,
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
    let groups = (0..plan.groups.len())
        .map(|k| group_traffic(g, plan, k))
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
    let (_, unfused_t) = plan_traffic(g, &unfused(g))?;
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

/// The seed's `estimate_memory_traffic`: every op alone (`fused = false`) or the default
/// grouping (`fused = true`, with `saved_by_fusion` against the unfused total).
///
/// ```
/// use fgraph::{Op, OpKind, External, build_graph, estimate_memory_traffic};
/// let ops = vec![
///     Op::new("scale", OpKind::Elementwise, &["x"], "y", &[1024], 4),
///     Op::new("relu", OpKind::Elementwise, &["y"], "z", &[1024], 4),
/// ];
/// let g = build_graph(&ops, &[External::input("x", &[1024], 4)]).unwrap();
/// let unfused = estimate_memory_traffic(&g, false).unwrap();
/// let fused = estimate_memory_traffic(&g, true).unwrap();
/// assert_eq!(unfused.total, 4 * 4096);
/// assert_eq!(fused.total, 2 * 4096);
/// assert_eq!(fused.saved_by_fusion, 2 * 4096);
/// ```
pub fn estimate_memory_traffic(g: &Graph, fused: bool) -> Result<Traffic, Overflow> {
    if fused {
        Ok(compare(g, &find_fusion_groups(g))?.fused)
    } else {
        Ok(plan_traffic(g, &unfused(g))?.1)
    }
}
