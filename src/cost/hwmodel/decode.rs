//! Decode priced as it runs (issue 24 item 2; part of [`super`]): layout-only kernels by whose
//! copy kernel runs them ([`CopyKernel`]: PyTorch eager's or a compiler's generated one),
//! cuBLAS's split-K GEMMs and their reduction kernel ([`SplitKCoeffs`]), and the host's time
//! per kernel of an eager step ([`HostCoeffs`], [`step_time`]). The other two decode terms
//! live here and with their kernels: an `update` loops over its rows ([`loop_elements`]),
//! and a key/value head broadcast over its query heads is read once
//! ([`super::matmul_shape`]).

use super::{
    Family, FamilyCoeffs, HwModel, MatmulShape, Prediction, check_range, finish, scalar_kernel,
};
use crate::graph::{Graph, OpId};
use crate::traffic::GroupTraffic;
use crate::types::OpKind;
use serde::{Deserialize, Serialize};

/// Whose code runs a kernel that only copies a layout ([`HwModel::with_copy_kernel`]): PyTorch
/// eager's copy kernels (`families.copy_eager`, the default) or a compiler's generated one
/// (`families.copy_generated`: Inductor's Triton, XLA's or TVM's fusion). `--fuser inductor`,
/// `xla` and `tvm` choose `Generated`; a runtime (`--runtime`) may choose for itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CopyKernel {
    #[default]
    Eager,
    Generated,
}

impl CopyKernel {
    pub fn as_str(self) -> &'static str {
        match self {
            CopyKernel::Eager => "eager",
            CopyKernel::Generated => "generated",
        }
    }
}

/// When cuBLAS runs a GEMM as split-K and what its reduction costs (`model.split_k`, fitted
/// by validation/gpu/h100-calib-e/fit_splitk.py). A GEMM that is not batched, with `K ≥
/// min_k` and fewer than `max_tiles_fraction · sms` output tiles of `tile_m × tile_n`, splits its
/// K loop `splits = max(2, min(⌊K / k_per_split⌋, ⌊sms / tiles⌋))` ways: the GEMM kernel
/// writes `splits` partial products in f32 (`M·N·4·splits` bytes) and `splitKreduce_kernel`
/// reads them and writes the output, priced as a memory-bound kernel with `reduce` (elements:
/// the `M·N` outputs). Decode's skinny projections (M ≤ 64, K ≥ 4,096, N ≤ 4,096) split; a
/// layer's gate and up projections (N = 14,336) and prefill's GEMMs do not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitKCoeffs {
    /// The shortest K loop cuBLAS splits.
    pub min_k: f64,
    /// The output tile the tile count is taken in: `tile_m` rows by `tile_n` columns (the
    /// skinny tiles of cuBLAS's nvjet kernels for such shapes, 32 × 64 on an H100).
    pub tile_m: f64,
    pub tile_n: f64,
    /// A GEMM splits when its output tiles are fewer than this fraction of the SMs.
    pub max_tiles_fraction: f64,
    /// The shortest K loop of one split.
    pub k_per_split: f64,
    /// The reduction kernel (`splitKreduce_kernel`).
    pub reduce: FamilyCoeffs,
    /// Which of those GEMMs cuBLAS still leaves whole ([`SplitKWork`]); none: every one splits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work: Option<SplitKWork>,
    /// Where the coefficients come from.
    pub source: String,
}

/// Which skinny GEMMs cuBLAS splits, among those [`SplitKCoeffs`] lets split (issue 24,
/// fitted by validation/gpu/models/fit_splitk_work.py on the eager traces of batches 1-38):
/// one with fewer output tiles than `few_tiles_fraction · sms` splits; one with more splits
/// only when its K loop gives each SM `K · sms / tiles ≥ min_work` of work. Tiles here are
/// cuBLAS's skinny kernels' (nvjet `64x8` for up to 8 rows, `128x16` for 9 to 16, `64x16`
/// above): `tile_n` columns wide, `tile_n_16` for 9 to 16 rows. A decode's square projections
/// (N = K = 4,096 at up to 8 rows: 64 tiles, 8,448) run whole; its K and V projections (16
/// tiles) and its down projection (K = 14,336: 29,568) split.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitKWork {
    /// Fewer skinny tiles than this fraction of the SMs: the GEMM splits.
    pub few_tiles_fraction: f64,
    /// More: it splits only when `K · sms / tiles` reaches this.
    pub min_work: f64,
    /// The skinny tiles' width in columns for GEMMs of 9 to 16 rows (`tile_n` otherwise).
    pub tile_n_16: f64,
}

/// What the host spends per kernel of a step PyTorch eager launches one by one (`model.host`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostCoeffs {
    /// Host microseconds per kernel of the plan (Python, the dispatcher and the launch call;
    /// a split-K GEMM's reduction comes from the same cuBLAS call and costs none).
    pub eager_us: f64,
    /// `--runtime eager --launch eager`: host microseconds per kernel of the runtime's plan
    /// as `fgraph emit torch` writes it (one functional PyTorch call per op; issue 24's
    /// whole-model harness). Absent: that runtime adds `launch_eager_us` per kernel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_eager_us: Option<f64>,
    /// `--runtime compile --launch eager`: host microseconds per kernel of the code
    /// TorchInductor generates (its Python wrapper and Triton's launcher).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_compile_us: Option<f64>,
    /// `--runtime compile --launch eager`: host microseconds per kernel, in the place of
    /// `runtime_compile_us`, when the step's graph holds an ungrouped convolution (Inductor
    /// lays such a graph out channels-last and calls cuDNN for each convolution: the compiled
    /// ResNets, ConvNeXt, Whisper's encoder and SD 1.5's blocks took 3.0-3.4 probes a CUDA
    /// kernel, the transformers 2.3-2.6; VALIDATION.md §51). Absent: `runtime_compile_us`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_compile_conv_graph_us: Option<f64>,
    /// The probe of the hosts `runtime_eager_us` and `runtime_compile_us` were fitted on:
    /// microseconds per `torch.add` of two small tensors launched one after another
    /// (`validation/gpu/models/plain_rounds.py`'s probe). It prices nothing itself: it says
    /// which host the figures describe, and `--host-probe-us` ([`HwModel::with_host_probe`])
    /// scales them by a host's own probe over it (VALIDATION.md §43). Absent: not stated, and
    /// the figures cannot be scaled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_us: Option<f64>,
    /// `--runtime eager --launch eager`: host microseconds an ungrouped convolution's kernel
    /// costs on top of `runtime_eager_us`, where a host's cuDNN calls cost more than other
    /// kernels (one H100 host's ResNet-50 and SD 1.5 steps, not another's: VALIDATION.md
    /// §28-29; the presets state 0; grouped and depthwise ones add nothing). Absent:
    /// nothing added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_conv_eager_us: Option<f64>,
    /// `--runtime compile --launch eager`: the same on top of `runtime_compile_us` (Inductor
    /// calls cuDNN for a convolution, an extern kernel). Absent: nothing added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_conv_compile_us: Option<f64>,
    /// `--runtime compile --launch eager`: host microseconds per tensor the compiled step
    /// takes (each graph input and weight) before its first kernel: Dynamo's guards and the
    /// code that hands the step its parameters, and the size-and-stride assert Inductor's
    /// wrapper makes of each input (VALIDATION.md §47: ResNet-50 passes 268 tensors to 105
    /// CUDA kernels, a decoder 0.6 a kernel). Absent: nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_compile_input_us: Option<f64>,
    /// `--runtime`: what a kernel's hardware-model time (fitted under Nsight Compute, one
    /// kernel at a time with L2 flushed) overstates against the same kernel in a stream of
    /// kernels, per CUDA kernel: the runtimes take it off every kernel (never below half the
    /// kernel's time). Issue 24's whole-model profiles: a decode step's small kernels run
    /// about 1.5 µs shorter in the profiler's trace than under ncu. Absent: nothing taken off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_discount_us: Option<f64>,
    /// `--runtime`: the GPU-side gap between two kernels of a stream (a CUDA graph's
    /// launch), in place of `launch_graph_us` (the gap of the calibration's single kernels).
    /// Absent: `launch_graph_us`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_gap_us: Option<f64>,
    /// `--runtime`: how much longer a compute-bound tensor-core kernel (a matmul, attention,
    /// convolution or 8-bit GEMM whose compute term exceeds its memory term) takes in a
    /// sustained stream than alone: the GPU lowers its clocks to stay within its power limit.
    /// Issue 24's prefill steps replayed from CUDA graphs ran 3-15% longer than the sum of
    /// their kernels in a single profiled step; decode steps 0-2%. Absent: 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sustained_derate: Option<f64>,
    /// `--runtime`: the share of a step's time in compute-bound tensor-core kernels up to
    /// which the clocks hold; above it the derate grows in proportion, to the whole
    /// `sustained_derate` at a share of 1 (a step of long GEMMs back to back holds the GPU at
    /// its power limit; BERT's and ResNet's steps, whose GEMMs alternate with memory-bound
    /// kernels, ran no slower than their kernels). Absent: the whole derate at any share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sustained_share: Option<f64>,
    /// `--runtime eager`: the fraction of a DRAM byte's time that PyTorch's vectorized
    /// elementwise kernel takes to read a byte of a tensor the kernel just before it wrote,
    /// when that tensor fits in `l2_effective_bytes` (it is read from L2: ResNet-50's ReLUs
    /// after its batch norms ran at up to 4 TB/s). Absent: every byte from DRAM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_read_factor: Option<f64>,
    /// `--runtime`: in a stream, a compute-bound matmul kernel's fixed start-up and tail
    /// (`mm_overhead_us`, measured alone) overlaps its compute: its time is `(compute^p +
    /// overhead^p)^(1/p)` with `p` this exponent, in place of `compute + overhead −
    /// stream_discount_us` (the profiler's traces of issue 24's whole models: BERT's and
    /// GPT-2's 5-40 µs GEMMs took 1-2 µs over their compute, not 2.5; VALIDATION.md §37).
    /// Absent: the overhead is added whole, less the stream discount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matmul_overlap_exponent: Option<f64>,
    /// `--runtime`: the fraction of a DRAM byte's time a memory-bound matmul takes for a
    /// byte that lives in L2 in a stream: one it writes, or one of an operand an earlier
    /// kernel of the step wrote whole (not a weight, a graph input or a cache `update`
    /// appends to), in the share `1 / (1 + (footprint / l2_effective_bytes)^e)` of them that
    /// stays there (`e` [`HostCoeffs::matmul_resident_exponent`], `footprint` the kernel's
    /// bytes). Measured alone, with L2 flushed, none does; BERT's attention matmuls of 16-50
    /// MB ran 20-40% under their DRAM time in a stream (VALIDATION.md §37). Absent: every
    /// byte at DRAM's rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matmul_resident_factor: Option<f64>,
    /// `--runtime`: the exponent `e` of [`HostCoeffs::matmul_resident_factor`]'s share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matmul_resident_exponent: Option<f64>,
    /// Where the figure comes from.
    pub source: String,
}

/// A step's time on a GPU fed by a host ([`step_time`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The step's time: the end of its last kernel.
    pub step_s: f64,
    /// The host's time per kernel, where a host term applies (`--launch eager` with
    /// `model.host`); `None`: the kernels' times and launches add up.
    pub host_s: Option<f64>,
    /// Kernels the GPU waited on the host for (it had finished the kernel before when the host
    /// issued this one).
    pub host_bound: usize,
}

/// The time of a step of `kernels` (the plan's, in order). Replayed from a CUDA graph (`host_s`
/// none) the host is out of the loop: the sum of their times, launches included. Launched one
/// by one from PyTorch eager, the host spends `host_s` on each kernel before the GPU can start
/// it, and the GPU runs each for its `kernel_s` plus `gpu_launch_s` per launch (the GPU-side
/// gap, a CUDA graph's launch cost): kernel `i` starts at `max(end of kernel i − 1, (i + 1) ·
/// host_s)`. Kernels longer than the host's time hide it (prefill: the sum of the kernels);
/// shorter ones wait on it (decode: `kernels · host_s`). Issue 24 measured eager Llama-3-8B
/// decode without CUDA graphs host-bound at 25–30 µs a kernel. `extra_host_s[i]`, where
/// given, is what kernel `i` costs the host beyond `host_s` (a cuDNN convolution's set-up).
pub fn step_time(
    kernels: &[Prediction],
    host_s: Option<f64>,
    extra_host_s: &[f64],
    gpu_launch_s: f64,
) -> Step {
    let Some(h) = host_s else {
        return Step {
            step_s: kernels.iter().map(|k| k.time_s).sum(),
            host_s: None,
            host_bound: 0,
        };
    };
    let (mut host, mut gpu, mut waited) = (0.0f64, 0.0f64, 0usize);
    for (i, k) in kernels.iter().enumerate() {
        host += h + extra_host_s.get(i).copied().unwrap_or(0.0);
        if host > gpu {
            waited += 1;
        }
        gpu = gpu.max(host) + k.kernel_s + k.launches() as f64 * gpu_launch_s;
    }
    Step {
        step_s: gpu,
        host_s: Some(h),
        host_bound: waited,
    }
}

/// A GEMM run as split-K ([`HwModel::split_k`]): what the extra reduction kernel adds to its
/// prediction (already counted in the prediction's reads, writes, kernel time and launches).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SplitK {
    /// The ways K is split.
    pub splits: u64,
    /// The partial products' bytes, written by the GEMM and read by the reduction.
    pub partial_bytes: u64,
    /// The reduction kernel's own time, launch excluded.
    pub reduce_s: f64,
}

/// Whether op `o` is a permute that moves the innermost axis (a transpose).
fn transposes(g: &Graph, o: OpId) -> bool {
    let op = g.op(o);
    let dims = op.list_attr("dims").unwrap_or(&[]);
    op.kind == OpKind::Permute
        && i64::try_from(dims.len())
            .ok()
            .is_some_and(|n| dims.last() != Some(&(n - 1)))
}

impl HwModel {
    /// This model with layout-only kernels run by `k`'s copy kernels: PyTorch eager's
    /// (the default) or a compiler's generated ones. `--fuser inductor`, `xla` and `tvm` ask
    /// for [`CopyKernel::Generated`].
    pub fn with_copy_kernel(&self, k: CopyKernel) -> HwModel {
        HwModel {
            copy_kernel: k,
            ..self.clone()
        }
    }

    /// This model with its runtimes' host figures (`host.runtime_*_us`, the convolution terms
    /// too) scaled to a host whose probe takes `probe_us` (`--host-probe-us`): each times
    /// `probe_us / host.probe_us`, the probe of the hosts they were fitted on (VALIDATION.md
    /// §43: the host time per CUDA kernel followed the probe, 5.1-10 µs on the lent H100s).
    /// An error names what is missing or out of range.
    pub fn with_host_probe(&self, probe_us: f64) -> Result<HwModel, String> {
        check_range("probe_us", "--host-probe-us", probe_us)?;
        let mut m = self.clone();
        let Some(host) = m.host.as_mut() else {
            return Err("the hardware model has no host figures (`model.host`) to scale".into());
        };
        let Some(reference) = host.probe_us else {
            return Err(
                "the hardware model states no host probe (`model.host.probe_us`) to scale its \
                 host figures from"
                    .into(),
            );
        };
        let scale = probe_us / reference;
        for v in [
            &mut host.runtime_eager_us,
            &mut host.runtime_compile_us,
            &mut host.runtime_compile_conv_graph_us,
            &mut host.runtime_conv_eager_us,
            &mut host.runtime_conv_compile_us,
            &mut host.runtime_compile_input_us,
        ] {
            *v = v.map(|us| us * scale);
        }
        host.probe_us = Some(probe_us);
        Ok(m)
    }

    /// The coefficients of the kernel made of `ops` when it only copies a layout (every op a
    /// layout op) and a copy family prices it; `None` otherwise (priced as before issue 24).
    ///
    /// - [`CopyKernel::Generated`] (a compiler's kernel): `families.copy_generated`.
    /// - [`CopyKernel::Eager`] (or no `copy_generated`): a lone reshape or permute stays
    ///   PyTorch's copy of contiguous runs or transpose ([`scalar_kernel`]: `scalar`,
    ///   `layout_copy`, as fitted on batch g); several layout ops with a permute that moves
    ///   the innermost axis are a transpose (`layout_copy`); any other (an expand: the
    ///   broadcast copy of `repeat_kv`; a lone slice; a reshape of a non-transposing permute)
    ///   is PyTorch's `direct_copy_kernel` (`copy_eager`).
    pub(super) fn copy_family(&self, g: &Graph, ops: &[OpId]) -> Option<FamilyCoeffs> {
        if ops.is_empty() || !ops.iter().all(|&o| g.op(o).kind.is_layout()) {
            return None;
        }
        let f = &self.families;
        if let (CopyKernel::Generated, Some(c)) = (self.copy_kernel, f.copy_generated) {
            return Some(c);
        }
        if ops.len() == 1 && scalar_kernel(g, ops).is_some() {
            return None;
        }
        if ops.iter().any(|&o| transposes(g, o)) {
            return f.layout_copy;
        }
        f.copy_eager
    }

    /// The prediction for the kernel made of `ops` when it only copies a layout and a copy
    /// family prices it ([`HwModel::copy_family`]): the memory-bound formula with that
    /// family, `family` [`Family::Copy`]; `None` otherwise.
    pub(super) fn copy_kernel_prediction(
        &self,
        g: &Graph,
        ops: &[OpId],
        traffic: &GroupTraffic,
        elements: u64,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Option<Prediction> {
        let c = self.copy_family(g, ops)?;
        let memory_s = traffic.bytes_read.saturating_add(traffic.bytes_written) as f64
            / (hw.bandwidth * c.bandwidth_efficiency);
        let compute_s = elements as f64 / c.elements_per_s;
        let mut p = finish(
            Family::Copy,
            traffic.bytes_read as f64,
            traffic.bytes_written,
            compute_s,
            memory_s,
            launch_s,
        );
        p.kernel_s += c.overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        Some(p)
    }

    /// Every coefficient of `split_k` and `host` in its range of [`super::RANGES`].
    pub(super) fn validate_decode(&self) -> Result<(), String> {
        if let Some(h) = &self.host {
            check_range("eager_us", "model.host.eager_us", h.eager_us)?;
            if let Some(v) = h.runtime_eager_us {
                check_range("runtime_eager_us", "model.host.runtime_eager_us", v)?;
            }
            if let Some(v) = h.runtime_compile_us {
                check_range("runtime_compile_us", "model.host.runtime_compile_us", v)?;
            }
            if let Some(v) = h.runtime_compile_conv_graph_us {
                check_range(
                    "runtime_compile_conv_graph_us",
                    "model.host.runtime_compile_conv_graph_us",
                    v,
                )?;
            }
            if let Some(v) = h.probe_us {
                check_range("probe_us", "model.host.probe_us", v)?;
            }
            if let Some(v) = h.runtime_conv_eager_us {
                check_range(
                    "runtime_conv_eager_us",
                    "model.host.runtime_conv_eager_us",
                    v,
                )?;
            }
            if let Some(v) = h.runtime_conv_compile_us {
                check_range(
                    "runtime_conv_compile_us",
                    "model.host.runtime_conv_compile_us",
                    v,
                )?;
            }
            if let Some(v) = h.runtime_compile_input_us {
                check_range(
                    "runtime_compile_input_us",
                    "model.host.runtime_compile_input_us",
                    v,
                )?;
            }
            if let Some(v) = h.stream_discount_us {
                check_range("stream_discount_us", "model.host.stream_discount_us", v)?;
            }
            if let Some(v) = h.graph_gap_us {
                check_range("graph_gap_us", "model.host.graph_gap_us", v)?;
            }
            if let Some(v) = h.sustained_derate {
                check_range("sustained_derate", "model.host.sustained_derate", v)?;
            }
            if let Some(v) = h.sustained_share {
                check_range("sustained_share", "model.host.sustained_share", v)?;
            }
            if let Some(v) = h.warm_read_factor {
                check_range("warm_read_factor", "model.host.warm_read_factor", v)?;
            }
            for (key, v) in [
                ("matmul_overlap_exponent", h.matmul_overlap_exponent),
                ("matmul_resident_factor", h.matmul_resident_factor),
                ("matmul_resident_exponent", h.matmul_resident_exponent),
            ] {
                if let Some(v) = v {
                    check_range(key, &format!("model.host.{key}"), v)?;
                }
            }
        }
        if let Some(k) = &self.split_k {
            for (key, v) in [
                ("min_k", k.min_k),
                ("tile_m", k.tile_m),
                ("tile_n", k.tile_n),
                ("max_tiles_fraction", k.max_tiles_fraction),
                ("k_per_split", k.k_per_split),
                ("bandwidth_efficiency", k.reduce.bandwidth_efficiency),
                ("elements_per_s", k.reduce.elements_per_s),
                ("overhead_us", k.reduce.overhead_us),
            ] {
                let shown = match key {
                    "bandwidth_efficiency" | "elements_per_s" | "overhead_us" => {
                        format!("model.split_k.reduce.{key}")
                    }
                    _ => format!("model.split_k.{key}"),
                };
                check_range(key, &shown, v)?;
            }
            if let Some(w) = &k.work {
                for (key, v) in [
                    ("few_tiles_fraction", w.few_tiles_fraction),
                    ("min_work", w.min_work),
                    ("tile_n_16", w.tile_n_16),
                ] {
                    check_range(key, &format!("model.split_k.work.{key}"), v)?;
                }
            }
        }
        Ok(())
    }

    /// The ways cuBLAS splits the K loop of GEMM `s` on a GPU of `sms` SMs (`model.split_k`,
    /// [`SplitKCoeffs`]): `None` when it does not split (a batched GEMM, a short K
    /// loop, or enough output tiles to fill the GPU).
    pub fn split_k_ways(&self, s: &MatmulShape, sms: u32) -> Option<u64> {
        let c = self.split_k.as_ref()?;
        let sms = f64::from(sms.max(1));
        let tiles = (s.m as f64 / c.tile_m.max(1.0)).ceil().max(1.0)
            * (s.n as f64 / c.tile_n.max(1.0)).ceil().max(1.0);
        let k = s.k as f64;
        if s.batch != 1 || k < c.min_k || tiles >= c.max_tiles_fraction * sms {
            return None;
        }
        if let Some(w) = &c.work {
            let tile_n = if s.m > 8 && s.m <= 16 {
                w.tile_n_16
            } else {
                c.tile_n
            };
            let skinny = (s.m as f64 / c.tile_m.max(1.0)).ceil().max(1.0)
                * (s.n as f64 / tile_n.max(1.0)).ceil().max(1.0);
            if skinny >= w.few_tiles_fraction * sms && k * sms / skinny < w.min_work {
                return None;
            }
        }
        let ways = (k / c.k_per_split.max(1.0))
            .floor()
            .min((sms / tiles).floor())
            .max(2.0);
        Some(ways as u64)
    }

    /// `p`, the prediction of GEMM `s` alone, with cuBLAS's split-K where it applies: the
    /// GEMM also writes its partial products (f32), and a reduction kernel reads them and
    /// writes the output (its time, a launch, the partials read and written added).
    pub(super) fn with_split_k(
        &self,
        mut p: Prediction,
        s: &MatmulShape,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let (Some(c), Some(splits)) = (
            self.split_k.as_ref(),
            self.split_k_ways(s, hw.sms.unwrap_or(132)),
        ) else {
            return p;
        };
        let outputs = s.m as f64 * s.n as f64;
        let partials = outputs * 4.0 * splits as f64;
        let out_bytes = outputs * s.elem_bytes as f64;
        // The GEMM writes the partials instead of the output.
        let gemm_memory =
            (partials - out_bytes).max(0.0) / (hw.bandwidth * self.mm_bandwidth_efficiency);
        let r = c.reduce;
        let reduce_s = ((partials + out_bytes) / (hw.bandwidth * r.bandwidth_efficiency))
            .max(outputs / r.elements_per_s)
            + r.overhead_us * 1e-6;
        let partial_bytes = partials.round().min(u64::MAX as f64) as u64;
        p.dram_read = p.dram_read.saturating_add(partial_bytes);
        p.dram_written = p.dram_written.saturating_add(partial_bytes);
        let start_up = p.kernel_s - p.compute_s.max(p.memory_s);
        p.memory_s += gemm_memory;
        p.kernel_s = p.compute_s.max(p.memory_s) + start_up + reduce_s;
        p.launch_s += launch_s;
        p.time_s = p.kernel_s + p.launch_s;
        p.split_k = Some(SplitK {
            splits,
            partial_bytes,
            reduce_s,
        });
        p
    }
}

/// Serde's test for a count not worth printing.
pub(super) fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

impl Prediction {
    /// Kernels launched: one, a split-K GEMM's reduction, and a call's other kernels
    /// (`extra_launches`: cuDNN's transposes around an NCHW convolution).
    pub fn launches(&self) -> usize {
        1 + usize::from(self.split_k.is_some()) + self.extra_launches
    }

    /// This kernel and then `b`, as one call: bytes and times summed, `b`'s kernels counted
    /// among the extra launches; no overhead a stream overlaps (each kernel takes the
    /// stream's discount, neither the overlap).
    pub fn then(self, b: Prediction) -> Prediction {
        let (kernel_s, launch_s) = (self.kernel_s + b.kernel_s, self.launch_s + b.launch_s);
        Prediction {
            dram_read: self.dram_read.saturating_add(b.dram_read),
            dram_written: self.dram_written.saturating_add(b.dram_written),
            compute_s: self.compute_s + b.compute_s,
            memory_s: self.memory_s + b.memory_s,
            kernel_s,
            launch_s,
            time_s: kernel_s + launch_s,
            extra_launches: self.extra_launches + b.launches(),
            overhead_s: 0.0,
            ..self
        }
    }
}

/// The elements op `o`'s loop visits: its output's, except an `update`, which writes only its
/// new rows into the buffer (in place, the cache aliased): a KV-cache append of one token
/// touches `B · heads · head_dim` elements, not the cache's `B · heads · T · head_dim`
/// (issue 24: priced over the whole cache it took 7.6 µs at 4k context and 41.5 µs at 32k,
/// against 2.7–4.7 µs measured).
pub(super) fn loop_elements(g: &Graph, o: OpId) -> u64 {
    let op = g.op(o);
    let t = g.tensor(op.output);
    let whole = t.bytes / t.dtype.bytes().max(1);
    match (op.kind, op.inputs.get(1)) {
        (crate::types::OpKind::Update, Some(new)) => {
            (g.use_bytes(new) / g.tensor(new.tensor).dtype.bytes().max(1)).min(whole)
        }
        _ => whole,
    }
}
