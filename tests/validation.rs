//! fgraph's predictions against kernels measured on an H100 (docs/VALIDATION.md).
//!
//! `validation/measured.csv` holds the DRAM bytes read and written and the duration of every
//! kernel that Nsight Compute recorded for the cases of `validation/*.fgraph`, in three
//! execution modes: PyTorch eager (one kernel per op), torch.compile (Inductor's default)
//! and max-autotune, plus FlashAttention backends. Its `ops` column names the fgraph ops each
//! kernel executes, so every run is a partition of the graph's ops into kernels. The tests
//! run fgraph on each graph and check, with the tolerances argued in docs/VALIDATION.md:
//!
//! - eager runs exactly fgraph's unfused plan, kernel for kernel (views excepted);
//! - fgraph's byte accounting, applied to whatever grouping really ran, gives the DRAM bytes
//!   that elementwise and reduction kernels read (within 1%), a lower bound for matmuls, and
//!   an upper bound for writes whose shortfall fits in L2;
//! - with a warm L2 (`cache=none`) the writes of a whole run add up to the prediction;
//! - fgraph's fused plan differs from Inductor's kernels only where the doc says why;
//! - the cost model's roofline time brackets the measured kernel times as documented.
//!
//! No GPU is needed: the measurements are recorded data. `cargo test --test validation --
//! --ignored --nocapture` prints the tables of docs/VALIDATION.md.

use fgraph::cost::{self, Hardware, LaunchMode};
use fgraph::fusion::{FlashKernel, FusionGroup, FusionPlan, unfused};
use fgraph::graph::{Graph, OpId};
use fgraph::traffic::{GroupTraffic, plan_traffic};
use fgraph::{Analysis, OpKind, Options, Reason, check_file};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// H100 L2: 50 MiB. A kernel's dirty lines that are still in L2 when it ends are written
/// back after it, outside its measurement: the most a kernel can under-report.
const L2_BYTES: u64 = 50 * 1024 * 1024;

/// Per-kernel DRAM traffic that is no tensor: kernel parameters, descriptors, bursts. A fill
/// kernel that reads no tensor shows 4,096 B read; a reduction writing 131,072 B of bool shows
/// 166,656 B written. 64 KiB covers both with room and is < 0.1% of every other tensor here.
const SLACK: u64 = 64 * 1024;

/// Ops that PyTorch runs as views (no kernel, no bytes): in no eager kernel. Each joins the
/// kernel of the op that produces its input.
const VIEWS: &[(&str, &str)] = &[("transformer", "split_heads")];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------------------
// The recorded measurements.

#[derive(Clone, Debug)]
struct Kernel {
    batch: String,
    case: String,
    mode: String,
    cache: String,
    graph: String,
    ops: Vec<String>,
    name: String,
    read: u64,
    write: u64,
    time_ns: u64,
}

/// One profiled region: a case in one mode under one cache policy.
#[derive(Clone, Debug)]
struct Run {
    case: String,
    mode: String,
    cache: String,
    graph: String,
    kernels: Vec<Kernel>,
}

impl Run {
    fn label(&self) -> String {
        format!("{} {} cache={}", self.case, self.mode, self.cache)
    }
    /// The FlashAttention runs are fgraph's plan under `--flash-attention`.
    fn flash(&self) -> bool {
        self.case == "attention_flash"
    }
    fn compiled(&self) -> bool {
        self.mode.starts_with("compiled")
    }
}

fn measured() -> Vec<Run> {
    let path = root().join("validation/measured.csv");
    let text = std::fs::read_to_string(&path).expect("validation/measured.csv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (batch, case, mode, cache, graph, kernel, ops, name, read, write, time) = (
        col("batch"),
        col("case"),
        col("mode"),
        col("cache"),
        col("graph"),
        col("kernel"),
        col("ops"),
        col("name"),
        col("dram_read_bytes"),
        col("dram_write_bytes"),
        col("time_ns"),
    );
    let mut runs: Vec<Run> = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), header.len(), "{line}");
        let k = Kernel {
            batch: f[batch].into(),
            case: f[case].into(),
            mode: f[mode].into(),
            cache: f[cache].into(),
            graph: f[graph].into(),
            ops: f[ops].split('+').map(String::from).collect(),
            name: f[name].into(),
            read: f[read].parse().expect("read"),
            write: f[write].parse().expect("write"),
            time_ns: f[time].parse().expect("time"),
        };
        let index: usize = f[kernel].parse().expect("kernel");
        match runs.last_mut() {
            Some(r) if r.case == k.case && r.mode == k.mode && r.cache == k.cache => {
                assert_eq!(index, r.kernels.len(), "{line}");
                r.kernels.push(k);
            }
            _ => {
                assert_eq!(index, 0, "{line}");
                runs.push(Run {
                    case: k.case.clone(),
                    mode: k.mode.clone(),
                    cache: k.cache.clone(),
                    graph: k.graph.clone(),
                    kernels: vec![k],
                });
            }
        }
    }
    runs
}

// ---------------------------------------------------------------------------------------
// fgraph's side.

fn analyse(graph: &str, flash_attention: bool) -> Analysis {
    let path = root().join("validation").join(format!("{graph}.fgraph"));
    let bytes = std::fs::read(&path).expect("graph file");
    let opts = Options {
        fusion: fgraph::fusion::FusionOptions {
            flash_attention,
            ..fgraph::fusion::FusionOptions::default()
        },
        ..Options::default()
    };
    let report = check_file(&path.display().to_string(), &bytes, &opts);
    assert!(
        report.diagnostics.is_empty(),
        "{graph}: {:?}",
        report.diagnostics
    );
    report.graphs[0].analysis.clone().expect("analysis")
}

fn op_id(g: &Graph, name: &str) -> OpId {
    let i = g.ops.iter().position(|o| o.name == name);
    OpId(i.unwrap_or_else(|| panic!("{}: no op `{name}`", g.name)) as u32)
}

fn has_matmul(g: &Graph, ops: &[OpId]) -> bool {
    ops.iter().any(|&o| g.op(o).kind == OpKind::Matmul)
}

/// The grouping that really ran, as a fusion plan: kernel `k` of the run is group `k`.
/// Every op must be in exactly one kernel, except the views of [`VIEWS`], which join the
/// kernel that produces their input. A run kernel made of exactly the ops of one of
/// `fgraph_plan`'s FlashAttention kernels is that FlashAttention kernel.
fn run_plan(g: &Graph, run: &Run, fgraph_plan: &FusionPlan) -> FusionPlan {
    let mut group_of = vec![usize::MAX; g.ops.len()];
    let mut groups: Vec<FusionGroup> = Vec::new();
    for (k, kernel) in run.kernels.iter().enumerate() {
        let mut ops = Vec::new();
        for name in &kernel.ops {
            let o = op_id(g, name);
            assert_eq!(
                group_of[o.index()],
                usize::MAX,
                "{}: `{name}` is in two kernels",
                run.label()
            );
            group_of[o.index()] = k;
            ops.push(o);
        }
        groups.push(FusionGroup::of(ops));
    }
    for &o in &g.topo {
        if group_of[o.index()] != usize::MAX {
            continue;
        }
        let name = &g.op(o).name;
        assert!(
            VIEWS.contains(&(run.case.as_str(), name.as_str())),
            "{}: op `{name}` is in no kernel and is no view",
            run.label()
        );
        let input = g.op(o).inputs[0].tensor;
        let p = g.producer(input).expect("a view of a produced tensor");
        let k = group_of[p.index()];
        group_of[o.index()] = k;
        groups[k].ops.push(o);
    }
    for grp in &mut groups {
        grp.ops.sort_by_key(|o| g.topo.iter().position(|t| t == o));
    }
    let flash = fgraph_plan
        .flash
        .iter()
        .filter_map(|f| {
            let mut ops = fgraph_plan.groups[f.group].ops.clone();
            ops.sort_by_key(|o| g.topo.iter().position(|t| t == o));
            let group = groups.iter().position(|grp| grp.ops == ops)?;
            Some(FlashKernel { group, ..f.clone() })
        })
        .collect();
    FusionPlan {
        groups,
        boundaries: Vec::new(),
        group_of,
        flash,
        epilogues: Vec::new(),
        recomputes: Vec::new(),
        horizontal: Vec::new(),
        stopped: None,
    }
}

/// A run with fgraph's prediction for each of its kernels.
struct Compared {
    run: Run,
    a: Analysis,
    plan: FusionPlan,
    predicted: Vec<GroupTraffic>,
}

fn compared() -> Vec<Compared> {
    measured()
        .into_iter()
        .map(|run| {
            let a = analyse(&run.graph, run.flash());
            let plan = run_plan(&a.graph, &run, &a.plan);
            let (predicted, _) = plan_traffic(&a.graph, &plan).expect("traffic");
            Compared {
                run,
                a,
                plan,
                predicted,
            }
        })
        .collect()
}

fn ratio(m: u64, p: u64) -> f64 {
    m as f64 / p as f64
}

/// Which eager LayerNorm kernels re-read their input: PyTorch's `vectorized_layer_norm_kernel`
/// passes over each row twice (statistics, then normalisation); when the tensor is larger
/// than L2, a few percent of the second pass misses L2.
fn eager_layernorm_over_l2(g: &Graph, k: &Kernel, p: &GroupTraffic) -> bool {
    k.name.contains("layer_norm_kernel") && k.mode == "eager" && {
        let o = op_id(g, &k.ops[0]);
        g.op(o).func.as_deref() == Some("layernorm") && p.bytes_read > L2_BYTES
    }
}

// ---------------------------------------------------------------------------------------
// The graphs and the mapping.

#[test]
fn every_case_checks_clean_and_every_graph_is_measured() {
    let runs = measured();
    let measured_graphs: BTreeSet<&str> = runs.iter().map(|r| r.graph.as_str()).collect();
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("validation")).expect("validation/") {
        let p = entry.expect("entry").path();
        if p.extension().is_some_and(|e| e == "fgraph") {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            // Diagnostics-free (warnings included) with and without --flash-attention.
            analyse(&stem, false);
            analyse(&stem, true);
            files.insert(stem);
        }
    }
    let measured_graphs: BTreeSet<String> = measured_graphs.into_iter().map(String::from).collect();
    assert_eq!(files, measured_graphs);
    // Both batches and every mode are there: 20 regions in batch 1, 10 in batch 2.
    let regions = |b: &str| runs.iter().filter(|r| r.kernels[0].batch == b).count();
    assert_eq!((regions("h100-batch1"), regions("h100-batch2")), (20, 10));
}

#[test]
fn eager_runs_one_kernel_per_op_which_is_the_unfused_plan() {
    for c in compared() {
        if c.run.mode != "eager" || c.run.flash() {
            continue;
        }
        let g = &c.a.graph;
        let views = VIEWS.iter().filter(|(case, _)| *case == c.run.case).count();
        // One kernel per op, minus the ops PyTorch runs as views.
        assert_eq!(
            c.run.kernels.len(),
            g.ops.len() - views,
            "{}",
            c.run.label()
        );
        assert!(c.run.kernels.iter().all(|k| k.ops.len() == 1));
        // In fgraph's topological order (Kahn's, ties by source position).
        let position = |k: &Kernel| g.topo.iter().position(|&o| o == op_id(g, &k.ops[0]));
        let order: Vec<_> = c.run.kernels.iter().map(position).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", c.run.label());
        // And each kernel moves what fgraph's unfused plan says that op moves: the run's
        // plan and the unfused plan agree op for op (a view adds no bytes to its kernel).
        let alone = unfused(g);
        let (per_op, unfused_total) = plan_traffic(g, &alone).expect("traffic");
        let mut sum = (0, 0);
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let o = op_id(g, &kernel.ops[0]);
            let u = &per_op[alone.group_of[o.index()]];
            assert_eq!(
                (u.bytes_read, u.bytes_written),
                (c.predicted[k].bytes_read, c.predicted[k].bytes_written),
                "{} {}",
                c.run.label(),
                kernel.ops[0]
            );
            sum.0 += u.bytes_read;
            sum.1 += u.bytes_written;
        }
        // fgraph's unfused totals are the eager kernels' plus the views' (a view is a kernel
        // in fgraph's unfused plan).
        assert_eq!(c.a.traffic.unfused, unfused_total);
        if views == 0 {
            assert_eq!(
                (sum.0, sum.1),
                (unfused_total.bytes_read, unfused_total.bytes_written)
            );
        } else {
            assert!(sum.0 < unfused_total.bytes_read && sum.1 < unfused_total.bytes_written);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Bytes, kernel by kernel, under the grouping that ran (cache=all: every kernel starts with
// an empty L2, so each reads its inputs from DRAM).

#[test]
fn elementwise_and_reduction_kernels_read_what_fgraph_predicts() {
    let mut checked = 0;
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        let g = &c.a.graph;
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let p = &c.predicted[k];
            if has_matmul(g, &c.plan.groups[k].ops) {
                continue;
            }
            let what = format!("{} kernel {k} ({})", c.run.label(), kernel.ops.join("+"));
            if eager_layernorm_over_l2(g, kernel, p) {
                // Documented exception: the second pass over rows re-reads 8-10% from DRAM.
                assert!(
                    kernel.read >= p.bytes_read && kernel.read <= p.bytes_read * 110 / 100,
                    "{what}: {} against {}",
                    kernel.read,
                    p.bytes_read
                );
            } else {
                // Within 1% (+ SLACK for non-tensor traffic); the largest deviation measured
                // is 0.05%.
                let diff = kernel.read.abs_diff(p.bytes_read);
                assert!(
                    diff <= p.bytes_read / 100 + SLACK,
                    "{what}: measured {} B, predicted {} B",
                    kernel.read,
                    p.bytes_read
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 51);
}

#[test]
fn matmul_kernels_read_at_least_their_operands() {
    let mut checked = 0;
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        let g = &c.a.graph;
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let ops = &c.plan.groups[k].ops;
            if !has_matmul(g, ops) {
                continue;
            }
            let p = c.predicted[k].bytes_read;
            let what = format!("{} kernel {k} ({})", c.run.label(), kernel.ops.join("+"));
            // fgraph counts each operand once: a lower bound, since a tiled matmul re-reads
            // operand panels that L2 could not keep.
            assert!(kernel.read + SLACK >= p, "{what}: {} < {p}", kernel.read);
            // Batched (per-head) products have per-head operands of 1-2 MiB (Q, K, V slices),
            // and their re-reads hit L2: within 6% (FlashAttention-2's K/V re-reads: 5.4%).
            let batched = ops.iter().any(|&o| {
                g.op(o).kind == OpKind::Matmul && g.tensor(g.op(o).output).shape.len() >= 3
            });
            if batched {
                assert!(
                    kernel.read <= p * 106 / 100,
                    "{what}: {} against {p}",
                    kernel.read
                );
            } else {
                // 2-D GEMMs whose operands do not fit in L2 re-read them: 1.1-3.6x measured.
                assert!(ratio(kernel.read, p) < 4.0, "{what}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 36);
}

#[test]
fn writes_fall_short_of_the_prediction_by_at_most_l2() {
    let mut checked = 0;
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let p = c.predicted[k].bytes_written;
            let what = format!("{} kernel {k} ({})", c.run.label(), kernel.ops.join("+"));
            if c.run.mode == "flash" {
                // FlashAttention-2 also writes its softmax statistics (the log-sum-exp,
                // [32, 4096] f32 = 524,288 B), which the graph does not have, and 1.2 MB more
                // that the compulsory model does not explain: 5% over o, documented.
                assert!(ratio(kernel.write, p) < 1.06, "{what}");
            } else {
                // A kernel cannot write back more than it produces...
                assert!(
                    kernel.write <= p + p / 100 + SLACK,
                    "{what}: {} > {p}",
                    kernel.write
                );
            }
            // ...and what it has not written back when it ends is still dirty in L2.
            assert!(
                p.saturating_sub(kernel.write) <= L2_BYTES,
                "{what}: {} against {p}",
                kernel.write
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 87);
}

#[test]
fn with_a_warm_l2_the_writes_of_a_run_add_up_to_the_prediction() {
    // cache=none: L2 is not flushed between kernels, so the lines one kernel leaves dirty are
    // written back (and counted) during the next ones. Over a run the deferred write-backs
    // cancel, up to what is dirty in L2 at its start (the previous call's, counted here) and
    // at its end (not counted): the totals differ by at most one L2. Measured: -2.0% to +1.2%.
    let mut checked = 0;
    for c in compared() {
        if c.run.cache != "none" {
            continue;
        }
        let m: u64 = c.run.kernels.iter().map(|k| k.write).sum();
        let p: u64 = c.predicted.iter().map(|t| t.bytes_written).sum();
        assert!(
            m.abs_diff(p) <= L2_BYTES,
            "{}: {m} against {p}",
            c.run.label()
        );
        assert!(
            m.abs_diff(p) <= p / 40,
            "{}: {m} against {p}",
            c.run.label()
        );
        checked += 1;
    }
    assert_eq!(checked, 6);
}

// ---------------------------------------------------------------------------------------
// fgraph's fused plan against the kernels Inductor generated.

/// (case, mode, fgraph's kernels, Inductor's kernels): the counts docs/VALIDATION.md
/// tabulates. Where they differ, `fused_plan_differs_from_inductor_only_where_documented`
/// checks the reason.
const KERNEL_COUNTS: &[(&str, &str, usize, usize)] = &[
    ("seed_mlp", "compiled", 2, 3),
    ("seed_mlp", "compiled_max", 2, 2),
    ("ln_gelu", "compiled", 2, 1),
    ("add_gelu", "compiled", 1, 1),
    ("ew_chain", "compiled", 1, 1),
    ("softmax_dropout_free", "compiled", 2, 1),
    ("attention", "compiled", 3, 3),
    ("transformer", "compiled", 9, 11),
    ("swiglu", "compiled", 3, 4),
    ("swiglu", "compiled_max", 3, 4),
    ("res_ln_gelu", "compiled", 2, 1),
    ("attention_flash", "eager", 1, 1),
    ("attention_flash", "flash", 1, 1),
    ("attention_flash", "cudnn", 1, 1),
];

fn fused_runs() -> Vec<Compared> {
    compared()
        .into_iter()
        .filter(|c| c.run.cache == "all" && (c.run.compiled() || c.run.flash()))
        .collect()
}

#[test]
fn fused_kernel_counts() {
    let runs = fused_runs();
    assert_eq!(runs.len(), KERNEL_COUNTS.len());
    for c in &runs {
        let want = KERNEL_COUNTS
            .iter()
            .find(|(case, mode, ..)| *case == c.run.case && *mode == c.run.mode)
            .unwrap_or_else(|| panic!("{} is not tabulated", c.run.label()));
        assert_eq!(
            (c.a.plan.groups.len(), c.run.kernels.len()),
            (want.2, want.3),
            "{}",
            c.run.label()
        );
    }
}

/// Whether two plans group the ops of `g` the same way.
fn same_partition(g: &Graph, a: &FusionPlan, b: &FusionPlan) -> bool {
    (0..g.ops.len()).all(|i| {
        (0..g.ops.len())
            .all(|j| (a.group_of[i] == a.group_of[j]) == (b.group_of[i] == b.group_of[j]))
    })
}

#[test]
fn fused_plan_differs_from_inductor_only_where_documented() {
    for c in fused_runs() {
        let g = &c.a.graph;
        let ours = &c.a.plan;
        let theirs = &c.plan;
        for (i, op) in g.ops.iter().enumerate() {
            let o = OpId(i as u32);
            for input in &op.inputs {
                let Some(p) = g.producer(input.tensor) else {
                    continue;
                };
                let we = ours.group_of[p.index()] == ours.group_of[o.index()];
                let they = theirs.group_of[p.index()] == theirs.group_of[o.index()];
                let edge = format!("{}: {} -> {}", c.run.label(), g.op(p).name, op.name);
                if they && !we {
                    // Inductor fuses across a reduction where fgraph cuts: an elementwise
                    // epilogue into a row reduction (softmax, LayerNorm; fgraph's rule 2), or
                    // an elementwise op into the reduction after it, where fgraph has already
                    // made that op a matmul's epilogue (the residual add before LayerNorm;
                    // rule 3).
                    let reason = ours
                        .boundaries
                        .iter()
                        .find(|b| b.producer == p && b.consumer == o)
                        .map(|b| b.reason);
                    match reason {
                        Some(Reason::AfterReduction) => {
                            assert_eq!(g.op(p).kind, OpKind::Reduction, "{edge}");
                            assert_eq!(g.op(o).kind, OpKind::Elementwise, "{edge}");
                        }
                        Some(Reason::ReductionAfterMatmul) => {
                            assert_eq!(g.op(p).kind, OpKind::Elementwise, "{edge}");
                            assert_eq!(g.op(o).kind, OpKind::Reduction, "{edge}");
                            let grp = &ours.groups[ours.group_of[p.index()]].ops;
                            assert!(has_matmul(g, grp), "{edge}");
                        }
                        other => panic!("{edge}: {other:?}"),
                    }
                }
                if we && !they {
                    // Inductor leaves the matmul of fgraph's group to cuBLAS, alone, and runs
                    // its epilogue (bias, activation, residual, the concat copy) apart.
                    let grp = &ours.groups[ours.group_of[o.index()]].ops;
                    let mm = grp
                        .iter()
                        .find(|&&x| g.op(x).kind == OpKind::Matmul)
                        .unwrap_or_else(|| panic!("{edge}: no matmul in fgraph's group"));
                    let alone = &theirs.groups[theirs.group_of[mm.index()]].ops;
                    assert!(
                        alone
                            .iter()
                            .all(|&x| x == *mm || g.op(x).kind == OpKind::Reshape),
                        "{edge}: Inductor fused something into the matmul"
                    );
                }
            }
        }
        // Where neither happens, the groupings are the same: the seed MLP under
        // max-autotune, the elementwise chains, attention and the FlashAttention kernels.
        let same = [
            "seed_mlp compiled_max",
            "add_gelu compiled",
            "ew_chain compiled",
            "attention compiled",
        ];
        let label = format!("{} {}", c.run.case, c.run.mode);
        assert_eq!(
            same_partition(g, ours, theirs),
            same.contains(&label.as_str()) || c.run.flash(),
            "{label}"
        );
    }
}

#[test]
fn where_the_plans_agree_fused_totals_match_the_measurement() {
    // Same partition: fgraph's fused prediction is the prediction for the measured kernels.
    for c in fused_runs() {
        if !same_partition(&c.a.graph, &c.a.plan, &c.plan) {
            continue;
        }
        let fused = &c.a.traffic.fused;
        let read: u64 = c.run.kernels.iter().map(|k| k.read).sum();
        let write: u64 = c.run.kernels.iter().map(|k| k.write).sum();
        let g = &c.a.graph;
        let label = c.run.label();
        if c.a.plan.groups.iter().all(|grp| !has_matmul(g, &grp.ops)) {
            assert!(
                read.abs_diff(fused.bytes_read) <= fused.bytes_read / 100,
                "{label}"
            );
        } else {
            assert!(read + SLACK >= fused.bytes_read, "{label}");
        }
        // Writes: never more than predicted (FlashAttention-2: its log-sum-exp and 1.2 MB more,
        // see `writes_fall_short_of_the_prediction_by_at_most_l2`), short by at most one L2
        // per kernel.
        let over = if c.run.mode == "flash" {
            fused.bytes_written * 6 / 100
        } else {
            fused.bytes_written / 100 + SLACK
        };
        assert!(write <= fused.bytes_written + over, "{label}");
        let kernels = c.run.kernels.len() as u64;
        assert!(
            fused.bytes_written.saturating_sub(write) <= kernels * L2_BYTES,
            "{label}"
        );
    }
}

#[test]
fn flash_attention_reads_exactly_q_k_v() {
    // fgraph --flash-attention: one kernel reading q, k, v once and writing o. cuDNN's kernel
    // (PyTorch's default on H100) reads exactly that; FlashAttention-2 re-reads 5.4%.
    let a = analyse("attention", true);
    assert_eq!(a.plan.groups.len(), 1);
    let q = 32 * 4096 * 128 * 2;
    assert_eq!(a.traffic.fused.bytes_read, 3 * q);
    assert_eq!(a.traffic.fused.bytes_written, q);
    for c in fused_runs().iter().filter(|c| c.run.flash()) {
        let k = &c.run.kernels[0];
        let r = ratio(k.read, 3 * q);
        match c.run.mode.as_str() {
            "eager" | "cudnn" => assert!((1.0..1.001).contains(&r), "{}", c.run.label()),
            _ => assert!((1.0..1.06).contains(&r), "{}", c.run.label()),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The cost model (`--hardware h100-measured`): roofline time without launch, against
// Nsight Compute's kernel duration (which excludes launch gaps).

/// Model and measured time of every cache=all kernel, with its class.
fn kernel_times() -> Vec<(String, Class, f64, f64)> {
    let hw = Hardware::preset("h100-measured").expect("preset");
    let mut out = Vec::new();
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        let g = &c.a.graph;
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let ops = &c.plan.groups[k].ops;
            let est = cost::kernel_cost(g, ops, &c.predicted[k], &hw, LaunchMode::Graph);
            out.push((
                format!("{} kernel {k} ({})", c.run.label(), kernel.ops.join("+")),
                classify(g, ops, &est, kernel),
                est.roofline_s() * 1e6,
                kernel.time_ns as f64 / 1e3,
            ));
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Elementwise only, every tensor argument of its output's shape, at least 10 MB moved,
    /// a vectorised kernel (PyTorch's dtype-converting copies fall back to the scalar
    /// `unrolled_elementwise_kernel`).
    Streaming,
    /// One 16-bit matmul in a cuBLAS kernel, compute-bound in the model.
    CublasGemm,
    /// Everything else: row reductions, memory-bound batched matmuls, f32 (FFMA) matmuls,
    /// Triton matmul templates, FlashAttention, broadcasts, copies, casts.
    Other,
}

fn classify(g: &Graph, ops: &[OpId], est: &cost::KernelCost, k: &Kernel) -> Class {
    let matmuls: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|&o| g.op(o).kind == OpKind::Matmul)
        .collect();
    let elementwise_only = ops.iter().all(|&o| g.op(o).kind == OpKind::Elementwise);
    // No broadcast: every tensor argument has as many elements as the op's output.
    let elements = |t| g.tensor(t).shape.iter().product::<u64>();
    let same_shape = ops.iter().all(|&o| {
        let op = g.op(o);
        op.inputs
            .iter()
            .all(|u| elements(u.tensor) == elements(op.output))
    });
    if elementwise_only
        && same_shape
        && k.read + k.write > 10_000_000
        && !k.name.contains("unrolled_elementwise_kernel")
    {
        Class::Streaming
    } else if matmuls.len() == 1
        && ops
            .iter()
            .all(|&o| o == matmuls[0] || g.op(o).kind == OpKind::Reshape)
        && cost::op_unit(g, matmuls[0]) == cost::Unit::Tensor16
        && est.bound == cost::Bound::Compute
        && k.name.starts_with("nvjet")
    {
        Class::CublasGemm
    } else {
        Class::Other
    }
}

#[test]
fn cost_model_times_bracket_the_measured_kernel_times() {
    let mut seen = BTreeMap::new();
    for (what, class, model, measured) in kernel_times() {
        let r = measured / model;
        seen.entry(class).or_insert_with(Vec::new).push(r);
        match class {
            // Vectorised streaming kernels take 0.89-0.98x the model's time: 3.0 TB/s is the
            // copy rate, and part of a kernel's writes is still in L2 when it ends (more of
            // it, the smaller the output). The exception is one
            // measurement of the same SwiGLU pointwise kernel as in compiled mode, with
            // max-autotune's launch configuration: 70.3 us against 40.5 us.
            Class::Streaming if what.starts_with("swiglu compiled_max") => {
                assert!((1.5..1.6).contains(&r), "{what}: {r:.3}")
            }
            Class::Streaming => assert!((0.85..1.05).contains(&r), "{what}: {r:.3}"),
            // cuBLAS runs large 16-bit GEMMs at 740-810 TFLOP/s against the preset's 790.
            Class::CublasGemm => assert!((0.9..1.1).contains(&r), "{what}: {r:.3}"),
            // The roofline is a floor for the rest (up to the 15% by which a small kernel whose
            // writes stay in L2 beats it): several passes over each row, matmuls that write a
            // huge output or run on the FFMA units, slower GEMM implementations.
            Class::Other => assert!(r > 0.85, "{what}: {r:.3}"),
        }
    }
    let count = |c| seen.get(&c).map_or(0, Vec::len);
    assert_eq!(
        (
            count(Class::Streaming),
            count(Class::CublasGemm),
            count(Class::Other)
        ),
        (26, 21, 40)
    );
}

// ---------------------------------------------------------------------------------------
// The tables of docs/VALIDATION.md.

fn mb(b: u64) -> String {
    format!("{:.1}", b as f64 / 1e6)
}

/// A ratio, or a dash where the prediction is under 1 MB (kernel parameters and bursts
/// dominate there).
fn shown(m: f64, p: f64, digits: usize) -> String {
    if p < 1e6 {
        "–".into()
    } else {
        format!("{:.*}", digits, m / p)
    }
}

#[test]
#[ignore = "prints the summary figures of docs/VALIDATION.md"]
fn print_summary() {
    let mut elementwise: Vec<(f64, String)> = Vec::new();
    let mut matmul: Vec<(f64, String)> = Vec::new();
    let mut shortfall: Vec<(f64, f64, String)> = Vec::new();
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        let g = &c.a.graph;
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let p = &c.predicted[k];
            let what = format!("{} {}", c.run.label(), kernel.ops.join("+"));
            if has_matmul(g, &c.plan.groups[k].ops) {
                matmul.push((ratio(kernel.read, p.bytes_read), what.clone()));
            } else if !eager_layernorm_over_l2(g, kernel, p) && p.bytes_read > 1_000_000 {
                elementwise.push((ratio(kernel.read, p.bytes_read) - 1.0, what.clone()));
            }
            if p.bytes_written > 1_000_000 {
                shortfall.push((
                    (p.bytes_written as f64 - kernel.write as f64) / 1e6,
                    p.bytes_written as f64 / 1e6,
                    what,
                ));
            }
        }
    }
    let by = |a: &f64, b: &f64| a.partial_cmp(b).unwrap();
    elementwise.sort_by(|a, b| by(&a.0.abs(), &b.0.abs()));
    println!(
        "elementwise/reduction reads, |measured/predicted - 1|, n = {}:",
        elementwise.len()
    );
    for (d, w) in elementwise.iter().rev().take(5) {
        println!("  {:+.4}%  {w}", d * 100.0);
    }
    matmul.sort_by(|a, b| by(&a.0, &b.0));
    println!("matmul reads, measured/predicted, n = {}:", matmul.len());
    for (r, w) in &matmul {
        println!("  {r:.3}  {w}");
    }
    shortfall.sort_by(|a, b| by(&a.1, &b.1));
    println!("write shortfall (predicted - measured, MB) by output size:");
    for (d, size, w) in &shortfall {
        println!("  {size:9.1} MB  short {d:6.1} MB  {w}");
    }
    // Section 3: totals per run, cache=all; section 7: cache=none.
    let sum = |v: &mut dyn Iterator<Item = u64>| v.sum::<u64>();
    println!("\nTOTALS (cache=all)");
    for c in compared() {
        let (pr, mr) = (
            sum(&mut c.predicted.iter().map(|t| t.bytes_read)),
            sum(&mut c.run.kernels.iter().map(|k| k.read)),
        );
        let (pw, mw) = (
            sum(&mut c.predicted.iter().map(|t| t.bytes_written)),
            sum(&mut c.run.kernels.iter().map(|k| k.write)),
        );
        let fgraph = if c.run.mode == "eager" && !c.run.flash() {
            c.a.graph.ops.len()
        } else {
            c.a.plan.groups.len()
        };
        let line = format!(
            "| {} | {} | {} / {} | {} → {} | {:.3} | {} → {} | {:.2} |",
            c.run.case,
            c.run.mode,
            fgraph,
            c.run.kernels.len(),
            mb(pr),
            mb(mr),
            ratio(mr, pr),
            mb(pw),
            mb(mw),
            ratio(mw, pw)
        );
        if c.run.cache == "all" {
            println!("{line}");
        }
    }
    println!("\nNONE");
    for c in compared() {
        if c.run.cache != "none" {
            continue;
        }
        let g = &c.a.graph;
        let pw = sum(&mut c.predicted.iter().map(|t| t.bytes_written));
        let mw = sum(&mut c.run.kernels.iter().map(|k| k.write));
        let plain = |k: &usize| !has_matmul(g, &c.plan.groups[*k].ops);
        let pr = sum(&mut (0..c.predicted.len())
            .filter(plain)
            .map(|k| c.predicted[k].bytes_read));
        let mr = sum(&mut (0..c.predicted.len())
            .filter(plain)
            .map(|k| c.run.kernels[k].read));
        println!(
            "| {} {} | {} | {} | {:+.1}% | {} | {} |",
            c.run.case,
            c.run.mode,
            mb(pw),
            mb(mw),
            (ratio(mw, pw) - 1.0) * 100.0,
            mb(pr),
            mb(mr)
        );
    }
}

#[test]
#[ignore = "prints the tables of docs/VALIDATION.md"]
fn print_tables() {
    let hw = Hardware::preset("h100-measured").expect("preset");
    for c in compared() {
        let g = &c.a.graph;
        let n = c.run.kernels.len();
        let plural = if n == 1 { "" } else { "s" };
        println!("\n#### {} ({n} kernel{plural})\n", c.run.label());
        println!(
            "| # | kernel | fgraph ops | read pred | read meas | ratio | write pred | write meas | ratio | time model | time meas | ratio |"
        );
        println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let mut tot = [0u64; 4];
        let mut times = [0f64; 2];
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let p = &c.predicted[k];
            let est = cost::kernel_cost(g, &c.plan.groups[k].ops, p, &hw, LaunchMode::Graph);
            let model = est.roofline_s() * 1e6;
            let meas = kernel.time_ns as f64 / 1e3;
            let mut name = kernel.name.clone();
            name.truncate(40);
            println!(
                "| {k} | `{name}` | {} | {} | {} | {} | {} | {} | {} | {model:.1} | {meas:.1} | {} |",
                c.plan.groups[k]
                    .ops
                    .iter()
                    .map(|&o| g.op(o).name.as_str())
                    .collect::<Vec<_>>()
                    .join("+"),
                mb(p.bytes_read),
                mb(kernel.read),
                shown(kernel.read as f64, p.bytes_read as f64, 3),
                mb(p.bytes_written),
                mb(kernel.write),
                shown(kernel.write as f64, p.bytes_written as f64, 2),
                if model < 1.0 {
                    "–".to_string()
                } else {
                    format!("{:.2}", meas / model)
                }
            );
            tot[0] += p.bytes_read;
            tot[1] += kernel.read;
            tot[2] += p.bytes_written;
            tot[3] += kernel.write;
            times[0] += model;
            times[1] += meas;
        }
        println!(
            "| | **total** | | {} | {} | {:.3} | {} | {} | {:.2} | {:.1} | {:.1} | {:.2} |",
            mb(tot[0]),
            mb(tot[1]),
            ratio(tot[1], tot[0]),
            mb(tot[2]),
            mb(tot[3]),
            ratio(tot[3], tot[2]),
            times[0],
            times[1],
            times[1] / times[0]
        );
        let t = &c.a.traffic;
        println!(
            "\nfgraph's plans for the graph: unfused {} kernels, {} MB read, {} MB written; \
             fused {} kernels, {} MB read, {} MB written.",
            g.ops.len(),
            mb(t.unfused.bytes_read),
            mb(t.unfused.bytes_written),
            c.a.plan.groups.len(),
            mb(t.fused.bytes_read),
            mb(t.fused.bytes_written)
        );
    }
}

// ---------------------------------------------------------------------------------------
// The hardware model (`--traffic-model hardware`, src/cost/hwmodel/) against the
// calibration cases (validation/gpu/h100-calib: fitted and held-out halves) and against every
// kernel of the runs above, which the fit never saw. The figures it must keep are recorded in
// validation/gpu/h100-calib/accuracy.json; `cargo test --test validation -- --ignored
// print_hardware_model` prints them.

use fgraph::cost::{Family, HwModel, MatmulShape, hwmodel};

/// One calibration case: its parameters from cases.csv and its ncu kernels summed.
struct CalibCase {
    index: usize,
    kind: String,
    family: String,
    dtype: String,
    dims: [u64; 4],
    rows_cols: (u64, u64),
    read: u64,
    write: u64,
    flops: u64,
    dram_read: f64,
    time_us: f64,
    /// Batch c: a causal attention kernel; an f32 matmul with TF32 on.
    causal: bool,
    tf32: bool,
}

fn calib_cases() -> Vec<CalibCase> {
    calib_dir("validation/gpu/h100-calib")
}

/// Batch c (validation/gpu/h100-calib-c): FlashAttention forward (cuDNN's and
/// FlashAttention-2's kernels), f32 matmuls, softmax over rows of 256 to 32,768.
fn batch_c() -> Vec<CalibCase> {
    calib_dir("validation/gpu/h100-calib-c")
}

/// The cases of a folder holding `cases.csv` and `ncu_flushed.csv` (h100-calib's layout).
fn calib_dir(dir: &str) -> Vec<CalibCase> {
    let dir = root().join(dir);
    let cases = std::fs::read_to_string(dir.join("cases.csv")).expect("cases.csv");
    let mut lines = cases.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    // ncu's CSV: quoted fields; the kernels of case i follow the i-th `spin_kernel` marker.
    let ncu = std::fs::read_to_string(dir.join("ncu_flushed.csv")).expect("ncu_flushed.csv");
    let mut per_case: Vec<(f64, f64)> = Vec::new();
    let mut last_id = String::new();
    let mut in_marker = false;
    for line in ncu
        .lines()
        .filter(|l| l.starts_with("\"") && !l.starts_with("\"ID\""))
    {
        let f: Vec<&str> = line.trim_matches('"').split("\",\"").collect();
        let (id, name, metric, unit, value) = (f[0], f[4], f[12], f[13], f[14]);
        if id != last_id {
            last_id = id.to_string();
            in_marker = name.contains("spin_kernel");
            if in_marker {
                per_case.push((0.0, 0.0));
            }
        }
        if in_marker {
            continue;
        }
        let v: f64 = value.replace(',', "").parse().expect("metric value");
        let case = per_case.last_mut().expect("a marker first");
        match (metric, unit) {
            ("dram__bytes_read.sum", "byte") => case.0 += v,
            ("gpu__time_duration.sum", "ns") => case.1 += v / 1e3,
            ("dram__bytes_read.sum" | "gpu__time_duration.sum", u) => panic!("unit {u}"),
            _ => {}
        }
    }
    let num = |s: &str| s.parse::<u64>().unwrap_or(0);
    let flag = |f: &[&str], name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .is_some_and(|i| f[i] == "1")
    };
    lines
        .enumerate()
        .map(|(i, line)| {
            let f: Vec<&str> = line.split(',').collect();
            let (dram_read, time_us) = per_case[i];
            CalibCase {
                index: i,
                kind: f[col("kind")].into(),
                family: f[col("family")].into(),
                dtype: f[col("dtype")].into(),
                dims: [
                    num(f[col("B")]),
                    num(f[col("M")]),
                    num(f[col("K")]),
                    num(f[col("N")]),
                ],
                rows_cols: (num(f[col("rows")]), num(f[col("cols")])),
                read: num(f[col("read")]),
                write: num(f[col("write")]),
                flops: num(f[col("flops")]),
                dram_read,
                time_us,
                causal: flag(&f, "causal"),
                tf32: flag(&f, "tf32"),
            }
        })
        // A clone ran on a copy engine: no kernel, nothing to compare.
        .filter(|c| c.time_us > 0.0)
        .collect()
}

/// Batch b's cases (validation/gpu/h100-calib-b/h100-calib.csv, one row per case with its
/// ncu figures summed over its kernels), as calibration cases; memory-bound cases of two
/// kernels (the eager `silu(x) * y`) are left out, as they are no one kernel.
fn batch_b() -> Vec<CalibCase> {
    let path = root().join("validation/gpu/h100-calib-b/h100-calib.csv");
    let text = std::fs::read_to_string(&path).expect("h100-calib-b/h100-calib.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let num = |s: &str| s.parse::<u64>().unwrap_or(0);
    lines
        .enumerate()
        .filter_map(|(i, line)| {
            // The last column (kernel names) may hold commas; the ones read come before it.
            let f: Vec<&str> = line.split(',').collect();
            let (kind, op) = (f[col("kind")], f[col("op")]);
            // A GEMM's split-K reduction kernel counts with it, as in the fitted batch.
            if num(f[col("kernels")]) != 1 && kind != "gemm" {
                return None;
            }
            let family = match op {
                "add" | "gelu" => "add",
                "sum_rows" => "sum_rows",
                "softmax" => "softmax",
                "layer_norm" | "rms_norm" => "layernorm",
                "matmul" => "matmul",
                _ => return None,
            };
            let (b, m, n, k) = (
                num(f[col("b")]),
                num(f[col("m")]),
                num(f[col("n")]),
                num(f[col("k")]),
            );
            let read = num(f[col("compulsory_read")]);
            let write = num(f[col("compulsory_write")]);
            Some(CalibCase {
                index: i,
                kind: if kind == "gemm" { "matmul" } else { "memory" }.into(),
                family: family.into(),
                dtype: f[col("dtype")].into(),
                dims: [b, m, k, n],
                rows_cols: (m, n),
                read,
                write,
                flops: 2 * b * m * n * k,
                dram_read: num(f[col("cold_read")]) as f64,
                time_us: num(f[col("cold_ns")]) as f64 / 1e3,
                causal: false,
                tf32: false,
            })
        })
        .collect()
}

/// The fitted half (fit.py's `is_fit`).
fn is_fit(c: &CalibCase) -> bool {
    c.index.is_multiple_of(4) || c.index % 4 == 3
}

fn family(c: &CalibCase) -> Option<Family> {
    match c.family.as_str() {
        "add" | "gelu" => Some(Family::Elementwise),
        "sum_rows" => Some(Family::Reduction),
        "softmax" => Some(Family::Softmax),
        "layernorm" | "rmsnorm" => Some(Family::Norm),
        // Strided reads (a transpose copy) are outside every family.
        _ => None,
    }
}

/// (predicted DRAM reads, predicted kernel µs) of a case under the hardware model, and the
/// same under the compulsory roofline.
fn calib_predictions(c: &CalibCase, m: &HwModel, hw: &Hardware) -> Option<[(f64, f64); 2]> {
    let unit = if c.dtype == "f32" {
        cost::Unit::F32
    } else {
        cost::Unit::Tensor16
    };
    let compulsory_time =
        (c.flops as f64 / hw.peak(unit)).max((c.read + c.write) as f64 / hw.bandwidth) * 1e6;
    if c.kind == "attention" {
        // [batch·heads, S, D]; a causal kernel visits the keys up to its diagonal and does
        // half the FLOPs (`flops` is already halved).
        let [bh, s, d, _] = c.dims;
        let keys = if c.causal {
            hwmodel::KeyVisits::Causal {
                keys: s,
                mean: s / 2,
            }
        } else {
            hwmodel::KeyVisits::Each(s)
        };
        let p = m.attention(bh, s, keys, d, c.flops as f64, (c.read, c.write), hw, 0.0);
        return Some([
            (p.dram_read as f64, p.kernel_s * 1e6),
            (c.read as f64, compulsory_time),
        ]);
    }
    if c.kind == "matmul" {
        let [batch, mm, k, n] = c.dims;
        let s = MatmulShape {
            batch,
            m: mm,
            k,
            n,
            elem_bytes: if c.dtype == "f32" { 4 } else { 2 },
            // An f32 matmul with TF32 on is what a graph writes with `tf32` operands.
            tf32: c.tf32,
        };
        let p = m.matmul(&s, 0, c.write, hw, 0.0);
        Some([
            (p.dram_read as f64, p.kernel_s * 1e6),
            (c.read as f64, compulsory_time),
        ])
    } else {
        let f = family(c)?;
        let (rows, cols) = c.rows_cols;
        let p = m.memory(f, c.read, c.write, rows * cols, Some(cols), hw, 0.0);
        let mem_time = (c.read + c.write) as f64 / hw.bandwidth * 1e6;
        Some([
            (p.dram_read as f64, p.kernel_s * 1e6),
            (c.read as f64, mem_time),
        ])
    }
}

/// Median and worst absolute relative error, and how many are within `tol`.
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
    let median = if n == 0 {
        0.0
    } else if n % 2 == 1 {
        a[n / 2]
    } else {
        (a[n / 2 - 1] + a[n / 2]) / 2.0
    };
    let round = |v: f64| (v * 1e4).round() / 1e4;
    Stats {
        n,
        median: round(median),
        worst: round(a.last().copied().unwrap_or(0.0)),
        within: a.iter().filter(|&&e| e <= tol).count(),
    }
}

/// The accuracy figures of both models on single-kernel `cases`, named
/// `[model]/[data]/[gemm|memory]-[reads|time]`.
fn case_accuracy<'c>(
    cases: impl Iterator<Item = &'c CalibCase>,
    data: &str,
    m: &HwModel,
    hw: &Hardware,
) -> BTreeMap<String, Stats> {
    let mut e: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for c in cases {
        let Some(p) = calib_predictions(c, m, hw) else {
            continue;
        };
        let kind = match c.kind.as_str() {
            "matmul" => "gemm",
            "attention" => "attention",
            _ => "memory",
        };
        for (model, (read, time)) in ["hardware", "compulsory"].iter().zip(p) {
            if c.read + c.write > 1_000_000 {
                let key = format!("{model}/{data}/{kind}-reads");
                e.entry(key).or_default().push(read / c.dram_read - 1.0);
            }
            if c.time_us > 20.0 {
                let key = format!("{model}/{data}/{kind}-time");
                e.entry(key).or_default().push(time / c.time_us - 1.0);
            }
        }
    }
    e.into_iter()
        .map(|(k, v)| {
            let tol = if k.ends_with("reads") { 0.15 } else { 0.2 };
            let st = stats(&v, tol);
            (k, st)
        })
        .collect()
}

/// Every accuracy figure of the hardware model (and of the compulsory model beside it), by
/// name: `[model]/[data]/[what]`. Reads: kernels moving > 1 MB, within ±15%; times: kernels
/// over 20 µs, within ±20%; whole runs: within ±15%.
fn hardware_model_accuracy() -> BTreeMap<String, Stats> {
    let hw = Hardware::preset("h100").expect("preset");
    let m = hw.model.clone().expect("the h100 preset is calibrated");
    let mut out = BTreeMap::new();
    let cases = calib_cases();
    for (part, fitted) in [("fitted", true), ("held-out", false)] {
        let chosen = cases.iter().filter(|c| is_fit(c) == fitted);
        out.extend(case_accuracy(chosen, &format!("calib-{part}"), &m, &hw));
    }
    // Batch b (validation/gpu/h100-calib-b), taken by another script in another process,
    // never fitted: 77 GEMMs and 40 single-kernel memory-bound cases.
    out.extend(case_accuracy(batch_b().iter(), "batch-b", &m, &hw));
    // Batch c (validation/gpu/h100-calib-c): the attention coefficients (cuDNN's kernel and,
    // under `--attention-kernel flash2`, FlashAttention-2's), the f32 matmul efficiency and
    // the softmax row-length factors were fitted on its cases whose index is 0 or 3 mod 4;
    // the TF32 matmuls (`tf32` operands) were never fitted: the datasheet's TF32 peak with the
    // 16-bit matmuls' efficiency.
    let c = batch_c();
    let flash2 = m
        .with_attention_kernel("flash2")
        .expect("flash2 coefficients");
    let tf32: Vec<&CalibCase> = c.iter().filter(|c| c.tf32).collect();
    let main = |c: &&CalibCase| c.family != "flash" && !c.tf32;
    for (part, fitted) in [("fitted", true), ("held-out", false)] {
        let chosen = c.iter().filter(main).filter(|c| is_fit(c) == fitted);
        out.extend(case_accuracy(chosen, &format!("batch-c-{part}"), &m, &hw));
        let fa2 = c
            .iter()
            .filter(|c| c.family == "flash" && is_fit(c) == fitted);
        out.extend(case_accuracy(
            fa2,
            &format!("batch-c-flash2-{part}"),
            &flash2,
            &hw,
        ));
    }
    out.extend(case_accuracy(tf32.into_iter(), "batch-c-tf32", &m, &hw));
    // The runs of measured.csv with L2 flushed: every kernel, then every run as a whole.
    let mut e: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let preset = Hardware::preset("h100").expect("preset");
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        let g = &c.a.graph;
        let (mut run_time, mut run_model, mut run_compulsory) = (0.0, 0.0, 0.0);
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let ops = &c.plan.groups[k].ops;
            let tr = &c.predicted[k];
            let flash = c.plan.flash_kernel(k).map(|f| &f.pattern);
            let p = hwmodel::predict(&model_of_run(&c.run, &m), g, ops, tr, flash, &preset, 0.0);
            let est = cost::kernel_cost(g, ops, tr, &preset, LaunchMode::Graph);
            let measured_us = kernel.time_ns as f64 / 1e3;
            run_time += measured_us;
            run_model += p.kernel_s * 1e6;
            run_compulsory += est.roofline_s() * 1e6;
            if tr.bytes_read > 1_000_000 {
                let r = kernel.read as f64;
                e.entry("hardware/runs/kernel-reads".into())
                    .or_default()
                    .push(p.dram_read as f64 / r - 1.0);
                e.entry("compulsory/runs/kernel-reads".into())
                    .or_default()
                    .push(tr.bytes_read as f64 / r - 1.0);
            }
            if measured_us > 20.0 {
                e.entry("hardware/runs/kernel-time".into())
                    .or_default()
                    .push(p.kernel_s * 1e6 / measured_us - 1.0);
                e.entry("compulsory/runs/kernel-time".into())
                    .or_default()
                    .push(est.roofline_s() * 1e6 / measured_us - 1.0);
            }
        }
        e.entry("hardware/runs/graph-time".into())
            .or_default()
            .push(run_model / run_time - 1.0);
        e.entry("compulsory/runs/graph-time".into())
            .or_default()
            .push(run_compulsory / run_time - 1.0);
    }
    for (k, v) in e {
        let tol = if k.ends_with("kernel-time") {
            0.2
        } else {
            0.15
        };
        out.insert(k, stats(&v, tol));
    }
    out
}

/// The hardware model a run is priced with: the `flash` run forced FlashAttention-2's kernel,
/// which `--attention-kernel flash2` selects.
fn model_of_run(run: &Run, m: &HwModel) -> HwModel {
    if run.mode == "flash" {
        m.with_attention_kernel("flash2")
            .expect("flash2 coefficients")
    } else {
        m.clone()
    }
}

fn recorded_accuracy() -> BTreeMap<String, Stats> {
    let path = root().join("validation/gpu/h100-calib/accuracy.json");
    let text = std::fs::read_to_string(&path).expect("accuracy.json");
    serde_json::from_str(&text).expect("accuracy.json")
}

#[test]
fn hardware_model_keeps_its_recorded_accuracy() {
    let now = hardware_model_accuracy();
    let recorded = recorded_accuracy();
    assert_eq!(
        now.keys().collect::<Vec<_>>(),
        recorded.keys().collect::<Vec<_>>(),
        "the figures measured and recorded differ in name"
    );
    for (k, r) in &recorded {
        let n = &now[k];
        assert_eq!(n.n, r.n, "{k}: number of kernels");
        assert!(
            n.median <= r.median + 0.002 && n.worst <= r.worst + 0.002 && n.within >= r.within,
            "{k}: accuracy dropped: now {n:?}, recorded {r:?}"
        );
    }
}

#[test]
fn hardware_model_beats_the_compulsory_model_where_the_issue_targets_it() {
    let now = hardware_model_accuracy();
    for what in [
        "calib-held-out/gemm-reads",
        "calib-held-out/gemm-time",
        "calib-held-out/memory-time",
        "batch-b/gemm-reads",
        "batch-b/gemm-time",
        "batch-b/memory-time",
        "batch-c-held-out/attention-time",
        "batch-c-held-out/gemm-time",
        "batch-c-held-out/memory-time",
        "runs/kernel-time",
        "runs/graph-time",
    ] {
        let (h, c) = (
            &now[&format!("hardware/{what}")],
            &now[&format!("compulsory/{what}")],
        );
        // More kernels within the target; for times a smaller median error too (reads'
        // medians are ~1% for both: most kernels read their operands once).
        assert!(
            h.within > c.within && (what.ends_with("reads") || h.median < c.median),
            "{what}: hardware {h:?} against compulsory {c:?}"
        );
    }
}

#[test]
fn hardware_model_terms_of_batch_c() {
    let hw = Hardware::preset("h100").expect("preset");
    let m = hw.model.clone().expect("calibrated");
    // The softmax factors: the knots' own at the knots, 1 at 4,096, the ends beyond, and
    // log-linear between (2,896 ≈ √(2,048 · 4,096) is the geometric middle).
    assert_eq!(m.softmax_scale(4096), (1.0, 1.0));
    assert_eq!(m.softmax_scale(2048), (1.32, 1.231));
    assert_eq!(m.softmax_scale(64), m.softmax_scale(256));
    assert_eq!(m.softmax_scale(1 << 20), m.softmax_scale(32768));
    let (r, b) = m.softmax_scale(2896);
    assert!((r - (1.32f64).sqrt()).abs() < 1e-3 && (b - (1.231f64).sqrt()).abs() < 1e-3);
    // An f32 matmul runs at the f32 peak with its own efficiency, whatever its K.
    let f32_time = |k: u64| {
        let s = MatmulShape {
            batch: 32,
            m: 4096,
            k,
            n: 4096,
            elem_bytes: 4,
            tf32: false,
        };
        let p = m.matmul(&s, 0, 32 * 4096 * 4096 * 4, &hw, 0.0);
        2.0 * 32.0 * 4096.0 * 4096.0 * k as f64 / p.compute_s
    };
    // (32 · 22 · 22 tiles of 192 × 192 are 117.3 waves of 132: a wave efficiency of 0.994,
    // above 256 × 128's 0.993, taken to the power `mm_wave_exponent`.)
    let full = hw.peak(cost::Unit::F32) * m.mm_f32_efficiency;
    assert!((f32_time(128) / f32_time(4096) - 1.0).abs() < 1e-9);
    let r = f32_time(128) / full;
    let wave = (15488.0f64 / (118.0 * 132.0)).powf(m.mm_wave_exponent);
    assert!((r - wave).abs() < 1e-9, "{r} against {wave}");
    // The FlashAttention runs' kernel takes the attention family; its unfused runs do not.
    for c in compared() {
        for (k, _) in c.run.kernels.iter().enumerate() {
            let flash = c.plan.flash_kernel(k).map(|f| &f.pattern);
            let p = hwmodel::predict(
                &m,
                &c.a.graph,
                &c.plan.groups[k].ops,
                &c.predicted[k],
                flash,
                &hw,
                0.0,
            );
            assert_eq!(
                p.family == Family::Attention,
                c.run.flash(),
                "{} kernel {k}",
                c.run.label()
            );
        }
    }
}

/// The presets calibrated on the H100 (`model` in src/cost/presets/NAME.json, compiled in)
/// carry fit.json's coefficients: `fit.py --preset NAME` writes them there.
#[test]
fn h100_preset_carries_the_fitted_coefficients() {
    let path = root().join("validation/gpu/h100-calib/fit.json");
    let fit: HwModel =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("fit.json")).expect("fit");
    for name in ["h100", "h100-measured"] {
        let model = Hardware::preset(name).and_then(|h| h.model);
        // The routing families are fitted by validation/gpu/h100-calib-h/fit_routing.py
        // (tests/routing.rs checks them); the scan family is fitted on batch i
        // (validation/gpu/h100-calib-i/fit_scan_i.py, tests/scan.rs), the low-precision
        // GEMMs' coefficients (issue 23 item 6, src/cost/hwmodel/quant.rs), split-K by
        // validation/gpu/h100-calib-e/fit_splitk.py and the host term is issue 24's
        // (tests/decode.rs), and the channels-last batch norm's family and the norm's row
        // rate come from whole-model traces (VALIDATION.md §35, §38; the row rate's source is
        // appended to the model's): none by fit.py.
        let model = model.map(|mut m| {
            m.norm_rows_per_s = None;
            m.softmax_row_cols_per_s = None;
            if let Some((fitted, _)) = m.source.split_once("; (issue 24, fit_norm_rows.py)") {
                m.source = fitted.to_string();
            }
            m.families.batch_norm_channels_last = None;
            m.families.batch_norm_channels_last_dram = None;
            m.families.batch_norm_cudnn_channels_last = None;
            m.families.cat = None;
            m.families.group_norm_strided = None;
            // Inductor's looped softmax: fit_softmax_looped.py (VALIDATION.md §50).
            m.families.softmax_looped = None;
            m.families.softmax_looped_masked = None;
            // cuDNN's generic depthwise kernel below batch 8: dw_probe/fit_generic.py
            // (VALIDATION.md §44), its source appended to the conv family's.
            if let Some(c) = m.conv.as_mut() {
                c.depthwise_channels_last_generic = None;
                if let Some((fitted, _)) = c.source.split_once("; depthwise_channels_last_generic")
                {
                    c.source = fitted.to_string();
                }
            }
            m
        });
        let model = model.map(|m| HwModel {
            routing: None,
            scan: None,
            quant: None,
            split_k: None,
            host: None,
            ..m
        });
        assert_eq!(
            model.as_ref(),
            Some(&fit),
            "src/cost/presets/{name}.json against fit.json"
        );
    }
}

#[test]
#[ignore = "prints the hardware model's accuracy (validation/gpu/h100-calib/accuracy.json)"]
fn print_hardware_model() {
    let now = hardware_model_accuracy();
    println!("{}", serde_json::to_string_pretty(&now).expect("json"));
    println!("| figure | kernels | median error | worst error | within target |");
    println!("|---|---:|---:|---:|---:|");
    for (k, s) in &now {
        println!(
            "| {k} | {} | {:.1}% | {:.1}% | {}/{} |",
            s.n,
            s.median * 100.0,
            s.worst * 100.0,
            s.within,
            s.n
        );
    }
}

#[test]
#[ignore = "prints the run kernels the hardware model misses by more than 20% in time"]
fn print_hardware_model_misses() {
    let hw = Hardware::preset("h100").expect("preset");
    let m = hw.model.clone().expect("calibrated");
    for c in compared() {
        if c.run.cache != "all" {
            continue;
        }
        let g = &c.a.graph;
        let (mut t, mut p_sum) = (0.0, 0.0);
        for (k, kernel) in c.run.kernels.iter().enumerate() {
            let flash = c.plan.flash_kernel(k).map(|f| &f.pattern);
            let p = hwmodel::predict(
                &model_of_run(&c.run, &m),
                g,
                &c.plan.groups[k].ops,
                &c.predicted[k],
                flash,
                &hw,
                0.0,
            );
            let us = kernel.time_ns as f64 / 1e3;
            t += us;
            p_sum += p.kernel_s * 1e6;
            let read = kernel.read as f64;
            if c.predicted[k].bytes_read > 1_000_000
                && (p.dram_read as f64 / read - 1.0).abs() > 0.15
            {
                println!(
                    "{} kernel {k} {} [{}]: model reads {:.1} MB ({}), measured {:.1} MB",
                    c.run.label(),
                    kernel.ops.join("+"),
                    &kernel.name[..kernel.name.len().min(40)],
                    p.dram_read as f64 / 1e6,
                    p.family.as_str(),
                    read / 1e6
                );
            }
            if us > 20.0 && (p.kernel_s * 1e6 / us - 1.0).abs() > 0.2 {
                println!(
                    "{} kernel {k} {} [{}]: model {:.1} µs ({}), measured {us:.1} µs",
                    c.run.label(),
                    kernel.ops.join("+"),
                    &kernel.name[..kernel.name.len().min(40)],
                    p.kernel_s * 1e6,
                    p.family.as_str()
                );
            }
        }
        println!(
            "  run {}: model {p_sum:.1} µs, measured {t:.1} µs",
            c.run.label()
        );
    }
}
