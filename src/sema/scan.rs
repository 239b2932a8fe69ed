//! Shape rules of the scans (issue 23, `crate::ops::scan`): `selective_scan` and
//! `associative_scan`. A child of `ops`, whose attribute readers it uses. Inputs that do not fit
//! together are `shape-mismatch`, each reported (one error never hides another); `Err` means
//! the output is unknown. Dtype rules (16-bit or f32 activations, f32 `A`, `D`, `delta_bias`)
//! are `infer`'s.

use super::super::fmt_shape;
use super::super::shape::ArgNames;
use super::{Attrs, Fail};
use crate::diagnostics::{Code, Diagnostic};
use crate::ops::scan::{D_SKIP, DELTA_BIAS, Z_GATE};
use crate::types::OpKind;

/// The output shape of a scan, from its inputs' shapes (all known).
pub(in crate::sema) fn infer(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    match attrs.kind {
        OpKind::SelectiveScan => selective(shapes, names, diags),
        OpKind::AssociativeScan => associative(shapes, attrs, names, diags),
        _ => Err(()),
    }
}

const LAYOUT: &str = "selective_scan takes u [B, D, L], delta [B, D, L], A [D, N], B and C \
                      [B, N, L] (or [B, G, N, L], G dividing D), then optionally D [D], z \
                      [B, D, L] and delta_bias [D], as mamba_ssm's `selective_scan_fn`";

fn mismatch(
    names: &(impl ArgNames + ?Sized),
    k: usize,
    message: String,
    label: String,
    help: String,
) -> Diagnostic {
    Diagnostic::new(Code::ShapeMismatch, message)
        .at(names.span(k), label)
        .help(help)
}

fn selective(
    shapes: &[&[u64]],
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    // The arity was checked: 5 to 8 tensors.
    if !(5..=8).contains(&shapes.len()) {
        return Err(());
    }
    let u = shapes[0];
    let &[batch, dim, len] = u else {
        diags.push(mismatch(
            names,
            0,
            format!(
                "the input `{}` of selective_scan is {}: it must be [B, D, L]",
                names.name(0),
                fmt_shape(u)
            ),
            format!("rank {}", u.len()),
            format!("{LAYOUT}; transpose a [B, L, D] activation with `permute`"),
        ));
        return Err(());
    };
    let mut ok = true;
    let mut check = |k: usize, what: &str, want: Vec<u64>, diags: &mut Vec<Diagnostic>| {
        let s = shapes[k];
        if s != want.as_slice() {
            ok = false;
            diags.push(mismatch(
                names,
                k,
                format!(
                    "`{}` ({what}) of selective_scan is {}, but `{}` {} needs {}",
                    names.name(k),
                    fmt_shape(s),
                    names.name(0),
                    fmt_shape(u),
                    fmt_shape(&want)
                ),
                format!("expected {}", fmt_shape(&want)),
                LAYOUT.to_string(),
            ));
        }
    };
    check(1, "delta, the step", u.to_vec(), diags);
    if shapes.len() > D_SKIP {
        check(D_SKIP, "D, the skip", vec![dim], diags);
    }
    if shapes.len() > Z_GATE {
        check(Z_GATE, "z, the gate", u.to_vec(), diags);
    }
    if shapes.len() > DELTA_BIAS {
        check(DELTA_BIAS, "delta_bias, the step's bias", vec![dim], diags);
    }
    // `A` gives the state size N, which `B` and `C` must have.
    let a = shapes[2];
    let n = match a {
        &[d, n] if d == dim => Some(n),
        _ => {
            ok = false;
            diags.push(mismatch(
                names,
                2,
                format!(
                    "`{}` (A, the state matrix) of selective_scan is {}, but `{}` {} has D = \
                     {dim} channels: A must be [{dim}, N]",
                    names.name(2),
                    fmt_shape(a),
                    names.name(0),
                    fmt_shape(u)
                ),
                format!("expected [{dim}, N]"),
                format!("{LAYOUT}; N is the state size (Mamba's d_state)"),
            ));
            None
        }
    };
    for (k, what) in [(3, "B"), (4, "C")] {
        let s = shapes[k];
        let fits = match (s, n) {
            (&[b, sn, l], _) => b == batch && l == len && n.is_none_or(|n| sn == n),
            (&[b, g, sn, l], _) => {
                b == batch && l == len && g >= 1 && dim % g == 0 && n.is_none_or(|n| sn == n)
            }
            _ => false,
        };
        if !fits {
            ok = false;
            let n_text = n.map_or("N".to_string(), |n| n.to_string());
            diags.push(mismatch(
                names,
                k,
                format!(
                    "`{}` ({what}, input-dependent) of selective_scan is {}, but needs \
                     [{batch}, {n_text}, {len}] (or [{batch}, G, {n_text}, {len}] with G \
                     dividing {dim})",
                    names.name(k),
                    fmt_shape(s),
                ),
                format!("expected [{batch}, {n_text}, {len}]"),
                format!(
                    "{LAYOUT}; a [B, L, N] slice of x_proj's output is transposed with \
                     `permute(t, dims = [0, 2, 1])`"
                ),
            ));
        }
    }
    if ok { Ok(u.to_vec()) } else { Err(()) }
}

fn associative(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let Some(&x) = shapes.first() else {
        return Err(());
    };
    let mut ok = true;
    // A pair (`linear(a, b)`, or an opaque combine of two tensors): one shape.
    if let Some(&b) = shapes.get(1)
        && b != x
    {
        ok = false;
        diags.push(mismatch(
            names,
            1,
            format!(
                "the two tensors of associative_scan must have one shape: `{}` is {}, `{}` is \
                 {}",
                names.name(0),
                fmt_shape(x),
                names.name(1),
                fmt_shape(b)
            ),
            format!("expected {}", fmt_shape(x)),
            "`associative_scan.linear(a, b)` scans the pairs (a_t, b_t) of h_t = a_t * \
             h_(t-1) + b_t: expand a broadcast operand to the full shape first"
                .to_string(),
        ));
    }
    if x.is_empty() {
        diags.push(mismatch(
            names,
            0,
            format!(
                "associative_scan runs along an axis, but `{}` is a scalar",
                names.name(0)
            ),
            "shape []".to_string(),
            "a scan needs a tensor of rank 1 or more; reshape the scalar to `[1]` if it is meant"
                .to_string(),
        ));
        return Err(());
    }
    attrs.axis("axis", Some(-1), x.len(), &names.name(0), diags)?;
    if ok { Ok(x.to_vec()) } else { Err(()) }
}

impl<'s> super::super::Sema<'_, 's> {
    /// The dtypes `mamba_ssm`'s `selective_scan_fwd` checks: `u` f32, f16 or bf16; `delta`,
    /// `B`, `C` and `z` of `u`'s dtype; `A`, `D` and `delta_bias` f32. Each wrong one is
    /// `invalid-dtype`; an unknown one (after an error) is not checked.
    pub(in crate::sema) fn selective_scan_dtypes(&mut self, o: usize) {
        use crate::diagnostics::Span;
        use crate::types::Dtype;
        let op = self.ops[o].name;
        let args: Vec<Option<(Dtype, &'s str, Span)>> = self.uses
            [super::super::use_range(&self.ops, o)]
        .iter()
        .map(|u| {
            let t = &self.tensors[u.tensor()?.index()];
            Some((t.dtype?, t.name.name, u.span))
        })
        .collect();
        let Some(Some((input, u_name, u_at))) = args.first().copied() else {
            return;
        };
        let known = |k: usize| args.get(k).copied().flatten();
        if !matches!(input, Dtype::F32 | Dtype::F16 | Dtype::Bf16) {
            self.diags.push(
                Diagnostic::new(
                    Code::InvalidDtype,
                    format!("the input `{u_name}` of selective_scan `{op}` is {input}"),
                )
                .at(u_at, format!("`{u_name}` is {input}"))
                .help("mamba_ssm's selective scan takes f32, f16 or bf16 activations"),
            );
            return;
        }
        for (k, what, f32_only) in [
            (1, "delta", false),
            (2, "A", true),
            (3, "B", false),
            (4, "C", false),
            (D_SKIP, "D", true),
            (Z_GATE, "z", false),
            (DELTA_BIAS, "delta_bias", true),
        ] {
            let Some((d, name, at)) = known(k) else {
                continue;
            };
            let want = if f32_only { Dtype::F32 } else { input };
            if d == want {
                continue;
            }
            let help = if f32_only {
                format!(
                    "mamba_ssm keeps `{what}` in f32 (Mamba passes `A = -exp(A_log.float())`, \
                     `D.float()`, `dt_proj.bias.float()`): declare `{name}: f32[..]`"
                )
            } else {
                format!(
                    "`{what}` has the dtype of the input `u` ({input}), as mamba_ssm checks: \
                     declare `{name}: {input}[..]`"
                )
            };
            self.diags.push(
                Diagnostic::new(
                    Code::InvalidDtype,
                    format!("`{name}`, the `{what}` argument of selective_scan `{op}`, is {d}, not {want}"),
                )
                .at(at, format!("`{name}` is {d}"))
                .help(help),
            );
        }
    }
}
