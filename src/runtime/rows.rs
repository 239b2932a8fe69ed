//! Which of Inductor's row-wise Triton kernels run a row whole and which loop over it: the
//! seam's ([`super::seam`]) choice of the family a Triton norm, softmax or pool is priced at.
//! A persistent reduction (`triton_per_*`, rows of at most [`PERSISTENT_ROW`]) streams its
//! rows once at the `elementwise` family's rates ([`triton_rows`]); a softmax over longer rows
//! is a looped reduction (`triton_red_*`, [`looped_softmax`]) at `families.softmax_looped` or
//! `softmax_looped_masked`, its rows in blocks of [`LOOPED_ROW_BLOCK`] ([`looped`]); and
//! whether a softmax's causal mask masks anything as `fgraph emit torch` writes it ([`masks`]).

use crate::cost::hwmodel::{self, HwModel};
use crate::graph::{Graph, OpId};

/// Rows of at most this many elements a Triton reduction holds whole (Inductor's persistent
/// reductions, `triton_per_fused_*`); longer rows loop (`triton_red_fused_*`).
pub(super) const PERSISTENT_ROW: u64 = 1024;

/// The columns of a row Inductor's looped softmax moves a block at a time (its `R0_BLOCK`): a
/// row of 2,304 costs as one of 4,096 (VALIDATION.md §50: the probe's masked softmax over 32
/// heads of 2,304 rows traced 870 µs, 2.4 times the 362 of rows of 2,048).
pub const LOOPED_ROW_BLOCK: u64 = 2048;

/// `model` pricing a softmax at `c`, its rows in blocks of [`LOOPED_ROW_BLOCK`], without
/// PyTorch's row-length scales, re-reads and warp latency.
pub(super) fn looped(model: &HwModel, c: hwmodel::FamilyCoeffs) -> HwModel {
    let mut m = model.clone();
    m.families.softmax = c;
    m.softmax_row_scale = Vec::new();
    m.softmax_reread = None;
    m.softmax_row_cols_per_s = None;
    m.softmax_row_block = Some(LOOPED_ROW_BLOCK);
    m
}

/// Whether a Triton kernel of `ops` (no matmul) holds a softmax over rows longer than
/// [`PERSISTENT_ROW`], Inductor's looped softmax: `Some(true)` when its causal mask masks
/// something (`masked_fill` first, as `fgraph emit torch` writes it: Inductor's online softmax,
/// `triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_*`), `Some(false)`
/// when not (`triton_red_fused__softmax__to_copy_amax_*`); `None` for any other kernel.
pub(super) fn looped_softmax(g: &Graph, ops: &[OpId]) -> Option<bool> {
    use crate::ops::funcs::{self, FuncFamily};
    let mut found = None;
    for &o in ops {
        let op = g.op(o);
        if op.kind.is_contraction() {
            return None;
        }
        if op.kind != crate::types::OpKind::Reduction
            || funcs::family(op.func.as_deref().unwrap_or("")) != FuncFamily::Softmax
        {
            continue;
        }
        if row_length(g, op) > PERSISTENT_ROW {
            found = Some(found == Some(true) || masks(g, o));
        }
    }
    found
}

/// Whether a Triton kernel of `ops` (no matmul) is a norm, or a softmax over rows Inductor
/// holds whole: one streaming pass, priced at the `elementwise` family's rates. Measured
/// (validation/gpu/models, compile traces): GPT-2 medium's residual add with its LayerNorm
/// over [4096, 1024] (`triton_per_fused_add_native_layer_norm`) in 10.6 µs, 3.2 TB/s, where
/// the `norm` family (PyTorch's kernels) says 23; its softmax over rows of 1,024
/// (`triton_per_fused__softmax`) in 92 µs for 268 MB; a softmax over rows of 2,048
/// (`triton_red_fused__softmax`, Llama-2's prefill) loops over its rows and is priced as
/// [`looped_softmax`] says. A pool (Inductor's lowering of `max_pool2d` and `avg_pool2d` into a
/// Triton loop over each window, or of a global average pool into a reduction) is priced
/// the same way: ResNet-50's stem batch norm, ReLU and 3×3/2 max pool at batch 32 ran as one
/// Triton kernel in 27.6 µs, where PyTorch's own max pool's rates say 108.
pub(super) fn triton_rows(g: &Graph, ops: &[OpId]) -> bool {
    use crate::ops::funcs::{self, FuncFamily};
    let mut any = false;
    for &o in ops {
        let op = g.op(o);
        if op.kind == crate::types::OpKind::Matmul {
            return false;
        }
        if crate::ops::pool::is_pool(op.kind) {
            any = true;
            continue;
        }
        if op.kind != crate::types::OpKind::Reduction {
            continue;
        }
        match funcs::family(op.func.as_deref().unwrap_or("")) {
            FuncFamily::Norm | FuncFamily::GroupNorm => any = true,
            FuncFamily::Softmax => {
                if row_length(g, op) > PERSISTENT_ROW {
                    return false;
                }
                any = true;
            }
            _ => {}
        }
    }
    any
}

/// The length of the rows a softmax `op` reduces: its input's last extent (0 without one).
fn row_length(g: &Graph, op: &crate::graph::OpNode) -> u64 {
    op.inputs
        .first()
        .and_then(|u| g.use_shape(u).last().copied())
        .unwrap_or(0)
}

/// Whether softmax `o` masks anything (as `fgraph emit torch` writes it, `masked_fill` before
/// the softmax): a causal one, unless one query sees every key (decode without a window that
/// hides some of them).
pub(super) fn masks(g: &Graph, o: OpId) -> bool {
    use crate::ops::funcs;
    let op = g.op(o);
    if op.int_attr(funcs::CAUSAL.name) != Some(1) {
        return false;
    }
    let shape = op
        .inputs
        .first()
        .map(|u| g.use_shape(u))
        .unwrap_or_default();
    let r = shape.len();
    let (sq, sk) = match r {
        0 => (1, 1),
        1 => (1, shape[0]),
        _ => (shape[r - 2], shape[r - 1]),
    };
    let window = op.int_attr(funcs::WINDOW.name);
    !(sq <= 1 && window.is_none_or(|w| w as u64 >= sk))
}
