//! The cost model in the JSON report: per-kernel estimates (`groups[].cost`), the
//! graph-level `cost` object (hardware, both plans, the hardware model's predictions) and the
//! `attention` object (patterns, misses, both plans). Times are in microseconds, rounded.

use crate::cost::{
    AttentionReport, Bound, CostReport, Hardware, KernelCost, LaunchMode, OpCost, PlanSummary, Unit,
};
use crate::graph::Graph;
use crate::report::render::json::fusion::FusedEdgeJson;
use crate::traffic::Traffic;
use serde::{Serialize, Serializer};

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
    /// A collective's transfer (issue 25); absent for every other kernel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub communication: Option<CommJson>,
}

/// One collective under the communication model (issue 25). Times in microseconds, bytes
/// per GPU.
#[derive(Serialize)]
pub struct CommJson {
    pub kind: crate::types::OpKind,
    pub group: String,
    pub size: u64,
    /// Nodes the group spans, and its GPUs on one node.
    pub nodes: u64,
    pub gpus_per_node: u64,
    pub algorithm: crate::ops::collective::Algorithm,
    /// `"named"` (the op's `algorithm`) or `"fastest"` (the model's choice).
    pub chosen: &'static str,
    /// NCCL-tests' S, bytes.
    pub payload_bytes: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub steps: u64,
    pub network_steps: u64,
    pub latency_us: f64,
    pub bandwidth_us: f64,
    pub bus_bandwidth_gb_s: f64,
    pub time_us: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl From<&crate::cost::comm::CommCost> for CommJson {
    fn from(c: &crate::cost::comm::CommCost) -> Self {
        CommJson {
            kind: c.kind,
            group: c.group.clone(),
            size: c.size,
            nodes: c.span.nodes,
            gpus_per_node: c.span.per_node,
            algorithm: c.algorithm,
            chosen: if c.named { "named" } else { "fastest" },
            payload_bytes: c.payload,
            bytes_sent: c.bytes_sent,
            bytes_received: c.bytes_received,
            steps: c.steps,
            network_steps: c.network_steps,
            latency_us: r4(c.latency_s * 1e6),
            bandwidth_us: r4(c.bandwidth_s * 1e6),
            bus_bandwidth_gb_s: sig6(c.bus_bandwidth / 1e9),
            time_us: r4(c.time_s * 1e6),
            note: c.note.clone(),
        }
    }
}

/// A plan's time split (issue 25), microseconds.
#[derive(Serialize)]
pub struct SplitJson {
    pub compute_us: f64,
    pub memory_us: f64,
    pub communication_us: f64,
    pub launch_us: f64,
}

impl From<&crate::cost::TimeSplit> for SplitJson {
    fn from(s: &crate::cost::TimeSplit) -> Self {
        SplitJson {
            compute_us: r4(s.compute_s * 1e6),
            memory_us: r4(s.memory_s * 1e6),
            communication_us: r4(s.communication_s * 1e6),
            launch_us: r4(s.launch_s * 1e6),
        }
    }
}

/// One collective of the plan: its op and kernel, and its cost (absent when the GPU has no
/// interconnect).
#[derive(Serialize)]
pub struct CommOpJson {
    pub op: String,
    /// Index into `groups`, from 0.
    pub kernel: usize,
    #[serde(flatten)]
    pub cost: Option<CommJson>,
}

/// `cost.communication` (issue 25): the plan's collectives and its time split; the key is
/// absent for a graph without collectives.
#[derive(Serialize)]
pub struct CommReportJson {
    /// Σ the collectives' communication time.
    pub time_us: f64,
    pub collectives: usize,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Communication is not assumed to overlap computation: the plan's time is the sum.
    pub overlap: &'static str,
    /// The fused plan's time by what limits each kernel; sums to `fused.time_us`.
    pub split: SplitJson,
    /// The same under `--traffic-model hardware`; sums to `hardware_model.time_us`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware_model_split: Option<SplitJson>,
    /// The interconnect the collectives were priced on (null: not priced).
    pub interconnect: Option<crate::cost::comm::Interconnect>,
    pub by_op: Vec<CommOpJson>,
}

impl CommReportJson {
    pub fn new(g: &Graph, r: &crate::cost::CommReport) -> Self {
        CommReportJson {
            time_us: r4(r.time_s * 1e6),
            collectives: r.ops.len(),
            bytes_sent: r.bytes_sent,
            bytes_received: r.bytes_received,
            overlap: "none",
            split: (&r.split).into(),
            hardware_model_split: r.hardware_split.as_ref().map(Into::into),
            interconnect: r.interconnect.clone(),
            by_op: r
                .ops
                .iter()
                .map(|(k, o, c)| CommOpJson {
                    op: g.op(*o).name.to_string(),
                    kernel: *k,
                    cost: c.as_ref().map(Into::into),
                })
                .collect(),
        }
    }
}

/// Rounds an estimate for JSON: 4 decimals (0.1 ns for times) is far below the model's
/// accuracy and keeps the output short.
pub(super) fn r4(v: f64) -> f64 {
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
            communication: k.communication.as_ref().map(Into::into),
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
    /// Dense FP8 tensor TFLOP/s; `null`: none (FP8 matmuls priced at the 16-bit peak).
    pub peak_tflops_f8: Option<f64>,
    /// Dense INT8 tensor TOPS; `null`: none (INT8 matmuls priced at the 16-bit peak).
    pub peak_tops_i8: Option<f64>,
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
    pub(super) graph: &'a Graph,
    pub(super) kernels: &'a [OpCost],
    pub(super) hardware: &'a Hardware,
    pub(super) launch: LaunchMode,
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
    /// `--runtime`: the step as the runtime runs the file (absent without `--runtime`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<RuntimeJson<'a>>,
    /// The collectives (issue 25): absent for a graph without them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub communication: Option<CommReportJson>,
}

/// The step as a runtime runs it (`cost.runtime`). Times in microseconds.
#[derive(Serialize)]
pub struct RuntimeJson<'a> {
    /// `eager` or `compile`.
    pub name: &'static str,
    /// `graph` (CUDA graph replay) or `eager` (plain launches).
    pub launch: LaunchMode,
    /// CUDA kernels launched in one step.
    pub kernels: usize,
    /// The step, launches included.
    pub time_us: f64,
    /// The step, launches excluded.
    pub kernel_us: f64,
    /// The GPU's gap between two kernels of the step (a CUDA graph's launch), per CUDA kernel.
    pub gap_us: f64,
    /// Plain launches: the host's time to issue one kernel (`model.host.runtime_eager_us`,
    /// `runtime_compile_us`, or `runtime_compile_conv_graph_us` for a compiled graph with an
    /// ungrouped convolution), the step being the pipeline of host and GPU; absent under CUDA
    /// graphs or without a host time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_us: Option<f64>,
    /// With `host_us`: what the host spends on an ungrouped convolution's kernel beyond it
    /// (`model.host.runtime_conv_eager_us` or `runtime_conv_compile_us`; 0 without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conv_host_us: Option<f64>,
    /// With `host_us` under `compile`: what the host spends per tensor the step takes (graph
    /// inputs and weights) before its first kernel (`model.host.runtime_compile_input_us`; 0
    /// without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_host_us: Option<f64>,
    /// `compile`: the tensors the compiled step takes (graph inputs and weights); 0 under
    /// `eager`.
    pub host_inputs: usize,
    /// With `host_us`: the probe of the host it describes (`model.host.probe_us`, or
    /// `--host-probe-us`), µs; absent where the model states none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_probe_us: Option<f64>,
    /// What each CUDA kernel's hardware-model time is shortened by in the stream
    /// (`model.host.stream_discount_us`; 0 without it).
    pub stream_discount_us: f64,
    /// How much longer each compute-bound tensor-core kernel takes in this step (a
    /// fraction: `model.host.sustained_derate` at `sustained_share` above
    /// `model.host.sustained_share`; 0 without it).
    pub sustained_derate: f64,
    /// The share of the step's time in compute-bound tensor-core kernels (before the derate).
    pub sustained_share: f64,
    /// `eager`: the elementwise kernels priced as reading from L2 what the kernel before
    /// them wrote, each such byte at `warm_read_factor` of a DRAM byte's time
    /// (`model.host.warm_read_factor`; 1 without it).
    pub warm_reads: usize,
    pub warm_read_factor: f64,
    /// The compute-bound GEMM kernels (matmuls, and convolutions that are one implicit GEMM)
    /// whose start-up and tail overlap their compute in the stream
    /// (`model.host.matmul_overlap_exponent`; 0 without it).
    pub overlapped_gemms: usize,
    pub matmul_overlap_exponent: f64,
    /// The memory-bound matmul kernels priced as moving L2-resident bytes (what they write
    /// and operands the step wrote whole), each such byte at `matmul_resident_factor` of a
    /// DRAM byte's time (`model.host.matmul_resident_factor`; 0 without it).
    pub resident_matmuls: usize,
    pub matmul_resident_factor: f64,
    /// Of `kernels`, the copies the runtime makes (and scalar fills).
    pub copies: usize,
    /// Ops that run as no kernel (views).
    pub views: usize,
    /// Where the hardware model's coefficients come from.
    pub source: String,
    /// Every attention pattern and whether the runtime runs it as one SDPA call (`compile`;
    /// empty for `eager`).
    pub sdpa: Vec<SdpaJson>,
    /// The kernels in launch order.
    pub per_kernel: RuntimeKernelsJson<'a>,
}

/// One attention pattern under `--runtime compile`.
#[derive(Serialize)]
pub struct SdpaJson {
    pub softmax: String,
    pub rewritten: bool,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The kernels of a runtime, serialized as they are written.
pub struct RuntimeKernelsJson<'a> {
    graph: &'a Graph,
    estimate: &'a crate::runtime::RuntimeEstimate,
}

#[derive(Serialize)]
struct RuntimeKernelJson<'a> {
    /// `kernel` (ops of the file), `sdpa`, `copy` or `fill`.
    what: &'static str,
    ops: Vec<&'a str>,
    /// A copy: the tensor copied and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    tensor: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<crate::runtime::CopyReason>,
    family: crate::cost::Family,
    /// The CUDA kernels it launches (a cuDNN transpose, a split-K reduction or a split
    /// norm's passes count apart; they sum to `kernels`).
    launches: usize,
    /// It holds an ungrouped convolution: under plain launches the host spends
    /// `model.host.runtime_conv_*_us` more on it.
    host_conv: bool,
    dram_read: u64,
    dram_written: u64,
    /// The hardware model's compute and memory terms of the kernel (its time is the larger
    /// plus overheads).
    compute_us: f64,
    memory_us: f64,
    kernel_us: f64,
    time_us: f64,
}

impl Serialize for RuntimeKernelsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::runtime::What;
        let g = self.graph;
        s.collect_seq(self.estimate.kernels.iter().map(|k| {
            let (tensor, reason) = match &k.what {
                What::Copy { tensor, reason, .. } => {
                    (Some(g.tensor(*tensor).name.as_str()), Some(*reason))
                }
                _ => (None, None),
            };
            RuntimeKernelJson {
                what: k.what.as_str(),
                ops: k.ops.iter().map(|&o| g.op(o).name.as_str()).collect(),
                tensor,
                reason,
                family: k.prediction.family,
                launches: k.launches,
                host_conv: crate::runtime::host_conv(g, &k.ops),
                dram_read: k.prediction.dram_read,
                dram_written: k.prediction.dram_written,
                compute_us: r4(k.prediction.compute_s * 1e6),
                memory_us: r4(k.prediction.memory_s * 1e6),
                kernel_us: r4(k.prediction.kernel_s * 1e6),
                time_us: r4(k.prediction.time_s * 1e6),
            }
        }))
    }
}

impl<'a> RuntimeJson<'a> {
    pub fn new(g: &'a Graph, e: &'a crate::runtime::RuntimeEstimate) -> Self {
        RuntimeJson {
            name: e.name(),
            launch: e.launch,
            kernels: e.cuda_kernels(),
            time_us: r4(e.time_s * 1e6),
            kernel_us: r4(e.kernel_s * 1e6),
            gap_us: r4(e.gap_s * 1e6),
            host_us: e.host_s.map(|h| r4(h * 1e6)),
            conv_host_us: e.conv_host_s.map(|h| r4(h * 1e6)),
            input_host_us: e.input_host_s.map(|h| r4(h * 1e6)),
            host_inputs: e.host_inputs,
            host_probe_us: e.host_probe_s.map(|p| r4(p * 1e6)),
            stream_discount_us: r4(e.stream_discount_s * 1e6),
            sustained_derate: r4(e.sustained_derate),
            sustained_share: r4(e.sustained_share),
            warm_reads: e.warm_reads,
            warm_read_factor: r4(e.warm_read_factor),
            overlapped_gemms: e.overlapped_gemms,
            matmul_overlap_exponent: r4(e.matmul_overlap_exponent),
            resident_matmuls: e.resident_matmuls,
            matmul_resident_factor: r4(e.matmul_resident_factor),
            copies: e
                .kernels
                .iter()
                .filter(|k| k.what.as_str() == "copy" || k.what.as_str() == "fill")
                .count(),
            views: e.views,
            source: e.source.clone(),
            sdpa: e
                .sdpa
                .iter()
                .map(|(o, r)| SdpaJson {
                    softmax: g.op(*o).name.to_string(),
                    rewritten: r.is_ok(),
                    reason: r.as_ref().err().map(|m| m.describe(g)),
                })
                .collect(),
            per_kernel: RuntimeKernelsJson {
                graph: g,
                estimate: e,
            },
        }
    }
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
    /// A GEMM cuBLAS runs as split-K: the ways, the partial products' bytes and the
    /// reduction kernel's µs (counted in the figures above; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_k: Option<SplitKJson>,
    /// A collective's transfer (issue 25), inside `kernel_us`; absent for other kernels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub communication_us: Option<f64>,
}

#[derive(Serialize)]
pub struct SplitKJson {
    pub splits: u64,
    pub partial_bytes: u64,
    pub reduce_us: f64,
}

/// The fused plan under the hardware model: `kernels` in group order.
#[derive(Serialize)]
pub struct ModelJson {
    pub source: String,
    /// Whose copy kernels run the layout-only kernels: `"eager"` (PyTorch's) or
    /// `"generated"` (a compiler's: `--fuser inductor`, `xla`, `tvm`).
    pub copy_kernel: crate::cost::CopyKernel,
    pub dram_read: u64,
    pub dram_written: u64,
    pub kernel_us: f64,
    pub time_us: f64,
    /// Kernels launched: the plan's and the split-K reductions.
    pub launches: usize,
    /// The step's time: `time_us` under `--launch graph`; under `--launch eager` with the
    /// model's host term, the kernels as the host issues them, `host_us` apart.
    pub step_us: f64,
    /// The host's µs per kernel of the eager step (absent under `--launch graph` or without
    /// `model.host`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_us: Option<f64>,
    /// Kernels the GPU waited on the host for (with `host_us`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_bound_kernels: Option<usize>,
    pub kernels: Vec<PredictionJson>,
}

impl From<&crate::cost::ModelReport> for ModelJson {
    fn from(m: &crate::cost::ModelReport) -> Self {
        ModelJson {
            source: m.source.clone(),
            copy_kernel: m.copy_kernel,
            dram_read: m.dram_read,
            dram_written: m.dram_written,
            kernel_us: r4(m.kernel_s * 1e6),
            time_us: r4(m.time_s * 1e6),
            launches: m.launches,
            step_us: r4(m.step.step_s * 1e6),
            host_us: m.step.host_s.map(|h| r4(h * 1e6)),
            host_bound_kernels: m.step.host_s.map(|_| m.step.host_bound),
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
                    split_k: p.split_k.map(|k| SplitKJson {
                        splits: k.splits,
                        partial_bytes: k.partial_bytes,
                        reduce_us: r4(k.reduce_s * 1e6),
                    }),
                    communication_us: (p.comm_s > 0.0).then(|| r4(p.comm_s * 1e6)),
                })
                .collect(),
        }
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

impl<'a> CostJson<'a> {
    /// The graph-level estimate of `cost`, made for graph `g`.
    pub fn new(g: &'a Graph, cost: &'a CostReport) -> Self {
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
        CostJson {
            hardware: HardwareJson {
                name: hw.name.clone(),
                description: hw.description.clone(),
                source: hw.source.clone(),
                peak_tflops_f16: hw.peak_f16 / 1e12,
                peak_tflops_f32: hw.peak_f32 / 1e12,
                peak_tflops_f8: hw.peak_f8.map(|p| p / 1e12),
                peak_tops_i8: hw.peak_i8.map(|p| p / 1e12),
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
            runtime: None,
            communication: cost
                .communication
                .as_ref()
                .map(|r| CommReportJson::new(g, r)),
        }
    }
}

impl AttentionJson {
    /// The attention comparison `att` of graph `g`.
    pub fn new(g: &Graph, att: &AttentionReport) -> Self {
        let name = |o: crate::graph::OpId| g.op(o).name.to_string();
        AttentionJson {
            flash_attention: att.applied,
            patterns: att
                .patterns
                .iter()
                .map(|p| PatternJson {
                    ops: p.pattern.ops().into_iter().map(name).collect(),
                    q: g.use_name(&p.pattern.q),
                    k: g.use_name(&p.pattern.k),
                    v: g.use_name(&p.pattern.v),
                    output: g.tensor(p.pattern.output).name.to_string(),
                    intermediates: p
                        .pattern
                        .intermediates
                        .iter()
                        .map(|&t| g.tensor(t).name.to_string())
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
        }
    }
}
