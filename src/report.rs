//! Analysis reports as data for JSON and as text for people. Built from an [`Analysis`];
//! the CLI only chooses which to print.

use crate::analysis::{Analysis, fmt_bytes};
use crate::cost::roofline::{fmt_num, si};
use crate::cost::{AttentionReport, Bound, CostReport, KernelCost, LaunchMode, PlanSummary, Unit};
use crate::fusion::Reason;
use crate::graph::Graph;
use crate::traffic::Traffic;
use serde::Serialize;
use serde_json::Value;

#[derive(Serialize)]
pub struct OpJson<'a> {
    pub name: &'a str,
    pub kind: &'a str,
    pub func: Option<&'a str>,
    pub inputs: Vec<String>,
    pub output: &'a str,
    /// Null only for a graph with errors, where an output may be unknown.
    pub shape: Option<&'a [u64]>,
    pub dtype: Option<&'static str>,
    pub bytes: Option<u64>,
}

#[derive(Serialize)]
pub struct AccessJson {
    pub tensor: String,
    pub bytes: u64,
}

#[derive(Serialize)]
pub struct GroupJson<'a> {
    pub ops: Vec<&'a str>,
    pub reads: Vec<AccessJson>,
    pub writes: Vec<AccessJson>,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Whether this kernel is a FlashAttention kernel (`--flash-attention`).
    pub flash_attention: bool,
    /// The cost model's estimate; null until [`AnalysisJson::with_cost`].
    pub cost: Option<KernelCostJson>,
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
pub struct UnfusedKernelJson {
    pub op: String,
    pub flops: u64,
    pub bytes: u64,
    pub bound: Bound,
    pub time_us: f64,
}

#[derive(Serialize)]
pub struct PlanCostJson {
    pub kernels: usize,
    pub flops: u64,
    pub bytes: u64,
    pub time_us: f64,
    /// Unfused plan only: every op as its own kernel (the fused kernels are `groups`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_kernel: Option<Vec<UnfusedKernelJson>>,
}

/// The graph-level estimate.
#[derive(Serialize)]
pub struct CostJson {
    pub hardware: HardwareJson,
    pub launch: LaunchMode,
    pub unfused: PlanCostJson,
    pub fused: PlanCostJson,
    /// Unfused time / fused time.
    pub speedup: f64,
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
pub struct BoundaryJson<'a> {
    pub producer: &'a str,
    pub consumer: &'a str,
    pub tensor: &'a str,
    pub reason: Reason,
    pub rule: u8,
    pub explanation: String,
}

#[derive(Serialize)]
pub struct TrafficJson {
    pub unfused: Traffic,
    pub fused: Traffic,
}

/// The object `analyze --format json` prints (SPEC §6). With errors, `groups`,
/// `boundaries`, `traffic` and `savings_pct` are null.
#[derive(Serialize)]
pub struct AnalysisJson<'a> {
    pub graph: &'a str,
    pub ops: Vec<OpJson<'a>>,
    pub groups: Option<Vec<GroupJson<'a>>>,
    pub boundaries: Option<Vec<BoundaryJson<'a>>>,
    pub traffic: Option<TrafficJson>,
    pub savings_pct: Option<f64>,
    pub diagnostics: Vec<Value>,
    /// Null until [`AnalysisJson::with_cost`].
    pub cost: Option<CostJson>,
    pub attention: Option<AttentionJson>,
}

impl<'a> AnalysisJson<'a> {
    /// The report of a graph with errors: its ops as written, everything else null.
    pub fn unchecked(
        name: &'a str,
        ops: &'a [crate::sema::OpSummary],
        diagnostics: Vec<Value>,
    ) -> Self {
        let mut report = AnalysisJson::new(name, None, diagnostics);
        report.ops = ops
            .iter()
            .map(|o| OpJson {
                name: &o.name,
                kind: &o.kind,
                func: o.func.as_deref(),
                inputs: o.inputs.clone(),
                output: &o.output,
                shape: o.shape.as_deref(),
                dtype: o.dtype.map(|d| d.as_str()),
                bytes: o.bytes,
            })
            .collect();
        report
    }

    pub fn new(name: &'a str, analysis: Option<&'a Analysis>, diagnostics: Vec<Value>) -> Self {
        let Some(a) = analysis else {
            return AnalysisJson {
                graph: name,
                ops: Vec::new(),
                groups: None,
                boundaries: None,
                traffic: None,
                savings_pct: None,
                diagnostics,
                cost: None,
                attention: None,
            };
        };
        let g = &a.graph;
        let ops = g
            .ops
            .iter()
            .map(|o| {
                let t = g.tensor(o.output);
                OpJson {
                    name: &o.name,
                    kind: o.kind.as_str(),
                    func: o.func.as_deref(),
                    inputs: o.inputs.iter().map(|u| g.use_name(u)).collect(),
                    output: &t.name,
                    shape: Some(&t.shape),
                    dtype: Some(t.dtype.as_str()),
                    bytes: Some(t.bytes),
                }
            })
            .collect();
        let groups = a
            .plan
            .groups
            .iter()
            .zip(&a.traffic.groups)
            .enumerate()
            .map(|(k, (grp, tr))| GroupJson {
                ops: grp.ops.iter().map(|&o| g.op(o).name.as_str()).collect(),
                reads: tr
                    .reads
                    .iter()
                    .map(|r| AccessJson {
                        tensor: read_name(g, r.tensor, r.index),
                        bytes: r.bytes,
                    })
                    .collect(),
                writes: tr
                    .writes
                    .iter()
                    .map(|w| AccessJson {
                        tensor: g.tensor(w.tensor).name.clone(),
                        bytes: w.bytes,
                    })
                    .collect(),
                bytes_read: tr.bytes_read,
                bytes_written: tr.bytes_written,
                flash_attention: a.plan.flash_kernel(k).is_some(),
                cost: None,
            })
            .collect();
        let boundaries = a
            .plan
            .boundaries
            .iter()
            .map(|b| {
                let (p, c, t) = (
                    &g.op(b.producer).name,
                    &g.op(b.consumer).name,
                    &g.tensor(b.tensor).name,
                );
                BoundaryJson {
                    producer: p,
                    consumer: c,
                    tensor: t,
                    reason: b.reason,
                    rule: b.reason.rule(),
                    explanation: explain(g, b),
                }
            })
            .collect();
        AnalysisJson {
            graph: name,
            ops,
            groups: Some(groups),
            boundaries: Some(boundaries),
            traffic: Some(TrafficJson {
                unfused: a.traffic.unfused,
                fused: a.traffic.fused,
            }),
            savings_pct: Some(a.traffic.savings_pct),
            diagnostics,
            cost: None,
            attention: None,
        }
    }

    /// Adds the cost model's estimate: `cost` per group, and the graph-level `cost` and
    /// `attention` objects. `cost` must come from the same analysis.
    pub fn with_cost(mut self, a: &Analysis, cost: &CostReport, att: &AttentionReport) -> Self {
        let g = &a.graph;
        if let Some(groups) = &mut self.groups {
            for (grp, k) in groups.iter_mut().zip(&cost.fused.kernels) {
                grp.cost = Some(k.into());
            }
        }
        let hw = &cost.hardware;
        let plan = |p: &crate::cost::PlanCost, per_kernel: bool| PlanCostJson {
            kernels: p.kernels.len(),
            flops: p.flops,
            bytes: p.bytes,
            time_us: r4(p.time_s * 1e6),
            per_kernel: per_kernel.then(|| {
                p.kernels
                    .iter()
                    .map(|k| UnfusedKernelJson {
                        op: k
                            .ops
                            .first()
                            .map_or(String::new(), |&o| g.op(o).name.clone()),
                        flops: k.flops,
                        bytes: k.bytes,
                        bound: k.bound,
                        time_us: r4(k.time_s * 1e6),
                    })
                    .collect()
            }),
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
            unfused: plan(&cost.unfused, true),
            fused: plan(&cost.fused, false),
            speedup: r4(cost.speedup),
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
                        .map(|e| FusedEdgeJson {
                            producer: name(e.producer),
                            consumer: name(e.consumer),
                            tensor: g.tensor(e.tensor).name.clone(),
                            fused_by: e.fused_by,
                            overrides: e.overrides,
                            rule: e.overrides.map(Reason::rule),
                        })
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

/// Why a boundary stays, in words; for `materialized`, which of the two causes holds.
fn explain(g: &Graph, b: &crate::fusion::Boundary) -> String {
    let (p, c, t) = (
        &g.op(b.producer).name,
        &g.op(b.consumer).name,
        &g.tensor(b.tensor).name,
    );
    match b.reason {
        Reason::Materialized if g.is_output(b.tensor) => {
            format!("`{t}` is a graph output, so it must be written to HBM anyway")
        }
        Reason::Materialized => format!(
            "`{t}` is read by {} ops, so it must be written to HBM anyway",
            g.consumers(b.tensor).len()
        ),
        r => r.explain(p, c, t),
    }
}

fn read_name(g: &Graph, t: crate::graph::TensorId, index: Option<u64>) -> String {
    match index {
        Some(i) => format!("{}[{i}]", g.tensor(t).name),
        None => g.tensor(t).name.clone(),
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

/// `35.93 µs`, `1.234 ms`, `2.5 s`.
pub fn fmt_time(s: f64) -> String {
    // An empty sum of f64 is -0.0; show it as 0.
    let s = s + 0.0;
    if !s.is_finite() {
        "-".into()
    } else if s < 1e-3 {
        format!("{:.2} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
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

/// The human report with the cost model's estimate when one is given.
pub fn human_with_cost(a: &Analysis, cost: Option<(&CostReport, &AttentionReport)>) -> String {
    const MAX: usize = 12;
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
    let width = n_groups.to_string().len();
    for (k, (grp, tr)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        let names = list(grp.ops.iter().map(|&o| g.op(o).name.clone()), " → ", MAX);
        let tag = if a.plan.flash_kernel(k).is_some() {
            "  [FlashAttention]"
        } else {
            ""
        };
        out += &format!("kernel {:>width$}  {names}{tag}\n", k + 1);
        let pad = " ".repeat(width + 9);
        let reads = list(
            tr.reads
                .iter()
                .map(|r| format!("{} {}", read_name(g, r.tensor, r.index), fmt_bytes(r.bytes))),
            ", ",
            MAX,
        );
        let writes = list(
            tr.writes
                .iter()
                .map(|w| format!("{} {}", g.tensor(w.tensor).name, fmt_bytes(w.bytes))),
            ", ",
            MAX,
        );
        out += &format!(
            "{pad}reads  {}: {}\n",
            fmt_bytes(tr.bytes_read),
            if reads.is_empty() {
                "nothing".into()
            } else {
                reads
            }
        );
        out += &format!(
            "{pad}writes {}: {}\n",
            fmt_bytes(tr.bytes_written),
            if writes.is_empty() {
                "nothing".into()
            } else {
                writes
            }
        );
        if let Some(kc) = cost.and_then(|(c, _)| c.fused.kernels.get(k)) {
            out += &format!("{pad}cost   {}\n", cost_line(kc));
        }
    }
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
    if !a.plan.boundaries.is_empty() {
        out += "\nboundaries (edges that stay in HBM, and why):\n";
        for b in a.plan.boundaries.iter().take(200) {
            let (p, c, tn) = (
                &g.op(b.producer).name,
                &g.op(b.consumer).name,
                &g.tensor(b.tensor).name,
            );
            out += &format!("  {p} → {c} via `{tn}` [{}]: {}\n", b.reason, explain(g, b));
        }
        if a.plan.boundaries.len() > 200 {
            out += &format!(
                "  … {} more (see --format json)\n",
                a.plan.boundaries.len() - 200
            );
        }
    }
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

fn group_digits(b: u64) -> String {
    let s = fmt_bytes(b);
    s.split(' ').next().unwrap_or_default().to_string()
}
