//! Held-out batch f (validation/gpu/h100-heldout-f, docs/VALIDATION.md §17): a second
//! pre-registered check of the hardware model (`--traffic-model hardware`,
//! src/cost/hwmodel/) as it stood at fgraph 27c52e0, on kernels and whole layers drawn
//! afresh (cases_f.py, seed 20261126; layers_f.py) and measured on the lent H100 after the
//! predictions were committed (predictions.json). No GPU: everything is read from the
//! committed measured.csv.
//!
//! Reads: kernels moving more than 1 MB (compulsory reads + writes), target ±15%. Times
//! (ncu's duration, no launch): kernels over 20 µs, target ±20%. Whole layers: the sum of the
//! layer's kernel times, target ±15%. Error = predicted / measured − 1. Compiled layers are
//! compared whole against `fgraph analyze --fuser inductor`; eager layers whole against the
//! model over fgraph's unfused plan (every op that is no layout op a kernel of its own), and
//! kernel by kernel by the fgraph op whose source line launched them (NVTX).
//!
//! `cargo test --test hw_heldout_f -- --ignored --nocapture print_batch_f` prints the table
//! and every miss.

use fgraph::cost::{self, Hardware, HwModel, LaunchMode, hwmodel};
use fgraph::fusion::flash;
use fgraph::fusion::preset::Fuser;
use fgraph::fusion::{FlashKernel, FusionGroup, FusionPlan};
use fgraph::graph::{Graph, OpId};
use fgraph::traffic::plan_traffic;
use fgraph::types::OpKind;
use fgraph::{Analysis, Options, check_file};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

const DIR: &str = "validation/gpu/h100-heldout-f";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------------------
// The measurement.

/// One kernel of measured.csv.
#[derive(Clone, Debug)]
struct Row {
    part: String,
    case: String,
    mode: String,
    ops: String,
    read: f64,
    time_us: f64,
    name: String,
}

fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let text =
            std::fs::read_to_string(root().join(DIR).join("measured.csv")).expect("measured.csv");
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("header").split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
        let (part, case, mode, ops, read, ns, name) = (
            col("part"),
            col("case"),
            col("mode"),
            col("ops"),
            col("dram_read"),
            col("duration_ns"),
            col("name"),
        );
        lines
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                assert_eq!(f.len(), header.len(), "{l}");
                Row {
                    part: f[part].into(),
                    case: f[case].into(),
                    mode: f[mode].into(),
                    ops: f[ops].into(),
                    read: f[read].parse().expect("dram_read"),
                    time_us: f[ns].parse::<f64>().expect("duration_ns") / 1e3,
                    name: f[name].into(),
                }
            })
            .collect()
    })
}

/// A single-kernel case of batch f: its ncu figures summed over the CUDA kernels of its
/// region (a GEMM's split-K reduction, cuDNN's second kernel).
#[derive(Clone, Debug)]
struct Case {
    case: String,
    /// `gemm` (2-D or batched), `lin3d` ([B, S, D]·[D, N]), `tf32`, `attention` (PyTorch's
    /// default backend), or the memory-bound op (`add`, `softmax`, `rmsnorm`, ...).
    family: String,
    dram_read: f64,
    time_us: f64,
    kernels: Vec<String>,
}

impl Case {
    fn graph(&self) -> PathBuf {
        root()
            .join(DIR)
            .join("graphs")
            .join(format!("{}.fgraph", self.case))
    }
    fn attention(&self) -> bool {
        self.family == "attention"
    }
    /// B, M (S), K, N from the case's name.
    fn dims(&self) -> Vec<u64> {
        self.case
            .rsplit('_')
            .next()
            .unwrap()
            .split('x')
            .map(|d| d.parse().unwrap())
            .collect()
    }
    /// The class the accuracy table reports it under. Every GEMM of batch f has K and N
    /// multiples of 8 elements (16 bytes: cuBLAS's aligned tensor-core kernels apply);
    /// `gemm-64` are those with K and N multiples of 64 (75% of the draws, as real models
    /// use), `gemm-8` the others; `gemm-unaligned` (K or N off 8) has no case here.
    fn class(&self) -> &'static str {
        match self.family.as_str() {
            "gemm" | "lin3d" => {
                let d = self.dims();
                if !(d[2].is_multiple_of(8) && d[3].is_multiple_of(8)) {
                    "gemm-unaligned"
                } else if d[2].is_multiple_of(64) && d[3].is_multiple_of(64) {
                    "gemm-64"
                } else {
                    "gemm-8"
                }
            }
            "tf32" => "tf32",
            "attention" => "attention",
            _ => "memory",
        }
    }
}

/// The held-out cases: 60 GEMMs, 6 TF32 matmuls, 20 memory-bound kernels, 10 attention.
fn heldout_cases() -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for r in rows().iter().filter(|r| r.part == "heldout") {
        match out.last_mut() {
            Some(c) if c.case == r.case => {
                c.dram_read += r.read;
                c.time_us += r.time_us;
                c.kernels.push(r.name.clone());
            }
            _ => {
                // `heldout_{index}_{family}_...`; attention: `..._attn_default_...`.
                let f: Vec<&str> = r.case.split('_').collect();
                let family = match f[2] {
                    "attn" => "attention",
                    other => other,
                };
                out.push(Case {
                    case: r.case.clone(),
                    family: family.into(),
                    dram_read: r.read,
                    time_us: r.time_us,
                    kernels: vec![r.name.clone()],
                });
            }
        }
    }
    out
}

const LAYERS: &[&str] = &["mistral_layer", "gpt2m_block", "phi2_block", "gemma_mlp"];

fn layer_path(layer: &str) -> PathBuf {
    root()
        .join(DIR)
        .join("layers")
        .join(format!("{layer}.fgraph"))
}

// ---------------------------------------------------------------------------------------
// fgraph's side (tests/hw_heldout.rs's, batch d).

fn analyse(path: &std::path::Path, flash_attention: bool, inductor: bool) -> Analysis {
    let bytes = std::fs::read(path).expect("graph file");
    let mut opts = Options {
        flash_attention,
        ..Options::default()
    };
    if inductor {
        let mut f = Fuser::Inductor.options();
        f.flash_attention = flash_attention;
        opts.set_fusion(f);
    }
    let report = check_file(&path.display().to_string(), &bytes, &opts);
    assert!(
        !report
            .diagnostics
            .iter()
            .any(|d| d.severity == fgraph::Severity::Error),
        "{}: {:?}",
        path.display(),
        report.diagnostics
    );
    report.graphs[0].analysis.clone().expect("analysis")
}

fn model() -> (HwModel, Hardware) {
    let hw = Hardware::preset("h100").expect("preset");
    (hw.model.clone().expect("the h100 preset is calibrated"), hw)
}

/// Predicted (hardware model: DRAM reads, kernel µs; compulsory: reads, roofline µs) and the
/// compulsory bytes moved, for every group of `plan`.
#[derive(Clone, Copy, Debug)]
struct Pred {
    read: f64,
    time_us: f64,
    comp_read: f64,
    comp_us: f64,
    moved: u64,
}

fn predict_plan(g: &Graph, plan: &FusionPlan) -> Vec<Pred> {
    predict_plan_with(g, plan, &model().0)
}

fn predict_plan_with(g: &Graph, plan: &FusionPlan, m: &HwModel) -> Vec<Pred> {
    let hw = model().1;
    let (traffic, _) = plan_traffic(g, plan).expect("traffic");
    traffic
        .iter()
        .enumerate()
        .map(|(k, tr)| {
            let ops = plan.groups[k].computed();
            let fl = plan.flash_kernel(k).map(|f| &f.pattern);
            let p = hwmodel::predict(m, g, &ops, tr, fl, &hw, 0.0);
            let est = cost::kernel_cost(g, &ops, tr, &hw, LaunchMode::Graph);
            Pred {
                read: p.dram_read as f64,
                time_us: p.kernel_s * 1e6,
                comp_read: tr.bytes_read as f64,
                comp_us: est.roofline_s() * 1e6,
                moved: tr.bytes_read + tr.bytes_written,
            }
        })
        .collect()
}

fn case_prediction(c: &Case) -> Pred {
    let a = analyse(&c.graph(), c.attention(), false);
    // An `is_causal` attention is what `--causal-attention` prices.
    let m = if c.case.ends_with("_causal") {
        model().0.with_causal_attention()
    } else {
        model().0
    };
    let p = predict_plan_with(&a.graph, &a.plan, &m);
    assert_eq!(p.len(), 1, "{}: one kernel", c.case);
    p[0]
}

fn op_id(g: &Graph, name: &str) -> Option<OpId> {
    g.ops
        .iter()
        .position(|o| o.name == name)
        .map(|i| OpId(i as u32))
}

/// A measured grouping as a fusion plan: `kernels[k]` are the ops of measured kernel `k` (an
/// op already in an earlier kernel is computed again: `recomputed`). Every other op (a view
/// in PyTorch, no kernel) joins the kernel of its consumers if they are all in one, else
/// stands alone in a kernel that was not measured (returned `false` in the second vector).
fn measured_plan(g: &Graph, kernels: &[Vec<OpId>]) -> (FusionPlan, Vec<bool>) {
    let mut group_of = vec![usize::MAX; g.ops.len()];
    let mut groups: Vec<FusionGroup> = Vec::new();
    let mut measured = Vec::new();
    for (k, ops) in kernels.iter().enumerate() {
        let mut grp = FusionGroup::of(Vec::new());
        for &o in ops {
            if group_of[o.index()] == usize::MAX {
                group_of[o.index()] = k;
                grp.ops.push(o);
            } else {
                grp.recomputed.push(o);
            }
        }
        grp.recomputed.sort();
        groups.push(grp);
        measured.push(true);
    }
    for &o in g.topo.iter().rev() {
        if group_of[o.index()] != usize::MAX {
            continue;
        }
        let out = g.op(o).output;
        let mut of: Vec<usize> = g
            .consumers(out)
            .iter()
            .map(|c| group_of[c.index()])
            .collect();
        of.sort();
        of.dedup();
        let k = match of[..] {
            [k] if k != usize::MAX && !g.is_output(out) => k,
            _ => {
                groups.push(FusionGroup::of(Vec::new()));
                measured.push(false);
                groups.len() - 1
            }
        };
        group_of[o.index()] = k;
        groups[k].ops.push(o);
    }
    let pos: Vec<usize> = {
        let mut p = vec![0; g.ops.len()];
        for (i, o) in g.topo.iter().enumerate() {
            p[o.index()] = i;
        }
        p
    };
    for grp in &mut groups {
        grp.ops.sort_by_key(|o| pos[o.index()]);
    }
    // A kernel that computes a whole attention pattern (cuDNN's, from Inductor's rewrite) is
    // that pattern's FlashAttention kernel.
    let flash = flash::detect(g)
        .into_iter()
        .filter_map(|p| {
            let k = group_of[p.qk.index()];
            (group_of[p.pv.index()] == k && measured[k]).then_some(FlashKernel {
                group: k,
                pattern: p,
                fused_edges: Vec::new(),
            })
        })
        .collect();
    (
        FusionPlan {
            groups,
            boundaries: Vec::new(),
            group_of,
            flash,
            epilogues: Vec::new(),
            recomputes: Vec::new(),
            horizontal: Vec::new(),
        },
        measured,
    )
}

/// One measured kernel of an eager layer (its CUDA kernels under one source line summed)
/// with both predictions.
#[derive(Clone, Debug)]
struct LayerKernel {
    ops: String,
    names: Vec<String>,
    read: f64,
    time_us: f64,
    /// None: its label is no op of the graph (nothing to compare).
    pred: Option<Pred>,
}

/// A layer run's measured total (sum of ncu durations).
fn measured_total(layer: &str, mode: &str) -> f64 {
    let t: Vec<f64> = rows()
        .iter()
        .filter(|r| r.part == "layers" && r.case == layer && r.mode == mode)
        .map(|r| r.time_us)
        .collect();
    assert!(!t.is_empty(), "{layer} {mode}: measured");
    t.iter().sum()
}

/// The kernels of one eager run, grouped by the fgraph op whose source line launched them,
/// priced over that measured grouping (batch d's `measured_plan`).
fn eager_kernels(layer: &str) -> Vec<LayerKernel> {
    let a = analyse(&layer_path(layer), false, false);
    let g = &a.graph;
    let mut ks: Vec<LayerKernel> = Vec::new();
    for r in rows()
        .iter()
        .filter(|r| r.part == "layers" && r.case == layer && r.mode == "eager")
    {
        match ks.last_mut() {
            Some(k) if k.ops == r.ops => {
                k.read += r.read;
                k.time_us += r.time_us;
                k.names.push(r.name.clone());
            }
            _ => ks.push(LayerKernel {
                ops: r.ops.clone(),
                names: vec![r.name.clone()],
                read: r.read,
                time_us: r.time_us,
                pred: None,
            }),
        }
    }
    let ids: Vec<Option<Vec<OpId>>> = ks
        .iter()
        .map(|k| {
            k.ops
                .split('+')
                .map(|n| op_id(g, n))
                .collect::<Option<Vec<_>>>()
        })
        .collect();
    let grouped: Vec<Vec<OpId>> = ids.iter().flatten().cloned().collect();
    let (plan, _) = measured_plan(g, &grouped);
    let preds = predict_plan(g, &plan);
    let mut next = 0;
    for (k, id) in ks.iter_mut().zip(&ids) {
        if id.is_some() {
            k.pred = Some(preds[next]);
            next += 1;
        }
    }
    ks
}

/// Layout ops: views in eager PyTorch (no kernel of their own).
fn is_layout(k: OpKind) -> bool {
    matches!(
        k,
        OpKind::Reshape | OpKind::Slice | OpKind::Permute | OpKind::Expand
    )
}

/// fgraph's unfused plan of a layer, as eager PyTorch would run it a priori: every op that is
/// not a layout op a kernel of its own, each layout op in its consumers' kernel (or, read by
/// several kernels, no kernel: a view). The model's predictions for its kernels.
fn eager_plan_prediction(layer: &str) -> Vec<Pred> {
    let a = analyse(&layer_path(layer), false, false);
    let g = &a.graph;
    let kernels: Vec<Vec<OpId>> = g
        .topo
        .iter()
        .filter(|&&o| !is_layout(g.op(o).kind))
        .map(|&o| vec![o])
        .collect();
    let (plan, measured) = measured_plan(g, &kernels);
    predict_plan(g, &plan)
        .into_iter()
        .zip(measured)
        .filter_map(|(p, m)| m.then_some(p))
        .collect()
}

/// The model over fgraph's `--fuser inductor` plan (what `analyze` reports).
fn compiled_prediction(layer: &str) -> Vec<Pred> {
    let a = analyse(&layer_path(layer), false, true);
    predict_plan(&a.graph, &a.plan)
}

// ---------------------------------------------------------------------------------------
// Accuracy.

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Stats {
    n: usize,
    median: f64,
    worst: f64,
    within: usize,
}

fn stats(errs: &[f64], tol: f64) -> Stats {
    let mut a: Vec<f64> = errs.iter().map(|e| e.abs()).collect();
    a.sort_by(f64::total_cmp);
    let n = a.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => a[n / 2],
        _ => (a[n / 2 - 1] + a[n / 2]) / 2.0,
    };
    let round = |v: f64| (v * 1e4).round() / 1e4;
    Stats {
        n,
        median: round(median),
        worst: round(a.last().copied().unwrap_or(0.0)),
        within: a.iter().filter(|&&e| e <= tol).count(),
    }
}

/// One comparison: what, the measured and predicted values (hardware, compulsory).
struct Point {
    key: String,
    label: String,
    measured: f64,
    hardware: f64,
    compulsory: f64,
}

fn tolerance(key: &str) -> f64 {
    if key.ends_with("reads") || key.ends_with("graph-time") {
        0.15
    } else {
        0.2
    }
}

fn accuracy_of(points: &[Point]) -> BTreeMap<String, Stats> {
    let mut e: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for p in points {
        for (model, v) in [("hardware", p.hardware), ("compulsory", p.compulsory)] {
            e.entry(format!("{model}/{}", p.key))
                .or_default()
                .push(v / p.measured - 1.0);
        }
    }
    e.into_iter()
        .map(|(k, v)| {
            let st = stats(&v, tolerance(&k));
            (k, st)
        })
        .collect()
}

fn points() -> Vec<Point> {
    let mut out = Vec::new();
    let mut push = |key: String, label: String, m: f64, h: f64, c: f64| {
        out.push(Point {
            key,
            label,
            measured: m,
            hardware: h,
            compulsory: c,
        })
    };
    for c in heldout_cases() {
        let p = case_prediction(&c);
        if p.moved > 1_000_000 {
            let key = format!("heldout/{}-reads", c.class());
            push(key, c.case.clone(), c.dram_read, p.read, p.comp_read);
        }
        if c.time_us > 20.0 {
            let key = format!("heldout/{}-time", c.class());
            push(key, c.case.clone(), c.time_us, p.time_us, p.comp_us);
        }
    }
    for layer in LAYERS {
        // Eager, kernel by kernel.
        for k in eager_kernels(layer) {
            let Some(p) = k.pred else { continue };
            let label = format!("{layer} eager [{}] {}", k.ops, k.names[0]);
            if p.moved > 1_000_000 {
                push(
                    "layers-eager/kernel-reads".into(),
                    label.clone(),
                    k.read,
                    p.read,
                    p.comp_read,
                );
            }
            if k.time_us > 20.0 {
                push(
                    "layers-eager/kernel-time".into(),
                    label,
                    k.time_us,
                    p.time_us,
                    p.comp_us,
                );
            }
        }
        // Whole layers.
        for (mode, p) in [
            ("compiled", compiled_prediction(layer)),
            ("eager", eager_plan_prediction(layer)),
        ] {
            push(
                format!("layers-{mode}/graph-time"),
                format!("{layer} {mode}"),
                measured_total(layer, mode),
                p.iter().map(|p| p.time_us).sum(),
                p.iter().map(|p| p.comp_us).sum(),
            );
        }
    }
    out
}

/// The pre-registered predictions (predictions.json, committed before the measurement)
/// against the measurement: the held-out cases and the compiled layers' totals. (The eager
/// layers were priced by this file through the library; src/ is unchanged since, so the
/// live figures are those.)
fn preregistered_points() -> Vec<Point> {
    let text = std::fs::read_to_string(root().join(DIR).join("predictions.json")).expect("json");
    let pred: Value = serde_json::from_str(&text).expect("predictions.json");
    let mut out = Vec::new();
    for c in heldout_cases() {
        let k = &pred["cases"][&c.case]["kernels"][0];
        let f = |n: &str| k[n].as_f64().expect(n);
        let moved = f("compulsory_read") + f("compulsory_written");
        if moved > 1e6 {
            out.push(Point {
                key: format!("heldout/{}-reads", c.class()),
                label: c.case.clone(),
                measured: c.dram_read,
                hardware: f("dram_read"),
                compulsory: f("compulsory_read"),
            });
        }
        if c.time_us > 20.0 {
            out.push(Point {
                key: format!("heldout/{}-time", c.class()),
                label: c.case.clone(),
                measured: c.time_us,
                hardware: f("kernel_us"),
                compulsory: f("roofline_us"),
            });
        }
    }
    for layer in LAYERS {
        let p = &pred["layers"][layer]["inductor"];
        out.push(Point {
            key: "layers-compiled/graph-time".into(),
            label: format!("{layer} compiled"),
            measured: measured_total(layer, "compiled"),
            hardware: p["kernel_us"].as_f64().unwrap(),
            compulsory: p["roofline_us"].as_f64().unwrap(),
        });
    }
    out
}

fn recorded() -> BTreeMap<String, Stats> {
    let text = std::fs::read_to_string(root().join(DIR).join("accuracy.json")).expect("json");
    serde_json::from_str(&text).expect("accuracy.json")
}

/// Every figure: the live model's (`hardware/…`, `compulsory/…`) and the pre-registered
/// predictions' (`preregistered-hardware/…`, `preregistered-compulsory/…`).
fn accuracy() -> BTreeMap<String, Stats> {
    let mut out = accuracy_of(&points());
    for (k, v) in accuracy_of(&preregistered_points()) {
        out.insert(format!("preregistered-{k}"), v);
    }
    out
}

// ---------------------------------------------------------------------------------------
// Tests.

#[test]
fn batch_f_is_complete_and_sound() {
    let held = heldout_cases();
    let count = |f: &dyn Fn(&Case) -> bool| held.iter().filter(|c| f(c)).count();
    assert_eq!(count(&|c| c.family == "gemm" || c.family == "lin3d"), 60);
    assert_eq!(count(&|c| c.family == "lin3d"), 8);
    assert_eq!(count(&|c| c.family == "gemm" && c.dims()[0] > 1), 12);
    assert_eq!(count(&|c| c.class() == "tf32"), 6);
    assert_eq!(count(&|c| c.class() == "memory"), 20);
    assert_eq!(count(&|c| c.class() == "attention"), 10);
    assert_eq!(count(&|c| c.class() == "gemm-unaligned"), 0);
    for c in &held {
        assert!(c.time_us > 0.0 && c.dram_read > 0.0, "{}", c.case);
        assert!(c.graph().exists(), "{}", c.case);
    }
    // Every layer was measured both ways, and every eager kernel carries an op's name.
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            assert!(measured_total(layer, mode) > 0.0);
        }
        let ks = eager_kernels(layer);
        assert!(
            ks.iter().all(|k| k.pred.is_some()),
            "{layer}: a kernel of no op"
        );
    }
}

#[test]
fn hardware_model_keeps_its_batch_f_accuracy() {
    let now = accuracy();
    let rec = recorded();
    assert_eq!(
        now.keys().collect::<Vec<_>>(),
        rec.keys().collect::<Vec<_>>(),
        "the same figures as accuracy.json"
    );
    for (k, r) in &rec {
        let n = &now[k];
        assert_eq!(n.n, r.n, "{k}: {n:?} vs recorded {r:?}");
        assert!(n.median <= r.median + 0.002, "{k}: {n:?} vs recorded {r:?}");
        assert!(n.worst <= r.worst + 0.002, "{k}: {n:?} vs recorded {r:?}");
        assert!(n.within >= r.within, "{k}: {n:?} vs recorded {r:?}");
    }
}

#[test]
fn hardware_model_beats_the_compulsory_model_on_time() {
    let now = accuracy();
    let mut n = 0;
    for (k, h) in now.iter().filter(|(k, _)| k.starts_with("hardware/")) {
        if !k.ends_with("-time") {
            continue;
        }
        let c = &now[&k.replace("hardware/", "compulsory/")];
        assert!(
            h.within >= c.within && h.median < c.median,
            "{k}: hardware {h:?} against compulsory {c:?}"
        );
        n += 1;
    }
    assert_eq!(n, 8, "every time figure");
}

#[test]
#[ignore = "prints batch f's accuracy table and every miss"]
fn print_batch_f() {
    let now = accuracy();
    println!("| figure | n | median | worst | within | compulsory: median | worst | within |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for pre in ["", "preregistered-"] {
        for (k, h) in now
            .iter()
            .filter(|(k, _)| k.starts_with(&format!("{pre}hardware/")))
        {
            let what = k.split_once('/').unwrap().1;
            let c = &now[&format!("{pre}compulsory/{what}")];
            println!(
                "| {}{what} | {} | {:.1}% | {:.1}% | {}/{} | {:.1}% | {:.1}% | {}/{} |",
                if pre.is_empty() {
                    ""
                } else {
                    "pre-registered "
                },
                h.n,
                h.median * 100.0,
                h.worst * 100.0,
                h.within,
                h.n,
                c.median * 100.0,
                c.worst * 100.0,
                c.within,
                c.n
            );
        }
    }
    println!("\nmisses of the live hardware model (predicted, measured, error):");
    for p in points() {
        let e = p.hardware / p.measured - 1.0;
        if e.abs() > tolerance(&p.key) {
            println!(
                "  {:28} {:80} {:>12.1} {:>12.1} {:+6.1}%",
                p.key,
                p.label,
                p.hardware,
                p.measured,
                e * 100.0
            );
        }
    }
    println!("\nevery case: case, kernels, reads MB (model), µs (model), first kernel");
    for c in heldout_cases() {
        let p = case_prediction(&c);
        println!(
            "  {:48} {} {:>9.1} ({:>9.1}) {:>9.1} ({:>9.1}) {}",
            c.case,
            c.kernels.len(),
            c.dram_read / 1e6,
            p.read / 1e6,
            c.time_us,
            p.time_us,
            &c.kernels[0][..c.kernels[0].len().min(60)]
        );
    }
}

#[test]
#[ignore = "writes validation/gpu/h100-heldout-f/accuracy.json from the live model"]
fn record_batch_f_accuracy() {
    let text = serde_json::to_string_pretty(&accuracy()).unwrap();
    std::fs::write(root().join(DIR).join("accuracy.json"), text + "\n").unwrap();
}

#[test]
#[ignore = "prints every kernel of batch f's eager layers with both models' predictions"]
fn print_batch_f_layers() {
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            let p = if mode == "compiled" {
                compiled_prediction(layer)
            } else {
                eager_plan_prediction(layer)
            };
            println!(
                "{layer} {mode}: measured {:.1} µs, model {:.1} µs over {} kernels",
                measured_total(layer, mode),
                p.iter().map(|p| p.time_us).sum::<f64>(),
                p.len()
            );
        }
        for k in eager_kernels(layer) {
            let (h, c) = k
                .pred
                .map_or((f64::NAN, f64::NAN), |p| (p.time_us, p.comp_us));
            println!(
                "  {:>8.1} µs  model {h:>8.1}  compulsory {c:>8.1}  [{}] {} kernel(s) {}",
                k.time_us,
                k.ops,
                k.names.len(),
                &k.names[0][..k.names[0].len().min(60)]
            );
        }
    }
}
