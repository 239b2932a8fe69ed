//! The shape rule of `conv` (issue 23): input `[N, C, *spatial]` (1 to 3 spatial dims),
//! weight `[K, C/groups, *kernel]`, output `[N, K, *out]` with, per spatial dim,
//! `out = floor((L + 2p - d(k-1) - 1) / s) + 1` (PyTorch's formula). `stride`, `padding` and
//! `dilation` are one value or a list with one value per spatial dim; `groups` divides C and
//! K; `channels_last` is `true` or `false`. Errors: `bad-attribute` for an attribute of the
//! wrong form, out of range or that does not divide the channels, `shape-mismatch` for
//! inputs that do not fit together or an output dim below 1, `limit-exceeded` for an output
//! dim past the limits. The arithmetic is in 128 bits: no input overflows it.

use super::fmt_shape;
use super::ops::Attrs;
use super::shape::ArgNames;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::graph::AttrValue;
use crate::syntax::ast::{Arg, Expr};
use std::ops::Deref;

/// An error already reported (or an unknown value): the output is unknown.
type Fail = ();

/// The most spatial dims a conv takes (`conv3d`).
const MAX_SPATIAL: usize = 3;

fn bad(message: String, at: Span, label: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::BadAttribute, message)
        .at(at, label.into())
        .help(help.into())
}

/// Attribute `name` as one value per spatial dim (`spatial` of them): `default` each when
/// not written, one value repeated, or a list of exactly `spatial` values; each at least
/// `min`. An error (reported) otherwise; a `true`/`false` value or an expression that failed
/// was reported already.
fn per_dim(
    attrs: &Attrs<'_, '_>,
    name: &str,
    default: i64,
    min: i64,
    spatial: usize,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let example = match spatial {
        1 => format!("{name} = 2"),
        2 => format!("{name} = [2, 2]"),
        _ => format!("{name} = [1, 2, 2]"),
    };
    let values: Vec<i64> = match attrs.written(name) {
        None => vec![default; spatial],
        // `stride = true` is reported where booleans are checked.
        Some(Arg::Attr {
            value: Expr::Bool { .. },
            ..
        }) => return Err(()),
        Some(Arg::Attr { .. }) => {
            // An expression that failed was reported.
            let &(_, v) = attrs.ints.iter().find(|(n, _)| n == name).ok_or(())?;
            vec![v; spatial]
        }
        Some(Arg::ListAttr { .. }) => {
            let list = attrs
                .extra
                .and_then(|e| {
                    e.attrs.iter().find_map(|(n, v)| match v {
                        AttrValue::List(l) if n == name => Some(l.as_slice()),
                        _ => None,
                    })
                })
                .ok_or(())?;
            if list.len() != spatial {
                diags.push(bad(
                    format!(
                        "`{name}` of `conv` lists {} values for {spatial} spatial dim{}",
                        list.len(),
                        if spatial == 1 { "" } else { "s" }
                    ),
                    attrs.span(name),
                    format!(
                        "{} value{}, expected {spatial}",
                        list.len(),
                        if list.len() == 1 { "" } else { "s" }
                    ),
                    format!(
                        "give one value for every spatial dim of the input, or one value for \
                         all of them: `{example}`"
                    ),
                ));
                return Err(());
            }
            list.to_vec()
        }
        Some(_) => {
            diags.push(bad(
                format!("attribute `{name}` of `conv` must be an integer or a list of integers"),
                attrs.span(name),
                "not an integer",
                format!("write `{example}`, or one integer for every spatial dim"),
            ));
            return Err(());
        }
    };
    if let Some(&v) = values.iter().find(|&&v| v < min) {
        diags.push(bad(
            format!("`{name}` of `conv` must be at least {min}, found {v}"),
            attrs.span(name),
            format!("{name} {v}"),
            match name {
                "padding" => "padding is the number of zeros added on each side: 0 or more",
                "stride" => "the stride is the step of the window: 1 or more",
                _ => "the dilation is the spacing of the kernel's taps: 1 (no gaps) or more",
            },
        ));
        return Err(());
    }
    // Every value is at least 0 here.
    Ok(values.into_iter().map(|v| v as u64).collect())
}

/// The output shape of a conv, or `None` after an error (reported) or an unknown input.
pub(super) fn infer<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    // `channels_last` is checked whatever the shapes: it states the layout.
    let layout = channels_last(attrs, diags);
    let (Some(Some(x)), Some(Some(w))) = (args.first(), args.get(1)) else {
        return None;
    };
    let (x, w): (&[u64], &[u64]) = (x, w);
    let out = shape(x, w, attrs, names, diags).ok();
    layout.ok().and(out)
}

/// `channels_last`: `true`/`false` (or 1/0); anything else is reported.
fn channels_last(attrs: &Attrs<'_, '_>, diags: &mut Vec<Diagnostic>) -> Result<(), Fail> {
    let name = "channels_last";
    let problem = match attrs.written(name) {
        None
        | Some(Arg::Attr {
            value: Expr::Bool { .. },
            ..
        }) => return Ok(()),
        Some(Arg::Attr { .. }) => match attrs.ints.iter().find(|(n, _)| n == name) {
            Some((_, 0 | 1)) => return Ok(()),
            Some(&(_, v)) => format!("found {v}"),
            // An expression that failed was reported.
            None => return Err(()),
        },
        Some(_) => "found a number or a list".to_string(),
    };
    diags.push(bad(
        format!("attribute `{name}` of `conv` must be `true` or `false`, {problem}"),
        attrs.span(name),
        "not `true` or `false`",
        "write `channels_last = true` for tensors stored channels-last \
         (`x.to(memory_format=torch.channels_last)`); leave it out for contiguous NCHW",
    ));
    Err(())
}

fn shape(
    x: &[u64],
    w: &[u64],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let (input, weight) = (names.name(0), names.name(1));
    if !(3..=2 + MAX_SPATIAL).contains(&x.len()) {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "the input `{input}` {} of `conv` has rank {}: a conv takes [N, C, L], \
                     [N, C, H, W] or [N, C, D, H, W]",
                    fmt_shape(x),
                    x.len()
                ),
            )
            .at(names.span(0), format!("rank {}", x.len()))
            .help(
                "a conv has 1 to 3 spatial dims after the batch and the channels; for an \
                 unbatched input add a batch of 1 with a reshape",
            ),
        );
        return Err(());
    }
    if w.len() != x.len() {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "the weight `{weight}` {} of `conv` has rank {}, the input `{input}` {} rank {}",
                    fmt_shape(w),
                    w.len(),
                    fmt_shape(x),
                    x.len()
                ),
            )
            .at(names.span(1), format!("rank {}", w.len()))
            .with(names.span(0), format!("rank {}", x.len()))
            .help(format!(
                "the weight is [K, C/groups, *kernel], with one kernel dim per spatial dim of \
                 the input: rank {}",
                x.len()
            )),
        );
        return Err(());
    }
    let spatial = x.len() - 2;
    let stride = per_dim(attrs, "stride", 1, 1, spatial, diags);
    let padding = per_dim(attrs, "padding", 0, 0, spatial, diags);
    let dilation = per_dim(attrs, "dilation", 1, 1, spatial, diags);
    let groups = groups(attrs, diags);
    let (stride, padding, dilation, groups) = (stride?, padding?, dilation?, groups?);
    let (n, c, k) = (x[0], x[1], w[0]);
    let mut ok = true;
    for (what, count, letter) in [("input", c, "C"), ("output", k, "K")] {
        if count % groups != 0 {
            let source = if letter == "C" {
                format!("`{input}` {} has {c} channels (dim 1)", fmt_shape(x))
            } else {
                format!("`{weight}` {} has {k} filters (dim 0)", fmt_shape(w))
            };
            diags.push(bad(
                format!(
                    "`groups = {groups}` does not divide the {count} {what} channels of `conv`"
                ),
                attrs.span("groups"),
                format!("{count} is not a multiple of {groups}"),
                format!(
                    "{source}: groups must divide both C and K (groups = C is a depthwise conv)"
                ),
            ));
            ok = false;
        }
    }
    if !ok {
        return Err(());
    }
    if w[1] != c / groups {
        let g = if groups == 1 {
            String::new()
        } else {
            format!(" / groups = {c} / {groups}")
        };
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "the weight `{weight}` {} of `conv` takes {} input channels, but `{input}` {} \
                     gives {}",
                    fmt_shape(w),
                    w[1],
                    fmt_shape(x),
                    c / groups,
                ),
            )
            .at(names.span(1), format!("dim 1 is {}", w[1]))
            .with(names.span(0), format!("{c} channels (dim 1)"))
            .help(format!(
                "the weight is [K, C/groups, *kernel]: its dim 1 must be C{g} = {}",
                c / groups
            )),
        );
        return Err(());
    }
    let mut out = Vec::with_capacity(x.len());
    out.extend([n, k]);
    // Every spatial dim is checked: one without an output element hides no other.
    let mut failed = false;
    for i in 0..spatial {
        let (l, kk) = (u128::from(x[2 + i]), u128::from(w[2 + i]));
        let (s, p, d) = (
            u128::from(stride[i]),
            u128::from(padding[i]),
            u128::from(dilation[i]),
        );
        // Every term is below 2^64: sums and products of two of them fit 128 bits.
        let padded = l + 2 * p;
        let reach = (d * kk.saturating_sub(1)).saturating_add(1);
        if kk == 0 {
            diags.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "the weight `{weight}` {} of `conv` has an empty kernel along spatial                          dim {i}",
                        fmt_shape(w)
                    ),
                )
                .at(names.span(1), format!("kernel {}", fmt_shape(&w[2..])))
                .help("every kernel dim of the weight [K, C/groups, *kernel] is at least 1"),
            );
            failed = true;
            continue;
        }
        if padded < reach {
            let dilated = if d > 1 {
                format!(" (dilated {d}: it spans {reach})")
            } else {
                String::new()
            };
            diags.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "the output of `conv` would have no element along spatial dim {i}: the \
                         kernel {kk}{dilated} is larger than the input {l} with padding {p} on \
                         each side",
                    ),
                )
                .at(names.span(1), format!("kernel {}", fmt_shape(&w[2..])))
                .with(names.span(0), format!("spatial {}", fmt_shape(&x[2..])))
                .help(
                    "each output dim is floor((L + 2·padding - dilation·(k - 1) - 1) / stride) \
                     + 1 and must be at least 1: pad the input, or use a smaller kernel or \
                     dilation",
                ),
            );
            failed = true;
            continue;
        }
        let o = (padded - reach) / s + 1;
        let Ok(o) = u64::try_from(o) else {
            diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "spatial dim {i} of the output of `conv` is {o}, above the limit of \
                         2^48 ({})",
                        crate::limits::MAX_DIM
                    ),
                )
                .at(attrs.span("padding"), format!("padding {p}"))
                .help("dimensions are at most 2^48; check the padding and the input's size"),
            );
            failed = true;
            continue;
        };
        out.push(o);
    }
    if failed { Err(()) } else { Ok(out) }
}

/// `groups`: 1 when not written, else a positive integer.
fn groups(attrs: &Attrs<'_, '_>, diags: &mut Vec<Diagnostic>) -> Result<u64, Fail> {
    match attrs.written("groups") {
        None => Ok(1),
        Some(Arg::Attr {
            value: Expr::Bool { .. },
            ..
        }) => Err(()),
        Some(Arg::Attr { .. }) => {
            let &(_, g) = attrs.ints.iter().find(|(n, _)| n == "groups").ok_or(())?;
            match u64::try_from(g) {
                Ok(g) if g >= 1 => Ok(g),
                _ => {
                    diags.push(bad(
                        format!("`groups` of `conv` must be at least 1, found {g}"),
                        attrs.span("groups"),
                        format!("groups {g}"),
                        "groups splits the channels into groups convolved apart: 1 (a dense \
                         conv) or more",
                    ));
                    Err(())
                }
            }
        }
        Some(_) => {
            diags.push(bad(
                "attribute `groups` of `conv` must be an integer".to_string(),
                attrs.span("groups"),
                "not an integer",
                "write `groups = G`, a divisor of the input and output channels",
            ));
            Err(())
        }
    }
}
