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
use crate::syntax::ast::{Arg, OpStmt};
use crate::types::OpKind;
use std::ops::Deref;

/// An op's attributes, with its statement for the places to report at.
pub(super) struct Attrs<'x, 's> {
    pub kind: OpKind,
    pub ints: &'x [(crate::graph::CompactString, i64)],
    pub extra: Option<&'x OpExtra>,
    pub stmt: &'x OpStmt<'s>,
}

/// An error already reported (or an unknown value): the output is unknown.
type Fail = ();

fn bad(message: String, at: Span, label: String, help: String) -> Diagnostic {
    Diagnostic::new(Code::BadAttribute, message)
        .at(at, label)
        .help(help)
}

impl Attrs<'_, '_> {
    fn written(&self, name: &str) -> Option<&Arg<'_>> {
        self.stmt
            .args
            .iter()
            .find(|a| a.attr_name().is_some_and(|n| n.name == name))
    }

    /// Where attribute `name`'s value is written (the kind's name when it is not).
    fn span(&self, name: &str) -> Span {
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

    /// The `axis` of a reduction, which the cost model reads (a softmax over the last axis can
    /// join a FlashAttention kernel; softmax and norms are priced by their rows): when written,
    /// an integer naming an axis of the first input, of `rank`, as for the data-movement ops,
    /// or a list of such axes (a reduction over several).
    pub(super) fn reduction_axis(
        &self,
        rank: usize,
        names: &(impl ArgNames + ?Sized),
        diags: &mut Vec<Diagnostic>,
    ) {
        // From the attributes as declared, as for `flops`; an error leaves the declared
        // output standing.
        if self.ints.iter().any(|(n, _)| n == "axis") {
            let _ = self.axis("axis", Some(-1), rank, &names.name(0), diags);
            return;
        }
        let Some(written) = self
            .extra
            .and_then(|e| e.attrs.iter().find(|(n, _)| n == "axis"))
        else {
            return;
        };
        let r = rank as i64;
        match &written.1 {
            AttrValue::List(axes) => {
                if let Some(&a) = axes.iter().find(|&&a| !(-r..r).contains(&a)) {
                    diags.push(bad(
                        format!(
                            "axis {a} is out of range for `{}` of rank {rank}",
                            names.name(0)
                        ),
                        self.span("axis"),
                        format!("valid axes are {} to {}", -r, r - 1),
                        "negative axes count from the end: -1 is the last".to_string(),
                    ));
                }
            }
            AttrValue::Float { .. } => {
                let _ = self.int("axis", diags);
            }
        }
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
    fn axis(
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
