//! `fgraph analyze --explain OP`: one op in focus. Its kernel (members, kind, traffic), every
//! edge into and out of it (fused, or a boundary with its rule, the values involved and the
//! smallest change that fuses it), the external tensors it reads, and its output's line of
//! the ledger ([`crate::ledger`]).

use crate::analysis::Analysis;
use crate::fusion::whatif::{Fix, Hint, Values};
use crate::fusion::{Boundary, FusedBy, Reason};
use crate::graph::{Graph, OpId, Origin, TensorId};
use crate::ledger::{self, Entry, EntryJson};
use crate::report::{InputsJson, OpJson};
use crate::types::OpKind;
use crate::units::group_digits;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

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

/// The report for op `op` of `a`.
pub fn report(a: &Analysis, op: OpId) -> OpReport<'_> {
    let g = &a.graph;
    let plan = &a.plan;
    let w = crate::report::hints(a);
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

impl OpReport<'_> {
    /// The human report.
    pub fn human(&self) -> String {
        let a = self.analysis;
        let g = &a.graph;
        let node = g.op(self.op);
        let t = g.tensor(node.output);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "op `{}` = {}({}) -> {}: {} {}, {} B\n",
            node.name,
            node.kind_func(),
            g.written_inputs(node).join(", "),
            t.name,
            crate::sema::fmt_shape(&t.shape),
            t.dtype,
            group_digits(t.bytes)
        );
        let k = self.kernel;
        let grp = &a.plan.groups[k];
        let tr = &a.traffic.groups[k];
        let names: Vec<&str> = grp.ops.iter().map(|&o| g.op(o).name.as_str()).collect();
        let _ = writeln!(
            out,
            "kernel {} of {} ({}, {} op{}): {}",
            k + 1,
            a.plan.groups.len(),
            kernel_kind(a, k),
            grp.ops.len(),
            if grp.ops.len() == 1 { "" } else { "s" },
            names.join(" → ")
        );
        if !grp.recomputed.is_empty() {
            let again: Vec<&str> = grp
                .recomputed
                .iter()
                .map(|&o| g.op(o).name.as_str())
                .collect();
            let _ = writeln!(out, "  computes again: {}", again.join(", "));
        }
        let access = |items: Vec<String>| {
            if items.is_empty() {
                "nothing".to_string()
            } else {
                items.join(", ")
            }
        };
        let _ = writeln!(
            out,
            "  reads  {} B: {}",
            group_digits(tr.bytes_read),
            access(
                tr.reads
                    .iter()
                    .map(|r| {
                        let idx = r.index.map_or(String::new(), |i| format!("[{i}]"));
                        format!(
                            "{}{idx} {} B",
                            g.tensor(r.tensor).name,
                            group_digits(r.bytes)
                        )
                    })
                    .collect()
            )
        );
        let _ = writeln!(
            out,
            "  writes {} B: {}",
            group_digits(tr.bytes_written),
            access(
                tr.writes
                    .iter()
                    .map(|w| format!("{} {} B", g.tensor(w.tensor).name, group_digits(w.bytes)))
                    .collect()
            )
        );
        out.push_str("\nedges in:\n");
        if self.external.is_empty() && self.edges_in.is_empty() {
            out.push_str("  none\n");
        }
        for &x in &self.external {
            let tx = g.tensor(x);
            let what = if tx.origin == Origin::Weight {
                "weight"
            } else {
                "graph input"
            };
            let _ = writeln!(
                out,
                "  `{}` ({what}, {} B): read from HBM by kernel {}",
                tx.name,
                group_digits(tx.bytes),
                k + 1
            );
        }
        for e in &self.edges_in {
            self.edge_lines(&mut out, e);
        }
        out.push_str("edges out:\n");
        if self.edges_out.is_empty() {
            out.push_str("  none\n");
        }
        for e in &self.edges_out {
            self.edge_lines(&mut out, e);
        }
        let _ = writeln!(
            out,
            "\ntensor `{}`: written {} B, read {} B; {}",
            t.name,
            group_digits(self.entry.written),
            group_digits(self.entry.read()),
            self.entry.explanation(g)
        );
        out
    }

    fn edge_lines(&self, out: &mut String, e: &Edge) {
        let a = self.analysis;
        let g = &a.graph;
        match &e.state {
            EdgeState::Boundary(b, h) => crate::report::boundary_lines(out, g, &a.plan, b, h, "  "),
            EdgeState::Fused {
                fused_by,
                overrides,
            } => {
                let by = match (fused_by, overrides) {
                    (Some(f), Some(r)) => format!(" [{f}, overrides {r}]"),
                    (Some(f), None) => format!(" [{f}]"),
                    _ => String::new(),
                };
                let (p, c, t) = (
                    &g.op(e.producer).name,
                    &g.op(e.consumer).name,
                    &g.tensor(e.tensor).name,
                );
                let k = a.plan.group_of[e.consumer.index()] + 1;
                let how = if *fused_by == Some(FusedBy::Recompute) {
                    format!("kernel {k} computes `{p}` again{by}")
                } else {
                    format!("fused in kernel {k}{by}")
                };
                let _ = writeln!(
                    out,
                    "  {p} → {c} via `{t}`: {how}, `{t}` stays on chip for this edge"
                );
            }
        }
    }

    /// The JSON report.
    pub fn json(&self, diagnostics: Vec<Value>) -> OpReportJson<'_> {
        let a = self.analysis;
        let g = &a.graph;
        let node = g.op(self.op);
        let t = g.tensor(node.output);
        let k = self.kernel;
        let tr = &a.traffic.groups[k];
        let edge = |e: &Edge| {
            let mut j = EdgeJson {
                producer: &g.op(e.producer).name,
                consumer: &g.op(e.consumer).name,
                tensor: &g.tensor(e.tensor).name,
                bytes: g.tensor(e.tensor).bytes,
                fused: false,
                fused_by: None,
                overrides: None,
                reason: None,
                rule: None,
                explanation: None,
                via: None,
                values: None,
                smallest_change: None,
                hint: None,
            };
            match &e.state {
                EdgeState::Fused {
                    fused_by,
                    overrides,
                } => {
                    j.fused = true;
                    j.fused_by = *fused_by;
                    j.overrides = *overrides;
                }
                EdgeState::Boundary(b, h) => {
                    j.reason = Some(b.reason);
                    j.rule = Some(b.reason.rule());
                    j.explanation = Some(b.explain(g));
                    j.via = b
                        .via
                        .map(|(p, c)| [g.op(p).name.as_str(), g.op(c).name.as_str()]);
                    j.values = Some(h.values(g, &a.plan, b));
                    j.smallest_change = Some(h.fix.clone());
                    j.hint = Some(h.sentence(g, &a.plan, b));
                }
            }
            j
        };
        OpReportJson {
            graph: &g.name,
            op: OpJson {
                name: &node.name,
                kind: node.kind.as_str(),
                func: node.func.as_deref(),
                inputs: InputsJson::of(g, node),
                output: &t.name,
                shape: Some(&t.shape),
                dtype: Some(t.dtype.as_str()),
                bytes: Some(t.bytes),
            },
            kernel: KernelJson {
                index: k,
                kind: kernel_kind(a, k),
                ops: a.plan.groups[k]
                    .ops
                    .iter()
                    .map(|&o| g.op(o).name.as_str())
                    .collect(),
                recomputed: a.plan.groups[k]
                    .recomputed
                    .iter()
                    .map(|&o| g.op(o).name.as_str())
                    .collect(),
                flash_attention: a.plan.flash_kernel(k).is_some(),
                bytes_read: tr.bytes_read,
                bytes_written: tr.bytes_written,
            },
            external_inputs: self
                .external
                .iter()
                .map(|&x| g.tensor(x).name.as_str())
                .collect(),
            edges_in: self.edges_in.iter().map(edge).collect(),
            edges_out: self.edges_out.iter().map(edge).collect(),
            tensor: EntryJson::new(g, &self.entry),
            diagnostics,
        }
    }
}

/// `analyze --explain OP --format json`.
#[derive(Serialize)]
pub struct OpReportJson<'a> {
    pub graph: &'a str,
    pub op: OpJson<'a>,
    pub kernel: KernelJson<'a>,
    /// The inputs and weights it reads, each once.
    pub external_inputs: Vec<&'a str>,
    pub edges_in: Vec<EdgeJson<'a>>,
    pub edges_out: Vec<EdgeJson<'a>>,
    /// Its output's ledger entry.
    pub tensor: EntryJson<'a>,
    pub diagnostics: Vec<Value>,
}

/// The op's kernel. `index` is its position in `analyze --format json`'s `groups` (from 0).
#[derive(Serialize)]
pub struct KernelJson<'a> {
    pub index: usize,
    pub kind: &'static str,
    pub ops: Vec<&'a str>,
    /// Ops of other kernels it computes again (`--policy recompute`; absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recomputed: Vec<&'a str>,
    pub flash_attention: bool,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

/// One edge: fused (with the pass that fused it against the rules, if one did) or a
/// boundary with the keys of `boundaries[]`.
#[derive(Serialize)]
pub struct EdgeJson<'a> {
    pub producer: &'a str,
    pub consumer: &'a str,
    pub tensor: &'a str,
    /// The tensor's size.
    pub bytes: u64,
    pub fused: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fused_by: Option<FusedBy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<Reason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<[&'a str; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Values>,
    /// On a boundary: the smallest change that fuses it, null when no option does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smallest_change: Option<Option<Fix>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::{EdgeState, find, report};
    use crate::analysis::Options;

    const DIAMOND: &str = "graph d {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  op d = elementwise.add(u, v) -> y\n}\n";

    #[test]
    fn an_op_with_its_kernel_edges_and_tensor() {
        let (a, _) = crate::fusion::analysed(DIAMOND, &Options::default());
        let g = &a.graph;
        let b = find(g, "b").expect("b");
        let r = report(&a, b);
        assert_eq!(r.kernel, 1);
        assert_eq!(r.edges_in.len(), 1);
        assert!(matches!(r.edges_in[0].state, EdgeState::Boundary(..)));
        assert!(matches!(r.edges_out[0].state, EdgeState::Fused { .. }));
        let text = r.human();
        assert!(
            text.contains("kernel 2 of 2 (elementwise, 3 ops): b → c → d"),
            "{text}"
        );
        assert!(
            text.contains("with `--policy store` this edge fuses"),
            "{text}"
        );
        assert!(
            text.contains("tensor `u`: written 0 B, read 0 B; fused"),
            "{text}"
        );
        let a_op = find(g, "a").expect("a");
        assert!(report(&a, a_op).human().contains("`x` (graph input"));
        assert_eq!(
            find(g, "bb").unwrap_err(),
            "no op `bb` in graph `d`; did you mean `b`?"
        );
        assert!(find(g, "u").unwrap_err().contains("did you mean `b`"));
    }
}
