//! `fgraph analyze --explain OP`: one op in focus, as data. Its kernel (members, kind,
//! traffic), every edge into and out of it (fused, or a boundary with its rule and the what-if
//! hint that gives the values involved and the smallest change that fuses it), the external
//! tensors it reads, and its output's line of the ledger ([`super::ledger`]). The text is
//! `render::human::explain_op`, the JSON `render::json::explain_op`.

use crate::analysis::Analysis;
use crate::fusion::whatif::Hint;
use crate::fusion::{Boundary, FusedBy, Reason};
use crate::graph::{Graph, OpId, Origin, TensorId};
use crate::report::ledger::{self, Entry};
use crate::types::OpKind;

/// The op named `name`, or a "did you mean" for the message of a usage error.
pub fn find(g: &Graph, name: &str) -> Result<OpId, String> {
    if let Some(k) = g.ops.iter().position(|o| o.name == name) {
        return Ok(OpId(k as u32));
    }
    // A tensor of that name: its producer is probably meant.
    if let Some(t) = g.tensors.iter().find(|t| t.name == name)
        && let Origin::Produced(p) = t.origin
    {
        return Err(format!(
            "no op `{name}` in graph `{}`; did you mean `{}`, the op that produces tensor \
             `{name}`?",
            g.name,
            g.op(p).name
        ));
    }
    let hint = crate::diagnostics::did_you_mean(name, g.ops.iter().map(|o| o.name.as_str()))
        .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
    Err(format!("no op `{name}` in graph `{}`{hint}", g.name))
}

/// How an edge of the op went.
#[derive(Clone, Debug)]
pub enum EdgeState {
    /// In one kernel; `fused_by` names the pass behind an option that fused it against the
    /// rules (with the rule it overrides).
    Fused {
        fused_by: Option<FusedBy>,
        overrides: Option<Reason>,
    },
    /// A boundary of the plan, with the what-if's hint.
    Boundary(Boundary, Box<Hint>),
}

/// One edge into or out of the op.
#[derive(Clone, Debug)]
pub struct Edge {
    pub producer: OpId,
    pub consumer: OpId,
    pub tensor: TensorId,
    pub state: EdgeState,
}

/// Everything `--explain OP` says.
pub struct OpReport<'a> {
    pub analysis: &'a Analysis,
    pub op: OpId,
    pub kernel: usize,
    /// The external tensors (inputs, weights) it reads, in argument order, each once.
    pub external: Vec<TensorId>,
    pub edges_in: Vec<Edge>,
    pub edges_out: Vec<Edge>,
    /// Its output's ledger entry.
    pub entry: Entry,
}

/// What a kernel is, by the kinds of its ops.
pub fn kernel_kind(a: &Analysis, k: usize) -> &'static str {
    if a.plan.flash_kernel(k).is_some() {
        return "flash-attention";
    }
    let g = &a.graph;
    let ops = &a.plan.groups[k].ops;
    let has = |kind: OpKind| ops.iter().any(|&o| g.op(o).kind == kind);
    if has(OpKind::Conv) {
        return if ops.len() == 1 {
            "conv"
        } else {
            "conv with epilogue"
        };
    }
    // The low-precision GEMMs (issue 23 item 6).
    for (kind, with) in [
        (OpKind::ScaledMm, "scaled_mm with epilogue"),
        (OpKind::QuantMm, "quant_mm with epilogue"),
    ] {
        if has(kind) {
            return if ops.len() == 1 { kind.as_str() } else { with };
        }
    }
    match (has(OpKind::Matmul), has(OpKind::Reduction), ops.len()) {
        (true, _, 1) => "matmul",
        (true, _, _) => "matmul with epilogue",
        (false, true, 1) => "reduction",
        (false, true, _) => "reduction with prologue or epilogue",
        (false, false, _) => {
            let first = g.op(ops[0]).kind;
            if ops.iter().all(|&o| g.op(o).kind == first) {
                first.as_str()
            } else {
                "elementwise"
            }
        }
    }
}

/// The report for op `op` of `a`, whose what-if (for every boundary) is `w`.
pub fn report<'a>(a: &'a Analysis, op: OpId, w: &crate::fusion::whatif::WhatIf) -> OpReport<'a> {
    let g = &a.graph;
    let plan = &a.plan;
    let at: std::collections::HashMap<(OpId, OpId), usize> = plan
        .boundaries
        .iter()
        .enumerate()
        .filter(|(_, b)| b.producer == op || b.consumer == op)
        .map(|(k, b)| ((b.producer, b.consumer), k))
        .collect();
    let state = |p: OpId, c: OpId| -> EdgeState {
        if let Some(&k) = at.get(&(p, c)) {
            return EdgeState::Boundary(plan.boundaries[k], Box::new(w.hints[k].clone()));
        }
        let fused = plan
            .flash
            .iter()
            .flat_map(|f| &f.fused_edges)
            .chain(&plan.epilogues)
            .chain(&plan.recomputes)
            .find(|e| e.producer == p && e.consumer == c);
        EdgeState::Fused {
            fused_by: fused.map(|e| e.fused_by),
            overrides: fused.and_then(|e| e.overrides),
        }
    };
    let node = g.op(op);
    let mut external = Vec::new();
    let mut edges_in: Vec<Edge> = Vec::new();
    for u in &node.inputs {
        match g.producer(u.tensor) {
            Some(p) => {
                if !edges_in.iter().any(|e| e.producer == p) {
                    edges_in.push(Edge {
                        producer: p,
                        consumer: op,
                        tensor: u.tensor,
                        state: state(p, op),
                    });
                }
            }
            None => {
                if !external.contains(&u.tensor) {
                    external.push(u.tensor);
                }
            }
        }
    }
    let edges_out = g
        .consumers(node.output)
        .iter()
        .map(|&c| Edge {
            producer: op,
            consumer: c,
            tensor: node.output,
            state: state(op, c),
        })
        .collect();
    let entry = ledger::ledger(a).swap_remove(node.output.index());
    OpReport {
        analysis: a,
        op,
        kernel: plan.group_of[op.index()],
        external,
        edges_in,
        edges_out,
        entry,
    }
}
