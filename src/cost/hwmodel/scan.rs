//! The hardware model's scan kernels (part of [`super`], issue 23): `selective_scan` and
//! `associative_scan`, the `scan` object of a hardware file's `model` ([`ScanCoeffs`]).
//!
//! Both are streaming kernels: `overhead_us + max(bytes / (bandwidth · bandwidth_efficiency),
//! work / elements_per_s)`, the state on chip.
//!
//! - **selective_scan** (`mamba_ssm`'s `selective_scan_fwd_kernel`, a block of threads per
//!   (batch, channel) walking L in chunks of 2,048): work is the state updates, `B·D·L·N`; its
//!   rate is bounded by the issue rate (about 12 instructions per update: `exp2f`, the
//!   products, the warp scan's combines, the loads of B and C) and by the L2 traffic of B and
//!   C, which every channel's block reads again (4 bytes per update at 16 bits). Reads are the
//!   compulsory ones (B and C stay in L2: they are `D` times smaller than `u`). Writes are the
//!   compulsory output plus what the kernel writes besides: with `z`, the output before the
//!   gate (`out`, kept for the backward pass) as well as the gated one, and the state at the
//!   end of each chunk (`x`, `[B, D, ceil(L/2048), N]` pairs of f32).
//! - **associative_scan**: work is the elements times the combine's FLOPs (its function's,
//!   or `flops = N`), at `elements_per_s` one-FLOP combines per second: a generic scan
//!   kernel (CUB's, Triton's `tl.associative_scan`), priced from PyTorch's measured `cumsum`.
//!
//! The H100 coefficients are fitted on batch i's fit half (validation/gpu/h100-calib-i/
//! fit_scan_i.py): the selective scan on mamba_ssm's own kernel built on the device, the
//! associative scan on Inductor's Triton scans (with a per-row rate, a row being one
//! program); `model.scan.source` says so.

use super::{Family, FamilyCoeffs, HwModel, Prediction, finish};
use crate::graph::{Graph, OpId};
use crate::types::OpKind;

/// The scan families' coefficients (the `scan` object of a hardware file's `model`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScanCoeffs {
    /// `mamba_ssm`'s selective scan: `elements_per_s` is state updates (b, d, l, n) per
    /// second.
    pub selective: FamilyCoeffs,
    /// A generic associative scan: `elements_per_s` is one-FLOP combines per second.
    pub associative: FamilyCoeffs,
    /// One-FLOP combines per second one row of an associative scan reaches (Inductor's
    /// Triton scan runs a row in one program): the rate is `min(elements_per_s, rows ·
    /// this)`. `None`: no row limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub associative_row_flops_per_s: Option<f64>,
    /// Where the coefficients come from.
    pub source: String,
}

/// The sequence length one block of the selective scan covers per chunk (`kNThreads ·
/// kNItems` = 128 · 16 for L above 1,024): one state per chunk is written.
pub const SELECTIVE_CHUNK: u64 = 2048;

impl ScanCoeffs {
    /// Every coefficient in its range of [`super::RANGES`].
    pub(super) fn validate(&self) -> Result<(), String> {
        for (name, c) in [
            ("selective", self.selective),
            ("associative", self.associative),
        ] {
            for (k, v) in [
                ("bandwidth_efficiency", c.bandwidth_efficiency),
                ("elements_per_s", c.elements_per_s),
                ("overhead_us", c.overhead_us),
            ] {
                super::check_range(k, &format!("model.scan.{name}.{k}"), v)?;
            }
        }
        if let Some(v) = self.associative_row_flops_per_s {
            super::check_range(
                "associative_row_flops_per_s",
                "model.scan.associative_row_flops_per_s",
                v,
            )?;
        }
        Ok(())
    }
}

impl HwModel {
    /// The prediction for a kernel that holds a scan op; `None` when the model has no scan
    /// coefficients or the kernel holds no scan.
    pub(super) fn scan_kernel(
        &self,
        g: &Graph,
        ops: &[OpId],
        traffic: &crate::traffic::GroupTraffic,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Option<Prediction> {
        let s = self.scan.as_ref()?;
        let o = ops.iter().copied().find(|&o| {
            matches!(
                g.op(o).kind,
                OpKind::SelectiveScan | OpKind::AssociativeScan
            )
        })?;
        let op = g.op(o);
        let out = g.tensor(op.output);
        let count = |shape: &[u64]| shape.iter().map(|&d| d as f64).product::<f64>();
        let mut rate = None;
        let (c, family, work, extra) = if op.kind == OpKind::SelectiveScan {
            let n = op
                .inputs
                .get(2)
                .map(|a| g.use_shape(a))
                .filter(|a| a.len() == 2)
                .map_or(0.0, |a| a[1] as f64);
            let (batch, dim, len) = match out.shape.as_slice() {
                &[b, d, l] => (b, d, l),
                _ => (1, 1, 1),
            };
            // With the gate, the ungated output too; the chunk-end states, f32 pairs.
            let ungated = if op.inputs.len() > crate::ops::scan::Z_GATE {
                out.bytes as f64
            } else {
                0.0
            };
            let states = batch as f64 * dim as f64 * len.div_ceil(SELECTIVE_CHUNK) as f64 * n * 8.0;
            (
                s.selective,
                Family::SelectiveScan,
                count(&out.shape) * n,
                ungated + states,
            )
        } else {
            let per = crate::cost::flops::op_flops(g, o).0 as f64;
            if let Some(row) = s.associative_row_flops_per_s {
                let rank = out.shape.len() as i64;
                let axis = op.int_attr("axis").unwrap_or(-1);
                let axis = if axis < 0 { axis + rank } else { axis };
                let along = usize::try_from(axis)
                    .ok()
                    .and_then(|a| out.shape.get(a))
                    .map_or(1.0, |&d| d.max(1) as f64);
                let rows = count(&out.shape) / along;
                rate = Some(s.associative.elements_per_s.min(rows * row));
            }
            (s.associative, Family::AssociativeScan, per, 0.0)
        };
        let read = traffic.bytes_read as f64;
        let written = traffic.bytes_written.saturating_add(extra.round() as u64);
        let memory_s = (read + written as f64) / (hw.bandwidth * c.bandwidth_efficiency);
        let compute_s = work / rate.unwrap_or(c.elements_per_s);
        let mut p = finish(family, read, written, compute_s, memory_s, launch_s);
        p.kernel_s += c.overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        Some(p)
    }
}
