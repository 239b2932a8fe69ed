//! The rows of the low-precision GEMMs (issue 23 item 6): `scaled_mm` and `quant_mm`. Both are
//! contractions: each starts its kernel, one per kernel, and takes the elementwise epilogues
//! a matmul takes (`--matmul-epilogue`). Their shape and dtype rules are `sema::quant`.
//!
//! - `scaled_mm(a, b, scale_a, scale_b, bias)`: `torch._scaled_mm`. `a` `[M, K]` and `b`
//!   `[K, N]` are 8-bit floats (`f8e4m3`, `f8e5m2` or `fp8`, not both `f8e5m2`) or both `i8`;
//!   the scales are `f32`, per-tensor (`[]`, `[1]` or `[1, 1]`) or rowwise (`[M, 1]` and
//!   `[1, N]`); the optional bias is `[N]`. The output is `[M, N]` of the declared dtype,
//!   `bf16` by default (`out_dtype`). It runs on the 8-bit tensor cores (the unit of `a`'s
//!   dtype). FLOPs: `2·K` per output element (the product) plus [`SCALE_FLOPS`] (the
//!   accumulator times `scale_a` and `scale_b`) and, with a bias, [`BIAS_FLOPS`]. Compulsory
//!   bytes: every argument read once (the scales included), the output written once.
//! - `quant_mm(x, w, scales, zeros, bits = 4, group_size = G)`: a weight-only quantised
//!   GEMM as serving kernels run it (w4a16: tinygemm's `_weight_int4pack_mm`, GPTQ, AWQ,
//!   Marlin; w8a16 with `bits = 8`). `x` `[..., K]` is `f16` or `bf16`; `w` holds the
//!   `bits`-bit weights of a `[K, N]` matrix packed along K into an integer dtype: `[K / p,
//!   N]` with `p = width(w's dtype) / bits` weights per element (`u8`: 2 int4 weights, `i32`:
//!   8, GPTQ's `qweight`; `i8` or `u8` with `bits = 8`: 1); `scales` (and the optional
//!   `zeros`) are `[K / group_size, N]`. The output is `[..., N]` in `x`'s dtype. It runs on
//!   the 16-bit tensor cores (the activations are 16-bit). FLOPs: `2·K` per output element
//!   plus [`DEQUANT_FLOPS`] per weight element, dequantised once (`(w - zero) · scale`).
//!   Compulsory bytes: the packed weights (`K·N·bits/8` bytes), the scales (and zeros), `x`
//!   and the output, once each.

use super::funcs::{AttrSpec, AttrType, attr};
use super::{Arity, Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::types::OpKind;

/// FLOPs per output element of `scaled_mm`'s epilogue: the accumulator times `scale_a` and
/// times `scale_b` (a per-tensor kernel folds the two into one alpha, a rowwise one cannot:
/// counted as two either way).
pub const SCALE_FLOPS: u64 = 2;

/// FLOPs per output element of `scaled_mm`'s bias.
pub const BIAS_FLOPS: u64 = 1;

/// FLOPs per weight element of `quant_mm`'s dequantisation: subtract the zero point (stored,
/// or the implicit midpoint of symmetric formats), multiply by the group's scale. Counted once
/// per weight (a kernel dequantises each weight tile once per block of rows, the minimum).
pub const DEQUANT_FLOPS: u64 = 2;

/// `bits`: the width of a quantised weight.
pub const BITS: AttrSpec = attr(
    "bits",
    AttrType::Int { min: 4, max: 8 },
    "the bits of each quantised weight: 4 (w4a16, the default) or 8 (w8a16)",
);

/// `group_size`: the weights along K that share a scale.
pub const GROUP_SIZE: AttrSpec = attr(
    "group_size",
    AttrType::Int {
        min: 1,
        max: 1 << 48,
    },
    "the weights along K that share one scale (128 is usual; K for one scale per output \
     channel); default: K divided by the rows of `scales`",
);

/// The default `bits` of `quant_mm`.
pub const DEFAULT_BITS: i64 = 4;

pub const SCALED_MM: OpSpec = OpSpec {
    kind: OpKind::ScaledMm,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: Arity {
        min: 4,
        max: 5,
        text: "4 or 5 tensors",
        help: "scaled_mm takes two 8-bit operands, their two f32 scales and an optional bias: \
               `scaled_mm(a, b, scale_a, scale_b)` (torch._scaled_mm)",
    },
    attrs: &[],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: false,
    partial_reads: false,
    flops: scaled_flops,
    read: whole,
    write: output,
};

pub const QUANT_MM: OpSpec = OpSpec {
    kind: OpKind::QuantMm,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: Arity {
        min: 3,
        max: 4,
        text: "3 or 4 tensors",
        help: "quant_mm takes 16-bit activations, packed integer weights, their group scales \
               and optional zero points: `quant_mm(x, w, scales, bits = 4, group_size = 128)`",
    },
    attrs: &[BITS, GROUP_SIZE],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: false,
    partial_reads: false,
    flops: quant_flops,
    read: whole,
    write: output,
};

/// K: the last dim of the first operand as read (through `.T` or not).
fn k_of(a: &FlopArgs<'_>) -> Option<u64> {
    let (shape, transpose) = a.first?;
    let r = shape.len();
    if transpose && r >= 2 {
        Some(shape[r - 2])
    } else {
        shape.last().copied()
    }
}

fn scaled_flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let k = k_of(a).unwrap_or(1);
    let epilogue = SCALE_FLOPS + if a.inputs >= 5 { BIAS_FLOPS } else { 0 };
    let n = elements(a.out).and_then(|e| {
        e.checked_mul(k)?
            .checked_mul(2)?
            .checked_add(e.checked_mul(epilogue)?)
    });
    (n, FlopSource::Quant)
}

fn quant_flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let k = k_of(a).unwrap_or(1);
    let n = a.out.last().copied().unwrap_or(1);
    let product = elements(a.out).and_then(|e| e.checked_mul(k)?.checked_mul(2));
    let dequant = k.checked_mul(n).and_then(|w| w.checked_mul(DEQUANT_FLOPS));
    (
        product.and_then(|p| p.checked_add(dequant?)),
        FlopSource::Quant,
    )
}
