//! Which of PyTorch's own elementwise kernels a lone op runs as, where it is not the
//! vectorized `vectorized_elementwise_kernel` (part of [`super`]): a broadcast, a widening
//! cast or a copy of contiguous runs (`families.scalar`), a transpose (`families.layout_copy`),
//! a batch norm of a channels-last tensor, PyTorch's kernel or cuDNN's
//! ([`crate::ops::batchnorm`]), and `torch.cat` (`families.cat`). `memory.rs` prices them.

use crate::graph::{Graph, OpId};
use crate::ops::batchnorm;
use crate::types::OpKind;

/// PyTorch's own elementwise kernels that run at other rates than its vectorized
/// `vectorized_elementwise_kernel` ([`scalar_kernel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKernel {
    /// A broadcast, a widening cast or a copy of contiguous runs: `families.scalar`.
    Scalar,
    /// A transpose: `families.layout_copy`.
    LayoutCopy,
    /// Batch norm of a channels-last tensor (`batch_norm_transform_input_channels_last_kernel`):
    /// `families.batch_norm_channels_last`.
    BatchNormChannelsLast,
    /// cuDNN's batch norm of a channels-last tensor (`bn_fw_inf_1C11_kernel_NHWC`):
    /// `families.batch_norm_cudnn_channels_last`.
    BatchNormCudnnChannelsLast,
    /// `torch.cat` (`CatArrayBatchedCopy`): `families.cat`.
    Cat,
}

/// Which of PyTorch's non-vectorized elementwise kernels the kernel made of `ops` is, if any:
/// a lone permute that moves the innermost axis (a transpose: `layout_copy`), or a lone
/// reshape or other permute (a copy of contiguous runs), or a lone elementwise op that
/// broadcasts an input of more than one element (`x + b`, `b` of shape `[N]`:
/// `elementwise_kernel`) or casts to a wider type (f16 to f32: `unrolled_elementwise_kernel`),
/// all three `scalar`; or a batch norm of a channels-last tensor, PyTorch's own kernel; or a
/// lone concat, PyTorch's `torch.cat`.
pub fn scalar_kernel(g: &Graph, ops: &[OpId]) -> Option<ScalarKernel> {
    let [o] = ops else {
        return None;
    };
    let op = g.op(*o);
    match op.kind {
        // A permute that moves the innermost axis is a transpose (strided element by
        // element); one that keeps it, or a reshape that has to copy, copies runs of it.
        OpKind::Permute => {
            let dims = op.list_attr("dims").unwrap_or(&[]);
            let innermost = i64::try_from(dims.len()).ok()? - 1;
            Some(if dims.last() == Some(&innermost) {
                ScalarKernel::Scalar
            } else {
                ScalarKernel::LayoutCopy
            })
        }
        OpKind::Reshape => Some(ScalarKernel::Scalar),
        OpKind::Concat => Some(ScalarKernel::Cat),
        // A batch norm of a channels-last tensor: PyTorch's own vectorized kernel
        // (`batch_norm_transform_input_channels_last_kernel`) or cuDNN's
        // (`bn_fw_inf_1C11_kernel_NHWC`, slower). Contiguous (NCHW), either runs about at
        // the scalar family's rate (validation/gpu/models batch 12's traces of ResNet-50 at
        // batch 8: 53 of PyTorch's took 246 µs channels-last, 327 µs NCHW; `bn_probe/`).
        OpKind::Elementwise if let Some(k) = batch_norm_channels_last(g, *o) => Some(k),
        OpKind::Elementwise => {
            let out = g.tensor(op.output);
            op.inputs
                .iter()
                .any(|u| {
                    let t = g.tensor(u.tensor);
                    let shape = g.use_shape(u);
                    let elems = shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d));
                    (shape != out.shape && elems.is_some_and(|n| n > 1))
                        || t.dtype.bytes() < out.dtype.bytes()
                })
                .then_some(ScalarKernel::Scalar)
        }
        _ => None,
    }
}

/// The family of batch norm `o` alone when its input is stored channels-last (PyTorch's
/// kernel or cuDNN's, [`batchnorm::runner`]); `None` for any other op, or a contiguous input.
fn batch_norm_channels_last(g: &Graph, o: OpId) -> Option<ScalarKernel> {
    let runner = batchnorm::runner(g, o)?;
    let x = g.op(o).inputs.first()?;
    batchnorm::stored_channels_last(g, x.tensor).then_some(match runner {
        batchnorm::Runner::Cudnn => ScalarKernel::BatchNormCudnnChannelsLast,
        batchnorm::Runner::Native { .. } => ScalarKernel::BatchNormChannelsLast,
    })
}
