//! The seam between the runtimes and the hardware model's per-kernel pricing: every kernel
//! a runtime predicts is priced here, by the hardware model's own functions
//! (`crate::cost::hwmodel`), so that a change to how the model prices a kind of kernel
//! reaches the runtimes through these few functions and nowhere else.
//!
//! - [`Pricing::layout_copy`]: a copy with no arithmetic (a `reshape` that cannot be a view,
//!   an operand matmul copies), as PyTorch's eager copy kernel runs it
//!   (`elementwise_kernel` over strided runs: `families.scalar`; a transposing copy:
//!   `families.layout_copy`) or as a Triton kernel Inductor generates (the `elementwise`
//!   family: a vectorised streaming kernel).
//! - [`Pricing::kernel`]: a kernel of ops from the file. PyTorch's own kernel (eager) is the
//!   hardware model's prediction for the op alone ([`crate::cost::hwmodel::predict`]); a
//!   Triton kernel is the same prediction, except that a lone elementwise op or concat is
//!   priced as the vectorised `elementwise` family, not as PyTorch's non-vectorised kernel
//!   that a broadcast or a widening cast picks in eager, or its `torch.cat`; a Triton norm, or softmax over rows of at most 1,024
//!   (a persistent reduction), at the `elementwise` family's rates too (one streaming pass),
//!   a Triton softmax over longer rows (a looped reduction) at `families.softmax_looped` or
//!   `softmax_looped_masked` ([`super::rows`]),
//!   and a Triton group norm's two passes, and a Triton pool; a Triton kernel's 2-D
//!   convolution stated NCHW as cuDNN runs it channels-last (Inductor's layout optimisation),
//!   after Inductor's copy of its weight into that layout when it is wider than 1×1; in such
//!   a graph a Triton group norm's input is channels-last, and its moments pass reads across
//!   the channels where Inductor's split straddles them (`hwmodel::inductor`).
//! - [`Pricing::padded`]: Inductor's padding of a misaligned GEMM, where it pays.
//! - [`Pricing::launch_s`]: the launch cost per kernel (`--launch`; in a CUDA graph the
//!   model's `host.graph_gap_us` where it has one), and [`Pricing::cuda_kernels`]: how many
//!   CUDA kernels a priced kernel launches (a cuBLAS split-K GEMM and its reduction are 2:
//!   `hwmodel`'s `split_k`).
//! - [`Pricing::in_stream`]: a kernel's time in a stream of kernels rather than alone under
//!   Nsight Compute, where the hardware model was fitted (`host.stream_discount_us` less per
//!   CUDA kernel); [`Pricing::sustains`], [`Pricing::sustained_derate`] and
//!   [`Pricing::derated`]: how much longer the step's compute-bound tensor-core kernels run,
//!   by their share of it (`host.sustained_derate`, `host.sustained_share`).
//! - [`Pricing::one_row_copy`]: the device-to-device copy of a one-row batched matmul's
//!   first operand that a compiled decode's `bmm` makes before cuBLAS's kernel.
//! - [`Pricing::batch_norm_stats`]: the kernels PyTorch's own inference batch norm runs on
//!   its statistics before its own ([`crate::ops::batchnorm`]); [`Pricing::warm`]: an eager
//!   elementwise kernel reading from L2 what the kernel before it wrote
//!   (`host.warm_read_factor`).

use crate::cost::hwmodel::{self, Family, HwModel, Prediction};
use crate::cost::{Hardware, LaunchMode};
use crate::fusion::AttentionPattern;
use crate::graph::{Graph, OpId};
use crate::traffic::GroupTraffic;

use super::rows::{looped, looped_softmax, triton_rows};

/// How much faster (predicted) padding a misaligned GEMM must be for Inductor to pad it
/// ([`Pricing::padded`]). Read off the three LM heads measured under compile
/// (validation/gpu/models): GPT-2 small at 512 tokens kept CUTLASS's unaligned kernel (in its
/// trace) where padding is predicted 2.9 times faster; GPT-2 medium at batch 4 (4.8 times) ran
/// padded (its padding copy in the trace), and GPT-2 small at 1,024 tokens (3.8 times; no
/// trace) ran 37% faster than the unpadded prediction. Inductor decides by benchmarking both
/// at compile time; fgraph has only its predictions.
pub const PAD_MARGIN: f64 = 3.3;

/// The largest transposed tile, in bytes written, that Inductor's transposing copy moves
/// faster than PyTorch's own ([`Pricing::layout_copy`]): an H100 SM's 256 KiB of L1 and
/// shared memory. Read off the decode steps of validation/gpu/models batches 2-10: every Kᵀ
/// copy whose `positions × head_dim` tile is at most 256 KiB ran at 169-220 G
/// elements/s, every larger one at 127-153 G, whether the copy fits in L2 or not.
pub const TRITON_TILE_BYTES: f64 = 262_144.0;

/// How much faster than `copy_transpose` Inductor's transposing copy of a tile within
/// [`TRITON_TILE_BYTES`] runs: fitted on the five such copies of batches 2-8 (the geometric
/// mean of predicted over measured; batches 9 and 10 held out).
pub const TRITON_TILE_SPEEDUP: f64 = 1.25;

/// Who runs a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    /// PyTorch's own CUDA kernels (eager), and cuBLAS and cuDNN.
    Eager,
    /// Code TorchInductor generates (Triton), and the library calls it keeps.
    Triton,
}

/// What a layout copy moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyShape {
    /// DRAM bytes read: the distinct elements of the source (a broadcast read once).
    pub read: u64,
    /// Bytes written: every element of the copy.
    pub written: u64,
    /// Elements written.
    pub elements: u64,
    /// When the copy moves the innermost axis (a transpose) rather than contiguous runs, the
    /// elements of one transposed tile ([`super::layout::Layout::transposed_tile`]).
    pub transposed_tile: Option<u64>,
    /// Whether it broadcasts (writes elements it reads once several times).
    pub broadcast: bool,
}

/// The prices of one estimate: the model, the GPU and the launch mode, with the model's
/// copy coefficients made ready once.
pub struct Pricing<'m> {
    model: &'m HwModel,
    hw: &'m Hardware,
    launch_s: f64,
    /// What a CUDA kernel's time is shortened by in a stream (`host.stream_discount_us`).
    discount_s: f64,
    /// How much longer a compute-bound tensor-core kernel takes when sustained
    /// (`host.sustained_derate`), and the share of the step in such kernels up to which it
    /// takes nothing longer (`host.sustained_share`).
    derate: f64,
    derate_share: Option<f64>,
    /// The fraction of a DRAM byte's time an eager elementwise kernel takes to read a byte
    /// the kernel before it wrote (`host.warm_read_factor`; 1 without it).
    warm_read: f64,
    /// How a compute-bound matmul's overhead overlaps its compute in a stream
    /// (`host.matmul_overlap_exponent`).
    overlap: Option<f64>,
    /// How a memory-bound matmul's L2-resident bytes are priced in a stream
    /// (`host.matmul_resident_factor` and `matmul_resident_exponent`).
    resident: Option<(f64, f64)>,
    /// `model` with `families.copy_eager` (else `families.scalar`) in the place of
    /// `families.elementwise` (PyTorch's copy of contiguous runs or a broadcast), with
    /// `families.layout_copy` (a transposing copy, PyTorch's or Triton's), and with
    /// `families.copy_generated` (Inductor's Triton copy of contiguous runs or a broadcast);
    /// each as `model` where it lacks the family. Measured on a decode step's broadcast
    /// copies of K and V (validation/gpu/models, batch 2): PyTorch's broadcast copy moves 475
    /// G elements/s (`copy_eager` 481), Triton's 1.2 T (`copy_generated` 1.21), the
    /// transposing copy of Kᵀ about 140 G under both (`layout_copy` 115).
    eager_runs: HwModel,
    eager_transpose: HwModel,
    triton_runs: HwModel,
    /// `model` pricing a matmul after the runtime copied its broadcast operand
    /// ([`HwModel::unfold_broadcast`]).
    unfolded: HwModel,
    /// `model` pricing every matmul as aligned (Inductor's padded operands, [`Pricing::padded`]).
    aligned: HwModel,
    /// `model` with Triton's fused norms and persistent softmaxes at the streaming
    /// (`elementwise`) family's rates ([`Pricing::kernel`]).
    triton_rows: HwModel,
    /// `model` with Inductor's looped softmax at `families.softmax_looped`'s rates, and
    /// under a causal mask at `softmax_looped_masked`'s, its rows in blocks of
    /// [`super::rows::LOOPED_ROW_BLOCK`] ([`looped_softmax`]); none without the family.
    triton_looped: Option<HwModel>,
    triton_looped_masked: Option<HwModel>,
}

impl<'m> Pricing<'m> {
    pub fn new(model: &'m HwModel, hw: &'m Hardware, launch: LaunchMode) -> Self {
        let with = |c: Option<hwmodel::FamilyCoeffs>| {
            let mut m = model.clone();
            if let Some(c) = c {
                m.families.elementwise = c;
            }
            m
        };
        let host = model.host.as_ref();
        let gap = host.and_then(|h| h.graph_gap_us).map(|us| us * 1e-6);
        Pricing {
            model,
            hw,
            launch_s: match (launch, gap) {
                (LaunchMode::Graph, Some(g)) => g,
                _ => hw.launch(launch),
            },
            discount_s: host.and_then(|h| h.stream_discount_us).unwrap_or(0.0) * 1e-6,
            derate: host.and_then(|h| h.sustained_derate).unwrap_or(0.0),
            derate_share: host.and_then(|h| h.sustained_share),
            warm_read: host.and_then(|h| h.warm_read_factor).unwrap_or(1.0),
            overlap: host.and_then(|h| h.matmul_overlap_exponent),
            resident: host.and_then(|h| h.matmul_resident_factor.zip(h.matmul_resident_exponent)),
            eager_runs: with(model.families.copy_eager.or(model.families.scalar)),
            triton_runs: with(model.families.copy_generated),
            eager_transpose: with(
                model
                    .families
                    .copy_transpose
                    .or(model.families.layout_copy)
                    .or(model.families.scalar),
            ),
            unfolded: HwModel {
                unfold_broadcast: true,
                ..model.clone()
            },
            aligned: HwModel {
                mm_unaligned_efficiency: None,
                ..model.clone()
            },
            triton_rows: {
                let mut m = model.clone();
                m.families.norm = m.families.elementwise;
                m.families.softmax = m.families.elementwise;
                m.families.group_norm = Some(m.families.elementwise);
                m.families.scalar = Some(m.families.elementwise);
                m.families.pool = Some(m.families.elementwise);
                m.families.pool_global_channels_last = Some(m.families.elementwise);
                m.softmax_row_scale = Vec::new();
                // A Triton softmax is no warp per row of PyTorch's.
                m.softmax_row_cols_per_s = None;
                m
            },
            triton_looped: model.families.softmax_looped.map(|c| looped(model, c)),
            triton_looped_masked: model
                .families
                .softmax_looped_masked
                .map(|c| looped(model, c)),
        }
    }

    /// Inductor's `pad_mm` for matmul `m` of kernel `ops`: when cuBLAS would run it as an
    /// unaligned GEMM (K or N not a multiple of 16 bytes, `mm_unaligned_efficiency`), Inductor
    /// benchmarks padding the misaligned operands (a Triton copy of each into a padded layout)
    /// and an aligned GEMM against the unaligned one, and keeps the faster. `Some((copies,
    /// gemm))` when padding wins by [`PAD_MARGIN`]: the copies' shapes and the aligned kernel.
    /// Measured (validation/gpu/models batch 6): GPT-2 medium's LM head against the tied
    /// embedding (N = 50,257) ran a 64 µs padding copy and cuBLAS's full-rate GEMM (590 µs)
    /// under compile, where eager ran CUTLASS's align1 kernel (4,059 µs).
    pub fn padded(
        &self,
        g: &Graph,
        ops: &[OpId],
        m: OpId,
        traffic: &GroupTraffic,
        unaligned: &Prediction,
    ) -> Option<(Vec<(crate::graph::TensorId, CopyShape)>, Prediction)> {
        let s = hwmodel::matmul_shape(g, m)?;
        if s.aligned() || self.model.mm_unaligned_efficiency.is_none() {
            return None;
        }
        let row = |d: u64| d.saturating_mul(s.elem_bytes).is_multiple_of(16);
        let op = g.op(m);
        // K pads both operands; N the second.
        let padded: Vec<&crate::graph::TensorUse> = op
            .inputs
            .iter()
            .enumerate()
            .filter(|&(i, _)| !row(s.k) || (i == 1 && !row(s.n)))
            .map(|(_, u)| u)
            .collect();
        let copies: Vec<(crate::graph::TensorId, CopyShape)> = padded
            .iter()
            .map(|u| {
                let t = g.tensor(u.tensor);
                let elements = t.bytes / t.dtype.bytes().max(1);
                let c = CopyShape {
                    read: t.bytes,
                    written: t.bytes,
                    elements,
                    transposed_tile: None,
                    broadcast: false,
                };
                (u.tensor, c)
            })
            .collect();
        let gemm = hwmodel::predict(&self.aligned, g, ops, traffic, None, self.hw, self.launch_s);
        let cost: f64 = copies
            .iter()
            .map(|(_, c)| self.layout_copy(c, Runner::Triton).time_s)
            .sum::<f64>()
            + gemm.time_s;
        (cost * PAD_MARGIN < unaligned.time_s).then_some((copies, gemm))
    }

    /// The launch cost of one kernel.
    pub fn launch_s(&self) -> f64 {
        self.launch_s
    }

    /// The CUDA kernels the kernel priced as `p` launches: 2 for a GEMM cuBLAS runs as
    /// split-K (its reduction kernel, priced in `p`); 3 for PyTorch's group norm (its
    /// `RowwiseMoments`, `ComputeFusedParams` and apply kernels: validation/gpu/models batch
    /// 2); else [`Prediction::launches`] (1, a split-K GEMM's reduction, cuDNN's transposes
    /// around a contiguous convolution: batch 12's traces; a Triton group norm's four or two
    /// kernels, which [`Pricing::kernel`] states in `extra_launches`: gn_probe).
    pub fn cuda_kernels(&self, p: &Prediction) -> usize {
        if p.family == Family::GroupNorm && p.extra_launches == 0 {
            return 3;
        }
        p.launches()
    }

    /// What each CUDA kernel's time is shortened by in a stream.
    pub fn stream_discount_s(&self) -> f64 {
        self.discount_s
    }

    /// How much longer a compute-bound tensor-core kernel takes in a step that spends
    /// `share` of its time in such kernels: nothing up to `host.sustained_share`, then in
    /// proportion to the whole `host.sustained_derate` at a share of 1; without
    /// `sustained_share`, the whole derate at any share.
    pub fn sustained_derate(&self, share: f64) -> f64 {
        match self.derate_share {
            Some(s0) => self.derate * ((share - s0) / (1.0 - s0)).clamp(0.0, 1.0),
            None => self.derate,
        }
    }

    /// Whether `p` is a compute-bound tensor-core kernel (a matmul, attention, convolution
    /// or 8-bit GEMM whose compute term exceeds its memory term): what holds the GPU at its
    /// power limit, and what a sustained derate lengthens. A convolution's prediction keeps
    /// its kernels' modelled time as its compute term and their bytes at the full bandwidth
    /// as its memory term, so every convolution counts, a memory-bound one too (VALIDATION.md
    /// §32, left as it is).
    pub fn sustains(p: &Prediction) -> bool {
        let tensor = matches!(
            p.family,
            Family::Matmul | Family::Attention | Family::Conv | Family::Gemm8
        );
        tensor && p.compute_s > p.memory_s
    }

    /// `p` (a kernel [`Pricing::sustains`] holds) `derate` longer.
    pub fn derated(p: Prediction, derate: f64) -> Prediction {
        let kernel_s = p.kernel_s * (1.0 + derate);
        Prediction {
            kernel_s,
            time_s: kernel_s + p.launch_s,
            ..p
        }
    }

    /// `p` (priced by the hardware model as one kernel alone, under Nsight Compute with L2
    /// flushed) as it runs in a stream of kernels: `stream_discount_s` less per CUDA kernel it
    /// launches, never below half its time; an attention kernel, whose coefficients were
    /// fitted on kernels in a stream, as it is. Issue 24's whole-model profiles
    /// (validation/gpu/models, `fit_stream.py`): a decode step's elementwise kernels take
    /// about 1.7 µs in the profiler's trace where ncu measured 2.8-3.2 µs, a GEMV about 1.5 µs
    /// less; the long kernels of a prefill lose a negligible share.
    ///
    /// The step then lengthens its compute-bound tensor-core kernels by
    /// [`Pricing::sustained_derate`] of their share of it ([`super::estimate`]): run back to
    /// back, such kernels hold the GPU at its power limit and its clocks drop (issue 24's
    /// prefill steps replayed from CUDA graphs took 3-15% longer than the sum of their
    /// kernels traced in one step).
    ///
    /// A compute-bound matmul of one kernel (no split-K) with `host.matmul_overlap_exponent`
    /// `q` takes `(compute^q + overhead^q)^(1/q)` instead: its start-up and tail
    /// (`mm_overhead_us`) overlap its compute, a short GEMM paying most of them and a long
    /// one almost none (VALIDATION.md §37); so does a convolution that is one compute-bound
    /// implicit GEMM, with its GEMM's overhead (§39).
    pub fn in_stream(&self, mut p: Prediction) -> Prediction {
        let n = self.cuda_kernels(&p) as f64;
        // A matmul's compute term excludes its overhead; a convolution's holds its kernel's
        // time, the overhead included.
        let (compute_s, overhead_s) = match p.family {
            Family::Matmul => (p.compute_s, self.model.mm_overhead_us * 1e-6),
            _ => ((p.kernel_s - p.overhead_s).max(0.0), p.overhead_s),
        };
        match self.overlap {
            Some(q) if self.overlaps(&p) => {
                p.kernel_s = (compute_s.powf(q) + overhead_s.powf(q)).powf(1.0 / q);
            }
            // An attention kernel's coefficients were fitted on kernels timed back to back in
            // a stream (cuDNN's SDPA in the profiler: sdpa_probe/refit.py, VALIDATION.md
            // §48-49): its price is already its time in a stream; a split-KV decode's combine
            // kernel, priced alone, takes the discount (§57).
            _ if p.family == Family::Attention => {
                p.kernel_s -= (n - 1.0).max(0.0) * self.discount_s;
            }
            _ => p.kernel_s = (p.kernel_s - n * self.discount_s).max(p.kernel_s / 2.0),
        }
        if p.family == Family::GroupNorm {
            // Its three kernels' launches (the model's prediction has one).
            p.launch_s = n * self.launch_s;
        }
        p.time_s = p.kernel_s + p.launch_s;
        p
    }

    /// Whether [`Pricing::in_stream`] overlaps `p`'s overhead with its compute, under
    /// `host.matmul_overlap_exponent`: a compute-bound matmul of one CUDA kernel, or a
    /// convolution that is one compute-bound implicit GEMM (`Prediction::overhead_s`).
    pub fn overlaps(&self, p: &Prediction) -> bool {
        self.overlap.is_some()
            && p.split_k.is_none()
            && self.cuda_kernels(p) == 1
            && match p.family {
                Family::Matmul => p.compute_s > p.memory_s,
                Family::Conv => p.overhead_s > 0.0,
                _ => false,
            }
    }

    /// `host.matmul_overlap_exponent` and `host.matmul_resident_factor` (each 0 when absent).
    pub fn matmul_stream_keys(&self) -> (f64, f64) {
        (
            self.overlap.unwrap_or(0.0),
            self.resident.map_or(0.0, |(f, _)| f),
        )
    }

    /// `p` (a kernel as the hardware model prices it alone, before [`Pricing::in_stream`])
    /// when `resident` of the bytes it moves live in L2 in the stream: those it writes and
    /// those of operands an earlier kernel of the step wrote whole. A memory-bound matmul
    /// of one kernel takes each at `host.matmul_resident_factor` of a DRAM byte's time, in
    /// the share `1 / (1 + (footprint / l2_effective_bytes)^matmul_resident_exponent)` that
    /// stays in L2 (`footprint` its bytes moved); other kernels are as they were. It may
    /// leave the matmul compute-bound (BERT's score matmuls; VALIDATION.md §37).
    pub fn resident(&self, mut p: Prediction, resident: u64) -> Prediction {
        let moved = p.dram_read.saturating_add(p.dram_written) as f64;
        let Some((factor, exponent)) = self.resident else {
            return p;
        };
        if p.family != Family::Matmul
            || p.split_k.is_some()
            || p.extra_launches != 0
            || p.memory_s < p.compute_s
            || moved <= 0.0
            || resident == 0
        {
            return p;
        }
        let stays = 1.0 / (1.0 + (moved / self.model.l2_effective_bytes).powf(exponent));
        let share = (resident as f64 / moved).min(1.0);
        let memory_s = p.memory_s * (1.0 - stays * (1.0 - factor) * share);
        let cut = p.memory_s - memory_s.max(p.compute_s);
        p.memory_s = memory_s;
        p.kernel_s = (p.kernel_s - cut.max(0.0)).max(p.kernel_s / 2.0);
        p.time_s = p.kernel_s + p.launch_s;
        p
    }

    /// The fraction of a DRAM byte's time a byte read from L2 takes (`host.warm_read_factor`;
    /// 1 without it).
    pub fn warm_read_factor(&self) -> f64 {
        self.warm_read
    }

    /// `p` (PyTorch's vectorized elementwise kernel, in a stream) when `warm` of the bytes it
    /// reads were written by the kernel just before it: if they fit in `l2_effective_bytes`
    /// they come from L2, each at `host.warm_read_factor` of a DRAM byte's time (ResNet-50's
    /// eager ReLUs and residual adds: 30% shorter than priced from DRAM; VALIDATION.md §36).
    pub fn warm(&self, mut p: Prediction, warm: u64) -> Prediction {
        let moved = p.dram_read.saturating_add(p.dram_written) as f64;
        if p.family != Family::Elementwise
            || warm == 0
            || moved <= 0.0
            || warm as f64 > self.model.l2_effective_bytes
        {
            return p;
        }
        let memory_s = p.memory_s * (1.0 - (1.0 - self.warm_read) * (warm as f64 / moved).min(1.0));
        let cut = p.memory_s.max(p.compute_s) - memory_s.max(p.compute_s);
        p.memory_s = memory_s;
        p.kernel_s = (p.kernel_s - cut.max(0.0)).max(p.kernel_s / 2.0);
        p.time_s = p.kernel_s + p.launch_s;
        p
    }

    /// A layout copy kernel as `runner` runs it.
    ///
    /// Inductor's transposing copies (validation/gpu/models, batches 2-8 and 10: a decode
    /// step's Kᵀ, broadcast over a group's heads or cast to f32):
    /// - a tile ([`CopyShape::transposed_tile`]) of more than [`TRITON_TILE_BYTES`] written
    ///   runs as slowly as PyTorch's own transposing copy (`copy_transpose`: 127-153 G
    ///   elements/s measured; Llama-2-13B's 5.2 M-element f32 Kᵀ at 1,024 positions in 41 µs although
    ///   the copy fits in L2);
    /// - a smaller tile that broadcasts, or whose copy moves more than the model's effective
    ///   L2 (`l2_effective_bytes`), runs [`TRITON_TILE_SPEEDUP`] times faster than that;
    /// - the rest at Triton's copy rate (BERT's Kᵀ with its bias, 12.6 MB in 4.6 µs).
    pub fn layout_copy(&self, c: &CopyShape, runner: Runner) -> Prediction {
        let (m, speedup) = match (runner, c.transposed_tile) {
            (Runner::Eager, None) => (&self.eager_runs, 1.0),
            (Runner::Eager, Some(_)) => (&self.eager_transpose, 1.0),
            (Runner::Triton, Some(tile)) => {
                let tile_bytes = tile.saturating_mul(c.written / c.elements.max(1));
                let large = c.broadcast
                    || c.read.saturating_add(c.written) as f64 > self.model.l2_effective_bytes;
                if tile_bytes as f64 > TRITON_TILE_BYTES {
                    (&self.eager_transpose, 1.0)
                } else if large {
                    (&self.eager_transpose, TRITON_TILE_SPEEDUP)
                } else {
                    (&self.triton_runs, 1.0)
                }
            }
            (Runner::Triton, None) => (&self.triton_runs, 1.0),
        };
        let mut p = m.memory(
            Family::Elementwise,
            c.read,
            c.written,
            c.elements,
            None,
            self.hw,
            self.launch_s,
        );
        p.kernel_s /= speedup;
        p.time_s = p.kernel_s + p.launch_s;
        p
    }

    /// The device-to-device memcpy (no kernel) before the cuBLAS kernel of a batched matmul of
    /// one row among `ops` under `torch.compile`: a decode's Q·Kᵀ and P·V, whose one-row
    /// operand Inductor passes with a zero stride (`reinterpret_tensor(buf, (14, 1, 64), (64,
    /// 0, 1))`), copied whole first. Its time in a stream: the operand's bytes as PyTorch's
    /// copy (`copy_eager`) less the stream's discount, as [`Pricing::in_stream`] takes it.
    /// Measured (validation/gpu/models, every compiled decode's trace: two memcpys a layer,
    /// none in a prefill; VALIDATION.md §53): 1.0-1.2 µs for Q at batch 1, 3.1-3.5 µs for
    /// 2 MB of P (Llama-3-8B at 2 × 16,384 positions). `None`: no such matmul.
    pub fn one_row_copy(&self, g: &Graph, ops: &[OpId]) -> Option<Prediction> {
        let m = ops
            .iter()
            .copied()
            .find(|&o| g.op(o).kind == crate::types::OpKind::Matmul)?;
        let (a, b) = (g.op(m).inputs.first()?, g.op(m).inputs.get(1)?);
        let shape = g.use_shape(a);
        let r = shape.len();
        let batch: u64 = shape.iter().take(r.saturating_sub(2)).product();
        // A `bmm`: both operands batched (a one-row activation times a weight folds into an
        // `mm`, BERT's pooler: no copy in its trace).
        if r < 3 || shape[r - 2] != 1 || batch < 2 || g.use_shape(b).len() < 3 {
            return None;
        }
        let t = g.tensor(a.tensor);
        let elements: u64 = shape.iter().product();
        let bytes = elements.saturating_mul(t.dtype.bytes());
        let c = CopyShape {
            read: bytes,
            written: bytes,
            elements,
            transposed_tile: None,
            broadcast: false,
        };
        Some(self.in_stream(self.layout_copy(&c, Runner::Eager)))
    }

    /// Batch norm's statistics as PyTorch's own inference kernel takes them
    /// (`batch_norm_cuda_out`, [`crate::ops::batchnorm::Runner::Native`]): the copy of the
    /// mean's `channels` values of `bytes` each to f32, a widening cast (`cast`:
    /// `unrolled_elementwise_kernel`, the `scalar` family) or else a device-to-device memcpy
    /// (no kernel: its time, at `copy_eager`'s, joins the next), then
    /// `batch_norm_calc_invstd` (vectorized: `elementwise`) writing f32 (validation/gpu/models
    /// batches 12 and 15 and `bn_probe/`: 1.6-2.3 µs, 1.1-1.6 µs and a 1.0 µs memcpy).
    pub fn batch_norm_stats(&self, channels: u64, bytes: u64, cast: bool) -> Vec<Prediction> {
        let (read, written) = (channels.saturating_mul(bytes), channels.saturating_mul(4));
        let mut invstd = self.model.memory(
            Family::Elementwise,
            read,
            written,
            channels,
            None,
            self.hw,
            self.launch_s,
        );
        if !cast {
            let copy = CopyShape {
                read,
                written,
                elements: channels,
                transposed_tile: None,
                broadcast: false,
            };
            invstd.kernel_s += self.layout_copy(&copy, Runner::Eager).kernel_s;
            invstd.time_s = invstd.kernel_s + invstd.launch_s;
            return vec![invstd];
        }
        let cast = self.model.memory_as(
            hwmodel::ScalarKernel::Scalar,
            read,
            written,
            channels,
            self.hw,
            self.launch_s,
        );
        vec![cast, invstd]
    }

    /// Matmul `m` run by cuBLAS in f32 on operands cast to f32 (`compile`'s rule 4: a
    /// one-row batched matmul), writing its result in f32: the hardware model's matmul of the
    /// same shape with 4-byte elements on the CUDA cores.
    pub fn f32_matmul(&self, g: &Graph, m: OpId) -> Option<Prediction> {
        let s = hwmodel::MatmulShape {
            elem_bytes: 4,
            tf32: false,
            ..hwmodel::matmul_shape(g, m)?
        };
        let out = g.tensor(g.op(m).output);
        let written = (out.bytes / out.dtype.bytes().max(1)).saturating_mul(4);
        Some(self.model.matmul_on(
            &s,
            crate::cost::Unit::F32,
            0,
            written,
            self.hw,
            self.launch_s,
        ))
    }

    /// The kernel made of `ops` (which moves `traffic` under the compulsory model) as
    /// `runner` runs it; `flash` is the attention pattern of an SDPA kernel; `copied`: the
    /// runtime copied its matmul's broadcast operand first, so the matmul reads the copy.
    pub fn kernel(
        &self,
        g: &Graph,
        ops: &[OpId],
        traffic: &GroupTraffic,
        flash: Option<&AttentionPattern>,
        runner: Runner,
        copied: bool,
    ) -> Prediction {
        let computed: Vec<OpId> = ops
            .iter()
            .copied()
            .filter(|&o| !g.op(o).kind.is_layout())
            .collect();
        if runner == Runner::Triton
            && flash.is_none()
            && let [o] = computed[..]
            && matches!(
                g.op(o).kind,
                crate::types::OpKind::Elementwise | crate::types::OpKind::Concat
            )
        {
            let elements = ops
                .iter()
                .map(|&o| {
                    let t = g.tensor(g.op(o).output);
                    t.bytes / t.dtype.bytes().max(1)
                })
                .chain(traffic.reads.iter().map(|r| {
                    let t = g.tensor(r.tensor);
                    r.bytes / t.dtype.bytes().max(1)
                }))
                .max()
                .unwrap_or(0);
            return self.model.memory(
                Family::Elementwise,
                traffic.bytes_read,
                traffic.bytes_written,
                elements,
                None,
                self.hw,
                self.launch_s,
            );
        }
        // Inductor's layout optimisation: a graph with 2-D convolutions runs them channels-last
        // (SD 1.5's compiled UNet block: cuDNN's NHWC implicit GEMM, no transposes, where eager
        // ran `nchwToNhwcKernel` around each).
        let mut contractions = computed
            .iter()
            .copied()
            .filter(|&o| g.op(o).kind.is_contraction());
        if runner == Runner::Triton
            && let (Some(c), None) = (contractions.next(), contractions.next())
            && let Some(mut shape) = hwmodel::conv_shape(g, c)
            && !shape.channels_last
            && shape.input.len() == 4
        {
            shape.channels_last = true;
            let conv = self
                .model
                .conv_in_kernel(g, c, &shape, traffic, self.hw, self.launch_s);
            return self.with_weight_to_channels_last(conv, g, c, &shape);
        }
        let rows = runner == Runner::Triton && flash.is_none() && triton_rows(g, ops);
        let looped = match looped_softmax(g, ops) {
            _ if runner != Runner::Triton || flash.is_some() => None,
            Some(false) => self.triton_looped.as_ref(),
            Some(true) => self.triton_looped_masked.as_ref(),
            None => None,
        };
        // A looped softmax's kernel holds no matmul, so no copied operand changes its price.
        let model = if let Some(m) = looped {
            m
        } else if copied {
            &self.unfolded
        } else if rows {
            &self.triton_rows
        } else {
            self.model
        };
        let mut p = hwmodel::predict(model, g, ops, traffic, flash, self.hw, self.launch_s);
        let sms = u64::from(self.hw.sms.unwrap_or(132).max(1));
        if runner == Runner::Triton
            && flash.is_none()
            && let Some(n) = hwmodel::inductor::split_softmax_kernels(g, ops, sms)
        {
            // A softmax over few long rows: five Triton kernels, each starting as an
            // elementwise one does (VALIDATION.md §64).
            p.extra_launches = n - 1;
            let extra = (n - 1) as f64 * model.families.elementwise.overhead_us * 1e-6;
            p.memory_s += extra;
            p.kernel_s += extra;
            p.time_s += extra;
        }
        if rows && !copied && p.family == Family::GroupNorm {
            // Inductor's kernels for a group norm: four when it splits the groups, else two
            // (`hwmodel::inductor`); PyTorch's are three (`Pricing::cuda_kernels`).
            if let Some(n) = hwmodel::inductor::group_norm_kernels(g, ops, sms) {
                p.extra_launches = n - 1;
                // Each of them starts as a Triton kernel does (`overhead_us` of the family it is
                // priced with), as each is discounted in a stream ([`Pricing::in_stream`]):
                // the norm's price held one start-up for its four kernels, and SD's compiled
                // norms at 16²-40² traced 2-4 times their price (VALIDATION.md §49).
                let family = model
                    .families
                    .group_norm
                    .unwrap_or(model.families.elementwise);
                let start = family.overhead_us * 1e-6;
                let extra = (n - 1) as f64 * start;
                p.memory_s += extra;
                p.kernel_s += extra;
                p.time_s += extra;
            }
            // Its split moments over a channels-last input that straddle channels.
            if hwmodel::inductor::layout_optimised(g)
                && let Some(extra) = self
                    .model
                    .inductor_strided_moments_s(g, ops, traffic, self.hw)
            {
                p.memory_s += extra;
                p.kernel_s += extra;
                p.time_s += extra;
            }
        }
        p
    }
}

impl Pricing<'_> {
    /// `conv` (contiguous conv `c` that Inductor runs channels-last) with the Triton copy of
    /// its weight into the channels-last layout, which Inductor runs before it on every call
    /// when the kernel is wider than 1×1 (a 1×1 weight's two layouts are one): under
    /// default `torch.compile` the parameters are graph inputs, so nothing folds the copy
    /// away. Measured (SD 1.5's compiled down blocks, `triton_poi_fused_convolution_*`, one per
    /// 3×3 conv): 2.8 µs at 320 channels, 6.0 at 640, 20.8 at 1,280 (29.5 MB each way).
    fn with_weight_to_channels_last(
        &self,
        conv: Prediction,
        g: &Graph,
        c: OpId,
        shape: &hwmodel::ConvShape,
    ) -> Prediction {
        let taps: u64 = shape.weight.iter().skip(2).product();
        let Some(w) = g.op(c).inputs.get(1).filter(|_| taps > 1) else {
            return conv;
        };
        let t = g.tensor(w.tensor);
        let copy = self.layout_copy(
            &CopyShape {
                read: t.bytes,
                written: t.bytes,
                elements: t.bytes / t.dtype.bytes().max(1),
                transposed_tile: None,
                broadcast: false,
            },
            Runner::Triton,
        );
        // Two kernels: each takes the stream discount, neither the overlap.
        conv.then(copy)
    }
}
