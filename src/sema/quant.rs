//! The shape and dtype rules of the low-precision GEMMs (issue 23 item 6, `crate::ops::quant`).
//!
//! - `scaled_mm(a, b, scale_a, scale_b, bias)`: `a` `[M, K]`, `b` `[K, N]` (2-D, as
//!   `torch._scaled_mm` takes them; `w.T` reads a weight stored `[N, K]`), scales per-tensor
//!   (one element: `[]`, `[1]`, `[1, 1]`) or rowwise (`scale_a` `[M, 1]`, `scale_b` `[1, N]`),
//!   both of one kind; bias `[N]`; output `[M, N]`.
//! - `quant_mm(x, w, scales, zeros, bits, group_size)`: `x` `[..., K]`, `w` `[K / p, N]` with
//!   `p = width(w's dtype) / bits` weights packed per element, `scales` and `zeros`
//!   `[K / group_size, N]`; output `[..., N]`.
//!
//! Shapes that do not fit are `shape-mismatch`; a `bits` other than 4 or 8, or a
//! `group_size` that does not divide K, is `bad-attribute`; operands of the wrong dtype are
//! `invalid-dtype` ([`dtypes`]).

use super::fmt_shape;
use super::ops::Attrs;
use super::shape::ArgNames;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::ops::quant::{BITS, DEFAULT_BITS, GROUP_SIZE};
use crate::types::{Dtype, OpKind};
use std::ops::Deref;

const SCALED_LAYOUT: &str = "scaled_mm takes a [M, K] and b [K, N] (8-bit), scale_a and \
                             scale_b per-tensor ([1]) or rowwise ([M, 1] and [1, N]), f32, and \
                             an optional bias [N], as torch._scaled_mm does";

fn mismatch(
    names: &(impl ArgNames + ?Sized),
    at: usize,
    message: String,
    label: String,
    help: String,
) -> Diagnostic {
    Diagnostic::new(Code::ShapeMismatch, message)
        .at(names.span(at), label)
        .help(help)
}

/// The output shape of a `scaled_mm`; `None` when an input is unknown or a mismatch was
/// reported.
pub(super) fn infer_scaled<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    let shape = |k: usize| args.get(k).and_then(|a| a.as_deref());
    let (a, b) = (shape(0)?, shape(1)?);
    let mut ok = true;
    for (k, s) in [(0, a), (1, b)] {
        if s.len() != 2 {
            diags.push(mismatch(
                names,
                k,
                format!(
                    "scaled_mm operand `{}` has shape {}, of rank {}: torch._scaled_mm multiplies \
                     2-D matrices",
                    names.name(k),
                    fmt_shape(s),
                    s.len()
                ),
                format!("rank {}", s.len()),
                format!(
                    "{SCALED_LAYOUT}; reshape `{}` to 2 dims (fold the batch into M)",
                    names.name(k)
                ),
            ));
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let (m, k, k2, n) = (a[0], a[1], b[0], b[1]);
    if k != k2 {
        let right = names.name(1);
        let help = if b[1] == k && !right.ends_with(".T") {
            format!(
                "`{right}.T` is [{}, {}]: did you mean `{right}.T`? (a weight stored [N, K], as \
                 nn.Linear stores it, is read transposed)",
                b[1], b[0]
            )
        } else {
            "the last dimension of `a` must equal the first of `b`".to_string()
        };
        diags.push(
            mismatch(
                names,
                1,
                format!(
                    "scaled_mm inner dimensions differ: `{}` is {} and `{right}` is {}",
                    names.name(0),
                    fmt_shape(a),
                    fmt_shape(b)
                ),
                format!("has {k2} rows"),
                help,
            )
            .with(names.span(0), format!("has {k} columns")),
        );
        ok = false;
    }
    // The scales: one element each, or rowwise (`Some(true)`); `None`: unknown or reported.
    let per_tensor = |s: &[u64]| s.len() <= 2 && s.iter().all(|&d| d == 1);
    let mut kinds: [Option<bool>; 2] = [None, None];
    for (slot, (i, rowwise)) in kinds.iter_mut().zip([(2, [m, 1]), (3, [1, n])]) {
        let Some(s) = shape(i) else { continue };
        if per_tensor(s) {
            *slot = Some(false);
        } else if s == rowwise {
            *slot = Some(true);
        } else {
            let which = if i == 2 { "scale_a" } else { "scale_b" };
            diags.push(mismatch(
                names,
                i,
                format!(
                    "the {which} `{}` of scaled_mm has shape {}: neither per-tensor [1] nor \
                     rowwise {}",
                    names.name(i),
                    fmt_shape(s),
                    fmt_shape(&rowwise)
                ),
                format!("shape {}", fmt_shape(s)),
                format!(
                    "{which} is one f32 for the whole operand ([1]) or one per {} ({}); \
                     {SCALED_LAYOUT}",
                    if i == 2 { "row of a" } else { "column of b" },
                    fmt_shape(&rowwise)
                ),
            ));
            ok = false;
        }
    }
    // A rowwise scale of one row (M = 1) or column (N = 1) is per-tensor as well.
    if let [Some(ra), Some(rb)] = kinds
        && ra != rb
        && m != 1
        && n != 1
    {
        let (row, tensor) = if ra { (2, 3) } else { (3, 2) };
        diags.push(
            mismatch(
                names,
                tensor,
                format!(
                    "scaled_mm mixes a rowwise scale `{}` and a per-tensor scale `{}`",
                    names.name(row),
                    names.name(tensor)
                ),
                "per-tensor".to_string(),
                format!(
                    "torch._scaled_mm takes both scales per-tensor or both rowwise: give `{}` \
                     the shape {} (the one value repeated)",
                    names.name(tensor),
                    if tensor == 2 {
                        fmt_shape(&[m, 1])
                    } else {
                        fmt_shape(&[1, n])
                    }
                ),
            )
            .with(names.span(row), "rowwise"),
        );
        ok = false;
    }
    if let Some(bias) = shape(4)
        && bias != [n]
    {
        diags.push(mismatch(
            names,
            4,
            format!(
                "the bias `{}` of scaled_mm has shape {}, not [{n}]",
                names.name(4),
                fmt_shape(bias)
            ),
            format!("shape {}", fmt_shape(bias)),
            format!("the bias adds one value per output column: [{n}]; {SCALED_LAYOUT}"),
        ));
        ok = false;
    }
    ok.then(|| vec![m, n])
}

/// The bits of a `quant_mm` (`None` when written out of range: reported already, or here).
fn bits(attrs: &Attrs<'_, '_>, diags: &mut Vec<Diagnostic>) -> Option<u64> {
    if attrs.written(BITS.name).is_none() {
        return Some(DEFAULT_BITS as u64);
    }
    let &(_, v) = attrs.ints.iter().find(|(n, _)| n == BITS.name)?;
    match v {
        4 | 8 => Some(v as u64),
        // Outside 4 to 8 is reported with the attribute's range.
        5..=7 => {
            diags.push(
                Diagnostic::new(
                    Code::BadAttribute,
                    format!("attribute `bits` of `quant_mm` is {v}: quant_mm takes 4 or 8"),
                )
                .at(attrs.span(BITS.name), format!("{v}-bit weights"))
                .help(
                    "write `bits = 4` (w4a16: int4 weights, the default) or `bits = 8` (w8a16); \
                     other widths have no serving kernel fgraph models",
                ),
            );
            None
        }
        _ => None,
    }
}

/// Bits of an integer storage dtype for packed weights; `None` for other dtypes (reported by
/// [`dtypes`]).
fn storage_bits(d: Dtype) -> Option<u64> {
    match d {
        Dtype::U8 | Dtype::I8 => Some(8),
        Dtype::I16 => Some(16),
        Dtype::I32 => Some(32),
        Dtype::I64 => Some(64),
        _ => None,
    }
}

/// The output shape of a `quant_mm`; `w_dtype` is its weights' dtype. `None` when an input is
/// unknown or an error was reported.
pub(super) fn infer_quant<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    attrs: &Attrs<'_, '_>,
    w_dtype: Option<Dtype>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    let shape = |k: usize| args.get(k).and_then(|a| a.as_deref());
    let bits = bits(attrs, diags);
    let (x, w) = (shape(0)?, shape(1)?);
    let layout = "quant_mm takes x [..., K] (f16 or bf16), w [K / p, N] holding p weights of \
                  `bits` bits packed along K per element (u8: 2 int4, i32: 8 int4, i8 or u8 \
                  with bits = 8: 1), scales and zeros [K / group_size, N]";
    let mut ok = true;
    if x.is_empty() {
        diags.push(mismatch(
            names,
            0,
            format!(
                "the activations `{}` of quant_mm are a scalar",
                names.name(0)
            ),
            "rank 0".to_string(),
            layout.to_string(),
        ));
        ok = false;
    }
    if w.len() != 2 {
        diags.push(mismatch(
            names,
            1,
            format!(
                "the packed weights `{}` of quant_mm have shape {}, of rank {}: they are a \
                 [K / p, N] matrix",
                names.name(1),
                fmt_shape(w),
                w.len()
            ),
            format!("rank {}", w.len()),
            layout.to_string(),
        ));
        ok = false;
    }
    if !ok {
        return None;
    }
    let k = x[x.len() - 1];
    let (rows, n) = (w[0], w[1]);
    // Weights per storage element, where the dtype and bits are known.
    let per = match (w_dtype.and_then(storage_bits), bits) {
        (Some(sb), Some(b)) if sb >= b => Some(sb / b),
        _ => None,
    };
    if let Some(p) = per
        && rows.checked_mul(p) != Some(k)
    {
        let want = if k.is_multiple_of(p) {
            format!("[{}, {n}]", k / p)
        } else {
            format!("K a multiple of {p}")
        };
        diags.push(
            mismatch(
                names,
                1,
                format!(
                    "the packed weights `{}` {} hold {rows} × {p} = {} weights along K, but the \
                     activations `{}` {} have K = {k}",
                    names.name(1),
                    fmt_shape(w),
                    u128::from(rows) * u128::from(p),
                    names.name(0),
                    fmt_shape(x)
                ),
                format!(
                    "{rows} rows of {p} {}-bit weights ({})",
                    bits.unwrap_or(4),
                    w_dtype.map_or("?".into(), |d| d.to_string())
                ),
                format!("for K = {k}, w is {want}; {layout}"),
            )
            .with(names.span(0), format!("K = {k}")),
        );
        ok = false;
    }
    // The group size: written, or K over the scales' rows.
    let group = match attrs.written(GROUP_SIZE.name) {
        None => None,
        Some(_) => match attrs.ints.iter().find(|(n, _)| n == GROUP_SIZE.name) {
            Some(&(_, g)) if g >= 1 => Some(g as u64),
            // Reported with the attribute's range, or the expression failed.
            _ => return None,
        },
    };
    if let Some(g) = group
        && !k.is_multiple_of(g)
    {
        diags.push(
            Diagnostic::new(
                Code::BadAttribute,
                format!("`group_size = {g}` of quant_mm does not divide K = {k}"),
            )
            .at(attrs.span(GROUP_SIZE.name), format!("groups of {g}"))
            .with(names.span(0), format!("K = {k}"))
            .help(format!(
                "each scale covers group_size consecutive weights along K: a divisor of {k} \
                 (128 is usual, {k} for one scale per output channel)"
            )),
        );
        return None;
    }
    for (i, what) in [(2, "scales"), (3, "zeros")] {
        let Some(s) = shape(i) else { continue };
        let groups_ok = |gr: u64| match group {
            Some(g) => gr == k / g,
            None => gr >= 1 && k.is_multiple_of(gr),
        };
        if s.len() == 2 && s[1] == n && groups_ok(s[0]) {
            continue;
        }
        let want = match group {
            Some(g) => format!("[{}, {n}] (K / group_size = {k} / {g})", k / g),
            None => format!(
                "[K / group_size, {n}] with K = {k} (e.g. [{}, {n}] for groups of 128)",
                k.div_ceil(128).max(1)
            ),
        };
        diags.push(mismatch(
            names,
            i,
            format!(
                "the {what} `{}` of quant_mm have shape {}, not {want}",
                names.name(i),
                fmt_shape(s),
            ),
            format!("shape {}", fmt_shape(s)),
            format!(
                "one {} per group of weights along K and per output column; {layout}",
                &what[..what.len() - 1]
            ),
        ));
        ok = false;
    }
    if !ok {
        return None;
    }
    let mut out = x[..x.len() - 1].to_vec();
    out.push(n);
    Some(out)
}

/// The 8-bit floats `scaled_mm` takes.
fn is_f8(d: Dtype) -> bool {
    matches!(d, Dtype::Fp8 | Dtype::F8e4m3 | Dtype::F8e5m2)
}

/// One argument's dtype, name and place (`None` where unknown).
pub(super) type ArgDtype<'s> = Option<(Dtype, &'s str, Span)>;

/// The dtype rules of a low-precision GEMM `op` of `kind`: its arguments' dtypes `args` and
/// its output's dtype `out`, declared at `out_at` (or `None`: the default).
pub(super) fn dtypes(
    kind: OpKind,
    op: &str,
    args: &[ArgDtype<'_>],
    out: Option<(Dtype, Span)>,
    diags: &mut Vec<Diagnostic>,
) {
    let invalid = |(d, name, at): (Dtype, &str, Span), message: String, help: String| {
        Diagnostic::new(Code::InvalidDtype, message)
            .at(at, format!("`{name}` is {d}"))
            .help(help)
    };
    let arg = |k: usize| args.get(k).copied().flatten();
    match kind {
        OpKind::ScaledMm => {
            let (a, b) = (arg(0), arg(1));
            for x in [a, b].into_iter().flatten() {
                if !is_f8(x.0) && x.0 != Dtype::I8 {
                    diags.push(invalid(
                        x,
                        format!(
                            "the operand `{}` of scaled_mm `{op}` is {}, not an 8-bit type",
                            x.1, x.0
                        ),
                        format!(
                            "scaled_mm multiplies 8-bit operands: f8e4m3 or f8e5m2 (FP8) or i8 \
                             (INT8); declare `{}: f8e4m3[..]`, or use `matmul` for {} operands",
                            x.1, x.0
                        ),
                    ));
                }
            }
            if let (Some(a), Some(b)) = (a, b) {
                if (is_f8(a.0) && b.0 == Dtype::I8) || (a.0 == Dtype::I8 && is_f8(b.0)) {
                    diags.push(
                        invalid(
                            b,
                            format!(
                                "scaled_mm `{op}` multiplies {} `{}` by {} `{}`: no kernel mixes \
                                 FP8 and INT8",
                                a.0, a.1, b.0, b.1
                            ),
                            "give both operands FP8 types (f8e4m3, f8e5m2) or both i8".into(),
                        )
                        .with(a.2, format!("`{}` is {}", a.1, a.0)),
                    );
                } else if a.0 == Dtype::F8e5m2 && b.0 == Dtype::F8e5m2 {
                    diags.push(
                        invalid(
                            b,
                            format!(
                                "scaled_mm `{op}` multiplies two f8e5m2 operands, `{}` and `{}`",
                                a.1, b.1
                            ),
                            "the FP8 tensor cores take e4m3 × e4m3, e4m3 × e5m2 or e5m2 × e4m3, \
                             not e5m2 × e5m2 (torch._scaled_mm rejects it): declare one of them \
                             f8e4m3"
                                .into(),
                        )
                        .with(a.2, format!("`{}` is f8e5m2", a.1)),
                    );
                }
            }
            for x in [arg(2), arg(3)].into_iter().flatten() {
                if x.0 != Dtype::F32 {
                    diags.push(invalid(
                        x,
                        format!(
                            "the scale `{}` of scaled_mm `{op}` is {}, not f32",
                            x.1, x.0
                        ),
                        format!(
                            "torch._scaled_mm takes f32 scales: declare `{}: f32[..]`",
                            x.1
                        ),
                    ));
                }
            }
            if let Some((d, at)) = out
                && !matches!(
                    d,
                    Dtype::Bf16
                        | Dtype::F16
                        | Dtype::F32
                        | Dtype::Fp8
                        | Dtype::F8e4m3
                        | Dtype::F8e5m2
                )
            {
                diags.push(
                    Diagnostic::new(
                        Code::InvalidDtype,
                        format!("scaled_mm `{op}` is declared to produce {d}"),
                    )
                    .at(at, format!("declared {d}"))
                    .help(
                        "the scaled product is real-valued: bf16 (the default), f16, f32 or an \
                         FP8 type; for the raw i32 accumulator of two i8 matrices write \
                         `matmul(a, b)` (torch._int_mm)",
                    ),
                );
            }
        }
        OpKind::QuantMm => {
            if let Some(x) = arg(0)
                && !matches!(x.0, Dtype::F16 | Dtype::Bf16)
            {
                diags.push(invalid(
                    x,
                    format!(
                        "the activations `{}` of quant_mm `{op}` are {}, not 16-bit",
                        x.1, x.0
                    ),
                    format!(
                        "weight-only quantised kernels (w4a16, w8a16) take f16 or bf16 \
                         activations: declare `{}: bf16[..]`; for 8-bit activations use \
                         `scaled_mm`",
                        x.1
                    ),
                ));
            }
            if let Some(w) = arg(1)
                && storage_bits(w.0).is_none()
            {
                diags.push(invalid(
                    w,
                    format!(
                        "the packed weights `{}` of quant_mm `{op}` are {}, not an integer type",
                        w.1, w.0
                    ),
                    format!(
                        "quantised weights are stored packed in integers: `{}: u8[K / 2, N]` \
                         (two int4 per byte), `i32[K / 8, N]` (eight, GPTQ's qweight) or \
                         `i8[K, N]` with `bits = 8`",
                        w.1
                    ),
                ));
            }
            if let Some(s) = arg(2)
                && !matches!(s.0, Dtype::F16 | Dtype::Bf16 | Dtype::F32)
            {
                diags.push(invalid(
                    s,
                    format!(
                        "the scales `{}` of quant_mm `{op}` are {}, not floating point",
                        s.1, s.0
                    ),
                    format!(
                        "group scales are stored in the activations' dtype (or f32): declare \
                         `{}: bf16[..]`",
                        s.1
                    ),
                ));
            }
        }
        _ => {}
    }
}
