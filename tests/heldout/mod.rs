//! What tests/hw_heldout.rs (batch d, validation/gpu/h100-heldout-d) and
//! tests/hw_heldout_f.rs (batch f, validation/gpu/h100-heldout-f) share: reading a batch's
//! measured.csv (`Row`, `Case`), fgraph's side (`analyse`, the hardware and compulsory
//! predictions `Pred`, a measured grouping as a fusion plan, a layer's measured kernels),
//! and the accuracy figures (`Stats`, `Point`, the tolerances, the pre-registered
//! predictions, accuracy.json, the printed table and misses). Each batch's folder, layer
//! list and case classes are passed in; its tests and what differs stay in its file.

use fgraph::cost::{self, Hardware, HwModel, LaunchMode, hwmodel};
use fgraph::fusion::flash;
use fgraph::fusion::preset::Fuser;
use fgraph::fusion::{FlashKernel, FusionGroup, FusionPlan};
use fgraph::graph::{Graph, OpId};
use fgraph::traffic::plan_traffic;
use fgraph::{Analysis, Options, check_file};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------------------
// The measurement.

/// One kernel of measured.csv.
#[derive(Clone, Debug)]
pub struct Row {
    pub part: String,
    pub case: String,
    pub mode: String,
    pub plan_kernel: Option<usize>,
    pub ops: String,
    pub read: f64,
    pub time_us: f64,
    pub name: String,
}

/// The rows of `dir`/measured.csv.
pub fn read_rows(dir: &str) -> Vec<Row> {
    let text =
        std::fs::read_to_string(root().join(dir).join("measured.csv")).expect("measured.csv");
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

/// A single-kernel case: its ncu figures summed over the CUDA kernels of its region (a
/// GEMM's split-K reduction, cuDNN's second kernel). Each batch file adds `class()`.
#[derive(Clone, Debug)]
pub struct Case {
    pub case: String,
    /// `gemm` (batch f: 2-D or batched), `lin3d` (batch f: [B, S, D]·[D, N]), `tf32`,
    /// `attention` (PyTorch's default backend), `flash` (batch d: FlashAttention-2 forced),
    /// or the memory-bound op (`add`, `softmax`, `rmsnorm`, ...).
    pub family: String,
    pub dram_read: f64,
    pub time_us: f64,
    pub kernels: Vec<String>,
}

impl Case {
    /// Its graph: `dir`/graphs/CASE.fgraph.
    pub fn graph(&self, dir: &str) -> PathBuf {
        root()
            .join(dir)
            .join("graphs")
            .join(format!("{}.fgraph", self.case))
    }
    pub fn attention(&self) -> bool {
        self.family == "attention" || self.family == "flash"
    }
    /// B, M (S), K, N from the case's name.
    pub fn dims(&self) -> Vec<u64> {
        self.case
            .rsplit('_')
            .next()
            .unwrap()
            .split('x')
            .map(|d| d.parse().unwrap())
            .collect()
    }
}

/// The cases of `part` (`heldout`, batch d's `fit`), in measured.csv's order.
pub fn cases_of(rows: &[Row], part: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for r in rows.iter().filter(|r| r.part == part) {
        match out.last_mut() {
            Some(c) if c.case == r.case => {
                c.dram_read += r.read;
                c.time_us += r.time_us;
                c.kernels.push(r.name.clone());
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

/// A layer run's measured total (sum of ncu durations).
pub fn measured_total(rows: &[Row], layer: &str, mode: &str) -> f64 {
    let t: Vec<f64> = rows
        .iter()
        .filter(|r| r.part == "layers" && r.case == layer && r.mode == mode)
        .map(|r| r.time_us)
        .collect();
    assert!(!t.is_empty(), "{layer} {mode}: measured");
    t.iter().sum()
}

// ---------------------------------------------------------------------------------------
// fgraph's side.

pub fn analyse(path: &Path, flash_attention: bool, inductor: bool) -> Analysis {
    let bytes = std::fs::read(path).expect("graph file");
    let mut opts = Options {
        fusion: fgraph::fusion::FusionOptions {
            flash_attention,
            ..fgraph::fusion::FusionOptions::default()
        },
        ..Options::default()
    };
    if inductor {
        let mut f = Fuser::Inductor.options();
        f.flash_attention = flash_attention;
        opts.fusion = f;
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
pub struct Pred {
    pub read: f64,
    pub time_us: f64,
    pub comp_read: f64,
    pub comp_us: f64,
    pub moved: u64,
}

pub fn predict_plan(g: &Graph, plan: &FusionPlan) -> Vec<Pred> {
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

/// The model over fgraph's `--fuser inductor` plan of the graph at `path` (what `analyze`
/// reports: layout-only kernels are Inductor's generated copies).
pub fn compiled_prediction(path: &Path) -> Vec<Pred> {
    let a = analyse(path, false, true);
    let m = model().0.with_copy_kernel(cost::CopyKernel::Generated);
    predict_plan_with(&a.graph, &a.plan, &m)
}

/// The single kernel of case `c` (its graph under `dir`).
pub fn case_prediction(c: &Case, dir: &str) -> Pred {
    let a = analyse(&c.graph(dir), c.attention(), false);
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
pub fn measured_plan(g: &Graph, kernels: &[Vec<OpId>]) -> (FusionPlan, Vec<bool>) {
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
            stopped: None,
        },
        measured,
    )
}

/// One measured kernel of a layer (its CUDA kernels summed) with both predictions.
#[derive(Clone, Debug)]
pub struct LayerKernel {
    pub ops: String,
    pub names: Vec<String>,
    pub read: f64,
    pub time_us: f64,
    /// None: its label is no op of the graph (nothing to compare).
    pub pred: Option<Pred>,
}

/// The kernels of one layer run (`compiled`: grouped by Inductor's launch; `eager`: by the
/// fgraph op whose source line launched them), priced over that measured grouping of the
/// graph at `path`, and the run's measured total.
pub fn layer_kernels(
    rows: &[Row],
    path: &Path,
    layer: &str,
    mode: &str,
) -> (Vec<LayerKernel>, f64) {
    let rs: Vec<&Row> = rows
        .iter()
        .filter(|r| r.part == "layers" && r.case == layer && r.mode == mode)
        .collect();
    assert!(!rs.is_empty(), "{layer} {mode}: measured");
    let total: f64 = rs.iter().map(|r| r.time_us).sum();
    let a = analyse(path, false, false);
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
pub struct Stats {
    pub n: usize,
    pub median: f64,
    pub worst: f64,
    pub within: usize,
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
pub struct Point {
    pub key: String,
    pub label: String,
    pub measured: f64,
    pub hardware: f64,
    pub compulsory: f64,
}

impl Point {
    pub fn new(key: String, label: String, measured: f64, hardware: f64, compulsory: f64) -> Self {
        Point {
            key,
            label,
            measured,
            hardware,
            compulsory,
        }
    }
}

/// The live model's points of the held-out cases: reads of kernels moving more than 1 MB,
/// times of kernels over 20 µs, keyed `heldout/{class}-reads` and `heldout/{class}-time`.
pub fn case_points(cases: &[Case], dir: &str, class: fn(&Case) -> &'static str) -> Vec<Point> {
    let mut out = Vec::new();
    for c in cases {
        let p = case_prediction(c, dir);
        if p.moved > 1_000_000 {
            let key = format!("heldout/{}-reads", class(c));
            out.push(Point::new(
                key,
                c.case.clone(),
                c.dram_read,
                p.read,
                p.comp_read,
            ));
        }
        if c.time_us > 20.0 {
            let key = format!("heldout/{}-time", class(c));
            out.push(Point::new(
                key,
                c.case.clone(),
                c.time_us,
                p.time_us,
                p.comp_us,
            ));
        }
    }
    out
}

pub fn tolerance(key: &str) -> f64 {
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

/// The pre-registered predictions (`dir`/predictions.json, committed before the
/// measurement) against the measurement: the held-out cases and the compiled layers' totals.
pub fn preregistered_points(
    dir: &str,
    rows: &[Row],
    cases: &[Case],
    layers: &[&str],
    class: fn(&Case) -> &'static str,
) -> Vec<Point> {
    let text = std::fs::read_to_string(root().join(dir).join("predictions.json")).expect("json");
    let pred: Value = serde_json::from_str(&text).expect("predictions.json");
    let mut out = Vec::new();
    for c in cases {
        let k = &pred["cases"][&c.case]["kernels"][0];
        let f = |n: &str| k[n].as_f64().expect(n);
        let moved = f("compulsory_read") + f("compulsory_written");
        if moved > 1e6 {
            let key = format!("heldout/{}-reads", class(c));
            let (h, comp) = (f("dram_read"), f("compulsory_read"));
            out.push(Point::new(key, c.case.clone(), c.dram_read, h, comp));
        }
        if c.time_us > 20.0 {
            let key = format!("heldout/{}-time", class(c));
            let (h, comp) = (f("kernel_us"), f("roofline_us"));
            out.push(Point::new(key, c.case.clone(), c.time_us, h, comp));
        }
    }
    for layer in layers {
        let p = &pred["layers"][layer]["inductor"];
        out.push(Point {
            key: "layers-compiled/graph-time".into(),
            label: format!("{layer} compiled"),
            measured: measured_total(rows, layer, "compiled"),
            hardware: p["kernel_us"].as_f64().unwrap(),
            compulsory: p["roofline_us"].as_f64().unwrap(),
        });
    }
    out
}

/// Every figure: the live model's (`hardware/…`, `compulsory/…`) and the pre-registered
/// predictions' (`preregistered-hardware/…`, `preregistered-compulsory/…`).
pub fn accuracy(live: &[Point], preregistered: &[Point]) -> BTreeMap<String, Stats> {
    let mut out = accuracy_of(live);
    for (k, v) in accuracy_of(preregistered) {
        out.insert(format!("preregistered-{k}"), v);
    }
    out
}

/// `dir`/accuracy.json.
pub fn recorded(dir: &str) -> BTreeMap<String, Stats> {
    let text = std::fs::read_to_string(root().join(dir).join("accuracy.json")).expect("json");
    serde_json::from_str(&text).expect("accuracy.json")
}

/// Writes `dir`/accuracy.json.
pub fn record(dir: &str, accuracy: &BTreeMap<String, Stats>) {
    let text = serde_json::to_string_pretty(accuracy).unwrap();
    std::fs::write(root().join(dir).join("accuracy.json"), text + "\n").unwrap();
}

/// Asserts the live figures are the recorded ones, none worse.
pub fn assert_keeps(now: &BTreeMap<String, Stats>, rec: &BTreeMap<String, Stats>) {
    assert_eq!(
        now.keys().collect::<Vec<_>>(),
        rec.keys().collect::<Vec<_>>(),
        "the same figures as accuracy.json"
    );
    for (k, r) in rec {
        let n = &now[k];
        assert_eq!(n.n, r.n, "{k}: {n:?} vs recorded {r:?}");
        assert!(n.median <= r.median + 0.002, "{k}: {n:?} vs recorded {r:?}");
        assert!(n.worst <= r.worst + 0.002, "{k}: {n:?} vs recorded {r:?}");
        assert!(n.within >= r.within, "{k}: {n:?} vs recorded {r:?}");
    }
}

/// Prints the accuracy table, then every miss of the live hardware model (`points`), its
/// label padded to `label_width`.
pub fn print_table_and_misses(now: &BTreeMap<String, Stats>, points: &[Point], label_width: usize) {
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
    for p in points {
        let e = p.hardware / p.measured - 1.0;
        if e.abs() > tolerance(&p.key) {
            println!(
                "  {:28} {:label_width$} {:>12.1} {:>12.1} {:+6.1}%",
                p.key,
                p.label,
                p.hardware,
                p.measured,
                e * 100.0
            );
        }
    }
}
