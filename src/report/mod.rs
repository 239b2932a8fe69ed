//! The analysis report: everything `fgraph analyze` (and `fgraph transformer`) shows about one
//! graph, assembled once by [`Report::assemble`] from the checked file, the chosen graph, the
//! GPU and the [`ReportOptions`], with no I/O; [`render`] turns it into text, JSON, pictures
//! and the roofline.
//!
//! The assembly keeps the diagnostics that belong to the graph, runs the cost model (both
//! plans' estimates, the hardware model under `--traffic-model hardware`, the FlashAttention
//! comparison), sums a graph built from blocks per instance and block ([`summary`]), and adds
//! what the options ask for: the [`compare`] table of strategies, the tensor [`ledger`] or the
//! one-op focus of [`explain_op`] (which replaces the rest), and issue 28's sections: the
//! [`memory`] and capacity report (`--memory`, `--summary`), the time by kernel family
//! ([`breakdown`]) and the comparison with a saved report ([`baseline`]). Each of those is data
//! in its own file here; the what-if hint under each boundary ([`hints`]) is computed by the renderers
//! that show it, as deep as each shows it (the text report stops at 200), once per depth
//! ([`Report::hints_upto`]).
//!
//! The report's own plan searches (each `--compare` strategy, each what-if candidate, the
//! FlashAttention comparison's other plan) are bounded like the analysis's (`fusion::work`);
//! one that stopped is a `search-budget` warning beside the file's diagnostics
//! ([`Report::notes`], [`Report::diagnostics_with`]).
//!
//! Speed: on a graph of [`PARALLEL_COST`] ops or more (the threshold is in `perf`'s table) the
//! cost model runs on a second thread while a renderer writes what the cost model does not
//! change (the JSON report's head), the one place where the report's assembly and its
//! rendering overlap.

pub mod baseline;
pub mod breakdown;
pub mod compare;
pub mod explain_op;
pub mod fold;
pub mod ledger;
pub mod memory;
pub mod render;
pub mod summary;
pub mod whatif;

pub use whatif::{hints, hints_upto};

use crate::analysis::{Analysis, FileReport, GraphReport};
use crate::cost::{
    self, AttentionReport, CostReport, Hardware, KernelCost, LaunchMode, TrafficModel,
};
use crate::diagnostics::{Code, Diagnostic, SourceFile};
use crate::fusion::FusionOptions;
use crate::fusion::whatif::WhatIf;
use crate::perf::PARALLEL_COST;
use std::sync::{Arc, Mutex};

/// What a report holds beyond the plan, and how its text shows it.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Launch overhead per kernel (`--launch`).
    pub launch: LaunchMode,
    /// `--traffic-model hardware`: also the hardware model's prediction of each kernel.
    pub traffic_model: TrafficModel,
    /// `--summary`: the text shows one line per instance and block instead of the kernels
    /// (the JSON report has the summary of any graph built from blocks).
    pub summary: bool,
    /// `--hints`: the text shows the smallest change that fuses each boundary (the JSON
    /// report always has it).
    pub hints: bool,
    /// `--compare`: the graph planned under every fusion strategy.
    pub compare: bool,
    /// `--ledger`: the fused traffic by tensor.
    pub ledger: bool,
    /// `--explain OP`: the report of one op instead of the whole plan.
    pub explain: Option<String>,
    /// `--runtime`: the step as a runtime runs it, which the report leads with.
    pub runtime: Option<crate::runtime::Runtime>,
    /// `--memory`: memory and capacity ([`memory`]; also in `--summary`'s text and JSON).
    pub memory: bool,
    /// `--breakdown`: where the time goes ([`breakdown`]).
    pub breakdown: bool,
    /// `--baseline OLD.json`: the saved report the plan is compared with ([`baseline`]).
    pub baseline: Option<Arc<baseline::Baseline>>,
    /// `--fail-on-regression PCT`.
    pub fail_on_regression: Option<f64>,
    /// The `--set` values (and the configuration's) the graph was checked under: the batch
    /// param's value for [`memory`].
    pub overrides: crate::sema::Overrides,
}

/// The report of one graph of a file, ready to render.
pub struct Report<'a> {
    pub source: &'a SourceFile,
    /// The graph's name (empty when the file has no graph).
    pub name: &'a str,
    /// The chosen graph (`None` when the file has none).
    pub graph: Option<&'a GraphReport>,
    /// The diagnostics of the graph and of the file as a whole (a syntax error, say).
    pub diagnostics: Vec<&'a Diagnostic>,
    /// The graph's analysis; `None` when it has errors other than failed assertions (a
    /// failed assertion is an error, but the plan it was checked against is sound, and shown).
    pub analysis: Option<&'a Analysis>,
    pub hardware: &'a Hardware,
    pub options: ReportOptions,
    /// The cost model's estimate and the attention comparison; `None` without an analysis
    /// or when a figure overflows.
    pub cost: Option<(CostReport, AttentionReport)>,
    /// `--runtime`: the step as the runtime runs the file (`None` without `--runtime`, an
    /// analysis, or when a figure overflows).
    pub runtime: Option<crate::runtime::RuntimeEstimate>,
    /// A graph built from blocks: its kernels per instance and per block.
    pub summary: Option<summary::Summary>,
    /// `--compare`: one row per strategy (`None` when not asked for, or on overflow).
    pub compare: Option<Vec<compare::Row>>,
    /// `--ledger`: one entry per tensor.
    pub ledger: Option<Vec<ledger::Entry>>,
    /// `--explain OP`: the op's report.
    pub explained: Option<explain_op::OpReport<'a>>,
    /// `--memory` or `--summary`: memory and capacity (`None` on overflow).
    pub memory: Option<memory::Memory>,
    /// `--breakdown`: where the time goes (needs the cost model).
    pub breakdown: Option<breakdown::Breakdown>,
    /// `--baseline`: the plan against the saved report.
    pub baseline: Option<baseline::Comparison>,
    /// The what-if of the plan for the first N boundaries, for each N asked so far
    /// ([`Report::hints_upto`]).
    what_if: Mutex<Vec<(usize, Arc<WhatIf>)>>,
}

impl<'a> Report<'a> {
    /// Assembles the report of `graph` (one of `file`'s graphs, or `None` when it has none).
    /// Fails only when `--explain` names no op of the graph, before anything is computed.
    ///
    /// `early`, when given, is called once with the report before the cost model is added,
    /// while the cost model runs on a second thread, on a graph of [`PARALLEL_COST`] ops or
    /// more; on a smaller graph, or without an analysis, it is not called.
    pub fn assemble(
        file: &'a FileReport,
        graph: Option<&'a GraphReport>,
        hardware: &'a Hardware,
        options: &ReportOptions,
        early: Option<impl FnOnce(&Report<'a>)>,
    ) -> Result<Report<'a>, String> {
        // Diagnostics of the graph (and of the file as a whole, such as syntax errors).
        let diagnostics: Vec<&Diagnostic> = file
            .diagnostics
            .iter()
            .filter(|d| match (graph, &d.primary) {
                (Some(g), Some(p)) => file
                    .graphs
                    .iter()
                    .all(|o| o.name == g.name || !o.full_span.contains(p.span)),
                _ => true,
            })
            .collect();
        let analysis = if diagnostics
            .iter()
            .any(|d| d.is_error() && !crate::analysis::assertions::is_assertion_code(d.code))
        {
            None
        } else {
            graph.and_then(|g| g.analysis.as_ref())
        };
        let what_if = Mutex::new(Vec::new());
        let explained = match (&options.explain, analysis) {
            (Some(name), Some(a)) => {
                let op = explain_op::find(&a.graph, name)?;
                let w = Arc::new(hints(a));
                let explained = explain_op::report(a, op, &w);
                if let Ok(mut cache) = what_if.lock() {
                    cache.push((usize::MAX, w));
                }
                Some(explained)
            }
            _ => None,
        };
        let mut report = Report {
            source: &file.source,
            name: graph.map_or("", |g| g.name.as_str()),
            graph,
            diagnostics,
            analysis,
            hardware,
            options: options.clone(),
            cost: None,
            runtime: None,
            summary: None,
            compare: None,
            ledger: None,
            explained,
            memory: None,
            breakdown: None,
            baseline: None,
            what_if,
        };
        let Some(a) = analysis else {
            return Ok(report);
        };
        let cost_of = || cost_of(a, hardware, options);
        report.cost = match early {
            Some(early) if a.graph.ops.len() >= PARALLEL_COST => {
                crate::perf::alongside(true, cost_of, || early(&report)).0
            }
            _ => cost_of(),
        };
        if report.explained.is_none() && report.cost.is_some() {
            report.runtime = options
                .runtime
                .and_then(|rt| crate::runtime::estimate(a, hardware, options.launch, rt).ok());
        }
        if report.explained.is_none() {
            let c = report.cost.as_ref().map(|(c, _)| c);
            report.summary = graph.and_then(|g| summary::summarize(a, &g.instances, c));
            report.compare = options
                .compare
                .then(|| compare::rows(&a.graph, &a.fusion, hardware, options.launch).ok())
                .flatten();
            report.ledger = options.ledger.then(|| ledger::ledger(a));
            let instances = graph.map_or(&[][..], |g| &g.instances[..]);
            if options.memory || options.summary {
                let batch = || batch_param(file, graph, &options.overrides);
                report.memory =
                    memory::memory(a, instances, &hardware.name, hardware.memory_bytes, &batch);
            }
            if let (true, Some((c, att))) = (options.breakdown, &report.cost) {
                report.breakdown = Some(breakdown::breakdown(
                    a,
                    instances,
                    c,
                    &att.patterns,
                    report.runtime.as_ref(),
                ));
            }
            if let Some(old) = &options.baseline {
                report.baseline = Some(baseline::compare(
                    old,
                    a,
                    report.cost.as_ref().map(|(c, _)| c),
                    report.summary.as_ref(),
                    options.fail_on_regression,
                ));
            }
        }
        Ok(report)
    }

    /// The report of a graph that could not be built at all (`fgraph transformer` with
    /// dimensions that do not divide): its name and diagnostics only.
    pub fn unbuilt(
        name: &'a str,
        source: &'a SourceFile,
        diagnostics: &'a [Diagnostic],
        hardware: &'a Hardware,
        options: &ReportOptions,
    ) -> Report<'a> {
        Report {
            source,
            name,
            graph: None,
            diagnostics: diagnostics.iter().collect(),
            analysis: None,
            hardware,
            options: options.clone(),
            cost: None,
            runtime: None,
            summary: None,
            compare: None,
            ledger: None,
            explained: None,
            memory: None,
            breakdown: None,
            baseline: None,
            what_if: Mutex::new(Vec::new()),
        }
    }

    /// The estimate and the attention comparison, borrowed.
    pub fn cost(&self) -> Option<(&CostReport, &AttentionReport)> {
        self.cost.as_ref().map(|(c, att)| (c, att))
    }

    /// The what-if of the plan for its first `limit` boundaries ([`hints_upto`]), computed on
    /// the first call for that `limit` and kept; `None` without an analysis.
    pub fn hints_upto(&self, limit: usize) -> Option<Arc<WhatIf>> {
        let a = self.analysis?;
        let mut cache = self.what_if.lock().ok()?;
        if let Some((_, w)) = cache.iter().find(|(n, _)| *n == limit) {
            return Some(Arc::clone(w));
        }
        let w = Arc::new(hints_upto(a, limit));
        cache.push((limit, Arc::clone(&w)));
        Some(w)
    }

    /// The report's own warnings: `search-budget` for each plan search it made that stopped
    /// at its work bound — the FlashAttention comparison's other plan, a `--compare`
    /// strategy, a what-if candidate (of the what-ifs computed so far: render after asking
    /// for them) — once per set of options, none for the analysis's own options (the
    /// analysis warned) nor where the graph allows the code.
    pub fn notes(&self) -> Vec<Diagnostic> {
        let (Some(a), Some(g)) = (self.analysis, self.graph) else {
            return Vec::new();
        };
        if g.allowed.contains(&Code::SearchBudget) {
            return Vec::new();
        }
        let ops = a.graph.ops.len();
        let mut seen: Vec<FusionOptions> = vec![a.fusion];
        let mut out = Vec::new();
        let mut note = |opts: FusionOptions, stop: &crate::fusion::SearchStop, name: &str| {
            if !seen.contains(&opts) {
                seen.push(opts);
                out.push(crate::analysis::search_budget(ops, stop, name, g.span));
            }
        };
        if let Some((opts, stop)) = self.cost.as_ref().and_then(|(_, att)| att.other_stopped) {
            note(opts, &stop, &crate::fusion::strategy::flags(&opts));
        }
        for r in self.compare.iter().flatten() {
            if let Some(stop) = &r.search_stopped {
                note(r.options, stop, &r.strategy);
            }
        }
        if let Ok(cache) = self.what_if.lock() {
            for (_, w) in cache.iter() {
                for (opts, stop) in &w.stopped {
                    note(*opts, stop, &crate::fusion::strategy::flags(opts));
                }
            }
        }
        out
    }

    /// The file's diagnostics of this graph and `notes` (the report's own, [`Report::notes`]),
    /// in the order of the file's (position, then code, then message).
    pub fn diagnostics_with<'s>(&'s self, notes: &'s [Diagnostic]) -> Vec<&'s Diagnostic> {
        let mut all: Vec<&Diagnostic> = self.diagnostics.clone();
        if !notes.is_empty() {
            all.extend(notes);
            all.sort_by(|a, b| {
                (a.start(), a.code.as_str(), &a.message).cmp(&(
                    b.start(),
                    b.code.as_str(),
                    &b.message,
                ))
            });
        }
        all
    }
}

/// The graph's batch param ([`memory::BATCH_PARAMS`]) and its value under `overrides`
/// (`None` when it has none, or the value is unknown).
pub fn batch_param(
    file: &FileReport,
    graph: Option<&GraphReport>,
    overrides: &crate::sema::Overrides,
) -> Option<(String, i64)> {
    let g = graph?;
    let name = g.params.iter().find(|p| {
        memory::BATCH_PARAMS
            .iter()
            .any(|b| b.eq_ignore_ascii_case(p))
    })?;
    param_value(file, g, name, overrides).map(|v| (name.clone(), v))
}

/// The value of param `name` of `graph` under `overrides`, read from the file's source
/// (`None` when the graph has no such param or its value is unknown).
pub fn param_value(
    file: &FileReport,
    graph: &GraphReport,
    name: &str,
    overrides: &crate::sema::Overrides,
) -> Option<i64> {
    if let Some(&v) = overrides.get(name) {
        return Some(v);
    }
    let parsed = crate::syntax::parser::parse(&file.source.text).ok()?;
    let ast = parsed.graphs.iter().find(|x| x.name.name == graph.name)?;
    crate::sema::param_values(ast, overrides)
        .into_iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v)
}

/// The cost model on `a`: both plans' estimates (with the hardware model's predictions under
/// `--traffic-model hardware`) and the attention comparison; `None` when a figure overflows.
fn cost_of(
    a: &Analysis,
    hw: &Hardware,
    options: &ReportOptions,
) -> Option<(CostReport, AttentionReport)> {
    let mut c = cost::estimate(a, hw, options.launch).ok()?;
    if options.traffic_model == TrafficModel::Hardware {
        cost::with_hardware_model(&mut c, a).ok()?;
    }
    let att = cost::attention(a, hw, options.launch).ok()?;
    Some((c, att))
}

/// Whether two kernels have the same estimate, every figure bit for bit: renderers format
/// each distinct estimate once.
pub fn same_estimate(a: &KernelCost, b: &KernelCost) -> bool {
    a.flops == b.flops
        && a.bytes == b.bytes
        && a.intensity.map(f64::to_bits) == b.intensity.map(f64::to_bits)
        && a.ridge_point.to_bits() == b.ridge_point.to_bits()
        && a.bound == b.bound
        && a.compute_s.to_bits() == b.compute_s.to_bits()
        && a.memory_s.to_bits() == b.memory_s.to_bits()
        && a.launch_s.to_bits() == b.launch_s.to_bits()
        && a.time_s.to_bits() == b.time_s.to_bits()
        && a.comm_s.to_bits() == b.comm_s.to_bits()
        && a.communication == b.communication
}
