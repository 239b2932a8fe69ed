//! The `compile` runtime: `torch.compile` of the whole model in TorchInductor's default mode.
//!
//! The kernels are those of the Inductor preset (`--fuser inductor`, `crate::fusion::preset`:
//! cuBLAS matmuls alone or with an `addmm` add, pointwise work inlined into its readers, a
//! norm or softmax with its prologue and epilogue, so that a residual add read by the next
//! layer's norm and by the residual stream is computed in that norm's kernel, which also
//! stores it), with the rewrites Inductor makes on a whole graph, each a rule of its own:
//!
//! 1. **Attention into SDPA** (`torch/_inductor/fx_passes/fuse_attention.py`): an
//!    attention pattern (`crate::fusion::flash`: Q·Kᵀ, a scale by a constant, a mask add,
//!    casts, the softmax, casts, P·V; Hugging Face's eager form with `repeat_kv`'s expand
//!    and reshape before it, whose copies stay kernels of their own) becomes one
//!    `scaled_dot_product_attention` call (cuDNN's kernel on an H100), priced by the hardware
//!    model's attention coefficients. Inductor's patterns are traced on 4-D `[B, H, S, D]`
//!    tensors that `torch.matmul` reads without a copy, so the rule asks for the same
//!    ([`SdpaMiss`]): scores of rank 4 (rank 3 only for a bare `bmm`, softmax, `bmm`),
//!    nothing between the matmuls but the scale, the mask add and casts, a mask added only
//!    after a division by the scale (the patterns with a mask, `_sfdp_pattern_5` and `_14`,
//!    divide; none multiplies and adds a mask), and Q, K and V read without a copy (no
//!    broadcast of K and V over query heads, batch dimensions that merge). Measured
//!    (docs/VALIDATION.md §15): Inductor rewrote the decode layer (`[B, H, 1, S]` scores,
//!    `repeat_kv` copies) and none of the 3-D layers nor the 4-D layers whose Q and K need a
//!    copy (batch 2 and 8); §56: Hugging Face's eager Llama (`q @ kᵀ * scaling + mask`) is
//!    not rewritten, whether the mask is computed in the graph or passed in.
//! 2. **The head merge after SDPA is a view**: SDPA writes `[.., S, H, D]`, so the permute
//!    and reshape back to `[.., S, H·D]` move nothing (measured in the same decode layer).
//!    More generally, a kernel of the preset's plan made only of layout ops that are views
//!    of its input's layout launches nothing.
//! 3. **Matmul operand copies**: Inductor decomposes `torch.matmul` as PyTorch does, so an
//!    operand it must broadcast, or whose batch dimensions do not merge, is copied by a
//!    Triton kernel before the cuBLAS call (measured: three copies before each batched
//!    `bmm` of the 4-D encoder layers).
//! 4. **Residual adds into the next norm**: the preset's inline policy (above).
//! 5. **Decode attention as math SDPA, in f32** ([`upcast_ops`]): an attention pattern rule 1
//!    leaves, with one query row, 16-bit operands, only a scale and casts between the matmuls
//!    and no mask, runs as Inductor's math SDPA in f32: cuBLAS's f32 GEMVs on operands cast to
//!    f32. An operand no pointwise kernel computes (a cache, a matmul's output) is cast by a
//!    Triton copy of its own (Kᵀ's a transposing one), others in the kernel that computes
//!    them; a result read only by matmuls is cast back by a kernel of its own. Measured
//!    (validation/gpu/models batches 5-9, torch 2.11): Llama-2-7B at batch 16,
//!    `triton_poi_fused__to_copy_mul_transpose` (Kᵀ with the scale, 505 µs),
//!    `gemv2N_kernel<float>`, `triton_poi_fused__to_copy` (V), `gemvx::kernel<float>` and the
//!    cast back; grouped-query decode (K and V broadcast-copied first) and a windowed decode
//!    that masks stay in 16 bits.
//! 6. **Padded GEMMs** (`torch/_inductor/fx_passes/pad_mm.py`): where cuBLAS would run a
//!    matmul as an unaligned GEMM (K or N not a multiple of 16 bytes), Inductor benchmarks
//!    padding its misaligned operands (a Triton copy each) and an aligned GEMM, and keeps the
//!    faster ([`Pricing::padded`] compares the two predictions the same way). Measured: GPT-2
//!    medium's LM head (N = 50,257) padded under compile, 64 + 590 µs, where eager ran
//!    CUTLASS's align1 kernel for 4,059 µs; batch d's ViT scores (N = 197) stayed unaligned.
//! 7. **Channels-last convolutions** (`torch/_inductor/config.py`'s `layout_optimization`): a
//!    2-D convolution stated NCHW runs channels-last, without eager's transposes around it
//!    ([`Pricing::kernel`] prices it so).
//! 8. **A one-row batched matmul copies its operand first**: a decode's Q·Kᵀ and P·V, whose
//!    one-row operand Inductor passes with a zero stride, run a device-to-device memcpy of it
//!    before cuBLAS's kernel (two a layer in every compiled decode's trace, none in a
//!    prefill): no kernel of its own, its time joins the matmul's ([`Pricing::one_row_copy`]).
//! 9. **A softmax over few long rows is five kernels**: fewer rows than twice the SMs, each
//!    longer than 8,192 (a decode's scores against a long cache), are reduced in chunks, the
//!    max and the sum each in two kernels, then normalised
//!    (`crate::cost::hwmodel::inductor::split_softmax_kernels`, priced in
//!    [`Pricing::kernel`]).

use super::layout::{CopyReason, matmul_copies};
use super::seam::{CopyShape, Pricing, Runner};
use super::strides::{Rules, Strides};
use super::{Parts, RuntimeKernel, What};
use crate::analysis::Analysis;
use crate::fusion::flash::{self, AttentionPattern};
use crate::fusion::{Fuser, FusionOptions, find_fusion_groups_with_patterns};
use crate::graph::{Graph, OpId, TensorId, TensorUse};
use crate::ops::funcs;
use crate::traffic::Overflow;
use crate::types::{Dtype, OpKind};

/// Why Inductor's attention rewrite leaves a pattern as it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SdpaMiss {
    /// The scores have a rank other than 4 (or 3 with only casts between the matmuls).
    Rank { rank: usize },
    /// An op between the matmuls is not a scale by a constant, a mask add or a cast.
    Op { op: OpId },
    /// A mask add without a division by the scale before it: Inductor's patterns with a
    /// mask (`_sfdp_pattern_5`, `_14`) divide the scores, none multiplies them.
    MaskWithoutDiv { op: OpId },
    /// Q, K or V reaches its matmul only through a copy.
    Copy {
        tensor: TensorId,
        reason: CopyReason,
    },
}

impl SdpaMiss {
    /// A clause for messages: "… because {this}".
    pub fn describe(&self, g: &Graph) -> String {
        match self {
            SdpaMiss::Rank { rank } => format!(
                "its scores have rank {rank}: Inductor's patterns are 4-D ([B, H, S, S]), or a \
                 bare bmm, softmax, bmm in 3-D"
            ),
            SdpaMiss::Op { op } => format!(
                "`{}` is neither a scale by a constant, a mask add nor a cast",
                g.op(*op).name
            ),
            SdpaMiss::MaskWithoutDiv { op } => format!(
                "`{}` adds a mask to scores that were not divided by the scale first: \
                 Inductor's patterns with a mask divide (`(q @ kᵀ) / s + mask`), none \
                 multiplies",
                g.op(*op).name
            ),
            SdpaMiss::Copy { tensor, reason } => format!(
                "matmul copies `{}` first ({}), which Inductor's patterns do not match",
                g.tensor(*tensor).name,
                reason.describe()
            ),
        }
    }
}

/// Whether Inductor rewrites `p` into SDPA, reading the layouts of `s` (compile rules).
fn sdpa_rule(g: &Graph, p: &AttentionPattern, s: &Strides) -> Result<(), SdpaMiss> {
    let rank = g.tensor(g.op(p.softmax).output).shape.len();
    let is = |o: OpId, f: &str| g.op(o).func.as_deref().is_some_and(|x| funcs::is(x, f));
    let only_casts = p.pre.iter().chain(&p.post).all(|&o| is(o, "cast"));
    match rank {
        4 => {}
        3 if only_casts => {}
        _ => return Err(SdpaMiss::Rank { rank }),
    }
    for &o in &p.pre {
        let op = g.op(o);
        let ok = is(o, "cast")
            || ((is(o, "mul") || is(o, "div")) && op.inputs.len() == 1 && op.scalars().len() == 1)
            || (is(o, "add") && op.inputs.len() == 2 && op.scalars().is_empty());
        if !ok {
            return Err(SdpaMiss::Op { op: o });
        }
    }
    if let Some(&o) = p.post.iter().find(|&&o| !is(o, "cast")) {
        return Err(SdpaMiss::Op { op: o });
    }
    // A mask add matches only after a division by the scale.
    if let Some(i) = p.pre.iter().position(|&o| is(o, "add"))
        && !p.pre[..i].iter().any(|&o| is(o, "div"))
    {
        return Err(SdpaMiss::MaskWithoutDiv { op: p.pre[i] });
    }
    let (qk, pv) = (g.op(p.qk), g.op(p.pv));
    for (x, y) in [
        (&qk.inputs[0], &qk.inputs[1]),
        (&pv.inputs[0], &pv.inputs[1]),
    ] {
        let (a, b) = (s.of_use(g, x), s.of_use(g, y));
        let copies = matmul_copies(&a, &b);
        for (u, c) in [(x, copies[0]), (y, copies[1])] {
            // P is the kernel's own: only Q, K and V count.
            if let Some(reason) = c
                && u.tensor != pv.inputs[0].tensor
            {
                return Err(SdpaMiss::Copy {
                    tensor: u.tensor,
                    reason,
                });
            }
        }
    }
    Ok(())
}

pub(super) fn estimate(a: &Analysis, p: &Pricing<'_>) -> Result<Parts, Overflow> {
    let g = &a.graph;
    // The layouts before any rewrite decide which patterns Inductor rewrites.
    let before = Strides::of(g, Rules::Compile, &|_| false);
    let mut sdpa = Vec::new();
    let mut patterns = Vec::new();
    // The patterns rule 1 leaves, for rule 5.
    let mut left = Vec::new();
    for c in flash::candidates(g) {
        if let Ok(pattern) = c.result {
            let r = sdpa_rule(g, &pattern, &before);
            if r.is_ok() {
                patterns.push(pattern);
            } else {
                left.push(pattern);
            }
            sdpa.push((c.softmax, r));
        }
    }
    let mut pv = vec![false; g.ops.len()];
    for p in &patterns {
        pv[p.pv.index()] = true;
    }
    let s = Strides::of(g, Rules::Compile, &|o| pv[o.index()]);
    let opts = FusionOptions {
        flash_attention: true,
        work_limit: a.fusion.work_limit,
        ..Fuser::Inductor.options()
    };
    let plan = find_fusion_groups_with_patterns(g, opts, patterns);
    let (traffic, _) = crate::traffic::plan_traffic(g, &plan)?;
    // The copies Inductor's matmul decomposition makes before each kernel's matmul.
    let copies: Vec<Vec<(TensorUse, CopyReason, u64)>> = plan
        .groups
        .iter()
        .enumerate()
        .map(|(k, grp)| {
            let m = grp.ops.iter().find(|&&o| g.op(o).kind == OpKind::Matmul);
            match m {
                Some(&m) if plan.flash_kernel(k).is_none() => {
                    super::eager::argument_copies(g, m, &s)
                }
                _ => Vec::new(),
            }
        })
        .collect();
    // Kernels of layout ops alone that copy into a 4-D tensor (a `repeat_kv`'s expand and
    // reshape of `[B, heads, S, D]` heads): measured, a pointwise kernel read only by such a
    // copy is computed in it (§56); the 3-D layers of §15 stored it first.
    let layout_copy: Vec<bool> = plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops.iter().all(|&o| g.op(o).kind.is_layout())
                && !grp.ops.iter().all(|&o| s.is_view(o))
                && grp
                    .ops
                    .last()
                    .is_some_and(|&o| g.tensor(g.op(o).output).shape.len() == 4)
        })
        .collect();
    let absorbed = absorbed(g, &plan, &traffic, &copies, &layout_copy);
    let upcast = upcast_ops(g, &left);
    let mut kernels = Vec::new();
    let mut views = 0;
    for (k, (grp, tr)) in plan.groups.iter().zip(&traffic).enumerate() {
        if absorbed[k] {
            continue;
        }
        if let Some(f) = plan.flash_kernel(k) {
            kernels.push(RuntimeKernel {
                ops: grp.ops.clone(),
                what: What::Sdpa,
                prediction: p.kernel(g, &grp.ops, tr, Some(&f.pattern), Runner::Triton, false),
                launches: 1,
            });
            continue;
        }
        if grp.ops.iter().all(|&o| g.op(o).kind.is_layout()) {
            if grp.ops.iter().all(|&o| s.is_view(o)) {
                views += grp.ops.len();
                continue;
            }
            // A layout copy: from the first op's input to the last op's output.
            let (Some(&first), Some(&last)) = (grp.ops.first(), grp.ops.last()) else {
                continue;
            };
            let (first, last) = (g.op(first), g.op(last));
            let Some(u) = first.inputs.first() else {
                continue;
            };
            let from = s.of_use(g, u);
            let out = g.tensor(last.output);
            // A pointwise kernel read only by this copy is computed in it.
            let mut ops = g
                .producer(u.tensor)
                .map(|o| plan.group_of[o.index()])
                .filter(|&j| absorbed[j])
                .map(|j| plan.groups[j].ops.clone())
                .unwrap_or_default();
            ops.extend(&grp.ops);
            let c = CopyShape {
                read: tr.bytes_read,
                written: tr.bytes_written,
                elements: out.bytes / out.dtype.bytes().max(1),
                transposed_tile: from.transposed_tile(),
                broadcast: tr.bytes_read < tr.bytes_written,
            };
            kernels.push(RuntimeKernel {
                ops,
                what: What::Copy {
                    tensor: u.tensor,
                    reader: None,
                    reason: CopyReason::Reshape,
                },
                prediction: p.layout_copy(&c, Runner::Triton),
                launches: 1,
            });
            continue;
        }
        let reader = grp
            .ops
            .iter()
            .copied()
            .find(|&o| g.op(o).kind == OpKind::Matmul);
        for (u, reason, elements) in &copies[k] {
            let from = s.of_use(g, u);
            // A pointwise kernel read only through such copies is computed in them.
            let ops = g
                .producer(u.tensor)
                .map(|o| plan.group_of[o.index()])
                .filter(|&j| absorbed[j])
                .map(|j| plan.groups[j].ops.clone())
                .unwrap_or_default();
            kernels.push(RuntimeKernel {
                ops,
                what: What::Copy {
                    tensor: u.tensor,
                    reader,
                    reason: *reason,
                },
                prediction: p
                    .layout_copy(&super::eager::copy(g, u, &from, *elements), Runner::Triton),
                launches: 1,
            });
        }
        let copied = copies[k]
            .iter()
            .any(|(_, r, _)| matches!(r, CopyReason::Broadcast));
        if let Some(m) = reader.filter(|&m| !copied && upcast[m.index()]) {
            upcast_kernels(g, &plan, &s, p, k, m, &mut kernels);
            continue;
        }
        let mut prediction = p.kernel(g, &grp.ops, tr, None, Runner::Triton, copied);
        // Rule 8: a one-row batched matmul's operand, copied first (no kernel of its own).
        if let Some(c) = p.one_row_copy(g, &grp.ops) {
            prediction.kernel_s += c.kernel_s;
            prediction.time_s += c.kernel_s;
            prediction.dram_read = prediction.dram_read.saturating_add(c.dram_read);
            prediction.dram_written = prediction.dram_written.saturating_add(c.dram_written);
        }
        // Rule 6: Inductor pads a misaligned matmul's operands where that is faster.
        if let Some(m) = reader.filter(|_| !copied)
            && let Some((pads, gemm)) = p.padded(g, &grp.ops, m, tr, &prediction)
        {
            for (tensor, c) in &pads {
                kernels.push(RuntimeKernel {
                    ops: Vec::new(),
                    what: What::Copy {
                        tensor: *tensor,
                        reader: Some(m),
                        reason: CopyReason::Pad,
                    },
                    prediction: p.layout_copy(c, Runner::Triton),
                    launches: 1,
                });
            }
            kernels.push(RuntimeKernel {
                ops: grp.ops.clone(),
                what: What::Kernel,
                prediction: gemm,
                launches: 1,
            });
            continue;
        }
        kernels.push(RuntimeKernel {
            ops: grp.ops.clone(),
            what: What::Kernel,
            prediction,
            launches: 1,
        });
    }
    Ok(Parts {
        kernels,
        views,
        sdpa,
    })
}

/// The kernels of `plan` that Inductor computes inside the operand copies that read them
/// (rule 3): a kernel of pointwise and layout ops only, none of whose values is a graph
/// output, every reader of which is a matmul that copies it without a broadcast (an expanded
/// value is stored first and read back: measured, `repeat_kv` after RoPE) or a kernel of
/// layout ops that copies into a 4-D tensor (`repeat_kv`'s expand and reshape of `[B, heads,
/// S, D]` heads: measured, §56, the RoPE of K computed in that copy,
/// `triton_poi_fused_..._clone_cos_expand_mul_neg_..._sin`; the 3-D layers of §15,
/// `llama_layer` and `qwen_layer`, stored K's RoPE and copied it in a second kernel).
fn absorbed(
    g: &Graph,
    plan: &crate::fusion::FusionPlan,
    traffic: &[crate::traffic::GroupTraffic],
    copies: &[Vec<(TensorUse, CopyReason, u64)>],
    layout_copy: &[bool],
) -> Vec<bool> {
    let copied = |c: OpId, t: TensorId| {
        copies[plan.group_of[c.index()]]
            .iter()
            .any(|(u, r, _)| u.tensor == t && *r != CopyReason::Broadcast)
    };
    plan.groups
        .iter()
        .zip(traffic)
        .enumerate()
        .map(|(k, (grp, tr))| {
            let pointwise = grp.ops.iter().all(|&o| {
                let kind = g.op(o).kind;
                kind.is_layout() || kind.class() == crate::ops::FuseClass::Pointwise
            }) && grp.ops.iter().any(|&o| !g.op(o).kind.is_layout());
            pointwise
                && plan.flash_kernel(k).is_none()
                && !tr.writes.is_empty()
                && tr.writes.iter().all(|w| {
                    !g.is_output(w.tensor)
                        && g.consumers(w.tensor).iter().all(|&c| {
                            let j = plan.group_of[c.index()];
                            j == k || copied(c, w.tensor) || layout_copy[j]
                        })
                })
        })
        .collect()
}

/// The matmuls Inductor runs in f32 (rule 5): the Q·Kᵀ and P·V of an attention pattern it
/// did not rewrite into a fused SDPA kernel (rule 1), with one query row, 16-bit operands,
/// nothing between the matmuls but a scale by a constant and casts, and no mask (a decode
/// step against its whole cache). The explanation that fits every measured case (read off
/// the kernel traces, not Inductor's source): Inductor matches such a pattern on its batched
/// matmuls and lowers it to the math SDPA, which computes in f32. Measured
/// (validation/gpu/models):
/// Llama-2-7B and -13B (f16) and DeepSeek-V2-Lite (bf16) decode, and Phi-3-mini's bf16 decode
/// against 1,023 positions, ran f32 copies and f32 GEMVs; Phi-3-mini against 4,095 positions,
/// whose window masks the oldest (a `masked_fill` between the matmuls), ran bf16 GEMVs.
fn upcast_ops(g: &Graph, left: &[AttentionPattern]) -> Vec<bool> {
    let mut out = vec![false; g.ops.len()];
    let is = |o: OpId, f: &str| g.op(o).func.as_deref().is_some_and(|x| funcs::is(x, f));
    for p in left {
        let scale = |o: OpId| {
            let op = g.op(o);
            is(o, "cast")
                || ((is(o, "mul") || is(o, "div"))
                    && op.inputs.len() == 1
                    && op.scalars().len() == 1)
        };
        let sixteen = [&p.q, &p.k, &p.v]
            .iter()
            .all(|u| matches!(g.tensor(u.tensor).dtype, Dtype::F16 | Dtype::Bf16));
        let scores = &g.tensor(g.op(p.qk).output).shape;
        let one_row = scores.len() >= 3 && scores[scores.len() - 2] == 1;
        if sixteen
            && one_row
            && p.pre.iter().all(|&o| scale(o))
            && p.post.iter().all(|&o| is(o, "cast"))
            && !super::rows::masks(g, p.softmax)
        {
            out[p.qk.index()] = true;
            out[p.pv.index()] = true;
        }
    }
    out
}

/// The kernels of group `k`, whose matmul `m` runs in f32 (rule 5): a cast of each operand no
/// pointwise kernel computes (a cache, an input, a matmul's output), the f32 GEMV with the
/// group's other ops, and the cast back when only matmuls read the result.
fn upcast_kernels(
    g: &Graph,
    plan: &crate::fusion::FusionPlan,
    s: &Strides,
    p: &Pricing<'_>,
    k: usize,
    m: OpId,
    kernels: &mut Vec<RuntimeKernel>,
) {
    let op = g.op(m);
    for u in &op.inputs {
        // A kernel of pointwise or row work computes the cast as it writes the operand; a
        // cache (an input or `update`'s) or a matmul's output (cuBLAS's) is cast by a copy.
        let fused = g.producer(u.tensor).is_some_and(|o| {
            let kind = g.op(o).kind;
            kind != OpKind::Update && kind != OpKind::Matmul && !kind.is_layout()
        });
        if fused {
            continue;
        }
        let from = s.of_use(g, u);
        let t = g.tensor(u.tensor);
        let elements = t.bytes / t.dtype.bytes().max(1);
        let c = CopyShape {
            read: t.bytes,
            written: elements.saturating_mul(4),
            elements,
            transposed_tile: from.transposed_tile(),
            broadcast: false,
        };
        kernels.push(RuntimeKernel {
            ops: Vec::new(),
            what: What::Copy {
                tensor: u.tensor,
                reader: Some(m),
                reason: CopyReason::Upcast,
            },
            prediction: p.layout_copy(&c, Runner::Triton),
            launches: 1,
        });
    }
    let grp = &plan.groups[k];
    if let Some(prediction) = p.f32_matmul(g, m) {
        kernels.push(RuntimeKernel {
            ops: grp.ops.clone(),
            what: What::Kernel,
            prediction,
            launches: 1,
        });
    }
    // The group's result (through its views) read by matmuls only: cast back on its own.
    let last = grp.ops.last().map_or(m, |&o| o);
    let out_id = g.op(last).output;
    let out = g.tensor(out_id);
    let readers = g.consumers(out_id);
    if !readers.is_empty() && readers.iter().all(|&c| g.op(c).kind == OpKind::Matmul) {
        let elements = out.bytes / out.dtype.bytes().max(1);
        let c = CopyShape {
            read: elements.saturating_mul(4),
            written: out.bytes,
            elements,
            transposed_tile: None,
            broadcast: false,
        };
        kernels.push(RuntimeKernel {
            ops: Vec::new(),
            what: What::Copy {
                tensor: out_id,
                reader: readers.first().copied(),
                reason: CopyReason::Upcast,
            },
            prediction: p.layout_copy(&c, Runner::Triton),
            launches: 1,
        });
    }
}
