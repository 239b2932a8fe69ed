//! The hardware model's convolutions (part of [`super`], issue 23): what cuDNN and PyTorch
//! run for a `conv` on an H100, fitted on the fit half of validation/gpu/h100-calib-h
//! (`fit_conv.py` is the same arithmetic in Python).
//!
//! A conv of input `[N, C, *L]`, weight `[K, C/g, *k]`, output `[N, K, *out]`, `Cg = C/g`,
//! `taps = prod(k)`, `e` bytes an element:
//! - **Depthwise** (`g = C > 1`, `Cg = 1`): one memory-bound kernel at the compulsory bytes,
//!   `overhead + (x + w + y) / (bandwidth · eff) + outputs · taps / taps_per_s`, with
//!   coefficients per kernel: PyTorch's `conv_depthwise2d_forward_kernel_generic` in NCHW,
//!   cuDNN's `conv2d_c1_k1_nhwc_specialized` in channels-last, and cuDNN's
//!   `conv1D_NCHW_general` for an f16 contiguous conv1d of stride 1 (PyTorch's
//!   `use_cudnn_depthwise` takes only half precision).
//! - **Pointwise** (`taps = 1`, stride 1, padding 0, `g = 1`): one cuBLAS GEMM, `M = N·prod(L)`,
//!   `N = K`, `K = C`, priced by the matmul family as is, in channels-last and in NCHW when
//!   `prod(L)·e` is a multiple of 16 bytes; in NCHW with `prod(L)` even but not aligned,
//!   cuDNN's align2 CUTLASS GEMM at `gemm_unaligned_efficiency`; with `prod(L)` odd, the
//!   implicit GEMM below.
//! - Otherwise cuDNN's **implicit GEMM**: one kernel reading `x' + w'` and writing the output,
//!   `max(flops / (peak · gemm_efficiency · wave_eff · K / (K + gemm_k_half)), bytes /
//!   (bandwidth · mm_bandwidth_efficiency)) + gemm_overhead_us` (`wave_eff` the matmul
//!   family's for `M × N`, `M = N·prod(out)`, `N = K`, `K = Cg·taps`). Channels whose bytes are
//!   not a multiple of 16 are padded (to 4 below 4, else to a multiple of 8): `x'` and `w'`
//!   grow by that much. In NCHW the input is first transposed to NHWC (`to_nhwc`, or
//!   `to_nhwc_padded` when it pads), the weight too (`weight_to_nhwc`, `K·Cg` rows of taps;
//!   not a 1×1 weight that needs no padding), and the output transposed back after
//!   (`to_nchw`): each copy is read again by the next kernel, so a contiguous half-precision
//!   conv reads `2x + 2w + y` where channels-last reads `x + w`. In channels-last a padded
//!   input and weight are first copied by `pad`. Each copy is a memory-bound kernel,
//!   `overhead + max((read + write) / (bandwidth · eff), elements / rate)`.
//!
//! Batch i's refit (validation/gpu/h100-calib-i/fit_conv_i.py) added three things, each
//! optional in a hardware file (absent: batch h's model):
//! - **Covered input**: where a kernel dimension is no wider than its stride (a 1×1 of
//!   stride 2), the implicit GEMM reads only the `min(in, out·k)` positions it covers.
//! - **Direct kernels** (`direct`, `direct_max_taps`, `direct_max_out_channels`): a conv
//!   whose channels per group are padded, whose kernel has fewer than `direct_max_taps` taps
//!   and which has fewer than `direct_max_out_channels` filters (RGB stems of 3×3/2 and 4×4/4)
//!   is one kernel reading `x` (covered) and `w` once, with no transposes
//!   or padding copies: `overhead + max(bytes / (bandwidth · eff), flops / flops_per_s)`.
//! - **3-D implicit GEMMs** at `gemm_3d_efficiency` (refitted by batch j on cuDNN's sm80
//!   and sm90 3-D kernels).
//!
//! Batch j's refit (validation/gpu/h100-calib-j/fit_conv_j.py) added three more, also optional:
//! - **CUTLASS align8 kernels** (`cutlass`, [`CutlassCoeffs`]): an ungrouped 2-D conv whose
//!   channels are padded, that the direct kernel does not take, in bf16 with at least
//!   `min_taps_bf16` taps or in f16 with at least `min_taps_f16` (ResNet's 7×7/2 stem in bf16,
//!   SD's conv_in in bf16, ViT's patchify convs) runs cuDNN's
//!   `cutlass_tensorop_*_s16816fprop_optimized_*_nhwc_align8` with the channels padded to 8:
//!   the same copies as the padded implicit GEMM (padding to 8), then one kernel reading
//!   `x'·covered + w'` in `ceil(CTAs / SMs)` waves of `overhead + 2·tm·tn·(cp·taps) /
//!   flops_per_sm_s`, tile `tm × tn` 128×128 or 256×64 ([`ConvShape::cutlass_tile`]),
//!   `CTAs = ceil(M / tm)·ceil(K / tn)`.
//! - **Indexed kernels** (`indexed`): an ungrouped f16 2-D conv whose channels are padded,
//!   with fewer than `direct_max_taps` taps, in channels-last or (in NCHW) one the direct
//!   kernel does not take (SD's conv_in) runs cuDNN's sm80 "indexed" implicit GEMM on the
//!   unpadded input: the direct kernel's formula with its own coefficients, in NCHW behind
//!   plain transposes of the input and weight and before the output's back.
//! - **Fills of padding copies** (`padded_copy_l2_bytes`): a copy that pads channels writes
//!   partial sectors, and reads from DRAM what it writes beyond the bytes L2 keeps:
//!   `x + max(0, x' - padded_copy_l2_bytes)` (its time stays the copy's fit).
//!
//! The kernel's prediction sums its cuDNN kernels (reads, writes of the copies, time, one
//! launch each); an epilogue's other reads (a bias) are added to the GEMM's, as for a matmul.

use super::{Family, FamilyCoeffs, HwModel, MatmulShape, Prediction, check_range, finish};
use crate::graph::{Graph, OpId};
use crate::types::{Dtype, OpKind};
use serde::{Deserialize, Serialize};

/// cuDNN runs a channels-last depthwise conv of fewer images than this with its generic
/// kernel, `conv2d_c1_k1_nhwc`, and from it up with `conv2d_c1_k1_nhwc_specialized`
/// (validation/gpu/models/dw_probe: batches 1-7 and 8-32 at all four of ConvNeXt-T's stages,
/// cuDNN 9.19).
pub const GENERIC_BELOW_BATCH: u64 = 8;

/// A depthwise conv kernel's coefficients: `overhead_us + bytes / (bandwidth ·
/// bandwidth_efficiency) + taps / taps_per_s`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthwiseCoeffs {
    pub bandwidth_efficiency: f64,
    /// Multiply-adds (outputs × kernel taps) per second.
    pub taps_per_s: f64,
    pub overhead_us: f64,
}

/// The `conv` family's coefficients (`model.conv` of a hardware file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvCoeffs {
    /// cuDNN's `nchwToNhwcKernel` on a contiguous input (elements: the input's).
    pub to_nhwc: FamilyCoeffs,
    /// The same when it pads the channels (a 3- or 4-channel image).
    pub to_nhwc_padded: FamilyCoeffs,
    /// `nchwToNhwcKernel` on the weight, `[K, Cg, *k]` to `[K, *k, Cg]` (elements: `K·Cg`,
    /// one row of taps each).
    pub weight_to_nhwc: FamilyCoeffs,
    /// `nhwcToNchwKernel` on the output (elements: the output's).
    pub to_nchw: FamilyCoeffs,
    /// `nhwcAddPaddingKernel`: a channels-last input or weight whose channels are padded.
    pub pad: FamilyCoeffs,
    /// Fraction of the tensor peak cuDNN's implicit GEMM reaches (times the matmul family's
    /// wave factor and `K / (K + gemm_k_half)`).
    pub gemm_efficiency: f64,
    pub gemm_k_half: f64,
    pub gemm_overhead_us: f64,
    /// cuDNN's align2 CUTLASS GEMM: a contiguous 1×1 conv whose `prod(L)·e` is not a multiple
    /// of 16 bytes (in place of `mm_efficiency`).
    pub gemm_unaligned_efficiency: f64,
    pub depthwise_nchw: DepthwiseCoeffs,
    pub depthwise_channels_last: DepthwiseCoeffs,
    pub depthwise_cudnn_1d: DepthwiseCoeffs,
    /// cuDNN's `conv2d_c1_k1_nhwc`, which runs a channels-last depthwise conv of fewer than
    /// [`GENERIC_BELOW_BATCH`] images (`depthwise_channels_last` is its specialized kernel,
    /// from that batch up); `None`: every batch at `depthwise_channels_last`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depthwise_channels_last_generic: Option<DepthwiseCoeffs>,
    /// The small-channel direct kernel (batch i); `None`: such convs take the padded path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct: Option<DirectCoeffs>,
    /// Kernels with fewer taps than this take the direct kernel (with `direct`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_max_taps: Option<f64>,
    /// ... and fewer filters (output channels) than this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_max_out_channels: Option<f64>,
    /// The implicit GEMM's efficiency for 3-D convs (`None`: `gemm_efficiency`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemm_3d_efficiency: Option<f64>,
    /// cuDNN's CUTLASS align8 kernel for small-channel 2-D convs (batch j); `None`: such
    /// convs take the padded implicit GEMM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutlass: Option<CutlassCoeffs>,
    /// cuDNN's sm80 "indexed" kernel (batch j): an f16 conv whose channels per group are
    /// padded, with fewer than `direct_max_taps` taps, in channels-last, or in NCHW when the
    /// direct kernel does not take it; `None`: the direct kernel or the padded implicit GEMM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed: Option<DirectCoeffs>,
    /// Bytes a copy that pads channels keeps in L2; what it writes beyond them is read from
    /// DRAM first (a fill of the partial sectors it writes). `None`: no fill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub padded_copy_l2_bytes: Option<f64>,
    /// Where the coefficients come from.
    pub source: String,
}

/// A direct (CUDA-core or unpadded) conv kernel's coefficients: `overhead_us + max(bytes /
/// (bandwidth · bandwidth_efficiency), flops / flops_per_s)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirectCoeffs {
    pub bandwidth_efficiency: f64,
    pub flops_per_s: f64,
    pub overhead_us: f64,
}

/// cuDNN's `cutlass_tensorop_*_s16816fprop_optimized_*_nhwc_align8` kernel (batch j): a 2-D
/// conv whose channels per group are padded and that the direct kernel does not take, in
/// bf16 with at least `min_taps_bf16` taps or in f16 with at least `min_taps_f16`. Its time
/// is `waves · (overhead_us + CTA_flops / flops_per_sm_s)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutlassCoeffs {
    pub overhead_us: f64,
    /// FLOPs a second of one SM (one CTA at a time).
    pub flops_per_sm_s: f64,
    pub min_taps_bf16: f64,
    pub min_taps_f16: f64,
}

impl ConvCoeffs {
    /// Checks every coefficient against [`super::RANGES`], named `model.conv.FIELD`.
    pub(super) fn validate(&self) -> Result<(), String> {
        let families = [
            ("to_nhwc", &self.to_nhwc),
            ("to_nhwc_padded", &self.to_nhwc_padded),
            ("weight_to_nhwc", &self.weight_to_nhwc),
            ("to_nchw", &self.to_nchw),
            ("pad", &self.pad),
        ];
        for (name, c) in families {
            for (k, v) in [
                ("bandwidth_efficiency", c.bandwidth_efficiency),
                ("elements_per_s", c.elements_per_s),
                ("overhead_us", c.overhead_us),
            ] {
                check_range(k, &format!("model.conv.{name}.{k}"), v)?;
            }
        }
        for (k, v) in [
            ("gemm_efficiency", self.gemm_efficiency),
            ("gemm_k_half", self.gemm_k_half),
            ("gemm_overhead_us", self.gemm_overhead_us),
            ("gemm_unaligned_efficiency", self.gemm_unaligned_efficiency),
        ] {
            check_range(k, &format!("model.conv.{k}"), v)?;
        }
        for (name, c) in [
            ("depthwise_nchw", &self.depthwise_nchw),
            ("depthwise_channels_last", &self.depthwise_channels_last),
            ("depthwise_cudnn_1d", &self.depthwise_cudnn_1d),
        ]
        .into_iter()
        .chain(
            self.depthwise_channels_last_generic
                .as_ref()
                .map(|c| ("depthwise_channels_last_generic", c)),
        ) {
            for (k, v) in [
                ("bandwidth_efficiency", c.bandwidth_efficiency),
                ("taps_per_s", c.taps_per_s),
                ("overhead_us", c.overhead_us),
            ] {
                check_range(k, &format!("model.conv.{name}.{k}"), v)?;
            }
        }
        if let Some(d) = &self.direct {
            for (k, v) in [
                ("bandwidth_efficiency", d.bandwidth_efficiency),
                ("flops_per_s", d.flops_per_s),
                ("overhead_us", d.overhead_us),
            ] {
                check_range(k, &format!("model.conv.direct.{k}"), v)?;
            }
        }
        if let Some(v) = self.direct_max_taps {
            check_range("direct_max_taps", "model.conv.direct_max_taps", v)?;
        }
        if let Some(v) = self.direct_max_out_channels {
            check_range(
                "direct_max_out_channels",
                "model.conv.direct_max_out_channels",
                v,
            )?;
        }
        if let Some(v) = self.gemm_3d_efficiency {
            check_range("gemm_3d_efficiency", "model.conv.gemm_3d_efficiency", v)?;
        }
        if let Some(c) = &self.cutlass {
            for (k, v) in [
                ("overhead_us", c.overhead_us),
                ("flops_per_sm_s", c.flops_per_sm_s),
                ("min_taps_bf16", c.min_taps_bf16),
                ("min_taps_f16", c.min_taps_f16),
            ] {
                check_range(k, &format!("model.conv.cutlass.{k}"), v)?;
            }
        }
        if let Some(d) = &self.indexed {
            for (k, v) in [
                ("bandwidth_efficiency", d.bandwidth_efficiency),
                ("flops_per_s", d.flops_per_s),
                ("overhead_us", d.overhead_us),
            ] {
                check_range(k, &format!("model.conv.indexed.{k}"), v)?;
            }
        }
        if let Some(v) = self.padded_copy_l2_bytes {
            check_range("padded_copy_l2_bytes", "model.conv.padded_copy_l2_bytes", v)?;
        }
        Ok(())
    }
}

/// A conv's problem, from its op ([`conv_shape`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvShape {
    pub input: Vec<u64>,
    pub weight: Vec<u64>,
    pub output: Vec<u64>,
    pub stride: Vec<u64>,
    pub padding: Vec<u64>,
    pub groups: u64,
    pub channels_last: bool,
    pub dtype: Dtype,
}

impl ConvShape {
    fn e(&self) -> f64 {
        self.dtype.bytes() as f64
    }
    fn bytes(&self, shape: &[u64]) -> f64 {
        elements(shape) * self.e()
    }
    fn channels(&self) -> (u64, u64) {
        let c = self.input.get(1).copied().unwrap_or(1);
        (c, c / self.groups.max(1))
    }
    fn taps(&self) -> f64 {
        elements(self.weight.get(2..).unwrap_or(&[]))
    }
    /// Groups = channels, one input channel per filter.
    pub fn depthwise(&self) -> bool {
        let (c, cg) = self.channels();
        self.groups > 1 && self.groups == c && cg == 1
    }
    /// A 1×1 conv of stride 1 and no padding: a GEMM over the pixels.
    pub fn pointwise(&self) -> bool {
        self.groups == 1
            && self.taps() == 1.0
            && self.stride.iter().all(|&s| s == 1)
            && self.padding.iter().all(|&p| p == 0)
    }
    /// The implicit GEMM's `M × N × K` (a batch of 1).
    pub fn gemm(&self) -> MatmulShape {
        let (_, cg) = self.channels();
        let pixels = self
            .output
            .get(2..)
            .map_or(1, |s| s.iter().product::<u64>());
        MatmulShape {
            batch: 1,
            m: self
                .output
                .first()
                .copied()
                .unwrap_or(1)
                .saturating_mul(pixels),
            n: self.weight.first().copied().unwrap_or(1),
            k: cg.saturating_mul(self.taps() as u64),
            elem_bytes: self.dtype.bytes(),
            tf32: self.dtype == Dtype::Tf32,
        }
    }
    /// The fraction of the input's positions the kernel reads: along a dimension whose kernel
    /// is no wider than its stride (dilation 1), `min(in, out · k)` of `in`; 1 elsewhere.
    pub fn covered(&self) -> f64 {
        let mut frac = 1.0;
        let dims = self.input.get(2..).unwrap_or(&[]);
        for (i, &n) in dims.iter().enumerate() {
            let k = self.weight.get(2 + i).copied().unwrap_or(1);
            let s = self.stride.get(i).copied().unwrap_or(1);
            let out = self.output.get(2 + i).copied().unwrap_or(n);
            if k <= s && n > 0 {
                frac *= (out.saturating_mul(k).min(n)) as f64 / n as f64;
            }
        }
        frac
    }
    /// Whether cuDNN runs its CUTLASS align8 kernel ([`CutlassCoeffs`]) for this ungrouped
    /// 2-D conv, whose channels are `padded` (the direct and indexed kernels checked first;
    /// grouped convs, unmeasured, keep the implicit GEMM).
    pub fn takes_cutlass(&self, c: &CutlassCoeffs, padded: bool) -> bool {
        let min_taps = match self.dtype {
            Dtype::Bf16 => c.min_taps_bf16,
            Dtype::F16 => c.min_taps_f16,
            _ => return false,
        };
        padded && self.groups == 1 && self.input.len() == 4 && self.taps() >= min_taps
    }
    /// The CUTLASS kernel's tile `(tm, tn)` over `M × K` (output pixels by filters): 128×128
    /// when 128-wide tiles waste no more filters than 64-wide ones, else 256×64.
    pub fn cutlass_tile(&self) -> (u64, u64) {
        let k = self.weight.first().copied().unwrap_or(1);
        if k.div_ceil(128).saturating_mul(128) <= k.div_ceil(64).saturating_mul(64) {
            (128, 128)
        } else {
            (256, 64)
        }
    }
    /// The CUTLASS kernel's seconds, its channels padded to `cp`, on `sms` SMs:
    /// `ceil(CTAs / sms)` waves of `overhead + 2·tm·tn·cp·taps / flops_per_sm_s`.
    fn cutlass_s(&self, c: &CutlassCoeffs, cp: u64, sms: u32) -> f64 {
        let (tm, tn) = self.cutlass_tile();
        let m = self.gemm().m;
        let k = self.weight.first().copied().unwrap_or(1);
        let ctas = m.div_ceil(tm) as f64 * k.div_ceil(tn) as f64;
        let waves = (ctas / f64::from(sms.max(1))).ceil();
        let cta_flops = 2.0 * (tm * tn) as f64 * cp as f64 * self.taps();
        waves * (c.overhead_us * 1e-6 + cta_flops / c.flops_per_sm_s)
    }
    /// Channels per group as cuDNN's kernels take them: padded to 4 below 4, else to a
    /// multiple of 8, when their bytes are not a multiple of 16.
    pub fn padded_channels(&self) -> u64 {
        let (_, cg) = self.channels();
        if (cg.saturating_mul(self.dtype.bytes())).is_multiple_of(16) {
            cg
        } else if cg < 4 {
            4
        } else {
            cg.div_ceil(8).saturating_mul(8)
        }
    }
}

fn elements(shape: &[u64]) -> f64 {
    shape.iter().map(|&d| d as f64).product()
}

/// The problem of conv op `o` (`None` for another kind, or a shape that is not a conv's).
pub fn conv_shape(g: &Graph, o: OpId) -> Option<ConvShape> {
    let op = g.op(o);
    if op.kind != OpKind::Conv {
        return None;
    }
    let input = g.use_shape(op.inputs.first()?);
    let weight = g.use_shape(op.inputs.get(1)?);
    let output = g.tensor(op.output).shape.to_vec();
    let spatial = input.len().checked_sub(2)?;
    let per_dim = |name: &str, default: u64| -> Vec<u64> {
        match (op.list_attr(name), op.int_attr(name)) {
            (Some(l), _) => l
                .iter()
                .map(|&v| u64::try_from(v).unwrap_or(default))
                .collect(),
            (None, Some(v)) => vec![u64::try_from(v).unwrap_or(default); spatial],
            (None, None) => vec![default; spatial],
        }
    };
    Some(ConvShape {
        stride: per_dim("stride", 1),
        padding: per_dim("padding", 0),
        groups: op
            .int_attr("groups")
            .and_then(|v| u64::try_from(v).ok())
            .unwrap_or(1)
            .max(1),
        channels_last: op.int_attr("channels_last") == Some(1),
        dtype: g.tensor(op.inputs.first()?.tensor).dtype,
        input,
        weight,
        output,
    })
}

/// One of the kernels cuDNN or PyTorch runs for a conv: DRAM reads, writes, seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvKernel {
    pub role: &'static str,
    pub read: f64,
    pub written: f64,
    pub kernel_s: f64,
    /// Of `kernel_s`, the fixed start-up and tail of a compute-bound implicit GEMM, which a
    /// stream overlaps with its compute (`host.matmul_overlap_exponent`); else 0.
    pub overhead_s: f64,
}

impl HwModel {
    /// The kernels run for conv `s`, whose kernel (with its epilogue) also reads `other_read`
    /// bytes and writes `written` bytes as counted.
    pub fn conv_kernels(
        &self,
        s: &ConvShape,
        other_read: f64,
        written: f64,
        hw: &crate::cost::Hardware,
    ) -> Vec<ConvKernel> {
        let bw = hw.bandwidth;
        let (x, w) = (s.bytes(&s.input), s.bytes(&s.weight));
        let outputs = elements(&s.output);
        let Some(co) = &self.conv else {
            // No conv coefficients: one implicit GEMM at the matmul family's efficiency.
            let p = self.gemm_kernel(&s.gemm(), x + w + other_read, written, None, hw);
            return vec![p];
        };
        if s.depthwise() {
            let stride_1 = s.stride.iter().all(|&v| v == 1);
            let generic = co
                .depthwise_channels_last_generic
                .as_ref()
                .filter(|_| s.input.first().is_some_and(|&n| n < GENERIC_BELOW_BATCH));
            let (role, c) = if let (true, Some(g)) = (s.channels_last, generic) {
                ("depthwise_channels_last_generic", g)
            } else if s.channels_last {
                ("depthwise_channels_last", &co.depthwise_channels_last)
            } else if s.input.len() == 3 && s.dtype == Dtype::F16 && stride_1 {
                ("depthwise_cudnn_1d", &co.depthwise_cudnn_1d)
            } else {
                ("depthwise_nchw", &co.depthwise_nchw)
            };
            let read = x + w + other_read;
            let kernel_s = c.overhead_us * 1e-6
                + (read + written) / (bw * c.bandwidth_efficiency)
                + outputs * s.taps() / c.taps_per_s;
            return vec![ConvKernel {
                role,
                read,
                written,
                kernel_s,
                overhead_s: 0.0,
            }];
        }
        let covered = s.covered();
        let (_, cg) = s.channels();
        let cp = s.padded_channels();
        let filters = s.weight.first().copied().unwrap_or(1) as f64;
        let direct_shape = co.direct_max_taps.is_some_and(|max_taps| {
            cp != cg
                && s.taps() < max_taps
                && filters < co.direct_max_out_channels.unwrap_or(f64::INFINITY)
        });
        if let Some(ix) = &co.indexed
            && s.dtype == Dtype::F16
            && s.groups == 1
            && s.input.len() == 4
            && cp != cg
            && co
                .direct_max_taps
                .is_some_and(|max_taps| s.taps() < max_taps)
            && (s.channels_last || !direct_shape)
        {
            return self.indexed_kernels(s, ix, other_read, written, hw);
        }
        if let Some(d) = &co.direct
            && direct_shape
        {
            let read = x * covered + w + other_read;
            let flops = 2.0 * elements(&s.output) * cg as f64 * s.taps();
            let kernel_s = d.overhead_us * 1e-6
                + ((read + written) / (bw * d.bandwidth_efficiency)).max(flops / d.flops_per_s);
            return vec![ConvKernel {
                role: "direct",
                read,
                written,
                kernel_s,
                overhead_s: 0.0,
            }];
        }
        let gemm = s.gemm();
        let pixels = elements(s.input.get(2..).unwrap_or(&[]));
        let cutlass = co.cutlass.filter(|c| s.takes_cutlass(c, cp != cg));
        if s.pointwise() && cutlass.is_none() {
            let aligned = (pixels * s.e()) % 16.0 == 0.0;
            if s.channels_last || aligned {
                let p = self.matmul(&gemm, other_read as u64, written as u64, hw, 0.0);
                return vec![ConvKernel {
                    role: "gemm",
                    read: p.dram_read as f64,
                    written,
                    kernel_s: p.kernel_s,
                    overhead_s: p.overhead_s,
                }];
            }
            if pixels % 2.0 == 0.0 {
                let reads = self.matmul_reads(&gemm, hw.sms.unwrap_or(132)) + other_read;
                let mut k = self.gemm_kernel(
                    &gemm,
                    reads,
                    written,
                    Some((
                        co.gemm_unaligned_efficiency,
                        self.mm_k_half,
                        self.mm_overhead_us,
                    )),
                    hw,
                );
                k.role = "gemm_align2";
                return vec![k];
            }
        }
        let padded = cp != cg;
        // The CUTLASS kernel pads the channels to a multiple of 8 (align8).
        let cp = if cutlass.is_some() {
            cg.div_ceil(8).saturating_mul(8)
        } else {
            cp
        };
        let grow = cp as f64 / cg.max(1) as f64;
        let (xp, wp) = (x * grow, w * grow);
        // A copy that pads writes partial sectors: beyond what stays in L2, it reads them first.
        let fill = match co.padded_copy_l2_bytes {
            Some(l2) if padded => (xp - l2).max(0.0),
            _ => 0.0,
        };
        let copy = |role: &'static str, c: &FamilyCoeffs, read: f64, write: f64, elems: f64| {
            let kernel_s = c.overhead_us * 1e-6
                + ((read + write) / (bw * c.bandwidth_efficiency)).max(elems / c.elements_per_s);
            ConvKernel {
                role,
                read,
                written: write,
                kernel_s,
                overhead_s: 0.0,
            }
        };
        let mut ks = Vec::with_capacity(4);
        let k_out = s.weight.first().copied().unwrap_or(1) as f64;
        if !s.channels_last {
            let (role, c) = if padded {
                ("to_nhwc_padded", &co.to_nhwc_padded)
            } else {
                ("to_nhwc", &co.to_nhwc)
            };
            let mut k = copy(role, c, x, xp, elements(&s.input));
            k.read += fill;
            ks.push(k);
            if s.taps() > 1.0 || padded {
                ks.push(copy(
                    "weight_to_nhwc",
                    &co.weight_to_nhwc,
                    w,
                    wp,
                    k_out * cg as f64,
                ));
            }
        } else if padded {
            let mut k = copy("pad", &co.pad, x, xp, elements(&s.input));
            k.read += fill;
            ks.push(k);
            ks.push(copy("pad", &co.pad, w, wp, elements(&s.weight)));
        }
        let efficiency = match co.gemm_3d_efficiency {
            Some(e) if s.input.len() == 5 => e,
            _ => co.gemm_efficiency,
        };
        let read = xp * covered + wp + other_read;
        ks.push(match cutlass {
            Some(c) => ConvKernel {
                role: "cutlass",
                read,
                written,
                kernel_s: s.cutlass_s(&c, cp, hw.sms.unwrap_or(132)),
                overhead_s: 0.0,
            },
            None => self.gemm_kernel(
                &gemm,
                read,
                written,
                Some((efficiency, co.gemm_k_half, co.gemm_overhead_us)),
                hw,
            ),
        });
        if !s.channels_last {
            let elems = written / s.e().max(1.0);
            ks.push(copy("to_nchw", &co.to_nchw, written, written, elems));
        }
        ks
    }

    /// cuDNN's sm80 "indexed" implicit GEMM for an f16 conv of padded channels (batch j):
    /// one kernel reading the input (covered) and weight unpadded, `overhead + max(bytes /
    /// (bandwidth · eff), flops / flops_per_s)`; in NCHW behind transposes of the input and
    /// weight (no padding) and before the output's back.
    fn indexed_kernels(
        &self,
        s: &ConvShape,
        c: &DirectCoeffs,
        other_read: f64,
        written: f64,
        hw: &crate::cost::Hardware,
    ) -> Vec<ConvKernel> {
        let bw = hw.bandwidth;
        let (x, w) = (s.bytes(&s.input), s.bytes(&s.weight));
        let read = x * s.covered() + w + other_read;
        let (_, cg) = s.channels();
        let flops = 2.0 * elements(&s.output) * cg as f64 * s.taps();
        let kernel = ConvKernel {
            role: "indexed",
            read,
            written,
            kernel_s: c.overhead_us * 1e-6
                + ((read + written) / (bw * c.bandwidth_efficiency)).max(flops / c.flops_per_s),
            overhead_s: 0.0,
        };
        let Some(co) = self.conv.as_ref().filter(|_| !s.channels_last) else {
            return vec![kernel];
        };
        let copy = |role: &'static str, c: &FamilyCoeffs, bytes: f64, elems: f64| ConvKernel {
            role,
            read: bytes,
            written: bytes,
            kernel_s: c.overhead_us * 1e-6
                + (2.0 * bytes / (bw * c.bandwidth_efficiency)).max(elems / c.elements_per_s),
            overhead_s: 0.0,
        };
        let k_out = s.weight.first().copied().unwrap_or(1) as f64;
        vec![
            copy("to_nhwc", &co.to_nhwc, x, elements(&s.input)),
            copy("weight_to_nhwc", &co.weight_to_nhwc, w, k_out * cg as f64),
            kernel,
            copy("to_nchw", &co.to_nchw, written, written / s.e().max(1.0)),
        ]
    }

    /// An implicit GEMM of `s` reading `read` and writing `written` bytes, at `(efficiency,
    /// k_half, overhead_us)` (the matmul family's when `None`).
    fn gemm_kernel(
        &self,
        s: &MatmulShape,
        read: f64,
        written: f64,
        coeffs: Option<(f64, f64, f64)>,
        hw: &crate::cost::Hardware,
    ) -> ConvKernel {
        let (eff, k_half, overhead) =
            coeffs.unwrap_or((self.mm_efficiency, self.mm_k_half, self.mm_overhead_us));
        let sms = f64::from(hw.sms.unwrap_or(132).max(1));
        let wave = s.wave_eff(sms).powf(self.mm_wave_exponent);
        let k = s.k as f64;
        let flops = 2.0 * s.batch as f64 * s.m as f64 * s.n as f64 * k;
        let unit = crate::cost::Unit::for_matmul_bytes(s.elem_bytes);
        let compute_s = if k > 0.0 {
            flops / (hw.peak(unit) * eff * wave * k / (k + k_half))
        } else {
            0.0
        };
        let memory_s = (read + written) / (hw.bandwidth * self.mm_bandwidth_efficiency);
        ConvKernel {
            role: "implicit_gemm",
            read,
            written,
            kernel_s: compute_s.max(memory_s) + overhead * 1e-6,
            overhead_s: if compute_s > memory_s {
                overhead * 1e-6
            } else {
                0.0
            },
        }
    }

    /// The prediction for a kernel whose contraction is conv `s`: its cuDNN kernels summed,
    /// one launch each.
    pub fn conv(
        &self,
        s: &ConvShape,
        other_read: u64,
        written: u64,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let ks = self.conv_kernels(s, other_read as f64, written as f64, hw);
        let read: f64 = ks.iter().map(|k| k.read).sum();
        let extra_written: f64 = ks.iter().map(|k| k.written).sum::<f64>() - written as f64;
        let kernel_s: f64 = ks.iter().map(|k| k.kernel_s).sum();
        let launches = ks.len().max(1) as f64;
        let written = (written as f64 + extra_written.max(0.0)).round();
        let written = written.min(u64::MAX as f64) as u64;
        // `compute_s` holds the kernels' modelled time, `memory_s` their bytes at the full
        // bandwidth (what the roofline would give them).
        let mut p = finish(
            Family::Conv,
            read,
            written,
            kernel_s,
            0.0,
            launch_s * launches,
        );
        p.memory_s = ks.iter().map(|k| (k.read + k.written) / hw.bandwidth).sum();
        p.extra_launches = ks.len().saturating_sub(1);
        if let [k] = ks[..] {
            p.overhead_s = k.overhead_s;
        }
        p
    }

    /// Conv `c` of a kernel that moves `traffic` under the compulsory model, as problem
    /// `shape` (its op's, or a runtime's layout of it): its input and weight give way to
    /// cuDNN's reads of them, the rest of the reads (an epilogue's bias) stay as counted.
    pub fn conv_in_kernel(
        &self,
        g: &Graph,
        c: OpId,
        shape: &ConvShape,
        traffic: &crate::traffic::GroupTraffic,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let other = super::matmul::other_reads(g, c, traffic);
        self.conv(shape, other, traffic.bytes_written, hw, launch_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Hardware;

    fn h100() -> (HwModel, Hardware) {
        let hw = Hardware::preset("h100").expect("h100");
        (hw.model.clone().expect("model"), hw)
    }

    /// An RGB conv `[n, 3, 224, 224]` with `k` filters of `r × r`, stride `s`, padding `p`.
    fn rgb(dtype: Dtype, channels_last: bool, n: u64, k: u64, r: u64, s: u64, p: u64) -> ConvShape {
        let out = (224 + 2 * p - r) / s + 1;
        ConvShape {
            input: vec![n, 3, 224, 224],
            weight: vec![k, 3, r, r],
            output: vec![n, k, out, out],
            stride: vec![s, s],
            padding: vec![p, p],
            groups: 1,
            channels_last,
            dtype,
        }
    }

    fn kernels(m: &HwModel, hw: &Hardware, s: &ConvShape) -> Vec<ConvKernel> {
        let written = elements(&s.output) * s.e();
        m.conv_kernels(s, 0.0, written, hw)
    }

    fn roles(ks: &[ConvKernel]) -> Vec<&'static str> {
        ks.iter().map(|k| k.role).collect()
    }

    #[test]
    fn a_bf16_resnet_stem_runs_the_cutlass_kernel_padded_to_8() {
        let (m, hw) = h100();
        let co = m.conv.clone().expect("conv");
        let c = co.cutlass.expect("cutlass");
        let l2 = co.padded_copy_l2_bytes.expect("fill");
        let s = rgb(Dtype::Bf16, true, 64, 64, 7, 2, 3);
        let ks = kernels(&m, &hw, &s);
        assert_eq!(roles(&ks), ["pad", "pad", "cutlass"]);
        let x = 64.0 * 3.0 * 224.0 * 224.0 * 2.0;
        let w = 64.0 * 3.0 * 49.0 * 2.0;
        // The copies write, and the kernel reads, 8/3 of the input and weight; the input's
        // copy reads what it writes beyond L2 first.
        let xp = x * 8.0 / 3.0;
        assert!((ks[0].read - (x + xp - l2)).abs() < 1.0, "{}", ks[0].read);
        assert!((ks[2].read - (xp + w * 8.0 / 3.0)).abs() < 1.0);
        // M = 64·112·112 = 802,816 rows in 256×64 tiles: 3,136 CTAs, 24 waves on 132 SMs.
        assert_eq!(s.cutlass_tile(), (256, 64));
        let wave = c.overhead_us * 1e-6 + 2.0 * 256.0 * 64.0 * 8.0 * 49.0 / c.flops_per_sm_s;
        assert!((ks[2].kernel_s - 24.0 * wave).abs() < 1e-12);
        // Measured (batch i, held-out_031): 395 µs.
        assert!((ks[2].kernel_s * 1e6 - 395.0).abs() < 0.2 * 395.0);
        // NCHW: a padding transpose of the input, the weight's, the kernel, the output's back.
        let ks = kernels(&m, &hw, &rgb(Dtype::Bf16, false, 64, 64, 7, 2, 3));
        assert_eq!(
            roles(&ks),
            ["to_nhwc_padded", "weight_to_nhwc", "cutlass", "to_nchw"]
        );
    }

    #[test]
    fn which_convs_take_the_cutlass_kernel() {
        let (m, hw) = h100();
        let last = |s: &ConvShape| *roles(&kernels(&m, &hw, s)).last().expect("kernel");
        // f16's 7×7/2 stem runs cuDNN's sm90 "first layer" kernel: the padded implicit GEMM
        // (49 taps, under f16's 64).
        assert_eq!(
            last(&rgb(Dtype::F16, true, 32, 64, 7, 2, 3)),
            "implicit_gemm"
        );
        // ViT's 16×16/16 in f16 and bf16.
        for dt in [Dtype::F16, Dtype::Bf16] {
            assert_eq!(last(&rgb(dt, true, 8, 768, 16, 16, 0)), "cutlass");
        }
        // A 3×3/2 MobileNet stem stays on the direct kernel (9 taps, 32 filters).
        assert_eq!(last(&rgb(Dtype::Bf16, true, 32, 32, 3, 2, 1)), "direct");
        // f32 has no such kernel.
        assert_eq!(
            last(&rgb(Dtype::F32, true, 8, 768, 16, 16, 0)),
            "implicit_gemm"
        );
        // SD's conv_in's channels (4 → 320, 3×3) in bf16, 9 taps; in f16, the indexed kernel.
        let mut sd = rgb(Dtype::Bf16, true, 8, 320, 3, 1, 1);
        sd.input[1] = 4;
        sd.weight[1] = 4;
        assert_eq!(last(&sd), "cutlass");
        sd.dtype = Dtype::F16;
        assert_eq!(last(&sd), "indexed");
        // DiT's 2×2/2 patchify on 4-channel latents in bf16 (4 taps): the sm90 implicit GEMM.
        let mut dit = rgb(Dtype::Bf16, true, 8, 1152, 2, 2, 0);
        dit.input[1] = 4;
        dit.weight[1] = 4;
        assert_eq!(last(&dit), "implicit_gemm");
        // A grouped conv of 3 channels per group (unmeasured): the implicit GEMM.
        let mut grouped = rgb(Dtype::Bf16, true, 8, 768, 16, 16, 0);
        grouped.input[1] = 6;
        grouped.groups = 2;
        assert_eq!(last(&grouped), "implicit_gemm");
        // Channels already 16-byte aligned: the implicit GEMM.
        let mut c8 = rgb(Dtype::Bf16, true, 8, 768, 16, 16, 0);
        c8.input[1] = 8;
        c8.weight[1] = 8;
        assert_eq!(last(&c8), "implicit_gemm");
    }

    #[test]
    fn f16_small_channel_convs_run_the_indexed_kernel_unpadded() {
        let (m, hw) = h100();
        let ix = m.conv.clone().expect("conv").indexed.expect("indexed");
        // MobileNet's 3×3/2 stem in f16: channels-last runs the indexed kernel (batch i
        // measured 30.8 µs), NCHW the direct kernel (57.6 µs).
        let s = rgb(Dtype::F16, true, 32, 32, 3, 2, 1);
        let ks = kernels(&m, &hw, &s);
        assert_eq!(roles(&ks), ["indexed"]);
        let (x, w, y) = (
            elements(&s.input) * 2.0,
            elements(&s.weight) * 2.0,
            elements(&s.output) * 2.0,
        );
        assert_eq!(ks[0].read, x + w);
        let flops = 2.0 * elements(&s.output) * 3.0 * 9.0;
        let t = ix.overhead_us * 1e-6
            + ((x + w + y) / (hw.bandwidth * ix.bandwidth_efficiency)).max(flops / ix.flops_per_s);
        assert!((ks[0].kernel_s - t).abs() < 1e-12);
        assert!((ks[0].kernel_s * 1e6 - 30.8).abs() < 0.2 * 30.8);
        let nchw = rgb(Dtype::F16, false, 32, 32, 3, 2, 1);
        assert_eq!(roles(&kernels(&m, &hw, &nchw)), ["direct"]);
        // SD's conv_in in f16 NCHW: plain transposes (no padding), the kernel, the output back.
        let mut sd = rgb(Dtype::F16, false, 16, 320, 3, 1, 1);
        sd.input = vec![16, 4, 64, 64];
        sd.weight[1] = 4;
        sd.output = vec![16, 320, 64, 64];
        let ks = kernels(&m, &hw, &sd);
        assert_eq!(
            roles(&ks),
            ["to_nhwc", "weight_to_nhwc", "indexed", "to_nchw"]
        );
        let x = 16.0 * 4.0 * 64.0 * 64.0 * 2.0;
        assert_eq!((ks[0].read, ks[0].written), (x, x));
        // bf16 has no indexed kernel: its stem stays direct.
        let bf = rgb(Dtype::Bf16, true, 32, 32, 3, 2, 1);
        assert_eq!(roles(&kernels(&m, &hw, &bf)), ["direct"]);
    }

    #[test]
    fn the_tile_wastes_the_fewest_filters() {
        let tile = |k: u64| rgb(Dtype::Bf16, true, 8, k, 16, 16, 0).cutlass_tile();
        assert_eq!(tile(64), (256, 64));
        assert_eq!(tile(320), (256, 64));
        assert_eq!(tile(768), (128, 128));
        assert_eq!(tile(1024), (128, 128));
        assert_eq!(tile(96), (128, 128));
    }

    #[test]
    fn without_batch_j_coefficients_the_model_is_batch_i() {
        let (mut m, hw) = h100();
        let s = rgb(Dtype::Bf16, true, 64, 64, 7, 2, 3);
        let co = m.conv.as_mut().expect("conv");
        co.cutlass = None;
        co.indexed = None;
        co.padded_copy_l2_bytes = None;
        let ks = kernels(&m, &hw, &s);
        assert_eq!(roles(&ks), ["pad", "pad", "implicit_gemm"]);
        // Padded to 4 (batch h's rule), the copy reading its source only.
        let x = 64.0 * 3.0 * 224.0 * 224.0 * 2.0;
        assert_eq!(ks[0].read, x);
        assert!((ks[0].written - x * 4.0 / 3.0).abs() < 1.0);
    }

    /// ConvNeXt-T's first-stage depthwise 7×7, `[n, 96, 56, 56]`, channels-last, f16.
    fn convnext_dw(n: u64) -> ConvShape {
        ConvShape {
            input: vec![n, 96, 56, 56],
            weight: vec![96, 1, 7, 7],
            output: vec![n, 96, 56, 56],
            stride: vec![1, 1],
            padding: vec![3, 3],
            groups: 96,
            channels_last: true,
            dtype: Dtype::F16,
        }
    }

    #[test]
    fn a_channels_last_depthwise_conv_below_batch_8_runs_the_generic_kernel() {
        // dw_probe (ncu, L2 flushed): 47.81 µs at batch 6 (the generic kernel), 31.55 at 8
        // (the specialized one).
        let (m, hw) = h100();
        let six = kernels(&m, &hw, &convnext_dw(6));
        assert_eq!(roles(&six), ["depthwise_channels_last_generic"]);
        let t6 = six[0].kernel_s * 1e6;
        assert!((t6 / 47.81 - 1.0).abs() < 0.1, "{t6}");
        let eight = kernels(&m, &hw, &convnext_dw(GENERIC_BELOW_BATCH));
        assert_eq!(roles(&eight), ["depthwise_channels_last"]);
        // Without the coefficient, every batch takes the specialized kernel's.
        let mut m2 = m.clone();
        if let Some(co) = m2.conv.as_mut() {
            co.depthwise_channels_last_generic = None;
        }
        assert_eq!(
            roles(&kernels(&m2, &hw, &convnext_dw(6))),
            ["depthwise_channels_last"]
        );
        // Range-checked like the others.
        let mut co = m.conv.clone().expect("conv");
        if let Some(g) = co.depthwise_channels_last_generic.as_mut() {
            g.taps_per_s = -1.0;
        }
        let e = co.validate().expect_err("out of range");
        assert!(
            e.contains("model.conv.depthwise_channels_last_generic.taps_per_s"),
            "{e}"
        );
    }

    #[test]
    fn cutlass_coefficients_are_range_checked() {
        let (m, _) = h100();
        let mut co = m.conv.expect("conv");
        assert_eq!(co.validate(), Ok(()));
        if let Some(c) = co.cutlass.as_mut() {
            c.flops_per_sm_s = 0.0;
        }
        let e = co.validate().expect_err("out of range");
        assert!(e.contains("model.conv.cutlass.flops_per_sm_s"), "{e}");
        co.cutlass = None;
        if let Some(ix) = co.indexed.as_mut() {
            ix.bandwidth_efficiency = 1.5;
        }
        let e = co.validate().expect_err("out of range");
        assert!(e.contains("model.conv.indexed.bandwidth_efficiency"), "{e}");
        co.indexed = None;
        co.padded_copy_l2_bytes = Some(-1.0);
        let e = co.validate().expect_err("out of range");
        assert!(e.contains("model.conv.padded_copy_l2_bytes"), "{e}");
    }
}
