//! Inductor's split reductions and what they mean for a compiled group norm: how many CUDA
//! kernels it runs ([`group_norm_kernels`]) and what its first kernel costs over a
//! channels-last input ([`HwModel::inductor_strided_moments_s`]; VALIDATION.md §40); and for
//! a softmax over few long rows ([`split_softmax_kernels`]; §64).
//!
//! Inductor reduces each group of a group norm (`C/G · H·W` elements, `N·G` groups) in
//! chunks when there are too few groups to fill the GPU ([`inner_split`]: torch 2.11's
//! `InductorChoices.reduction_split_factor`), then combines the chunks' partial moments: a
//! kernel of partial moments, two that combine them and the apply (four); unsplit, two.
//! Over a channels-last input (Inductor's layout optimisation runs a graph's 2-D
//! convolutions channels-last, so what they feed is channels-last too) a group's elements lie
//! `C` apart; when a chunk is not a whole number of channels, the first kernel walks each
//! chunk along the spatial positions of one channel at a time, one 2-byte element per
//! 32-byte sector, and reads at a fraction of the bandwidth (`families.group_norm_strided`),
//! except where the rows a program reduces start whole channels apart and share sectors
//! ([`sectors_per_element`]; VALIDATION.md §45); the walk is over the norm's input alone
//! (what an add before it fuses in comes from L2; §49).
//! Measured (validation/gpu/models/gn_probe): SD 1.5's group norm over 2 × 320 × 72² took
//! 26.6 µs in that kernel channels-last, 10.6 µs contiguous; over 2 × 320 × 64², whose
//! five chunks are two channels each, 4.9 and 4.7 µs.

use super::{FamilyCoeffs, HwModel, memory};
use crate::cost::Hardware;
use crate::graph::{Graph, OpId};
use crate::ops::funcs::{self, FuncFamily};
use crate::traffic::GroupTraffic;
use crate::types::OpKind;

/// The chunks Inductor splits each of `rows` inner (contiguous-index) reductions of `length`
/// elements into on a GPU of `sms` SMs: torch 2.11's `reduction_split_factor` with
/// `inner_reduction`, 2,048 threads an SM and 8 warps a block. 1: not split.
pub fn inner_split(length: u64, rows: u64, sms: u64) -> u64 {
    const THREADS_PER_SM: u64 = 2048;
    const THREADS: u64 = 256;
    let (min_per_device, max_per_device) = (32 * sms * THREADS_PER_SM, 512 * sms * THREADS_PER_SM);
    if rows == 0 || rows >= 2 * sms || length <= 8192 {
        return 1;
    }
    let elements = length.saturating_mul(rows);
    let split_size = if elements <= min_per_device {
        32
    } else if elements < max_per_device {
        let target_blocks = sms * THREADS_PER_SM / (2 * THREADS);
        let blocks_per_output = target_blocks.div_ceil(rows);
        let tmp = length.div_ceil(THREADS * blocks_per_output);
        divisor_near(length, tmp, 30).map_or(tmp, |d| d.max(32))
    } else {
        divisor_near(length, 512, 50).unwrap_or(512)
    };
    length.div_ceil(split_size.saturating_mul(THREADS).max(1))
}

/// The divisor of `n` closest to `target` when it is less than `within` away, the smaller of
/// two as close: what torch takes of sympy's sorted `divisors` under Python's `min` (it uses
/// the closest divisor only that near). At most `2 · within` trial divisions, whatever `n`.
fn divisor_near(n: u64, target: u64, within: u64) -> Option<u64> {
    let lo = target.saturating_sub(within - 1).max(1);
    let hi = target.saturating_add(within - 1).min(n);
    (lo..=hi)
        .filter(|&d| n.is_multiple_of(d))
        .min_by_key(|&d| (d.abs_diff(target), d))
}

/// A group norm's groups over input `shape` (`[N, C, *spatial]`) in `groups` groups:
/// `(elements a group, groups in all, spatial elements)`; `None` on overflow or no groups.
fn group_dims(shape: &[u64], groups: u64) -> Option<(u64, u64, u64)> {
    let ([n, c, spatial @ ..], true) = (shape, groups > 0) else {
        return None;
    };
    let hw = spatial.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?;
    Some(((c / groups).checked_mul(hw)?, n.checked_mul(groups)?, hw))
}

/// The chunks Inductor splits each group of a group norm over input `shape` into
/// ([`inner_split`]); 1 when not split.
pub fn group_split(shape: &[u64], groups: u64, sms: u64) -> u64 {
    group_dims(shape, groups).map_or(1, |(length, rows, _)| inner_split(length, rows, sms))
}

/// Whether Inductor's split of a group norm's groups over input `shape` (`[N, C, *spatial]`)
/// into [`inner_split`]'s chunks straddles channels: split, and a chunk that is not a whole
/// number of channels.
pub fn straddles(shape: &[u64], groups: u64, sms: u64) -> bool {
    let Some((length, rows, hw)) = group_dims(shape, groups) else {
        return false;
    };
    let split = inner_split(length, rows, sms);
    hw > 0 && split > 1 && (!length.is_multiple_of(split) || !(length / split).is_multiple_of(hw))
}

/// Rows (pieces of a chunk) a program of the first kernel is taken to reduce: the Triton
/// config torch 2.11's autotuning picks where rows share sectors (gn_ncu: 32 rows a program).
const PROGRAM_ROWS: u64 = 32;
/// Programs an SM below which the split kernel is taken to run a row a program, so that no
/// rows share sectors: the small shapes of gn_probe whose rows could share ran slowly with
/// 180 and 360 programs of 32 rows (VALIDATION.md §45).
const MIN_PROGRAMS_PER_SM: u64 = 4;
/// The fewest sectors an element the kernel loads: gn_ncu's chains of four rows at the same
/// position loaded 0.38 and 0.41, where one sector per chain would be 0.25-0.28.
const SHARED_SECTOR_FLOOR: f64 = 0.4;
/// The longest chunk Inductor reduces in rows of 128 elements, two warps a program: the
/// probe and batch gn2 saw such rows up to chunks of 23,040 elements, and rows of 640-768
/// elements, one warp and one row a program, from 27,307 (VALIDATION.md §45), where no rows
/// share a sector. Taken midway.
const MAX_SHARED_CHUNK: u64 = 24_576;
/// Sectors an element, as priced, of a chunk shorter than a channel reduced with the groups
/// side by side where a group's channels at one position span more than a 32-byte sector
/// (over 16 channels a group): gn4's and gn2's 640- and 960-channel shapes ran at 0.59-0.71 of
/// a sector an element's price, the 320-channel ones (10 channels, 20 bytes) at the floor
/// (VALIDATION.md §45).
const SIDE_BY_SIDE_WIDE: f64 = 0.65;
/// Programs sampled, evenly over the kernel, by [`sectors_per_element`].
const SAMPLED_PROGRAMS: u64 = 4;

/// The 32-byte sectors Inductor's first kernel of a straddling group norm over a channels-last
/// input `shape` (`[N, C, *spatial]`, 2-byte elements) loads per element, between
/// [`SHARED_SECTOR_FLOOR`] and 1. Each chunk is reduced in rows (pieces) of at most 128
/// elements, a program reducing [`PROGRAM_ROWS`] consecutive rows, and a load takes the same
/// column of every row of the program: where rows `Δ` apart start `k` whole channels apart
/// (`k · H·W` a multiple of the row length, `Δ` under 32), their elements sit at the same
/// spatial position, in one sector, and the load shares it (gn_ncu: 0.56-0.59 sectors an
/// element at 48², 1.03 where no rows line up). Counted over [`SAMPLED_PROGRAMS`] programs
/// (at most 16,384 elements, whatever the shape); 1 with fewer than [`MIN_PROGRAMS_PER_SM`]
/// programs an SM, chunks over [`MAX_SHARED_CHUNK`] elements, or on overflow. A chunk
/// shorter than a channel (`H·W`) is reduced with the groups side by side: the floor where a
/// group's channels at a position fit in a sector, else [`SIDE_BY_SIDE_WIDE`].
pub fn sectors_per_element(shape: &[u64], groups: u64, sms: u64) -> f64 {
    sectors_of(shape, groups, sms).unwrap_or(1.0)
}

fn sectors_of(shape: &[u64], groups: u64, sms: u64) -> Option<f64> {
    let (length, rows, hw) = group_dims(shape, groups)?;
    let (n_c, cpg) = (u128::from(shape[1]), u128::from(shape[1] / groups));
    let split = inner_split(length, rows, sms);
    let chunk = length.div_ceil(split);
    let pieces = chunk.div_ceil(128).max(1);
    let row_len = chunk.div_ceil(pieces);
    let per_group = split.checked_mul(pieces)?;
    let all_rows = rows.checked_mul(per_group)?;
    if hw == 0 || chunk > MAX_SHARED_CHUNK {
        return None;
    }
    if chunk < hw {
        // A chunk within two channels: Inductor orders the rows with the group innermost, so
        // a program's rows are neighbouring groups at one position (gn_probe's 96² shapes at
        // 320 channels, 0.59-0.69 TB/s; VALIDATION.md §45).
        return Some(if cpg * 2 <= 32 {
            SHARED_SECTOR_FLOOR
        } else {
            SIDE_BY_SIDE_WIDE
        });
    }
    if all_rows / PROGRAM_ROWS < MIN_PROGRAMS_PER_SM.saturating_mul(sms) {
        return None;
    }
    let hw128 = u128::from(hw);
    let (mut sectors, mut elements) = (0u64, 0u64);
    let mut column = Vec::with_capacity(PROGRAM_ROWS as usize);
    for sample in 0..SAMPLED_PROGRAMS {
        let first = all_rows / PROGRAM_ROWS * sample / SAMPLED_PROGRAMS * PROGRAM_ROWS;
        for j in 0..row_len {
            column.clear();
            for row in first..first.saturating_add(PROGRAM_ROWS).min(all_rows) {
                let (group, rest) = (row / per_group, row % per_group);
                let (s, p) = (rest / pieces, rest % pieces);
                let at = p.checked_mul(row_len)?.checked_add(j)?;
                let f = s.checked_mul(chunk)?.checked_add(at)?;
                if at >= chunk || f >= length {
                    continue;
                }
                let (n, g) = (u128::from(group / groups), u128::from(group % groups));
                let (channel, position) = (u128::from(f) / hw128, u128::from(f) % hw128);
                let address = n
                    .checked_mul(hw128)?
                    .checked_add(position)?
                    .checked_mul(n_c)?
                    .checked_add(g * cpg + channel)?;
                column.push(address / 16);
            }
            elements += column.len() as u64;
            column.sort_unstable();
            column.dedup();
            sectors += column.len() as u64;
        }
    }
    (elements > 0).then(|| (sectors as f64 / elements as f64).max(SHARED_SECTOR_FLOOR))
}

/// The group norm op among `ops`.
fn group_norm_op<'g>(g: &'g Graph, ops: &[OpId]) -> Option<&'g crate::graph::OpNode> {
    ops.iter().map(|&o| g.op(o)).find(|op| {
        op.kind == OpKind::Reduction
            && funcs::family(op.func.as_deref().unwrap_or("")) == FuncFamily::GroupNorm
    })
}

/// The group norm among `ops`: its input's shape and its groups.
pub fn group_norm_of(g: &Graph, ops: &[OpId]) -> Option<(Vec<u64>, u64)> {
    let op = group_norm_op(g, ops)?;
    let shape = g.use_shape(op.inputs.first()?).to_vec();
    Some((shape, u64::try_from(op.int_attr("groups")?).ok()?))
}

/// The bytes of the group norm's input among `ops` (what its moments pass reduces).
fn group_norm_input_bytes(g: &Graph, ops: &[OpId]) -> Option<u64> {
    Some(g.use_bytes(group_norm_op(g, ops)?.inputs.first()?))
}

/// The CUDA kernels torch.compile runs for the group norm among `ops`: the partial moments,
/// two kernels that combine them and the apply when Inductor splits its groups
/// ([`group_split`]), else the moments and the apply (validation/gpu/models/gn_probe: 4 and
/// 2 kernels). `None` without a group norm.
pub fn group_norm_kernels(g: &Graph, ops: &[OpId], sms: u64) -> Option<usize> {
    let (shape, groups) = group_norm_of(g, ops)?;
    Some(if group_split(&shape, groups, sms) > 1 {
        4
    } else {
        2
    })
}

/// The CUDA kernels torch.compile runs for a softmax among `ops` whose rows Inductor
/// reduces in chunks ([`inner_split`]: fewer rows than twice the SMs, each longer than 8,192):
/// each of its two reductions (the row's max, the sum of its exponentials) as a kernel of
/// partial results and one combining them, then the normalisation: five. Measured (batch 3,
/// Llama-3-8B's compiled decode at batch 2 against 16,383 positions: 64 rows of 16,384):
/// `triton_red_fused__to_copy_amax`, `triton_per_fused__to_copy_amax`,
/// `triton_red_fused__softmax`, `triton_per_fused__softmax`, `triton_poi_fused__softmax`.
/// `None`: no such softmax.
pub fn split_softmax_kernels(g: &Graph, ops: &[OpId], sms: u64) -> Option<usize> {
    ops.iter().find_map(|&o| {
        let op = g.op(o);
        if op.kind != OpKind::Reduction
            || funcs::family(op.func.as_deref().unwrap_or("")) != FuncFamily::Softmax
        {
            return None;
        }
        let shape = g.use_shape(op.inputs.first()?);
        let (&length, rest) = shape.split_last()?;
        let rows = rest.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?;
        (inner_split(length, rows, sms) > 1).then_some(5)
    })
}

/// Whether Inductor runs `g` with its layout optimisation: a graph with a 2-D convolution
/// runs its convolutions channels-last, and what they feed is channels-last.
pub fn layout_optimised(g: &Graph) -> bool {
    g.topo.iter().any(|&o| {
        let op = g.op(o);
        op.kind == OpKind::Conv && op.inputs.first().is_some_and(|u| g.use_shape(u).len() == 4)
    })
}

impl HwModel {
    /// What Inductor's moments pass of the group norm among `ops` (a Triton kernel; its input
    /// channels-last) adds when its split straddles channels ([`straddles`]): the pass at
    /// `families.group_norm_strided` (the kernel's reads under `traffic` at `bandwidth ·
    /// bandwidth_efficiency`, plus `overhead_us`) less the streaming pass the Triton kernel
    /// is priced with (the `elementwise` family over [`super::kernel_elements`] with a block
    /// per group: `HwModel::norm_pool_kernel`), never below 0. `None` without the family or
    /// a straddling group norm.
    pub fn inductor_strided_moments_s(
        &self,
        g: &Graph,
        ops: &[OpId],
        traffic: &GroupTraffic,
        hw: &Hardware,
    ) -> Option<f64> {
        let strided: FamilyCoeffs = self.families.group_norm_strided?;
        let sms = u64::from(hw.sms.unwrap_or(132).max(1));
        let (shape, groups) = group_norm_of(g, ops)?;
        if !straddles(&shape, groups, sms) {
            return None;
        }
        let (read, elements) = (
            traffic.bytes_read as f64,
            super::kernel_elements(g, ops, traffic),
        );
        let (mem, compute) =
            memory::group_norm_moments(&self.families.elementwise, g, ops, read, elements, hw);
        let streaming = mem.max(compute);
        let sectors = sectors_per_element(&shape, groups, sms);
        // The strided walk is over the norm's input, a sector an element: the tensors an add
        // before it fuses in were written just before it and are read from L2 (SD's compiled
        // blocks: the first kernel of a norm fused with the residual add traced as long as
        // gn_probe's over the input alone; VALIDATION.md §49).
        let walked = group_norm_input_bytes(g, ops).map_or(read, |b| (b as f64).min(read));
        let slow = walked * sectors / (hw.bandwidth * strided.bandwidth_efficiency)
            + strided.overhead_us * 1e-6;
        Some((slow - streaming).max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_torch_2_11s() {
        // gn_probe's first kernels (xnumel = rows · split · pieces of 128): SD's shapes.
        assert_eq!(inner_split(40_960, 64, 132), 5); // 2 × 320 × 64²
        assert_eq!(inner_split(51_840, 64, 132), 7); // 2 × 320 × 72²
        assert_eq!(inner_split(92_160, 32, 132), 12); // 1 × 1,280 × 48²
        assert_eq!(inner_split(256_000, 64, 132), 10); // 2 × 1,280 × 80²: divisor 100
        assert_eq!(inner_split(62_720, 256, 132), 4); // 8 × 640 × 56²: divisor 80
        // Enough groups, or short ones: one pass.
        assert_eq!(inner_split(40_960, 264, 132), 1);
        assert_eq!(inner_split(8_192, 2, 132), 1);
        assert_eq!(inner_split(40_960, 0, 132), 1);
        // A group of 2^63 elements: split, in at most 100 trial divisions.
        assert_eq!(
            inner_split(1 << 63, 2, 132),
            (1u64 << 63).div_ceil(512 * 256)
        );
        assert_eq!(divisor_near(92_160, 72, 30), Some(72));
        assert_eq!(divisor_near(51_840, 81, 30), Some(81));
        assert_eq!(divisor_near(97, 40, 30), None);
    }

    #[test]
    fn rows_a_whole_number_of_channels_apart_share_sectors() {
        // gn_ncu (VALIDATION.md §45): rows 18 apart start a channel apart at 48² (2,304
        // positions, 18 rows of 128), so 28 of a program's 32 rows pair up: 0.5625 sectors an
        // element (0.59 measured).
        let s = |shape: &[u64]| sectors_per_element(shape, 32, 132);
        assert!((s(&[2, 1280, 48, 48]) - 0.5625).abs() < 1e-9);
        assert!((s(&[8, 640, 48, 48]) - 0.5625).abs() < 1e-9);
        // Rows 8 apart at 32²: chains of four, at the floor (0.38 measured).
        assert_eq!(s(&[8, 1280, 32, 32]), SHARED_SECTOR_FLOOR);
        // No rows line up at 72² or 56² (rows of 127): a sector an element (1.03 measured).
        assert_eq!(s(&[2, 320, 72, 72]), 1.0);
        assert_eq!(s(&[4, 640, 56, 56]), 1.0);
        assert_eq!(s(&[1, 1280, 56, 56]), 1.0);
        // Chunks of 30,720 elements (3 × 2,560 × 48²): rows of 640, none shared (gn2).
        assert_eq!(s(&[3, 2560, 48, 48]), 1.0);
        assert!((s(&[2, 2560, 48, 48]) - 0.5625).abs() < 1e-9); // chunks of 20,480
        // Chunks of 7,680 elements in channels of 9,216: the groups side by side, the floor.
        assert_eq!(s(&[2, 320, 96, 96]), SHARED_SECTOR_FLOOR);
        assert_eq!(s(&[1, 320, 96, 96]), SHARED_SECTOR_FLOOR);
        assert_eq!(s(&[1, 640, 100, 100]), SIDE_BY_SIDE_WIDE); // 20 channels a group
        // Too few programs to fill the GPU (180 of 32 rows): taken a row a program.
        assert_eq!(s(&[1, 320, 48, 48]), 1.0);
        // Overflow and degenerate shapes: a sector an element, no panic.
        assert_eq!(s(&[u64::MAX, 320, 1 << 31, 1 << 31]), 1.0);
        assert_eq!(sectors_per_element(&[2, 320, 72, 72], 0, 132), 1.0);
        assert_eq!(s(&[2, 320]), 1.0);
    }

    #[test]
    fn a_chunk_of_whole_channels_does_not_straddle() {
        assert!(!straddles(&[2, 320, 64, 64], 32, 132)); // 5 chunks of 2 channels
        assert!(straddles(&[2, 320, 72, 72], 32, 132)); // 7 chunks of 7,405.7 elements
        assert_eq!(group_split(&[2, 320, 72, 72], 32, 132), 7);
        assert_eq!(group_split(&[8, 320, 16, 16], 32, 132), 1);
        assert_eq!(group_split(&[2, 320], 0, 132), 1);
        assert!(straddles(&[2, 320, 56, 56], 32, 132)); // 4 chunks of 2.5 channels
        assert!(!straddles(&[8, 320, 64, 64], 33, 132)); // 264 groups: not split
        assert!(!straddles(&[2, 320], 32, 132)); // no spatial extent: not split
        assert!(!straddles(&[u64::MAX, u64::MAX, 2, 2], 1, 132));
    }
}
