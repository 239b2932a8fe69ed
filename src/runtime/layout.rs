//! Strided layouts, as PyTorch keeps them: which layout ops are views and which must copy,
//! and which operands a matmul copies before cuBLAS runs it.
//!
//! A tensor's layout is its sizes and one stride per dimension (elements, never negative;
//! 0 for a broadcast dimension). The rules are PyTorch's own (ATen, `c10`):
//!
//! - `permute`, `.T`, `t[i]`, `slice` and `expand` are always views: they only change
//!   strides (`slice` multiplies the stride by its step; `expand` gives new and size-1
//!   dimensions stride 0).
//! - `reshape` is a view when `computeStride` (`aten/src/ATen/TensorUtils.cpp`) finds
//!   strides for the new shape: each run of dimensions merged or split must be contiguous
//!   within itself ([`Layout::view`]); otherwise it copies into a contiguous tensor.
//! - `torch.matmul` (`_matmul_impl`, `aten/src/ATen/native/LinearAlgebra.cpp`) folds an
//!   activation of rank 3 or more times a matrix into one `mm` when its leading dimensions
//!   chain (`should_fold`); otherwise it broadcasts the batch dimensions with `expand` and
//!   `reshape`s each operand to `[batch, rows, cols]`, which copies an operand whose batch
//!   dimensions do not merge (an expanded one among them: grouped-query attention by
//!   broadcast). cuBLAS then takes each matrix as it is when one of its two strides is 1
//!   (a transposed operand costs nothing) and copies it otherwise
//!   (`prepare_matrix_for_cublas`, `prepare_batch_matrix_for_cublas` in `Blas.cpp`).
//!   [`matmul_copies`] says which operands are copied, and why.
//! - An elementwise kernel (`TensorIterator`) reads any strides and writes its output in
//!   the dimension order of its first operand that has the output's shape and is dense
//!   ([`Layout::dense_like`]).

/// A tensor's sizes and strides, in elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub sizes: Vec<u64>,
    pub strides: Vec<u64>,
}

/// Why PyTorch copies an operand before a kernel reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CopyReason {
    /// A `reshape` whose input's strides admit no view (a permuted or expanded tensor).
    Reshape,
    /// `torch.matmul` broadcasts an operand's batch dimensions (`expand` then `reshape`).
    Broadcast,
    /// `torch.matmul` flattens an operand's batch dimensions, which do not merge.
    BatchLayout,
    /// cuBLAS needs a unit stride in one of a matrix's two dimensions.
    MatrixLayout,
    /// A row-wise kernel (softmax, a norm) makes its input contiguous.
    Contiguous,
    /// Inductor runs a 16-bit batched matmul of one row per batch in f32: an operand cast
    /// to f32 first, or the result cast back (`compile`'s rule 5).
    Upcast,
    /// Inductor pads a misaligned matmul operand (`compile`'s rule 6).
    Pad,
    /// cuBLAS takes a matmul's bias it cannot add in its epilogue (a product with K or N of
    /// 1) as the output's starting value: the bias copied to every row first.
    Bias,
}

impl CopyReason {
    pub fn as_str(self) -> &'static str {
        match self {
            CopyReason::Reshape => "reshape",
            CopyReason::Broadcast => "broadcast",
            CopyReason::BatchLayout => "batch-layout",
            CopyReason::MatrixLayout => "matrix-layout",
            CopyReason::Contiguous => "contiguous",
            CopyReason::Upcast => "upcast",
            CopyReason::Pad => "pad",
            CopyReason::Bias => "bias",
        }
    }
    /// The reason in words, for the report.
    pub fn describe(self) -> &'static str {
        match self {
            CopyReason::Reshape => "a reshape its input's strides admit no view of",
            CopyReason::Broadcast => "matmul broadcasts its batch dimensions",
            CopyReason::BatchLayout => "matmul flattens batch dimensions that do not merge",
            CopyReason::MatrixLayout => "cuBLAS needs a unit stride in one matrix dimension",
            CopyReason::Contiguous => "the row-wise kernel makes its input contiguous",
            CopyReason::Upcast => {
                "Inductor runs a one-row batched matmul in f32 (a cast to f32, or back)"
            }
            CopyReason::Pad => "Inductor pads a misaligned matmul operand (pad_mm)",
            CopyReason::Bias => {
                "cuBLAS starts from the bias copied to every row (a product with K or N of 1)"
            }
        }
    }
}

impl Layout {
    /// The contiguous (row-major) layout of `sizes`.
    pub fn contiguous(sizes: &[u64]) -> Layout {
        let mut strides = vec![0u64; sizes.len()];
        let mut acc = 1u64;
        for (i, &s) in sizes.iter().enumerate().rev() {
            strides[i] = acc;
            acc = acc.saturating_mul(s.max(1));
        }
        Layout {
            sizes: sizes.to_vec(),
            strides,
        }
    }

    /// `sizes` (`[N, C, *spatial]`) held channels-last (`torch.channels_last`): C innermost,
    /// then the spatial dimensions, N outermost. Contiguous below rank 3.
    pub fn channels_last(sizes: &[u64]) -> Layout {
        let r = sizes.len();
        if r < 3 {
            return Layout::contiguous(sizes);
        }
        // Physical order [N, *spatial, C]; logical dimension i is physical dims[i].
        let mut physical = vec![sizes[0]];
        physical.extend_from_slice(&sizes[2..]);
        physical.push(sizes[1]);
        let mut dims = vec![0i64, r as i64 - 1];
        dims.extend(1..r as i64 - 1);
        Layout::contiguous(&physical)
            .permute(&dims)
            .unwrap_or_else(|| Layout::contiguous(sizes))
    }

    pub fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// Elements of the tensor (saturating: a checked graph's counts fit 64 bits).
    pub fn elements(&self) -> u64 {
        self.sizes.iter().fold(1u64, |a, &s| a.saturating_mul(s))
    }

    /// Distinct elements the layout addresses: a broadcast (stride 0) dimension counts once.
    pub fn distinct_elements(&self) -> u64 {
        self.sizes
            .iter()
            .zip(&self.strides)
            .filter(|&(&s, &st)| st != 0 || s <= 1)
            .fold(1u64, |a, (&s, _)| a.saturating_mul(s))
    }

    /// PyTorch's `is_contiguous`: every dimension of size more than 1 has the row-major
    /// stride (size-1 dimensions are ignored; an empty tensor is contiguous).
    pub fn is_contiguous(&self) -> bool {
        if self.sizes.contains(&0) {
            return true;
        }
        let mut expected = 1u64;
        for (&s, &st) in self.sizes.iter().zip(&self.strides).rev() {
            if s != 1 {
                if st != expected {
                    return false;
                }
                expected = expected.saturating_mul(s);
            }
        }
        true
    }

    /// Whether the layout is a permutation of a contiguous one (non-overlapping and dense):
    /// sorted by stride, each dimension's stride is the product of the sizes inside it.
    pub fn is_dense(&self) -> bool {
        let mut dims: Vec<usize> = (0..self.rank()).filter(|&d| self.sizes[d] != 1).collect();
        dims.sort_by_key(|&d| self.strides[d]);
        let mut expected = 1u64;
        for d in dims {
            if self.strides[d] != expected {
                return false;
            }
            expected = expected.saturating_mul(self.sizes[d]);
        }
        true
    }

    /// Whether the innermost dimension (of size more than 1) has stride 1: a copy of such a
    /// layout moves contiguous runs; otherwise it transposes.
    pub fn innermost_unit(&self) -> bool {
        match self.sizes.iter().rposition(|&s| s != 1) {
            Some(d) => self.strides[d] == 1,
            None => true,
        }
    }

    /// A copy of this layout into a contiguous one: `None` when it moves contiguous runs
    /// ([`Layout::innermost_unit`]), else the elements of one transposed tile, the innermost
    /// output dimensions from the one that is contiguous in the source (stride 1) inwards
    /// (Kᵀ `[B, H, D, T]` read from `[B, H, T, D]`: `D·T`); the whole tensor when no
    /// dimension is contiguous in the source.
    pub fn transposed_tile(&self) -> Option<u64> {
        if self.innermost_unit() {
            return None;
        }
        let from = (0..self.rank())
            .rev()
            .find(|&d| self.sizes[d] != 1 && self.strides[d] == 1)
            .unwrap_or(0);
        Some(
            self.sizes[from..]
                .iter()
                .fold(1u64, |a, &s| a.saturating_mul(s)),
        )
    }

    /// `permute(dims)`: output dimension `i` is input dimension `dims[i]` (negative counts
    /// from the end). `None` when `dims` is not a permutation of the dimensions.
    pub fn permute(&self, dims: &[i64]) -> Option<Layout> {
        let r = self.rank();
        if dims.len() != r {
            return None;
        }
        let mut seen = vec![false; r];
        let mut out = Layout {
            sizes: Vec::with_capacity(r),
            strides: Vec::with_capacity(r),
        };
        for &d in dims {
            let d = axis(d, r)?;
            if std::mem::replace(&mut seen[d], true) {
                return None;
            }
            out.sizes.push(self.sizes[d]);
            out.strides.push(self.strides[d]);
        }
        Some(out)
    }

    /// `.T`: the last two dimensions swapped (a no-op below rank 2).
    pub fn transpose_last(&self) -> Layout {
        let mut out = self.clone();
        let r = out.rank();
        if r >= 2 {
            out.sizes.swap(r - 1, r - 2);
            out.strides.swap(r - 1, r - 2);
        }
        out
    }

    /// `t[i]`: the leading dimension dropped.
    pub fn index_leading(&self) -> Layout {
        Layout {
            sizes: self.sizes.iter().skip(1).copied().collect(),
            strides: self.strides.iter().skip(1).copied().collect(),
        }
    }

    /// A slice along `axis` keeping `size` elements `step` apart.
    pub fn slice(&self, axis_: i64, step: u64, size: u64) -> Option<Layout> {
        let d = axis(axis_, self.rank())?;
        let mut out = self.clone();
        out.sizes[d] = size;
        out.strides[d] = self.strides[d].checked_mul(step.max(1))?;
        Some(out)
    }

    /// `expand(to)`: numpy broadcasting, aligned on the right; new leading dimensions and
    /// expanded size-1 dimensions get stride 0. `None` when `to` is no broadcast of the
    /// sizes.
    pub fn expand(&self, to: &[u64]) -> Option<Layout> {
        let r = self.rank();
        if to.len() < r {
            return None;
        }
        let lead = to.len() - r;
        let mut strides = vec![0u64; to.len()];
        for (i, &t) in to.iter().enumerate().skip(lead) {
            let (s, st) = (self.sizes[i - lead], self.strides[i - lead]);
            strides[i] = if s == t {
                st
            } else if s == 1 {
                0
            } else {
                return None;
            };
        }
        Some(Layout {
            sizes: to.to_vec(),
            strides,
        })
    }

    /// The view `reshape(to)` makes, or `None` when it must copy: PyTorch's `computeStride`.
    /// Walking from the last dimension, the input splits into chunks of dimensions that are
    /// contiguous within themselves; the new shape must split at chunk ends only.
    pub fn view(&self, to: &[u64]) -> Option<Layout> {
        let old_n = self.elements();
        let new_n = to.iter().try_fold(1u64, |a, &s| a.checked_mul(s))?;
        if old_n != new_n {
            return None;
        }
        if self.rank() == 0 || old_n == 0 {
            return Some(Layout::contiguous(to));
        }
        let (os, ost) = (&self.sizes, &self.strides);
        let mut strides = vec![0u64; to.len()];
        let mut view_d = to.len() as i64 - 1;
        let mut chunk_base = *ost.last()?;
        let (mut tensor_numel, mut view_numel) = (1u64, 1u64);
        for d in (0..os.len()).rev() {
            tensor_numel = tensor_numel.checked_mul(os[d])?;
            let chunk_end = d == 0
                || (os[d - 1] != 1 && Some(ost[d - 1]) != tensor_numel.checked_mul(chunk_base));
            if chunk_end {
                while view_d >= 0 && (view_numel < tensor_numel || to[view_d as usize] == 1) {
                    strides[view_d as usize] = view_numel.checked_mul(chunk_base)?;
                    view_numel = view_numel.checked_mul(to[view_d as usize])?;
                    view_d -= 1;
                }
                if view_numel != tensor_numel {
                    return None;
                }
                if d > 0 {
                    chunk_base = ost[d - 1];
                    tensor_numel = 1;
                    view_numel = 1;
                }
            }
        }
        if view_d != -1 {
            return None;
        }
        Some(Layout {
            sizes: to.to_vec(),
            strides,
        })
    }

    /// A dense layout of `sizes` in this layout's dimension order (outermost first by stride),
    /// what `TensorIterator` gives the output of an elementwise op whose first full-size
    /// operand is this one. Contiguous when the ranks differ.
    pub fn dense_like(&self, sizes: &[u64]) -> Layout {
        if sizes.len() != self.rank() {
            return Layout::contiguous(sizes);
        }
        // Innermost first: by stride, ties (size-1 dims) by position from the end.
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        order.sort_by(|&a, &b| {
            self.strides[a]
                .cmp(&self.strides[b])
                .then_with(|| b.cmp(&a))
        });
        let mut strides = vec![0u64; sizes.len()];
        let mut acc = 1u64;
        for d in order {
            strides[d] = acc;
            acc = acc.saturating_mul(sizes[d].max(1));
        }
        Layout {
            sizes: sizes.to_vec(),
            strides,
        }
    }
}

/// A dimension `d` of a rank-`r` tensor (negative counts from the end).
fn axis(d: i64, r: usize) -> Option<usize> {
    let r = i64::try_from(r).ok()?;
    let d = if d < 0 { d + r } else { d };
    (0..r).contains(&d).then_some(d as usize)
}

/// Whether cuBLAS takes the matrix made of the last two dimensions of `l` as it is: one of
/// its strides is 1 and the other at least the extent it steps over (a size-1 dimension's
/// stride does not matter).
fn blas_ok(l: &Layout) -> bool {
    let r = l.rank();
    if r < 2 {
        return true;
    }
    let (rows, cols) = (l.sizes[r - 2], l.sizes[r - 1]);
    let (rs, cs) = (l.strides[r - 2], l.strides[r - 1]);
    let row_major = (cs == 1 || cols == 1) && (rows == 1 || rs >= cols.max(1));
    let col_major = (rs == 1 || rows == 1) && (cols == 1 || cs >= rows.max(1));
    row_major || col_major
}

/// The copies `torch.matmul(a, b)` makes of its operands (as read: views applied), each with
/// its reason, or `None` for an operand it reads in place. `a` and `b` have rank 2 or more.
pub fn matmul_copies(a: &Layout, b: &Layout) -> [Option<CopyReason>; 2] {
    let (da, db) = (a.rank(), b.rank());
    if da < 2 || db < 2 {
        return [None, None];
    }
    if da == 2 && db == 2 {
        return [
            (!blas_ok(a)).then_some(CopyReason::MatrixLayout),
            (!blas_ok(b)).then_some(CopyReason::MatrixLayout),
        ];
    }
    // An operand of rank 3 or more times a matrix: folded into one `mm` when its leading
    // dimensions chain (`should_fold`; PyTorch does not fold a matrix times a batch).
    if da >= 3 && db == 2 {
        let r = da;
        let chains = (0..r - 2).all(|i| {
            a.sizes[i + 1]
                .checked_mul(a.strides[i + 1])
                .is_some_and(|x| x == a.strides[i])
        });
        if chains {
            let folded = Layout {
                sizes: vec![
                    a.sizes[..r - 1]
                        .iter()
                        .fold(1u64, |x, &s| x.saturating_mul(s)),
                    a.sizes[r - 1],
                ],
                strides: vec![a.strides[r - 2], a.strides[r - 1]],
            };
            return [
                (!blas_ok(&folded)).then_some(CopyReason::MatrixLayout),
                (!blas_ok(b)).then_some(CopyReason::MatrixLayout),
            ];
        }
    }
    // Batched: broadcast the batch dimensions, flatten them into one (`expand` + `reshape`),
    // then `bmm`.
    let batch_a = &a.sizes[..da - 2];
    let batch_b = &b.sizes[..db - 2];
    let Some(batch) = broadcast(batch_a, batch_b) else {
        return [None, None];
    };
    let one = |l: &Layout| -> Option<CopyReason> {
        let r = l.rank();
        let mut to = batch.clone();
        to.extend_from_slice(&l.sizes[r - 2..]);
        let Some(expanded) = l.expand(&to) else {
            return Some(CopyReason::Broadcast);
        };
        let flat_batch = batch.iter().fold(1u64, |x, &s| x.saturating_mul(s));
        let flat = [flat_batch, l.sizes[r - 2], l.sizes[r - 1]];
        match expanded.view(&flat) {
            Some(v) => (!blas_ok(&v)).then_some(CopyReason::MatrixLayout),
            None if l.sizes[..r - 2] != batch[..] => Some(CopyReason::Broadcast),
            None => Some(CopyReason::BatchLayout),
        }
    };
    [one(a), one(b)]
}

/// The numpy broadcast of two shapes, `None` when they do not broadcast.
fn broadcast(a: &[u64], b: &[u64]) -> Option<Vec<u64>> {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| {
            let x = (i + a.len()).checked_sub(n).map_or(1, |j| a[j]);
            let y = (i + b.len()).checked_sub(n).map_or(1, |j| b[j]);
            match (x, y) {
                (x, y) if x == y => Some(x),
                (1, y) => Some(y),
                (x, 1) => Some(x),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(sizes: &[u64], strides: &[u64]) -> Layout {
        Layout {
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
        }
    }

    #[test]
    fn a_reshape_of_a_contiguous_tensor_is_a_view() {
        let c = Layout::contiguous(&[2048, 4096]);
        assert_eq!(c.strides, [4096, 1]);
        let v = c.view(&[2048, 32, 128]).expect("view");
        assert_eq!(v.strides, [4096, 128, 1]);
        assert!(v.is_contiguous());
        // And back, and with size-1 dimensions inserted anywhere.
        assert!(v.view(&[2048, 4096]).is_some());
        assert_eq!(
            c.view(&[1, 2048, 1, 4096]).expect("view").strides,
            [8388608, 4096, 4096, 1]
        );
    }

    #[test]
    fn a_reshape_of_a_permuted_tensor_merging_the_permuted_dims_copies() {
        // [T, NH, HD] permuted to [NH, T, HD] (the heads), merged back to [T, NH * HD]:
        // a view of the permute, then a copy (the head merge of attention).
        let ah = Layout::contiguous(&[16, 1024, 128]);
        let at = ah.permute(&[1, 0, 2]).expect("permute");
        assert_eq!(at.strides, [128, 131072, 1]);
        assert!(!at.is_contiguous() && at.is_dense());
        assert_eq!(at.view(&[1024, 2048]), None);
        // Splitting a dimension of a permuted tensor is still a view.
        let qh = Layout::contiguous(&[1024, 16, 128])
            .permute(&[1, 0, 2])
            .expect("permute");
        assert!(qh.view(&[4, 4, 1024, 128]).is_some());
        assert!(qh.view(&[16, 1, 1024, 128]).is_some());
    }

    #[test]
    fn a_reshape_of_an_expanded_tensor_copies_unless_the_expanded_dim_is_outermost() {
        // repeat_kv: [NKV, T, HD] -> [NKV, 1, T, HD] -> expand [NKV, G, T, HD] -> [NH, T, HD].
        let k = Layout::contiguous(&[4, 1024, 128]);
        let k4 = k.view(&[4, 1, 1024, 128]).expect("unsqueeze");
        let k5 = k4.expand(&[4, 4, 1024, 128]).expect("expand");
        assert_eq!(k5.strides, [131072, 0, 128, 1]);
        assert_eq!(k5.distinct_elements(), k.elements());
        assert_eq!(k5.view(&[16, 1024, 128]), None);
        // One KV head: nothing to merge the expanded dimension with.
        let one = Layout::contiguous(&[1, 1, 1024, 128])
            .expand(&[1, 4, 1024, 128])
            .expect("expand");
        assert!(one.view(&[4, 1024, 128]).is_some());
    }

    #[test]
    fn slices_permutes_and_transposes_are_views_with_their_strides() {
        let t = Layout::contiguous(&[8, 1024, 128]);
        let hi = t.slice(-1, 1, 64).expect("slice");
        assert_eq!(
            (hi.sizes.clone(), hi.strides.clone()),
            (vec![8, 1024, 64], vec![131072, 128, 1])
        );
        assert!(!hi.is_contiguous() && !hi.is_dense());
        let every_other = t.slice(1, 2, 512).expect("slice");
        assert_eq!(every_other.strides, [131072, 256, 1]);
        assert_eq!(t.transpose_last().strides, [131072, 1, 128]);
        // Kᵀ of `[8, 1024, 128]`: a tile of 128 × 1,024 elements per leading index.
        assert_eq!(t.transpose_last().transposed_tile(), Some(128 * 1024));
        assert_eq!(t.transposed_tile(), None);
        // A permute that keeps the innermost axis moves runs: no tile.
        assert_eq!(
            t.permute(&[1, 0, 2]).expect("permute").transposed_tile(),
            None
        );
        assert_eq!(t.index_leading().strides, [128, 1]);
        assert_eq!(t.permute(&[0, 0, 1]), None);
        assert_eq!(t.slice(3, 1, 1), None);
        assert_eq!(t.expand(&[8, 2, 128]), None);
    }

    #[test]
    fn elementwise_outputs_follow_their_first_dense_operand() {
        let p = Layout::contiguous(&[1024, 16, 128])
            .permute(&[1, 0, 2])
            .expect("permute");
        let out = p.dense_like(&[16, 1024, 128]);
        assert_eq!(out.strides, p.strides);
        assert_eq!(
            Layout::contiguous(&[3, 4]).dense_like(&[3, 4]).strides,
            [4, 1]
        );
    }

    #[test]
    fn a_transposed_operand_costs_matmul_nothing() {
        let a = Layout::contiguous(&[1024, 4096]);
        let w = Layout::contiguous(&[4096, 1024]);
        assert_eq!(matmul_copies(&a, &w), [None, None]);
        assert_eq!(
            matmul_copies(&a, &w.transpose_last().transpose_last()),
            [None, None]
        );
        let wt = Layout::contiguous(&[1024, 4096]).transpose_last();
        assert_eq!(matmul_copies(&a, &wt), [None, None]);
        // Q·Kᵀ over heads, both permuted views of [T, NH, HD] projections: bmm takes any
        // batch stride.
        let q = Layout::contiguous(&[1024, 16, 128])
            .permute(&[1, 0, 2])
            .expect("permute");
        assert_eq!(matmul_copies(&q, &q.transpose_last()), [None, None]);
        // A matrix with no unit stride (every other column) is copied.
        let strided = Layout::contiguous(&[64, 128])
            .slice(1, 2, 64)
            .expect("slice");
        assert_eq!(
            matmul_copies(&strided, &Layout::contiguous(&[64, 64])),
            [Some(CopyReason::MatrixLayout), None]
        );
    }

    #[test]
    fn matmul_copies_a_broadcast_operand_and_batch_dims_that_do_not_merge() {
        // Grouped-query attention by broadcast: q [NKV, G, S, D] against k [NKV, 1, S, D].
        let q = Layout::contiguous(&[8, 4, 2048, 128]);
        let k = Layout::contiguous(&[8, 1, 2048, 128]);
        assert_eq!(
            matmul_copies(&q, &k.transpose_last()),
            [None, Some(CopyReason::Broadcast)]
        );
        // [B, S, NH, D] permuted to [B, NH, S, D] with B > 1: B and NH do not merge.
        let qb = Layout::contiguous(&[8, 197, 12, 64])
            .permute(&[0, 2, 1, 3])
            .expect("permute");
        assert_eq!(
            matmul_copies(&qb, &qb.transpose_last()),
            [Some(CopyReason::BatchLayout), Some(CopyReason::BatchLayout)]
        );
        // With B = 1 (or S = 1, a decode step) they merge.
        let q1 = Layout::contiguous(&[1, 2048, 32, 128])
            .permute(&[0, 2, 1, 3])
            .expect("permute");
        assert_eq!(matmul_copies(&q1, &q1.transpose_last()), [None, None]);
        let qd = Layout::contiguous(&[16, 1, 32, 128])
            .permute(&[0, 2, 1, 3])
            .expect("permute");
        assert_eq!(matmul_copies(&qd, &qd.transpose_last()), [None, None]);
    }

    #[test]
    fn an_activation_times_a_weight_folds_into_one_gemm_when_its_dims_chain() {
        let w = Layout::contiguous(&[4096, 1024]);
        let x = Layout::contiguous(&[4, 512, 4096]);
        assert_eq!(matmul_copies(&x, &w), [None, None]);
        // A permuted activation does not fold; bmm then reads it with the weight broadcast
        // (stride 0), no copy.
        let xp = Layout::contiguous(&[512, 4, 4096])
            .permute(&[1, 0, 2])
            .expect("permute");
        assert_eq!(matmul_copies(&xp, &w), [None, None]);
        // A head merge read straight by the projection without a reshape.
        let m = Layout::contiguous(&[4, 16, 512, 64])
            .permute(&[0, 2, 1, 3])
            .expect("permute");
        assert_eq!(
            matmul_copies(&m, &Layout::contiguous(&[64, 1024])),
            [Some(CopyReason::BatchLayout), None]
        );
        // A matrix times a batch of matrices: the matrix is broadcast with stride 0.
        let b = Layout::contiguous(&[4, 4096, 1024]);
        assert_eq!(
            matmul_copies(&Layout::contiguous(&[512, 4096]), &b),
            [None, None]
        );
    }

    #[test]
    fn views_of_shapes_that_do_not_match_are_refused_without_panicking() {
        let c = Layout::contiguous(&[4, 6]);
        assert_eq!(c.view(&[5, 5]), None);
        assert_eq!(c.view(&[u64::MAX, 2]), None);
        assert!(Layout::contiguous(&[]).view(&[1, 1]).is_some());
        assert!(Layout::contiguous(&[0, 3]).view(&[3, 0]).is_some());
        assert_eq!(l(&[2, 3], &[3, 1]).view(&[6]).expect("view").strides, [1]);
    }
}
