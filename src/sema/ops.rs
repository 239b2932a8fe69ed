//! Shape rules of the data-movement ops: `slice`, `concat`, `permute`, `expand`, `gather`,
//! `update` (issue 10). Each takes its inputs' shapes (after views) and its attributes, and
//! gives the output shape or reports why there is none: `bad-attribute` for an attribute that
//! is missing, of the wrong type or out of range, `shape-mismatch` for inputs that do not fit
//! together. `None` everywhere means "unknown": an input was unknown already, or this op
//! reported an error.

use super::fmt_shape;
use super::shape::{ArgNames, broadcast2};
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::graph::{AttrValue, OpExtra};
use crate::ops::funcs::{self, FuncShape};
use crate::syntax::ast::{Arg, OpStmt};
use crate::types::OpKind;
use std::ops::Deref;

// The routing kinds' rules (issue 23): a child, so that they read attributes as these do.
#[path = "routing.rs"]
mod routing;
// The scans' rules (issue 23): a child too.
#[path = "scan.rs"]
mod scan;

/// An op's attributes, with its statement for the places to report at.
pub(super) struct Attrs<'x, 's> {
    pub kind: OpKind,
    pub ints: &'x [(crate::graph::CompactString, i64)],
    pub extra: Option<&'x OpExtra>,
    pub stmt: &'x OpStmt<'s>,
}

/// An error already reported (or an unknown value): the output is unknown.
type Fail = ();

/// Why a reduction's output shape cannot be inferred, so it must be declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unknowable {
    /// The seed's form, `reduction(x)`: no function is named.
    NoFunction,
    /// An opaque function: one fgraph does not know, whose cost the file states.
    Opaque,
}

/// A reduction's output shape, from its function ([`Attrs::reduction`]).
#[derive(Debug, PartialEq)]
pub(super) enum Reduced {
    /// Taken as declared, which it must be.
    Declared(Unknowable),
    /// Inferred: the shapes a declaration may take (the one inferred first: without
    /// `keepdim`, the reduced axes dropped, then kept as 1), and, for a mismatch's message,
    /// what the function does and where else to look.
    Inferred {
        forms: Vec<Vec<u64>>,
        what: String,
        hint: String,
    },
    /// Unknown: an input is unknown, or an attribute was reported.
    Unknown,
}

fn bad(message: String, at: Span, label: String, help: String) -> Diagnostic {
    Diagnostic::new(Code::BadAttribute, message)
        .at(at, label)
        .help(help)
}

impl Attrs<'_, '_> {
    pub(super) fn written(&self, name: &str) -> Option<&Arg<'_>> {
        self.stmt
            .args
            .iter()
            .find(|a| a.attr_name().is_some_and(|n| n.name == name))
    }

    /// Where attribute `name`'s value is written (the kind's name when it is not).
    pub(super) fn span(&self, name: &str) -> Span {
        match self.written(name) {
            Some(Arg::Attr { value, .. }) => value.span(),
            Some(Arg::FloatAttr { value, .. }) => value.span,
            Some(Arg::ListAttr { span, .. }) => *span,
            _ => self.stmt.kind.span,
        }
    }

    /// Integer attribute `name`: `Ok(None)` when not written; an error when written as a float
    /// or a list (reported) or when its expression failed (reported already).
    fn int(&self, name: &str, diags: &mut Vec<Diagnostic>) -> Result<Option<i64>, Fail> {
        match self.written(name) {
            None => Ok(None),
            Some(Arg::Attr { .. }) => self
                .ints
                .iter()
                .find(|(n, _)| n == name)
                .map(|&(_, v)| Some(v))
                .ok_or(()),
            Some(_) => {
                diags.push(bad(
                    format!("attribute `{name}` of `{}` must be an integer", self.kind),
                    self.span(name),
                    "not an integer".to_string(),
                    format!("write `{name} = N` with an integer expression"),
                ));
                Err(())
            }
        }
    }

    /// The `flops = N` attribute, which any op may have: FLOPs per output element, a whole
    /// number from 0 to 2^63 - 1 (the range of an integer expression). `Ok(None)` when not
    /// written.
    pub(super) fn flops(&self, diags: &mut Vec<Diagnostic>) -> Result<Option<u64>, Fail> {
        let name = crate::cost::flops::OVERRIDE_ATTR;
        // From the attributes as declared: the statement is read only to report (a large
        // graph's syntax tree is out of cache by now). A value whose expression failed is in
        // neither list, and was reported.
        let (found, label) = match self.ints.iter().find(|(n, _)| n == name) {
            Some(&(_, v)) => match u64::try_from(v) {
                Ok(n) => return Ok(Some(n)),
                Err(_) => (format!(", found {v}"), "negative"),
            },
            None if self
                .extra
                .is_some_and(|e| e.attrs.iter().any(|(n, _)| n == name)) =>
            {
                (String::new(), "not an integer")
            }
            None => return Ok(None),
        };
        diags.push(bad(
            format!(
                "attribute `{name}` of `{}` must be a whole number from 0 to 2^63 - 1{found}",
                self.stmt.name.name
            ),
            self.span(name),
            label.to_string(),
            format!("`{name} = N` sets the FLOPs of each output element of the op"),
        ));
        Err(())
    }

    /// The output shape of a reduction (issue 22), from its function's shape rule
    /// ([`FuncShape`]) and its `axis`, `keepdim` and `k`, with `first` the first input's shape
    /// (`None` where unknown). Checks `axis` against the first input's rank (the cost model
    /// reads it: a softmax over the last axis can join a FlashAttention kernel; softmax and
    /// norms are priced by their rows): an integer naming an axis, or a list of such axes for
    /// a reduction over several, each once.
    pub(super) fn reduction(
        &self,
        first: Option<&[u64]>,
        names: &(impl ArgNames + ?Sized),
        diags: &mut Vec<Diagnostic>,
    ) -> Reduced {
        let spec = match self.stmt.func {
            None => return Reduced::Declared(Unknowable::NoFunction),
            Some(f) => match funcs::find(OpKind::Reduction, f.name) {
                Some(spec) => spec,
                // An opaque function (its cost stated): its shape is the file's word.
                None if self.written(crate::cost::flops::OVERRIDE_ATTR).is_some() => {
                    return Reduced::Declared(Unknowable::Opaque);
                }
                // An unknown function (reported): nothing more is said of its output.
                None => return Reduced::Unknown,
            },
        };
        let Some(first) = first else {
            return Reduced::Unknown;
        };
        let Ok(axes) = self.reduced_axes(first.len(), names, diags) else {
            return Reduced::Unknown;
        };
        let input = names.name(0);
        let func = format!("reduction.{}", spec.name);
        match spec.shape {
            FuncShape::Groups if super::pool::group_norm(first, self, names, diags).is_err() => {
                Reduced::Unknown
            }
            FuncShape::Same
                if takes_axes(spec)
                    && !self.trailing_axes(axes.as_deref(), first, &func, diags) =>
            {
                Reduced::Unknown
            }
            FuncShape::Same | FuncShape::Broadcast | FuncShape::Groups => Reduced::Inferred {
                what: format!(
                    "`{func}` keeps the shape of `{input}`, {}",
                    fmt_shape(first)
                ),
                forms: vec![first.to_vec()],
                hint: format!(
                    "if the declared shape is meant, `{input}` is wrong: check the ops that \
                     produce it (a permute's `dims`, a reshape's shape)"
                ),
            },
            FuncShape::Reduce => {
                // No `axis`: every axis, as `torch.sum(x)` reduces all of them.
                let every = axes.is_none();
                let axes = axes.unwrap_or_else(|| (0..first.len()).collect());
                let keepdim = self.ints.iter().find(|(n, _)| n == "keepdim");
                // A `keepdim` other than 0 or 1 was reported: both forms are accepted then.
                let keepdim = keepdim.and_then(|&(_, v)| match v {
                    0 => Some(false),
                    1 => Some(true),
                    _ => None,
                });
                let dropped: Vec<u64> = (0..first.len())
                    .filter(|i| !axes.contains(i))
                    .map(|i| first[i])
                    .collect();
                let kept: Vec<u64> = (0..first.len())
                    .map(|i| if axes.contains(&i) { 1 } else { first[i] })
                    .collect();
                let over = if every {
                    "every axis (no `axis` given)".to_string()
                } else if axes.len() == 1 {
                    format!("axis {}", axes[0])
                } else {
                    let list: Vec<String> = axes.iter().map(usize::to_string).collect();
                    format!("axes {}", list.join(", "))
                };
                let of = format!("over {over} of `{input}` {}", fmt_shape(first));
                let (what, forms) = match keepdim {
                    Some(true) => (
                        format!(
                            "`{func}` with `keepdim = 1` {of} gives {}",
                            fmt_shape(&kept)
                        ),
                        vec![kept],
                    ),
                    Some(false) => (
                        format!(
                            "`{func}` with `keepdim = 0` {of} gives {}",
                            fmt_shape(&dropped)
                        ),
                        vec![dropped],
                    ),
                    None if dropped == kept => (
                        format!("`{func}` {of} gives {}", fmt_shape(&dropped)),
                        vec![dropped],
                    ),
                    None => (
                        format!(
                            "`{func}` {of} gives {}, or {} with `keepdim = 1`",
                            fmt_shape(&dropped),
                            fmt_shape(&kept)
                        ),
                        vec![dropped, kept],
                    ),
                };
                Reduced::Inferred {
                    forms,
                    what,
                    hint: format!(
                        "if the declared shape is meant, check `axis`{} and the ops that produce \
                         `{input}`",
                        if keepdim.is_some() {
                            " and `keepdim`"
                        } else {
                            ""
                        }
                    ),
                }
            }
            FuncShape::TopK => {
                let axis = match axes.as_deref() {
                    Some(&[a]) => a,
                    // A list of axes was reported: `axis` is one axis.
                    Some(_) => return Reduced::Unknown,
                    None if first.is_empty() => {
                        diags.push(
                            Diagnostic::new(
                                Code::ShapeMismatch,
                                format!("`{func}` of the scalar `{input}`: it has no axis"),
                            )
                            .at(names.span(0), "shape []")
                            .help("top-k keeps the k largest values along an axis of a tensor"),
                        );
                        return Reduced::Unknown;
                    }
                    None => first.len() - 1,
                };
                let dim = first[axis];
                // A missing or bad `k` was reported.
                let Some(k) = self
                    .ints
                    .iter()
                    .find(|(n, _)| n == "k")
                    .and_then(|&(_, k)| u64::try_from(k).ok())
                    .filter(|&k| k >= 1)
                else {
                    return Reduced::Unknown;
                };
                if k > dim {
                    diags.push(bad(
                        format!(
                            "`{func}` keeps k = {k} of axis {axis} of `{input}` {}, which has \
                             only {dim}",
                            fmt_shape(first)
                        ),
                        self.span("k"),
                        format!("k is at most {dim} here"),
                        "top-k keeps the k largest values along `axis`, as `torch.topk` does"
                            .to_string(),
                    ));
                    return Reduced::Unknown;
                }
                let mut out = first.to_vec();
                out[axis] = k;
                Reduced::Inferred {
                    what: format!(
                        "`{func}` keeps k = {k} of axis {axis} of `{input}` {}: {}",
                        fmt_shape(first),
                        fmt_shape(&out)
                    ),
                    forms: vec![out],
                    hint: format!(
                        "if the declared shape is meant, check `axis` and `k` and the ops that \
                         produce `{input}`"
                    ),
                }
            }
        }
    }

    /// The axes a reduction's `axis` names in a shape of `rank`, each as an index, in order:
    /// `Ok(None)` when `axis` is not written; an error when it is out of range, repeated,
    /// an empty list or not an integer (reported), or its expression failed (reported).
    fn reduced_axes(
        &self,
        rank: usize,
        names: &(impl ArgNames + ?Sized),
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Option<Vec<usize>>, Fail> {
        // From the attributes as declared, as for `flops`.
        if self.ints.iter().any(|(n, _)| n == "axis") {
            let a = self.axis("axis", Some(-1), rank, &names.name(0), diags)?;
            return Ok(Some(vec![a]));
        }
        let written = self
            .extra
            .and_then(|e| e.attrs.iter().find(|(n, _)| n == "axis"));
        let axes = match written.map(|w| &w.1) {
            None if self.written("axis").is_some() => return Err(()),
            None => return Ok(None),
            Some(AttrValue::Float { .. } | AttrValue::Name(_)) => {
                let _ = self.int("axis", diags);
                return Err(());
            }
            Some(AttrValue::List(axes)) => axes,
        };
        let r = rank as i64;
        if axes.is_empty() {
            diags.push(bad(
                "`axis = []` names no axis".to_string(),
                self.span("axis"),
                "an empty list".to_string(),
                "list the axes reduced, or leave `axis` out to reduce every axis".to_string(),
            ));
            return Err(());
        }
        let mut out: Vec<usize> = Vec::with_capacity(axes.len());
        for &a in axes {
            if !(-r..r).contains(&a) {
                diags.push(bad(
                    format!(
                        "axis {a} is out of range for `{}` of rank {rank}",
                        names.name(0)
                    ),
                    self.span("axis"),
                    if rank == 0 {
                        "a scalar has no axes".to_string()
                    } else {
                        format!("valid axes are {} to {}", -r, r - 1)
                    },
                    "negative axes count from the end: -1 is the last".to_string(),
                ));
                return Err(());
            }
            let i = if a < 0 { (a + r) as usize } else { a as usize };
            if out.contains(&i) {
                diags.push(bad(
                    format!("axis {i} is listed twice in `axis` (as {a})"),
                    self.span("axis"),
                    "a repeated axis".to_string(),
                    "name each axis reduced once, as `torch.sum` needs".to_string(),
                ));
                return Err(());
            }
            out.push(i);
        }
        out.sort_unstable();
        Ok(Some(out))
    }

    /// A norm over several axes (`axis = [-2, -1]`) normalises trailing ones, as PyTorch's
    /// `normalized_shape` does: `false` (reported) when the list is not the last axes.
    fn trailing_axes(
        &self,
        axes: Option<&[usize]>,
        first: &[u64],
        func: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(axes) = axes.filter(|a| a.len() > 1) else {
            return true;
        };
        let rank = first.len();
        // Sorted and distinct (`reduced_axes`): trailing when the first is rank - len.
        if axes[0] + axes.len() == rank {
            return true;
        }
        let list: Vec<String> = axes.iter().map(usize::to_string).collect();
        let want: Vec<String> = (1..=axes.len()).rev().map(|i| format!("-{i}")).collect();
        diags.push(bad(
            format!(
                "`{func}` normalises over the last axes, but axes {} of {} are not the last {}",
                list.join(", "),
                fmt_shape(first),
                axes.len()
            ),
            self.span("axis"),
            "not the trailing axes".to_string(),
            format!(
                "a list of axes is PyTorch's `normalized_shape`: the last dims, \
                 `axis = [{}]`; permute the axes to normalise first",
                want.join(", ")
            ),
        ));
        false
    }

    /// Integer attribute `name`, which the op needs.
    fn required(
        &self,
        name: &str,
        example: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<i64, Fail> {
        match self.int(name, diags)? {
            Some(v) => Ok(v),
            None => {
                diags.push(bad(
                    format!("`{}` needs the attribute `{name}`", self.kind),
                    self.stmt.kind.span,
                    format!("no `{name}` given"),
                    format!("add `{example}` to the arguments"),
                ));
                Err(())
            }
        }
    }

    /// List attribute `name`, which the op needs.
    fn list(&self, name: &str, example: &str, diags: &mut Vec<Diagnostic>) -> Result<&[i64], Fail> {
        match self.written(name) {
            Some(Arg::ListAttr { .. }) => self
                .extra
                .and_then(|e| {
                    e.attrs.iter().find_map(|(n, v)| match v {
                        AttrValue::List(l) if n == name => Some(l.as_slice()),
                        _ => None,
                    })
                })
                .ok_or(()),
            Some(_) => {
                diags.push(bad(
                    format!("attribute `{name}` of `{}` must be a list", self.kind),
                    self.span(name),
                    "not a list".to_string(),
                    format!("write it in brackets: `{example}`"),
                ));
                Err(())
            }
            None => {
                diags.push(bad(
                    format!("`{}` needs the attribute `{name}`", self.kind),
                    self.stmt.kind.span,
                    format!("no `{name}` given"),
                    format!("add `{example}` to the arguments"),
                ));
                Err(())
            }
        }
    }

    /// Axis attribute `name` (negative counts from the end) as an index into a shape of
    /// `rank`; `default` when not written, if the op has one.
    pub(super) fn axis(
        &self,
        name: &str,
        default: Option<i64>,
        rank: usize,
        input: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<usize, Fail> {
        let a = match (self.int(name, diags)?, default) {
            (Some(a), _) | (None, Some(a)) => a,
            (None, None) => self.required(name, &format!("{name} = -1"), diags)?,
        };
        let r = rank as i64;
        if (-r..r).contains(&a) {
            return Ok(if a < 0 { (a + r) as usize } else { a as usize });
        }
        let valid = if rank == 0 {
            "a scalar has no axes".to_string()
        } else {
            format!("valid axes are {} to {}", -r, r - 1)
        };
        diags.push(bad(
            format!("{name} {a} is out of range for `{input}` of rank {rank}"),
            self.span(name),
            valid,
            "negative axes count from the end: -1 is the last".to_string(),
        ));
        Err(())
    }
}

/// Whether function `spec`'s `axis` may be a list (a norm's: its trailing axes).
fn takes_axes(spec: &funcs::FuncSpec) -> bool {
    spec.attrs
        .iter()
        .any(|a| a.name == "axis" && a.ty == funcs::AttrType::Axes)
}

/// The output shape of a slice, concat, permute, gather or update.
pub(super) fn infer<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    // Attributes are checked against the inputs' shapes: nothing can be said without them.
    let shapes: Vec<&[u64]> = args
        .iter()
        .map(|a| a.as_deref())
        .collect::<Option<Vec<_>>>()?;
    let r = match attrs.kind {
        OpKind::Slice => slice(&shapes, attrs, names, diags),
        OpKind::Concat => concat(&shapes, attrs, names, diags),
        OpKind::Permute => permute(&shapes, attrs, names, diags),
        OpKind::Gather => gather(&shapes, attrs, names, diags),
        OpKind::Update => update(&shapes, attrs, names, diags),
        OpKind::Topk
        | OpKind::TopkIndices
        | OpKind::Sort
        | OpKind::Argsort
        | OpKind::IndexAdd
        | OpKind::Cumsum
        | OpKind::OneHot
        | OpKind::Roll => routing::infer(&shapes, attrs, names, diags),
        OpKind::SelectiveScan | OpKind::AssociativeScan => {
            scan::infer(&shapes, attrs, names, diags)
        }
        k if k.is_collective() => super::collective::infer(&shapes, attrs, names, diags),
        _ => Err(()),
    };
    r.ok()
}

fn slice(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[s] = shapes else { return Err(()) };
    let input = names.name(0);
    let axis = attrs.axis("axis", None, s.len(), &input, diags)?;
    let dim = s[axis];
    // Dims are at most i64::MAX: they come from i64 expressions.
    let d = dim as i64;
    let start = attrs.int("start", diags)?.unwrap_or(0);
    let end = attrs.int("end", diags)?.unwrap_or(d);
    let step = attrs.int("step", diags)?.unwrap_or(1);
    let range = format!("axis {axis} of `{input}` {} has size {dim}", fmt_shape(s));
    if step < 1 {
        diags.push(bad(
            format!("slice step {step} is not positive"),
            attrs.span("step"),
            "must be 1 or more".to_string(),
            "a slice takes every step-th element from start to end".to_string(),
        ));
        return Err(());
    }
    if !(0..d).contains(&start) {
        diags.push(bad(
            format!("slice start {start} is out of range: {range}"),
            attrs.span("start"),
            format!("valid starts are 0 to {}", d - 1),
            "start is the first index taken, counting from 0".to_string(),
        ));
        return Err(());
    }
    if end <= start || end > d {
        diags.push(bad(
            format!("slice end {end} is out of range: {range}, and start is {start}"),
            attrs.span("end"),
            format!("valid ends are {} to {d}", start + 1),
            "end is exclusive: `start = 0, end = 64` takes 64 elements".to_string(),
        ));
        return Err(());
    }
    let mut out = s.to_vec();
    out[axis] = ((end - start) as u64).div_ceil(step as u64);
    Ok(out)
}

fn concat(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let first = *shapes.first().ok_or(())?;
    let axis = attrs.axis("axis", None, first.len(), &names.name(0), diags)?;
    let mut out = first.to_vec();
    for (k, s) in shapes.iter().enumerate().skip(1) {
        let fits = s.len() == first.len()
            && s.iter()
                .zip(first)
                .enumerate()
                .all(|(i, (a, b))| i == axis || a == b);
        if !fits {
            diags.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "cannot concat `{}` {} and `{}` {} along axis {axis}",
                        names.name(0),
                        fmt_shape(first),
                        names.name(k),
                        fmt_shape(s)
                    ),
                )
                .at(names.span(k), format!("shape {}", fmt_shape(s)))
                .with(names.span(0), format!("shape {}", fmt_shape(first)))
                .help(format!(
                    "concat inputs have the same rank and equal dims except along axis {axis}"
                )),
            );
            return Err(());
        }
        out[axis] = match out[axis].checked_add(s[axis]) {
            Some(d) => d,
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::SizeOverflow,
                        format!("the concatenated axis {axis} overflows 64 bits"),
                    )
                    .at(attrs.stmt.kind.span, "more than 2^64 elements")
                    .help("check the dimensions and the params they use"),
                );
                return Err(());
            }
        };
    }
    Ok(out)
}

fn permute(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[s] = shapes else { return Err(()) };
    let dims = attrs.list("dims", "dims = [0, 2, 1, 3]", diags)?;
    let rank = s.len();
    let mut seen = vec![false; rank];
    let ok = dims.len() == rank
        && dims.iter().all(|&d| {
            usize::try_from(d)
                .ok()
                .and_then(|d| seen.get_mut(d))
                .is_some_and(|x| !std::mem::replace(x, true))
        });
    if !ok {
        let list: Vec<String> = dims.iter().map(i64::to_string).collect();
        diags.push(bad(
            format!(
                "dims [{}] is not a permutation of the {rank} axes of `{}` {}",
                list.join(", "),
                names.name(0),
                fmt_shape(s)
            ),
            attrs.span("dims"),
            format!("name each of 0 to {} once", rank.saturating_sub(1)),
            "dims[i] is the input axis that becomes output axis i".to_string(),
        ));
        return Err(());
    }
    Ok(dims.iter().map(|&d| s[d as usize]).collect())
}

fn gather(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[table, ids] = shapes else {
        return Err(());
    };
    let axis = attrs.axis("axis", Some(0), table.len(), &names.name(0), diags)?;
    let mut out = table[..axis].to_vec();
    out.extend_from_slice(ids);
    out.extend_from_slice(&table[axis + 1..]);
    Ok(out)
}

fn update(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    let &[cache, new] = shapes else {
        return Err(());
    };
    let axis = attrs.axis("axis", None, cache.len(), &names.name(0), diags)?;
    let start = attrs.required("start", "start = T", diags)?;
    let fits = new.len() == cache.len()
        && new
            .iter()
            .zip(cache)
            .enumerate()
            .all(|(i, (a, b))| i == axis || a == b);
    if !fits {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "cannot write `{}` {} into `{}` {} along axis {axis}",
                    names.name(1),
                    fmt_shape(new),
                    names.name(0),
                    fmt_shape(cache)
                ),
            )
            .at(names.span(1), format!("shape {}", fmt_shape(new)))
            .with(names.span(0), format!("shape {}", fmt_shape(cache)))
            .help(format!(
                "the new rows have the buffer's rank and dims, except along axis {axis}"
            )),
        );
        return Err(());
    }
    // Dims are at most i64::MAX, so the sum fits in u64.
    let (n, size) = (new[axis], cache[axis]);
    if start < 0 || (start as u64).saturating_add(n) > size {
        diags.push(bad(
            format!(
                "update writes {n} rows from {start} along axis {axis}, but `{}` has {size}",
                names.name(0)
            ),
            attrs.span("start"),
            format!("valid starts are 0 to {}", size.saturating_sub(n)),
            "the rows written, start to start + new.shape[axis], must lie inside the buffer"
                .to_string(),
        ));
        return Err(());
    }
    Ok(cache.to_vec())
}

/// Checks that an expand's input broadcasts to its declared shape (numpy rules).
pub(super) fn expand<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    declared: Vec<u64>,
    names: &(impl ArgNames + ?Sized),
    ty_span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    let Some(Some(input)) = args.first() else {
        return Some(declared);
    };
    let input: &[u64] = input;
    if input.len() <= declared.len() && broadcast2(input, &declared).as_ref() == Some(&declared) {
        return Some(declared);
    }
    diags.push(
        Diagnostic::new(
            Code::ShapeMismatch,
            format!(
                "`{}` {} does not broadcast to the declared shape {}",
                names.name(0),
                fmt_shape(input),
                fmt_shape(&declared)
            ),
        )
        .at(ty_span, format!("declared {}", fmt_shape(&declared)))
        .with(names.span(0), format!("shape {}", fmt_shape(input)))
        .help(
            "expand repeats dims of size 1 and adds leading dims; every other dim must equal \
             the declared one",
        ),
    );
    None
}
