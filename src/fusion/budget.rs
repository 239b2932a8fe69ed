//! Fusion budgets: the limits a fused kernel must stay within, whatever the rules allow. A
//! merge that would take a kernel over a budget is refused with reason `budget-exceeded`,
//! and the boundary names the budget, the kernel's size and the limit.
//!
//! | budget | what is counted | default when on | source |
//! |---|---|---|---|
//! | ops | ops in one kernel | 64 | TorchInductor's `max_fusion_size` (`torch/_inductor/config.py`) |
//! | tensors | distinct tensors the kernel reads or writes in HBM | 96 | XLA's `kMaxOperandsAndOutputsPerFusion` (`xla/service/gpu/gpu_fusible.h`) |
//! | registers | an estimate of 32-bit registers per thread | 255 | the CUDA limit of 255 registers per thread (CUDA C++ Programming Guide, "Compute Capabilities") |
//!
//! The register estimate: a kernel keeps every live value of the element (or row) a thread
//! works on in registers. Walking its ops in order, a value is live from the op that makes
//! it (or the first read of an external tensor) to its last reader in the kernel; the
//! estimate is `16 + 4 · (most values live at once)` (16 for indices and addresses, 4
//! elements per thread: 16-byte vector accesses of 4-byte values), plus 128 for a kernel with
//! a matmul (its accumulator tile: 128 × 128 f32 values over 256 threads is 64 registers, and
//! as many again for the operand pipeline). It is a model of the pressure, not a compiler's
//! allocation: it orders kernels by how close they come to spilling.
//!
//! No budget applies under the default options (SPEC §2 has none). Every check walks the two
//! kernels' members, so whenever a budget is on, the ops budget is on too (64 unless set):
//! it keeps each check bounded.

use super::work::{Meter, Pass};
use crate::graph::{Graph, OpId, TensorId};
use serde::Serialize;

/// Inductor's `max_fusion_size`.
pub const DEFAULT_OPS: u32 = 64;
/// XLA's `kMaxOperandsAndOutputsPerFusion`.
pub const DEFAULT_TENSORS: u32 = 96;
/// CUDA's registers per thread.
pub const DEFAULT_REGISTERS: u32 = 255;

/// Which budget a merge would break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Budget {
    Ops,
    Tensors,
    Registers,
}

impl Budget {
    pub fn as_str(self) -> &'static str {
        match self {
            Budget::Ops => "ops",
            Budget::Tensors => "tensors",
            Budget::Registers => "registers",
        }
    }
    /// What the budget counts, for sentences.
    pub fn counts(self) -> &'static str {
        match self {
            Budget::Ops => "ops",
            Budget::Tensors => "distinct tensors in HBM",
            Budget::Registers => "registers per thread (estimated)",
        }
    }
}

/// A refused merge: the budget, what the merged kernel would need, and the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BudgetHit {
    pub budget: Budget,
    pub needed: u32,
    pub limit: u32,
}

/// The budgets of a run; `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Budgets {
    pub ops: Option<u32>,
    pub tensors: Option<u32>,
    pub registers: Option<u32>,
}

impl Budgets {
    /// Whether any budget is on.
    pub fn any(&self) -> bool {
        self.ops.is_some() || self.tensors.is_some() || self.registers.is_some()
    }

    /// The ops limit in force: the set one, or [`DEFAULT_OPS`] when another budget is on.
    pub fn ops_limit(&self) -> Option<u32> {
        self.ops.or(self.any().then_some(DEFAULT_OPS))
    }

    /// The first budget one kernel made of `a` and `b` (disjoint member lists, each in any
    /// order) would break. `pos` gives each op's topological position. The ops budget is a
    /// count; the tensors and registers budgets walk every member and argument, which spends
    /// as many units of `meter` for `pass`: `None` when that passes its bound.
    pub(crate) fn check(
        &self,
        g: &Graph,
        a: &[OpId],
        b: &[OpId],
        pos: &[usize],
        meter: &mut Meter,
        pass: Pass,
    ) -> Option<Option<BudgetHit>> {
        let ops = (a.len() + b.len()) as u64;
        if let Some(limit) = self.ops_limit()
            && ops > u64::from(limit)
        {
            return Some(Some(BudgetHit {
                budget: Budget::Ops,
                needed: u32::try_from(ops).unwrap_or(u32::MAX),
                limit,
            }));
        }
        if self.tensors.is_none() && self.registers.is_none() {
            return Some(None);
        }
        let work: u64 = a
            .iter()
            .chain(b)
            .map(|&o| 1 + g.op(o).inputs.len() as u64)
            .sum();
        if !meter.spend(pass, work) {
            return None;
        }
        let mut members: Vec<OpId> = a.iter().chain(b).copied().collect();
        members.sort_by_key(|o| pos[o.index()]);
        let mut by_id = members.clone();
        by_id.sort_unstable();
        let inside = |o: OpId| by_id.binary_search(&o).is_ok();
        if let Some(limit) = self.tensors {
            let n = distinct_tensors(g, &members, inside);
            if n > limit {
                return Some(Some(BudgetHit {
                    budget: Budget::Tensors,
                    needed: n,
                    limit,
                }));
            }
        }
        if let Some(limit) = self.registers {
            let n = registers(g, &members);
            if n > limit {
                return Some(Some(BudgetHit {
                    budget: Budget::Registers,
                    needed: n,
                    limit,
                }));
            }
        }
        Some(None)
    }
}

/// Distinct tensors a kernel of `members` reads from or writes to HBM (sorted and counted
/// once: a kernel of 64 ops with hundreds of arguments each is no quadratic scan).
fn distinct_tensors(g: &Graph, members: &[OpId], inside: impl Fn(OpId) -> bool) -> u32 {
    let mut seen: Vec<TensorId> = Vec::new();
    for &o in members {
        let op = g.op(o);
        for u in &op.inputs {
            if !g.producer(u.tensor).is_some_and(&inside) {
                seen.push(u.tensor);
            }
        }
        let t = op.output;
        let c = g.consumers(t);
        if g.is_output(t) || c.is_empty() || c.iter().any(|&c| !inside(c)) {
            seen.push(t);
        }
    }
    seen.sort_unstable();
    seen.dedup();
    u32::try_from(seen.len()).unwrap_or(u32::MAX)
}

/// The register estimate of the module comment for a kernel of `members` (in topological
/// order). A value is live from its first mention (read or made) to its last read, so the
/// most values live at once is the deepest overlap of those intervals, counted in one sweep.
pub fn registers(g: &Graph, members: &[OpId]) -> u32 {
    // Each value's first and last position (index into `members`).
    let mut span: std::collections::HashMap<TensorId, (usize, usize)> =
        std::collections::HashMap::new();
    let mut matmul = false;
    for (i, &o) in members.iter().enumerate() {
        let op = g.op(o);
        matmul |= op.kind.is_contraction();
        for t in op.inputs.iter().map(|u| u.tensor).chain([op.output]) {
            span.entry(t).and_modify(|e| e.1 = i).or_insert((i, i));
        }
    }
    // Values born at each position and values whose last read is there (they die after it).
    let mut born = vec![0usize; members.len()];
    let mut dies = vec![0usize; members.len()];
    for &(first, last) in span.values() {
        born[first] += 1;
        dies[last] += 1;
    }
    let (mut live, mut peak) = (0usize, 0usize);
    for i in 0..members.len() {
        live += born[i];
        peak = peak.max(live);
        live -= dies[i];
    }
    let base = if matmul { 16 + 128 } else { 16 };
    u32::try_from(base + 4 * peak).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::{distinct_tensors, registers};
    use crate::graph::{Graph, OpId, TensorId};

    /// The register estimate as first written (a scan per value): the sweep must agree.
    fn registers_by_scans(g: &Graph, members: &[OpId]) -> u32 {
        let mut last: Vec<(TensorId, usize)> = Vec::new();
        let mut note = |t: TensorId, i: usize| match last.iter_mut().find(|(x, _)| *x == t) {
            Some(e) => e.1 = e.1.max(i),
            None => last.push((t, i)),
        };
        for (i, &o) in members.iter().enumerate() {
            for u in &g.op(o).inputs {
                note(u.tensor, i);
            }
            note(g.op(o).output, i);
        }
        let last_use = |t: TensorId| last.iter().find(|(x, _)| *x == t).map_or(0, |e| e.1);
        let mut live: Vec<TensorId> = Vec::new();
        let (mut peak, mut matmul) = (0usize, false);
        for (i, &o) in members.iter().enumerate() {
            let op = g.op(o);
            matmul |= op.kind.is_contraction();
            for u in &op.inputs {
                if !live.contains(&u.tensor) {
                    live.push(u.tensor);
                }
            }
            live.push(op.output);
            peak = peak.max(live.len());
            live.retain(|&t| last_use(t) > i);
        }
        (if matmul { 144 } else { 16 }) + 4 * peak as u32
    }

    /// The distinct tensors as first written (a scan per tensor).
    fn distinct_by_scans(g: &Graph, members: &[OpId]) -> u32 {
        let inside = |o: OpId| members.contains(&o);
        let mut seen: Vec<TensorId> = Vec::new();
        for &o in members {
            let op = g.op(o);
            for u in &op.inputs {
                if !g.producer(u.tensor).is_some_and(inside) && !seen.contains(&u.tensor) {
                    seen.push(u.tensor);
                }
            }
            let t = op.output;
            let c = g.consumers(t);
            if (g.is_output(t) || c.is_empty() || c.iter().any(|&c| !inside(c)))
                && !seen.contains(&t)
            {
                seen.push(t);
            }
        }
        seen.len() as u32
    }

    #[test]
    fn the_budget_counts_agree_with_the_scans_they_replace() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut sources = vec![crate::fusion::work::tests::layered(4, 5)];
        for name in ["transformer_block", "gpt2_small", "mixtral_moe", "rope_gqa"] {
            sources.push(
                std::fs::read_to_string(dir.join(format!("{name}.fgraph"))).expect("example"),
            );
        }
        for src in &sources {
            let (a, _) = crate::fusion::analysed(src, &Default::default());
            let g = &a.graph;
            // Every window of the topological order, up to 40 ops long.
            for start in 0..g.topo.len() {
                for len in [1, 2, 3, 7, 16, 40] {
                    let members = &g.topo[start..(start + len).min(g.topo.len())];
                    assert_eq!(registers(g, members), registers_by_scans(g, members));
                    let mut by_id = members.to_vec();
                    by_id.sort_unstable();
                    let inside = |o: OpId| by_id.binary_search(&o).is_ok();
                    assert_eq!(
                        distinct_tensors(g, members, inside),
                        distinct_by_scans(g, members)
                    );
                }
            }
        }
    }
}
