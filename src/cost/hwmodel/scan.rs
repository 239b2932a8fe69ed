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
//!   A scan of one tensor over few long rows is Inductor's split scan ([`SplitScanCoeffs`]):
//!   memory-bound, or bound by the chain of blocks along a row.
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
    /// Inductor's split scan ([`SplitScanCoeffs`]); `None`: every associative scan is priced
    /// by rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub associative_split: Option<SplitScanCoeffs>,
    /// Where the coefficients come from.
    pub source: String,
}

/// Inductor's split scan (`triton_spl_*`, `SplitScan` in torch/_inductor/ir.py): a scan of
/// one tensor over fewer rows than twice the SMs, each longer than 8,192, is split along the
/// row into blocks of `block_elements` that pass their running prefix on by a decoupled
/// look-back, after a kernel that zeroes the look-back's flags. Its time is `overhead_us +
/// max(bytes / (bandwidth · bandwidth_efficiency), chain · block_us)`: the blocks of one row
/// publish their prefixes one after another. `chain` is the blocks of one row (batch k); with
/// `resident_blocks` (batch l), the blocks in launch order that wait on one another: rows of
/// `b` blocks run `resident_blocks / b` at a time, so `chain = all blocks · min(1, b /
/// resident_blocks)` (a row longer than the GPU holds chains every row after it), and the
/// chain takes `chain_overhead_us` more (its first block's load and its last's store).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitScanCoeffs {
    pub bandwidth_efficiency: f64,
    /// Microseconds each block of a row adds to the look-back chain.
    pub block_us: f64,
    /// Elements of a row one block scans (the kernel's `RBLOCK`).
    pub block_elements: f64,
    /// Fixed microseconds per scan, the flags' zeroing kernel included.
    pub overhead_us: f64,
    /// Blocks of the scan the GPU holds at once; `None`: rows run side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resident_blocks: Option<f64>,
    /// Microseconds a chain of blocks takes beyond `block_us` each; `None`: 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_overhead_us: Option<f64>,
}

/// Inductor splits a scan's rows only below this many per SM, twice
/// (`inner_reduction_splits`' `numel_hint >= 2 * num_sm`), and rows longer than
/// [`SPLIT_MIN_ALONG`].
const SPLIT_ROWS_PER_SM: f64 = 2.0;
/// Inductor splits no row of 8,192 elements or fewer.
const SPLIT_MIN_ALONG: f64 = 8192.0;

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
        if let Some(c) = self.associative_split {
            for (k, v) in [
                ("bandwidth_efficiency", c.bandwidth_efficiency),
                ("block_us", c.block_us),
                ("block_elements", c.block_elements),
                ("overhead_us", c.overhead_us),
            ] {
                super::check_range(k, &format!("model.scan.associative_split.{k}"), v)?;
            }
            for (k, v) in [
                ("resident_blocks", c.resident_blocks),
                ("chain_overhead_us", c.chain_overhead_us),
            ] {
                if let Some(v) = v {
                    super::check_range(k, &format!("model.scan.associative_split.{k}"), v)?;
                }
            }
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
            let rank = out.shape.len() as i64;
            let axis = op.int_attr("axis").unwrap_or(-1);
            let axis = if axis < 0 { axis + rank } else { axis };
            let along = usize::try_from(axis)
                .ok()
                .and_then(|a| out.shape.get(a))
                .map_or(1.0, |&d| d.max(1) as f64);
            let rows = count(&out.shape) / along;
            let sms = f64::from(hw.sms.unwrap_or(132).max(1));
            if let Some(c) = s.associative_split.filter(|_| {
                op.inputs.len() == 1 && rows < SPLIT_ROWS_PER_SM * sms && along > SPLIT_MIN_ALONG
            }) {
                return Some(self.split_scan(c, traffic, (rows, along), hw, launch_s));
            }
            if let Some(row) = s.associative_row_flops_per_s {
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

    /// An associative scan Inductor splits along its rows ([`SplitScanCoeffs`]): two kernels
    /// (the flags' zeroing and the scan).
    fn split_scan(
        &self,
        c: SplitScanCoeffs,
        traffic: &crate::traffic::GroupTraffic,
        (rows, along): (f64, f64),
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let (read, written) = (traffic.bytes_read as f64, traffic.bytes_written);
        let memory_s = (read + written as f64) / (hw.bandwidth * c.bandwidth_efficiency);
        let per_row = (along / c.block_elements).ceil();
        let chain = match c.resident_blocks {
            Some(r) => rows * per_row * (per_row / r.max(1.0)).min(1.0),
            None => per_row,
        };
        let chain_s = (c.chain_overhead_us.unwrap_or(0.0) + chain * c.block_us) * 1e-6;
        let mut p = finish(
            Family::AssociativeScan,
            read,
            written,
            chain_s,
            memory_s,
            2.0 * launch_s,
        );
        p.kernel_s += c.overhead_us * 1e-6;
        p.time_s = p.kernel_s + p.launch_s;
        p.extra_launches = 1;
        p
    }
}
