//! The hardware model's matmul and FlashAttention kernels (part of [`super`]): what they read
//! through L2 and how long they take.
//!
//! - Matmul DRAM reads: compulsory when M or N ≤ 64 (skinny/decode shapes stream each operand
//!   once, split-K or not). Otherwise output tiles of 256×128 (128×128 or 128×64 when the
//!   larger ones do not fill one wave); a wave of `sms` tiles covers
//!   `c = min(tiles_n, raster_width)` tile columns and `r = sms / c` rows, so each A panel is
//!   re-read `tiles_n / c` times and each B panel `tiles_m / r` times; a re-read hits L2 with
//!   probability `1 / (1 + (ws / l2_effective_bytes)^l2_hit_exponent)`, `ws` being one batch's
//!   operand bytes (a gradual curve, not a cut-off). A batched activation times one weight
//!   (`[B, S, D] · [D, N]`) is one GEMM of `B · S` rows, and grouped-query attention whose
//!   key/value heads are broadcast over their query heads (`[B·KVH, G, S, D] · [B·KVH, 1, D,
//!   T]`) is `B·KVH` GEMMs of `G · S` rows, each head read once ([`matmul_shape`]).
//! - Matmul time: `max(flops / (peak · e · wave_eff · K / (K + mm_k_half)), (reads + writes) /
//!   (bandwidth · mm_bandwidth_efficiency)) + mm_overhead_us`, `wave_eff = (tiles / (waves ·
//!   sms))^mm_wave_exponent` (wave quantization, softened: persistent kernels) of the
//!   fullest-waved of cuBLAS's large tiles (256×128, 128×256, 192×192), `e = mm_efficiency`, or `mm_unaligned_efficiency` when K or N is off
//!   16 bytes (cuBLAS's `mma.sync` fallbacks). `tf32` operands run at the 16-bit peak times
//!   `tf32_peak_fraction`; f32 ones (FFMA, TF32 off) at the f32 peak with
//!   `mm_f32_efficiency · wave_eff` (no K term: there is no tensor-core pipeline to fill).
//! - cuBLAS's split-K ([`HwModel::split_k_ways`], `model.split_k`): a GEMM that is not batched,
//!   with a long K loop and too few output tiles to fill the GPU, writes f32 partial products
//!   that a reduction kernel adds up: their bytes, the reduction's time and a second launch
//!   join its prediction (decode's projections; issue 24).
//! - A FlashAttention kernel (`--flash-attention`'s, [`crate::fusion::FlashKernel`]): its two
//!   matmuls' FLOPs at `peak · attention.efficiency · wave_eff · L / (L + attention.kv_half) ·
//!   D / (D + attention.head_dim_half)`, one tile per 128 queries of each batch and head, `L`
//!   the keys, `D` the head dim rounded up to the kernels' step ([`padded_head_dim`]:
//!   `attention.head_dim_step`, and 256 above 192) with the FLOPs padded to it; memory as a
//!   matmul's, on the counted bytes. With `attention.key_block` the kernel takes the keys a
//!   block at a time: without a causal mask `L` is rounded up to the block (the FLOPs padded
//!   alike), under one `L` is the mean keys a query block visits.
//!   `--attention-kernel NAME` takes `attention_kernels[NAME]` instead
//!   ([`HwModel::with_attention_kernel`]), `--causal-attention` half the keys and FLOPs.

use super::{Family, HwModel, Prediction, finish};
use crate::graph::{Graph, OpId};

// The options that derive a model for FlashAttention kernels (`--attention-kernel`,
// `--causal-attention`).
impl HwModel {
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
    pub(super) fn wave_eff(&self, sms: f64) -> f64 {
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

impl HwModel {
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
    /// and `written` as counted; 1-byte operands are taken as 8-bit floats.
    pub fn matmul(
        &self,
        s: &MatmulShape,
        other_read: u64,
        written: u64,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let unit = crate::cost::Unit::for_matmul_bytes(s.elem_bytes);
        self.matmul_on(s, unit, other_read, written, hw, launch_s)
    }

    /// [`HwModel::matmul`] on the tensor unit `unit` (the operands' dtype's,
    /// [`crate::cost::Unit::for_matmul`]): an 8-bit one takes the 8-bit peak and efficiency
    /// (`quant.rs`) and is reported as the `gemm8` family.
    pub fn matmul_on(
        &self,
        s: &MatmulShape,
        unit: crate::cost::Unit,
        other_read: u64,
        written: u64,
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let sms = hw.sms.unwrap_or(132);
        let read = self.matmul_reads(s, sms) + other_read as f64;
        let wave_eff = s
            .wave_eff(f64::from(sms.max(1)))
            .powf(self.mm_wave_exponent);
        let k = s.k as f64;
        let (peak, eff) = if s.tf32 {
            // TF32 runs on the tensor cores, at a fraction of the 16-bit peak.
            (
                hw.peak(crate::cost::Unit::Tensor16) * self.tf32_peak_fraction,
                self.mm_efficiency * wave_eff * k / (k + self.mm_k_half),
            )
        } else if unit == crate::cost::Unit::F32 {
            // FFMA on the CUDA cores: no tensor-core pipeline fill.
            (hw.peak(unit), self.mm_f32_efficiency * wave_eff)
        } else {
            // 8-bit operands: their own efficiency and pipeline fill (`quant.rs`).
            let (e, k_half) = if unit.is_8bit() {
                self.eight_bit(unit)
            } else {
                (self.mm_efficiency, self.mm_k_half)
            };
            let e = match self.mm_unaligned_efficiency {
                Some(e) if !s.aligned() => e,
                _ => e,
            };
            (hw.peak(unit), e * wave_eff * k / (k + k_half))
        };
        let compute_s = s.flops() / (peak * eff);
        let memory_s = (read + written as f64) / (hw.bandwidth * self.mm_bandwidth_efficiency);
        let family = if unit.is_8bit() {
            Family::Gemm8
        } else {
            Family::Matmul
        };
        let mut p = finish(family, read, written, compute_s, memory_s, launch_s);
        p.kernel_s += self.mm_overhead_us * 1e-6;
        p.time_s = p.kernel_s + launch_s;
        if compute_s > memory_s {
            p.overhead_s = self.mm_overhead_us * 1e-6;
        }
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
        visits: KeyVisits,
        head_dim: u64,
        flops: f64,
        (read, written): (u64, u64),
        hw: &crate::cost::Hardware,
        launch_s: f64,
    ) -> Prediction {
        let sms = f64::from(hw.sms.unwrap_or(132).max(1));
        let tiles = (batch.max(1) as f64) * (queries.div_ceil(128).max(1) as f64);
        let waves = (tiles / sms).ceil().max(1.0);
        let a = &self.attention;
        // A query block takes the keys a block at a time (`key_block`): the last block's
        // keys cost what a full block's do (cuDNN's SDPA over SD's 77 text tokens ran as 128:
        // validation/gpu/models/sdpa_probe, VALIDATION.md §48).
        let (visits, flops) = match (visits, a.key_block) {
            (KeyVisits::Each(keys), Some(block)) if block >= 1.0 && keys > 0 => {
                let block = block as u64;
                let padded = keys.div_ceil(block).saturating_mul(block);
                (KeyVisits::Each(padded), flops * padded as f64 / keys as f64)
            }
            _ => (visits, flops),
        };
        // How full the SMs are kept: query blocks of equal work fill `tiles / (waves · sms)`
        // of them; a causal kernel's blocks grow towards the diagonal ([`causal_schedule`]).
        let (keys, schedule) = match visits {
            KeyVisits::Each(keys) => (keys, tiles / (waves * sms)),
            // A kernel that takes the keys a block at a time pays its fill per query block
            // on the keys that block visits: under a causal mask, the mean (a short causal
            // prefill, 768-1,280 keys, ran 25-35% slower than the price on every key once
            // the fill was refitted: sdpa_probe/refit.py, VALIDATION.md §48).
            KeyVisits::Causal { keys, mean } => (
                if a.key_block.is_some() { mean } else { keys },
                causal_schedule(batch, queries, keys, hw.sms.unwrap_or(132)),
            ),
        };
        // The kernels are built for some head dims only (`head_dim_step`): a head dim in
        // between runs the next one's kernel, its two matmuls padded to it (SD 1.5's 40-wide
        // heads ran 20-27% slower than the price for 40: validation/gpu/models batches 2 and
        // 12; cuDNN's kernels name their head-dim tile, 64, 128, 192 or 256:
        // validation/gpu/attention-hd).
        let padded = padded_head_dim(head_dim, a.head_dim_step);
        let flops = flops * padded as f64 / head_dim.max(1) as f64;
        // Fewer queries than a block of 128 (2 to 127: a grouped-query decode written as rows,
        // a short chunk) still run the block's two matmuls over every key: cuDNN's SDPA took
        // 8 query rows through 4,096 keys in 49.7 µs on anywhere from 2 to 32 blocks
        // (validation/gpu/attention-hd/decode). One query runs a decode kernel: unchanged.
        let flops = if (2..QUERY_BLOCK).contains(&queries) {
            flops * QUERY_BLOCK as f64 / queries as f64
        } else {
            flops
        };
        let (l, d) = (keys as f64, padded as f64);
        let eff = a.efficiency * schedule * l / (l + a.kv_half) * d / (d + a.head_dim_half);
        let compute_s = flops / (hw.peak(crate::cost::Unit::Tensor16) * eff);
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
}

/// The keys an attention kernel's query blocks visit ([`HwModel::attention`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyVisits {
    /// Every query block visits these many keys: all of them, or the mean a window or
    /// another mask leaves each query (blocks of equal work).
    Each(u64),
    /// A causal mask over `keys` keys, aligned at the bottom right as FlashAttention's: each
    /// query block visits the key blocks up to its diagonal, `mean` keys per query in all.
    Causal { keys: u64, mean: u64 },
}

impl KeyVisits {
    /// `pairs` (query, key) pairs of `sq` queries against `keys` keys: `Causal` for a causal
    /// mask without a window, else `Each` with the mean keys per query.
    pub fn of(causal: bool, window: Option<u64>, keys: u64, pairs: u128, sq: u64) -> KeyVisits {
        let mean = u64::try_from(pairs.div_ceil(u128::from(sq.max(1)))).unwrap_or(u64::MAX);
        match (causal, window) {
            (true, None) => KeyVisits::Causal { keys, mean },
            _ => KeyVisits::Each(mean),
        }
    }
}

/// The queries of one block of an attention kernel (FlashAttention's and cuDNN's tile).
const QUERY_BLOCK: u64 = 128;

/// Query blocks (of 128 queries) a causal schedule is simulated for; past it, every SM is
/// taken as busy but for the last, longest block ([`causal_schedule`]).
const SIMULATED_BLOCKS: u64 = 1 << 16;

/// The share of `sms` SMs a causal attention kernel keeps busy: `batch` heads of `queries`
/// query blocks of 128 against `keys` keys, block `i` visiting the key blocks up to its
/// diagonal, dispatched in launch order (head by head, each head's blocks in order) to the
/// first SM free, the kernel ending with its last block. Measured (validation/gpu/attention-
/// hd/grid, cuDNN's SDPA on an H100): a causal kernel takes 0.98-1.06 of the non-causal one's
/// time at 64-128 blocks (fewer than the SMs: the diagonal block sets the time), 0.53-0.61 at
/// 2,048-4,096 blocks; this schedule gives the ratio within 13%. Equal blocks give `tiles /
/// (waves · sms)`, the non-causal figure.
pub fn causal_schedule(batch: u64, queries: u64, keys: u64, sms: u32) -> f64 {
    let sms = u64::from(sms.max(1));
    let t = queries.div_ceil(128).max(1);
    let offset = keys.saturating_sub(queries);
    let work = |i: u64| {
        offset
            .saturating_add((i + 1).saturating_mul(128))
            .min(keys)
            .div_ceil(128)
            .max(1)
    };
    let blocks = batch.max(1).saturating_mul(t);
    let (total, makespan) = if blocks <= SIMULATED_BLOCKS {
        let mut free =
            std::collections::BinaryHeap::from(vec![std::cmp::Reverse(0u64); sms as usize]);
        let mut total = 0u64;
        for _ in 0..batch.max(1) {
            for i in 0..t {
                let w = work(i);
                total += w;
                if let Some(std::cmp::Reverse(at)) = free.pop() {
                    free.push(std::cmp::Reverse(at + w));
                }
            }
        }
        let end = free
            .into_iter()
            .map(|std::cmp::Reverse(at)| at)
            .max()
            .unwrap_or(1);
        (total as f64, end as f64)
    } else {
        // Many waves: the mean block's work spread over the SMs, plus the longest block.
        let mean = (offset.saturating_add(queries / 2).min(keys).div_ceil(128)).max(1) as f64;
        let total = blocks as f64 * mean;
        (total, total / sms as f64 + work(t - 1) as f64)
    };
    (total / (sms as f64 * makespan.max(1.0))).clamp(f64::MIN_POSITIVE, 1.0)
}

/// The reads a kernel of contraction `o` makes besides `o`'s operands (an epilogue's bias),
/// as counted in `traffic`: a tiling model's reads of the operands take their place.
pub(crate) fn other_reads(g: &Graph, o: OpId, traffic: &crate::traffic::GroupTraffic) -> u64 {
    // A matmul's own bias (`matmul(x, w, b)`) is an epilogue's read, not an operand.
    let operands = if crate::ops::contraction::is_biased(g, o) {
        2
    } else {
        usize::MAX
    };
    let operands: u64 = g
        .op(o)
        .inputs
        .iter()
        .take(operands)
        .filter(|u| traffic.reads.iter().any(|r| r.tensor == u.tensor))
        .fold(0u64, |acc, u| acc.saturating_add(g.use_bytes(u)));
    traffic.bytes_read.saturating_sub(operands)
}

/// The head dim a FlashAttention kernel runs `d` at, for kernels built every `step` head dims
/// (`attention.head_dim_step`): `d` rounded up to a multiple of `step`, or 256 above 192
/// (FlashAttention-2's `round_multiple(d, 32)` and its 256 kernel; cuDNN's SDPA kernels tile
/// the head dim by 64); `d` as it is above 256 or without a step.
pub fn padded_head_dim(d: u64, step: Option<f64>) -> u64 {
    let Some(step) = step.filter(|s| *s >= 1.0).map(|s| s as u64) else {
        return d;
    };
    match d {
        0 => 0,
        193..=256 => 256,
        257.. => d,
        _ => d.div_ceil(step) * step,
    }
}

/// The problem size of matmul op `o`, from its output and operands. Batch dimensions over
/// which the second operand is broadcast (its extent 1, or absent, where the output's is
/// larger), when they are the innermost batch dimensions, are rows of one GEMM per remaining
/// batch: `[B, S, D] · [D, N]` (a batched activation times one weight) is one GEMM of `B · S`
/// rows, as PyTorch runs it (validation/gpu/h100-heldout-d: the layers' projections read the
/// weight once), not `B` products; and grouped-query attention written without a copy,
/// `[B·KVH, G, S, D] · [B·KVH, 1, D, T]` (each key/value head broadcast over the `G` query
/// heads of its group), is `B·KVH` products of `G·S` rows, each reading its key/value head
/// once (issue 24: priced as `B·KVH·G` products, it read the KV cache `G` times).
pub fn matmul_shape(g: &Graph, o: OpId) -> Option<MatmulShape> {
    shape_of(g, o, true)
}

/// [`matmul_shape`]; `fold_broadcast`: fold the second operand's broadcast batch dimensions
/// into the rows (else only a second operand without batch dimensions, as before issue 24:
/// the three-op attention pattern's FlashAttention kernels keep their tiles per head).
fn shape_of(g: &Graph, o: OpId, fold_broadcast: bool) -> Option<MatmulShape> {
    let op = g.op(o);
    let a = op.inputs.first()?;
    let a_shape = g.use_shape(a);
    let out = &g.tensor(op.output).shape;
    if out.len() < 2 || a_shape.len() < 2 {
        return None;
    }
    let dims = &out[..out.len() - 2];
    let m = out[out.len() - 2];
    // The second operand's batch dimensions, aligned to the output's from the right (1 where
    // it has none).
    let b_batch: Vec<u64> = match op.inputs.get(1).map(|b| g.use_shape(b)) {
        Some(b) if b.len() >= 2 => {
            let rank = b.len() - 2;
            (0..dims.len())
                .map(|i| {
                    let from_right = dims.len() - 1 - i;
                    rank.checked_sub(from_right + 1).map_or(1, |j| b[j])
                })
                .collect()
        }
        // No second matrix (a checked graph always has one): nothing to fold.
        _ => vec![0; dims.len()],
    };
    let folded = if fold_broadcast {
        b_batch.iter().rev().take_while(|&&d| d == 1).count()
    } else if b_batch.iter().all(|&d| d == 1) {
        dims.len()
    } else {
        0
    };
    let (outer, inner) = dims.split_at(dims.len() - folded);
    let product = |d: &[u64]| d.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x));
    Some(MatmulShape {
        batch: product(outer)?,
        m: product(inner)?.checked_mul(m)?,
        k: a_shape[a_shape.len() - 1],
        n: out[out.len() - 1],
        elem_bytes: g.tensor(a.tensor).dtype.bytes(),
        tf32: g.tensor(a.tensor).dtype == crate::types::Dtype::Tf32,
    })
}

/// The problem size the three-op attention pattern's FlashAttention kernel is priced on:
/// [`matmul_shape`] without folding a key/value head's broadcast over its query heads (the
/// kernel's tiles are per query head, as its coefficients were fitted).
pub(super) fn pattern_shape(g: &Graph, o: OpId) -> Option<MatmulShape> {
    shape_of(g, o, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attention_runs_a_head_dim_at_the_kernels_next_step() {
        // cuDNN's SDPA (the H100 presets' `attention`): 64, 128, 192, 256.
        let cudnn = Some(64.0);
        assert_eq!(padded_head_dim(40, cudnn), 64);
        assert_eq!(padded_head_dim(64, cudnn), 64);
        assert_eq!(padded_head_dim(80, cudnn), 128);
        assert_eq!(padded_head_dim(160, cudnn), 192);
        assert_eq!(padded_head_dim(200, cudnn), 256);
        assert_eq!(padded_head_dim(320, cudnn), 320);
        // FlashAttention-2 (`flash2`): every 32, 256 above 192.
        assert_eq!(padded_head_dim(80, Some(32.0)), 96);
        assert_eq!(padded_head_dim(200, Some(32.0)), 256);
        // A hardware file without the step: as it is.
        assert_eq!(padded_head_dim(40, None), 40);
        // SD 1.5's 40-wide heads cost what 64-wide ones do (their FLOPs padded to 64).
        let hw = crate::cost::Hardware::preset("h100").expect("h100");
        assert_eq!(
            hw.model.as_ref().and_then(|m| m.attention.head_dim_step),
            Some(64.0)
        );
        let m = hw.model.clone().expect("model");
        let at = |d: u64| {
            let flops = 4.0 * 16.0 * 4096.0 * 4096.0 * d as f64;
            m.attention(16, 4096, KeyVisits::Each(4096), d, flops, (0, 0), &hw, 0.0)
                .compute_s
        };
        assert!((at(40) - at(64)).abs() < 1e-12);
        assert!(at(128) > at(64));
    }

    #[test]
    fn attention_takes_the_keys_a_block_at_a_time() {
        // SD's cross-attention over 77 text tokens: cuDNN's kernel takes keys in blocks of
        // 128 (the H100 presets' `key_block`), so 77 keys cost what 128 do and 129 what 256 do.
        let hw = crate::cost::Hardware::preset("h100").expect("h100");
        let m = hw.model.clone().expect("model");
        assert_eq!(m.attention.key_block, Some(128.0));
        let at = |m: &HwModel, keys: u64| {
            let flops = 4.0 * 16.0 * 4096.0 * keys as f64 * 64.0;
            m.attention(16, 4096, KeyVisits::Each(keys), 64, flops, (0, 0), &hw, 0.0)
                .compute_s
        };
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
        assert!(close(at(&m, 77), at(&m, 128)));
        assert!(close(at(&m, 129), at(&m, 256)));
        assert!(at(&m, 129) > at(&m, 128));
        // A hardware file without the block prices the keys as they are.
        let mut exact = m.clone();
        exact.attention.key_block = None;
        assert!(at(&exact, 77) < at(&exact, 128));
        // Under a causal mask the fill is paid on the mean keys a query block visits (with
        // the block; on every key without it): a shorter mean costs more per FLOP.
        let causal = |m: &HwModel, mean: u64| {
            let visits = KeyVisits::Causal { keys: 2048, mean };
            m.attention(16, 2048, visits, 64, 1e12, (0, 0), &hw, 0.0)
                .compute_s
        };
        assert!(causal(&m, 512) > causal(&m, 1025));
        assert!(close(causal(&exact, 512), causal(&exact, 1025)));
    }
}
