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
//! - Matmul DRAM reads: compulsory when M or N ≤ 64 (skinny/decode shapes stream each operand
//!   once, split-K or not). Otherwise output tiles of 256×128 (128×128 or 128×64 when the
//!   larger ones do not fill one wave); a wave of `sms` tiles covers
//!   `c = min(tiles_n, raster_width)` tile columns and `r = sms / c` rows, so each A panel is
//!   re-read `tiles_n / c` times and each B panel `tiles_m / r` times; a re-read hits L2 with
//!   probability `1 / (1 + (ws / l2_effective_bytes)^l2_hit_exponent)`, `ws` being one batch's
//!   operand bytes (a gradual curve, not a cut-off). A batched activation times one weight
//!   (`[B, S, D] · [D, N]`) is one GEMM of `B · S` rows ([`matmul_shape`]).
//! - Matmul time: `max(flops / (peak · e · wave_eff · K / (K + mm_k_half)), (reads + writes) /
//!   (bandwidth · mm_bandwidth_efficiency)) + mm_overhead_us`, `wave_eff = (tiles / (waves ·
//!   sms))^mm_wave_exponent` (wave quantization, softened: persistent kernels) of the
//!   fullest-waved of cuBLAS's large tiles (256×128, 128×256, 192×192), `e = mm_efficiency`, or `mm_unaligned_efficiency` when K or N is off
//!   16 bytes (cuBLAS's `mma.sync` fallbacks). `tf32` operands run at the 16-bit peak times
//!   `tf32_peak_fraction`; f32 ones (FFMA, TF32 off) at the f32 peak with
//!   `mm_f32_efficiency · wave_eff` (no K term: there is no tensor-core pipeline to fill).
//! - A FlashAttention kernel (`--flash-attention`'s, [`crate::fusion::FlashKernel`]): its two
//!   matmuls' FLOPs at `peak · attention.efficiency · wave_eff · L / (L + attention.kv_half) ·
//!   D / (D + attention.head_dim_half)`, one tile per 128 queries of each batch and head, `L`
//!   the keys, `D` the head dim; memory as a matmul's, on the counted bytes.
//!   `--attention-kernel NAME` takes `attention_kernels[NAME]` instead
//!   ([`HwModel::with_attention_kernel`]), `--causal-attention` half the keys and FLOPs.
//! - Memory-bound kernels, by family (elementwise, reduction, softmax, norm): `max(bytes /
//!   (bandwidth · bandwidth_efficiency), elements / elements_per_s) / busy + overhead_us`:
//!   small kernels pay a fixed start-up, and softmax and norms are limited by their arithmetic
//!   per element before bandwidth. A softmax's elements per second and bandwidth efficiency
//!   are the family's times two factors by row length (`softmax_row_scale`, log-linear in
//!   `log(cols)` between knots): the row length picks PyTorch's kernel and its occupancy. A
//!   norm or softmax alone in its kernel (PyTorch's own) reads its input again where its later
//!   passes miss ([`RereadCoeffs`]), and runs a block per row: `busy = min(1, rows / sms)`.
//! - Writes are the compulsory ones (measured within 2% on every streaming kernel).

use super::flops::use_shape;
use crate::fusion::flash::AttentionPattern;
use crate::graph::{Graph, OpId};
use crate::traffic::GroupTraffic;
use crate::types::OpKind;
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
    /// The extra passes of softmaxes over long rows that miss the caches; none: read once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub softmax_reread: Option<RereadCoeffs>,
    /// Where the coefficients come from.
    pub source: String,
    /// Not a coefficient: `--causal-attention` says the FlashAttention kernels are causal
    /// (`is_causal`), which visit half the key blocks.
    #[serde(skip)]
    pub causal_attention: bool,
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
        }
    }
}

/// The output tiles the model chooses from, largest first (M × N).
const TILES: [(u64, u64); 3] = [(256, 128), (128, 128), (128, 64)];

/// The large tiles whose wave fill sets a matmul's time (M × N; cuBLAS's `nvjet_sm90`
/// kernels on an H100).
const WAVE_TILES: [(u64, u64); 3] = [(256, 128), (128, 256), (192, 192)];

/// A matmul's problem size: `batch` products of `[m, k] × [k, n]`, `elem_bytes` per element;
/// `tf32` when its operands are `tf32` (4 bytes, run on the tensor cores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulShape {
    pub batch: u64,
    pub m: u64,
    pub k: u64,
    pub n: u64,
    pub elem_bytes: u64,
    pub tf32: bool,
}

impl MatmulShape {
    fn flops(&self) -> f64 {
        2.0 * self.batch as f64 * self.m as f64 * self.n as f64 * self.k as f64
    }
    /// Output tiles along M and N and in all, on a GPU of `sms` SMs: the largest of
    /// [`TILES`] that still fills one wave, else the smallest (cuBLAS picks smaller tiles for
    /// small problems); skinny shapes: 64 × 128.
    fn tiles(&self, sms: f64) -> (f64, f64, f64) {
        let count = |tm: u64, tn: u64| {
            (
                self.m.div_ceil(tm).max(1) as f64,
                self.n.div_ceil(tn).max(1) as f64,
            )
        };
        let (tm, tn) = if self.skinny() {
            count(64, 128)
        } else {
            TILES
                .iter()
                .map(|&(a, b)| count(a, b))
                .find(|(tm, tn)| self.batch as f64 * tm * tn >= sms)
                .unwrap_or_else(|| count(TILES[2].0, TILES[2].1))
        };
        (tm, tn, self.batch as f64 * tm * tn)
    }
    fn skinny(&self) -> bool {
        self.m <= 64 || self.n <= 64
    }
    /// Whether the rows of both operands and of the output start on 16-byte boundaries (K
    /// and N multiples of 16 bytes), which cuBLAS's TMA kernels need.
    pub fn aligned(&self) -> bool {
        let row = |d: u64| d.saturating_mul(self.elem_bytes).is_multiple_of(16);
        row(self.k) && row(self.n)
    }
    /// `tiles / (waves · sms)` of the tiling the time takes: of [`WAVE_TILES`] those that
    /// fill one wave, the one whose last wave is fullest (cuBLAS's large kernels come in
    /// these tiles and its heuristics avoid a nearly empty last wave: 3,072² runs 192×192
    /// tiles, 256 of them in two full waves, not 288 of 256×128 in three); else the tiling of
    /// [`MatmulShape::tiles`].
    fn wave_eff(&self, sms: f64) -> f64 {
        let eff = |tiles: f64| tiles / ((tiles / sms).ceil().max(1.0) * sms);
        let best = if self.skinny() {
            None
        } else {
            WAVE_TILES
                .iter()
                .map(|&(tm, tn)| {
                    self.batch as f64
                        * self.m.div_ceil(tm).max(1) as f64
                        * self.n.div_ceil(tn).max(1) as f64
                })
                .filter(|&tiles| tiles >= sms)
                .map(eff)
                .max_by(f64::total_cmp)
        };
        best.unwrap_or_else(|| eff(self.tiles(sms).2))
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
}

impl HwModel {
    /// The H100 coefficients, as fitted by validation/gpu/h100-calib/fit.py (fit.json).
    pub fn h100() -> HwModel {
        let fam = |bandwidth_efficiency, elements_per_s, overhead_us| FamilyCoeffs {
            bandwidth_efficiency,
            elements_per_s,
            overhead_us,
        };
        HwModel {
            raster_width: 40.0,
            l2_effective_bytes: 34e6,
            l2_hit_exponent: 1.5,
            mm_efficiency: 0.84,
            mm_k_half: 256.0,
            mm_bandwidth_efficiency: 0.84,
            mm_overhead_us: 4.25,
            mm_wave_exponent: 0.25,
            mm_f32_efficiency: 0.73,
            mm_unaligned_efficiency: Some(0.16),
            attention: AttentionCoeffs {
                efficiency: 0.99,
                kv_half: 416.0,
                head_dim_half: 56.0,
            },
            attention_kernels: BTreeMap::from([(
                "flash2".to_string(),
                AttentionCoeffs {
                    efficiency: 0.53,
                    kv_half: 576.0,
                    head_dim_half: 40.0,
                },
            )]),
            tf32_peak_fraction: 0.5,
            families: Families {
                elementwise: fam(0.93, 866e9, 2.75),
                reduction: fam(0.94, 1780e9, 6.0),
                softmax: fam(0.73, 316e9, 3.0),
                norm: fam(0.84, 750e9, 5.75),
                scalar: Some(fam(0.66, 422e9, 4.5)),
                layout_copy: Some(fam(0.28, 115e9, 1.0)),
            },
            softmax_row_scale: vec![
                [256.0, 1.932, 1.275],
                [512.0, 1.932, 1.275],
                [1024.0, 1.803, 1.275],
                [2048.0, 1.32, 1.231],
                [4096.0, 1.0, 1.0],
                [8192.0, 0.785, 0.785],
                [32768.0, 1.625, 1.189],
            ],
            norm_reread: Some(RereadCoeffs {
                passes: 1.0,
                row_bytes: 13777.0,
                row_exponent: 4.0,
                input_bytes: 38054628.0,
                input_exponent: 4.0,
            }),
            softmax_reread: Some(RereadCoeffs {
                passes: 2.0,
                row_bytes: 110218.0,
                row_exponent: 8.0,
                input_bytes: 64e6,
                input_exponent: 3.0,
            }),
            causal_attention: false,
            source: "fitted by validation/gpu/h100-calib/fit.py on the cases whose index is 0 \
                     or 3 mod 4 in validation/gpu/h100-calib/cases.csv and (attention, f32 \
                     matmuls, softmax row length) validation/gpu/h100-calib-c/cases.csv, (norm \
                     and softmax re-reads, norm rate, FlashAttention-2) the fit part of \
                     validation/gpu/h100-heldout-d, (start-up floors, misaligned GEMMs) \
                     validation/gpu/h100-calib-e and (PyTorch's non-vectorized kernels) \
                     validation/gpu/h100-calib-g (H100 80GB HBM3, ncu, L2 flushed)"
                .into(),
        }
    }

    /// Checks every coefficient is a positive finite number (overheads may be zero).
    pub fn validate(&self) -> Result<(), String> {
        let pos = |k: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("`model.{k}` must be a positive number, found {v}"))
            }
        };
        pos("raster_width", self.raster_width)?;
        pos("l2_effective_bytes", self.l2_effective_bytes)?;
        pos("l2_hit_exponent", self.l2_hit_exponent)?;
        pos("mm_efficiency", self.mm_efficiency)?;
        pos("mm_bandwidth_efficiency", self.mm_bandwidth_efficiency)?;
        pos("mm_f32_efficiency", self.mm_f32_efficiency)?;
        pos("mm_wave_exponent", self.mm_wave_exponent)?;
        pos("tf32_peak_fraction", self.tf32_peak_fraction)?;
        if let Some(e) = self.mm_unaligned_efficiency {
            pos("mm_unaligned_efficiency", e)?;
        }
        let attention = std::iter::once(("attention".to_string(), &self.attention)).chain(
            self.attention_kernels
                .iter()
                .map(|(name, a)| (format!("attention_kernels.{name}"), a)),
        );
        for (key, a) in attention {
            pos(&format!("{key}.efficiency"), a.efficiency)?;
            for (k, v) in [("kv_half", a.kv_half), ("head_dim_half", a.head_dim_half)] {
                if !(v.is_finite() && v >= 0.0) {
                    return Err(format!("`model.{key}.{k}` must be zero or more, found {v}"));
                }
            }
        }
        let mut last = 0.0;
        for &[cols, rate, bw] in &self.softmax_row_scale {
            let ok = |v: f64| v.is_finite() && v > 0.0;
            if !(ok(cols) && cols > last && ok(rate) && ok(bw)) {
                return Err(format!(
                    "`model.softmax_row_scale` must hold [cols, rate factor, bandwidth factor] \
                     triples of positive numbers, cols ascending; found [{cols}, {rate}, {bw}]"
                ));
            }
            last = cols;
        }
        for (key, r) in [
            ("norm_reread", &self.norm_reread),
            ("softmax_reread", &self.softmax_reread),
        ] {
            let Some(r) = r else { continue };
            for (k, v) in [
                ("passes", r.passes),
                ("row_bytes", r.row_bytes),
                ("row_exponent", r.row_exponent),
                ("input_bytes", r.input_bytes),
                ("input_exponent", r.input_exponent),
            ] {
                pos(&format!("{key}.{k}"), v)?;
            }
        }
        if !(self.mm_overhead_us.is_finite() && self.mm_overhead_us >= 0.0) {
            return Err(format!(
                "`model.mm_overhead_us` must be zero or more, found {}",
                self.mm_overhead_us
            ));
        }
        if !(self.mm_k_half.is_finite() && self.mm_k_half >= 0.0) {
            return Err(format!(
                "`model.mm_k_half` must be zero or more, found {}",
                self.mm_k_half
            ));
        }
        let f = &self.families;
        let optional = [("scalar", f.scalar), ("layout_copy", f.layout_copy)]
            .into_iter()
            .filter_map(|(k, c)| Some((k, c?)));
        for (name, c) in [
            ("elementwise", f.elementwise),
            ("reduction", f.reduction),
            ("softmax", f.softmax),
            ("norm", f.norm),
        ]
        .into_iter()
        .chain(optional)
        {
            pos(
                &format!("families.{name}.bandwidth_efficiency"),
                c.bandwidth_efficiency,
            )?;
            pos(&format!("families.{name}.elements_per_s"), c.elements_per_s)?;
            if !(c.overhead_us.is_finite() && c.overhead_us >= 0.0) {
                return Err(format!(
                    "`model.families.{name}.overhead_us` must be zero or more, found {}",
                    c.overhead_us
                ));
            }
        }
        Ok(())
    }

    /// This model with attention kernel `name` (a key of `attention_kernels`) as the one
    /// FlashAttention kernels take; an error (a sentence listing the names) when there is no
    /// such kernel.
    pub fn with_attention_kernel(&self, name: &str) -> Result<HwModel, String> {
        let Some(a) = self.attention_kernels.get(name) else {
            let mut known: Vec<&str> = self.attention_kernels.keys().map(String::as_str).collect();
            known.insert(0, "default");
            if name == "default" {
                return Ok(self.clone());
            }
            return Err(format!(
                "unknown attention kernel `{name}`: this GPU's hardware model knows {}",
                known.join(", ")
            ));
        };
        let mut m = self.clone();
        m.attention = *a;
        m.source = format!("{} (attention kernel `{name}`)", self.source);
        Ok(m)
    }

    /// This model with FlashAttention kernels priced as causal ones (`is_causal`: half the
    /// key blocks and half the FLOPs), as `--causal-attention` asks.
    pub fn with_causal_attention(&self) -> HwModel {
        HwModel {
            causal_attention: true,
            source: format!("{} (causal attention)", self.source),
            ..self.clone()
        }
    }

    fn family(&self, f: Family) -> FamilyCoeffs {
        match f {
            Family::Softmax => self.families.softmax,
            Family::Norm => self.families.norm,
            Family::Reduction => self.families.reduction,
            Family::Elementwise | Family::Matmul | Family::Attention => self.families.elementwise,
        }
    }

    /// The factors on a softmax's elements per second and bandwidth efficiency for rows of
    /// `cols` (1 and 1 with no knots).
    pub fn softmax_scale(&self, cols: u64) -> (f64, f64) {
        let k = &self.softmax_row_scale;
        let (Some(first), Some(last)) = (k.first(), k.last()) else {
            return (1.0, 1.0);
        };
        let c = cols as f64;
        if c <= first[0] {
            return (first[1], first[2]);
        }
        for w in k.windows(2) {
            let (a, b) = (w[0], w[1]);
            if c <= b[0] {
                let t = (c / a[0]).ln() / (b[0] / a[0]).ln();
                let lerp = |x: f64, y: f64| (x.ln() + t * (y.ln() - x.ln())).exp();
                return (lerp(a[1], b[1]), lerp(a[2], b[2]));
            }
        }
        (last[1], last[2])
    }

    /// Predicted DRAM bytes a matmul reads of its two operands on a GPU of `sms` SMs.
    pub fn matmul_reads(&self, s: &MatmulShape, sms: u32) -> f64 {
        let a = s.m as f64 * s.k as f64 * s.elem_bytes as f64;
        let b = s.k as f64 * s.n as f64 * s.elem_bytes as f64;
        let compulsory = s.batch as f64 * (a + b);
        if s.skinny() {
            return compulsory;
        }
        let sms = f64::from(sms.max(1));
        let (tiles_m, tiles_n, _) = s.tiles(sms);
        let c = tiles_n.min(self.raster_width);
        let r = (sms / c).min(tiles_m).max(1.0);
        let extra = a * ((tiles_n / c).max(1.0) - 1.0) + b * ((tiles_m / r).max(1.0) - 1.0);
        let hit = 1.0 / (1.0 + ((a + b) / self.l2_effective_bytes).powf(self.l2_hit_exponent));
        compulsory + s.batch as f64 * extra * (1.0 - hit)
    }

    /// A matmul kernel: its operands' reads from the tiling, `other_read` (epilogue inputs)
    /// and `written` as counted.
    pub fn matmul(
        &self,
        s: &MatmulShape,
        other_read: u64,
        written: u64,
        hw: &super::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let sms = hw.sms.unwrap_or(132);
        let read = self.matmul_reads(s, sms) + other_read as f64;
        let wave_eff = s
            .wave_eff(f64::from(sms.max(1)))
            .powf(self.mm_wave_exponent);
        let k = s.k as f64;
        let unit = super::Unit::for_matmul_bytes(s.elem_bytes);
        let (peak, eff) = if s.tf32 {
            // TF32 runs on the tensor cores, at a fraction of the 16-bit peak.
            (
                hw.peak(super::Unit::Tensor16) * self.tf32_peak_fraction,
                self.mm_efficiency * wave_eff * k / (k + self.mm_k_half),
            )
        } else if unit == super::Unit::F32 {
            // FFMA on the CUDA cores: no tensor-core pipeline fill.
            (hw.peak(unit), self.mm_f32_efficiency * wave_eff)
        } else {
            let e = match self.mm_unaligned_efficiency {
                Some(e) if !s.aligned() => e,
                _ => self.mm_efficiency,
            };
            (hw.peak(unit), e * wave_eff * k / (k + self.mm_k_half))
        };
        let compute_s = s.flops() / (peak * eff);
        let memory_s = (read + written as f64) / (hw.bandwidth * self.mm_bandwidth_efficiency);
        let mut p = finish(Family::Matmul, read, written, compute_s, memory_s, launch_s);
        p.kernel_s += self.mm_overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        p
    }

    /// A FlashAttention forward kernel: `batch` (batch × heads) products of `queries` ×
    /// `keys` scores of head dim `head_dim`, `flops` in all (the two matmuls), moving `read +
    /// written` bytes. `keys` is what each query block visits: the key count, or half of it
    /// for a causal kernel that skips the masked blocks (then `flops` is halved too).
    #[allow(clippy::too_many_arguments)]
    pub fn attention(
        &self,
        batch: u64,
        queries: u64,
        keys: u64,
        head_dim: u64,
        flops: f64,
        (read, written): (u64, u64),
        hw: &super::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let sms = f64::from(hw.sms.unwrap_or(132).max(1));
        let tiles = (batch.max(1) * queries.div_ceil(128).max(1)) as f64;
        let waves = (tiles / sms).ceil().max(1.0);
        let a = &self.attention;
        let (l, d) = (keys as f64, head_dim as f64);
        let eff =
            a.efficiency * tiles / (waves * sms) * l / (l + a.kv_half) * d / (d + a.head_dim_half);
        let compute_s = flops / (hw.peak(super::Unit::Tensor16) * eff);
        let memory_s =
            (read as f64 + written as f64) / (hw.bandwidth * self.mm_bandwidth_efficiency);
        finish(
            Family::Attention,
            read as f64,
            written,
            compute_s,
            memory_s,
            launch_s,
        )
    }

    /// A memory-bound kernel of `family` moving `read + written` bytes over `elements`; for a
    /// softmax or a norm, `cols` is its row length when known. `read` is taken as the input
    /// of a row-wise kernel (its rows are `cols · read / elements` bytes): a norm or softmax
    /// reads it again where `norm_reread` or `softmax_reread` says.
    #[allow(clippy::too_many_arguments)]
    pub fn memory(
        &self,
        family: Family,
        read: u64,
        written: u64,
        elements: u64,
        cols: Option<u64>,
        hw: &super::Hardware,
        launch_s: f64,
    ) -> Prediction {
        self.memory_kernel(
            family, read, written, elements, cols, true, None, hw, launch_s,
        )
    }

    /// [`HwModel::memory`]; `native` says the kernel is PyTorch's own norm or softmax kernel
    /// (the op alone), which re-reads its input, where a compiler's fused kernel (Inductor's
    /// `triton_red_fused_add_native_layer_norm`: measured reading its inputs once) does not;
    /// `scalar` that it is one of PyTorch's non-vectorized elementwise kernels
    /// ([`scalar_kernel`]) and which.
    #[allow(clippy::too_many_arguments)]
    fn memory_kernel(
        &self,
        family: Family,
        read: u64,
        written: u64,
        elements: u64,
        cols: Option<u64>,
        native: bool,
        scalar: Option<ScalarKernel>,
        hw: &super::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let f = &self.families;
        let c = match scalar {
            Some(ScalarKernel::Scalar) => f.scalar,
            Some(ScalarKernel::LayoutCopy) => f.layout_copy,
            None => None,
        }
        .unwrap_or_else(|| self.family(family));
        let (rate, bw) = match (family, cols) {
            (Family::Softmax, Some(cols)) => self.softmax_scale(cols),
            _ => (1.0, 1.0),
        };
        let reread = match family {
            Family::Softmax => self.softmax_reread,
            Family::Norm => self.norm_reread,
            _ => None,
        };
        let read = read as f64
            + match (reread, cols) {
                (Some(r), Some(cols)) if native && elements > 0 => {
                    let row_bytes = cols as f64 * read as f64 / elements as f64;
                    r.extra_reads(row_bytes, read as f64)
                }
                _ => 0.0,
            };
        // A block per row (norms; softmaxes over rows longer than 2,048): fewer rows than
        // SMs leave SMs idle.
        let busy = match (family, cols) {
            (Family::Norm, Some(cols)) | (Family::Softmax, Some(cols @ 2049..)) if cols > 0 => {
                let rows = (elements / cols).max(1);
                (rows as f64 / f64::from(hw.sms.unwrap_or(132).max(1))).min(1.0)
            }
            _ => 1.0,
        }
        .max(f64::MIN_POSITIVE);
        let bytes = read + written as f64;
        let memory_s = bytes / (hw.bandwidth * c.bandwidth_efficiency * bw) / busy;
        let compute_s = elements as f64 / (c.elements_per_s * rate) / busy;
        let mut p = finish(family, read, written, compute_s, memory_s, launch_s);
        p.kernel_s += c.overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        p
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
    }
}

/// The problem size of matmul op `o`, from its output and operands. A batched activation
/// times one weight (`[B, S, D] · [D, N]`, the second operand without batch dimensions or
/// with all of them 1) is one GEMM of `B · S` rows, as PyTorch runs it (validation/gpu/
/// h100-heldout-d: the layers' projections read the weight once), not `B` products.
pub fn matmul_shape(g: &Graph, o: OpId) -> Option<MatmulShape> {
    let op = g.op(o);
    let a = op.inputs.first()?;
    let a_shape = use_shape(g, a);
    let out = &g.tensor(op.output).shape;
    if out.len() < 2 || a_shape.len() < 2 {
        return None;
    }
    let batch = out[..out.len() - 2]
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))?;
    let m = out[out.len() - 2];
    let shared_weight = op.inputs.get(1).is_some_and(|b| {
        let b_shape = use_shape(g, b);
        b_shape.len() >= 2 && b_shape[..b_shape.len() - 2].iter().all(|&d| d == 1)
    });
    let (batch, m) = if shared_weight && batch > 1 {
        (1, batch.checked_mul(m)?)
    } else {
        (batch, m)
    };
    Some(MatmulShape {
        batch,
        m,
        k: a_shape[a_shape.len() - 1],
        n: out[out.len() - 1],
        elem_bytes: g.tensor(a.tensor).dtype.bytes(),
        tf32: g.tensor(a.tensor).dtype == crate::types::Dtype::Tf32,
    })
}

/// The family of a kernel with no matmul: a softmax or a norm anywhere in it decides, then
/// any other reduction; else elementwise.
fn family_of(g: &Graph, ops: &[OpId]) -> Family {
    let mut family = Family::Elementwise;
    for &o in ops {
        let op = g.op(o);
        if op.kind != OpKind::Reduction {
            continue;
        }
        let f = op.func.as_deref().unwrap_or("");
        let this = if f == "softmax" {
            Family::Softmax
        } else if f.ends_with("norm") {
            Family::Norm
        } else {
            Family::Reduction
        };
        family = match (family, this) {
            (Family::Softmax, _) | (_, Family::Softmax) => Family::Softmax,
            (Family::Norm, _) | (_, Family::Norm) => Family::Norm,
            _ => Family::Reduction,
        };
    }
    family
}

/// PyTorch's non-vectorized elementwise kernels ([`scalar_kernel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKernel {
    /// A broadcast, a widening cast or a copy of contiguous runs: `families.scalar`.
    Scalar,
    /// A transpose: `families.layout_copy`.
    LayoutCopy,
}

/// Which of PyTorch's non-vectorized elementwise kernels the kernel made of `ops` is, if any:
/// a lone permute that moves the innermost axis (a transpose: `layout_copy`), or a lone
/// reshape or other permute (a copy of contiguous runs), or a lone elementwise op that
/// broadcasts an input of more than one element (`x + b`, `b` of shape `[N]`:
/// `elementwise_kernel`) or casts to a wider type (f16 to f32: `unrolled_elementwise_kernel`),
/// all three `scalar`.
pub fn scalar_kernel(g: &Graph, ops: &[OpId]) -> Option<ScalarKernel> {
    let [o] = ops else {
        return None;
    };
    let op = g.op(*o);
    match op.kind {
        // A permute that moves the innermost axis is a transpose (strided element by
        // element); one that keeps it, or a reshape that has to copy, copies runs of it.
        OpKind::Permute => {
            let dims = op.list_attr("dims").unwrap_or(&[]);
            let innermost = i64::try_from(dims.len()).ok()? - 1;
            Some(if dims.last() == Some(&innermost) {
                ScalarKernel::Scalar
            } else {
                ScalarKernel::LayoutCopy
            })
        }
        OpKind::Reshape => Some(ScalarKernel::Scalar),
        OpKind::Elementwise => {
            let out = g.tensor(op.output);
            op.inputs
                .iter()
                .any(|u| {
                    let t = g.tensor(u.tensor);
                    let shape = use_shape(g, u);
                    let elems = shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d));
                    (shape != out.shape && elems.is_some_and(|n| n > 1))
                        || t.dtype.bytes() < out.dtype.bytes()
                })
                .then_some(ScalarKernel::Scalar)
        }
        _ => None,
    }
}

/// The row length of the row-wise ops of `family` (softmax or norm) among `ops`: the
/// largest one's extent along its axis.
fn row_cols(g: &Graph, ops: &[OpId], family: Family) -> Option<u64> {
    ops.iter()
        .filter(|&&o| {
            let op = g.op(o);
            let f = op.func.as_deref().unwrap_or("");
            op.kind == OpKind::Reduction
                && match family {
                    Family::Softmax => f == "softmax",
                    Family::Norm => f.ends_with("norm"),
                    _ => false,
                }
        })
        .filter_map(|&o| {
            let op = g.op(o);
            let shape = use_shape(g, op.inputs.first()?);
            let rank = shape.len() as i64;
            let axis = op.int_attr("axis").unwrap_or(-1);
            let axis = if axis < 0 { axis + rank } else { axis };
            let cols = *shape.get(usize::try_from(axis).ok()?)?;
            Some((g.tensor(op.output).bytes, cols))
        })
        .max()
        .map(|(_, cols)| cols)
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
    if let Some(p) = flash
        && let Some(s) = matmul_shape(g, p.qk)
    {
        // Queries m, keys n, head dim k of Q·Kᵀ; the graph does not say whether the mask is
        // causal, so every key block is visited unless `--causal-attention` says the kernel
        // is an `is_causal` one, which does half.
        let flops: u64 = ops
            .iter()
            .filter(|&&o| g.op(o).kind == OpKind::Matmul)
            .fold(0u64, |a, &o| a.saturating_add(super::op_flops(g, o).0));
        let (keys, flops) = if model.causal_attention {
            (s.n.div_ceil(2), flops as f64 / 2.0)
        } else {
            (s.n, flops as f64)
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
    let matmuls: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|&o| g.op(o).kind == OpKind::Matmul)
        .collect();
    if let [mm] = matmuls[..]
        && let Some(shape) = matmul_shape(g, mm)
    {
        // The operands' counted reads give way to the tiling model's.
        let operands: u64 = g
            .op(mm)
            .inputs
            .iter()
            .filter(|u| traffic.reads.iter().any(|r| r.tensor == u.tensor))
            .fold(0u64, |acc, u| acc.saturating_add(g.use_bytes(u)));
        let other = traffic.bytes_read.saturating_sub(operands);
        return model.matmul(&shape, other, traffic.bytes_written, hw, launch_s);
    }
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
    // One row-wise op with nothing else computed (views aside) is PyTorch's own kernel.
    let computed = ops
        .iter()
        .filter(|&&o| {
            !matches!(
                g.op(o).kind,
                OpKind::Reshape | OpKind::Permute | OpKind::Expand | OpKind::Slice
            )
        })
        .count();
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
