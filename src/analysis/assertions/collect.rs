//! The first step of fusion assertions: reading them from a graph's syntax tree before the
//! semantic pass consumes it. [`collect`] resolves each assertion's names against the ops and
//! tensors the tree defines (`Scope`, which knows a block instance's own names) and evaluates
//! its bound with the graph's params (and `--set`). Every assertion that cannot be checked
//! (unknown predicate or measure, an op where a tensor belongs or the reverse, no such name, a
//! name twice, `not` before anything but `materialized`, a byte unit on `kernels`) is reported
//! here as a `bad-assertion` (or `undefined-tensor`, `undefined-param`), with a fix where one
//! is certain, and left out.

use super::{Assertion, Measure, Name, Predicate, Test, UNITS};
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span, did_you_mean};
use crate::sema::Overrides;
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::syntax::ast::{AssertKind, CmpOp, Ident, StmtKind};
use crate::syntax::body::{Body, Form};
use crate::syntax::expand::Instance;
use std::collections::HashMap;

/// Whether `g` has any assertion (most graphs have none, and pay only this scan).
pub fn has_assertions(g: &dyn Body<'_>) -> bool {
    g.forms().any(|f| f == Form::Assert)
}

/// Reads the assertions of `g` (a graph's tree after block expansion): resolves their names
/// against the ops and tensors `g` defines and evaluates their bounds with its params (and
/// `overrides`). What cannot be checked is reported to `diags` and left out. `instances` are
/// the graph's block instances (for the names an assertion of an instance may suggest).
pub fn collect<'s>(
    g: &dyn Body<'s>,
    overrides: &Overrides,
    instances: &[Instance],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Assertion> {
    if !has_assertions(g) {
        return Vec::new();
    }
    // The names the tree defines: ops with their outputs, tensors with their producers.
    let mut ops: HashMap<&str, &str> = HashMap::new();
    let mut tensors: HashMap<&str, Option<&str>> = HashMap::new();
    for (_, st) in g.select(&[Form::Op, Form::Decl]) {
        match &st.kind {
            StmtKind::Op(op) => {
                ops.entry(op.name.name).or_insert(op.output.name);
                tensors.entry(op.output.name).or_insert(Some(op.name.name));
            }
            StmtKind::Decl { name, .. } => {
                tensors.entry(name.name).or_insert(None);
            }
            _ => {}
        }
    }
    let params: HashMap<String, Option<i64>> = crate::sema::param_values(g, overrides)
        .into_iter()
        .collect();
    let mut out = Vec::new();
    for (_, st) in g.select(&[Form::Assert]) {
        let StmtKind::Assert(a) = &st.kind else {
            continue;
        };
        // Names an assertion of an instance may suggest: that instance's own.
        let prefix = a
            .instance
            .and_then(|i| instances.get(i))
            .map(|i| format!("{}.", i.path));
        let scope = Scope {
            ops: &ops,
            tensors: &tensors,
            prefix: prefix.as_deref(),
            instances,
        };
        let test = match &a.kind {
            AssertKind::Predicate {
                not,
                name,
                args,
                written,
            } => scope.predicate(*not, name, args, written, st.span, diags),
            AssertKind::Compare {
                measure,
                op,
                value,
                unit,
                ..
            } => {
                let mut found = Vec::new();
                let lookup = |n: &str| match params.get(n) {
                    Some(Some(v)) => Lookup::Value(*v),
                    Some(None) => Lookup::Poisoned,
                    None => Lookup::Unknown,
                };
                let suggest = |n: &str| {
                    did_you_mean(
                        n,
                        params.keys().map(String::as_str).filter(|p| scope.local(p)),
                    )
                    .map(str::to_string)
                };
                let v = eval_expr::eval(value, &lookup, &suggest, &mut found);
                diags.extend(found);
                let test = compare(measure, *op, unit.as_ref(), diags);
                match (test, v) {
                    (Some((measure, unit_bytes, unit_name)), Some(v)) => Some(Test::Compare {
                        measure,
                        op: *op,
                        bound: i128::from(v) * i128::from(unit_bytes),
                        shown: match unit_name {
                            Some(u) => format!("{v} {u}"),
                            None => v.to_string(),
                        },
                    }),
                    _ => None,
                }
            }
        };
        if let Some(test) = test {
            out.push(Assertion {
                span: st.span,
                instance: a.instance,
                test,
            });
        }
    }
    out
}

/// The measure and unit of a comparison, or why they cannot be used.
fn compare<'s>(
    measure: &Ident<'s>,
    op: CmpOp,
    unit: Option<&Ident<'s>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Measure, u64, Option<&'s str>)> {
    let Some(m) = Measure::from_name(measure.name) else {
        let names: Vec<&str> = Measure::ALL.iter().map(|m| m.as_str()).collect();
        let mut d = Diagnostic::new(
            Code::BadAssertion,
            format!("unknown measure `{}` in an assertion", measure.name),
        )
        .at(measure.span, "not a measure");
        d = match did_you_mean(measure.name, names.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")).fix(Fix::replace(
                format!("replace `{}` with `{s}`", measure.name),
                Applicability::Safe,
                measure.span,
                s,
            )),
            None if Predicate::from_name(measure.name).is_some() => d.help(format!(
                "`{}` takes names: `assert {}(a, b)`; the measures compared with `{}` are {}",
                measure.name,
                measure.name,
                op.as_str(),
                names.join(" and ")
            )),
            None => d.help(format!(
                "the measures are `kernels` (how many kernels) and `traffic` (HBM bytes of the fused plan): `assert kernels {} 9`",
                op.as_str()
            )),
        };
        diags.push(d);
        return None;
    };
    match (m, unit) {
        (_, None) => Some((m, 1, None)),
        (Measure::Traffic, Some(u)) => {
            let bytes = UNITS.iter().find(|(n, _)| *n == u.name).map(|(_, b)| *b)?;
            Some((m, bytes, Some(u.name)))
        }
        (Measure::Kernels, Some(u)) => {
            diags.push(
                Diagnostic::new(
                    Code::BadAssertion,
                    format!("`kernels` counts kernels; `{}` is a unit of bytes", u.name),
                )
                .at(u.span, "not a count")
                .help("remove the unit, or compare `traffic` instead: `assert traffic <= 300 MB`"),
            );
            None
        }
    }
}

/// Where the names of one assertion resolve.
struct Scope<'a, 's> {
    ops: &'a HashMap<&'s str, &'s str>,
    tensors: &'a HashMap<&'s str, Option<&'s str>>,
    /// `layers.3.` for an assertion of an instance.
    prefix: Option<&'a str>,
    instances: &'a [Instance],
}

impl<'s> Scope<'_, 's> {
    /// Whether `name` belongs to the assertion's own body (a graph's or an instance's).
    fn local(&self, name: &str) -> bool {
        match self.prefix {
            Some(p) => name.starts_with(p) && !name[p.len()..].contains('.'),
            None => !name.contains('.'),
        }
    }

    fn predicate(
        &self,
        not: Option<Span>,
        name: &Ident<'s>,
        args: &[Ident<'s>],
        written: &[&str],
        stmt: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Test> {
        let Some(p) = Predicate::from_name(name.name) else {
            let names: Vec<&str> = Predicate::ALL.iter().map(|p| p.as_str()).collect();
            let mut d = Diagnostic::new(
                Code::BadAssertion,
                format!("unknown assertion `{}`", name.name),
            )
            .at(name.span, "not an assertion");
            let alias = match name.name {
                "separate" | "split" | "apart" => Some("unfused"),
                "together" | "same_kernel" => Some("fused"),
                "written" | "stored" | "in_hbm" => Some("materialized"),
                _ => None,
            };
            d = match alias.or_else(|| did_you_mean(name.name, names.iter().copied())) {
                Some(s) => d.help(format!("did you mean `{s}`?")).fix(Fix::replace(
                    format!("replace `{}` with `{s}`", name.name),
                    Applicability::Safe,
                    name.span,
                    s,
                )),
                None => d.help(
                    "the assertions are `fused(ops...)`, `unfused(ops...)`, \
                     `materialized(tensors...)`, `not materialized(tensors...)`, \
                     `kernels CMP N` and `traffic CMP BYTES`",
                ),
            };
            diags.push(d);
            return None;
        };
        let mut ok = true;
        if let Some(at) = not
            && p != Predicate::Materialized
        {
            let other = match p {
                Predicate::Fused => "unfused",
                _ => "fused",
            };
            let mut d = Diagnostic::new(
                Code::BadAssertion,
                format!("`not` negates `materialized` only, not `{}`", p.as_str()),
            )
            .at(at.to(name.span), "cannot be negated");
            // For two ops each is the other's negation; for more there is no single form.
            d = if args.len() == 2 {
                d.help(format!(
                    "write `{other}(...)`{}",
                    if p == Predicate::Fused {
                        ": each op in a kernel of its own"
                    } else {
                        ": all the ops in one kernel"
                    }
                ))
                .fix(Fix::replace(
                    format!("write `{other}`"),
                    Applicability::Safe,
                    at.to(name.span),
                    other,
                ))
            } else {
                d.help(format!(
                    "`fused(a, b, ...)` asserts that all the ops share one kernel and \
                     `unfused(a, b, ...)` that no two do; to negate `{}` of {} ops, assert \
                     `{other}` of the ops that matter",
                    p.as_str(),
                    args.len()
                ))
            };
            diags.push(d);
            ok = false;
        }
        let least = if p == Predicate::Materialized { 1 } else { 2 };
        if args.len() < least {
            diags.push(
                Diagnostic::new(
                    Code::BadAssertion,
                    format!(
                        "`{}` needs at least two ops, found {}",
                        p.as_str(),
                        args.len()
                    ),
                )
                .at(stmt, "one op is always in one kernel")
                .help(format!(
                    "name the ops that must {}: `{}(a, b)`",
                    if p == Predicate::Fused {
                        "share a kernel"
                    } else {
                        "run in different kernels"
                    },
                    p.as_str()
                )),
            );
            ok = false;
        }
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut names = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            if let Some(&first) = seen.get(a.name) {
                diags.push(
                    Diagnostic::new(
                        Code::BadAssertion,
                        format!("`{}` is named twice in one assertion", a.name),
                    )
                    .at(a.span, "named again here")
                    .with(first, "first named here")
                    .help("name each op or tensor once"),
                );
                ok = false;
                continue;
            }
            seen.insert(a.name, a.span);
            let resolved = if p.names_tensors() {
                self.tensor(a, diags)
            } else {
                self.op(a, diags)
            };
            ok &= resolved;
            let shown = written.get(k).copied().unwrap_or(a.name);
            names.push(Name {
                name: a.name.to_string(),
                span: a.span,
                written: shown.to_string(),
            });
        }
        ok.then_some(Test::Names {
            predicate: p,
            negated: not.is_some(),
            names,
        })
    }

    /// Whether `a` names an op; reports it when not.
    fn op(&self, a: &Ident<'s>, diags: &mut Vec<Diagnostic>) -> bool {
        if self.ops.contains_key(a.name) {
            return true;
        }
        let d = |what: String| Diagnostic::new(Code::BadAssertion, what);
        let d = match self.tensors.get(a.name) {
            Some(Some(producer)) if !self.local(producer) => {
                d(format!("`{}` is a tensor, not an op", a.name))
                    .at(a.span, "a tensor")
                    .help(format!(
                        "`fused` and `unfused` name ops, and `{}` is produced inside a block \
                         instance: put the assertion inside the block",
                        a.name
                    ))
            }
            Some(Some(producer)) => d(format!("`{}` is a tensor, not an op", a.name))
                .at(a.span, "a tensor")
                .help(format!(
                    "`fused` and `unfused` name ops: `{}` is the output of op `{producer}`",
                    a.name
                ))
                .fix(Fix::replace(
                    format!("name the op `{producer}`"),
                    Applicability::Safe,
                    a.span,
                    *producer,
                )),
            Some(None) => d(format!("`{}` is an input or weight, not an op", a.name))
                .at(a.span, "an input or weight")
                .help("`fused` and `unfused` name ops: the ops that read it are the ones to name"),
            None => {
                let here = if self.prefix.is_some() {
                    "not an op of the block"
                } else {
                    "not an op of this graph"
                };
                let d = d(format!("no op named `{}`", a.name)).at(a.span, here);
                match did_you_mean(a.name, self.ops.keys().copied().filter(|n| self.local(n))) {
                    Some(s) => d.help(format!("did you mean `{s}`?")).fix(Fix::replace(
                        format!("replace `{}` with `{s}`", a.name),
                        Applicability::Safe,
                        a.span,
                        s,
                    )),
                    None => match self.instance_named(a.name) {
                        Some(block) => d.help(format!(
                            "`{}` is an instance of block `{block}`, not an op: put the \
                             assertion inside block `{block}`, where it is checked in every \
                             instance",
                            a.name
                        )),
                        None => d,
                    },
                }
            }
        };
        diags.push(d);
        false
    }

    /// Whether `a` names a tensor an op produces; reports it when not.
    fn tensor(&self, a: &Ident<'s>, diags: &mut Vec<Diagnostic>) -> bool {
        match self.tensors.get(a.name) {
            Some(Some(_)) => return true,
            Some(None) => {
                diags.push(
                    Diagnostic::new(
                        Code::BadAssertion,
                        format!(
                            "`{}` is an input or weight: it is in HBM whatever the plan",
                            a.name
                        ),
                    )
                    .at(a.span, "not produced by an op")
                    .help("`materialized` asks whether the plan writes a tensor an op produces"),
                );
                return false;
            }
            None => {}
        }
        let d = match self.ops.get(a.name) {
            Some(output) => Diagnostic::new(
                Code::BadAssertion,
                format!("`{}` is an op, not a tensor", a.name),
            )
            .at(a.span, "an op")
            .help(format!(
                "`materialized` names tensors: op `{}` produces `{output}`",
                a.name
            ))
            .fix(Fix::replace(
                format!("name its output `{output}`"),
                Applicability::Safe,
                a.span,
                *output,
            )),
            None => {
                let d = Diagnostic::new(
                    Code::UndefinedTensor,
                    format!("undefined tensor `{}`", a.name),
                )
                .at(a.span, "not a tensor of this graph");
                match did_you_mean(
                    a.name,
                    self.tensors.keys().copied().filter(|n| self.local(n)),
                ) {
                    Some(s) => d.help(format!("did you mean `{s}`?")).fix(Fix::replace(
                        format!("replace `{}` with `{s}`", a.name),
                        Applicability::Safe,
                        a.span,
                        s,
                    )),
                    None => d,
                }
            }
        };
        diags.push(d);
        false
    }

    /// The block of the instantiation named `name` in the assertion's body, if any.
    fn instance_named(&self, name: &str) -> Option<&str> {
        let full = format!("{}{name}", self.prefix.unwrap_or(""));
        self.instances
            .iter()
            .find(|i| {
                i.path == full
                    || i.path
                        .strip_prefix(&full)
                        .is_some_and(|rest| rest.starts_with('.') && !rest[1..].contains('.'))
            })
            .map(|i| i.block.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{bad, diags, diags_with, mlp, text};
    use crate::analysis::Options;
    use crate::diagnostics::Code;

    #[test]
    fn malformed_assertions_are_reported() {
        for (src, code, says) in [
            (
                "fusd(relu, bias1)",
                Code::BadAssertion,
                "did you mean `fused`?",
            ),
            (
                "separate(relu, bias1)",
                Code::BadAssertion,
                "did you mean `unfused`?",
            ),
            (
                "fused(y2, relu)",
                Code::BadAssertion,
                "output of op `bias1`",
            ),
            ("fused(x, relu)", Code::BadAssertion, "an input or weight"),
            (
                "fused(rleu, bias1)",
                Code::BadAssertion,
                "did you mean `relu`?",
            ),
            ("fused(relu)", Code::BadAssertion, "at least two ops"),
            ("unfused(relu, relu)", Code::BadAssertion, "named twice"),
            (
                "not fused(relu, matmul2)",
                Code::BadAssertion,
                "write `unfused(...)`",
            ),
            (
                "not unfused(relu, bias1)",
                Code::BadAssertion,
                "write `fused(...)`",
            ),
            (
                "materialized(relu)",
                Code::BadAssertion,
                "op `relu` produces `y3`",
            ),
            (
                "materialized(w1)",
                Code::BadAssertion,
                "in HBM whatever the plan",
            ),
            (
                "materialized(y33)",
                Code::UndefinedTensor,
                "did you mean `y3`?",
            ),
            ("kernel <= 3", Code::BadAssertion, "did you mean `kernels`?"),
            ("fused <= 3", Code::BadAssertion, "takes names"),
            ("kernels <= 3 MB", Code::BadAssertion, "a unit of bytes"),
            (
                "traffic <= N MB",
                Code::UndefinedParam,
                "undefined param `N`",
            ),
        ] {
            let d = bad(src);
            assert_eq!(d.code, code, "{src}: {d:#?}");
            assert!(text(&d).contains(says), "{src}: {}", text(&d));
        }
        // Misspellings come with a safe fix.
        let d = bad("fused(rleu, bias1)");
        assert_eq!(d.fixes.iter().count(), 1);
    }

    #[test]
    fn a_graph_with_errors_still_reports_misspelt_names_only() {
        let src = mlp(
            "  assert fused(rleu, bias1)\n  assert kernels == 7\n  op bad = elementwise.relu(nope) -> q",
        );
        let d = diags(&src);
        let codes: Vec<Code> = d.iter().map(|d| d.code).collect();
        assert!(codes.contains(&Code::BadAssertion), "{codes:?}");
        assert!(codes.contains(&Code::UndefinedTensor), "{codes:?}");
        assert!(!codes.contains(&Code::AssertionFailed), "{codes:?}");
    }

    #[test]
    fn bounds_follow_set_and_each_graph_has_its_own_assertions() {
        let src = "graph one {\n  param K = 1\n  input x: [4]\n  op a = elementwise.relu(x) -> y\n  \
                   assert kernels == K\n}\n\ngraph two {\n  input x: [4]\n  \
                   op a = matmul(x, x) -> y\n  assert kernels == 2\n}\n";
        // `one` holds; `matmul(x, x)` of a rank-1 tensor is an error, so `two` has no plan
        // and its assertion is not evaluated.
        let d = diags(src);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].code, Code::ShapeMismatch);
        let src = src.replace("matmul(x, x)", "elementwise.exp(x)");
        assert!(
            diags(&src)
                .iter()
                .any(|d| d.message.contains("the plan has 1 kernel"))
        );
        let mut opts = Options::default();
        opts.overrides.insert("K".into(), 3);
        let d = diags_with(&src, &opts);
        assert!(
            d.iter()
                .any(|d| d.message.contains("assertion `kernels == 3` failed")),
            "{d:#?}"
        );
    }
}
