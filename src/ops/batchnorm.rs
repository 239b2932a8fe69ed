//! PyTorch's inference batch norm (`elementwise.batchnorm`, as `fgraph emit torch` writes it:
//! `F.batch_norm(..., training=False)`): which kernels it runs, by the dtypes of its input and
//! statistics and by the layout its input is stored in. The runtimes count its kernels and
//! the hardware model prices its own by these (VALIDATION.md §35; measured with
//! `validation/gpu/models/bn_probe/bn_probe.py` on an H100, PyTorch 2.11, cuDNN 9.19).
//!
//! - A half input with f32 statistics, or an f32 input, runs cuDNN's one kernel
//!   (`bn_fw_inf_1C11_kernel_NHWC` / `_NCHW`), given a weight and a bias and fewer than 2^31
//!   elements (`_batch_norm_impl_index`'s `use_cudnn`).
//! - Otherwise (bf16, half with half statistics, no weight or bias) PyTorch's own
//!   (`batch_norm_cuda_out`):
//!   `save_mean.copy_(running_mean)` (a cast kernel, or a device-to-device memcpy when the mean
//!   is f32 already), `batch_norm_calc_invstd`, then the transform.

use super::funcs;
use crate::graph::{Graph, OpId, TensorId};
use crate::types::{Dtype, OpKind};

/// How far [`stored_channels_last`] follows elementwise producers back.
const LAYOUT_WALK: usize = 64;

/// Whether tensor `t` is stored channels-last as PyTorch would hold it: written by an op
/// that states `channels_last = true` (a conv, a pool), or by an elementwise op of its own
/// shape whose first input is (elementwise kernels keep their input's memory format). The
/// walk stops after [`LAYOUT_WALK`] ops: a longer chain counts as contiguous.
pub fn stored_channels_last(g: &Graph, t: TensorId) -> bool {
    let mut t = t;
    for _ in 0..LAYOUT_WALK {
        let Some(o) = g.producer(t) else {
            return false;
        };
        let op = g.op(o);
        if op.int_attr("channels_last") == Some(1) {
            return true;
        }
        match op.inputs.first() {
            Some(u) if op.kind == OpKind::Elementwise && g.use_shape(u) == g.tensor(t).shape => {
                t = u.tensor;
            }
            _ => return false,
        }
    }
    false
}

/// Who runs batch norm `o`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runner {
    /// PyTorch's own kernels, after two on the statistics: the mean's copy to f32 (`cast`:
    /// a kernel; else a device-to-device memcpy, no kernel) and the inverse standard
    /// deviation. `channels` values of `bytes` each.
    Native {
        channels: u64,
        bytes: u64,
        cast: bool,
    },
    /// cuDNN's one inference kernel.
    Cudnn,
}

/// How PyTorch runs batch norm `o`, when it is `F.batch_norm` over an input of rank 2 or
/// more whose mean, variance, weight and bias are per-channel (C elements each); `None` for
/// any other op (or a batch norm `emit torch` writes as its elementwise formula).
pub fn runner(g: &Graph, o: OpId) -> Option<Runner> {
    let op = g.op(o);
    if op.kind != OpKind::Elementwise
        || !op
            .func
            .as_deref()
            .is_some_and(|f| funcs::is(f, "batchnorm"))
        || !op.scalars().is_empty()
    {
        return None;
    }
    let (x, params) = op.inputs.split_first()?;
    let channels = *g.use_shape(x).get(1)?;
    let per_channel = params.iter().all(|u| {
        g.use_shape(u)
            .iter()
            .try_fold(1u64, |a, &d| a.checked_mul(d))
            == Some(channels)
    });
    if !per_channel {
        return None;
    }
    let input = g.tensor(x.tensor).dtype;
    let dtype = |i: usize| params.get(i).map(|u| g.tensor(u.tensor).dtype);
    let mean = dtype(0)?;
    // `_batch_norm_impl_index`'s `use_cudnn`: a weight and a bias, neither input nor weight
    // bf16, a half input only with an f32 weight, fewer than 2^31 elements.
    let elements = g
        .use_shape(x)
        .iter()
        .try_fold(1u64, |a, &d| a.checked_mul(d));
    let cudnn = match (dtype(2), dtype(3)) {
        (Some(w), Some(_)) => {
            input != Dtype::Bf16
                && w != Dtype::Bf16
                && (input != Dtype::F16 || w == Dtype::F32)
                && elements.is_some_and(|n| n < i32::MAX as u64)
        }
        _ => false,
    };
    Some(if cudnn {
        Runner::Cudnn
    } else {
        Runner::Native {
            channels,
            bytes: mean.bytes(),
            cast: mean != Dtype::F32,
        }
    })
}
