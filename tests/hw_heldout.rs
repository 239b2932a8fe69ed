//! Held-out batch d (validation/gpu/h100-heldout-d, docs/VALIDATION.md §16): the hardware
//! model (`--traffic-model hardware`, src/cost/hwmodel/) against kernels and whole layers
//! that were drawn at random (cases.py, seed 20261125) and measured on the lent H100 after its
//! predictions were committed (predictions.json). No GPU: everything is read from the
//! committed measured.csv.
//!
//! Reads: kernels moving more than 1 MB (compulsory reads + writes), target ±15%. Times
//! (ncu's duration, no launch): kernels over 20 µs, target ±20%. Whole layers: the sum of the
//! layer's kernel times, target ±15%. Error = predicted / measured − 1.
//!
//! `cargo test --test hw_heldout -- --ignored --nocapture` prints the table and every miss.

use fgraph::cost::{self, Hardware, HwModel, LaunchMode, hwmodel};
use fgraph::fusion::flash;
use fgraph::fusion::preset::Fuser;
use fgraph::fusion::{FlashKernel, FusionGroup, FusionPlan};
use fgraph::graph::{Graph, OpId};
use fgraph::traffic::plan_traffic;
use fgraph::{Analysis, Options, check_file};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

const DIR: &str = "validation/gpu/h100-heldout-d";

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
    plan_kernel: Option<usize>,
    ops: String,
    read: f64,
    time_us: f64,
    name: String,
}

fn rows() -> Vec<Row> {
    let text =
        std::fs::read_to_string(root().join(DIR).join("measured.csv")).expect("measured.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (part, case, mode, plan, ops, read, ns, name) = (
        col("part"),
        col("case"),
        col("mode"),
        col("plan_kernel"),
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
                plan_kernel: f[plan].parse().ok(),
                ops: f[ops].into(),
                read: f[read].parse().expect("dram_read"),
                time_us: f[ns].parse::<f64>().expect("duration_ns") / 1e3,
                name: f[name].into(),
            }
        })
        .collect()
}

/// A single-kernel case of batch d (part `heldout` or `fit`): its ncu figures summed over the
/// CUDA kernels of its region (a GEMM's split-K reduction, cuDNN's second kernel).
#[derive(Clone, Debug)]
pub struct Case {
    pub part: String,
    pub case: String,
    /// `gemm`, `tf32`, `attention` (PyTorch's default backend), `flash` (FlashAttention-2
    /// forced), or the memory-bound op (`add`, `softmax`, `rmsnorm`, ...).
    pub family: String,
    pub dram_read: f64,
    pub time_us: f64,
    pub kernels: Vec<String>,
}

impl Case {
    fn graph(&self) -> PathBuf {
        root()
            .join(DIR)
            .join("graphs")
            .join(format!("{}.fgraph", self.case))
    }
    fn attention(&self) -> bool {
        self.family == "attention" || self.family == "flash"
    }
    /// A GEMM whose row lengths (K of A, N of B and C, all row-major) are multiples of 8
    /// elements (16 bytes): cuBLAS's tensor-core kernels need that alignment; 21 of the 50
    /// random shapes lack it.
    fn aligned(&self) -> bool {
        let dims: Vec<u64> = self
            .case
            .rsplit('_')
            .next()
            .unwrap()
            .split('x')
            .map(|d| d.parse().unwrap())
            .collect();
        dims[2].is_multiple_of(8) && dims[3].is_multiple_of(8)
    }
    /// The class the accuracy table reports it under.
    fn class(&self) -> &'static str {
        match self.family.as_str() {
            "gemm" | "tf32" if !self.aligned() => "gemm-unaligned",
            "gemm" | "tf32" => "gemm",
            "attention" | "flash" => "attention",
            _ => "memory",
        }
    }
}

fn cases_of(part: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for r in rows().into_iter().filter(|r| r.part == part) {
        match out.last_mut() {
            Some(c) if c.case == r.case => {
                c.dram_read += r.read;
                c.time_us += r.time_us;
                c.kernels.push(r.name);
            }
            _ => {
                // `{part}_{index}_{family}_...`; attention: `..._attn_{backend}_...`.
                let f: Vec<&str> = r.case.split('_').collect();
                let family = match f[2] {
                    "attn" if f[3] == "flash" => "flash",
                    "attn" => "attention",
                    other => other,
                };
                out.push(Case {
                    part: r.part.clone(),
                    case: r.case.clone(),
                    family: family.into(),
                    dram_read: r.read,
                    time_us: r.time_us,
                    kernels: vec![r.name],
                });
            }
        }
    }
    out
}

/// The held-out cases: 50 GEMMs, 25 memory-bound kernels, 8 attention kernels.
fn heldout_cases() -> Vec<Case> {
    cases_of("heldout")
}

/// The cases taken for fitting new terms, not scored as held-out: 8 TF32 matmuls, 12
/// LayerNorm/RMSNorm, 8 softmaxes over rows of 16k–256k, 8 FlashAttention-2 kernels
/// (`sdpa_kernel(FLASH_ATTENTION)`). Each case's graph is `graphs/CASE.fgraph`.
pub fn fit_cases() -> Vec<Case> {
    cases_of("fit")
}

const LAYERS: &[&str] = &[
    "qwen_layer",
    "vit_block",
    "bert_layer",
    "llama_decode",
    "moe_dense",
    "t5_layer",
    "ce_head",
];

// ---------------------------------------------------------------------------------------
// fgraph's side.

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

/// One measured kernel of a layer (its CUDA kernels summed) with both predictions.
#[derive(Clone, Debug)]
struct LayerKernel {
    ops: String,
    names: Vec<String>,
    read: f64,
    time_us: f64,
    /// None: its label is no op of the graph (nothing to compare).
    pred: Option<Pred>,
}

/// The kernels of one layer run (`compiled`: grouped by Inductor's launch; `eager`: by the
/// fgraph op whose source line launched them), and the run's measured total.
fn layer_kernels(layer: &str, mode: &str) -> (Vec<LayerKernel>, f64) {
    let rs: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.part == "layers" && r.case == layer && r.mode == mode)
        .collect();
    assert!(!rs.is_empty(), "{layer} {mode}: measured");
    let total: f64 = rs.iter().map(|r| r.time_us).sum();
    let path = root()
        .join("validation/inductor/heldout")
        .join(format!("{layer}.fgraph"));
    let a = analyse(&path, false, false);
    let g = &a.graph;
    // Measured kernels: consecutive rows of one plan kernel (compiled) or one label (eager).
    let mut ks: Vec<LayerKernel> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for r in &rs {
        let key = match r.plan_kernel {
            Some(p) => format!("{p}"),
            None => r.ops.clone(),
        };
        if keys.last() == Some(&key) {
            let k = ks.last_mut().unwrap();
            k.read += r.read;
            k.time_us += r.time_us;
            k.names.push(r.name.clone());
        } else {
            keys.push(key);
            ks.push(LayerKernel {
                ops: r.ops.clone(),
                names: vec![r.name.clone()],
                read: r.read,
                time_us: r.time_us,
                pred: None,
            });
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
    (ks, total)
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
        for mode in ["compiled", "eager"] {
            let (ks, total) = layer_kernels(layer, mode);
            let (mut h, mut c) = (0.0, 0.0);
            for k in &ks {
                let Some(p) = k.pred else { continue };
                h += p.time_us;
                c += p.comp_us;
                let label = format!("{layer} {mode} [{}] {}", k.ops, k.names[0]);
                if p.moved > 1_000_000 {
                    let key = format!("layers-{mode}/kernel-reads");

                    push(key, label.clone(), k.read, p.read, p.comp_read);
                }
                if k.time_us > 20.0 {
                    let key = format!("layers-{mode}/kernel-time");
                    push(key, label, k.time_us, p.time_us, p.comp_us);
                }
            }
            // The whole layer: the model over the kernels that ran (eager), or over
            // fgraph's own `--fuser inductor` plan (compiled; what `analyze` reports).
            if mode == "compiled" {
                let path = root()
                    .join("validation/inductor/heldout")
                    .join(format!("{layer}.fgraph"));
                let a = analyse(&path, false, true);
                let p = predict_plan(&a.graph, &a.plan);
                h = p.iter().map(|p| p.time_us).sum();
                c = p.iter().map(|p| p.comp_us).sum();
            }
            push(
                format!("layers-{mode}/graph-time"),
                format!("{layer} {mode}"),
                total,
                h,
                c,
            );
        }
    }
    out
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

/// The pre-registered predictions (predictions.json, committed before the measurement)
/// against the measurement: the held-out cases and the compiled layers' totals.
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
        let (_, total) = layer_kernels(layer, "compiled");
        let p = &pred["layers"][layer]["inductor"];
        out.push(Point {
            key: "layers-compiled/graph-time".into(),
            label: format!("{layer} compiled"),
            measured: total,
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
fn batch_d_is_complete_and_sound() {
    let held = heldout_cases();
    let fit = fit_cases();
    let count = |f: &dyn Fn(&Case) -> bool| held.iter().filter(|c| f(c)).count();
    assert_eq!(count(&|c| c.class().starts_with("gemm")), 50);
    assert_eq!(count(&|c| c.class() == "memory"), 25);
    assert_eq!(count(&|c| c.class() == "attention"), 8);
    assert_eq!(fit.len(), 36);
    for c in held.iter().chain(&fit) {
        assert!(c.time_us > 0.0 && c.dram_read > 0.0, "{}", c.case);
        assert!(c.graph().exists(), "{}", c.case);
    }
    // Every layer was measured both ways, and almost every eager kernel carries an op's name.
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            let (ks, total) = layer_kernels(layer, mode);
            assert!(total > 0.0);
            let unnamed = ks.iter().filter(|k| k.pred.is_none()).count();
            assert!(unnamed <= 1, "{layer} {mode}: {unnamed} kernels of no op");
        }
    }
}

#[test]
fn hardware_model_keeps_its_batch_d_accuracy() {
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
    for what in [
        "heldout/gemm-time",
        "heldout/gemm-unaligned-time",
        "heldout/memory-time",
        "heldout/attention-time",
        "layers-compiled/kernel-time",
        "layers-eager/kernel-time",
        "layers-compiled/graph-time",
        "layers-eager/graph-time",
    ] {
        let (h, c) = (
            &now[&format!("hardware/{what}")],
            &now[&format!("compulsory/{what}")],
        );
        assert!(
            h.within >= c.within && h.median < c.median,
            "{what}: hardware {h:?} against compulsory {c:?}"
        );
    }
}

#[test]
#[ignore = "prints batch d's accuracy table and every miss"]
fn print_batch_d() {
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
                "  {:28} {:70} {:>12.1} {:>12.1} {:+6.1}%",
                p.key,
                p.label,
                p.hardware,
                p.measured,
                e * 100.0
            );
        }
    }
    println!("\nfit cases (not scored): case, kernels, reads MB, µs, model µs");
    for c in fit_cases() {
        let p = case_prediction(&c);
        println!(
            "  {:48} {} {:>9.1} {:>9.1} {:>9.1}",
            c.case,
            c.kernels.len(),
            c.dram_read / 1e6,
            c.time_us,
            p.time_us
        );
    }
}

#[test]
#[ignore = "writes validation/gpu/h100-heldout-d/accuracy.json from the live model"]
fn record_batch_d_accuracy() {
    let text = serde_json::to_string_pretty(&accuracy()).unwrap();
    std::fs::write(root().join(DIR).join("accuracy.json"), text + "\n").unwrap();
}

#[test]
#[ignore = "prints every kernel of batch d's layers with both models' predictions"]
fn print_batch_d_layers() {
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            let (ks, total) = layer_kernels(layer, mode);
            println!("{layer} {mode}: measured {total:.1} µs");
            for k in &ks {
                let (h, c) = k
                    .pred
                    .map_or((f64::NAN, f64::NAN), |p| (p.time_us, p.comp_us));
                println!(
                    "  {:>8.1} µs  model {h:>8.1}  compulsory {c:>8.1}  [{}] {}",
                    k.time_us,
                    k.ops,
                    &k.names[0][..k.names[0].len().min(60)]
                );
            }
        }
    }
}
