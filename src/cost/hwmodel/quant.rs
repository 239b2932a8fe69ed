//! The hardware model's low-precision GEMMs (part of [`super`], issue 23 item 6): 8-bit GEMMs
//! (`scaled_mm`, and `matmul` of 1-byte operands) and weight-only quantised GEMMs
//! (`quant_mm`). The H100 preset's `model.quant` is fitted on PyTorch's kernels measured on
//! an H100 (validation/gpu/h100-calib-i/fit_quant_i.py, the weight-only GEMM refitted by
//! h100-calib-k/fit_k.py); `source` says so. Without `model.quant`, an 8-bit GEMM takes the
//! matmul family's coefficients and a weight-only GEMM is priced as a 16-bit matmul.
//!
//! - **8-bit GEMM** (cuBLASLt's FP8 and INT8 kernels): the matmul family's tiling, L2 and
//!   wave arithmetic on 1-byte operands, at the GPU's 8-bit peak (`Unit::TensorF8`,
//!   `Unit::TensorI8`) times `f8_efficiency` or `i8_efficiency` and `K / (K + mm8_k_half)`;
//!   the scales and a bias are read as counted, beside the operands.
//! - **Weight-only GEMM** (w4a16, w8a16: Marlin-class kernels that stream the packed weights
//!   and dequantise them in registers before 16-bit MMAs): reads as counted (the packed
//!   weights, scales and zeros, the activations; a large-M GEMM re-reads weight tiles from L2,
//!   which holds a 4-bit layer), `memory = bytes / (bandwidth · weight_only.bandwidth_efficiency)`,
//!   `compute = 2·M·N·K / (peak16 · weight_only.efficiency · K / (K + mm_k_half)) + K·N ·
//!   ceil(M / dequant_rows) / dequant_per_s` (each block of `dequant_rows` rows dequantises
//!   the weights again), `time = max(compute, memory) + weight_only.overhead_us`. Small M
//!   (decode) is memory-bound on the packed bytes, large M compute-bound at the 16-bit peak.
//!   With `weight_only.overlap` below 1, `(1 - overlap) · min(compute, memory)` is added: the
//!   H100 preset's 0 (batch k) makes the two terms a sum, as PyTorch's tinygemm runs them.

use super::{HwModel, MatmulShape, Prediction, check_range, finish};
use crate::cost::Unit;
use crate::types::OpKind;
use serde::{Deserialize, Serialize};

/// The weight-only GEMM's coefficients (`model.quant.weight_only`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightOnlyCoeffs {
    /// Fraction of the HBM bandwidth the kernel streams its packed weights at.
    pub bandwidth_efficiency: f64,
    /// Fraction of the 16-bit tensor peak its MMAs reach at large M (`mma.sync`, not Hopper's
    /// `wgmma`, with dequantisation in the loop).
    pub efficiency: f64,
    /// Weights dequantised per second (bit operations and a fused multiply-add per pair of
    /// weights on the CUDA cores).
    pub dequant_per_s: f64,
    /// Rows of the activations one dequantised weight tile serves (the kernel's M tile).
    pub dequant_rows: f64,
    /// Fixed microseconds per kernel (start-up and tail).
    pub overhead_us: f64,
    /// How much of the shorter of the compute and memory times hides under the longer: 1,
    /// fully (`max`, the default); 0, none (their sum: tinygemm's few warps per SM wait for
    /// each weight tile before its MMAs, batch k's fit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlap: Option<f64>,
}

/// The low-precision GEMMs' coefficients (`model.quant` of a hardware file); none: an 8-bit
/// GEMM takes the matmul family's coefficients at the 8-bit peak, and a `quant_mm` is priced
/// as a matmul of its unpacked shape on its counted bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuantCoeffs {
    /// Fraction of the dense FP8 peak a full wave of large-K tiles reaches.
    pub f8_efficiency: f64,
    /// Fraction of the dense INT8 peak a full wave of large-K tiles reaches.
    pub i8_efficiency: f64,
    /// K (elements) at which pipeline fill halves an 8-bit GEMM's efficiency.
    pub mm8_k_half: f64,
    pub weight_only: WeightOnlyCoeffs,
    /// Where the coefficients come from.
    pub source: String,
}

impl QuantCoeffs {
    pub(super) fn validate(&self) -> Result<(), String> {
        for (k, v) in [
            ("f8_efficiency", self.f8_efficiency),
            ("i8_efficiency", self.i8_efficiency),
            ("mm8_k_half", self.mm8_k_half),
        ] {
            check_range(k, &format!("model.quant.{k}"), v)?;
        }
        let w = &self.weight_only;
        for (k, v) in [
            ("bandwidth_efficiency", w.bandwidth_efficiency),
            ("efficiency", w.efficiency),
            ("dequant_per_s", w.dequant_per_s),
            ("dequant_rows", w.dequant_rows),
            ("overhead_us", w.overhead_us),
        ] {
            check_range(k, &format!("model.quant.weight_only.{k}"), v)?;
        }
        if let Some(v) = w.overlap {
            check_range("overlap", "model.quant.weight_only.overlap", v)?;
        }
        Ok(())
    }
}

/// A weight-only GEMM's problem: `m` rows of activations (all leading dims), `k`, `n`, the
/// bytes it reads (as counted: packed weights, scales, zeros, activations, epilogue inputs)
/// and writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightOnlyShape {
    pub m: u64,
    pub k: u64,
    pub n: u64,
    pub read: u64,
    pub written: u64,
    /// The bytes of the packed weights, scales and zeros (read again by every block of
    /// `dequant_rows` rows after the first).
    pub weight_bytes: u64,
}

impl HwModel {
    /// The efficiency and K term of an 8-bit GEMM on `unit` (the matmul family's where the
    /// model has no `quant` coefficients).
    pub(super) fn eight_bit(&self, unit: Unit) -> (f64, f64) {
        match &self.quant {
            Some(q) => (
                if unit == Unit::TensorI8 {
                    q.i8_efficiency
                } else {
                    q.f8_efficiency
                },
                q.mm8_k_half,
            ),
            None => (self.mm_efficiency, self.mm_k_half),
        }
    }

    /// A weight-only quantised GEMM (`quant_mm`): memory-bound on its packed weights at small
    /// M, compute-bound at the 16-bit peak at large M.
    pub fn weight_only(
        &self,
        s: &WeightOnlyShape,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let (m, k, n) = (s.m as f64, s.k as f64, s.n as f64);
        let flops = 2.0 * m * n * k;
        let memory = |eff: f64| (s.read as f64 + s.written as f64) / (hw.bandwidth * eff);
        let Some(q) = &self.quant else {
            // No coefficients: a 16-bit matmul of the unpacked shape on the counted bytes.
            let shape = MatmulShape {
                batch: 1,
                m: s.m,
                k: s.k,
                n: s.n,
                elem_bytes: 2,
                tf32: false,
            };
            let wave = shape
                .wave_eff(f64::from(hw.sms.unwrap_or(132).max(1)))
                .powf(self.mm_wave_exponent);
            let compute_s = flops
                / (hw.peak(Unit::Tensor16) * self.mm_efficiency * wave * k / (k + self.mm_k_half));
            let mut p = finish(
                super::Family::Matmul,
                s.read as f64,
                s.written,
                compute_s,
                memory(self.mm_bandwidth_efficiency),
                launch_s,
            );
            p.kernel_s += self.mm_overhead_us * 1e-6;
            p.time_s = p.kernel_s + launch_s;
            return p;
        };
        let w = &q.weight_only;
        let blocks = (m / w.dequant_rows).ceil().max(1.0);
        // Every block of rows streams the weights again (batch i measured PyTorch's int4
        // kernel reading them once per 64 rows at M = 2048: 11x the compulsory bytes).
        let read = s.read as f64 + s.weight_bytes as f64 * (blocks - 1.0);
        let memory = (read + s.written as f64) / (hw.bandwidth * w.bandwidth_efficiency);
        let compute_s = flops / (hw.peak(Unit::Tensor16) * w.efficiency * k / (k + self.mm_k_half))
            + k * n * blocks / w.dequant_per_s;
        let mut p = finish(
            super::Family::QuantMatmul,
            read,
            s.written,
            compute_s,
            memory,
            launch_s,
        );
        // What the longer term does not hide of the shorter one.
        let serial = 1.0 - w.overlap.unwrap_or(1.0);
        p.kernel_s += serial * compute_s.min(memory) + w.overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        p
    }
}

impl HwModel {
    /// The prediction for a kernel whose one contraction `o` is a low-precision GEMM; `None`
    /// for any other contraction.
    pub(super) fn quant_kernel(
        &self,
        g: &crate::graph::Graph,
        o: crate::graph::OpId,
        traffic: &crate::traffic::GroupTraffic,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Option<Prediction> {
        let op = g.op(o);
        match op.kind {
            OpKind::ScaledMm => {
                let shape = super::matmul_shape(g, o)?;
                // The two operands' counted reads give way to the tiling model's; the scales,
                // the bias and an epilogue's inputs stay as counted.
                let operands: u64 = op
                    .inputs
                    .iter()
                    .take(2)
                    .filter(|u| traffic.reads.iter().any(|r| r.tensor == u.tensor))
                    .fold(0u64, |acc, u| acc.saturating_add(g.use_bytes(u)));
                let other = traffic.bytes_read.saturating_sub(operands);
                let unit = crate::cost::op_unit(g, o);
                Some(self.matmul_on(&shape, unit, other, traffic.bytes_written, hw, launch_s))
            }
            OpKind::QuantMm => {
                let x = g.use_shape(op.inputs.first()?);
                let out = &g.tensor(op.output).shape;
                let (k, n) = (*x.last()?, *out.last()?);
                let m = out[..out.len() - 1]
                    .iter()
                    .try_fold(1u64, |a, &d| a.checked_mul(d))?;
                let weight_bytes = op
                    .inputs
                    .iter()
                    .skip(1)
                    .fold(0u64, |acc, u| acc.saturating_add(g.use_bytes(u)));
                let s = WeightOnlyShape {
                    m,
                    k,
                    n,
                    read: traffic.bytes_read,
                    written: traffic.bytes_written,
                    weight_bytes,
                };
                Some(self.weight_only(&s, hw, launch_s))
            }
            _ => None,
        }
    }
}
