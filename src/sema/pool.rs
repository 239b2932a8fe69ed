//! Shape rules of the normalisation and pooling families (issue 23): the pooling kinds
//! (`max_pool`, `avg_pool`, `global_avg_pool`, `global_max_pool`, [`crate::ops::pool`]) and
//! the channel groups of `reduction.group_norm`.
//!
//! A pool takes `[N, C, *spatial]` with 1 to 3 spatial dims (NCHW logical order whatever the
//! memory layout: `channels_last = true` changes no shape). A windowed pool's `kernel`,
//! `stride` (default: the kernel) and `padding` (default 0) are one value for every spatial
//! dim or a list of one per spatial dim; each output dim is `floor((L + 2p - k) / s) + 1`, as
//! PyTorch's (`ceil_mode = False`). A global pool gives `[N, C, 1, ..]` (PyTorch's adaptive
//! pooling to 1×1). Wrong attributes are `bad-attribute`, an input of another rank
//! `shape-mismatch`; `None` means unknown (an input was unknown, or this op reported).

use super::fmt_shape;
use super::ops::Attrs;
use super::shape::ArgNames;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::graph::AttrValue;
use crate::ops::pool;
use crate::syntax::ast::{Arg, Expr};
use crate::types::OpKind;
use std::ops::Deref;

type Fail = ();

fn bad(message: String, at: Span, label: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::BadAttribute, message)
        .at(at, label.into())
        .help(help.into())
}

/// Integer attribute `name` as evaluated; `Err` when written but not an integer that
/// evaluated (a float or list is reported here; a boolean was reported by the attribute
/// check, a failed expression by its evaluation).
fn int(
    attrs: &Attrs<'_, '_>,
    name: &str,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<i64>, Fail> {
    match attrs.written(name) {
        None => Ok(None),
        Some(Arg::Attr { .. }) => attrs
            .ints
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| Some(v))
            .ok_or(()),
        Some(_) => {
            diags.push(bad(
                format!(
                    "attribute `{name}` of `{}` must be `true` or `false`",
                    attrs.kind
                ),
                attrs.span(name),
                "not a boolean",
                format!("write `{name} = true` or `{name} = false`"),
            ));
            Err(())
        }
    }
}

/// `channels_last`: `true`, `false`, 1 or 0.
pub(super) fn channels_last(
    attrs: &Attrs<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), Fail> {
    let name = pool::CHANNELS_LAST.name;
    match int(attrs, name, diags)? {
        None | Some(0 | 1) => Ok(()),
        Some(v) => {
            diags.push(bad(
                format!(
                    "attribute `{name}` of `{}` must be `true` or `false` (or 1 or 0), found {v}",
                    attrs.kind
                ),
                attrs.span(name),
                "not a boolean",
                format!(
                    "write `{name} = true` or `{name} = false`: {}",
                    pool::CHANNELS_LAST.doc
                ),
            ));
            Err(())
        }
    }
}

/// A per-spatial-dim attribute (`kernel`, `stride`, `padding`): one integer for every one of
/// `n` spatial dims, or a list of `n`; each at least `min`. `Ok(None)` when not written.
fn per_dim(
    attrs: &Attrs<'_, '_>,
    name: &str,
    n: usize,
    min: i64,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<Vec<u64>>, Fail> {
    let example = match name {
        "kernel" => "kernel = 3",
        "stride" => "stride = 2",
        _ => "padding = 1",
    };
    let values: Vec<i64> = match attrs.written(name) {
        None => return Ok(None),
        // `true`/`false` were reported by the attribute check (an integer belongs here).
        Some(Arg::Attr {
            value: Expr::Bool { .. },
            ..
        }) => return Err(()),
        Some(Arg::Attr { .. }) => {
            let v = attrs
                .ints
                .iter()
                .find(|(k, _)| k == name)
                .map(|&(_, v)| v)
                .ok_or(())?;
            vec![v; n]
        }
        Some(Arg::ListAttr { .. }) => {
            let list = attrs
                .extra
                .and_then(|e| {
                    e.attrs.iter().find_map(|(k, v)| match v {
                        AttrValue::List(l) if k == name => Some(l.clone()),
                        _ => None,
                    })
                })
                .ok_or(())?;
            if list.len() != n {
                diags.push(bad(
                    format!(
                        "`{name}` of `{}` lists {} values for {n} spatial dim{}",
                        attrs.kind,
                        list.len(),
                        if n == 1 { "" } else { "s" }
                    ),
                    attrs.span(name),
                    format!("{} values", list.len()),
                    format!(
                        "give one value for every spatial dim (`{example}`) or a list of {n}, \
                         one per spatial dim of `[N, C, *spatial]`"
                    ),
                ));
                return Err(());
            }
            list
        }
        Some(_) => {
            diags.push(bad(
                format!(
                    "attribute `{name}` of `{}` must be an integer or a list of integers",
                    attrs.kind
                ),
                attrs.span(name),
                "not an integer",
                format!("write `{example}` or a list of one per spatial dim"),
            ));
            return Err(());
        }
    };
    if let Some(&v) = values.iter().find(|&&v| v < min) {
        diags.push(bad(
            format!(
                "`{name}` of `{}` must be at least {min}, found {v}",
                attrs.kind
            ),
            attrs.span(name),
            format!("at least {min}"),
            match name {
                "padding" => "padding is added on both sides of each spatial dim: 0 or more",
                "stride" => "the stride is the step between windows: 1 or more",
                _ => "the window covers at least one element of each spatial dim",
            },
        ));
        return Err(());
    }
    Ok(Some(values.into_iter().map(|v| v as u64).collect()))
}

/// The output shape of a pool.
pub(super) fn infer<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    let layout = channels_last(attrs, diags);
    let x: &[u64] = args.first()?.as_deref()?;
    let kind = attrs.kind;
    let input = names.name(0);
    if !(3..=5).contains(&x.len()) {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "`{kind}` pools `[N, C, *spatial]` with 1 to 3 spatial dims, but `{input}` \
                     is {} (rank {})",
                    fmt_shape(x),
                    x.len()
                ),
            )
            .at(names.span(0), format!("rank {}", x.len()))
            .help(
                "give the input as [N, C, L], [N, C, H, W] or [N, C, D, H, W] (NCHW order, \
                 also for `channels_last = true`); reshape an unbatched input to N = 1",
            ),
        );
        return None;
    }
    let n = x.len() - 2;
    if pool::is_global(kind) {
        layout.ok()?;
        let mut out = x[..2].to_vec();
        out.extend(std::iter::repeat_n(1, n));
        return Some(out);
    }
    let kernel = per_dim(attrs, "kernel", n, 1, diags);
    let stride = per_dim(attrs, "stride", n, 1, diags);
    let padding = per_dim(attrs, "padding", n, 0, diags);
    let kernel = match kernel {
        Ok(Some(k)) => k,
        Ok(None) => {
            diags.push(bad(
                format!("`{kind}` needs the attribute `kernel`"),
                attrs.stmt.kind.span,
                "no `kernel` given",
                format!(
                    "add `kernel = 3` (one size for every spatial dim) or a list of {n}, one per \
                     spatial dim"
                ),
            ));
            return None;
        }
        Err(()) => return None,
    };
    let (Ok(stride), Ok(padding), Ok(())) = (stride, padding, layout) else {
        return None;
    };
    let stride = stride.unwrap_or_else(|| kernel.clone());
    let padding = padding.unwrap_or_else(|| vec![0; n]);
    let mut out = x[..2].to_vec();
    for i in 0..n {
        let (l, k, s, p) = (x[i + 2], kernel[i], stride[i], padding[i]);
        if p > k / 2 {
            diags.push(bad(
                format!("padding {p} of spatial dim {i} is more than half the window {k}",),
                attrs.span("padding"),
                format!("at most {} here", k / 2),
                "PyTorch pads at most half the kernel on each side (`pad should be at most \
                 half of effective kernel size`): lower `padding` or widen `kernel`",
            ));
            return None;
        }
        // Dims are at most 2^48 and padding at most half a kernel: no overflow.
        let padded = l.saturating_add(p.saturating_mul(2));
        if padded < k {
            diags.push(bad(
                format!(
                    "the window {k} of spatial dim {i} is larger than axis {} of `{input}` {} \
                     padded: {l} + 2·{p} = {padded}",
                    i + 2,
                    fmt_shape(x)
                ),
                attrs.span("kernel"),
                format!("at most {padded} here"),
                "each output element pools one window inside the padded input: lower `kernel` \
                 or add `padding`",
            ));
            return None;
        }
        out.push((padded - k) / s + 1);
    }
    Some(out)
}

/// `reduction.group_norm`'s groups: the input is `[N, C, *]` and `groups` divides C.
/// `Err` when it does not (reported), or `groups` is missing or out of range (reported by the
/// attribute check).
pub(super) fn group_norm(
    first: &[u64],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<(), Fail> {
    let input = names.name(0);
    if first.len() < 2 {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "`reduction.group_norm` normalises `[N, C, *]`, but `{input}` is {} (rank {})",
                    fmt_shape(first),
                    first.len()
                ),
            )
            .at(names.span(0), format!("rank {}", first.len()))
            .help("give the input with a batch and a channel dim, as `torch.nn.functional.group_norm` needs"),
        );
        return Err(());
    }
    if matches!(
        attrs.written("groups"),
        Some(Arg::Attr {
            value: Expr::Bool { .. },
            ..
        })
    ) {
        return Err(());
    }
    let Some(g) = attrs
        .ints
        .iter()
        .find(|(n, _)| n == "groups")
        .and_then(|&(_, g)| u64::try_from(g).ok())
        .filter(|&g| g >= 1)
    else {
        return Err(());
    };
    let c = first[1];
    if !c.is_multiple_of(g) {
        let divisors: Vec<String> = (1..=64u64)
            .filter(|&d| c.is_multiple_of(d))
            .map(|d| d.to_string())
            .collect();
        diags.push(bad(
            format!(
                "`groups = {g}` does not divide the {c} channels of `{input}` {}",
                fmt_shape(first)
            ),
            attrs.span("groups"),
            format!("{c} channels are not {g} equal groups"),
            format!(
                "group norm splits the channels (dim 1) into equal groups: use a divisor of \
                 {c} (up to 64: {})",
                divisors.join(", ")
            ),
        ));
        return Err(());
    }
    Ok(())
}

/// Whether `kind` is a pooling kind (the shape rule of this module).
pub(super) fn is_pool(kind: OpKind) -> bool {
    pool::is_pool(kind)
}
