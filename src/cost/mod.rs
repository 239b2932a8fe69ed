//! The cost model: FLOPs, arithmetic intensity, roofline time per kernel, and what fusion
//! (and the FlashAttention pass) buys in time on a given GPU.
//!
//! Per kernel (one group of a plan):
//!
//! - `flops` = Σ [`op_flops`] of its ops; `bytes` = its HBM traffic (SPEC §3).
//! - `intensity` = flops / bytes (FLOP per byte).
//! - compute time = Σ op flops / peak of the op's unit ([`Unit`]: tensor cores at the dense
//!   16-bit figure for 16- and 8-bit matmuls, the f32 figure for other matmuls and for all
//!   non-matmul math); memory time = bytes / bandwidth.
//! - `time` = max(compute, memory) + launch overhead; `bound` is the larger term.
//! - `ridge_point` = the kernel's effective peak (flops / compute time) / bandwidth.
//!
//! Per graph: the sum over kernels, for the unfused plan (one kernel per op) and the fused
//! plan; `speedup` = unfused time / fused time. `docs/cost-model.md` gives every source.

pub mod comm;
pub mod flops;
pub mod hardware;
pub mod hwmodel;

pub use flops::{FlopSource, op_flops};
pub use hardware::{DEFAULT_PRESET, Hardware, HardwareFile, LaunchMode, PRESET_NAMES, Unit};
pub use hwmodel::{AttentionCoeffs, CopyKernel, Family, HwModel, MatmulShape, Prediction};

use crate::analysis::Analysis;
use crate::fusion::flash::{self, AttentionPattern, Miss};
use crate::fusion::{FusedEdge, FusionOptions, FusionPlan, find_fusion_groups_with};
use crate::graph::{Graph, OpId};
use crate::ops::Compute;
use crate::traffic::{
    GroupTraffic, Overflow, Scratch, Traffic, alone_bytes, compare, flash_savings, round_trips,
};
use serde::Serialize;

/// What limits a kernel under the roofline model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// Moving its bytes takes longer than its arithmetic.
    Memory,
    /// Its arithmetic takes longer than moving its bytes.
    Compute,
    /// A collective whose transfer between GPUs takes longer than its local work (issue 25).
    Communication,
}

impl Bound {
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::Memory => "memory",
            Bound::Compute => "compute",
            Bound::Communication => "communication",
        }
    }
}

/// The estimate for one kernel. Times are in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelCost {
    pub ops: Vec<OpId>,
    pub flops: u64,
    pub bytes: u64,
    /// FLOP per byte; `None` when the kernel moves no bytes.
    pub intensity: Option<f64>,
    /// FLOP per byte at which this kernel's arithmetic and memory times are equal.
    pub ridge_point: f64,
    pub bound: Bound,
    pub compute_s: f64,
    pub memory_s: f64,
    /// A collective's transfer between GPUs ([`comm`]); 0 for other kernels.
    pub comm_s: f64,
    pub launch_s: f64,
    /// `max(compute_s, memory_s, comm_s) + launch_s`.
    pub time_s: f64,
    /// A collective's communication (the fused plan's kernels; `None` for other kernels,
    /// for the unfused plan's, and on a GPU without an interconnect).
    pub communication: Option<comm::CommCost>,
}

impl KernelCost {
    /// The roofline term alone: `max(compute_s, memory_s, comm_s)`.
    pub fn roofline_s(&self) -> f64 {
        self.compute_s.max(self.memory_s).max(self.comm_s)
    }
    /// FLOP/s the estimate implies, launch included (what a roofline plot shows).
    pub fn achieved(&self) -> f64 {
        if self.time_s > 0.0 {
            self.flops as f64 / self.time_s
        } else {
            0.0
        }
    }
}

/// The estimate for every kernel of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanCost {
    pub kernels: Vec<KernelCost>,
    pub flops: u64,
    pub bytes: u64,
    pub time_s: f64,
}

/// Unfused against fused on one GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct CostReport {
    pub hardware: Hardware,
    pub launch: LaunchMode,
    /// One kernel per op, in topological order ([`CostReport::unfused_kernel`] gives each
    /// kernel's full estimate).
    pub unfused: UnfusedCost,
    /// The analysis's plan, kernel `k` being group `k`.
    pub fused: PlanCost,
    /// `unfused.time_s / fused.time_s` (1 when both are 0).
    pub speedup: f64,
    /// The fused plan under the hardware model, when asked for
    /// ([`TrafficModel::Hardware`], [`with_hardware_model`]); `None` under the default.
    pub hardware_model: Option<ModelReport>,
    /// The fused plan's collectives and the step's time split (issue 25); `None` for a graph
    /// without collectives.
    pub communication: Option<CommReport>,
}

/// A plan's time, split by what limits each kernel: each kernel's larger term goes to
/// compute, memory or communication, its launch to `launch_s`. The four sum to the plan's
/// time: communication is not assumed to overlap computation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TimeSplit {
    pub compute_s: f64,
    pub memory_s: f64,
    pub communication_s: f64,
    pub launch_s: f64,
}

impl TimeSplit {
    fn add(&mut self, bound: Bound, term_s: f64, launch_s: f64) {
        match bound {
            Bound::Compute => self.compute_s += term_s,
            Bound::Memory => self.memory_s += term_s,
            Bound::Communication => self.communication_s += term_s,
        }
        self.launch_s += launch_s;
    }
    /// The sum of the four.
    pub fn total_s(&self) -> f64 {
        self.compute_s + self.memory_s + self.communication_s + self.launch_s
    }
}

/// The collectives of the fused plan (issue 25).
#[derive(Clone, Debug, PartialEq)]
pub struct CommReport {
    /// One per collective, in kernel order: its kernel, its op and its cost (`None` on a GPU
    /// without an interconnect).
    pub ops: Vec<(usize, OpId, Option<comm::CommCost>)>,
    /// Σ the collectives' communication time (latency and bandwidth terms).
    pub time_s: f64,
    /// Σ bytes each GPU sends and receives.
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// The fused plan's time, split (compulsory model).
    pub split: TimeSplit,
    /// The same under the hardware model, with `--traffic-model hardware`.
    pub hardware_split: Option<TimeSplit>,
    /// The interconnect the collectives were priced on (`None`: not priced).
    pub interconnect: Option<comm::Interconnect>,
}

/// Which traffic and time model the numbers come from (`--traffic-model`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TrafficModel {
    /// SPEC §3: every tensor once per kernel, datasheet peaks (the default).
    #[default]
    Compulsory,
    /// The `hwmodel` module: matmul tile re-reads through L2, achieved bandwidth and efficiency
    /// fitted on a real GPU, shown beside the compulsory numbers.
    Hardware,
}

/// The fused plan under the hardware model: one [`Prediction`] per kernel (group order).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReport {
    pub kernels: Vec<Prediction>,
    pub dram_read: u64,
    pub dram_written: u64,
    /// Σ kernel time, launches excluded.
    pub kernel_s: f64,
    /// Σ time, launches included.
    pub time_s: f64,
    /// Where the coefficients come from.
    pub source: String,
    /// Whose copy kernels run the layout-only kernels ([`HwModel::with_copy_kernel`]).
    pub copy_kernel: CopyKernel,
    /// Kernels launched: one per kernel of the plan, and the reduction of each split-K GEMM
    /// ([`Prediction::launches`]).
    pub launches: usize,
    /// The step's time ([`hwmodel::step_time`]): `time_s` under `--launch graph`; under
    /// `--launch eager` with `model.host`, the host's time per kernel is its floor and the GPU
    /// pays only its own launch gap (`launch_graph_us`) per kernel.
    pub step: hwmodel::Step,
}

/// Adds the hardware model's view of the analysis's plan to `c`; an error (a sentence) when
/// `c`'s GPU has no fitted coefficients.
pub fn with_hardware_model(c: &mut CostReport, a: &Analysis) -> Result<(), String> {
    let hw = &c.hardware;
    let Some(model) = &hw.model else {
        return Err(format!(
            "GPU `{}` has no hardware-model coefficients (`model` in its hardware file): \
             calibrate it (docs/VALIDATION.md, \"Calibrating another GPU\") or use \
             `--traffic-model compulsory`",
            hw.name
        ));
    };
    let launch_s = hw.launch(c.launch);
    let host_s = match (c.launch, &model.host) {
        (LaunchMode::Eager, Some(h)) => Some(h.eager_us * 1e-6),
        _ => None,
    };
    let kernels: Vec<Prediction> = a
        .plan
        .groups
        .iter()
        .zip(&a.traffic.groups)
        .enumerate()
        .map(|(k, (grp, tr))| {
            let flash = a.plan.flash_kernel(k).map(|f| &f.pattern);
            hwmodel::predict(model, &a.graph, &grp.ops, tr, flash, hw, launch_s)
        })
        .collect();
    if let Some(r) = &mut c.communication {
        let mut split = TimeSplit::default();
        for p in &kernels {
            let bound = if p.comm_s > p.compute_s.max(p.memory_s) {
                Bound::Communication
            } else {
                bound(p.compute_s, p.memory_s)
            };
            split.add(bound, p.kernel_s, p.launch_s);
        }
        r.hardware_split = Some(split);
    }
    c.hardware_model = Some(ModelReport {
        dram_read: kernels
            .iter()
            .fold(0u64, |x, k| x.saturating_add(k.dram_read)),
        dram_written: kernels
            .iter()
            .fold(0u64, |x, k| x.saturating_add(k.dram_written)),
        kernel_s: kernels.iter().map(|k| k.kernel_s).sum(),
        time_s: kernels.iter().map(|k| k.time_s).sum(),
        source: model.source.clone(),
        copy_kernel: model.copy_kernel,
        launches: kernels.iter().map(Prediction::launches).sum(),
        step: hwmodel::step_time(&kernels, host_s, &[], hw.launch(LaunchMode::Graph)),
        kernels,
    });
    Ok(())
}

impl CostReport {
    /// The full estimate of unfused kernel `i` (op `g.topo[i]` alone).
    pub fn unfused_kernel(&self, i: usize) -> KernelCost {
        self.unfused.kernels[i].kernel(&self.hardware, self.launch)
    }

    /// [`CostReport::unfused_kernel`] of every unfused kernel, in order.
    pub fn unfused_kernels(&self) -> impl ExactSizeIterator<Item = KernelCost> + '_ {
        self.unfused
            .kernels
            .iter()
            .map(|k| k.kernel(&self.hardware, self.launch))
    }
}

/// The unit an op's arithmetic runs on: matmuls by their first operand's dtype, everything
/// else on the f32 CUDA cores.
pub fn op_unit(g: &Graph, o: OpId) -> Unit {
    let op = g.op(o);
    match (crate::ops::spec(op.kind).compute, op.inputs.first()) {
        (Compute::TensorCores, Some(u)) => Unit::for_matmul(g.tensor(u.tensor).dtype),
        _ => Unit::F32,
    }
}

/// The estimate for the kernel made of `ops`, which moves `traffic`.
pub fn kernel_cost(
    g: &Graph,
    ops: &[OpId],
    traffic: &GroupTraffic,
    hw: &Hardware,
    launch: LaunchMode,
) -> KernelCost {
    kernel_cost_of(
        g,
        ops,
        traffic.bytes_read.saturating_add(traffic.bytes_written),
        None,
        hw,
        launch,
    )
}

/// The estimate for the kernel made of `ops`, which moves `bytes` in all; `flash` is the
/// attention pattern when the kernel is a FlashAttention kernel, whose ops do only the
/// (query, key) pairs its mask keeps ([`AttentionPattern::masked_flops`]).
fn kernel_cost_of(
    g: &Graph,
    ops: &[OpId],
    bytes: u64,
    flash: Option<&AttentionPattern>,
    hw: &Hardware,
    launch: LaunchMode,
) -> KernelCost {
    let mut flops = 0u64;
    let mut compute_s = 0.0;
    let mut unit = Unit::F32;
    let pattern_ops = flash.map(|p| p.ops()).unwrap_or_default();
    for &o in ops {
        let (mut f, _) = op_flops(g, o);
        if let Some(p) = flash
            && pattern_ops.contains(&o)
        {
            f = p.masked_flops(g, f);
        }
        let u = op_unit(g, o);
        if g.op(o).kind.is_contraction() {
            unit = u;
        }
        flops = flops.saturating_add(f);
        compute_s += f as f64 / hw.peak(u);
    }
    // A collective is a kernel alone (issue 25): its transfer, on the GPU's interconnect.
    let communication = match (&hw.interconnect, ops) {
        (Some(ic), &[o]) => comm::op_comm(g, g.op(o), ic),
        _ => None,
    };
    let mut k = finish(ops.to_vec(), flops, compute_s, unit, bytes, hw, launch);
    if let Some(c) = communication {
        k.with_comm(c.time_s);
        k.communication = Some(c);
    }
    k
}

impl KernelCost {
    /// Adds a collective's transfer time to the kernel: it runs beside the kernel's own
    /// reads and writes, so the larger of the terms counts.
    fn with_comm(&mut self, comm_s: f64) {
        self.comm_s = comm_s;
        if comm_s > self.compute_s.max(self.memory_s) {
            self.bound = Bound::Communication;
        }
        self.time_s = self.roofline_s() + self.launch_s;
    }
}

/// A kernel's estimate from its FLOPs, compute time, unit (its matmuls', else f32) and bytes.
fn finish(
    ops: Vec<OpId>,
    flops: u64,
    compute_s: f64,
    unit: Unit,
    bytes: u64,
    hw: &Hardware,
    launch: LaunchMode,
) -> KernelCost {
    let memory_s = bytes as f64 / hw.bandwidth;
    let launch_s = hw.launch(launch);
    let ridge_point = if flops > 0 && compute_s > 0.0 {
        flops as f64 / compute_s / hw.bandwidth
    } else {
        hw.ridge(unit)
    };
    KernelCost {
        ops,
        flops,
        bytes,
        intensity: (bytes > 0).then(|| flops as f64 / bytes as f64),
        ridge_point,
        bound: bound(compute_s, memory_s),
        compute_s,
        memory_s,
        comm_s: 0.0,
        launch_s,
        time_s: compute_s.max(memory_s) + launch_s,
        communication: None,
    }
}

fn bound(compute_s: f64, memory_s: f64) -> Bound {
    if compute_s > memory_s {
        Bound::Compute
    } else {
        Bound::Memory
    }
}

/// One kernel of the unfused plan, an op alone: the figures its estimate derives from
/// (32 bytes, no allocation: a graph may have a million of them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpCost {
    pub op: OpId,
    /// The unit its arithmetic runs on ([`op_unit`]).
    pub unit: Unit,
    pub flops: u64,
    /// Bytes it reads and writes run alone.
    pub bytes: u64,
    /// A collective's transfer time ([`comm`]); 0 for every other op.
    pub comm_s: f64,
}

impl OpCost {
    /// Seconds of arithmetic.
    fn compute_s(&self, hw: &Hardware) -> f64 {
        // As [`kernel_cost_of`] sums it, bit for bit.
        let mut compute_s = 0.0;
        compute_s += self.flops as f64 / hw.peak(self.unit);
        compute_s
    }

    /// What limits it and its time, launch included: [`OpCost::kernel`]'s `bound` and
    /// `time_s` without the rest.
    pub fn bound_and_time(&self, hw: &Hardware, launch: LaunchMode) -> (Bound, f64) {
        let compute_s = self.compute_s(hw);
        let memory_s = self.bytes as f64 / hw.bandwidth;
        let roofline = compute_s.max(memory_s);
        if self.comm_s > roofline {
            return (Bound::Communication, self.comm_s + hw.launch(launch));
        }
        (bound(compute_s, memory_s), roofline + hw.launch(launch))
    }

    /// Its full estimate, as [`kernel_cost`] gives it for the kernel `[op]`.
    pub fn kernel(&self, hw: &Hardware, launch: LaunchMode) -> KernelCost {
        let compute_s = self.compute_s(hw);
        let mut k = finish(
            vec![self.op],
            self.flops,
            compute_s,
            self.unit,
            self.bytes,
            hw,
            launch,
        );
        if self.comm_s > 0.0 {
            k.with_comm(self.comm_s);
        }
        k
    }
}

/// The unfused plan's estimate: one kernel per op, kept as [`OpCost`]s.
#[derive(Clone, Debug, PartialEq)]
pub struct UnfusedCost {
    /// One per op, in topological order.
    pub kernels: Vec<OpCost>,
    pub flops: u64,
    pub bytes: u64,
    pub time_s: f64,
}

/// The estimate for kernel `k` of `plan`, which moves `traffic`: as [`plan_cost`] counts it,
/// a FlashAttention kernel with only the pairs its mask keeps and a kernel that recomputes
/// ops with their FLOPs too.
pub fn plan_kernel_cost(
    g: &Graph,
    plan: &FusionPlan,
    k: usize,
    traffic: &GroupTraffic,
    hw: &Hardware,
    launch: LaunchMode,
) -> KernelCost {
    let grp = &plan.groups[k];
    let bytes = traffic.bytes_read.saturating_add(traffic.bytes_written);
    // A FlashAttention kernel does only the pairs its softmax's mask keeps.
    let flash = plan.flash_kernel(k).map(|f| &f.pattern);
    // A kernel that recomputes ops (`--policy recompute`) does their FLOPs too.
    if grp.recomputed.is_empty() {
        kernel_cost_of(g, &grp.ops, bytes, flash, hw, launch)
    } else {
        kernel_cost_of(g, &grp.computed(), bytes, flash, hw, launch)
    }
}

/// The estimate for every group of `plan`, whose traffic is `groups`.
pub fn plan_cost(
    g: &Graph,
    plan: &FusionPlan,
    groups: &[GroupTraffic],
    hw: &Hardware,
    launch: LaunchMode,
) -> PlanCost {
    let kernels: Vec<KernelCost> = plan
        .groups
        .iter()
        .zip(groups)
        .enumerate()
        .map(|(k, (_, tr))| plan_kernel_cost(g, plan, k, tr, hw, launch))
        .collect();
    PlanCost {
        flops: kernels.iter().fold(0u64, |a, k| a.saturating_add(k.flops)),
        bytes: kernels.iter().fold(0u64, |a, k| a.saturating_add(k.bytes)),
        time_s: kernels.iter().map(|k| k.time_s).sum(),
        kernels,
    }
}

fn speedup(unfused: f64, fused: f64) -> f64 {
    if fused > 0.0 { unfused / fused } else { 1.0 }
}

/// Estimates an analysed graph on `hw`: every op alone against the analysis's plan.
///
/// ```
/// use fgraph::cost::{Hardware, LaunchMode, estimate};
/// let src = b"graph g {\n  input x: [1024, 1024]\n  op a = elementwise.relu(x) -> y\n  op b = elementwise.gelu(y) -> z\n}\n";
/// let report = fgraph::check_file("g.fgraph", src, &Default::default());
/// let a = report.graphs[0].analysis.as_ref().unwrap();
/// let hw = Hardware::preset("h100").unwrap();
/// let c = estimate(a, &hw, LaunchMode::Graph).unwrap();
/// assert_eq!(c.unfused.kernels.len(), 2);
/// assert_eq!(c.unfused_kernel(1).ops, [a.graph.topo[1]]);
/// assert_eq!(c.fused.kernels.len(), 1);
/// assert_eq!(c.fused.flops, 9 * 1024 * 1024);
/// assert!(c.speedup > 1.9);
/// ```
pub fn estimate(a: &Analysis, hw: &Hardware, launch: LaunchMode) -> Result<CostReport, Overflow> {
    let g = &a.graph;
    let unfused = unfused_cost(g, hw, launch)?;
    let fused = plan_cost(g, &a.plan, &a.traffic.groups, hw, launch);
    let communication = communication(g, &a.plan, &fused, hw);
    Ok(CostReport {
        hardware: hw.clone(),
        launch,
        speedup: speedup(unfused.time_s, fused.time_s),
        unfused,
        fused,
        hardware_model: None,
        communication,
    })
}

/// The collectives of `plan`, whose estimate is `fused`, and its time split; `None` when it
/// has none.
fn communication(
    g: &Graph,
    plan: &FusionPlan,
    fused: &PlanCost,
    hw: &Hardware,
) -> Option<CommReport> {
    let ops: Vec<(usize, OpId, Option<comm::CommCost>)> = plan
        .groups
        .iter()
        .enumerate()
        .flat_map(|(k, grp)| {
            grp.ops
                .iter()
                .filter(|&&o| g.op(o).kind.is_collective())
                .map(move |&o| (k, o))
        })
        .map(|(k, o)| (k, o, fused.kernels[k].communication.clone()))
        .collect();
    if ops.is_empty() {
        return None;
    }
    let mut split = TimeSplit::default();
    for k in &fused.kernels {
        split.add(k.bound, k.roofline_s(), k.launch_s);
    }
    let priced = || ops.iter().filter_map(|(_, _, c)| c.as_ref());
    Some(CommReport {
        time_s: priced().map(|c| c.time_s).sum(),
        bytes_sent: priced().fold(0u64, |a, c| a.saturating_add(c.bytes_sent)),
        bytes_received: priced().fold(0u64, |a, c| a.saturating_add(c.bytes_received)),
        split,
        hardware_split: None,
        interconnect: hw.interconnect.clone(),
        ops,
    })
}

/// The unfused plan's estimate, one op's traffic at a time (no per-op traffic is kept).
pub fn unfused_cost(g: &Graph, hw: &Hardware, launch: LaunchMode) -> Result<UnfusedCost, Overflow> {
    let mut scratch = Scratch::dense(g);
    let mut kernels = Vec::with_capacity(g.topo.len());
    // -0.0: what `Sum` gives for no kernels, which the JSON report shows.
    let (mut flops, mut bytes, mut time_s) = (0u64, 0u64, -0.0);
    for &o in &g.topo {
        let (read, written) = alone_bytes(g, o, &mut scratch)?;
        let op = g.op(o);
        let comm_s = match &hw.interconnect {
            Some(ic) if op.kind.is_collective() => {
                comm::op_comm(g, op, ic).map_or(0.0, |c| c.time_s)
            }
            _ => 0.0,
        };
        let k = OpCost {
            op: o,
            unit: op_unit(g, o),
            flops: op_flops(g, o).0,
            bytes: read.saturating_add(written),
            comm_s,
        };
        flops = flops.saturating_add(k.flops);
        bytes = bytes.saturating_add(k.bytes);
        time_s += k.bound_and_time(hw, launch).1;
        kernels.push(k);
    }
    Ok(UnfusedCost {
        kernels,
        flops,
        bytes,
        time_s,
    })
}

/// One plan in a few numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSummary {
    pub kernels: usize,
    /// Its traffic, with `saved_by_fusion` against the unfused plan.
    pub traffic: Traffic,
    pub savings_pct: f64,
    pub time_s: f64,
    /// Unfused time / this plan's time.
    pub speedup: f64,
}

/// One attention pattern and what fusing it buys.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternReport {
    pub pattern: AttentionPattern,
    /// Bytes the default plan moves for the pattern's intermediates, all of which a
    /// FlashAttention kernel saves.
    pub saved_bytes: u64,
    /// The edges the FlashAttention kernel keeps on chip.
    pub fused_edges: Vec<FusedEdge>,
}

/// The attention patterns of a graph, and the default plan against the FlashAttention plan.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionReport {
    /// Whether the analysis's plan is the FlashAttention one.
    pub applied: bool,
    pub patterns: Vec<PatternReport>,
    /// Softmaxes that are not the centre of a fusable pattern, and why.
    pub misses: Vec<(OpId, Miss)>,
    /// The default plan (SPEC §2); `None` when no pattern matched.
    pub without: Option<PlanSummary>,
    /// The FlashAttention plan; `None` when no pattern matched.
    pub with: Option<PlanSummary>,
    /// The other plan of the two (the one the analysis did not make) when its search stopped
    /// at its work bound (`fusion::work`): its options and the stop.
    pub other_stopped: Option<(FusionOptions, crate::fusion::SearchStop)>,
}

/// The attention patterns of an analysed graph and both plans' traffic and time on `hw`.
pub fn attention(
    a: &Analysis,
    hw: &Hardware,
    launch: LaunchMode,
) -> Result<AttentionReport, Overflow> {
    let g = &a.graph;
    let mut patterns = Vec::new();
    let mut misses = Vec::new();
    for c in flash::candidates(g) {
        match c.result {
            Ok(p) => patterns.push(p),
            Err(m) => misses.push((c.softmax, m)),
        }
    }
    let applied = !a.plan.flash.is_empty();
    if patterns.is_empty() {
        return Ok(AttentionReport {
            applied,
            patterns: Vec::new(),
            misses,
            without: None,
            with: None,
            other_stopped: None,
        });
    }
    // The other plan, under the analysis's policy.
    let other_opts = FusionOptions {
        flash_attention: !applied,
        ..a.fusion
    };
    let other_plan = find_fusion_groups_with(g, other_opts);
    let other_stopped = other_plan.stopped.map(|s| (other_opts, s));
    let other_traffic = compare(g, &other_plan)?;
    let (default_plan, default_traffic, flash_plan, flash_traffic) = if applied {
        (&other_plan, &other_traffic, &a.plan, &a.traffic)
    } else {
        (&a.plan, &a.traffic, &other_plan, &other_traffic)
    };
    let unfused_time = unfused_cost(g, hw, launch)?.time_s;
    let summary = |plan: &FusionPlan, t: &crate::traffic::TrafficReport| {
        let time_s = plan_cost(g, plan, &t.groups, hw, launch).time_s;
        PlanSummary {
            kernels: plan.groups.len(),
            traffic: t.fused,
            savings_pct: t.savings_pct,
            time_s,
            speedup: speedup(unfused_time, time_s),
        }
    };
    let trips = round_trips(&default_traffic.groups);
    let patterns = patterns
        .into_iter()
        .map(|pattern| PatternReport {
            saved_bytes: flash_savings(&pattern, &trips),
            fused_edges: flash_plan
                .flash
                .iter()
                .find(|f| f.pattern.softmax == pattern.softmax)
                .map(|f| f.fused_edges.clone())
                .unwrap_or_default(),
            pattern,
        })
        .collect();
    Ok(AttentionReport {
        applied,
        patterns,
        misses,
        without: Some(summary(default_plan, default_traffic)),
        with: Some(summary(flash_plan, flash_traffic)),
        other_stopped,
    })
}
