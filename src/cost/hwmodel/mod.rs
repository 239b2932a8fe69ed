//! The hardware model (`--traffic-model hardware`): what a kernel really moves through DRAM
//! and how long it really takes, from coefficients fitted on a real GPU.
//!
//! The default model (`compulsory`, SPEC §3) counts each tensor once per kernel and runs at
//! datasheet peaks. Measured on an H100 (validation/gpu/h100-calib), that is exact for
//! streaming kernels but wrong for large matmuls (they re-read operand panels the L2 cannot
//! hold: 2–24× their operands) and for time (small kernels never reach peak bandwidth,
//! matmuls lose waves and pipeline fill). This module owns the arithmetic that corrects both;
//! every coefficient lives in [`HwModel`], carried by the hardware description (a preset or
//! `--hardware-file`), with the measurement it was fitted on. `validation/gpu/h100-calib/
//! fit.py` is the same arithmetic in Python, used to fit the coefficients; the accuracy test
//! (tests/validation.rs) keeps the two in step.
//!
//! The arithmetic is split by kernel kind: `matmul.rs` (matmul and FlashAttention kernels:
//! tile re-reads, waves, efficiencies, and the options that derive a model for them,
//! `--attention-kernel` and `--causal-attention`), `memory.rs` (memory-bound families, softmax
//! rows, norm and softmax re-reads, PyTorch's non-vectorized kernels), `conv.rs` and `scan.rs`
//! (issue 23's convolutions and scans); this module owns the coefficients' schema
//! ([`HwModel`], the `model` object of a hardware file) and their validation, and
//! [`predict`], which picks the formula for a kernel. Writes are the
//! compulsory ones (measured within 2% on every streaming kernel).
//!
//! The coefficients are data, not code: the H100's, as `fit.py` writes them (to `fit.json`
//! and, with `--preset NAME`, into that preset), are the `model` object of the `h100` and
//! `h100-measured` presets (`src/cost/presets/*.json`, [`super::Hardware::preset`]).

pub mod ranges;
pub use ranges::{FieldRange, RANGES, check_range};
mod conv;
mod decode;
pub mod inductor;
mod matmul;
mod memory;
mod quant;
mod scalar;
mod scan;

pub use conv::{
    ConvCoeffs, ConvKernel, ConvShape, DepthwiseCoeffs, GENERIC_BELOW_BATCH, conv_shape,
};

pub use decode::{CopyKernel, HostCoeffs, SplitK, SplitKCoeffs, Step, step_time};
pub use matmul::{KeyVisits, MatmulShape, causal_schedule, matmul_shape, padded_head_dim};
pub use memory::RoutingCoeffs;
pub use quant::{QuantCoeffs, WeightOnlyCoeffs, WeightOnlyShape};
pub use scalar::{ScalarKernel, scalar_kernel};
pub use scan::{ScanCoeffs, SplitScanCoeffs};

use crate::fusion::flash::AttentionPattern;
use crate::graph::{Graph, OpId};
use crate::traffic::GroupTraffic;
use memory::{family_of, row_cols};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn half() -> f64 {
    0.5
}

fn one() -> f64 {
    1.0
}

/// The coefficients of one memory-bound kernel family.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyCoeffs {
    /// Achieved fraction of the HBM bandwidth on large kernels.
    pub bandwidth_efficiency: f64,
    /// Elements per second the family's arithmetic sustains.
    pub elements_per_s: f64,
    /// Fixed microseconds per kernel (start-up and tail, launch excluded).
    pub overhead_us: f64,
}

/// Coefficients per family.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Families {
    pub elementwise: FamilyCoeffs,
    pub reduction: FamilyCoeffs,
    pub softmax: FamilyCoeffs,
    pub norm: FamilyCoeffs,
    /// PyTorch's non-vectorized elementwise kernels: an op alone in its kernel that broadcasts
    /// an input, casts to a wider type or copies a layout in contiguous runs
    /// (`elementwise_kernel`, `unrolled_elementwise_kernel`: ~400 G elements/s); none: priced
    /// as `elementwise`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scalar: Option<FamilyCoeffs>,
    /// A lone permute that moves the innermost axis, which PyTorch makes contiguous with a
    /// transposing copy (~120 G elements/s); none: priced as `elementwise`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout_copy: Option<FamilyCoeffs>,
    /// Pools (`max_pool`, `avg_pool`, and global pools over NCHW inputs): PyTorch's
    /// `max_pool_forward_nchw`/`_nhwc` and the `reduce_kernel` of an adaptive average pool
    /// over contiguous H·W rows, limited by their loads per input element; none: priced as
    /// `reduction`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<FamilyCoeffs>,
    /// Global pools over channels-last inputs (a reduction along strided rows, vectorised
    /// along C); none: priced as `pool`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool_global_channels_last: Option<FamilyCoeffs>,
    /// Group norm as PyTorch runs it (`RowwiseMomentsCUDAKernel`, a block per group of a
    /// sample; `ComputeFusedParamsCUDAKernel`; an elementwise apply priced as `scalar`):
    /// `elements_per_s` and `bandwidth_efficiency` of the moments pass at full occupancy,
    /// `overhead_us` the fixed time of the three kernels; none: priced as `norm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_norm: Option<FamilyCoeffs>,
    /// A kernel that only copies a layout (every op a layout op: `repeat_kv`'s expand +
    /// reshape, a head merge, a lone expand or slice) as PyTorch eager runs it
    /// (`direct_copy_kernel` through the non-vectorized `elementwise_kernel`: issue 24
    /// measured it ~1.8× slower than a vectorized elementwise kernel of the same bytes), under
    /// [`CopyKernel::Eager`]; a lone reshape or permute keeps `scalar` and a transposing
    /// permute `layout_copy`. None: priced as before (those two, else `elementwise`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_eager: Option<FamilyCoeffs>,
    /// Every layout-only kernel as a compiler generates it (Inductor's Triton copy, issue 24:
    /// ~1.4× faster than PyTorch's vectorized elementwise kernel), under
    /// [`CopyKernel::Generated`]. None: priced as under [`CopyKernel::Eager`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_generated: Option<FamilyCoeffs>,
    /// A runtime's transposing copy before a matmul (`Kᵀ` broadcast over a group's query
    /// heads; eager and Triton alike: validation/gpu/models batch 2). None: `layout_copy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_transpose: Option<FamilyCoeffs>,
    /// PyTorch's batch norm of a channels-last tensor alone in its kernel
    /// (`batch_norm_transform_input_channels_last_kernel`: vectorized, with a start-up of
    /// about 2.5 µs in a stream); none: priced as `scalar`, as a contiguous (NCHW) one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_norm_channels_last: Option<FamilyCoeffs>,
    /// The same kernel's bytes beyond `l2_effective_bytes`, from DRAM (only its
    /// `bandwidth_efficiency` is read: `batch_norm_channels_last` was fitted on inputs in L2);
    /// none: `batch_norm_channels_last` for every byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_norm_channels_last_dram: Option<FamilyCoeffs>,
    /// cuDNN's batch norm of a channels-last tensor (`bn_fw_inf_1C11_kernel_NHWC`: a half
    /// input with f32 statistics, or an f32 input); none: priced as `scalar`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_norm_cudnn_channels_last: Option<FamilyCoeffs>,
    /// Inductor's partial moments of a group norm over a channels-last input when its split
    /// of each group into chunks straddles channels (`inductor::straddles`): loads a channel
    /// apart, one element per sector (only `bandwidth_efficiency` and `overhead_us` are
    /// read); none: priced as the streaming pass of a Triton group norm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_norm_strided: Option<FamilyCoeffs>,
    /// Inductor's looped softmax over rows longer than a Triton block holds whole (rows of
    /// more than 1,024; `triton_red_fused__softmax__to_copy_amax_*`), under `--runtime
    /// compile`: its rows in blocks of 2,048 columns ([`HwModel::softmax_row_block`]); none:
    /// priced as `softmax` (PyTorch's kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub softmax_looped: Option<FamilyCoeffs>,
    /// The same under a causal mask applied by `masked_fill`, Inductor's online softmax
    /// (`triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_*`); none:
    /// priced as `softmax`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub softmax_looped_masked: Option<FamilyCoeffs>,
    /// PyTorch's own `torch.cat` (`CatArrayBatchedCopy`), a lone `concat` under eager: about a
    /// third of the vectorized kernel's rate (VALIDATION.md §42); none: priced as
    /// `elementwise`. (The runtime prices a cat of contiguous, aligned inputs as PyTorch's
    /// vectorized kernel instead: `runtime::eager`, §56.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cat: Option<FamilyCoeffs>,
}

/// The coefficients of a FlashAttention kernel (one kernel: Q·Kᵀ, online softmax, P·V).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttentionCoeffs {
    /// Fraction of the tensor-core peak at long sequences and large head dims (times the
    /// two factors below).
    pub efficiency: f64,
    /// Keys per query block at which the efficiency halves (pipeline fill per block).
    pub kv_half: f64,
    /// Head dim at which the efficiency halves (the softmax's exponentials per FLOP).
    pub head_dim_half: f64,
    /// Fixed microseconds an attention op's kernel adds to its memory time: what a
    /// memory-bound (decode) kernel pays before it streams at full bandwidth (cuDNN's
    /// split-KV decode kernel, fitted by validation/gpu/h100-calib-h/fit_attention.py on
    /// batch h); none: 0. Compute-bound kernels are unchanged. The three-op pattern's kernels
    /// (`--flash-attention`), whose coefficients were fitted without it, do not take it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub memory_overhead_us: f64,
    /// The head dims the kernels are built for, every `head_dim_step` (and 256 above 192):
    /// a head dim in between runs at the next one, its FLOPs padded ([`padded_head_dim`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim_step: Option<f64>,
    /// The keys a query block takes at a time: a query block visiting `L` keys (every key, no
    /// causal mask) runs `L` rounded up to a multiple of `key_block`, its FLOPs padded alike
    /// (cuDNN's SDPA kernels, `..._64x128xD_...`, take keys in blocks of 128: 77 keys cost
    /// what 128 do; validation/gpu/models/sdpa_probe, VALIDATION.md §48), and under a causal
    /// mask `kv_half` is weighed against the mean keys a query block visits. None: the exact
    /// key count, and every key under a causal mask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_block: Option<f64>,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// A row-wise kernel's extra passes over its input (`norm_reread`, `softmax_reread`): a
/// LayerNorm reads each row for its statistics and again to normalise it, PyTorch's
/// block-per-row softmax for its max, its sum and its output. A pass that comes after the
/// first misses the caches with probability `row(row_bytes) · total(input_bytes)`, each a
/// gradual curve `1 / (1 + (half / x)^exponent)`: rows too long to stay in L1 while their
/// block works on them, and an input too large for L2 to keep the rows of the blocks in
/// flight (measured: LayerNorm's 16 KB rows re-read 50% of a 134 MB input, 94% of a 537 MB
/// one; 8 KB rows 6–22%).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RereadCoeffs {
    /// Passes over the input after the first.
    pub passes: f64,
    /// Row bytes at which half of a later pass misses.
    pub row_bytes: f64,
    pub row_exponent: f64,
    /// Input bytes at which half of a later pass misses.
    pub input_bytes: f64,
    pub input_exponent: f64,
}

impl RereadCoeffs {
    /// The fraction of a later pass that reads DRAM.
    pub fn miss(&self, row_bytes: f64, input_bytes: f64) -> f64 {
        let curve = |x: f64, half: f64, e: f64| {
            if x <= 0.0 {
                0.0
            } else {
                1.0 / (1.0 + (half / x).powf(e))
            }
        };
        curve(row_bytes, self.row_bytes, self.row_exponent)
            * curve(input_bytes, self.input_bytes, self.input_exponent)
    }

    /// The DRAM bytes the later passes read over an input of `input_bytes` in rows of
    /// `row_bytes`.
    pub fn extra_reads(&self, row_bytes: f64, input_bytes: f64) -> f64 {
        self.passes * input_bytes * self.miss(row_bytes, input_bytes)
    }
}

/// The hardware model's coefficients (the `model` object of a hardware file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HwModel {
    /// Tile columns one wave covers (the rasterization width).
    pub raster_width: f64,
    /// L2 bytes at which half the panel re-reads hit.
    pub l2_effective_bytes: f64,
    /// Steepness of the L2 hit curve.
    pub l2_hit_exponent: f64,
    /// Fraction of the tensor-core peak a full wave of large-K tiles reaches.
    pub mm_efficiency: f64,
    /// K at which pipeline fill halves a matmul's efficiency.
    pub mm_k_half: f64,
    /// Fraction of the bandwidth a memory-bound matmul reaches.
    pub mm_bandwidth_efficiency: f64,
    /// Fixed microseconds per matmul kernel (start-up and tail: a small GEMM takes 4–6 µs
    /// whatever its size).
    #[serde(default)]
    pub mm_overhead_us: f64,
    /// How much of wave quantization a matmul pays: its time takes `wave_eff^mm_wave_exponent`
    /// (1: a last wave costs as much as a full one; less: cuBLAS's persistent kernels start
    /// the next wave's tiles as SMs free up).
    #[serde(default = "one")]
    pub mm_wave_exponent: f64,
    /// Fraction of the f32 peak a full wave of an f32 (FFMA, TF32 off) matmul reaches.
    pub mm_f32_efficiency: f64,
    /// Fraction of the tensor peak a full wave of large-K tiles reaches when K or N is not a
    /// multiple of 16 bytes: cuBLAS cannot use its TMA (Hopper) kernels and falls back to
    /// older `mma.sync` CUTLASS ones; none: as aligned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mm_unaligned_efficiency: Option<f64>,
    /// FlashAttention kernels: the kernel this GPU's PyTorch runs by default (cuDNN's on an
    /// H100).
    pub attention: AttentionCoeffs,
    /// Other attention kernels by name (`--attention-kernel NAME` prices the FlashAttention
    /// kernels with these instead), e.g. `flash2` for FlashAttention-2's own kernel.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attention_kernels: BTreeMap<String, AttentionCoeffs>,
    /// The dense TF32 tensor-core peak as a fraction of the dense 16-bit one: a matmul on
    /// `tf32` operands runs at `peak_f16 · tf32_peak_fraction · mm_efficiency · …` (0.5 on
    /// the A100, H100 and H200 datasheets: 156 of 312, 495 of 989 TFLOP/s).
    #[serde(default = "half")]
    pub tf32_peak_fraction: f64,
    pub families: Families,
    /// `[cols, rate factor, bandwidth factor]` knots, cols ascending: a softmax over rows of
    /// `cols` runs at `families.softmax.elements_per_s · rate factor` and
    /// `families.softmax.bandwidth_efficiency · bandwidth factor`, each log-linear in
    /// `log(cols)` between knots and the end knots' beyond them; empty: factors 1. The row
    /// length picks PyTorch's kernel (a warp per row up to 2,048 columns, a block per row
    /// above) and its occupancy.
    pub softmax_row_scale: Vec<[f64; 3]>,
    /// The extra passes of norms (LayerNorm, RMSNorm) that miss the caches; none: read once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub norm_reread: Option<RereadCoeffs>,
    /// Rows per second of PyTorch's own norm kernel (`vectorized_layer_norm_kernel`, a block
    /// per row): a floor on its compute term that many short rows reach (Whisper's, ViT's
    /// and ConvNeXt's LayerNorms; VALIDATION.md §38); none: no floor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub norm_rows_per_s: Option<f64>,
    /// Columns a second one warp of PyTorch's own softmax gets through on its row
    /// (`softmax_warp_forward`, a warp per row of at most 2,048): a floor on its compute
    /// term, a row's latency, that a short grid reaches (decode's few hundred rows; VALIDATION.md
    /// §41); none: no floor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub softmax_row_cols_per_s: Option<f64>,
    /// The extra passes of softmaxes over long rows that miss the caches; none: read once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub softmax_reread: Option<RereadCoeffs>,
    /// Where the coefficients come from.
    pub source: String,
    /// Convolutions (`conv`, issue 23): cuDNN's kernels per layout ([`ConvCoeffs`]); none:
    /// one implicit GEMM at the matmul family's coefficients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conv: Option<ConvCoeffs>,
    /// The routing families (issue 23: top-k, sort, gather, index_add, cumsum); none: those
    /// ops are priced by their kernel's family as any other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing: Option<RoutingCoeffs>,
    /// The scans (issue 23: `selective_scan`, `associative_scan`, [`ScanCoeffs`]); none:
    /// those ops are priced by their kernel's family as any other (a reduction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan: Option<ScanCoeffs>,
    /// The low-precision GEMMs (issue 23 item 6: 8-bit GEMMs, weight-only `quant_mm`,
    /// [`QuantCoeffs`]); none: 8-bit GEMMs take the matmul coefficients at the 8-bit peak and
    /// a `quant_mm` is priced as a 16-bit matmul of its unpacked shape on its counted bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quant: Option<QuantCoeffs>,
    /// cuBLAS's split-K GEMMs and their reduction kernel (issue 24, [`SplitKCoeffs`]); none:
    /// no GEMM is split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_k: Option<SplitKCoeffs>,
    /// The host's time per kernel when PyTorch eager launches kernels one by one (no CUDA
    /// graph, issue 24, [`HostCoeffs`]): the floor of a step whose kernels are shorter
    /// ([`step_time`]); none: the step is the sum of the kernels' times.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<HostCoeffs>,
    /// Not a coefficient: `--causal-attention` says the FlashAttention kernels are causal
    /// (`is_causal`), which visit half the key blocks.
    #[serde(skip)]
    pub causal_attention: bool,
    /// Not a coefficient: whose copy kernels run the layout-only kernels
    /// ([`HwModel::with_copy_kernel`]).
    #[serde(skip)]
    pub copy_kernel: CopyKernel,
    /// Not a coefficient: a runtime copied a matmul's broadcast operand first, so the matmul
    /// reads the expanded copy, its broadcast batch dimensions unfolded ([`matmul_shape`]).
    #[serde(skip)]
    pub unfold_broadcast: bool,
    /// Not a coefficient: a softmax's rows are moved in blocks of this many columns, the
    /// last block of a row costing as a whole one (Inductor's looped softmax,
    /// `crate::runtime`'s seam); none: its bytes as they are.
    #[serde(skip)]
    pub softmax_row_block: Option<u64>,
}

/// Which coefficients a kernel takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Matmul,
    Attention,
    Elementwise,
    Reduction,
    Softmax,
    Norm,
    /// A convolution's kernels (cuDNN's transposes, implicit GEMM, depthwise kernels).
    Conv,
    /// The routing families (`memory.rs`, [`RoutingCoeffs`]).
    #[serde(rename = "topk")]
    TopK,
    Sort,
    Gather,
    #[serde(rename = "index_add")]
    IndexAdd,
    Scan,
    /// A pooling kernel (`families.pool`).
    Pool,
    /// PyTorch's group norm (`families.group_norm`).
    #[serde(rename = "group_norm")]
    GroupNorm,
    /// `mamba_ssm`'s selective scan (`model.scan.selective`).
    #[serde(rename = "selective_scan")]
    SelectiveScan,
    /// A generic associative scan (`model.scan.associative`).
    #[serde(rename = "associative_scan")]
    AssociativeScan,
    /// An 8-bit GEMM (`scaled_mm`, a matmul of 1-byte operands) at the 8-bit peak.
    #[serde(rename = "gemm8")]
    Gemm8,
    /// A weight-only quantised GEMM (`quant_mm`: w4a16, w8a16).
    #[serde(rename = "quant_mm")]
    QuantMatmul,
    /// A layout-only kernel priced by `families.copy_eager` or `copy_generated`.
    Copy,
    /// A collective (issue 25): its transfer on the interconnect (`crate::cost::comm`).
    Collective,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Matmul => "matmul",
            Family::Attention => "attention",
            Family::Elementwise => "elementwise",
            Family::Reduction => "reduction",
            Family::Softmax => "softmax",
            Family::Norm => "norm",
            Family::Conv => "conv",
            Family::TopK => "topk",
            Family::Sort => "sort",
            Family::Gather => "gather",
            Family::IndexAdd => "index_add",
            Family::Scan => "scan",
            Family::Pool => "pool",
            Family::GroupNorm => "group_norm",
            Family::SelectiveScan => "selective_scan",
            Family::AssociativeScan => "associative_scan",
            Family::Gemm8 => "gemm8",
            Family::QuantMatmul => "quant_mm",
            Family::Copy => "copy",
            Family::Collective => "collective",
        }
    }
}

/// One kernel under the hardware model. Seconds; bytes as predicted DRAM traffic.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prediction {
    pub family: Family,
    pub dram_read: u64,
    pub dram_written: u64,
    pub compute_s: f64,
    pub memory_s: f64,
    /// The kernel's own time, launch excluded (what a profiler's duration measures).
    pub kernel_s: f64,
    pub launch_s: f64,
    /// `kernel_s + launch_s`.
    pub time_s: f64,
    /// The GEMM ran as split-K: its reduction kernel, counted in the figures above (its
    /// launch in `launch_s`).
    pub split_k: Option<SplitK>,
    /// A collective's transfer between GPUs (issue 25, `crate::cost::comm`), inside
    /// `kernel_s`; 0 for every other kernel.
    #[serde(skip_serializing_if = "is_zero")]
    pub comm_s: f64,
    /// Kernels beyond the first that the call launches, inside the figures above (cuDNN's
    /// transposes and padding around an NCHW convolution, `conv`); else 0.
    #[serde(skip_serializing_if = "decode::is_zero_usize")]
    pub extra_launches: usize,
    /// Of `kernel_s`, the fixed start-up and tail of a compute-bound GEMM (a matmul's
    /// `mm_overhead_us`, a convolution's one implicit GEMM's) that a runtime's stream overlaps
    /// with its compute (`host.matmul_overlap_exponent`); else 0.
    #[serde(skip)]
    pub overhead_s: f64,
}

impl HwModel {
    fn family(&self, f: Family) -> FamilyCoeffs {
        match f {
            Family::Softmax => self.families.softmax,
            Family::Norm => self.families.norm,
            Family::Reduction => self.families.reduction,
            Family::Elementwise
            | Family::Matmul
            | Family::Attention
            | Family::Conv
            | Family::Gemm8
            | Family::QuantMatmul
            | Family::Collective => self.families.elementwise,
            Family::TopK | Family::Sort | Family::Gather | Family::IndexAdd | Family::Scan => {
                let r = self.routing.as_ref();
                match f {
                    Family::TopK => r.map(|r| r.topk),
                    Family::Sort => r.map(|r| r.sort),
                    Family::Gather => r.map(|r| r.gather),
                    Family::IndexAdd => r.map(|r| r.index_add),
                    _ => r.map(|r| r.scan),
                }
                .unwrap_or(self.families.elementwise)
            }
            // `predict` prices these as `reduction` and `norm` when they are absent.
            Family::Pool => self.families.pool.unwrap_or(self.families.reduction),
            Family::GroupNorm => self.families.group_norm.unwrap_or(self.families.norm),
            // `predict` prices these only with `model.scan`.
            Family::SelectiveScan => self
                .scan
                .as_ref()
                .map_or(self.families.reduction, |s| s.selective),
            Family::AssociativeScan => self
                .scan
                .as_ref()
                .map_or(self.families.reduction, |s| s.associative),
            Family::Copy => match self.copy_kernel {
                CopyKernel::Generated => self.families.copy_generated,
                CopyKernel::Eager => None,
            }
            .or(self.families.copy_eager)
            .unwrap_or(self.families.elementwise),
        }
    }
}

fn finish(
    family: Family,
    read: f64,
    written: u64,
    compute_s: f64,
    memory_s: f64,
    launch_s: f64,
) -> Prediction {
    let kernel_s = compute_s.max(memory_s);
    Prediction {
        family,
        dram_read: read.round().min(u64::MAX as f64) as u64,
        dram_written: written,
        compute_s,
        memory_s,
        kernel_s,
        launch_s,
        time_s: kernel_s + launch_s,
        split_k: None,
        comm_s: 0.0,
        extra_launches: 0,
        overhead_s: 0.0,
    }
}

/// The elements a memory-bound kernel of `ops` loops over: its largest op's, or its largest
/// read's under `traffic`.
pub fn kernel_elements(g: &Graph, ops: &[OpId], traffic: &GroupTraffic) -> u64 {
    ops.iter()
        .map(|&o| decode::loop_elements(g, o))
        .chain(traffic.reads.iter().map(|r| {
            let t = g.tensor(r.tensor);
            r.bytes / t.dtype.bytes().max(1)
        }))
        .max()
        .unwrap_or(0)
}

/// The hardware model's prediction for the kernel made of `ops`, which moves `traffic` under
/// the compulsory model. `flash` is the FlashAttention pattern when the kernel is one
/// (`--flash-attention`, [`crate::fusion::FusionPlan::flash_kernel`]): it takes the attention
/// coefficients. A kernel with one matmul takes the tiling model for that matmul's operands
/// (the rest of its reads as counted); a kernel with several other matmuls, or none, is costed
/// by family on its counted bytes.
pub fn predict(
    model: &HwModel,
    g: &Graph,
    ops: &[OpId],
    traffic: &GroupTraffic,
    flash: Option<&AttentionPattern>,
    hw: &super::Hardware,
    launch_s: f64,
) -> Prediction {
    // A collective (issue 25): its local reads and writes at the elementwise family's
    // bandwidth, beside its transfer on the interconnect.
    if let (&[o], Some(ic)) = (ops, &hw.interconnect)
        && let Some(c) = super::comm::op_comm(g, g.op(o), ic)
    {
        let f = model.families.elementwise;
        let memory_s = traffic.bytes_read.saturating_add(traffic.bytes_written) as f64
            / (hw.bandwidth * f.bandwidth_efficiency);
        let mut p = finish(
            Family::Collective,
            traffic.bytes_read as f64,
            traffic.bytes_written,
            0.0,
            memory_s,
            launch_s,
        );
        p.comm_s = c.time_s;
        p.kernel_s = p.memory_s.max(c.time_s);
        p.time_s = p.kernel_s + launch_s;
        return p;
    }
    if let Some(p) = flash
        && let Some(s) = matmul::pattern_shape(g, p.qk)
    {
        // Queries m, keys n, head dim k of Q·Kᵀ. A softmax that states its mask
        // (`causal = true`, `window = W`) gives the pairs the kernel computes: its matmul
        // FLOPs and the mean keys per query follow. Otherwise every key block is visited
        // unless `--causal-attention` says the kernel is an `is_causal` one, which does half.
        let flops: u64 = ops
            .iter()
            .filter(|&&o| g.op(o).kind.is_contraction())
            .fold(0u64, |a, &o| {
                a.saturating_add(p.masked_flops(g, super::op_flops(g, o).0))
            });
        let (keys, flops) = if let Some(mask) = p.mask(g) {
            let ((pairs, _), (sq, _)) = (p.pairs(g), p.seq_lens(g));
            (
                KeyVisits::of(true, mask.window, s.n, pairs, sq),
                flops as f64,
            )
        } else if model.causal_attention {
            let mean = s.n.div_ceil(2);
            (KeyVisits::Causal { keys: s.n, mean }, flops as f64 / 2.0)
        } else {
            (KeyVisits::Each(s.n), flops as f64)
        };
        return model.attention(
            s.batch,
            s.m,
            keys,
            s.k,
            flops,
            (traffic.bytes_read, traffic.bytes_written),
            hw,
            launch_s,
        );
    }
    // The routing ops' kernels (issue 23), by their families.
    if let Some(p) = model.routing_kernel(g, ops, traffic, hw, launch_s) {
        return p;
    }
    // The scans' kernels (issue 23, `scan.rs`).
    if let Some(p) = model.scan_kernel(g, ops, traffic, hw, launch_s) {
        return p;
    }
    // An attention op is a FlashAttention kernel by itself: the same coefficients, on the
    // pairs its mask keeps (the mean keys per query) and its two products' FLOPs.
    if let Some((d, kv_rows)) = ops.iter().find_map(|&o| {
        let op = g.op(o);
        (op.kind == crate::types::OpKind::Attention)
            .then(|| crate::ops::attention::Dims::of_op(g, op))
            .flatten()
            .map(|d| (d, crate::ops::attention::kv_rows(g, op)))
    }) {
        let visits = KeyVisits::of(d.causal, d.window, d.sk, d.pairs(), d.sq);
        // A sliding window runs FlashAttention-2's kernel (PyTorch's `varlen_attn` with
        // `window_size`: SDPA has no window), where the model knows it.
        let windowed;
        let model = match model.attention_kernels.get("flash2") {
            Some(&flash2) if d.window.is_some() => {
                windowed = HwModel {
                    attention: flash2,
                    ..model.clone()
                };
                &windowed
            }
            _ => model,
        };
        let mut p = model.attention(
            d.batch,
            d.sq,
            visits,
            d.d,
            // A checked graph's count fits 64 bits.
            d.matmul_flops().unwrap_or(u128::MAX) as f64,
            (traffic.bytes_read, traffic.bytes_written),
            hw,
            launch_s,
        );
        p.memory_s += model.attention.memory_overhead_us * 1e-6;
        p.kernel_s = p.compute_s.max(p.memory_s);
        p.time_s = p.kernel_s + launch_s;
        // cuDNN's decode kernel splits the keys where the (batch, key head) rows are few and
        // the keys many, then combines the splits in a kernel of its own
        // (`lean_reduction_kernel`, which the coefficients, fitted on the main kernel, leave
        // out): priced as cuBLAS's split-K reduction is (`split_k.reduce`), a small kernel
        // reading and writing the output (measured 1.9-2.5 µs in a stream: VALIDATION.md §57).
        if d.window.is_none()
            && model.attention.memory_overhead_us > 0.0
            && crate::ops::attention::split_kv(&d, kv_rows)
        {
            if let Some(c) = &model.split_k {
                let r = c.reduce;
                p.kernel_s += 2.0 * traffic.bytes_written as f64
                    / (hw.bandwidth * r.bandwidth_efficiency)
                    + r.overhead_us * 1e-6;
            }
            p.extra_launches = 1;
            p.launch_s += launch_s;
            p.time_s = p.kernel_s + p.launch_s;
        }
        return p;
    }
    let matmuls: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|&o| g.op(o).kind.is_contraction())
        .collect();
    // A conv: cuDNN's kernels for its layout (`conv.rs`).
    if let [c] = matmuls[..]
        && let Some(shape) = conv_shape(g, c)
    {
        return model.conv_in_kernel(g, c, &shape, traffic, hw, launch_s);
    }
    // The low-precision GEMMs (issue 23 item 6, `quant.rs`).
    if let [q] = matmuls[..]
        && let Some(p) = model.quant_kernel(g, q, traffic, hw, launch_s)
    {
        return p;
    }
    if let [mm] = matmuls[..]
        && let Some(shape) = if model.unfold_broadcast {
            matmul::pattern_shape(g, mm)
        } else {
            matmul_shape(g, mm)
        }
    {
        // The operands' counted reads give way to the tiling model's.
        let other = matmul::other_reads(g, mm, traffic);
        let unit = super::op_unit(g, mm);
        let p = model.matmul_on(&shape, unit, other, traffic.bytes_written, hw, launch_s);
        if unit.is_8bit() {
            // cuBLASLt's 8-bit GEMMs ran as one kernel in batch i, at every M measured.
            return p;
        }
        return model.with_split_k(p, &shape, hw, launch_s);
    }
    let elements = kernel_elements(g, ops, traffic);
    let family = if matmuls.is_empty() {
        family_of(g, ops)
    } else {
        Family::Matmul
    };
    if family == Family::Matmul {
        // Several matmuls in one kernel that is no FlashAttention kernel: counted bytes, the
        // matmul efficiency on the summed FLOPs.
        let flops: u64 = ops
            .iter()
            .fold(0u64, |a, &o| a.saturating_add(super::op_flops(g, o).0));
        let unit = super::op_unit(g, matmuls[0]);
        let compute_s = flops as f64 / (hw.peak(unit) * model.mm_efficiency);
        let memory_s = traffic.bytes_read.saturating_add(traffic.bytes_written) as f64
            / (hw.bandwidth * model.mm_bandwidth_efficiency);
        let mut p = finish(
            Family::Matmul,
            traffic.bytes_read as f64,
            traffic.bytes_written,
            compute_s,
            memory_s,
            launch_s,
        );
        p.kernel_s += model.mm_overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        return p;
    }
    // A kernel that only copies a layout: its copy family, by whose code runs it.
    if let Some(p) = model.copy_kernel_prediction(g, ops, traffic, elements, hw, launch_s) {
        return p;
    }
    // One row-wise op with nothing else computed (views aside) is PyTorch's own kernel.
    let computed = ops.iter().filter(|&&o| !g.op(o).kind.is_layout()).count();
    // Without their own coefficients, a pool is priced as a reduction and a group norm as a
    // norm.
    let family = match family {
        Family::Pool if model.families.pool.is_none() => Family::Reduction,
        Family::GroupNorm if model.families.group_norm.is_none() => Family::Norm,
        f => f,
    };
    if matches!(family, Family::Pool | Family::GroupNorm) {
        return model.norm_pool_kernel(
            family,
            g,
            ops,
            traffic,
            elements,
            computed == 1,
            hw,
            launch_s,
        );
    }
    model.memory_kernel(
        family,
        traffic.bytes_read,
        traffic.bytes_written,
        elements,
        row_cols(g, ops, family),
        computed == 1,
        scalar_kernel(g, ops).filter(|_| family == Family::Elementwise),
        hw,
        launch_s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Options, check_file};
    use crate::cost::Hardware;

    fn h100() -> (HwModel, Hardware) {
        let hw = Hardware::preset("h100").expect("preset");
        (hw.model.clone().expect("calibrated"), hw)
    }

    /// The hardware model's prediction for each kernel of `src`'s plan.
    fn kernels(src: &str, model: &HwModel) -> Vec<Prediction> {
        let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = h100().1;
        a.plan
            .groups
            .iter()
            .zip(&a.traffic.groups)
            .map(|(grp, tr)| predict(model, &a.graph, &grp.ops, tr, None, &hw, 0.0))
            .collect()
    }

    #[test]
    fn pytorch_s_own_norm_gets_through_at_most_norm_rows_per_s_rows() {
        // Whisper-tiny's LayerNorm at batch 20: 30,000 rows of 384 (traced 47 µs; the
        // bytes alone take 16 µs).
        let (m, _) = h100();
        let rate = m.norm_rows_per_s.expect("norm_rows_per_s");
        let ln = "graph g {\n  input x: f16[30000, 384]\n  weight w: f16[384]\n  op n = reduction.layernorm(x, w) -> y: [30000, 384]\n  output y\n}\n";
        let p = kernels(ln, &m)[0];
        assert!((p.compute_s - 30000.0 / rate).abs() < 1e-12, "{p:?}");
        assert!(p.compute_s > p.memory_s);
        let without = HwModel {
            norm_rows_per_s: None,
            ..m.clone()
        };
        let q = kernels(ln, &without)[0];
        assert!(q.kernel_s < p.kernel_s / 1.5, "{q:?} {p:?}");
        // Long rows are bound by their bytes: the floor does not reach them.
        let long = "graph g {\n  input x: f16[2048, 4096]\n  weight w: f16[4096]\n  op n = reduction.layernorm(x, w) -> y: [2048, 4096]\n  output y\n}\n";
        assert_eq!(kernels(long, &m), kernels(long, &without));
    }

    #[test]
    fn pytorch_s_cat_runs_at_its_own_rate() {
        // Llama's rotate_half: the halves of q cat back together (traced 3.5 times the
        // vectorized price; VALIDATION.md §42).
        let (m, hw) = h100();
        let cat = m.families.cat.expect("families.cat");
        let src = "graph g {\n  input a: bf16[1, 32, 4096, 64]\n  input b: bf16[1, 32, 4096, 64]\n  op c = concat(a, b, axis = -1) -> y: [1, 32, 4096, 128]\n  output y\n}\n";
        let p = kernels(src, &m)[0];
        let bytes = 2.0 * 32.0 * 4096.0 * 128.0 * 2.0;
        let want = bytes / (hw.bandwidth * cat.bandwidth_efficiency) + cat.overhead_us * 1e-6;
        assert!((p.kernel_s - want).abs() < 1e-12, "{p:?}");
        let without = HwModel {
            families: Families {
                cat: None,
                ..m.families
            },
            ..m.clone()
        };
        assert!(kernels(src, &without)[0].kernel_s * 2.5 < p.kernel_s);
    }

    #[test]
    fn pytorch_s_warp_softmax_takes_a_row_s_latency_at_least() {
        // A decode step's softmax: 512 rows of 1,024 (traced 5.2 µs in a stream where the
        // bytes take under 1 µs; VALIDATION.md §41).
        let (m, _) = h100();
        let rate = m.softmax_row_cols_per_s.expect("softmax_row_cols_per_s");
        let sm = |rows: u64, cols: u64| {
            format!(
                "graph g {{\n  input x: f16[{rows}, {cols}]\n  op s = reduction.softmax(x) -> y: [{rows}, {cols}]\n  output y\n}}\n"
            )
        };
        let p = kernels(&sm(512, 1024), &m)[0];
        assert!((p.compute_s - 1024.0 / rate).abs() < 1e-12, "{p:?}");
        let without = HwModel {
            softmax_row_cols_per_s: None,
            ..m.clone()
        };
        let q = kernels(&sm(512, 1024), &without)[0];
        assert!(q.kernel_s * 1.5 < p.kernel_s, "{q:?} {p:?}");
        // Many rows: the bytes bind; rows past 2,048 run a block per row: no floor.
        for (rows, cols) in [(65536, 1024), (64, 4096)] {
            assert_eq!(
                kernels(&sm(rows, cols), &m),
                kernels(&sm(rows, cols), &without)
            );
        }
    }

    #[test]
    fn rereads_follow_row_and_input_size_and_only_in_pytorch_s_own_kernel() {
        let r = h100().0.norm_reread.expect("norm re-reads");
        // Small inputs and short rows stay on chip; long rows of a large input miss.
        assert!(r.miss(16384.0, 4e6) < 0.01);
        assert!(r.miss(4096.0, 1e9) < 0.05);
        assert!(r.miss(32768.0, 1e9) > 0.9);
        // A LayerNorm alone over 32,768 × 8,192 f16 (16 KB rows, 537 MB) reads its input
        // again (measured 1.94×, batch b; the curves give 1.67×); fused after an add it reads
        // each input once.
        let (m, _) = h100();
        let ln = "graph g {\n  input x: f16[32768, 8192]\n  weight w: f16[8192]\n  op n = reduction.layernorm(x, w) -> y: [32768, 8192]\n  output y\n}\n";
        let p = kernels(ln, &m);
        let input = 32768.0 * 8192.0 * 2.0;
        assert!(
            (1.6..2.0).contains(&(p[0].dram_read as f64 / input)),
            "{p:?}"
        );
        let fused = "graph g {\n  input x: f16[32768, 8192]\n  input r: f16[32768, 8192]\n  weight w: f16[8192]\n  op a = elementwise.add(x, r) -> s\n  op n = reduction.layernorm(s, w) -> y: [32768, 8192]\n  output y\n}\n";
        let p = kernels(fused, &m);
        assert_eq!(p.len(), 1);
        assert!(p[0].dram_read as f64 / (2.0 * input) < 1.01, "{p:?}");
    }

    #[test]
    fn matmul_terms() {
        let (m, hw) = h100();
        let shape = |batch, mm, k, n| MatmulShape {
            batch,
            m: mm,
            k,
            n,
            elem_bytes: 2,
            tf32: false,
        };
        // 3,072³ fills two waves of 192 × 192 tiles (256 tiles): 0.97, not 256 × 128's 0.73.
        let s = shape(1, 3072, 3072, 3072);
        assert!((s.wave_eff(132.0) - 256.0 / 264.0).abs() < 1e-9);
        // K or N off 16 bytes: the fallback efficiency.
        assert!(s.aligned() && !shape(1, 3072, 3071, 3072).aligned());
        assert!(!shape(1, 3072, 3072, 3076).aligned() && shape(1, 3071, 3072, 3072).aligned());
        let t = |s: &MatmulShape| m.matmul(s, 0, 0, &hw, 0.0).kernel_s;
        let ratio = t(&shape(1, 4096, 4092, 4096)) / t(&shape(1, 4096, 4096, 4096));
        assert!((3.5..5.5).contains(&ratio), "{ratio}");
        // A tiny GEMM costs at least the start-up floor.
        assert!(t(&shape(1, 128, 64, 128)) >= m.mm_overhead_us * 1e-6);
    }

    #[test]
    fn a_batched_activation_times_one_weight_is_one_gemm() {
        let src = "graph g {\n  input x: f16[4, 512, 1024]\n  weight w: f16[1024, 4096]\n  op mm = matmul(x, w) -> y\n  output y\n}\n";
        let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let s = matmul_shape(&a.graph, OpId(0)).expect("shape");
        assert_eq!((s.batch, s.m, s.k, s.n), (1, 2048, 1024, 4096));
        // Batched on both sides it stays batched.
        let src = "graph g {\n  input x: f16[4, 512, 1024]\n  input w: f16[4, 1024, 512]\n  op mm = matmul(x, w) -> y\n  output y\n}\n";
        let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let s = matmul_shape(&a.graph, OpId(0)).expect("shape");
        assert_eq!((s.batch, s.m), (4, 512));
    }

    #[test]
    fn attention_options_and_validation() {
        let (m, _) = h100();
        assert_eq!(m.with_attention_kernel("default").expect("default"), m);
        let f = m.with_attention_kernel("flash2").expect("flash2");
        assert_eq!(f.attention, m.attention_kernels["flash2"]);
        let e = m.with_attention_kernel("fa3").expect_err("unknown");
        assert!(e.contains("default, flash2"), "{e}");
        assert!(m.with_causal_attention().causal_attention);
        let mut bad = m.clone();
        bad.mm_overhead_us = -1.0;
        assert!(
            bad.validate()
                .expect_err("negative")
                .contains("mm_overhead_us")
        );
        let mut bad = m.clone();
        bad.norm_reread.as_mut().expect("re-reads").row_bytes = 0.0;
        assert!(
            bad.validate()
                .expect_err("zero")
                .contains("norm_reread.row_bytes")
        );
    }
}
