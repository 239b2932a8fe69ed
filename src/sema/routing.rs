//! Shape rules of the routing and indexing kinds (issue 23): `topk`, `topk_indices`, `sort`,
//! `argsort`, `index_add`, `cumsum`, `one_hot`, `roll`. A child of `ops`, whose attribute
//! readers it uses. As there: `bad-attribute` for an attribute missing, mistyped or out of
//! range, `shape-mismatch` for inputs that do not fit together; `Err` means the output is
//! unknown (an input was unknown already, or this op reported an error). Dtype rules (integer
//! indices, the pair of `topk` and `topk_indices`) are `infer`'s, which sees the producers.

use super::super::fmt_shape;
use super::super::shape::ArgNames;
use super::{Attrs, Fail, bad};
use crate::diagnostics::{Code, Diagnostic};
use crate::limits;
use crate::types::OpKind;

/// The output shape of a routing kind, from its inputs' shapes (all known).
pub(in crate::sema) fn infer(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    match attrs.kind {
        OpKind::Topk => topk(shapes, attrs, names, diags),
        // The indices have the values' shape (checked to come from a topk by `infer`).
        OpKind::TopkIndices => Ok(shapes.first().ok_or(())?.to_vec()),
        OpKind::Sort | OpKind::Argsort | OpKind::Cumsum => along_axis(shapes, attrs, names, diags),
        OpKind::IndexAdd => index_add(shapes, attrs, names, diags),
        OpKind::OneHot => one_hot(shapes, attrs, names, diags),
        OpKind::Roll => roll(shapes, attrs, names, diags),
        _ => Err(()),
    }
}

/// The input, with one axis (`axis`, default -1) that must exist: a scalar has none.
fn axis_of(
    s: &[u64],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<usize, Fail> {
    if s.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "`{}` runs along an axis, but `{}` is a scalar",
                    attrs.kind,
                    names.name(0)
                ),
            )
            .at(names.span(0), "shape []")
            .help(format!(
                "`{}` needs a tensor of rank 1 or more; reshape the scalar to `[1]` if it is meant",
                attrs.kind
            )),
        );
        return Err(());
    }
    attrs.axis("axis", Some(-1), s.len(), &names.name(0), diags)
}

fn topk(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[s] = shapes else { return Err(()) };
    let axis = axis_of(s, attrs, names, diags)?;
    // `k` is required and at least 1: its absence or range was reported.
    let k = attrs.int("k", diags)?.filter(|&k| k >= 1).ok_or(())?;
    let k = u64::try_from(k).map_err(|_| ())?;
    let dim = s[axis];
    if k > dim {
        diags.push(bad(
            format!(
                "topk keeps k = {k} along axis {axis} of `{}` {}, which has only {dim}",
                names.name(0),
                fmt_shape(s)
            ),
            attrs.span("k"),
            format!("k is at most {dim} here"),
            "topk keeps the k largest values along `axis`, as `torch.topk` does: check `k` and \
             `axis`"
                .to_string(),
        ));
        return Err(());
    }
    let mut out = s.to_vec();
    out[axis] = k;
    Ok(out)
}

/// `sort`, `argsort`, `cumsum`: the input's shape, along an axis that exists.
fn along_axis(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[s] = shapes else { return Err(()) };
    axis_of(s, attrs, names, diags)?;
    Ok(s.to_vec())
}

fn index_add(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[dest, ids, src] = shapes else {
        return Err(());
    };
    let axis = attrs.axis("axis", Some(0), dest.len(), &names.name(0), diags)?;
    if ids.len() != 1 {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "the ids `{}` of index_add are {}: one index per row added, a 1-D tensor",
                    names.name(1),
                    fmt_shape(ids)
                ),
            )
            .at(names.span(1), format!("rank {}", ids.len()))
            .help("flatten the ids first (`reshape(ids) -> flat: i32[N]`), as `Tensor.index_add_` needs"),
        );
        return Err(());
    }
    let mut want = dest.to_vec();
    want[axis] = ids[0];
    if src != want.as_slice() {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "index_add adds `{}` {} into `{}` {} at {} ids along axis {axis}: the rows \
                     added must be {}",
                    names.name(2),
                    fmt_shape(src),
                    names.name(0),
                    fmt_shape(dest),
                    ids[0],
                    fmt_shape(&want)
                ),
            )
            .at(names.span(2), format!("shape {}", fmt_shape(src)))
            .with(names.span(1), format!("{} ids", ids[0]))
            .help(format!(
                "the rows added have `{}`'s shape with axis {axis} the number of ids: check the \
                 ids and `{}`",
                names.name(0),
                names.name(2)
            )),
        );
        return Err(());
    }
    Ok(dest.to_vec())
}

fn one_hot(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[ids] = shapes else { return Err(()) };
    // Required and at least 1: reported otherwise.
    let c = attrs.int("classes", diags)?.filter(|&c| c >= 1).ok_or(())?;
    let c = u64::try_from(c).map_err(|_| ())?;
    if ids.len() >= limits::MAX_RANK {
        diags.push(
            Diagnostic::new(
                Code::LimitExceeded,
                format!(
                    "one_hot adds an axis to `{}` of rank {}: above the limit of {}",
                    names.name(0),
                    ids.len(),
                    limits::MAX_RANK
                ),
            )
            .at(names.span(0), format!("rank {}", ids.len()))
            .help("no tensor may have more than 16 dimensions: flatten the ids first"),
        );
        return Err(());
    }
    let mut out = ids.to_vec();
    out.push(c);
    Ok(out)
}

fn roll(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[s] = shapes else { return Err(()) };
    let shifts = ints_or_list(attrs, "shifts", "shifts = [1]", diags)?;
    let dims = if attrs.written("dims").is_some() {
        Some(ints_or_list(attrs, "dims", "dims = [0]", diags)?)
    } else {
        None
    };
    match dims {
        None if shifts.len() != 1 => {
            diags.push(bad(
                format!(
                    "roll without `dims` shifts the flattened tensor by one amount; `shifts` \
                     lists {}",
                    shifts.len()
                ),
                attrs.span("shifts"),
                format!("{} shifts", shifts.len()),
                "give one shift, or list the axes in `dims`, one per shift".to_string(),
            ));
            Err(())
        }
        None => Ok(s.to_vec()),
        Some(dims) => {
            if dims.len() != shifts.len() {
                diags.push(bad(
                    format!("roll lists {} shifts for {} dims", shifts.len(), dims.len()),
                    attrs.span("dims"),
                    format!("{} dims", dims.len()),
                    "give one shift per axis in `dims`: `roll(x, shifts = [1, -2], dims = [0, 1])`"
                        .to_string(),
                ));
                return Err(());
            }
            let r = s.len() as i64;
            let mut seen = vec![false; s.len()];
            for &d in &dims {
                if !(-r..r).contains(&d) {
                    diags.push(bad(
                        format!(
                            "dim {d} is out of range for `{}` of rank {}",
                            names.name(0),
                            s.len()
                        ),
                        attrs.span("dims"),
                        if r == 0 {
                            "a scalar has no axes".to_string()
                        } else {
                            format!("valid axes are {} to {}", -r, r - 1)
                        },
                        "negative axes count from the end: -1 is the last".to_string(),
                    ));
                    return Err(());
                }
                let i = if d < 0 { d + r } else { d } as usize;
                if std::mem::replace(&mut seen[i], true) {
                    diags.push(bad(
                        format!("axis {i} is listed twice in `dims` (as {d})"),
                        attrs.span("dims"),
                        "a repeated axis".to_string(),
                        "name each axis once, with its total shift".to_string(),
                    ));
                    return Err(());
                }
            }
            Ok(s.to_vec())
        }
    }
}

/// An attribute written as one integer or a list of them.
fn ints_or_list(
    attrs: &Attrs<'_, '_>,
    name: &str,
    example: &str,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<i64>, Fail> {
    match attrs.written(name) {
        Some(crate::syntax::ast::Arg::ListAttr { .. }) => {
            let l = attrs.list(name, example, diags)?;
            if l.is_empty() {
                diags.push(bad(
                    format!("`{name} = []` lists nothing"),
                    attrs.span(name),
                    "an empty list".to_string(),
                    format!("write `{example}`"),
                ));
                return Err(());
            }
            Ok(l.to_vec())
        }
        _ => match attrs.int(name, diags)? {
            Some(v) => Ok(vec![v]),
            None => attrs.required(name, example, diags).map(|v| vec![v]),
        },
    }
}
