//! The `eager` runtime: PyTorch running the file op by op.
//!
//! Each op is one kernel (PyTorch's own, cuBLAS's, cuDNN's), priced as the hardware model
//! prices that op alone, except:
//!
//! - an op whose output is a view (`permute`, `slice`, `expand`, a `reshape` its input's
//!   strides admit a view of, a cast to its input's own dtype) launches nothing;
//! - a `reshape` that cannot be a view is a copy kernel;
//! - before an op, the copies PyTorch makes of its arguments: `torch.matmul`'s broadcast
//!   of an operand's batch, its flattening of batch dimensions that do not merge, cuBLAS's
//!   copy of a matrix without a unit stride ([`super::layout::matmul_copies`]), and the
//!   `.contiguous()` a softmax or a norm takes of a strided input. Elementwise kernels read
//!   any strides, and cuBLAS takes a transposed operand as it is: neither copies;
//! - a `concat` PyTorch's batched cat kernel does not take (more than 4 dimensions) is one
//!   copy per input, a kernel each but a memcpy between contiguous ranges ([`cat_by_copies`]);
//!   one of contiguous inputs whose slices align to 16 bytes runs the vectorized batched
//!   kernel, a streaming copy ([`vectorized_cat`]), any other the generic one (`families.cat`);
//! - a matmul's bias (`matmul(x, w, b)`, `F.linear`) is added in cuBLASLt's epilogue, one
//!   kernel, except after a GEMM of a strided input of rank 3 or more (an `add_` kernel), or
//!   copied to every row before a GEMM with K or N of 1;
//! - an attention's boolean mask is made additive first: two one-element fills and a `where`
//!   over the mask ([`What::Mask`](super::What::Mask)).
//!
//! Copies are priced as PyTorch's copy kernels ([`super::seam::Pricing::layout_copy`]).

use super::layout::{CopyReason, Layout, matmul_copies};
use super::seam::{CopyShape, Pricing, Runner};
use super::strides::{Rules, Strides};
use super::{Parts, RuntimeKernel, What};
use crate::analysis::Analysis;
use crate::cost::hwmodel::Prediction;
use crate::graph::{Graph, OpId, TensorUse};
use crate::ops::batchnorm;
use crate::ops::funcs::{self, FuncFamily};
use crate::traffic::Overflow;
use crate::types::OpKind;

pub(super) fn estimate(a: &Analysis, p: &Pricing<'_>) -> Result<Parts, Overflow> {
    let g = &a.graph;
    let s = Strides::of(g, Rules::Eager, &|_| false);
    // Every op alone (the unfused plan): the traffic of each.
    let plan = crate::fusion::unfused(g);
    let (traffic, _) = crate::traffic::plan_traffic(g, &plan)?;
    let mut kernels = Vec::new();
    let mut views = 0;
    for (k, &o) in g.topo.iter().enumerate() {
        let op = g.op(o);
        if s.is_view(o) {
            views += 1;
            continue;
        }
        if op.kind.is_layout() {
            // A reshape that must copy.
            if let Some(u) = op.inputs.first() {
                let from = s.of_use(g, u);
                kernels.push(RuntimeKernel {
                    ops: vec![o],
                    what: What::Copy {
                        tensor: u.tensor,
                        reader: None,
                        reason: CopyReason::Reshape,
                    },
                    prediction: p.layout_copy(&copy(g, u, &from, from.elements()), Runner::Eager),
                    launches: 1,
                });
            }
            continue;
        }
        let copies = argument_copies(g, o, &s);
        let copied = copies
            .iter()
            .any(|(_, r, _)| matches!(r, CopyReason::Broadcast));
        for (u, reason, elements) in copies {
            let from = s.of_use(g, &u);
            kernels.push(RuntimeKernel {
                ops: Vec::new(),
                what: What::Copy {
                    tensor: u.tensor,
                    reader: Some(o),
                    reason,
                },
                prediction: p.layout_copy(&copy(g, &u, &from, elements), Runner::Eager),
                launches: 1,
            });
        }
        // `torch.where` with a scalar operand fills a one-element device tensor first.
        if op.kind == OpKind::Elementwise
            && op.func.as_deref().is_some_and(|f| funcs::is(f, "where"))
            && !op.scalars().is_empty()
        {
            kernels.push(scalar_fill(g, o, p));
        }
        // SDPA takes a boolean mask as an additive one of the queries' dtype (ATen's
        // `convert_boolean_attn_mask_cudnn`): two one-element fills (its 0 and its large
        // negative) and a `where` over the mask (an H200's trace of transformers' captured
        // decode step: validation/gpu/models/hf_real/data/gap_h200).
        if let Some(m) = bool_mask(g, o) {
            kernels.push(scalar_fill(g, o, p));
            kernels.push(scalar_fill(g, o, p));
            let b = g.tensor(op.output).dtype.bytes();
            let elements = g.tensor(m).bytes;
            let convert = CopyShape {
                read: elements,
                written: elements.saturating_mul(b),
                elements,
                transposed_tile: None,
                broadcast: false,
            };
            kernels.push(RuntimeKernel {
                ops: Vec::new(),
                what: What::Mask { reader: o },
                prediction: p.layout_copy(&convert, Runner::Eager),
                launches: 1,
            });
        }
        // PyTorch's own inference batch norm copies its running mean to f32 and computes the
        // inverse standard deviation first (`crate::ops::batchnorm`).
        if let Some(batchnorm::Runner::Native {
            channels,
            bytes,
            cast,
        }) = batchnorm::runner(g, o)
        {
            for prediction in p.batch_norm_stats(channels, bytes, cast) {
                kernels.push(RuntimeKernel {
                    ops: Vec::new(),
                    what: What::Stats { reader: o },
                    prediction,
                    launches: 1,
                });
            }
        }
        // Passes PyTorch needs besides the op's own kernel: each reads and writes the
        // output's size.
        let passes = extra_passes(g, o);
        if passes > 0 {
            let out = g.tensor(op.output);
            let elements = out.bytes / out.dtype.bytes().max(1);
            let pass = CopyShape {
                read: out.bytes.saturating_mul(2),
                written: out.bytes,
                elements,
                transposed_tile: None,
                broadcast: false,
            };
            let mut prediction = p.layout_copy(&pass, Runner::Eager);
            if op.kind == OpKind::Reduction {
                // `masked_fill` out of place: PyTorch clones the scores first, a device-to-device
                // copy (cudaMemcpyAsync, no kernel launch) at the streaming copy rate (measured,
                // validation/gpu/models batch 5: Llama-2-7B's 268 MB of scores in 178 µs).
                let clone = CopyShape {
                    read: out.bytes,
                    written: out.bytes,
                    elements,
                    transposed_tile: None,
                    broadcast: false,
                };
                let c = p.layout_copy(&clone, Runner::Triton);
                prediction.kernel_s += c.kernel_s;
                prediction.dram_read = prediction.dram_read.saturating_add(c.dram_read);
                prediction.dram_written = prediction.dram_written.saturating_add(c.dram_written);
                prediction.time_s = prediction.kernel_s + prediction.launch_s;
            }
            for _ in 0..passes {
                kernels.push(RuntimeKernel {
                    ops: vec![o],
                    what: What::Kernel,
                    prediction,
                    launches: 1,
                });
            }
        }
        if cat_by_copies(g, o) {
            // PyTorch's `torch.cat` beyond its batched kernel: one `copy_` into its slice of
            // the output per input, launched by the one call; a copy between two contiguous
            // ranges is a cudaMemcpyAsync, not a kernel.
            let copies: Vec<(Prediction, bool)> = op
                .inputs
                .iter()
                .map(|u| {
                    let from = s.of_use(g, u);
                    let p = p.layout_copy(&copy(g, u, &from, from.elements()), Runner::Eager);
                    (p, !(from.is_contiguous() && flat_slice(g, o)))
                })
                .collect();
            let launched = copies.iter().filter(|(_, kernel)| *kernel).count();
            let prediction = copies.into_iter().map(|(p, _)| p).reduce(Prediction::then);
            // (Every copy a memcpy: priced as the one cat kernel below, as before.)
            if let Some(mut prediction) = prediction.filter(|_| launched > 0) {
                prediction.extra_launches = launched - 1;
                kernels.push(RuntimeKernel {
                    ops: vec![o],
                    what: What::Kernel,
                    prediction,
                    launches: launched,
                });
                continue;
            }
        }
        if vectorized_cat(g, o, &s) {
            // `CatArrayBatchedCopy_vectorized`: every input contiguous and its slices aligned,
            // a streaming copy of the output (measured: a decode step's KV-cache `torch.cat`
            // of 8.4 MB in 4.3 µs, where the generic batched kernel's rate, `families.cat`,
            // says 12.4; VALIDATION.md §56).
            let (read, written) = (traffic[k].bytes_read, traffic[k].bytes_written);
            kernels.push(stream_kernel(g, o, read, written, p));
            continue;
        }
        kernels.push(RuntimeKernel {
            ops: vec![o],
            what: What::Kernel,
            prediction: p.kernel(g, &[o], &traffic[k], None, Runner::Eager, copied),
            launches: 1,
        });
        if bias_added_after(g, o, &s) {
            // `output.add_(bias)`: reads the product and the bias, writes the product.
            let out = g.tensor(op.output).bytes;
            let read = out.saturating_add(g.use_bytes(&op.inputs[2]));
            kernels.push(stream_kernel(g, o, read, out, p));
        }
    }
    Ok(Parts {
        kernels,
        views,
        sdpa: Vec::new(),
    })
}

/// A kernel of op `o` that streams `read` bytes in and `written` out over its output's
/// elements, priced as PyTorch's copy kernels (a vectorized `torch.cat`, a bias's `add_`).
fn stream_kernel(g: &Graph, o: OpId, read: u64, written: u64, p: &Pricing<'_>) -> RuntimeKernel {
    let out = g.tensor(g.op(o).output);
    let shape = CopyShape {
        read,
        written,
        elements: out.bytes / out.dtype.bytes().max(1),
        transposed_tile: None,
        broadcast: false,
    };
    RuntimeKernel {
        ops: vec![o],
        what: What::Kernel,
        prediction: p.layout_copy(&shape, Runner::Eager),
        launches: 1,
    }
}

/// The copies PyTorch makes of op `o`'s arguments before its kernel, each with the
/// elements it writes.
pub(super) fn argument_copies(
    g: &Graph,
    o: OpId,
    s: &Strides,
) -> Vec<(TensorUse, CopyReason, u64)> {
    let op = g.op(o);
    let mut out = Vec::new();
    match op.kind {
        OpKind::Matmul => {
            if let [x, y, ..] = op.inputs[..] {
                let (a, b) = (s.of_use(g, &x), s.of_use(g, &y));
                for (u, l, reason) in [(x, &a, 0), (y, &b, 1)]
                    .into_iter()
                    .filter_map(|(u, l, k)| Some((u, l, matmul_copies(&a, &b)[k]?)))
                {
                    out.push((u, reason, matmul_copy_elements(l, &a, &b)));
                }
            }
            // A bias cuBLASLt cannot take in its epilogue (K or N of 1: measured on an H200,
            // validation/gpu/models/hf_real/data/linear_h200): `addmm` copies it to every row
            // of the output and runs the GEMM with β = 1.
            if let Some(&bias) = op.inputs.get(2)
                && biased_by_copy(g, o)
            {
                let out_t = g.tensor(op.output);
                out.push((
                    bias,
                    CopyReason::Bias,
                    out_t.bytes / out_t.dtype.bytes().max(1),
                ));
            }
        }
        OpKind::Reduction => {
            let family = funcs::family(op.func.as_deref().unwrap_or(""));
            if matches!(
                family,
                FuncFamily::Softmax | FuncFamily::Norm | FuncFamily::GroupNorm
            ) && let Some(&u) = op.inputs.first()
            {
                let l = s.of_use(g, &u);
                if !l.is_contiguous() {
                    out.push((u, CopyReason::Contiguous, l.elements()));
                }
            }
        }
        _ => {}
    }
    out
}

/// Whether matmul `o` has a bias cuBLASLt's epilogue cannot add: a product with K or N of 1
/// (PyTorch's `addmm` then starts from the bias copied to every row).
fn biased_by_copy(g: &Graph, o: OpId) -> bool {
    let op = g.op(o);
    let (Some(a), Some(out)) = (op.inputs.first(), Some(g.tensor(op.output))) else {
        return false;
    };
    crate::ops::contraction::is_biased(g, o)
        && (g.use_shape(a).last() == Some(&1) || out.shape.last() == Some(&1))
}

/// Whether PyTorch adds matmul `o`'s bias in a kernel after the GEMM: `F.linear` folds an
/// input of rank 3 or more into one `addmm` (the bias in cuBLASLt's epilogue) only when it is
/// contiguous; else `matmul` then `add_` (measured on an H200: a transposed `[B, S, K]`
/// input, a GEMM and an elementwise kernel; linear_h200).
fn bias_added_after(g: &Graph, o: OpId, s: &Strides) -> bool {
    let op = g.op(o);
    crate::ops::contraction::is_biased(g, o)
        && !biased_by_copy(g, o)
        && op
            .inputs
            .first()
            .is_some_and(|a| g.use_shape(a).len() >= 3 && !s.of_use(g, a).is_contiguous())
}

/// The elements a matmul's copy of operand `l` writes: the operand broadcast to the batch
/// of `a` and `b` (a matrix: itself).
fn matmul_copy_elements(l: &Layout, a: &Layout, b: &Layout) -> u64 {
    let r = l.rank();
    if r < 3 {
        return l.elements();
    }
    let batch = |x: &Layout| x.sizes[..x.rank().saturating_sub(2)].to_vec();
    let (ba, bb) = (batch(a), batch(b));
    let n = ba.len().max(bb.len());
    let dim = |v: &[u64], i: usize| (i + v.len()).checked_sub(n).map_or(1, |j| v[j]);
    let flat = (0..n).fold(1u64, |acc, i| {
        acc.saturating_mul(dim(&ba, i).max(dim(&bb, i)))
    });
    flat.saturating_mul(l.sizes[r - 2])
        .saturating_mul(l.sizes[r - 1])
}

/// Whether PyTorch runs `concat` op `o` as one `copy_` per input rather than its batched cat
/// kernel (`cat_out_cuda`, aten/src/ATen/native/cuda/Shape.cu): an output of more than
/// `CAT_ARRAY_MAX_INPUT_DIMS` (4) dimensions, or one a 32-bit index cannot address, of two
/// or more inputs. `fgraph import hf`'s RoPE concatenates `[B, KV heads, group, S, D]`
/// halves: two copies a rotation (the profiler's `direct_copy_kernel_cuda` pair, VALIDATION.md
/// §55). The copies are C++ calls inside the one Python call: under plain launches the host
/// pays for the call once (`super::host_launches`), as the host figures were fitted.
pub(super) fn cat_by_copies(g: &Graph, o: OpId) -> bool {
    let op = g.op(o);
    let out = g.tensor(op.output);
    let elements = out.bytes / out.dtype.bytes().max(1);
    op.kind == OpKind::Concat
        && op.inputs.len() > 1
        && (out.shape.len() > 4 || elements > i32::MAX as u64)
}

/// Whether PyTorch runs concat `o` by its vectorized batched kernel
/// (`CatArrayBatchedCopy_vectorized`, `aten/src/ATen/native/cuda/Shape.cu`): every input
/// contiguous, and each input's slice of every output row along the concatenated axis a
/// multiple of 16 bytes (one aligned vector load).
fn vectorized_cat(g: &Graph, o: OpId, s: &Strides) -> bool {
    let op = g.op(o);
    if op.kind != OpKind::Concat || op.inputs.len() < 2 {
        return false;
    }
    let shape = &g.tensor(op.output).shape;
    let rank = shape.len() as i64;
    let axis = op.int_attr("axis").unwrap_or(0);
    let Ok(d) = usize::try_from(if axis < 0 { axis + rank } else { axis }) else {
        return false;
    };
    let inner: u64 = shape.iter().skip(d + 1).product();
    op.inputs.iter().all(|u| {
        let b = g.tensor(u.tensor).dtype.bytes();
        let along = g.use_shape(u).get(d).copied().unwrap_or(0);
        s.of_use(g, u).is_contiguous()
            && along
                .saturating_mul(inner)
                .saturating_mul(b)
                .is_multiple_of(16)
    })
}

/// Whether each input's slice of concat `o`'s output is one contiguous range (every output
/// dimension before the concatenated one of size 1).
fn flat_slice(g: &Graph, o: OpId) -> bool {
    let op = g.op(o);
    let shape = &g.tensor(op.output).shape;
    let rank = shape.len() as i64;
    let axis = op.int_attr("axis").unwrap_or(0);
    let d = if axis < 0 { axis + rank } else { axis };
    usize::try_from(d).is_ok_and(|d| shape.iter().take(d).all(|&n| n == 1))
}

/// What a copy of argument `u` (read with layout `from`) writing `elements` moves.
pub(super) fn copy(g: &Graph, u: &TensorUse, from: &Layout, elements: u64) -> CopyShape {
    let b = g.tensor(u.tensor).dtype.bytes();
    CopyShape {
        read: from.distinct_elements().saturating_mul(b),
        written: elements.saturating_mul(b),
        elements,
        transposed_tile: from.transposed_tile(),
        broadcast: from.distinct_elements() < elements,
    }
}

/// A one-element tensor of op `o`'s output dtype PyTorch fills on the GPU for `o` (a scalar
/// operand wrapped in a device tensor).
fn scalar_fill(g: &Graph, o: OpId, p: &Pricing<'_>) -> RuntimeKernel {
    let fill = CopyShape {
        read: 0,
        written: g.tensor(g.op(o).output).dtype.bytes(),
        elements: 1,
        transposed_tile: None,
        broadcast: false,
    };
    RuntimeKernel {
        ops: Vec::new(),
        what: What::Fill { reader: o },
        prediction: p.layout_copy(&fill, Runner::Eager),
        launches: 1,
    }
}

/// The boolean mask tensor of attention op `o`, if it has one.
fn bool_mask(g: &Graph, o: OpId) -> Option<crate::graph::TensorId> {
    let op = g.op(o);
    let m = op.inputs.get(3).filter(|_| op.kind == OpKind::Attention)?;
    (g.tensor(m.tensor).dtype == crate::types::Dtype::Bool).then_some(m.tensor)
}

/// The kernels PyTorch runs for op `o` beyond its own (as `fgraph emit torch` writes it): an
/// elementwise function of two operands given more (`add(a, b, c)`: `torch.add` takes two at
/// a time), a softmax that states its causal mask (`masked_fill` first, PyTorch's softmax
/// takes none; out of place, it clones the scores first), a norm over an axis that is not the last one (moved there: a copy).
fn extra_passes(g: &Graph, o: OpId) -> usize {
    let op = g.op(o);
    let f = op.func.as_deref().unwrap_or("");
    match op.kind {
        OpKind::Elementwise => {
            let binary = [
                "add", "mul", "sub", "pow", "div", "eq", "ne", "lt", "le", "gt", "ge", "min", "max",
            ];
            if binary.iter().any(|b| funcs::is(f, b)) {
                (op.inputs.len() + op.scalars().len()).saturating_sub(2)
            } else {
                0
            }
        }
        OpKind::Reduction => match funcs::family(f) {
            FuncFamily::Softmax => usize::from(super::rows::masks(g, o)),
            FuncFamily::Norm => {
                let r = op.inputs.first().map_or(0, |u| g.use_shape(u).len()) as i64;
                let last = |a: i64| a == -1 || a == r - 1;
                let moved = match (op.list_attr("axis"), op.int_attr("axis")) {
                    (Some(&[a]), _) | (None, Some(a)) => !last(a),
                    _ => false,
                };
                usize::from(moved)
            }
            _ => 0,
        },
        _ => 0,
    }
}
