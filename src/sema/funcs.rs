//! Functions and attributes checked against the registries (issue 22): an op of a kind with
//! functions (`elementwise`, `reduction`) must name a function of that kind from the function
//! registry (`crate::ops::funcs`), or state its cost (`flops = N`), which makes it an *opaque*
//! function; every attribute must be one its function (or kind) takes, of the right type and
//! in range. The tensor count is checked with the other arities (`declare::check_arity`), the
//! output shape by shape inference (`infer`).
//!
//! Nothing here poisons the op: its kind still decides its fusion and its shape rule, so the
//! errors downstream of it are still reported.

use super::Sema;
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span, did_you_mean};
use crate::graph::{AttrValue, CompactString, OpExtra};
use crate::ops::funcs::{self, AttrSpec, AttrType, FuncSpec};
use crate::syntax::ast::{Arg, Expr, OpStmt};
use crate::types::OpKind;

/// Whether ops of `kind` name a function.
pub(crate) fn has_functions(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::Elementwise | OpKind::Reduction | OpKind::AssociativeScan
    )
}

/// The function of an op, if its kind has functions and the registry lists it.
pub(crate) fn spec_of(kind: OpKind, func: Option<&str>) -> Option<&'static FuncSpec> {
    if !has_functions(kind) {
        return None;
    }
    funcs::find(kind, func?)
}

/// The attribute written on an op, by name.
fn written<'x, 's>(op: &'x OpStmt<'s>, name: &str) -> Option<&'x Arg<'s>> {
    op.args
        .iter()
        .find(|a| a.attr_name().is_some_and(|n| n.name == name))
}

/// Where the value of attribute `a` is written.
fn value_span(a: &Arg<'_>) -> Span {
    match a {
        Arg::Attr { value, .. } => value.span(),
        Arg::FloatAttr { value, .. } => value.span,
        Arg::ListAttr { span, .. } => *span,
        Arg::Tensor(t) => t.span,
        Arg::Scalar(l) => l.span,
    }
}

impl<'a, 's> Sema<'a, 's> {
    /// Checks the function and the attributes of `op` (of a known `kind`) against the
    /// registries; `ints` and `extra` are its attributes as evaluated.
    pub(super) fn check_function(
        &mut self,
        kind: OpKind,
        op: &OpStmt<'s>,
        ints: &[(CompactString, i64)],
        extra: &OpExtra,
    ) {
        // Attention's attributes are typed as a function's are, and checked the same way below.
        let typed = matches!(kind, OpKind::Attention | OpKind::QuantMm)
            || crate::ops::collective::KINDS.contains(&kind);
        if !typed {
            self.misplaced_bools(op, kind);
        }
        let stated_cost = written(op, crate::cost::flops::OVERRIDE_ATTR).is_some();
        let attrs: &[AttrSpec] = if has_functions(kind) {
            match op.func {
                // A scan needs its combine (`associative_scan.add(x)`).
                None if kind == OpKind::AssociativeScan => return self.missing_combine(op),
                // The seed's form (`elementwise(x)`, the seed data model's ops): the kind
                // alone, one FLOP per element (SPEC §8 keeps it); its attributes are its own.
                None => return,
                Some(f) => match funcs::find(kind, f.name) {
                    Some(spec) => spec.attrs,
                    // An opaque function: its cost is stated, its attributes are its own.
                    None if stated_cost => return,
                    None => return self.unknown_function(op, kind, f.name, f.span),
                },
            }
        } else {
            if let Some(f) = op.func {
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownFunction,
                        format!("`{kind}` takes no function, found `.{}`", f.name),
                    )
                    .at(f.span, "not a function of this kind")
                    .help(format!(
                        "only `elementwise`, `reduction` and `associative_scan` ops name a \
                         function; write `{kind}(…)`"
                    ))
                    .fix(Fix::replace(
                        format!("remove `.{}`", f.name),
                        Applicability::NeedsReview,
                        Span::new(op.kind.span.end, f.span.end),
                        "",
                    )),
                );
            }
            let attrs = crate::ops::spec(kind).attrs;
            if !typed {
                // The kind's shape rule checks the values (`ops`).
                self.unknown_attrs(op, kind, None, attrs);
                // The routing kinds' values (issue 23) are checked by type and range here too.
                if crate::ops::routing::KINDS.contains(&kind)
                    || crate::ops::scan::KINDS.contains(&kind)
                {
                    for spec in attrs {
                        self.attr_value(op, kind, None, spec, ints, extra);
                    }
                }
                return;
            }
            attrs
        };
        let func = op.func.filter(|_| !typed).map(|f| f.name);
        self.unknown_attrs(op, kind, func, attrs);
        for spec in attrs {
            self.attr_value(op, kind, func, spec, ints, extra);
        }
        if attrs.iter().any(|a| a.name == funcs::WINDOW.name) {
            self.window_needs_causal(op, ints);
        }
    }

    /// A sliding window (`window = W`) is stated with a causal mask: the W most recent keys
    /// of each query. A two-sided window is not modelled.
    fn window_needs_causal(&mut self, op: &OpStmt<'s>, ints: &[(CompactString, i64)]) {
        let (window, causal) = (funcs::WINDOW.name, funcs::CAUSAL.name);
        let Some(w) = written(op, window) else { return };
        // Unless `causal` is written and is not `false`: `true`, or a wrong value (reported
        // on its own) or an expression that failed (reported too).
        let value = ints.iter().find(|(n, _)| n == causal).map(|&(_, v)| v);
        if written(op, causal).is_some() && value != Some(0) {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::BadAttribute,
                format!("attribute `{window}` needs `{causal} = true`"),
            )
            .at(value_span(w), "a sliding window without a causal mask")
            .help(format!(
                "a window keeps the W most recent keys of each query: write `{causal} = true, \
                 {window} = W` (a two-sided window is not modelled)"
            )),
        );
    }

    /// Reports `true`/`false` given to an attribute that is not a boolean: `flops`, and the
    /// attributes of a function or kind the registries type otherwise (a function's are
    /// reported by [`Self::attr_value`]). An opaque function's own attributes may be anything.
    fn misplaced_bools(&mut self, op: &OpStmt<'s>, kind: OpKind) {
        let specs: &[AttrSpec] = if has_functions(kind) {
            &[]
        } else {
            crate::ops::spec(kind).attrs
        };
        for a in &op.args {
            let Arg::Attr {
                name,
                value: Expr::Bool { value, span },
            } = a
            else {
                continue;
            };
            let owner = || match op.func {
                Some(f) if has_functions(kind) => format!("{kind}.{}", f.name),
                _ => kind.to_string(),
            };
            let help = if name.name == crate::cost::flops::OVERRIDE_ATTR {
                "`flops = N` sets the FLOPs of each output element of the op".to_string()
            } else {
                match specs.iter().find(|s| s.name == name.name) {
                    // A list-valued attribute's shape rule reports any other value.
                    Some(s) if !matches!(s.ty, AttrType::Bool | AttrType::Axes) => {
                        format!("write `{} = N` with an integer: {}", s.name, s.doc)
                    }
                    _ => continue,
                }
            };
            self.diags.push(
                Diagnostic::new(
                    Code::BadAttribute,
                    format!(
                        "attribute `{}` of `{}` must be an integer, found `{value}`",
                        name.name,
                        owner()
                    ),
                )
                .at(*span, "a boolean, not an integer")
                .help(help),
            );
        }
    }

    /// Reports an `associative_scan` written without its combine function.
    fn missing_combine(&mut self, op: &OpStmt<'s>) {
        let kind = OpKind::AssociativeScan;
        let names: Vec<String> = funcs::of_kind(kind)
            .map(|f| format!("`{}`", f.name))
            .collect();
        self.diags.push(
            Diagnostic::new(
                Code::UnknownFunction,
                format!("`{kind}` needs its combine function, as `{kind}.add(x)`"),
            )
            .at(op.kind.span, "no combine named")
            .help(format!(
                "name the combine after a dot: {} (`linear(a, b)` is h = a*h + b); for \
                 another, name it and state its cost, `{kind}.f(x, flops = N)` (FLOPs per \
                 element)",
                names.join(", ")
            ))
            .fix(Fix::replace(
                "scan with `add` (a cumulative sum)",
                Applicability::NeedsReview,
                Span::new(op.kind.span.end, op.kind.span.end),
                ".add",
            )),
        );
    }

    /// Reports an unknown function `name` of `kind`.
    fn unknown_function(&mut self, op: &OpStmt<'s>, kind: OpKind, name: &str, at: Span) {
        // A scan's combine is not an elementwise or reduction function named elsewhere.
        let other = [OpKind::Elementwise, OpKind::Reduction]
            .into_iter()
            .filter(|_| kind != OpKind::AssociativeScan)
            .find(|&k| k != kind && funcs::find(k, name).is_some());
        let mut d = Diagnostic::new(
            Code::UnknownFunction,
            format!("unknown function `{name}` of `{kind}`"),
        )
        .at(at, "not a function of this kind");
        if let Some(other) = other {
            d = d
                .help(format!(
                    "`{name}` is a function of `{other}`: write `{other}.{name}`"
                ))
                .fix(Fix::replace(
                    format!("replace `{kind}` with `{other}`"),
                    Applicability::NeedsReview,
                    op.kind.span,
                    other.as_str(),
                ));
        } else {
            let names = funcs::of_kind(kind).map(|f| f.name);
            match did_you_mean(name, names) {
                Some(s) => {
                    d = d
                        .help(format!(
                            "did you mean `{s}`? A function fgraph does not know needs its cost \
                             stated, `flops = N` (FLOPs per output element), which makes it \
                             opaque"
                        ))
                        .fix(crate::sema::rename_fix(
                            &crate::syntax::ast::Ident { name, span: at },
                            s,
                        ));
                }
                None => {
                    d = d.help(format!(
                        "the functions of `{kind}` are {}; for another, state its cost with \
                         `flops = N` (FLOPs per output element), which makes it an opaque \
                         function",
                        funcs::of_kind(kind)
                            .map(|f| f.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    // The count fgraph used before functions were checked, for an elementwise
                    // op (a reduction's was per element of its larger side): to review.
                    if let Some(last) = op.args.last() {
                        let end = match last {
                            Arg::Attr { value, .. } => value.span().end,
                            other => value_span(other).end,
                        };
                        d = d.fix(Fix::replace(
                            "state its cost: `flops = 1` per output element",
                            Applicability::NeedsReview,
                            Span::new(end, end),
                            ", flops = 1",
                        ));
                    }
                }
            }
        }
        self.diags.push(d);
    }

    /// Reports the attributes of `op` that neither its function (or kind) nor every op takes.
    fn unknown_attrs(
        &mut self,
        op: &OpStmt<'s>,
        kind: OpKind,
        func: Option<&str>,
        attrs: &[AttrSpec],
    ) {
        let owner = match func {
            Some(f) => format!("{kind}.{f}"),
            None => kind.to_string(),
        };
        for a in &op.args {
            let Some(name) = a.attr_name() else { continue };
            if name.name == crate::cost::flops::OVERRIDE_ATTR
                || attrs.iter().any(|s| s.name == name.name)
            {
                continue;
            }
            let takes = if attrs.is_empty() {
                "no attribute but `flops`".to_string()
            } else {
                let names: Vec<String> = attrs.iter().map(|s| format!("`{}`", s.name)).collect();
                format!("{} and `flops`", names.join(", "))
            };
            let mut d = Diagnostic::new(
                Code::BadAttribute,
                format!("`{owner}` takes no attribute `{}`", name.name),
            )
            .at(name.span, "not an attribute of this op");
            match did_you_mean(name.name, attrs.iter().map(|s| s.name)) {
                Some(s) => {
                    d = d
                        .help(format!("did you mean `{s}`? `{owner}` takes {takes}"))
                        .fix(crate::sema::rename_fix(name, s))
                }
                None => d = d.help(format!("`{owner}` takes {takes}")),
            }
            self.diags.push(d);
        }
    }

    /// Checks the value of attribute `spec` of `op`: required, of its type, in its range.
    /// Axes are checked against the input's rank by shape inference.
    fn attr_value(
        &mut self,
        op: &OpStmt<'s>,
        kind: OpKind,
        func: Option<&str>,
        spec: &AttrSpec,
        ints: &[(CompactString, i64)],
        extra: &OpExtra,
    ) {
        let owner = match func {
            Some(f) => format!("{kind}.{f}"),
            None => kind.to_string(),
        };
        let name = spec.name;
        let Some(arg) = written(op, name) else {
            if spec.required {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadAttribute,
                        format!("`{owner}` needs the attribute `{name}`"),
                    )
                    .at(op.kind.span, format!("no `{name}` given"))
                    .help(format!("add `{name} = …`: {}", spec.doc)),
                );
            }
            return;
        };
        let int = ints.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
        let float = extra.attrs.iter().find_map(|(n, v)| match v {
            AttrValue::Float { value, .. } if n == name => Some(*value),
            _ => None,
        });
        let at = value_span(arg);
        let boolean = match arg {
            Arg::Attr {
                value: Expr::Bool { value, .. },
                ..
            } => Some(*value),
            _ => None,
        };
        let problem: Option<(String, String)> = match (spec.ty, arg) {
            // A name (issue 25): a bare identifier, one of `values` where they are listed.
            (
                AttrType::Name { values },
                Arg::Attr {
                    value: Expr::Name(id),
                    ..
                },
            ) => (!values.is_empty() && !values.contains(&id.name)).then(|| {
                let listed: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
                let mean = match did_you_mean(id.name, values.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? "),
                    None => String::new(),
                };
                (
                    format!("must be one of {}, found `{}`", listed.join(", "), id.name),
                    format!("{mean}{}", spec.doc),
                )
            }),
            (AttrType::Name { values }, _) => {
                let example = values.first().copied().unwrap_or("tp");
                let found = match boolean {
                    Some(b) => format!(", found `{b}`"),
                    None => String::new(),
                };
                Some((
                    format!("must be a name{found}"),
                    format!("write a bare name, `{name} = {example}`: {}", spec.doc),
                ))
            }
            // `true`/`false` are booleans only: an axis, a count or a number is not one.
            (AttrType::Bool, _) if boolean.is_some() => None,
            (AttrType::Float { .. }, _) if boolean.is_some() => Some((
                format!("must be a number, found `{}`", boolean.unwrap_or_default()),
                spec.doc.to_string(),
            )),
            (_, _) if boolean.is_some() => Some((
                format!(
                    "must be an integer, found `{}`",
                    boolean.unwrap_or_default()
                ),
                format!(
                    "write `{name} = N` with an integer expression: {}",
                    spec.doc
                ),
            )),
            // Axes are checked by shape inference, which knows the rank.
            (AttrType::Axes, _) => None,
            (AttrType::Axis, Arg::ListAttr { .. }) => Some((
                "must be one axis".to_string(),
                format!("write `{name} = -1`; `{owner}` works along one axis"),
            )),
            (AttrType::Axis, _) => None,
            (AttrType::Bool, Arg::FloatAttr { .. } | Arg::ListAttr { .. }) => Some((
                "must be `true` or `false`".to_string(),
                format!("write `{name} = true` or `{name} = false`: {}", spec.doc),
            )),
            (AttrType::Int { .. }, Arg::FloatAttr { .. } | Arg::ListAttr { .. }) => Some((
                "must be an integer".to_string(),
                format!(
                    "write `{name} = N` with an integer expression: {}",
                    spec.doc
                ),
            )),
            (AttrType::Int { min, max }, _) => int.filter(|v| !(min..=max).contains(v)).map(|v| {
                (
                    format!("must be from {min} to {max}, found {v}"),
                    spec.doc.to_string(),
                )
            }),
            (AttrType::Bool, _) => int.filter(|v| !matches!(v, 0 | 1)).map(|v| {
                (
                    format!("must be `true` or `false` (or 1 or 0), found {v}"),
                    format!("write `{name} = true` or `{name} = false`: {}", spec.doc),
                )
            }),
            (AttrType::Float { .. }, Arg::ListAttr { .. }) => {
                Some(("must be a number".to_string(), spec.doc.to_string()))
            }
            (
                AttrType::Float {
                    min,
                    max,
                    min_inclusive,
                },
                _,
            ) => {
                let v = float.or(int.map(|i| i as f64));
                let low_ok = |v: f64| if min_inclusive { v >= min } else { v > min };
                v.filter(|&v| !(v.is_finite() && low_ok(v) && v <= max))
                    .map(|v| {
                        let from = if min_inclusive { "from" } else { "above" };
                        (
                            format!("must be {from} {min} to {max}, found {v}"),
                            spec.doc.to_string(),
                        )
                    })
            }
        };
        if let Some((what, help)) = problem {
            self.diags.push(
                Diagnostic::new(
                    Code::BadAttribute,
                    format!("attribute `{name}` of `{owner}` {what}"),
                )
                .at(
                    at,
                    if boolean.is_some() {
                        "a boolean, not a value of this type"
                    } else {
                        "out of range or of the wrong type"
                    },
                )
                .help(help),
            );
        }
    }
}
