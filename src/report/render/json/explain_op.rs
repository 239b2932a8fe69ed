//! The JSON of `analyze --explain OP --format json`: one object with the op (as in `ops[]`),
//! its kernel, its edges in and out (a boundary with the keys of `boundaries[]`), its
//! output's ledger entry and the diagnostics ([`crate::report::explain_op`]).

use crate::fusion::whatif::{Fix, Values};
use crate::fusion::{FusedBy, Reason};
use crate::report::explain_op::{Edge, EdgeState, OpReport, kernel_kind};
use crate::report::render::json::ledger::EntryJson;
use crate::report::render::json::schema::{InputsJson, OpJson, SCHEMA_VERSION};
use serde::Serialize;
use serde_json::Value;

/// The JSON of `--explain OP`, holding the run's `diagnostics`.
pub fn json<'a>(r: &OpReport<'a>, diagnostics: Vec<Value>) -> OpReportJson<'a> {
    let a = r.analysis;
    let g = &a.graph;
    let node = g.op(r.op);
    let t = g.tensor(node.output);
    let k = r.kernel;
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
        schema_version: SCHEMA_VERSION,
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
            opaque: crate::ops::funcs::is_opaque(node),
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
        external_inputs: r
            .external
            .iter()
            .map(|&x| g.tensor(x).name.as_str())
            .collect(),
        edges_in: r.edges_in.iter().map(edge).collect(),
        edges_out: r.edges_out.iter().map(edge).collect(),
        tensor: EntryJson::new(g, &r.entry),
        diagnostics,
    }
}

/// `analyze --explain OP --format json`.
#[derive(Serialize)]
pub struct OpReportJson<'a> {
    /// [`SCHEMA_VERSION`], as in the whole report.
    pub schema_version: u32,
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
