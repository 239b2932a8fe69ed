//! Analysis reports as data for JSON and as text for people. Built from an [`Analysis`];
//! the CLI only chooses which to print.
//!
//! The JSON report borrows the analysis: lists as long as the graph (ops, groups, the
//! unfused plan's kernels) are views that serialize straight from the [`Graph`], so a
//! million-op report builds no per-op strings or vectors before it is written.

use crate::analysis::Analysis;
use crate::cost::{
    AttentionReport, Bound, CostReport, Hardware, KernelCost, LaunchMode, OpCost, PlanSummary, Unit,
};
use crate::fusion::{Boundary, Reason, whatif};
use crate::graph::{Graph, OpId, TensorId, TensorUse};
use crate::traffic::{Read, Traffic, Write};
use crate::units::{fmt_bytes, fmt_num, si};
pub use crate::units::{fmt_time, group_digits};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use std::fmt::Write as _;

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
    analysis: &'a Analysis,
    costs: &'a [KernelCost],
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

/// One kernel's estimate. Times in microseconds.
#[derive(Serialize)]
pub struct KernelCostJson {
    pub flops: u64,
    pub bytes: u64,
    /// FLOP per byte; null when the kernel moves no bytes.
    pub intensity: Option<f64>,
    pub ridge_point: f64,
    pub bound: Bound,
    pub compute_us: f64,
    pub memory_us: f64,
    pub launch_us: f64,
    pub time_us: f64,
}

/// Rounds an estimate for JSON: 4 decimals (0.1 ns for times) is far below the model's
/// accuracy and keeps the output short.
fn r4(v: f64) -> f64 {
    let r = (v * 1e4).round() / 1e4;
    if r.is_finite() { r } else { v }
}

/// Rounds to 6 significant digits (intensities and ridge points span many decades).
fn sig6(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(5 - v.abs().log10().floor() as i32);
    let r = (v * scale).round() / scale;
    if r.is_finite() { r } else { v }
}

impl From<&KernelCost> for KernelCostJson {
    fn from(k: &KernelCost) -> Self {
        KernelCostJson {
            flops: k.flops,
            bytes: k.bytes,
            intensity: k.intensity.map(sig6),
            ridge_point: sig6(k.ridge_point),
            bound: k.bound,
            compute_us: r4(k.compute_s * 1e6),
            memory_us: r4(k.memory_s * 1e6),
            launch_us: r4(k.launch_s * 1e6),
            time_us: r4(k.time_s * 1e6),
        }
    }
}

#[derive(Serialize)]
pub struct HardwareJson {
    pub name: String,
    pub description: String,
    pub source: String,
    pub peak_tflops_f16: f64,
    pub peak_tflops_f32: f64,
    pub bandwidth_tb_s: f64,
    pub l2_bytes: Option<u64>,
    pub sms: Option<u32>,
    /// The launch overhead the estimate adds per kernel, microseconds.
    pub launch_us: f64,
    pub ridge_point_f16: f64,
    pub ridge_point_f32: f64,
}

/// One op of the unfused plan, compactly (a graph may have a million of them).
#[derive(Serialize)]
struct UnfusedKernelJson<'a> {
    op: &'a str,
    flops: u64,
    bytes: u64,
    bound: Bound,
    time_us: f64,
}

/// The unfused plan's kernels, one per op.
pub struct PerKernelJson<'a> {
    graph: &'a Graph,
    kernels: &'a [OpCost],
    hardware: &'a Hardware,
    launch: LaunchMode,
}

impl Serialize for PerKernelJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.graph;
        s.collect_seq(self.kernels.iter().map(|k| {
            let (bound, time_s) = k.bound_and_time(self.hardware, self.launch);
            UnfusedKernelJson {
                op: g.op(k.op).name.as_str(),
                flops: k.flops,
                bytes: k.bytes,
                bound,
                time_us: r4(time_s * 1e6),
            }
        }))
    }
}

#[derive(Serialize)]
pub struct PlanCostJson<'a> {
    pub kernels: usize,
    pub flops: u64,
    pub bytes: u64,
    pub time_us: f64,
    /// Unfused plan only: every op as its own kernel (the fused kernels are `groups`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_kernel: Option<PerKernelJson<'a>>,
}

/// The graph-level estimate.
#[derive(Serialize)]
pub struct CostJson<'a> {
    pub hardware: HardwareJson,
    pub launch: LaunchMode,
    pub unfused: PlanCostJson<'a>,
    pub fused: PlanCostJson<'a>,
    /// Unfused time / fused time.
    pub speedup: f64,
    /// `"hardware"` with `--traffic-model hardware` (absent under the default, whose numbers
    /// are the compulsory ones everywhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traffic_model: Option<&'static str>,
    /// The fused plan under the hardware model, beside the compulsory figures above.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware_model: Option<ModelJson>,
}

/// One kernel under the hardware model (microseconds).
#[derive(Serialize)]
pub struct PredictionJson {
    pub family: crate::cost::Family,
    pub dram_read: u64,
    pub dram_written: u64,
    pub compute_us: f64,
    pub memory_us: f64,
    /// Launch excluded (what a profiler measures).
    pub kernel_us: f64,
    pub launch_us: f64,
    pub time_us: f64,
}

/// The fused plan under the hardware model: `kernels` in group order.
#[derive(Serialize)]
pub struct ModelJson {
    pub source: String,
    pub dram_read: u64,
    pub dram_written: u64,
    pub kernel_us: f64,
    pub time_us: f64,
    pub kernels: Vec<PredictionJson>,
}

impl From<&crate::cost::ModelReport> for ModelJson {
    fn from(m: &crate::cost::ModelReport) -> Self {
        ModelJson {
            source: m.source.clone(),
            dram_read: m.dram_read,
            dram_written: m.dram_written,
            kernel_us: r4(m.kernel_s * 1e6),
            time_us: r4(m.time_s * 1e6),
            kernels: m
                .kernels
                .iter()
                .map(|p| PredictionJson {
                    family: p.family,
                    dram_read: p.dram_read,
                    dram_written: p.dram_written,
                    compute_us: r4(p.compute_s * 1e6),
                    memory_us: r4(p.memory_s * 1e6),
                    kernel_us: r4(p.kernel_s * 1e6),
                    launch_us: r4(p.launch_s * 1e6),
                    time_us: r4(p.time_s * 1e6),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub struct FusedEdgeJson {
    pub producer: String,
    pub consumer: String,
    pub tensor: String,
    pub fused_by: crate::fusion::FusedBy,
    /// The boundary reason the default grouping gives this edge (null: it fuses anyway).
    pub overrides: Option<Reason>,
    pub rule: Option<u8>,
}

impl FusedEdgeJson {
    fn new(g: &Graph, e: &crate::fusion::FusedEdge) -> Self {
        FusedEdgeJson {
            producer: g.op(e.producer).name.clone(),
            consumer: g.op(e.consumer).name.clone(),
            tensor: g.tensor(e.tensor).name.clone(),
            fused_by: e.fused_by,
            overrides: e.overrides,
            rule: e.overrides.map(Reason::rule),
        }
    }
}

/// The `fusion` object: the options of a plan that is not SPEC §2's default, and what the
/// passes they turn on did.
#[derive(Serialize)]
pub struct FusionJson {
    /// The `--fuser` preset these options are, if any.
    pub fuser: Option<crate::fusion::Fuser>,
    pub policy: crate::fusion::Policy,
    pub reduction_epilogue: bool,
    pub matmul_epilogue: crate::fusion::MatmulEpilogue,
    pub horizontal: crate::fusion::Horizontal,
    /// `--fuse-diamonds`.
    pub diamonds: bool,
    /// The budgets in force (null: none).
    pub budgets: crate::fusion::Budgets,
    /// Under `recompute`: every edge out of a duplicated op, and the FLOPs the copies add.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recomputes: Option<Vec<FusedEdgeJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recomputed_flops: Option<u64>,
    /// With horizontal fusion: each launch made of independent kernels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizontal_merges: Option<Vec<HorizontalJson>>,
}

/// One horizontal merge: the kernel (1-based, as in the human report), the ops of each part,
/// the tensors now read once, and what it saves.
#[derive(Serialize)]
pub struct HorizontalJson {
    pub kernel: usize,
    pub parts: Vec<Vec<String>>,
    pub shared: Vec<String>,
    pub bytes_saved: u64,
    pub launches_saved: usize,
}

impl FusionJson {
    fn new(a: &Analysis) -> Option<FusionJson> {
        use crate::fusion::{Fuser, FusionOptions, Horizontal, Policy};
        let f = &a.fusion;
        let plain = FusionOptions {
            flash_attention: f.flash_attention,
            ..FusionOptions::default()
        };
        if *f == plain {
            return None;
        }
        let g = &a.graph;
        let names = |ops: &[OpId]| ops.iter().map(|&o| g.op(o).name.clone()).collect();
        Some(FusionJson {
            fuser: Fuser::of(f).filter(|&p| p != Fuser::Seed),
            policy: f.policy,
            reduction_epilogue: f.reduction_epilogue,
            matmul_epilogue: f.matmul_epilogue,
            horizontal: f.horizontal,
            diamonds: f.diamonds,
            budgets: f.effective_budgets(),
            recomputes: matches!(f.policy, Policy::Recompute | Policy::Inline).then(|| {
                a.plan
                    .recomputes
                    .iter()
                    .map(|e| FusedEdgeJson::new(g, e))
                    .collect()
            }),
            recomputed_flops: matches!(f.policy, Policy::Recompute | Policy::Inline)
                .then(|| a.plan.recomputed_flops(g)),
            horizontal_merges: (f.horizontal != Horizontal::Off).then(|| {
                a.plan
                    .horizontal
                    .iter()
                    .map(|h| HorizontalJson {
                        kernel: h.group + 1,
                        parts: h.parts.iter().map(|p| names(p)).collect(),
                        shared: h.shared.iter().map(|&t| g.tensor(t).name.clone()).collect(),
                        bytes_saved: h.bytes_saved,
                        launches_saved: h.parts.len() - 1,
                    })
                    .collect()
            }),
        })
    }
}

#[derive(Serialize)]
pub struct PatternJson {
    pub ops: Vec<String>,
    pub q: String,
    pub k: String,
    pub v: String,
    pub output: String,
    pub intermediates: Vec<String>,
    /// HBM bytes of the intermediates under the default plan: what the fused kernel saves.
    pub saved_bytes: u64,
    pub fused_edges: Vec<FusedEdgeJson>,
}

#[derive(Serialize)]
pub struct MissJson {
    pub softmax: String,
    pub reason: String,
}

#[derive(Serialize)]
pub struct PlanSummaryJson {
    pub kernels: usize,
    pub traffic: Traffic,
    pub savings_pct: f64,
    pub time_us: f64,
    pub speedup: f64,
}

impl From<&PlanSummary> for PlanSummaryJson {
    fn from(p: &PlanSummary) -> Self {
        PlanSummaryJson {
            kernels: p.kernels,
            traffic: p.traffic,
            savings_pct: p.savings_pct,
            time_us: r4(p.time_s * 1e6),
            speedup: r4(p.speedup),
        }
    }
}

/// Attention patterns, and the default plan against the FlashAttention plan.
#[derive(Serialize)]
pub struct AttentionJson {
    /// Whether `groups`, `traffic` and `cost` are the FlashAttention plan's.
    pub flash_attention: bool,
    pub patterns: Vec<PatternJson>,
    pub not_fused: Vec<MissJson>,
    /// The default plan (SPEC §2); null when no pattern matched.
    pub without: Option<PlanSummaryJson>,
    /// The FlashAttention plan; null when no pattern matched.
    pub with: Option<PlanSummaryJson>,
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
    graph: &'a Graph,
    plan: &'a crate::fusion::FusionPlan,
    boundaries: &'a [Boundary],
    /// One per boundary ([`whatif::what_if`]).
    hints: Vec<whatif::Hint>,
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

/// The what-if of an analysis's plan ([`whatif::what_if`]): one hint per boundary.
pub fn hints(a: &Analysis) -> whatif::WhatIf {
    hints_upto(a, usize::MAX)
}

/// [`hints`] for the first `limit` boundaries only.
pub fn hints_upto(a: &Analysis, limit: usize) -> whatif::WhatIf {
    whatif::what_if(
        &a.graph,
        a.fusion,
        &a.plan,
        &a.traffic.groups,
        a.traffic.fused.total,
        limit,
    )
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
    pub diagnostics: Vec<Value>,
    /// Null until [`AnalysisJson::with_cost`].
    pub cost: Option<CostJson<'a>>,
    pub attention: Option<AttentionJson>,
    /// A graph built from blocks: kernels, bytes, FLOPs and time per instance and per block
    /// (absent for a graph without instances).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<crate::summary::Summary>,
    /// `--compare`: the graph under every fusion strategy (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<Vec<crate::compare::Row>>,
    /// With `--ledger`: every tensor, where it lives and the bytes each kernel moves for it
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<crate::ledger::LedgerJson<'a>>,
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
        let Some(a) = analysis else {
            return AnalysisJson {
                graph: name,
                ops: OpsJson::None,
                groups: None,
                boundaries: None,
                traffic: None,
                savings_pct: None,
                policy: None,
                reduction_epilogues: None,
                fusion: None,
                diagnostics,
                cost: None,
                attention: None,
                summary: None,
                compare: None,
                ledger: None,
            };
        };
        let g = &a.graph;
        AnalysisJson {
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
                hints: hints(a).hints,
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
            diagnostics,
            cost: None,
            attention: None,
            summary: None,
            compare: None,
            ledger: None,
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
        let g = &a.graph;
        if let Some(groups) = &mut self.groups {
            groups.costs = &cost.fused.kernels;
        }
        let hw = &cost.hardware;
        let unfused = PlanCostJson {
            kernels: cost.unfused.kernels.len(),
            flops: cost.unfused.flops,
            bytes: cost.unfused.bytes,
            time_us: r4(cost.unfused.time_s * 1e6),
            per_kernel: Some(PerKernelJson {
                graph: g,
                kernels: &cost.unfused.kernels,
                hardware: hw,
                launch: cost.launch,
            }),
        };
        let fused = PlanCostJson {
            kernels: cost.fused.kernels.len(),
            flops: cost.fused.flops,
            bytes: cost.fused.bytes,
            time_us: r4(cost.fused.time_s * 1e6),
            per_kernel: None,
        };
        self.cost = Some(CostJson {
            hardware: HardwareJson {
                name: hw.name.clone(),
                description: hw.description.clone(),
                source: hw.source.clone(),
                peak_tflops_f16: hw.peak_f16 / 1e12,
                peak_tflops_f32: hw.peak_f32 / 1e12,
                bandwidth_tb_s: hw.bandwidth / 1e12,
                l2_bytes: hw.l2_bytes,
                sms: hw.sms,
                launch_us: hw.launch(cost.launch) * 1e6,
                ridge_point_f16: hw.ridge(Unit::Tensor16),
                ridge_point_f32: hw.ridge(Unit::F32),
            },
            launch: cost.launch,
            unfused,
            fused,
            speedup: r4(cost.speedup),
            traffic_model: cost.hardware_model.as_ref().map(|_| "hardware"),
            hardware_model: cost.hardware_model.as_ref().map(ModelJson::from),
        });
        let name = |o: crate::graph::OpId| g.op(o).name.clone();
        self.attention = Some(AttentionJson {
            flash_attention: att.applied,
            patterns: att
                .patterns
                .iter()
                .map(|p| PatternJson {
                    ops: p.pattern.ops().into_iter().map(name).collect(),
                    q: g.use_name(&p.pattern.q),
                    k: g.use_name(&p.pattern.k),
                    v: g.use_name(&p.pattern.v),
                    output: g.tensor(p.pattern.output).name.clone(),
                    intermediates: p
                        .pattern
                        .intermediates
                        .iter()
                        .map(|&t| g.tensor(t).name.clone())
                        .collect(),
                    saved_bytes: p.saved_bytes,
                    fused_edges: p
                        .fused_edges
                        .iter()
                        .map(|e| FusedEdgeJson::new(g, e))
                        .collect(),
                })
                .collect(),
            not_fused: att
                .misses
                .iter()
                .map(|(o, m)| MissJson {
                    softmax: name(*o),
                    reason: m.describe(g),
                })
                .collect(),
            without: att.without.as_ref().map(Into::into),
            with: att.with.as_ref().map(Into::into),
        });
        self
    }
}

/// Bytes the JSON writer gathers before handing them to its `Write`.
const CHUNK: usize = 1 << 20;

/// A JSON writer for [`AnalysisJson::write_json`]: byte-for-byte what `serde_json` writes
/// (compact), with the long lists written directly instead of through `Serializer` calls.
struct JsonOut<'w> {
    buf: Vec<u8>,
    w: &'w mut dyn std::io::Write,
}

impl<'w> JsonOut<'w> {
    fn new(w: &'w mut dyn std::io::Write) -> Self {
        JsonOut {
            buf: Vec::with_capacity(CHUNK + CHUNK / 2),
            w,
        }
    }

    /// Hands the gathered bytes on once there are enough of them.
    fn spill(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.w.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn raw(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Writes `items` separated by commas (the brackets are the caller's).
    fn list<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            each(self, item)?;
        }
        Ok(())
    }

    /// Anything small, through `serde_json` itself.
    fn serde<T: Serialize + ?Sized>(&mut self, v: &T) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.buf, v).map_err(std::io::Error::other)
    }

    fn u64(&mut self, mut v: u64) {
        const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
            2021222324252627282930313233343536373839\
            4041424344454647484950515253545556575859\
            6061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899";
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        while v >= 100 {
            let p = (v % 100) as usize * 2;
            v /= 100;
            i -= 2;
            digits[i..i + 2].copy_from_slice(&PAIRS[p..p + 2]);
        }
        if v >= 10 {
            let p = v as usize * 2;
            i -= 2;
            digits[i..i + 2].copy_from_slice(&PAIRS[p..p + 2]);
        } else {
            i -= 1;
            digits[i] = b'0' + v as u8;
        }
        self.buf.extend_from_slice(&digits[i..]);
    }

    /// The contents of a JSON string, escaped as `serde_json` escapes them.
    fn escaped(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = s.as_bytes();
        // Names are identifiers: nearly every string needs no escape at all.
        // A fold, not `any`: without the early exit the test vectorises.
        if !bytes
            .iter()
            .fold(false, |a, &b| a | (b < 0x20) | (b == b'"') | (b == b'\\'))
        {
            self.buf.extend_from_slice(bytes);
            return;
        }
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let esc: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                0x08 => b"\\b",
                0x0c => b"\\f",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1f => {
                    self.buf.extend_from_slice(&bytes[start..i]);
                    self.buf.extend_from_slice(b"\\u00");
                    self.buf.push(HEX[(b >> 4) as usize]);
                    self.buf.push(HEX[(b & 0xf) as usize]);
                    start = i + 1;
                    continue;
                }
                _ => continue,
            };
            self.buf.extend_from_slice(&bytes[start..i]);
            self.buf.extend_from_slice(esc);
            start = i + 1;
        }
        self.buf.extend_from_slice(&bytes[start..]);
    }

    fn str(&mut self, s: &str) {
        self.buf.push(b'"');
        self.escaped(s);
        self.buf.push(b'"');
    }

    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.raw(b"null"),
        }
    }

    /// `name`, `name[i]`, `name.T` or `name[i].T` as one string.
    fn view_name(&mut self, name: &str, index: Option<u64>, transpose: bool) {
        self.buf.push(b'"');
        self.escaped(name);
        if let Some(i) = index {
            self.buf.push(b'[');
            self.u64(i);
            self.buf.push(b']');
        }
        if transpose {
            self.raw(b".T");
        }
        self.buf.push(b'"');
    }

    fn op(&mut self, o: &OpJson<'_>) -> std::io::Result<()> {
        self.raw(b"{\"name\":");
        self.str(o.name);
        self.raw(b",\"kind\":");
        self.str(o.kind);
        self.raw(b",\"func\":");
        self.opt_str(o.func);
        self.raw(b",\"inputs\":[");
        match o.inputs {
            InputsJson::Written(v) => self.list(v, |out, s| {
                out.str(s);
                Ok(())
            })?,
            InputsJson::Uses(g, uses) => self.list(uses, |out, u| {
                out.view_name(&g.tensor(u.tensor).name, u.index, u.transpose);
                Ok(())
            })?,
            InputsJson::Owned(ref v) => self.list(v, |out, s| {
                out.str(s);
                Ok(())
            })?,
        }
        self.raw(b"],\"output\":");
        self.str(o.output);
        self.raw(b",\"shape\":");
        match o.shape {
            Some(shape) => {
                self.buf.push(b'[');
                self.list(shape, |out, &d| {
                    out.u64(d);
                    Ok(())
                })?;
                self.buf.push(b']');
            }
            None => self.raw(b"null"),
        }
        self.raw(b",\"dtype\":");
        self.opt_str(o.dtype);
        self.raw(b",\"bytes\":");
        match o.bytes {
            Some(b) => self.u64(b),
            None => self.raw(b"null"),
        }
        self.buf.push(b'}');
        Ok(())
    }

    fn ops(&mut self, ops: &OpsJson<'_>) -> std::io::Result<()> {
        self.buf.push(b'[');
        match *ops {
            OpsJson::None => {}
            OpsJson::Written(ops) => self.list(ops, |out, o| {
                out.op(&OpJson {
                    name: &o.name,
                    kind: &o.kind,
                    func: o.func.as_deref(),
                    inputs: InputsJson::Written(&o.inputs),
                    output: &o.output,
                    shape: o.shape.as_deref(),
                    dtype: o.dtype.map(|d| d.as_str()),
                    bytes: o.bytes,
                })?;
                out.spill()
            })?,
            OpsJson::Graph(g) => self.list(&g.ops, |out, o| {
                let t = g.tensor(o.output);
                out.op(&OpJson {
                    name: &o.name,
                    kind: o.kind.as_str(),
                    func: o.func.as_deref(),
                    inputs: InputsJson::of(g, o),
                    output: &t.name,
                    shape: Some(&t.shape),
                    dtype: Some(t.dtype.as_str()),
                    bytes: Some(t.bytes),
                })?;
                out.spill()
            })?,
        }
        self.buf.push(b']');
        Ok(())
    }

    fn groups(&mut self, groups: &GroupsJson<'_>) -> std::io::Result<()> {
        let a = groups.analysis;
        let g = &a.graph;
        // Consecutive kernels often have the same estimate: format each distinct one once.
        let mut last_cost: Option<(&KernelCost, Vec<u8>)> = None;
        self.buf.push(b'[');
        let kernels = a.plan.groups.iter().zip(&a.traffic.groups).enumerate();
        self.list(kernels, |out, (k, (grp, tr))| {
            out.raw(b"{\"ops\":[");
            out.list(&grp.ops, |out, &o| {
                out.str(&g.op(o).name);
                out.spill()
            })?;
            out.raw(b"],\"reads\":[");
            out.list(&tr.reads, |out, r| {
                out.raw(b"{\"tensor\":");
                out.view_name(&g.tensor(r.tensor).name, r.index, false);
                out.raw(b",\"bytes\":");
                out.u64(r.bytes);
                out.buf.push(b'}');
                out.spill()
            })?;
            out.raw(b"],\"writes\":[");
            out.list(&tr.writes, |out, w| {
                out.raw(b"{\"tensor\":");
                out.str(&g.tensor(w.tensor).name);
                out.raw(b",\"bytes\":");
                out.u64(w.bytes);
                out.buf.push(b'}');
                out.spill()
            })?;
            out.raw(b"],\"bytes_read\":");
            out.u64(tr.bytes_read);
            out.raw(b",\"bytes_written\":");
            out.u64(tr.bytes_written);
            out.raw(if a.plan.flash_kernel(k).is_some() {
                b",\"flash_attention\":true,\"cost\":"
            } else {
                b",\"flash_attention\":false,\"cost\":"
            });
            match groups.costs.get(k) {
                Some(c) => match &last_cost {
                    Some((prev, text)) if same_estimate(prev, c) => out.buf.extend_from_slice(text),
                    _ => {
                        let text = serde_json::to_vec(&KernelCostJson::from(c))
                            .map_err(std::io::Error::other)?;
                        out.buf.extend_from_slice(&text);
                        last_cost = Some((c, text));
                    }
                },
                None => out.raw(b"null"),
            }
            if !grp.recomputed.is_empty() {
                out.raw(b",\"recomputed\":[");
                out.list(&grp.recomputed, |out, &o| {
                    out.str(&g.op(o).name);
                    out.spill()
                })?;
                out.buf.push(b']');
            }
            out.buf.push(b'}');
            out.spill()
        })?;
        self.buf.push(b']');
        Ok(())
    }

    fn boundaries(&mut self, b: &BoundariesJson<'_>) -> std::io::Result<()> {
        let (g, plan) = (b.graph, b.plan);
        self.buf.push(b'[');
        self.list(b.boundaries.iter().zip(&b.hints), |out, (b, h)| {
            out.raw(b"{\"producer\":");
            out.str(&g.op(b.producer).name);
            out.raw(b",\"consumer\":");
            out.str(&g.op(b.consumer).name);
            out.raw(b",\"tensor\":");
            out.str(&g.tensor(b.tensor).name);
            out.raw(b",\"reason\":");
            out.str(b.reason.as_str());
            out.raw(b",\"rule\":");
            out.u64(b.reason.rule().into());
            out.raw(b",\"explanation\":\"");
            let _ = b.write_explanation(&mut Escaping(out), g);
            out.buf.push(b'"');
            if let Some((p, c)) = b.via {
                out.raw(b",\"via\":[");
                out.str(&g.op(p).name);
                out.buf.push(b',');
                out.str(&g.op(c).name);
                out.buf.push(b']');
            }
            if let Some(hit) = &b.budget {
                out.raw(b",\"budget\":");
                out.serde(hit)?;
            }
            out.raw(b",\"values\":");
            out.serde(&h.values(g, plan, b))?;
            out.raw(b",\"smallest_change\":");
            out.serde(&h.fix)?;
            out.raw(b",\"hint\":");
            out.str(&h.sentence(g, plan, b));
            out.buf.push(b'}');
            out.spill()
        })?;
        self.buf.push(b']');
        Ok(())
    }

    fn plan_cost(&mut self, p: &PlanCostJson<'_>) -> std::io::Result<()> {
        self.raw(b"{\"kernels\":");
        self.u64(p.kernels as u64);
        self.raw(b",\"flops\":");
        self.u64(p.flops);
        self.raw(b",\"bytes\":");
        self.u64(p.bytes);
        self.raw(b",\"time_us\":");
        self.serde(&p.time_us)?;
        if let Some(per) = &p.per_kernel {
            let g = per.graph;
            self.raw(b",\"per_kernel\":[");
            // Consecutive kernels often take the same time: format each distinct one once.
            let mut last: Option<(u64, Vec<u8>)> = None;
            self.list(per.kernels, |out, k| {
                let (bound, time_s) = k.bound_and_time(per.hardware, per.launch);
                out.raw(b"{\"op\":");
                out.str(&g.op(k.op).name);
                out.raw(b",\"flops\":");
                out.u64(k.flops);
                out.raw(b",\"bytes\":");
                out.u64(k.bytes);
                out.raw(match bound {
                    Bound::Memory => b",\"bound\":\"memory\",\"time_us\":",
                    Bound::Compute => b",\"bound\":\"compute\",\"time_us\":",
                });
                let t = r4(time_s * 1e6);
                match &last {
                    Some((bits, text)) if *bits == t.to_bits() => out.buf.extend_from_slice(text),
                    _ => {
                        let text = serde_json::to_vec(&t).map_err(std::io::Error::other)?;
                        out.buf.extend_from_slice(&text);
                        last = Some((t.to_bits(), text));
                    }
                }
                out.buf.push(b'}');
                out.spill()
            })?;
            self.buf.push(b']');
        }
        self.buf.push(b'}');
        Ok(())
    }

    /// `{"graph":…,"ops":[…]`: what the cost model does not change.
    fn analysis_head(&mut self, j: &AnalysisJson<'_>) -> std::io::Result<()> {
        self.raw(b"{\"graph\":");
        self.str(j.graph);
        self.raw(b",\"ops\":");
        self.ops(&j.ops)
    }

    /// The rest of the report, from `,"groups":` to the closing brace.
    fn analysis_tail(&mut self, j: &AnalysisJson<'_>) -> std::io::Result<()> {
        self.raw(b",\"groups\":");
        match &j.groups {
            Some(groups) => self.groups(groups)?,
            None => self.raw(b"null"),
        }
        self.raw(b",\"boundaries\":");
        match &j.boundaries {
            Some(b) => self.boundaries(b)?,
            None => self.raw(b"null"),
        }
        self.raw(b",\"traffic\":");
        self.serde(&j.traffic)?;
        self.raw(b",\"savings_pct\":");
        self.serde(&j.savings_pct)?;
        if let Some(policy) = j.policy {
            self.raw(b",\"policy\":");
            self.str(policy.as_str());
        }
        if let Some(e) = &j.reduction_epilogues {
            self.raw(b",\"reduction_epilogues\":");
            self.serde(e)?;
        }
        if let Some(f) = &j.fusion {
            self.raw(b",\"fusion\":");
            self.serde(f)?;
        }
        self.raw(b",\"diagnostics\":");
        self.serde(&j.diagnostics)?;
        self.spill()?;
        self.raw(b",\"cost\":");
        match &j.cost {
            Some(c) => {
                self.raw(b"{\"hardware\":");
                self.serde(&c.hardware)?;
                self.raw(b",\"launch\":");
                self.serde(&c.launch)?;
                self.raw(b",\"unfused\":");
                self.plan_cost(&c.unfused)?;
                self.raw(b",\"fused\":");
                self.plan_cost(&c.fused)?;
                self.raw(b",\"speedup\":");
                self.serde(&c.speedup)?;
                if let (Some(t), Some(m)) = (c.traffic_model, &c.hardware_model) {
                    self.raw(b",\"traffic_model\":");
                    self.str(t);
                    self.raw(b",\"hardware_model\":");
                    self.serde(m)?;
                }
                self.buf.push(b'}');
            }
            None => self.raw(b"null"),
        }
        self.raw(b",\"attention\":");
        self.serde(&j.attention)?;
        if let Some(s) = &j.summary {
            self.raw(b",\"summary\":");
            self.serde(s)?;
        }
        if let Some(c) = &j.compare {
            self.raw(b",\"compare\":");
            self.serde(c)?;
        }
        if let Some(l) = &j.ledger {
            self.raw(b",\"ledger\":");
            self.serde(l)?;
        }
        self.buf.push(b'}');
        Ok(())
    }
}

/// Text written into a JSON string, escaped.
struct Escaping<'o, 'w>(&'o mut JsonOut<'w>);

impl fmt::Write for Escaping<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.escaped(s);
        Ok(())
    }
}

impl AnalysisJson<'_> {
    /// Writes the report as compact JSON, exactly the bytes `serde_json::to_writer` writes
    /// for it, but several times faster on large graphs. Buffers internally (no need for a
    /// `BufWriter`); writes no trailing newline.
    pub fn write_json(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = JsonOut::new(w);
        out.analysis_head(self)?;
        out.analysis_tail(self)?;
        out.w.write_all(&out.buf)
    }

    /// The first part of [`AnalysisJson::write_json`]'s bytes: the graph's name and its ops,
    /// which the cost model does not change. With [`AnalysisJson::write_json_tail`], written
    /// from the same report or from it [`with_cost`](AnalysisJson::with_cost), it writes
    /// the whole report, so that a caller can run the cost model while the ops are written.
    pub fn write_json_head(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = JsonOut::new(w);
        out.analysis_head(self)?;
        out.w.write_all(&out.buf)
    }

    /// The rest of [`AnalysisJson::write_json`]'s bytes after
    /// [`AnalysisJson::write_json_head`]'s.
    pub fn write_json_tail(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = JsonOut::new(w);
        out.analysis_tail(self)?;
        out.w.write_all(&out.buf)
    }
}

/// Lists at most `max` items, then says how many more there are.
fn list(items: impl ExactSizeIterator<Item = String>, sep: &str, max: usize) -> String {
    let n = items.len();
    let mut v: Vec<String> = items.take(max).collect();
    if n > max {
        v.push(format!("… {} more", n - max));
    }
    v.join(sep)
}

/// The human report of `fgraph analyze`: kernels, traffic, boundaries.
pub fn human(a: &Analysis) -> String {
    human_with_cost(a, None)
}

/// `1.23 GFLOP`.
fn flops(f: u64) -> String {
    format!("{}FLOP", si(f as f64) + if f >= 1000 { "" } else { " " })
}

fn cost_line(k: &KernelCost) -> String {
    let intensity = k
        .intensity
        .map_or("no bytes".to_string(), |i| format!("{} FLOP/B", fmt_num(i)));
    format!(
        "{}, {}B → {intensity} (ridge {}): {}-bound, {} ({} compute, {} memory, {} launch)",
        flops(k.flops),
        si(k.bytes as f64) + if k.bytes >= 1000 { "" } else { " " },
        fmt_num(k.ridge_point),
        k.bound.as_str(),
        fmt_time(k.time_s),
        fmt_time(k.compute_s),
        fmt_time(k.memory_s),
        fmt_time(k.launch_s)
    )
}

/// A kernel under the hardware model, beside its compulsory reads.
fn model_line(p: &crate::cost::Prediction, counted_read: u64) -> String {
    let ratio = if counted_read > 0 {
        format!(
            " ({:.2}× the counted reads)",
            p.dram_read as f64 / counted_read as f64
        )
    } else {
        String::new()
    };
    format!(
        "hardware model ({}): DRAM reads {}B{ratio}, writes {}B; kernel {} ({} compute, {} \
         memory) + {} launch = {}",
        p.family.as_str(),
        si(p.dram_read as f64),
        si(p.dram_written as f64),
        fmt_time(p.kernel_s),
        fmt_time(p.compute_s),
        fmt_time(p.memory_s),
        fmt_time(p.launch_s),
        fmt_time(p.time_s)
    )
}

/// Ops, reads or writes listed per kernel in the human report (the JSON lists all).
const MAX: usize = 12;

/// One `reads`/`writes` line of a kernel in the human report: the total, then each tensor
/// (with its view index) and its bytes, at most `MAX` of them.
#[allow(clippy::too_many_arguments)]
fn access_line<T>(
    out: &mut String,
    pad: &str,
    label: &str,
    total: u64,
    items: &[T],
    parts: impl Fn(&T) -> (TensorId, Option<u64>, u64),
    g: &Graph,
    bytes_memo: &mut BytesMemo,
) {
    out.push_str(pad);
    out.push_str(label);
    out.push_str(bytes_memo.get(total));
    out.push_str(": ");
    if items.is_empty() {
        out.push_str("nothing");
    }
    write_list(out, items, ", ", MAX, |out, item| {
        let (tensor, index, bytes) = parts(item);
        out.push_str(&g.tensor(tensor).name);
        if let Some(i) = index {
            let _ = write!(out, "[{i}]");
        }
        out.push(' ');
        out.push_str(bytes_memo.get(bytes));
    });
    out.push('\n');
}

/// [`list`] written into `out`: at most `max` items, then how many more there are.
fn write_list<T>(
    out: &mut String,
    items: &[T],
    sep: &str,
    max: usize,
    mut item: impl FnMut(&mut String, &T),
) {
    for (i, x) in items.iter().take(max).enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        item(out, x);
    }
    if items.len() > max {
        if max > 0 {
            out.push_str(sep);
        }
        let _ = write!(out, "… {} more", items.len() - max);
    }
}

/// [`fmt_bytes`] of the last few values, kept.
#[derive(Default)]
struct BytesMemo {
    entries: Vec<(u64, String)>,
    next: usize,
}

impl BytesMemo {
    fn get(&mut self, b: u64) -> &str {
        const SIZE: usize = 4;
        let k = match self.entries.iter().position(|(v, _)| *v == b) {
            Some(k) => k,
            None if self.entries.len() < SIZE => {
                self.entries.push((b, fmt_bytes(b)));
                self.entries.len() - 1
            }
            None => {
                let k = self.next;
                self.next = (k + 1) % SIZE;
                self.entries[k] = (b, fmt_bytes(b));
                k
            }
        };
        &self.entries[k].1
    }
}

/// Whether two kernels have the same estimate, so the same [`cost_line`].
fn same_estimate(a: &KernelCost, b: &KernelCost) -> bool {
    a.flops == b.flops
        && a.bytes == b.bytes
        && a.intensity.map(f64::to_bits) == b.intensity.map(f64::to_bits)
        && a.ridge_point.to_bits() == b.ridge_point.to_bits()
        && a.bound == b.bound
        && a.compute_s.to_bits() == b.compute_s.to_bits()
        && a.memory_s.to_bits() == b.memory_s.to_bits()
        && a.launch_s.to_bits() == b.launch_s.to_bits()
        && a.time_s.to_bits() == b.time_s.to_bits()
}

/// The human report with the cost model's estimate when one is given.
pub fn human_with_cost(a: &Analysis, cost: Option<(&CostReport, &AttentionReport)>) -> String {
    human_report(a, cost, false)
}

/// [`human_with_cost`], with the smallest change that fuses each boundary under it when
/// `hints` (`analyze --hints`; off by default, so that the default report stays the seed's,
/// SPEC §8).
pub fn human_report(
    a: &Analysis,
    cost: Option<(&CostReport, &AttentionReport)>,
    hints: bool,
) -> String {
    let g = &a.graph;
    let mut out = String::new();
    let n_ops = g.ops.len();
    let n_groups = a.plan.groups.len();
    out += &format!(
        "graph `{}`: {n_ops} op{} in {n_groups} kernel{}\n\n",
        g.name,
        if n_ops == 1 { "" } else { "s" },
        if n_groups == 1 { "" } else { "s" }
    );
    out += &strategy_lines(&a.fusion);
    let width = n_groups.to_string().len();
    let pad = " ".repeat(width + 9);
    // Kernels of a large graph repeat their byte counts and estimates: format each once.
    let mut bytes_memo = BytesMemo::default();
    let mut last_cost: Option<(&KernelCost, String)> = None;
    for (k, (grp, tr)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        let tag = if a.plan.flash_kernel(k).is_some() {
            "  [FlashAttention]"
        } else {
            ""
        };
        let _ = write!(out, "kernel {:>width$}  ", k + 1);
        write_list(&mut out, &grp.ops, " → ", MAX, |out, &o| {
            out.push_str(&g.op(o).name)
        });
        out.push_str(tag);
        if !grp.recomputed.is_empty() {
            out.push_str("  (recomputes ");
            write_list(&mut out, &grp.recomputed, ", ", MAX, |out, &o| {
                out.push_str(&g.op(o).name)
            });
            out.push(')');
        }
        out.push('\n');
        let reads = |r: &Read| (r.tensor, r.index, r.bytes);
        let writes = |w: &Write| (w.tensor, None, w.bytes);
        access_line(
            &mut out,
            &pad,
            "reads  ",
            tr.bytes_read,
            &tr.reads,
            reads,
            g,
            &mut bytes_memo,
        );
        access_line(
            &mut out,
            &pad,
            "writes ",
            tr.bytes_written,
            &tr.writes,
            writes,
            g,
            &mut bytes_memo,
        );
        if let Some(kc) = cost.and_then(|(c, _)| c.fused.kernels.get(k)) {
            let line = match &last_cost {
                Some((prev, line)) if same_estimate(prev, kc) => line,
                _ => &last_cost.insert((kc, cost_line(kc))).1,
            };
            out.push_str(&pad);
            out.push_str("cost   ");
            out.push_str(line);
            out.push('\n');
        }
        if let Some(p) = cost.and_then(|(c, _)| c.hardware_model.as_ref()?.kernels.get(k)) {
            out.push_str(&pad);
            out.push_str("model  ");
            out.push_str(&model_line(p, tr.bytes_read));
            out.push('\n');
        }
    }
    out += &totals(a, cost);
    if !a.plan.boundaries.is_empty() && hints {
        out += "\nboundaries (edges that stay in HBM, why, and the smallest change that fuses \
                 them):\n";
        let w = hints_upto(a, 200);
        for (b, h) in a.plan.boundaries.iter().zip(&w.hints).take(200) {
            boundary_lines(&mut out, g, &a.plan, b, h, "  ");
        }
        if a.plan.boundaries.len() > 200 {
            out += &format!(
                "  … {} more (see --format json)\n",
                a.plan.boundaries.len() - 200
            );
        }
    } else if !a.plan.boundaries.is_empty() {
        out += "\nboundaries (edges that stay in HBM, and why):\n";
        for b in a.plan.boundaries.iter().take(200) {
            let (p, c, tn) = (
                &g.op(b.producer).name,
                &g.op(b.consumer).name,
                &g.tensor(b.tensor).name,
            );
            let _ = writeln!(
                out,
                "  {p} → {c} via `{tn}` [{}]: {}",
                b.reason,
                b.explain(g)
            );
        }
        if a.plan.boundaries.len() > 200 {
            out += &format!(
                "  … {} more (see --format json)\n",
                a.plan.boundaries.len() - 200
            );
        }
    }
    fused_edges(
        &mut out,
        g,
        "reduction epilogues (edges kept in the reduction's kernel by --reduction-epilogue)",
        &a.plan.epilogues,
    );
    fused_edges(
        &mut out,
        g,
        "recomputed (edges whose producer runs again in the consumer's kernel)",
        &a.plan.recomputes,
    );
    if !a.plan.recomputes.is_empty() {
        out += &format!("  the copies add {}\n", flops(a.plan.recomputed_flops(g)));
    }
    if !a.plan.horizontal.is_empty() {
        out += "\nhorizontal launches (independent kernels merged because they read the same tensor):\n";
        for h in a.plan.horizontal.iter().take(200) {
            let parts: Vec<String> = h
                .parts
                .iter()
                .map(|p| {
                    format!(
                        "[{}]",
                        list(p.iter().map(|&o| g.op(o).name.clone()), ", ", 4)
                    )
                })
                .collect();
            let shared = list(
                h.shared.iter().map(|&t| format!("`{}`", g.tensor(t).name)),
                ", ",
                4,
            );
            out += &format!(
                "  kernel {}: {} read {shared} once: saves {} and {} launch{}\n",
                h.group + 1,
                parts.join(" + "),
                fmt_bytes(h.bytes_saved),
                h.parts.len() - 1,
                if h.parts.len() == 2 { "" } else { "es" }
            );
        }
    }
    out
}

/// A section listing edges an option fused (at most 200), each with the rule it overrides.
fn fused_edges(out: &mut String, g: &Graph, title: &str, edges: &[crate::fusion::FusedEdge]) {
    if edges.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title}:");
    for e in edges.iter().take(200) {
        let overrides = e
            .overrides
            .map_or(String::new(), |r| format!(", overrides {r}"));
        let _ = writeln!(
            out,
            "  {} → {} via `{}` [{}{overrides}]",
            g.op(e.producer).name,
            g.op(e.consumer).name,
            g.tensor(e.tensor).name,
            e.fused_by
        );
    }
}

/// The lines that say how the plan was made, when not by SPEC §2's default rules.
fn strategy_lines(f: &crate::fusion::FusionOptions) -> String {
    use crate::fusion::{Fuser, Horizontal, MatmulEpilogue, Policy};
    let mut parts = Vec::new();
    match f.policy {
        Policy::Boundary => {}
        Policy::Store => parts.push(
            "fusion policy `store`: a tensor with several consumers or a graph output may join a \
             consumer's kernel and is still written for the others"
                .to_string(),
        ),
        Policy::Recompute => parts.push(
            "fusion policy `recompute`: a cheap producer read by several kernels is computed \
             again in each of them when that saves traffic"
                .to_string(),
        ),
        Policy::Inline => parts.push(
            "fusion policy `inline`: a cheap pointwise producer is computed again in every \
             reader's kernel (unless it reads more than 4 tensors or a matmul reads it); other \
             shared tensors join a reader's kernel and are still written for the others"
                .to_string(),
        ),
    }
    if f.diamonds {
        parts.push(
            "diamonds: a tensor whose readers reconverge at one op through cheap ops stays on chip"
                .into(),
        );
    }
    if f.reduction_epilogue {
        parts.push("reduction epilogues: elementwise work on a reduced row stays in the reduction's kernel".into());
    }
    match f.matmul_epilogue {
        MatmulEpilogue::Elementwise => {}
        MatmulEpilogue::Bias => {
            parts.push("matmul epilogues: a bias add only (as a cuBLAS call with bias)".into())
        }
        MatmulEpilogue::Addmm => parts.push(
            "matmul epilogues: an add, as Inductor's addmm (unless every reader of the sum is \
             elementwise)"
                .into(),
        ),
        MatmulEpilogue::None => {
            parts.push("matmul epilogues: none (a matmul is a kernel of its own)".into())
        }
    }
    match f.horizontal {
        Horizontal::Off => {}
        Horizontal::Pointwise => parts.push("horizontal fusion: independent pointwise kernels that read the same tensor are one launch".into()),
        Horizontal::GroupedGemm => parts.push("horizontal fusion: independent kernels that read the same tensor are one launch, matmuls as a grouped GEMM".into()),
    }
    let b = f.effective_budgets();
    let mut budgets = Vec::new();
    if let Some(n) = b.ops_limit() {
        budgets.push(format!("{n} ops"));
    }
    if let Some(n) = b.tensors {
        budgets.push(format!("{n} tensors"));
    }
    if let Some(n) = b.registers {
        budgets.push(format!("{n} registers per thread"));
    }
    if !budgets.is_empty() {
        parts.push(format!("budgets per kernel: {}", budgets.join(", ")));
    }
    if parts.is_empty() {
        return String::new();
    }
    let mut out = match Fuser::of(f).filter(|&p| p != Fuser::Seed) {
        Some(p) => format!("fusion as `--fuser {}`:\n", p.as_str()),
        None => String::new(),
    };
    for p in parts {
        out += &p;
        out.push('\n');
    }
    out.push('\n');
    out
}

/// A boundary in the human report: the edge, its rule and why, then (indented) the values
/// and the smallest change that fuses it.
pub(crate) fn boundary_lines(
    out: &mut String,
    g: &Graph,
    plan: &crate::fusion::FusionPlan,
    b: &Boundary,
    h: &whatif::Hint,
    indent: &str,
) {
    let (p, c, tn) = (
        &g.op(b.producer).name,
        &g.op(b.consumer).name,
        &g.tensor(b.tensor).name,
    );
    let _ = writeln!(
        out,
        "{indent}{p} → {c} via `{tn}` [{}]: {}",
        b.reason,
        b.explain(g)
    );
    let _ = writeln!(out, "{indent}  {}", h.sentence(g, plan, b));
}

/// The traffic of both plans and, with a cost model, the estimated times.
fn totals(a: &Analysis, cost: Option<(&CostReport, &AttentionReport)>) -> String {
    let g = &a.graph;
    let mut out = String::new();
    let t = &a.traffic;
    let row = |label: &str, tr: &Traffic| {
        format!(
            "  {label:<8} {:>22} {:>22} {:>22}\n",
            group_digits(tr.bytes_read),
            group_digits(tr.bytes_written),
            group_digits(tr.total)
        )
    };
    out += &format!(
        "\nHBM traffic (bytes){:>17}{:>23}{:>23}\n",
        "read", "written", "total"
    );
    out += &row("unfused", &t.unfused);
    out += &row("fused", &t.fused);
    out += &format!(
        "  saved by fusion: {}, {:.2}% of the unfused traffic\n",
        fmt_bytes(t.fused.saved_by_fusion),
        t.savings_pct
    );
    if let Some((c, att)) = cost {
        out += &cost_summary(g, c, att);
    }
    out
}

/// `analyze --summary`: the graph's size, one line per instance and per block, and the
/// totals, instead of the list of kernels.
pub fn human_summary(
    a: &Analysis,
    s: &crate::summary::Summary,
    cost: Option<(&CostReport, &AttentionReport)>,
) -> String {
    let n_ops = a.graph.ops.len();
    let n_groups = a.plan.groups.len();
    let mut out = format!(
        "graph `{}`: {n_ops} op{} in {n_groups} kernel{}\n\n",
        a.graph.name,
        if n_ops == 1 { "" } else { "s" },
        if n_groups == 1 { "" } else { "s" }
    );
    out += &crate::summary::human(s);
    out += &totals(a, cost);
    out
}

fn cost_summary(g: &Graph, c: &CostReport, att: &AttentionReport) -> String {
    let hw = &c.hardware;
    let mut out = format!(
        "\nestimated time on {} ({}): {} TFLOP/s dense 16-bit tensor, {} TFLOP/s f32, {} TB/s, \
         launch {} per kernel ({})\n",
        hw.description,
        hw.name,
        fmt_num(hw.peak_f16 / 1e12),
        fmt_num(hw.peak_f32 / 1e12),
        fmt_num(hw.bandwidth / 1e12),
        fmt_time(hw.launch(c.launch)),
        c.launch.as_str()
    );
    out += &format!(
        "  ridge point {} FLOP/B (16-bit tensor cores), {} FLOP/B (f32)\n",
        fmt_num(hw.ridge(Unit::Tensor16)),
        fmt_num(hw.ridge(Unit::F32))
    );
    let plural = |n: usize| if n == 1 { "kernel " } else { "kernels" };
    out += &format!(
        "  unfused  {:>6} {} {:>12}   {}\n",
        c.unfused.kernels.len(),
        plural(c.unfused.kernels.len()),
        fmt_time(c.unfused.time_s),
        flops(c.unfused.flops)
    );
    out += &format!(
        "  fused    {:>6} {} {:>12}   speedup {:.2}×\n",
        c.fused.kernels.len(),
        plural(c.fused.kernels.len()),
        fmt_time(c.fused.time_s),
        c.speedup
    );
    if let Some(m) = &c.hardware_model {
        // The fused plan's total under `--traffic-model hardware`, and where its numbers come
        // from (the `model` lines above are per kernel).
        out += &format!(
            "  hardware model: fused {} in kernels + {} of launches = {}, DRAM reads {}B, writes \
             {}B\n    coefficients: {}\n",
            fmt_time(m.kernel_s),
            fmt_time(m.time_s - m.kernel_s),
            fmt_time(m.time_s),
            si(m.dram_read as f64),
            si(m.dram_written as f64),
            m.source
        );
    }
    if !att.patterns.is_empty() || !att.misses.is_empty() {
        out += "\nattention (matmul → softmax → matmul, which the rules alone cannot fuse):\n";
    }
    for p in &att.patterns {
        let names: Vec<&str> = p
            .pattern
            .ops()
            .iter()
            .map(|&o| g.op(o).name.as_str())
            .collect();
        out += &format!(
            "  {}: a FlashAttention kernel reads {}, {}, {} and writes `{}`; it keeps {} on chip, saving {}\n",
            names.join(" → "),
            g.use_name(&p.pattern.q),
            g.use_name(&p.pattern.k),
            g.use_name(&p.pattern.v),
            g.tensor(p.pattern.output).name,
            list(
                p.pattern
                    .intermediates
                    .iter()
                    .map(|&t| format!("`{}`", g.tensor(t).name)),
                ", ",
                8
            ),
            fmt_bytes(p.saved_bytes)
        );
        for e in &p.fused_edges {
            if let Some(r) = e.overrides {
                out += &format!(
                    "    {} → {} via `{}` [{}]: fused although the rules say {r}\n",
                    g.op(e.producer).name,
                    g.op(e.consumer).name,
                    g.tensor(e.tensor).name,
                    e.fused_by
                );
            }
        }
    }
    for (o, m) in &att.misses {
        out += &format!(
            "  softmax `{}` is not fused into an attention kernel: {}\n",
            g.op(*o).name,
            m.describe(g)
        );
    }
    if let (Some(without), Some(with)) = (&att.without, &att.with) {
        let row = |label: &str, p: &PlanSummary| {
            format!(
                "  {label:<22} {:>4} {:<7} {:>22} B  saved {:>6.2}%  {:>12}  speedup {:.2}×\n",
                p.kernels,
                if p.kernels == 1 { "kernel" } else { "kernels" },
                group_digits(p.traffic.total),
                p.savings_pct,
                fmt_time(p.time_s),
                p.speedup
            )
        };
        out += &row("without FlashAttention", without);
        out += &row("with FlashAttention", with);
        if !att.applied {
            out += "  (fgraph analyze --flash-attention uses the FlashAttention plan)\n";
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::AnalysisJson;
    use crate::analysis::{Options, check_file};
    use crate::cost::{self, Hardware, LaunchMode};
    use crate::diagnostics::render;
    use crate::fusion::Policy;
    use std::path::{Path, PathBuf};

    fn fgraph_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                fgraph_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "fgraph") {
                out.push(p);
            }
        }
    }

    fn same(json: &AnalysisJson<'_>, what: &str) {
        let slow = serde_json::to_vec(json).expect("serialises");
        let mut fast = Vec::new();
        json.write_json(&mut fast).expect("writes");
        assert!(
            slow == fast,
            "{what}:\nserde: {}\nfast:  {}",
            String::from_utf8_lossy(&slow),
            String::from_utf8_lossy(&fast)
        );
        let mut parts = Vec::new();
        json.write_json_head(&mut parts).expect("writes");
        json.write_json_tail(&mut parts).expect("writes");
        assert!(parts == fast, "{what}: head and tail");
    }

    /// `write_json` writes exactly what `serde_json` writes for the report, on every example
    /// and fixture, with and without the cost model and FlashAttention, and with errors.
    #[test]
    fn write_json_matches_serde_json() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        fgraph_files(&root.join("examples"), &mut files);
        fgraph_files(&root.join("tests/fixtures"), &mut files);
        assert!(files.len() > 10, "fixtures found: {}", files.len());
        // Names that need escaping, slices, transposes, an unchecked graph.
        let views = "graph h {\n  input q: [2, 8, 8]\n  input k: [2, 8, 8]\n  op s = matmul(q[0], k[1].T) -> y\n  op r = elementwise.add(y, q[0], q[1], q[0], y) -> z\n  op t = reduction.sum(z) -> w: [8]\n}\n";
        let mut sources: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|p| (p.display().to_string(), std::fs::read(p).expect("reads")))
            .collect();
        sources.push(("views.fgraph".into(), views.as_bytes().to_vec()));
        sources.push(("bad.fgraph".into(), b"graph \"g {\n}\n".to_vec()));
        // `--policy store`: a boundary with `via` (the sibling edge r → c breaks rule 2).
        let sibling = "graph s {\n  input x: [4, 8]\n  op a = elementwise.relu(x) -> t\n  op r = reduction.max(t) -> s: [4, 1]\n  op c = elementwise.sub(t, s) -> y\n}\n";
        sources.push(("sibling.fgraph".into(), sibling.as_bytes().to_vec()));
        let mut analysed = 0;
        let presets = [Hardware::preset("h100"), Hardware::preset("a100")];
        for (name, bytes) in &sources {
            for (flash_attention, policy, reduction_epilogue) in [
                (false, Policy::Boundary, false),
                (true, Policy::Boundary, false),
                (false, Policy::Store, true),
            ] {
                let opts = Options {
                    flash_attention,
                    policy,
                    reduction_epilogue,
                    ..Options::default()
                };
                let report = check_file(name, bytes, &opts);
                let diags: Vec<_> = report
                    .diagnostics
                    .iter()
                    .map(|d| render::json(d, &report.source))
                    .collect();
                same(&AnalysisJson::new(name, None, diags.clone()), name);
                for g in &report.graphs {
                    same(
                        &AnalysisJson::unchecked(&g.name, &g.written_ops, diags.clone()),
                        name,
                    );
                    let Some(a) = &g.analysis else { continue };
                    same(&AnalysisJson::new(&g.name, Some(a), diags.clone()), name);
                    let mut with_ledger = AnalysisJson::new(&g.name, Some(a), diags.clone());
                    with_ledger.ledger = Some(crate::ledger::LedgerJson::new(
                        &a.graph,
                        &crate::ledger::ledger(a),
                    ));
                    same(&with_ledger, name);
                    // Names that need escaping.
                    same(
                        &AnalysisJson::new("\t\u{1}\"\\é\u{7f}", Some(a), diags.clone()),
                        name,
                    );
                    analysed += 1;
                    for hw in presets.iter().flatten() {
                        for launch in [LaunchMode::Graph, LaunchMode::Eager] {
                            let c = cost::estimate(a, hw, launch).expect("cost");
                            let att = cost::attention(a, hw, launch).expect("attention");
                            let plain = AnalysisJson::new(&g.name, Some(a), diags.clone());
                            let (mut before, mut after) = (Vec::new(), Vec::new());
                            plain.write_json_head(&mut before).expect("writes");
                            let json = plain.with_cost(a, &c, &att);
                            same(&json, name);
                            // The CLI writes the head before the cost model is done.
                            json.write_json_head(&mut after).expect("writes");
                            assert!(before == after, "{name}: head with and without cost");
                        }
                    }
                }
            }
        }
        assert!(analysed > 10, "analysed: {analysed}");
    }
}
