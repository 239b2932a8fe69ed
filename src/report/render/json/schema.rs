//! The JSON report's schema as serde types: [`AnalysisJson`], the object `analyze --format
//! json` prints (SPEC §6), and the views it holds (ops, kernels, boundaries, traffic). The
//! cost, fusion and ledger parts are in their own files beside this one; [`super::fast`]
//! writes the same bytes faster.
//!
//! The report borrows the analysis: lists as long as the graph (ops, groups, the unfused
//! plan's kernels) are views that serialize straight from the [`Graph`], so a million-op
//! report builds no per-op strings or vectors before it is written.
//!
//! [`SCHEMA_VERSION`] is the report's first key. It goes up when a key is removed or renamed,
//! or changes type or meaning; a new key does not change it. CHANGELOG.md records both.

use crate::analysis::Analysis;
use crate::cost::{AttentionReport, CostReport, KernelCost};
use crate::fusion::{Boundary, Reason, whatif};
use crate::graph::{Graph, OpId, TensorId, TensorUse};
use crate::report::compare::Row;
use crate::report::render::json::cost::{AttentionJson, CostJson, KernelCostJson};
use crate::report::render::json::fusion::{FusedEdgeJson, FusionJson};
use crate::report::render::json::ledger::LedgerJson;
use crate::report::summary::Summary;
use crate::traffic::{Read, Traffic, Write};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;

/// The version of the JSON report's schema: its first key, `"schema_version": 1`.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
pub struct OpJson<'a> {
    pub name: &'a str,
    pub kind: &'a str,
    pub func: Option<&'a str>,
    pub inputs: InputsJson<'a>,
    pub output: &'a str,
    /// Null only for a graph with errors, where an output may be unknown.
    pub shape: Option<&'a [u64]>,
    pub dtype: Option<&'static str>,
    pub bytes: Option<u64>,
    /// An opaque function: one fgraph does not know, costed by the op's `flops = N` (the key
    /// is absent for every other op).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub opaque: bool,
}

/// An op's tensor arguments as written: `qkv_heads[1].T`.
pub enum InputsJson<'a> {
    /// Of a graph with errors, as the semantic pass kept them.
    Written(&'a [String]),
    /// Of a checked graph, spelt from its tensors.
    Uses(&'a Graph, &'a [TensorUse]),
    /// Of a checked op with scalar constants among its arguments (`0.125`), spelt out.
    Owned(Vec<String>),
}

impl<'a> InputsJson<'a> {
    /// The arguments of a checked op as written, constants included.
    pub fn of(g: &'a Graph, op: &'a crate::graph::OpNode) -> Self {
        if op.scalars().is_empty() {
            InputsJson::Uses(g, &op.inputs)
        } else {
            InputsJson::Owned(g.written_inputs(op))
        }
    }
}

impl Serialize for InputsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            InputsJson::Written(v) => v.serialize(s),
            InputsJson::Uses(g, uses) => s.collect_seq(uses.iter().map(|u| UseName(g, u))),
            InputsJson::Owned(ref v) => v.serialize(s),
        }
    }
}

/// [`Graph::use_name`] without building the string.
struct UseName<'a>(&'a Graph, &'a TensorUse);

impl fmt::Display for UseName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (g, u) = (self.0, self.1);
        f.write_str(&g.tensor(u.tensor).name)?;
        if let Some(i) = u.index {
            write!(f, "[{i}]")?;
        }
        if u.transpose {
            f.write_str(".T")?;
        }
        Ok(())
    }
}

impl Serialize for UseName<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (g, u) = (self.0, self.1);
        if u.index.is_none() && !u.transpose {
            s.serialize_str(&g.tensor(u.tensor).name)
        } else {
            s.collect_str(self)
        }
    }
}

/// A tensor, or one slice of it: `x` or `x[2]`.
struct TensorName<'a>(&'a Graph, TensorId, Option<u64>);

impl fmt::Display for TensorName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.tensor(self.1).name)?;
        match self.2 {
            Some(i) => write!(f, "[{i}]"),
            None => Ok(()),
        }
    }
}

impl Serialize for TensorName<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.2 {
            None => s.serialize_str(&self.0.tensor(self.1).name),
            Some(_) => s.collect_str(self),
        }
    }
}

#[derive(Serialize)]
struct AccessJson<'a> {
    tensor: TensorName<'a>,
    bytes: u64,
}

/// The names of some ops.
struct OpNames<'a>(&'a Graph, &'a [OpId]);

impl OpNames<'_> {
    fn is_empty(&self) -> bool {
        self.1.is_empty()
    }
}

impl Serialize for OpNames<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        s.collect_seq(self.1.iter().map(|&o| g.op(o).name.as_str()))
    }
}

struct ReadsJson<'a>(&'a Graph, &'a [Read]);

impl Serialize for ReadsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        s.collect_seq(self.1.iter().map(|r| AccessJson {
            tensor: TensorName(g, r.tensor, r.index),
            bytes: r.bytes,
        }))
    }
}

struct WritesJson<'a>(&'a Graph, &'a [Write]);

impl Serialize for WritesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        s.collect_seq(self.1.iter().map(|w| AccessJson {
            tensor: TensorName(g, w.tensor, None),
            bytes: w.bytes,
        }))
    }
}

#[derive(Serialize)]
struct GroupJson<'a> {
    ops: OpNames<'a>,
    reads: ReadsJson<'a>,
    writes: WritesJson<'a>,
    bytes_read: u64,
    bytes_written: u64,
    /// Whether this kernel is a FlashAttention kernel (`--flash-attention`).
    flash_attention: bool,
    /// The cost model's estimate; null until [`AnalysisJson::with_cost`].
    cost: Option<KernelCostJson>,
    /// Ops of other kernels it computes again (`--policy recompute`; absent when none).
    #[serde(skip_serializing_if = "OpNames::is_empty")]
    recomputed: OpNames<'a>,
}

/// The kernels of an analysis's plan, with their traffic and, once
/// [`AnalysisJson::with_cost`] added them, their estimates.
pub struct GroupsJson<'a> {
    pub(super) analysis: &'a Analysis,
    pub(super) costs: &'a [KernelCost],
}

impl Serialize for GroupsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.analysis;
        let g = &a.graph;
        s.collect_seq(a.plan.groups.iter().zip(&a.traffic.groups).enumerate().map(
            |(k, (grp, tr))| GroupJson {
                ops: OpNames(g, &grp.ops),
                reads: ReadsJson(g, &tr.reads),
                writes: WritesJson(g, &tr.writes),
                bytes_read: tr.bytes_read,
                bytes_written: tr.bytes_written,
                flash_attention: a.plan.flash_kernel(k).is_some(),
                cost: self.costs.get(k).map(Into::into),
                recomputed: OpNames(g, &grp.recomputed),
            },
        ))
    }
}

#[derive(Serialize)]
struct BoundaryJson<'a> {
    producer: &'a str,
    consumer: &'a str,
    tensor: &'a str,
    reason: Reason,
    rule: u8,
    explanation: String,
    /// The edge that breaks the rule, when another edge of the kernel the merge would make.
    #[serde(skip_serializing_if = "Option::is_none")]
    via: Option<[&'a str; 2]>,
    /// For `budget-exceeded`: which budget, what the kernel would need, the limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    budget: Option<crate::fusion::BudgetHit>,
    /// The values the rule involves ([`whatif::Values`]).
    values: whatif::Values,
    /// The smallest option change that fuses the edge; null when no option does.
    smallest_change: Option<&'a whatif::Fix>,
    /// The values and the smallest change (or why there is none) in words.
    hint: String,
}

/// The boundaries of a plan, each with its explanation and what would fuse it.
pub struct BoundariesJson<'a> {
    pub(super) graph: &'a Graph,
    pub(super) plan: &'a crate::fusion::FusionPlan,
    pub(super) boundaries: &'a [Boundary],
    /// One per boundary ([`whatif::what_if`]).
    pub(super) hints: Vec<whatif::Hint>,
}

impl Serialize for BoundariesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.graph;
        s.collect_seq(self.boundaries.iter().zip(&self.hints).map(|(b, h)| {
            BoundaryJson {
                producer: &g.op(b.producer).name,
                consumer: &g.op(b.consumer).name,
                tensor: &g.tensor(b.tensor).name,
                reason: b.reason,
                rule: b.reason.rule(),
                explanation: b.explain(g),
                via: b
                    .via
                    .map(|(p, c)| [g.op(p).name.as_str(), g.op(c).name.as_str()]),
                budget: b.budget,
                values: h.values(g, self.plan, b),
                smallest_change: h.fix.as_ref(),
                hint: h.sentence(g, self.plan, b),
            }
        }))
    }
}

#[derive(Serialize)]
pub struct TrafficJson {
    pub unfused: Traffic,
    pub fused: Traffic,
}

/// The ops of a report: as written for a graph with errors, from the graph otherwise.
pub enum OpsJson<'a> {
    None,
    Written(&'a [crate::sema::OpSummary]),
    Graph(&'a Graph),
}

impl Serialize for OpsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            OpsJson::None => s.collect_seq(std::iter::empty::<OpJson<'_>>()),
            OpsJson::Written(ops) => s.collect_seq(ops.iter().map(|o| OpJson {
                name: &o.name,
                kind: &o.kind,
                func: o.func.as_deref(),
                inputs: InputsJson::Written(&o.inputs),
                output: &o.output,
                shape: o.shape.as_deref(),
                dtype: o.dtype.map(|d| d.as_str()),
                bytes: o.bytes,
                opaque: false,
            })),
            OpsJson::Graph(g) => s.collect_seq(g.ops.iter().map(|o| {
                let t = g.tensor(o.output);
                OpJson {
                    name: &o.name,
                    kind: o.kind.as_str(),
                    func: o.func.as_deref(),
                    inputs: InputsJson::of(g, o),
                    output: &t.name,
                    shape: Some(&t.shape),
                    dtype: Some(t.dtype.as_str()),
                    bytes: Some(t.bytes),
                    opaque: crate::ops::funcs::is_opaque(o),
                }
            })),
        }
    }
}

/// The object `analyze --format json` prints (SPEC §6). With errors, `groups`,
/// `boundaries`, `traffic` and `savings_pct` are null. It borrows the analysis and
/// serializes its long lists on the fly.
#[derive(Serialize)]
pub struct AnalysisJson<'a> {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    pub graph: &'a str,
    pub ops: OpsJson<'a>,
    pub groups: Option<GroupsJson<'a>>,
    pub boundaries: Option<BoundariesJson<'a>>,
    pub traffic: Option<TrafficJson>,
    pub savings_pct: Option<f64>,
    /// `--policy`, when not the default `boundary` (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<crate::fusion::Policy>,
    /// With `--reduction-epilogue`: the edges fused as reduction epilogues (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduction_epilogues: Option<Vec<FusedEdgeJson>>,
    /// The fusion strategy when it is not SPEC §2's, with what its passes did (absent
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fusion: Option<FusionJson>,
    /// The graph's `parallel` sections applied (issue 25): the groups, the stage, per-GPU,
    /// written and whole-group totals, the divided weights and the inserted collectives
    /// (absent for a graph without sections).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel: Option<&'a crate::parallel::Parallel>,
    pub diagnostics: Vec<Value>,
    /// Null until [`AnalysisJson::with_cost`].
    pub cost: Option<CostJson<'a>>,
    pub attention: Option<AttentionJson>,
    /// A graph built from blocks: kernels, bytes, FLOPs and time per instance and per block
    /// (absent for a graph without instances).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<&'a Summary>,
    /// `--compare`: the graph under every fusion strategy (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<&'a [Row]>,
    /// With `--ledger`: every tensor, where it lives and the bytes each kernel moves for it
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<LedgerJson<'a>>,
    /// With `--memory` or `--summary`: parameters, weights, KV caches, the peak of live
    /// activations and the total against the GPU's memory (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<&'a crate::report::memory::Memory>,
    /// With `--breakdown`: the time by kernel family, for the model and per layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakdown: Option<&'a crate::report::breakdown::Breakdown>,
    /// With `--baseline OLD.json`: the plan against the saved report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<&'a crate::report::baseline::Comparison>,
}

impl<'a> AnalysisJson<'a> {
    /// The report of a graph with errors: its ops as written, everything else null.
    pub fn unchecked(
        name: &'a str,
        ops: &'a [crate::sema::OpSummary],
        diagnostics: Vec<Value>,
    ) -> Self {
        let mut report = AnalysisJson::new(name, None, diagnostics);
        report.ops = OpsJson::Written(ops);
        report
    }

    pub fn new(name: &'a str, analysis: Option<&'a Analysis>, diagnostics: Vec<Value>) -> Self {
        AnalysisJson::with_hints(name, analysis, diagnostics, None)
    }

    /// [`AnalysisJson::new`] with the what-if's hints for every boundary already computed
    /// (`None`: computed here).
    pub fn with_hints(
        name: &'a str,
        analysis: Option<&'a Analysis>,
        diagnostics: Vec<Value>,
        hints: Option<Vec<crate::fusion::whatif::Hint>>,
    ) -> Self {
        let Some(a) = analysis else {
            return AnalysisJson {
                schema_version: SCHEMA_VERSION,
                graph: name,
                ops: OpsJson::None,
                groups: None,
                boundaries: None,
                traffic: None,
                savings_pct: None,
                policy: None,
                reduction_epilogues: None,
                fusion: None,
                parallel: None,
                diagnostics,
                cost: None,
                attention: None,
                summary: None,
                compare: None,
                ledger: None,
                memory: None,
                breakdown: None,
                baseline: None,
            };
        };
        let g = &a.graph;
        AnalysisJson {
            schema_version: SCHEMA_VERSION,
            graph: name,
            ops: OpsJson::Graph(g),
            groups: Some(GroupsJson {
                analysis: a,
                costs: &[],
            }),
            boundaries: Some(BoundariesJson {
                graph: g,
                plan: &a.plan,
                boundaries: &a.plan.boundaries,
                hints: hints.unwrap_or_else(|| crate::report::whatif::hints(a).hints),
            }),
            traffic: Some(TrafficJson {
                unfused: a.traffic.unfused,
                fused: a.traffic.fused,
            }),
            savings_pct: Some(a.traffic.savings_pct),
            policy: (a.fusion.policy != crate::fusion::Policy::Boundary).then_some(a.fusion.policy),
            reduction_epilogues: a.fusion.reduction_epilogue.then(|| {
                a.plan
                    .epilogues
                    .iter()
                    .map(|e| FusedEdgeJson::new(g, e))
                    .collect()
            }),
            fusion: FusionJson::new(a),
            parallel: a.parallel.as_deref(),
            diagnostics,
            cost: None,
            attention: None,
            summary: None,
            compare: None,
            ledger: None,
            memory: None,
            breakdown: None,
            baseline: None,
        }
    }

    /// Adds the cost model's estimate: `cost` per group, and the graph-level `cost` and
    /// `attention` objects. `cost` must come from the same analysis.
    pub fn with_cost(
        mut self,
        a: &'a Analysis,
        cost: &'a CostReport,
        att: &AttentionReport,
    ) -> Self {
        if let Some(groups) = &mut self.groups {
            groups.costs = &cost.fused.kernels;
        }
        self.cost = Some(CostJson::new(&a.graph, cost));
        self.attention = Some(AttentionJson::new(&a.graph, att));
        self
    }
}
