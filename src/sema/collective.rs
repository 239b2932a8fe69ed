//! Shape rules of the collectives (issue 25, `crate::ops::collective`), with `ops`'s attribute
//! readers. A graph is one GPU's view: `all_gather` multiplies the
//! gathered axis by the group size n, `reduce_scatter` divides it (n must divide it:
//! `shape-mismatch`), `all_to_all` divides its split axis and multiplies its concat axis (the
//! same shape when they are the same axis, the default), the others keep the shape; `recv`'s
//! is declared (`infer`). `Err` means the output is unknown (an error was reported, or an
//! input is unknown).

use super::fmt_shape;
use super::ops::Attrs;
use super::shape::ArgNames;
use crate::diagnostics::{Code, Diagnostic};
use crate::ops::collective::{AXIS, CONCAT_AXIS, PEER, ROOT, SIZE, SPLIT_AXIS, STRIDE};
use crate::types::OpKind;

/// An error already reported (or an unknown value): the output is unknown.
type Fail = ();

/// The output shape of a collective, from its input's shape.
pub(in crate::sema) fn infer(
    shapes: &[&[u64]],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<u64>, Fail> {
    // A missing or out-of-range size was reported by the attribute check.
    let n = attrs
        .ints
        .iter()
        .find(|(k, _)| k == SIZE.name)
        .and_then(|&(_, v)| u64::try_from(v).ok())
        .filter(|&v| (1..=crate::ops::collective::MAX_GROUP as u64).contains(&v));
    // A rank within the group (`root`, `peer`) is below its size.
    if let Some(n) = n {
        for spec in [ROOT, PEER] {
            let Some(&(_, r)) = attrs.ints.iter().find(|(k, _)| k == spec.name) else {
                continue;
            };
            if u64::try_from(r).is_ok_and(|r| r >= n) {
                diags.push(
                    Diagnostic::new(
                        Code::BadAttribute,
                        format!(
                            "`{} = {r}` of {} `{}` names no rank of a group of {n}",
                            spec.name, attrs.kind, attrs.stmt.name.name
                        ),
                    )
                    .at(attrs.span(spec.name), format!("ranks are 0 to {}", n - 1))
                    .with(attrs.span(SIZE.name), format!("a group of {n}"))
                    .help(format!("{}: a rank from 0 to {}", spec.doc, n - 1)),
                );
            }
        }
    }
    // `recv` takes no tensor: its shape is declared.
    let &[x] = shapes else { return Err(()) };
    let input = names.name(0);
    match attrs.kind {
        OpKind::AllReduce | OpKind::Broadcast | OpKind::Send => Ok(x.to_vec()),
        OpKind::AllGather => {
            let a = attrs.axis(AXIS.name, Some(0), x.len(), &input, diags)?;
            let n = n.ok_or(())?;
            let mut out = x.to_vec();
            // Past the dimension limit, `infer` reports it (`limit-exceeded`).
            out[a] = x[a].saturating_mul(n);
            Ok(out)
        }
        OpKind::ReduceScatter => {
            let a = attrs.axis(AXIS.name, Some(0), x.len(), &input, diags)?;
            let n = n.ok_or(())?;
            divides(x, a, n, "reduce_scatter", "axis", names, attrs, diags)?;
            let mut out = x.to_vec();
            out[a] = x[a] / n;
            Ok(out)
        }
        OpKind::AllToAll => {
            let s = attrs.axis(SPLIT_AXIS.name, Some(0), x.len(), &input, diags)?;
            let c = attrs.axis(CONCAT_AXIS.name, Some(0), x.len(), &input, diags)?;
            let n = n.ok_or(())?;
            divides(x, s, n, "all_to_all", "split_axis", names, attrs, diags)?;
            let mut out = x.to_vec();
            out[s] = x[s] / n;
            out[c] = out[c].saturating_mul(n);
            Ok(out)
        }
        _ => Err(()),
    }
}

/// Checks that the group size `n` divides dimension `a` of `x` (`shape-mismatch` otherwise).
#[allow(clippy::too_many_arguments)]
fn divides(
    x: &[u64],
    a: usize,
    n: u64,
    kind: &str,
    attr: &str,
    names: &(impl ArgNames + ?Sized),
    attrs: &Attrs<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), Fail> {
    if x[a].is_multiple_of(n) {
        return Ok(());
    }
    let d = x[a];
    let (below, above) = (d / n * n, d.div_ceil(n) * n);
    let other = (0..x.len())
        .filter(|&i| i != a && x[i].is_multiple_of(n))
        .map(|i| format!("`{attr} = {i}` ({})", x[i]))
        .next();
    let mut help = format!(
        "each of the {n} GPUs gets an equal shard: pad axis {a} to a multiple of {n} ({above}{}), \
         or change the group's `size`",
        if below > 0 {
            format!(" or {below}")
        } else {
            String::new()
        }
    );
    if let Some(o) = other {
        help += &format!("; or split another axis: {o}");
    }
    diags.push(
        Diagnostic::new(
            Code::ShapeMismatch,
            format!(
                "{kind} `{}` splits axis {a} of `{}` {} into {n} shards, but {n} does not \
                 divide {d}",
                attrs.stmt.name.name,
                names.name(0),
                fmt_shape(x)
            ),
        )
        .at(
            names.span(0),
            format!("axis {a} is {d}, not a multiple of {n}"),
        )
        .with(attrs.span(SIZE.name), format!("a group of {n}"))
        .help(help),
    );
    Err(())
}

impl super::Sema<'_, '_> {
    /// Every collective over one group gives it the same `size` and `stride`: a group is one
    /// set of GPUs (`bad-attribute` at each op that disagrees with the group's first).
    pub(in crate::sema) fn collective_groups(&mut self) {
        use crate::graph::AttrValue;
        // (group, size, stride, op index) of each collective, in statement order.
        let mut seen: Vec<(String, i64, i64, usize)> = Vec::new();
        for (o, op) in self.ops.iter().enumerate() {
            if op.poisoned || !op.kind.is_some_and(|k| k.is_collective()) {
                continue;
            }
            let group = op.extra.as_deref().and_then(|e| {
                e.attrs.iter().find_map(|(n, v)| match v {
                    AttrValue::Name(g) if n == crate::ops::collective::GROUP.name => Some(g),
                    _ => None,
                })
            });
            let int = |name: &str| op.attrs.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
            if let (Some(group), Some(size)) = (group, int(SIZE.name)) {
                seen.push((group.to_string(), size, int(STRIDE.name).unwrap_or(1), o));
            }
        }
        // Each group's first collective: a map, as a graph may have a million of them.
        let mut firsts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (k, (group, size, stride, o)) in seen.iter().enumerate() {
            let f = *firsts.entry(group.as_str()).or_insert(k);
            let (_, size0, stride0, o0) = &seen[f];
            let (attr, here, there) = if size != size0 {
                (SIZE.name, *size, *size0)
            } else if stride != stride0 {
                (STRIDE.name, *stride, *stride0)
            } else {
                continue;
            };
            let (stmt, stmt0) = (
                super::op_stmt(self.ast, self.ops[*o].stmt),
                super::op_stmt(self.ast, self.ops[*o0].stmt),
            );
            let at = |st: &crate::syntax::ast::OpStmt<'_>| {
                st.args
                    .iter()
                    .find_map(|a| match a {
                        crate::syntax::ast::Arg::Attr { name, value } if name.name == attr => {
                            Some(value.span())
                        }
                        _ => None,
                    })
                    .unwrap_or(st.kind.span)
            };
            let d = Diagnostic::new(
                Code::BadAttribute,
                format!(
                    "group `{group}` has {attr} {here} at `{}`, but {there} at `{}`",
                    stmt.name.name, stmt0.name.name
                ),
            )
            .at(at(&stmt), format!("{attr} {here}"))
            .with(at(&stmt0), format!("{attr} {there} first"))
            .help(format!(
                "a group is one set of GPUs: give every collective over `{group}` the same \
                 `{attr}`, or name the other group differently"
            ));
            self.diags.push(d);
        }
    }
}
