//! The DAG of a graph being checked: each tensor's consuming ops and each op's in-degree,
//! from the resolved arguments; the diagnostics of its cycles (found by `order`); and, without
//! an `output` statement, the outputs it implies (the produced tensors no op reads).

use super::{Sema, order, use_range};
use crate::diagnostics::{Code, Diagnostic};
use crate::graph::{OpId, Origin, TensorId};

impl<'a, 's> Sema<'a, 's> {
    /// Distinct consuming ops of each tensor, in source order, as one list: those of tensor
    /// `t` are `list[start[t]..start[t + 1]]`. Also the number of distinct producers of each
    /// op's inputs (its in-degree in the DAG).
    pub(super) fn consumers(&self) -> (Vec<usize>, Vec<OpId>, Vec<usize>) {
        let n = self.tensors.len();
        let mut start = vec![0usize; n + 1];
        let mut indegree = Vec::with_capacity(self.ops.len());
        // The last op counted for each tensor: an op reading a tensor twice counts once.
        let mut last = vec![u32::MAX; n];
        let mut total = 0usize;
        let mut begin = 0;
        for (o, op) in self.ops.iter().enumerate() {
            let mut producers = 0usize;
            for u in &self.uses[begin..op.uses_end] {
                let Some(t) = u.tensor() else { continue };
                let t = t.index();
                if last[t] != o as u32 {
                    last[t] = o as u32;
                    start[t] += 1;
                    total += 1;
                    // Each op produces one tensor: distinct produced tensors are distinct
                    // producers.
                    if matches!(self.tensors[t].origin, Origin::Produced(_)) {
                        producers += 1;
                    }
                }
            }
            indegree.push(producers);
            begin = op.uses_end;
        }
        drop(last);
        // Counts to starts.
        let mut acc = 0usize;
        for s in &mut start {
            let c = *s;
            *s = acc;
            acc += c;
        }
        let mut pos = start[..n].to_vec();
        let mut list = vec![OpId(0); total];
        for o in 0..self.ops.len() {
            for u in &self.uses[use_range(&self.ops, o)] {
                let Some(t) = u.tensor() else { continue };
                let t = t.index();
                let p = pos[t];
                if p == start[t] || list[p - 1] != OpId(o as u32) {
                    list[p] = OpId(o as u32);
                    pos[t] = p + 1;
                }
            }
        }
        (start, list, indegree)
    }

    pub(super) fn report_cycles<'c>(
        &mut self,
        stuck: &[usize],
        consumers_of: impl Fn(usize) -> &'c [OpId],
    ) {
        let ops = &self.ops;
        for cycle in order::cycles(stuck, |o| consumers_of(ops[o].output.index())) {
            const SHOWN: usize = 8;
            let names: Vec<&str> = cycle.iter().map(|&o| ops[o].name).collect();
            let mut path: Vec<String> =
                names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
            if names.len() > SHOWN {
                path.push(format!("… ({} ops in all)", names.len()));
            }
            path.push(format!("`{}`", names[0]));
            let mut d = Diagnostic::new(
                Code::Cycle,
                format!("dependency cycle: {}", path.join(" → ")),
            )
            .at(
                self.stmt(cycle[0]).name.span,
                "this op depends on its own output",
            );
            // Label the argument through which each op of the cycle reads the previous one.
            for (k, &o) in cycle.iter().enumerate().take(SHOWN) {
                let prev = cycle[(k + cycle.len() - 1) % cycle.len()];
                let t = ops[prev].output;
                if let Some(u) = self.uses[use_range(ops, o)]
                    .iter()
                    .find(|u| u.tensor() == Some(t))
                {
                    d = d.with(
                        u.span,
                        format!(
                            "`{}` reads `{}` from `{}`",
                            ops[o].name,
                            self.tensors[t.index()].name.name,
                            ops[prev].name
                        ),
                    );
                }
            }
            d = d.help("ops must form a DAG: break the cycle by reading a declared input instead");
            self.diags.push(d);
        }
    }

    /// Without an `output` statement: the produced tensors no op reads.
    pub(super) fn implied_outputs<'c>(
        &self,
        consumers_of: impl Fn(usize) -> &'c [OpId],
    ) -> Vec<TensorId> {
        (0..self.tensors.len())
            .filter(|&t| {
                // The consumer lists first: most tensors have consumers.
                consumers_of(t).is_empty()
                    && matches!(self.tensors[t].origin, Origin::Produced(_))
                    && !self.tensors[t].duplicate
            })
            .map(|t| TensorId(t as u32))
            .collect()
    }
}
