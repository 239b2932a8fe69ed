//! The hardware model's memory-bound kernels (part of [`super`]): families, softmax rows,
//! norm and softmax re-reads, and the prices of PyTorch's non-vectorized elementwise kernels
//! and its batch norm by layout and runner (which kernel: `scalar.rs`; a channels-last one's
//! bytes beyond `l2_effective_bytes` from DRAM).
//!
//! - Memory-bound kernels, by family (elementwise, reduction, softmax, norm): `max(bytes /
//!   (bandwidth · bandwidth_efficiency), elements / elements_per_s) / busy + overhead_us`:
//!   small kernels pay a fixed start-up, and softmax and norms are limited by their arithmetic
//!   per element before bandwidth. A softmax's elements per second and bandwidth efficiency
//!   are the family's times two factors by row length (`softmax_row_scale`, log-linear in
//!   `log(cols)` between knots): the row length picks PyTorch's kernel and its occupancy. A
//!   norm or softmax alone in its kernel (PyTorch's own) reads its input again where its later
//!   passes miss ([`RereadCoeffs`]), and runs a block per row: `busy = min(1, rows / sms)`.
//! - Writes are the compulsory ones (measured within 2% on every streaming kernel).

use super::scalar::ScalarKernel;
use super::{Family, FamilyCoeffs, HwModel, Prediction, finish};
use crate::graph::{Graph, OpId};
use crate::ops::funcs::{self, FuncFamily};
use crate::ops::pool;
use crate::types::OpKind;

/// The longest slice PyTorch sorts in place in one block (`Sort.cu`'s small-sort path).
const SMALL_SORT: u64 = 4096;
impl HwModel {
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
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        self.memory_kernel(
            family, read, written, elements, cols, true, None, hw, launch_s,
        )
    }

    /// An elementwise kernel of PyTorch's that [`scalar_kernel`] would call `which` (a
    /// widening cast of a few values: `Scalar`), moving `read + written` bytes over
    /// `elements`.
    pub fn memory_as(
        &self,
        which: ScalarKernel,
        read: u64,
        written: u64,
        elements: u64,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        self.memory_kernel(
            Family::Elementwise,
            read,
            written,
            elements,
            None,
            true,
            Some(which),
            hw,
            launch_s,
        )
    }

    /// [`HwModel::memory`]; `native` says the kernel is PyTorch's own norm or softmax kernel
    /// (the op alone), which re-reads its input, where a compiler's fused kernel (Inductor's
    /// `triton_red_fused_add_native_layer_norm`: measured reading its inputs once) does not;
    /// `scalar` that it is one of PyTorch's non-vectorized elementwise kernels
    /// ([`scalar_kernel`]) and which.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn memory_kernel(
        &self,
        family: Family,
        read: u64,
        written: u64,
        elements: u64,
        cols: Option<u64>,
        native: bool,
        scalar: Option<ScalarKernel>,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let f = &self.families;
        let c = match scalar {
            Some(ScalarKernel::Scalar) => f.scalar,
            Some(ScalarKernel::LayoutCopy) => f.layout_copy,
            Some(ScalarKernel::BatchNormChannelsLast) => f.batch_norm_channels_last.or(f.scalar),
            Some(ScalarKernel::BatchNormCudnnChannelsLast) => {
                f.batch_norm_cudnn_channels_last.or(f.scalar)
            }
            Some(ScalarKernel::Cat) => f.cat,
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
        // A looped softmax's last block of a row runs whole (`softmax_row_block`).
        let pad = match (family, cols, self.softmax_row_block) {
            (Family::Softmax, Some(n @ 1..), Some(b @ 1..)) => {
                n.div_ceil(b).saturating_mul(b) as f64 / n as f64
            }
            _ => 1.0,
        };
        let bytes = read + written as f64;
        let mut memory_s = bytes * pad / (hw.bandwidth * c.bandwidth_efficiency * bw) / busy;
        // PyTorch's channels-last batch norm moves its first `l2_effective_bytes` at its
        // family's rate (fitted on inputs in L2, just written) and the rest from DRAM at
        // `batch_norm_channels_last_dram`'s.
        if let (Some(ScalarKernel::BatchNormChannelsLast), Some(d)) =
            (scalar, f.batch_norm_channels_last_dram)
            && bytes > self.l2_effective_bytes
        {
            let l2 = self.l2_effective_bytes;
            memory_s = l2 / (hw.bandwidth * c.bandwidth_efficiency)
                + (bytes - l2) / (hw.bandwidth * d.bandwidth_efficiency);
        }
        // PyTorch's own kernels' floors: its norm's rows (a block per row), its warp softmax's
        // row latency (a warp per row of at most 2,048).
        let rows_s = match (family, cols) {
            (Family::Norm, Some(n @ 1..)) if native => self
                .norm_rows_per_s
                .map_or(0.0, |r| (elements / n) as f64 / r),
            (Family::Softmax, Some(n @ 1..=2048)) if native => {
                self.softmax_row_cols_per_s.map_or(0.0, |r| n as f64 / r)
            }
            _ => 0.0,
        };
        let compute_s = (elements as f64 * pad / (c.elements_per_s * rate)).max(rows_s) / busy;
        let mut p = finish(family, read, written, compute_s, memory_s, launch_s);
        p.kernel_s += c.overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        p
    }
}

/// The family of a kernel with no matmul: a softmax or a norm anywhere in it decides, then
/// any other reduction; else elementwise.
pub(super) fn family_of(g: &Graph, ops: &[OpId]) -> Family {
    let mut family = Family::Elementwise;
    for &o in ops {
        let op = g.op(o);
        if !op.kind.is_reduction() {
            continue;
        }
        let this = match funcs::family(op.func.as_deref().unwrap_or("")) {
            _ if pool::is_pool(op.kind) => Family::Pool,
            FuncFamily::Softmax => Family::Softmax,
            FuncFamily::Norm => Family::Norm,
            FuncFamily::GroupNorm => Family::GroupNorm,
            FuncFamily::Plain => Family::Reduction,
        };
        family = match (family, this) {
            (Family::Softmax, _) | (_, Family::Softmax) => Family::Softmax,
            (Family::Norm, _) | (_, Family::Norm) => Family::Norm,
            (Family::GroupNorm, _) | (_, Family::GroupNorm) => Family::GroupNorm,
            (Family::Pool, _) | (_, Family::Pool) => Family::Pool,
            _ => Family::Reduction,
        };
    }
    family
}

/// The row length of the row-wise ops of `family` (softmax or norm) among `ops`: the
/// largest one's extent along its axis.
pub(super) fn row_cols(g: &Graph, ops: &[OpId], family: Family) -> Option<u64> {
    ops.iter()
        .filter(|&&o| {
            let op = g.op(o);
            let f = funcs::family(op.func.as_deref().unwrap_or(""));
            op.kind.is_reduction()
                && match family {
                    Family::Softmax => f == FuncFamily::Softmax,
                    Family::Norm => f == FuncFamily::Norm,
                    _ => false,
                }
        })
        .filter_map(|&o| {
            let op = g.op(o);
            let shape = g.use_shape(op.inputs.first()?);
            let rank = shape.len() as i64;
            // A norm over a list of (trailing) axes: its rows hold all of them.
            if let Some(axes) = op.list_attr("axis") {
                let cols = axes.iter().try_fold(1u64, |a, &x| {
                    let i = usize::try_from(if x < 0 { x + rank } else { x }).ok()?;
                    a.checked_mul(*shape.get(i)?)
                })?;
                return Some((g.tensor(op.output).bytes, cols));
            }
            let axis = op.int_attr("axis").unwrap_or(-1);
            let axis = if axis < 0 { axis + rank } else { axis };
            let cols = *shape.get(usize::try_from(axis).ok()?)?;
            Some((g.tensor(op.output).bytes, cols))
        })
        .max()
        .map(|(_, cols)| cols)
}

// ---- The routing families (issue 23 item 3) ------------------------------------------------
//
// Fitted by validation/gpu/h100-calib-h/fit_routing.py on the fit half of batch h (PyTorch's
// own kernels for `torch.topk`, `torch.sort`/`argsort`, `index_select`, `index_add_` and
// `cumsum` on an H100). Each family's time is `overhead_us + max(bytes / (bandwidth ·
// bandwidth_efficiency), elements / rate)`; reads are the compulsory ones plus what the kernels
// are measured to read again:
// - top-k (`gatherTopK`, then `bitonicSortKVInPlace` over the k kept): x, then the values
//   and PyTorch's int64 indices again; elements: x's. A `topk_indices` paired with its `topk`
//   costs only its writes (no start-up: the same kernel).
// - sort and argsort (CUB's onesweep radix sort carrying int64 indices): a histogram pass over
//   the keys and one pass of 8 bits per key byte over keys and indices: `n·kb + kb·n·(kb + 8)`
//   for n keys of kb bytes; elements: n.
// - gather alone picking more rows than its table has (`index_select`'s
//   `vectorized_gather_kernel` in an MoE dispatch; fewer, an embedding lookup, is priced as
//   before): the rows touched once, and each repeated row again where it misses L2, `1 / (1 + (repeat_miss_bytes / table)^exponent)`
//   of the repeats over a table of `table` bytes; time on bytes.
// - index_add (`indexFuncLargeIndex`, atomic adds): as gather over `dest`'s touched rows (its
//   own curve), at `index_add.elements_per_s` elements of the rows added: far slower than
//   its bytes.
// - cumsum (`tensor_kernel_scan_innermost_dim`): one block scans a long row, so the rate is
//   `min(scan.elements_per_s, rows · scan_row_elements_per_s)`; along another axis
//   (`tensor_kernel_scan_outer_dim`, a column per thread) or over a tensor that is one row
//   (PyTorch runs CUB's device-wide scan) no row limit: memory-bound at the family's
//   efficiency (neither was in the fit half).

/// The routing families' coefficients (the `routing` object of a hardware file's `model`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingCoeffs {
    pub topk: super::FamilyCoeffs,
    pub sort: super::FamilyCoeffs,
    pub gather: super::FamilyCoeffs,
    pub index_add: super::FamilyCoeffs,
    pub scan: super::FamilyCoeffs,
    /// Table bytes at which half of a gather's repeated rows miss L2.
    pub repeat_miss_bytes: f64,
    pub repeat_miss_exponent: f64,
    /// Touched `dest` bytes at which half of an index_add's repeated rows miss L2.
    pub index_add_miss_bytes: f64,
    pub index_add_miss_exponent: f64,
    /// Elements per second one block scans along one row.
    pub scan_row_elements_per_s: f64,
    /// Batch i's top-k terms (validation/gpu/h100-calib-i/fit_topk_i.py); `None`: batch h's
    /// `topk` rate alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topk_rows: Option<TopkRows>,
    /// Where the coefficients come from.
    pub source: String,
}

/// `torch.topk`'s time beyond `topk.elements_per_s`: `gatherTopK` runs one block per row
/// (`rows / rows_per_s`), and for `k > 1` a second kernel, `bitonicSortKVInPlace`, sorts the
/// k kept per row (`sort_overhead_us + rows · k / sort_elements_per_s`).
///
/// Batch k's form (validation/gpu/h100-calib-k/fit_k.py), where its keys are present: a
/// row's radix passes and its elements overlap, so `gatherTopK` takes `rows · max(1 /
/// rows_per_s, E / topk.elements_per_s) + rows · k / kept_per_s` (`kept_per_s`), and the sort
/// costs each row at least `1 / sort_rows_per_s`: `sort_overhead_us + rows · max(1 /
/// sort_rows_per_s, k / sort_elements_per_s)` (`sort_rows_per_s`). Batch l's
/// (h100-calib-l/fit_l.py): with `row_chunk`, E is rounded up to whole chunks of that many
/// elements (a warp's 32: 40 experts cost what 64 do).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopkRows {
    pub rows_per_s: f64,
    pub sort_overhead_us: f64,
    pub sort_elements_per_s: f64,
    /// Values kept per second by `gatherTopK` beyond its row term; with it, the row and
    /// element terms overlap (batch k's form). `None`: batch i's sum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_per_s: Option<f64>,
    /// Rows per second `bitonicSortKVInPlace` sorts at most (its time per row does not fall
    /// with k below the kernel's minimum sort size). `None`: batch i's per-value term alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_rows_per_s: Option<f64>,
    /// Elements `gatherTopK` reads a row in (one per lane of a warp); `None`: E as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_chunk: Option<f64>,
}

impl TopkRows {
    /// `torch.topk`'s compute time (both kernels, without the family's overhead) for `rows`
    /// rows of `width` elements keeping `k`, at `elements_per_s` elements a second.
    pub fn seconds(&self, rows: f64, width: f64, k: f64, elements_per_s: f64) -> f64 {
        let width = match self.row_chunk {
            Some(c) if c >= 1.0 => (width / c).ceil() * c,
            _ => width,
        };
        let gather = match self.kept_per_s {
            Some(kept) => {
                rows * (1.0 / self.rows_per_s).max(width / elements_per_s) + rows * k / kept
            }
            None => rows / self.rows_per_s + rows * width / elements_per_s,
        };
        if k <= 1.0 {
            return gather;
        }
        let per_row = match self.sort_rows_per_s {
            Some(sr) => (1.0 / sr).max(k / self.sort_elements_per_s),
            None => k / self.sort_elements_per_s,
        };
        gather + self.sort_overhead_us * 1e-6 + rows * per_row
    }
}

impl RoutingCoeffs {
    /// Every coefficient in its range of [`super::RANGES`].
    pub(super) fn validate(&self) -> Result<(), String> {
        for (name, c) in [
            ("topk", self.topk),
            ("sort", self.sort),
            ("gather", self.gather),
            ("index_add", self.index_add),
            ("scan", self.scan),
        ] {
            for (k, v) in [
                ("bandwidth_efficiency", c.bandwidth_efficiency),
                ("elements_per_s", c.elements_per_s),
                ("overhead_us", c.overhead_us),
            ] {
                super::check_range(k, &format!("model.routing.{name}.{k}"), v)?;
            }
        }
        if let Some(t) = self.topk_rows {
            for (k, v) in [
                ("rows_per_s", t.rows_per_s),
                ("sort_overhead_us", t.sort_overhead_us),
                ("sort_elements_per_s", t.sort_elements_per_s),
            ] {
                super::check_range(k, &format!("model.routing.topk_rows.{k}"), v)?;
            }
            for (k, v) in [
                ("kept_per_s", t.kept_per_s),
                ("sort_rows_per_s", t.sort_rows_per_s),
                ("row_chunk", t.row_chunk),
            ] {
                if let Some(v) = v {
                    super::check_range(k, &format!("model.routing.topk_rows.{k}"), v)?;
                }
            }
        }
        for (k, v) in [
            ("repeat_miss_bytes", self.repeat_miss_bytes),
            ("repeat_miss_exponent", self.repeat_miss_exponent),
            ("index_add_miss_bytes", self.index_add_miss_bytes),
            ("index_add_miss_exponent", self.index_add_miss_exponent),
            ("scan_row_elements_per_s", self.scan_row_elements_per_s),
        ] {
            super::check_range(k, &format!("model.routing.{k}"), v)?;
        }
        Ok(())
    }
}

/// Whether gather `o` picks more rows than its table has (an MoE dispatch, each row k
/// times): only such a gather is priced as the `gather` family, so that files written before
/// it (embedding lookups, which pick fewer rows) keep their numbers.
fn repeats_rows(g: &Graph, o: OpId) -> bool {
    let op = g.op(o);
    let (Some(table), Some(ids)) = (op.inputs.first(), op.inputs.get(1)) else {
        return false;
    };
    let table = g.use_shape(table);
    let axis = op.int_attr("axis").unwrap_or(0);
    let axis = if axis < 0 {
        axis + table.len() as i64
    } else {
        axis
    };
    let dim = usize::try_from(axis)
        .ok()
        .and_then(|a| table.get(a).copied())
        .unwrap_or(u64::MAX);
    crate::ops::elements(&g.use_shape(ids)).is_some_and(|n| n > dim)
}

/// The fraction of repeated reads that miss L2 over `bytes` touched.
fn repeat_miss(bytes: f64, half: f64, exponent: f64) -> f64 {
    if bytes <= 0.0 {
        0.0
    } else {
        1.0 / (1.0 + (half / bytes).powf(exponent))
    }
}

/// Elements of a shape as a float (a checked graph's counts fit 64 bits).
fn count(shape: &[u64]) -> f64 {
    shape.iter().map(|&d| d as f64).product()
}

impl HwModel {
    /// The prediction for a kernel that holds a routing op, by its family; `None` when the
    /// model has no routing coefficients or the kernel holds none (a gather counts only alone:
    /// fused, it is priced with its kernel as before).
    pub(super) fn routing_kernel(
        &self,
        g: &Graph,
        ops: &[OpId],
        traffic: &crate::traffic::GroupTraffic,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Option<Prediction> {
        let r = self.routing.as_ref()?;
        let computed: Vec<OpId> = ops
            .iter()
            .copied()
            .filter(|&o| !g.op(o).kind.is_layout())
            .collect();
        // A kernel with a matmul is priced by its matmul.
        if computed.iter().any(|&o| g.op(o).kind.is_contraction()) {
            return None;
        }
        let find = |k: OpKind| computed.iter().copied().find(|&o| g.op(o).kind == k);
        let (read, written) = (traffic.bytes_read as f64, traffic.bytes_written);
        let shape = |o: OpId, k: usize| g.op(o).inputs.get(k).map(|u| g.use_shape(u));
        let dtype_bytes = |o: OpId, k: usize| {
            g.op(o)
                .inputs
                .get(k)
                .map_or(1, |u| g.tensor(u.tensor).dtype.bytes())
        };
        let time = |c: super::FamilyCoeffs, family: Family, read: f64, elements: f64, rate: f64| {
            let memory_s = (read + written as f64) / (hw.bandwidth * c.bandwidth_efficiency);
            let compute_s = elements / rate;
            let mut p = finish(family, read, written, compute_s, memory_s, launch_s);
            p.kernel_s += c.overhead_us * 1e-6;
            p.time_s = p.kernel_s + launch_s;
            p
        };
        if !computed.is_empty()
            && computed
                .iter()
                .all(|&o| g.op(o).kind == OpKind::TopkIndices)
        {
            // Found with its topk's values: only its writes.
            let memory_s = written as f64 / (hw.bandwidth * r.topk.bandwidth_efficiency);
            return Some(finish(Family::TopK, read, written, 0.0, memory_s, launch_s));
        }
        if let Some(o) = find(OpKind::Topk) {
            let x = shape(o, 0)?;
            let values = count(&g.tensor(g.op(o).output).shape);
            let again = values * (dtype_bytes(o, 0) as f64 + 8.0);
            if let Some(tr) = r.topk_rows {
                let k = g.op(o).int_attr("k").unwrap_or(1).max(1) as f64;
                let rows = values / k;
                let width = count(&x) / rows.max(1.0);
                let compute_s = tr.seconds(rows, width, k, r.topk.elements_per_s);
                return Some(time(r.topk, Family::TopK, read + again, compute_s, 1.0));
            }
            return Some(time(
                r.topk,
                Family::TopK,
                read + again,
                count(&x),
                r.topk.elements_per_s,
            ));
        }
        if let Some(o) = find(OpKind::Sort).or_else(|| find(OpKind::Argsort)) {
            let n = count(&shape(o, 0)?);
            let kb = dtype_bytes(o, 0) as f64;
            let counted = traffic
                .reads
                .iter()
                .find(|t| t.tensor == g.op(o).inputs[0].tensor)
                .map_or(0.0, |t| t.bytes as f64);
            let passes = n * kb + kb * n * (kb + 8.0);
            // PyTorch sorts slices of at most 4,096 elements in place, one block each
            // (`bitonicSortKVInPlace`; Inductor a Triton kernel): one pass over the keys,
            // priced as a streaming kernel. Measured (validation/gpu/models batch 7): Mixtral's
            // decode sorting 32 expert ids in 4.7 µs (eager) and 1.5 µs (Triton), where the
            // segmented radix sort `sort` was fitted on (16,384 and more) costs 71.8 µs to start.
            let slice = {
                let x = shape(o, 0)?;
                let axis = g.op(o).int_attr("axis").unwrap_or(-1);
                let i = if axis < 0 {
                    axis + x.len() as i64
                } else {
                    axis
                };
                usize::try_from(i)
                    .ok()
                    .and_then(|i| x.get(i))
                    .copied()
                    .unwrap_or(0)
            };
            if slice <= SMALL_SORT {
                return Some(time(
                    self.families.elementwise,
                    Family::Sort,
                    read,
                    n,
                    self.families.elementwise.elements_per_s,
                ));
            }
            return Some(time(
                r.sort,
                Family::Sort,
                read - counted + passes,
                n,
                r.sort.elements_per_s,
            ));
        }
        if let Some(o) = find(OpKind::IndexAdd) {
            let dest = shape(o, 0)?;
            let ids = count(&shape(o, 1)?);
            let src = count(&shape(o, 2)?);
            let axis = g.op(o).int_attr("axis").unwrap_or(0);
            let axis = if axis < 0 {
                axis + dest.len() as i64
            } else {
                axis
            };
            let dim = *dest.get(usize::try_from(axis).ok()?)? as f64;
            let row = g.use_bytes(&g.op(o).inputs[0]) as f64 / dim.max(1.0);
            let touched = ids.min(dim) * row;
            let again = (ids * row - touched).max(0.0)
                * repeat_miss(touched, r.index_add_miss_bytes, r.index_add_miss_exponent);
            return Some(time(
                r.index_add,
                Family::IndexAdd,
                read + again,
                src,
                r.index_add.elements_per_s,
            ));
        }
        if let Some(o) = find(OpKind::Cumsum) {
            let x = shape(o, 0)?;
            let axis = g.op(o).int_attr("axis").unwrap_or(-1);
            let axis = if axis < 0 {
                axis + x.len() as i64
            } else {
                axis
            };
            let cols = *x.get(usize::try_from(axis).ok()?)? as f64;
            let n = count(&x);
            let rows = n / cols.max(1.0);
            // Along the innermost axis a block scans a row; along another, PyTorch's
            // `tensor_kernel_scan_outer_dim` gives each thread a column: no row limit.
            // A tensor that is one row (`numel == size(axis)`) is CUB's device-wide scan.
            let innermost = usize::try_from(axis).ok() == x.len().checked_sub(1);
            let rate = if innermost && rows > 1.0 {
                r.scan.elements_per_s.min(rows * r.scan_row_elements_per_s)
            } else {
                r.scan.elements_per_s
            };
            return Some(time(r.scan, Family::Scan, read, n, rate));
        }
        if let [o] = computed[..]
            && g.op(o).kind == OpKind::Gather
            && repeats_rows(g, o)
        {
            // The table's rows touched are counted; the repeats of them miss L2 in part.
            let table_read = traffic
                .reads
                .iter()
                .find(|t| t.tensor == g.op(o).inputs[0].tensor)
                .map_or(0.0, |t| t.bytes as f64);
            let out = g.tensor(g.op(o).output);
            let gathered = out.bytes as f64 / out.dtype.bytes().max(1) as f64
                * g.tensor(g.op(o).inputs[0].tensor).dtype.bytes() as f64;
            let again = (gathered - table_read).max(0.0)
                * repeat_miss(table_read, r.repeat_miss_bytes, r.repeat_miss_exponent);
            let elements = count(&out.shape);
            return Some(time(
                r.gather,
                Family::Gather,
                read + again,
                elements,
                r.gather.elements_per_s,
            ));
        }
        None
    }
}
impl HwModel {
    /// A pooling or group-norm kernel (`family` [`Family::Pool`] or [`Family::GroupNorm`])
    /// made of `ops`, moving `traffic` under the compulsory model over `elements` (its
    /// largest tensor's); `native` when the op is alone (PyTorch's own kernel).
    ///
    /// - A pool: `max(bytes / (bandwidth · bandwidth_efficiency), elements / elements_per_s)`
    ///   plus `overhead_us`, with `families.pool` (`pool_global_channels_last` for a global pool
    ///   stored channels-last). PyTorch's own max pool also writes its int64 indices (8 bytes
    ///   per output element), which it computes even when they are not returned.
    /// - A group norm: the moments pass, `max(read / (bandwidth · bandwidth_efficiency),
    ///   elements / (elements_per_s · busy))` with a block per group of a sample (`busy =
    ///   min(1, N·G / SMs)`), then the apply pass over the input again and the output at
    ///   `families.scalar`'s rates, plus `overhead_us` for the three kernels. It reads its
    ///   inputs twice.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn norm_pool_kernel(
        &self,
        family: Family,
        g: &Graph,
        ops: &[OpId],
        traffic: &crate::traffic::GroupTraffic,
        elements: u64,
        native: bool,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let f = &self.families;
        let (read, written) = (traffic.bytes_read as f64, traffic.bytes_written);
        let bw = hw.bandwidth;
        if family == Family::GroupNorm {
            let c = self.family(Family::GroupNorm);
            let apply = f.scalar.unwrap_or(f.elementwise);
            let e = elements as f64;
            let (moments_mem, moments_compute) = group_norm_moments(&c, g, ops, read, elements, hw);
            let (apply_mem, apply_compute) = (
                (read + written as f64) / (bw * apply.bandwidth_efficiency),
                e / apply.elements_per_s,
            );
            let kernel_s = moments_mem.max(moments_compute)
                + apply_mem.max(apply_compute)
                + c.overhead_us * 1e-6;
            return Prediction {
                family,
                dram_read: (2.0 * read).round().min(u64::MAX as f64) as u64,
                dram_written: written,
                compute_s: moments_compute + apply_compute,
                memory_s: moments_mem + apply_mem,
                kernel_s,
                launch_s,
                time_s: kernel_s + launch_s,
                split_k: None,
                comm_s: 0.0,
                extra_launches: 0,
                overhead_s: 0.0,
            };
        }
        let pools = || {
            ops.iter()
                .map(|&o| g.op(o))
                .filter(|op| pool::is_pool(op.kind))
        };
        let global_nhwc = pools()
            .any(|op| pool::is_global(op.kind) && op.int_attr(pool::CHANNELS_LAST.name) == Some(1));
        let c = match f.pool_global_channels_last {
            Some(c) if global_nhwc => c,
            _ => self.family(Family::Pool),
        };
        // PyTorch's max pool writes the index of each maximum beside it (int64).
        let indices: u64 = if native {
            pools()
                .filter(|op| op.kind == crate::types::OpKind::MaxPool)
                .map(|op| {
                    let t = g.tensor(op.output);
                    (t.bytes / t.dtype.bytes().max(1)).saturating_mul(8)
                })
                .fold(0u64, u64::saturating_add)
        } else {
            0
        };
        let written = written.saturating_add(indices);
        let memory_s = (read + written as f64) / (bw * c.bandwidth_efficiency);
        let compute_s = elements as f64 / c.elements_per_s;
        let mut p = finish(family, read, written, compute_s, memory_s, launch_s);
        p.kernel_s += c.overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        p
    }
}

/// A group norm's moments pass over `read` bytes and `elements` at family `c`, a block per
/// group of a sample: `(read / (bandwidth · bandwidth_efficiency), elements / (elements_per_s
/// · busy))`, `busy = min(1, N·G / SMs)` ([`HwModel::norm_pool_kernel`], and Inductor's
/// streaming pass in `inductor.rs`).
pub(super) fn group_norm_moments(
    c: &FamilyCoeffs,
    g: &Graph,
    ops: &[OpId],
    read: f64,
    elements: u64,
    hw: &crate::cost::Hardware,
) -> (f64, f64) {
    let busy = group_rows(g, ops)
        .map_or(1.0, |rows| {
            (rows as f64 / f64::from(hw.sms.unwrap_or(132).max(1))).min(1.0)
        })
        .max(f64::MIN_POSITIVE);
    (
        read / (hw.bandwidth * c.bandwidth_efficiency),
        elements as f64 / (c.elements_per_s * busy),
    )
}

/// The groups of the largest group norm among `ops`: `N · G` rows, each a block of
/// PyTorch's moments kernel.
fn group_rows(g: &Graph, ops: &[OpId]) -> Option<u64> {
    ops.iter()
        .map(|&o| g.op(o))
        .filter(|op| {
            op.kind.is_reduction()
                && funcs::family(op.func.as_deref().unwrap_or("")) == FuncFamily::GroupNorm
        })
        .filter_map(|op| {
            let shape = g.use_shape(op.inputs.first()?);
            let groups = u64::try_from(op.int_attr("groups")?).ok()?;
            Some((
                g.tensor(op.output).bytes,
                shape.first()?.checked_mul(groups)?,
            ))
        })
        .max()
        .map(|(_, rows)| rows)
}
