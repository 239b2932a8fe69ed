//! Runtimes (`--runtime eager|compile`): the one prediction of a step of the file as a
//! runtime would run it on the chosen GPU: which kernels it launches, and how long each
//! takes under the hardware model (`crate::cost::hwmodel`), launches included
//! (`--launch graph|eager`).
//!
//! One row per runtime ([`RUNTIMES`], [`row`]):
//!
//! | runtime | kernels | priced as |
//! |---|---|---|
//! | `eager` | one per op, except what PyTorch runs as a view (`eager.rs`), plus the copies PyTorch makes: a `reshape` its input's strides admit no view of, an operand `torch.matmul` must copy (a broadcast batch, batch dimensions that do not merge, a matrix without a unit stride), the input of a softmax or norm that is not contiguous ([`layout`], [`strides`]) | PyTorch's own kernels: the hardware model's prediction for each op alone; copies as PyTorch's copy kernels |
//! | `compile` | TorchInductor's default mode (`--fuser inductor`'s plan) with the whole-model rewrites Inductor makes (`compile.rs`): attention patterns into one SDPA call, the head merge after it a view, layout-only kernels that are views dropped, the operand copies Inductor's matmul decomposition makes; residual adds join the next norm (the preset's rules) | Triton kernels, cuBLAS and cuDNN ([`seam`]) |
//!
//! Every kernel is priced through [`seam`], the one place that calls the hardware model's
//! per-kernel functions.

mod compile;
mod eager;
pub mod layout;
mod rows;
pub mod seam;
pub mod strides;

pub use compile::SdpaMiss;
pub use layout::CopyReason;

use crate::analysis::Analysis;
use crate::cost::{Hardware, LaunchMode, Prediction};
use crate::graph::{OpId, Origin, TensorId};
use crate::traffic::Overflow;
use crate::types::OpKind;
use serde::Serialize;

/// A runtime (`--runtime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Runtime {
    /// PyTorch eager: one kernel per op, views free, the copies PyTorch makes.
    Eager,
    /// `torch.compile` (TorchInductor's default mode) of the whole model.
    Compile,
}

/// One runtime: what it is called, what it is, and how it plans and prices a graph.
pub struct RuntimeRow {
    pub runtime: Runtime,
    /// The name `--runtime` and `fgraph.toml` take, and the JSON's `name`.
    pub name: &'static str,
    /// What it stands for, for the report.
    pub title: &'static str,
    /// How it is predicted, in a sentence.
    pub method: &'static str,
    /// The prediction.
    pub estimate: fn(&Analysis, &seam::Pricing<'_>) -> Result<Parts, Overflow>,
}

/// The runtimes, one row each.
pub const RUNTIMES: &[RuntimeRow] = &[
    RuntimeRow {
        runtime: Runtime::Eager,
        name: "eager",
        title: "PyTorch eager",
        method: "one kernel per op except views, with the copies PyTorch makes, each \
                 priced as PyTorch's own kernel by the hardware model",
        estimate: eager::estimate,
    },
    RuntimeRow {
        runtime: Runtime::Compile,
        name: "compile",
        title: "torch.compile (TorchInductor, default mode)",
        method: "the Inductor preset's kernels with Inductor's whole-model rewrites \
                 (attention into SDPA, views after it, matmul operand copies), priced as \
                 Triton, cuBLAS and cuDNN kernels by the hardware model",
        estimate: compile::estimate,
    },
];

/// The row of `r`.
pub fn row(r: Runtime) -> &'static RuntimeRow {
    match r {
        Runtime::Eager => &RUNTIMES[0],
        Runtime::Compile => &RUNTIMES[1],
    }
}

impl Runtime {
    pub fn as_str(self) -> &'static str {
        row(self).name
    }
    /// The runtime named `name` (as `--runtime` spells it).
    pub fn from_name(name: &str) -> Option<Runtime> {
        RUNTIMES.iter().find(|r| r.name == name).map(|r| r.runtime)
    }
}

/// What one kernel of a runtime is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// Ops of the file as one kernel: an op alone (eager) or a kernel of the compiler's plan.
    Kernel,
    /// The SDPA call Inductor puts in place of an attention pattern (its ops).
    Sdpa,
    /// A copy the runtime makes of `tensor` (as `reader` reads it, when the copy is not an
    /// op of the file), and why.
    Copy {
        tensor: TensorId,
        reader: Option<OpId>,
        reason: CopyReason,
    },
    /// A one-element tensor PyTorch fills on the GPU for a scalar operand of `reader`
    /// (`torch.where(c, -1.0, x)` wraps `-1.0` in a device tensor).
    Fill { reader: OpId },
    /// One of the two kernels PyTorch's inference batch norm `reader` runs on its running
    /// statistics before its own: the mean cast to f32, the inverse standard deviation.
    Stats { reader: OpId },
    /// The `where` by which PyTorch's SDPA turns attention `reader`'s boolean mask into one
    /// of the queries' dtype, added to the scores, before cuDNN's kernel.
    Mask { reader: OpId },
}

impl What {
    /// `kernel`, `sdpa`, `copy`, `fill`, `stats` or `mask` (the JSON's `what`).
    pub fn as_str(&self) -> &'static str {
        match self {
            What::Kernel => "kernel",
            What::Sdpa => "sdpa",
            What::Copy { .. } => "copy",
            What::Fill { .. } => "fill",
            What::Stats { .. } => "stats",
            What::Mask { .. } => "mask",
        }
    }
}

/// One kernel a runtime launches.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeKernel {
    /// The ops of the file it computes, in order (none for a copy PyTorch makes of an
    /// operand).
    pub ops: Vec<OpId>,
    pub what: What,
    /// Its time and DRAM traffic under the hardware model, launch included.
    pub prediction: Prediction,
    /// The CUDA kernels it launches ([`seam::Pricing::cuda_kernels`]).
    pub launches: usize,
}

/// What a runtime's plan gives before the totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    pub kernels: Vec<RuntimeKernel>,
    /// Ops that run as no kernel (views, casts to their own dtype).
    pub views: usize,
    /// The attention patterns of the graph (by their softmax) and whether the runtime
    /// rewrote each into SDPA (`compile` only).
    pub sdpa: Vec<(OpId, Result<(), SdpaMiss>)>,
}

/// A runtime's prediction of one step of the graph.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeEstimate {
    pub runtime: Runtime,
    pub launch: LaunchMode,
    /// In launch order.
    pub kernels: Vec<RuntimeKernel>,
    pub views: usize,
    pub sdpa: Vec<(OpId, Result<(), SdpaMiss>)>,
    /// Σ kernel time, launches excluded.
    pub kernel_s: f64,
    /// Σ time, launches included: the step.
    pub time_s: f64,
    /// The GPU's gap per CUDA kernel between kernels ([`seam::Pricing::launch_s`]).
    pub gap_s: f64,
    /// Plain launches fed by a host that issues a CUDA kernel every `host_s`
    /// (`model.host.runtime_eager_us` or `runtime_compile_us`; a kernel of the plan that
    /// launches several costs it one each): the step is the pipeline of the host and the GPU,
    /// not each kernel plus a launch. `None` under CUDA graphs, or
    /// when the model has no host time (then each kernel adds `launch_eager_us`).
    pub host_s: Option<f64>,
    /// With `host_s`: the key of `model.host` it comes from (`runtime_eager_us`,
    /// `runtime_compile_us`, or `runtime_compile_conv_graph_us` for a compiled graph with an
    /// ungrouped convolution).
    pub host_key: Option<&'static str>,
    /// With `host_s`: the probe of the host it describes (`model.host.probe_us`, scaled by
    /// `--host-probe-us`), when the model states one.
    pub host_probe_s: Option<f64>,
    /// With `host_s`: what the host spends on a convolution's kernel beyond it
    /// (`model.host.runtime_conv_eager_us` or `runtime_conv_compile_us`; 0 without one).
    pub conv_host_s: Option<f64>,
    /// The kernels charged `conv_host_s` (ungrouped convolutions; 0 without a host time).
    pub host_convs: usize,
    /// With `host_s` under `compile`: what the host spends per tensor the step takes (graph
    /// inputs and weights) before its first kernel (`model.host.runtime_compile_input_us`;
    /// 0 without one, and under `eager`).
    pub input_host_s: Option<f64>,
    /// Under `compile`: the tensors the compiled step takes (the graph's inputs and weights),
    /// each charged `input_host_s` under plain launches; 0 under `eager`.
    pub host_inputs: usize,
    /// What each CUDA kernel's hardware-model time was shortened by in the stream
    /// (`model.host.stream_discount_us`; 0 without it).
    pub stream_discount_s: f64,
    /// How much longer each compute-bound tensor-core kernel takes in this step
    /// (`model.host.sustained_derate` at `sustained_share`, [`seam::Pricing::sustained_derate`];
    /// 0 without it).
    pub sustained_derate: f64,
    /// The share of the step's time (before the derate) in compute-bound tensor-core kernels.
    pub sustained_share: f64,
    /// Eager: the elementwise kernels priced as reading from L2 what the kernel before them
    /// wrote ([`seam::Pricing::warm`]), each such byte at `warm_read_factor` of a DRAM byte's
    /// time (`model.host.warm_read_factor`; 1 without it).
    pub warm_reads: usize,
    pub warm_read_factor: f64,
    /// The compute-bound GEMM kernels (matmuls, and convolutions that are one implicit GEMM)
    /// whose overhead overlaps their compute in the stream ([`seam::Pricing::overlaps`],
    /// `model.host.matmul_overlap_exponent`; 0 without it).
    pub overlapped_gemms: usize,
    pub matmul_overlap_exponent: f64,
    /// The memory-bound matmul kernels priced as moving L2-resident bytes
    /// ([`seam::Pricing::resident`]), each such byte at `matmul_resident_factor` of a DRAM
    /// byte's time (`model.host.matmul_resident_factor`; 0 without it).
    pub resident_matmuls: usize,
    pub matmul_resident_factor: f64,
    /// Where the hardware model's coefficients come from.
    pub source: String,
}

impl RuntimeEstimate {
    /// The runtime's name (`eager`, `compile`).
    pub fn name(&self) -> &'static str {
        self.runtime.as_str()
    }
    /// CUDA kernels launched in one step: what a profiler counts (the entries of `kernels`
    /// that launch more than one, such as a split-K GEMM, count each).
    pub fn cuda_kernels(&self) -> usize {
        self.kernels.iter().map(|k| k.launches).sum()
    }
    /// Kernels that are copies the runtime makes.
    pub fn copies(&self) -> usize {
        self.kernels
            .iter()
            .filter(|k| matches!(k.what, What::Copy { .. }))
            .count()
    }
    /// `eager, CUDA graphs` or `compile, plain launches`.
    pub fn label(&self) -> String {
        format!("{}, {}", self.name(), launch_words(self.launch))
    }
}

/// How kernels are launched, in words.
pub fn launch_words(l: LaunchMode) -> &'static str {
    match l {
        LaunchMode::Graph => "CUDA graphs",
        LaunchMode::Eager => "plain launches",
    }
}

/// The prediction of one step of the analysed graph as `runtime` runs it on `hw`, launched
/// as `launch` says; an error (a sentence) when `hw` has no hardware-model coefficients or
/// a figure overflows.
///
/// ```
/// use fgraph::cost::{Hardware, LaunchMode};
/// use fgraph::runtime::{Runtime, estimate};
/// let src = b"graph g {\n  input x: f16[1024, 1024]\n  op a = reshape(x) -> y: [1024, 16, 64]\n  op b = permute(y, dims = [1, 0, 2]) -> z\n  op c = reshape(z) -> w: [16, 65536]\n}\n";
/// let report = fgraph::check_file("g.fgraph", src, &Default::default());
/// let a = report.graphs[0].analysis.as_ref().unwrap();
/// let hw = Hardware::preset("h100").unwrap();
/// let e = estimate(a, &hw, LaunchMode::Graph, Runtime::Eager).unwrap();
/// // The reshape and the permute are views; the second reshape must copy.
/// assert_eq!((e.kernels.len(), e.views), (1, 2));
/// ```
pub fn estimate(
    a: &Analysis,
    hw: &Hardware,
    launch: LaunchMode,
    runtime: Runtime,
) -> Result<RuntimeEstimate, String> {
    let Some(model) = &hw.model else {
        return Err(no_model(hw));
    };
    // Plain launches with a measured host time per kernel: the GPU runs each kernel as
    // under a CUDA graph, fed by a host that issues one every `host_us`
    // (`crate::cost::hwmodel::step_time`); without one, `launch_eager_us` per kernel.
    // A compiled graph with an ungrouped convolution costs its host more a kernel where the
    // model says so (`runtime_compile_conv_graph_us`, VALIDATION.md §51).
    let conv_graph = runtime == Runtime::Compile && conv_graph(&a.graph);
    let host = match (launch, model.host.as_ref()) {
        (LaunchMode::Eager, Some(h)) => match runtime {
            Runtime::Eager => h.runtime_eager_us.map(|us| (us, "runtime_eager_us")),
            Runtime::Compile => h
                .runtime_compile_conv_graph_us
                .filter(|_| conv_graph)
                .map(|us| (us, "runtime_compile_conv_graph_us"))
                .or(h.runtime_compile_us.map(|us| (us, "runtime_compile_us"))),
        },
        _ => None,
    };
    let host_s = host.map(|(us, _)| us * 1e-6);
    let priced_as = if host_s.is_some() {
        LaunchMode::Graph
    } else {
        launch
    };
    let pricing = seam::Pricing::new(model, hw, priced_as);
    let mut parts = (row(runtime).estimate)(a, &pricing).map_err(|e| e.to_string())?;
    let (mut overlapped_gemms, mut resident_matmuls) = (0, 0);
    let (matmul_overlap_exponent, matmul_resident_factor) = pricing.matmul_stream_keys();
    for k in &mut parts.kernels {
        k.launches = pricing.cuda_kernels(&k.prediction);
        let resident = match k.what {
            What::Kernel => resident_bytes(&a.graph, &k.ops, k.prediction.dram_written),
            _ => 0,
        };
        let in_l2 = pricing.resident(k.prediction, resident);
        resident_matmuls += usize::from(in_l2.kernel_s < k.prediction.kernel_s);
        overlapped_gemms += usize::from(pricing.overlaps(&in_l2));
        k.prediction = pricing.in_stream(in_l2);
    }
    let mut warm_reads = 0;
    if runtime == Runtime::Eager {
        // A lone elementwise kernel reads what the kernel before it wrote from L2.
        let g = &a.graph;
        for i in 1..parts.kernels.len() {
            let (before, rest) = parts.kernels.split_at_mut(i);
            let (prev, k) = (&before[i - 1], &mut rest[0]);
            if k.what != What::Kernel || k.ops.len() != 1 {
                continue;
            }
            // Not a batch norm's kernel: its families were fitted on probe kernels that ran
            // just after the kernel writing their input (`bn_probe/`, VALIDATION.md §35), L2
            // in their rates (§52).
            if crate::ops::batchnorm::runner(g, k.ops[0]).is_some() {
                continue;
            }
            let warm: u64 = g
                .op(k.ops[0])
                .inputs
                .iter()
                .filter(|u| g.producer(u.tensor).is_some_and(|p| prev.ops.contains(&p)))
                .map(|u| g.tensor(u.tensor).bytes)
                .sum();
            let warmed = pricing.warm(k.prediction, warm);
            warm_reads += usize::from(warmed.kernel_s < k.prediction.kernel_s);
            k.prediction = warmed;
        }
    }
    // The step's share of time in compute-bound tensor-core kernels sets their derate.
    let all: f64 = parts.kernels.iter().map(|k| k.prediction.time_s).sum();
    let sustained: f64 = parts
        .kernels
        .iter()
        .filter(|k| seam::Pricing::sustains(&k.prediction))
        .map(|k| k.prediction.time_s)
        .sum();
    let sustained_share = if all > 0.0 { sustained / all } else { 0.0 };
    let derate = pricing.sustained_derate(sustained_share);
    for k in &mut parts.kernels {
        if seam::Pricing::sustains(&k.prediction) {
            k.prediction = seam::Pricing::derated(k.prediction, derate);
        }
    }
    // Where a host file says so (`model.host.runtime_conv_*_us`; 0 on the presets: one
    // host's figure failed on another, VALIDATION.md §28-29), an ungrouped convolution's
    // kernel costs the host more than another.
    let conv_host_s = model
        .host
        .as_ref()
        .and_then(|h| match runtime {
            Runtime::Eager => h.runtime_conv_eager_us,
            Runtime::Compile => h.runtime_conv_compile_us,
        })
        .map_or(0.0, |us| us * 1e-6);
    let mut host_convs = 0;
    // Before its first kernel a compiled step's host checks and hands over every tensor it
    // takes: Dynamo's guards, the parameters passed in, Inductor's size-and-stride asserts.
    let input_host_s = match runtime {
        Runtime::Compile => model
            .host
            .as_ref()
            .and_then(|h| h.runtime_compile_input_us)
            .map_or(0.0, |us| us * 1e-6),
        Runtime::Eager => 0.0,
    };
    let host_inputs = if runtime == Runtime::Compile {
        a.graph
            .tensors
            .iter()
            .filter(|t| matches!(t.origin, Origin::Input | Origin::Weight))
            .count()
    } else {
        0
    };
    let time_s = match host_s {
        Some(h) => {
            let kernels: Vec<_> = parts.kernels.iter().map(|k| k.prediction).collect();
            let extra: Vec<f64> = parts
                .kernels
                .iter()
                .map(|k| {
                    if host_conv(&a.graph, &k.ops) {
                        host_convs += usize::from(conv_host_s > 0.0);
                        conv_host_s
                    } else {
                        0.0
                    }
                })
                .collect();
            // The host issues every CUDA kernel, not every kernel of the plan: cuDNN's
            // transposes, a split-K reduction and a Triton group norm's passes each cost it
            // a launch (VALIDATION.md §43: SD 1.5's blocks, 1.3-1.4 launches a kernel, took
            // the host 2.5 and 3.5 probes a kernel where the transformers took 2.2 and 2.7).
            let mut extra: Vec<f64> = extra
                .iter()
                .zip(&parts.kernels)
                .map(|(x, k)| x + h * host_launches(&a.graph, runtime, k).saturating_sub(1) as f64)
                .collect();
            if let Some(first) = extra.first_mut() {
                *first += input_host_s * host_inputs as f64;
            }
            crate::cost::hwmodel::step_time(&kernels, Some(h), &extra, pricing.launch_s()).step_s
        }
        None => parts.kernels.iter().map(|k| k.prediction.time_s).sum(),
    };
    Ok(RuntimeEstimate {
        runtime,
        launch,
        kernel_s: parts.kernels.iter().map(|k| k.prediction.kernel_s).sum(),
        time_s,
        gap_s: pricing.launch_s(),
        host_s,
        host_key: host.map(|(_, key)| key),
        conv_host_s: host_s.map(|_| conv_host_s),
        host_convs,
        input_host_s: host_s.map(|_| input_host_s),
        host_inputs,
        host_probe_s: host_s
            .and(model.host.as_ref().and_then(|h| h.probe_us))
            .map(|us| us * 1e-6),
        stream_discount_s: pricing.stream_discount_s(),
        sustained_derate: derate,
        sustained_share,
        warm_reads,
        overlapped_gemms,
        matmul_overlap_exponent,
        resident_matmuls,
        matmul_resident_factor,
        warm_read_factor: pricing.warm_read_factor(),
        kernels: parts.kernels,
        views: parts.views,
        sdpa: parts.sdpa,
        source: model.source.clone(),
    })
}

/// The CUDA kernels of runtime kernel `k` the host issues one by one under plain launches:
/// all of them, but an eager `torch.cat` whose copies its one call launches
/// ([`eager::cat_by_copies`]).
fn host_launches(g: &crate::graph::Graph, runtime: Runtime, k: &RuntimeKernel) -> usize {
    match k.ops.as_slice() {
        [o] if runtime == Runtime::Eager && eager::cat_by_copies(g, *o) => 1,
        _ => k.launches,
    }
}

/// Whether a kernel of `ops` is charged `runtime_conv_*_us` under plain launches: it holds an
/// ungrouped convolution. A grouped or depthwise one is not (ConvNeXt's blocks: about 15 µs a
/// kernel with three depthwise convolutions of four).
pub fn host_conv(g: &crate::graph::Graph, ops: &[OpId]) -> bool {
    ops.iter().any(|&o| ungrouped_conv(g.op(o)))
}

fn ungrouped_conv(op: &crate::graph::OpNode) -> bool {
    op.kind == OpKind::Conv && op.int_attr("groups").unwrap_or(1) == 1
}

/// Whether graph `g` holds an ungrouped convolution ([`host_conv`]): under `compile`, its
/// host time per kernel is `model.host.runtime_compile_conv_graph_us` where the model states
/// one.
pub fn conv_graph(g: &crate::graph::Graph) -> bool {
    g.ops.iter().any(ungrouped_conv)
}

/// Why a GPU cannot run `--runtime`.
pub fn no_model(hw: &Hardware) -> String {
    format!(
        "--runtime prices every kernel with the hardware model, and GPU `{}` has no \
         hardware-model coefficients (`model` in its hardware file; calibrated presets: \
         h100, h100-measured); see docs/VALIDATION.md, \"Calibrating another GPU\"",
        hw.name
    )
}

/// The bytes a kernel of `ops` that writes `written` moves through L2 in a stream
/// ([`seam::Pricing::resident`]): what it writes, and its matmul's operands that an op of the
/// step wrote whole (not weights or graph inputs, and not a cache an `update` appends rows
/// to, which stays in DRAM); 0 for a kernel without a matmul.
fn resident_bytes(g: &crate::graph::Graph, ops: &[crate::graph::OpId], written: u64) -> u64 {
    let Some(&mm) = ops.iter().find(|&&o| g.op(o).kind == OpKind::Matmul) else {
        return 0;
    };
    g.op(mm)
        .inputs
        .iter()
        .filter(|u| written_whole(g, u.tensor))
        .map(|u| g.tensor(u.tensor).bytes)
        .fold(written, u64::saturating_add)
}

/// Whether an op of the step wrote `t` whole: its producer, through at most 64 layout ops
/// (views, or copies of what they view), is an op other than an `update`.
fn written_whole(g: &crate::graph::Graph, mut t: TensorId) -> bool {
    for _ in 0..64 {
        let Some(p) = g.producer(t) else {
            return false;
        };
        let op = g.op(p);
        match op.inputs.first() {
            _ if op.kind == OpKind::Update => return false,
            Some(u) if op.kind.is_layout() => t = u.tensor,
            _ => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_batchnorm;
#[cfg(test)]
mod tests_cat;
#[cfg(test)]
mod tests_group_norm;
#[cfg(test)]
mod tests_host;
#[cfg(test)]
mod tests_matmul_stream;
#[cfg(test)]
mod tests_sdpa;
#[cfg(test)]
mod tests_softmax;
