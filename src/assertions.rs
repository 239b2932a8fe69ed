//! Fusion assertions: the `assert` statements a graph (or block) carries, so that a change that
//! breaks a fusion the author relies on fails `fgraph check` in CI. This module owns their
//! meaning: which predicates and measures exist, how their names resolve, how they are
//! evaluated against the fusion plan of the run ([`crate::analysis::Analysis::plan`], made
//! under the run's fusion options), and the diagnostics `bad-assertion` (an assertion that
//! cannot be checked) and `assertion-failed` (one that does not hold, saying what is true
//! instead).
//!
//! It runs in two steps. [`collect`] reads the assertions from a graph's syntax tree before
//! the semantic pass consumes it: names are resolved against the ops and tensors the tree
//! defines (so a misspelt name is reported even when the graph has other errors) and bounds
//! are evaluated with the graph's params. [`check`] evaluates them once the graph is built and
//! fused. An assertion inside a block reaches here once per instance (block expansion renames
//! its names as it renames the block's ops), is checked against that instance, and is reported
//! once with the instance labels by [`crate::syntax::expand::Expansion::attribute`].

use crate::analysis::Analysis;
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span, did_you_mean};
use crate::graph::{Graph, OpId, TensorId};
use crate::sema::Overrides;
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::syntax::ast::{AssertKind, CmpOp, GraphAst, Ident, StmtKind};
use crate::syntax::expand::Instance;
use crate::units::fmt_bytes;
use std::collections::{HashMap, HashSet, VecDeque};

/// What an assertion over names says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicate {
    /// `fused(a, b, ...)`: the ops are in one kernel.
    Fused,
    /// `unfused(a, b, ...)`: each op is in a kernel of its own (no two share one).
    Unfused,
    /// `materialized(t, ...)`: each tensor is written to HBM; `not materialized(t, ...)`: none
    /// is (each stays on chip, inside the kernel that produces it).
    Materialized,
}

impl Predicate {
    pub const ALL: &'static [Predicate] = &[
        Predicate::Fused,
        Predicate::Unfused,
        Predicate::Materialized,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Predicate::Fused => "fused",
            Predicate::Unfused => "unfused",
            Predicate::Materialized => "materialized",
        }
    }
    pub fn from_name(name: &str) -> Option<Predicate> {
        Predicate::ALL.iter().copied().find(|p| p.as_str() == name)
    }
    /// Whether its arguments are tensors (else ops).
    pub fn names_tensors(self) -> bool {
        self == Predicate::Materialized
    }
}

/// What a comparison measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The number of kernels of the plan (of the instance, in a block).
    Kernels,
    /// The HBM bytes the fused plan reads and writes (of the instance's kernels, in a block).
    Traffic,
}

impl Measure {
    pub const ALL: &'static [Measure] = &[Measure::Kernels, Measure::Traffic];
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Kernels => "kernels",
            Measure::Traffic => "traffic",
        }
    }
    pub fn from_name(name: &str) -> Option<Measure> {
        Measure::ALL.iter().copied().find(|m| m.as_str() == name)
    }
}

/// The byte units a `traffic` bound may carry, with their size in bytes.
pub const UNITS: &[(&str, u64)] = &[
    ("B", 1),
    ("KB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
];

/// One assertion of a graph, its names resolved and its bound evaluated, ready to be checked
/// against the plan.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// The whole statement.
    pub span: Span,
    /// The block instance it was expanded from (an index into the graph's instances).
    pub instance: Option<usize>,
    pub test: Test,
}

#[derive(Clone, Debug)]
pub enum Test {
    /// `fused(..)`, `unfused(..)`, `[not] materialized(..)`, over distinct names.
    Names {
        predicate: Predicate,
        negated: bool,
        names: Vec<Name>,
    },
    /// `kernels <= 9`, `traffic < 300 MB`: the bound in the measure's unit (bytes or kernels).
    Compare {
        measure: Measure,
        op: CmpOp,
        bound: i128,
        /// The bound as written after evaluation, for messages: `300 MB`.
        shown: String,
    },
}

/// A name of an assertion: the op or tensor of the graph it resolved to, and as written.
#[derive(Clone, Debug)]
pub struct Name {
    /// In the graph (an instance's op is `layers.3.proj`).
    pub name: String,
    pub span: Span,
    /// In the source (`proj`).
    pub written: String,
}

impl Assertion {
    /// The assertion as a message quotes it: `fused(a, b)`, `kernels <= 9`.
    fn text(&self) -> String {
        match &self.test {
            Test::Names {
                predicate,
                negated,
                names,
            } => {
                let names: Vec<&str> = names.iter().map(|n| n.written.as_str()).collect();
                format!(
                    "{}{}({})",
                    if *negated { "not " } else { "" },
                    predicate.as_str(),
                    names.join(", ")
                )
            }
            Test::Compare {
                measure, op, shown, ..
            } => format!("{} {} {shown}", measure.as_str(), op.as_str()),
        }
    }
}

/// Whether `code` is about an assertion only: the graph and its plan are sound, so reports
/// still show the plan beside it.
pub fn is_assertion_code(code: Code) -> bool {
    matches!(code, Code::AssertionFailed | Code::BadAssertion)
}

/// Whether `g` has any assertion (most graphs have none, and pay only this scan).
pub fn has_assertions(g: &GraphAst<'_>) -> bool {
    g.stmts
        .iter()
        .any(|st| matches!(st.kind, StmtKind::Assert(_)))
}

/// Reads the assertions of `g` (a graph's tree after block expansion): resolves their names
/// against the ops and tensors `g` defines and evaluates their bounds with its params (and
/// `overrides`). What cannot be checked is reported to `diags` and left out. `instances` are
/// the graph's block instances (for the names an assertion of an instance may suggest).
pub fn collect(
    g: &GraphAst<'_>,
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
    for st in g.stmts.iter() {
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
    for st in g.stmts.iter() {
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

/// Checks `assertions` against the plan of `a`; every one that does not hold is an
/// `assertion-failed` error at the assertion, saying what is true instead.
pub fn check(assertions: &[Assertion], a: &Analysis, instances: &[Instance]) -> Vec<Diagnostic> {
    if assertions.is_empty() {
        return Vec::new();
    }
    let plan = Plan::new(a);
    assertions
        .iter()
        .filter_map(|x| plan.check(x, instances))
        .collect()
}

/// The plan of one graph, indexed for the questions assertions ask.
struct Plan<'a> {
    a: &'a Analysis,
    ops: HashMap<&'a str, OpId>,
    tensors: HashMap<&'a str, TensorId>,
    /// The kernel that writes each tensor the fused plan writes to HBM.
    written: HashMap<TensorId, usize>,
    /// The kernels that compute an op again besides its own (`--policy recompute`).
    copies: HashMap<OpId, Vec<usize>>,
}

/// Kernels listed in a help at most.
const MAX_LISTED: usize = 12;

impl<'a> Plan<'a> {
    fn new(a: &'a Analysis) -> Self {
        let g = &a.graph;
        let ops = g
            .ops
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name.as_str(), OpId(i as u32)))
            .collect();
        let tensors = g
            .tensors
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), TensorId(i as u32)))
            .collect();
        let mut written = HashMap::new();
        for (k, gt) in a.traffic.groups.iter().enumerate() {
            for w in &gt.writes {
                written.entry(w.tensor).or_insert(k);
            }
        }
        let mut copies: HashMap<OpId, Vec<usize>> = HashMap::new();
        for (k, group) in a.plan.groups.iter().enumerate() {
            for &o in &group.recomputed {
                copies.entry(o).or_default().push(k);
            }
        }
        Plan {
            a,
            ops,
            tensors,
            written,
            copies,
        }
    }

    fn g(&self) -> &'a Graph {
        &self.a.graph
    }

    /// The kernel `o` belongs to.
    fn kernel_of(&self, o: OpId) -> usize {
        self.a.plan.group_of[o.index()]
    }

    /// Whether kernel `k` computes `o`: as its own op, or again (a recomputed copy).
    fn computes(&self, k: usize, o: OpId) -> bool {
        self.kernel_of(o) == k || self.copies.get(&o).is_some_and(|c| c.contains(&k))
    }

    /// A kernel that computes both `a` and `b`, if any: `a`'s own, else one with a copy.
    fn shared(&self, a: OpId, b: OpId) -> Option<usize> {
        let own = std::iter::once(self.kernel_of(a));
        let copies = self.copies.get(&a).into_iter().flatten().copied();
        own.chain(copies).find(|&k| self.computes(k, b))
    }

    fn check(&self, x: &Assertion, instances: &[Instance]) -> Option<Diagnostic> {
        let text = x.text();
        match &x.test {
            Test::Names {
                predicate, names, ..
            } if !predicate.names_tensors() => {
                let ops: Vec<OpId> = names
                    .iter()
                    .map(|n| self.ops.get(n.name.as_str()).copied())
                    .collect::<Option<_>>()?;
                match predicate {
                    Predicate::Fused => self.fused(&text, x.span, &ops),
                    _ => self.unfused(&text, x.span, &ops),
                }
            }
            Test::Names { negated, names, .. } => {
                for n in names {
                    let t = *self.tensors.get(n.name.as_str())?;
                    // With several names, a label says which one the failure is about.
                    let which = (names.len() > 1).then_some(n.span);
                    let failed = if *negated {
                        self.written_explained(&text, x.span, t, which)
                    } else {
                        self.on_chip_explained(&text, x.span, t, which)
                    };
                    if failed.is_some() {
                        return failed;
                    }
                }
                None
            }
            Test::Compare {
                measure, op, bound, ..
            } => self.compare(&text, x, *measure, *op, *bound, instances),
        }
    }

    /// `fused(ops)`: all in one kernel. When not, the kernels they are in and the boundary
    /// that separates the first op from the first one in another kernel.
    fn fused(&self, text: &str, at: Span, ops: &[OpId]) -> Option<Diagnostic> {
        // Some kernel computes them all (a recomputed copy counts: the edge is on chip).
        let own = std::iter::once(self.kernel_of(ops[0]));
        let copies = self.copies.get(&ops[0]).into_iter().flatten().copied();
        if own
            .chain(copies)
            .any(|k| ops.iter().all(|&o| self.computes(k, o)))
        {
            return None;
        }
        let other = *ops.iter().find(|&&o| self.shared(ops[0], o).is_none())?;
        let g = self.g();
        let kernels = self.kernel_map(ops);
        let what = if ops.len() == 2 {
            format!(
                "`{}` and `{}` are in different kernels",
                g.op(ops[0]).name,
                g.op(other).name
            )
        } else {
            let distinct: HashSet<usize> = ops.iter().map(|&o| self.kernel_of(o)).collect();
            format!("the {} ops are in {} kernels", ops.len(), distinct.len())
        };
        let d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: {what}"),
        )
        .at(at, kernels);
        Some(self.with_boundaries(d, ops[0], other))
    }

    /// `unfused(ops)`: no two in one kernel. When two are, the fused edges that join them.
    fn unfused(&self, text: &str, at: Span, ops: &[OpId]) -> Option<Diagnostic> {
        let (a, b, k) = ops.iter().enumerate().find_map(|(i, &a)| {
            ops[i + 1..]
                .iter()
                .find_map(|&b| self.shared(a, b).map(|k| (a, b, k)))
        })?;
        let g = self.g();
        let (an, bn) = (&g.op(a).name, &g.op(b).name);
        let mut label = format!("both in kernel {}", k + 1);
        for o in [a, b] {
            if self.kernel_of(o) != k {
                label += &format!(" (which computes `{}` again)", g.op(o).name);
            }
        }
        let mut d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: `{an}` and `{bn}` are in one kernel"),
        )
        .at(at, label);
        let copied: Vec<&str> = [a, b]
            .into_iter()
            .filter(|&o| self.kernel_of(o) != k)
            .map(|o| g.op(o).name.as_str())
            .collect();
        if let [copy] = copied.as_slice() {
            return Some(d.help(format!(
                "kernel {} computes `{copy}` again instead of reading its output from HBM (a \
                 policy that recomputes cheap producers); under the default policy the \
                 tensor is written once and read back",
                k + 1
            )));
        }
        let path = self.path(a, b, Some(k));
        d = match path {
            Some(edges) if !edges.is_empty() => {
                let shown: Vec<String> = edges
                    .iter()
                    .take(MAX_LISTED)
                    .map(|&(p, c, t)| {
                        format!(
                            "`{}` → `{}` via `{}`",
                            g.op(p).name,
                            g.op(c).name,
                            g.tensor(t).name
                        )
                    })
                    .collect();
                let more = if edges.len() > MAX_LISTED {
                    ", …"
                } else {
                    ""
                };
                d.help(format!(
                    "kernel {} holds them together through the fused edge{} {}{more}; to keep \
                     them apart, one of these tensors must go through HBM (for example as a \
                     graph output)",
                    k + 1,
                    if edges.len() == 1 { "" } else { "s" },
                    shown.join(", ")
                ))
            }
            _ => d.help(format!("kernel {} holds {}", k + 1, self.kernel_ops(k))),
        };
        Some(d)
    }

    /// `not materialized(t)` failed: `t` is written. Says which kernel writes it and why.
    fn written_explained(
        &self,
        text: &str,
        at: Span,
        t: TensorId,
        name: Option<Span>,
    ) -> Option<Diagnostic> {
        let &k = self.written.get(&t)?;
        let g = self.g();
        let tn = &g.tensor(t).name;
        let mut d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: `{tn}` is written to HBM"),
        )
        .at(
            at,
            format!("written by kernel {} ({})", k + 1, self.kernel_ops(k)),
        );
        if let Some(name) = name {
            d = d.with(name, "this tensor");
        }
        let readers: Vec<OpId> = g
            .consumers(t)
            .iter()
            .copied()
            .filter(|&c| self.kernel_of(c) != k)
            .collect();
        let help = if g.is_output(t) {
            format!("`{tn}` is a graph output, so the plan writes it to HBM")
        } else if let Some(&c) = readers.first() {
            let p = g.producer(t)?;
            let b = self.boundary(p, c);
            format!(
                "`{tn}` is read by `{}` in kernel {}: {}",
                g.op(c).name,
                self.kernel_of(c) + 1,
                match b {
                    Some(b) => format!(
                        "`{}` → `{}` is a kernel boundary [{}]: {}",
                        g.op(p).name,
                        g.op(c).name,
                        b.reason,
                        b.explain(g)
                    ),
                    None => "another kernel reads it from HBM".to_string(),
                }
            )
        } else if g.consumers(t).is_empty() {
            format!("no op reads `{tn}`, and a value nobody reads is still stored")
        } else {
            format!(
                "kernel {} writes `{tn}` for readers outside it (a policy that stores shared tensors)",
                k + 1
            )
        };
        Some(d.help(help))
    }

    /// `materialized(t)` failed: `t` stays on chip. Says in which kernel and through which
    /// fused edges.
    fn on_chip_explained(
        &self,
        text: &str,
        at: Span,
        t: TensorId,
        name: Option<Span>,
    ) -> Option<Diagnostic> {
        if self.written.contains_key(&t) {
            return None;
        }
        let g = self.g();
        let p = g.producer(t)?;
        let k = self.kernel_of(p);
        let tn = &g.tensor(t).name;
        let mut d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: `{tn}` stays on chip"),
        )
        .at(
            at,
            format!(
                "never written to HBM: produced and read inside kernel {} ({})",
                k + 1,
                self.kernel_ops(k)
            ),
        );
        if let Some(name) = name {
            d = d.with(name, "this tensor");
        }
        let readers: Vec<String> = g
            .consumers(t)
            .iter()
            .map(|&c| format!("`{}`", g.op(c).name))
            .collect();
        Some(d.help(format!(
            "`{}` and its reader{} {} are fused in kernel {}; a tensor is written to HBM when it \
             is a graph output, is read by another kernel, or is never read",
            g.op(p).name,
            if readers.len() == 1 { "" } else { "s" },
            readers.join(", "),
            k + 1
        )))
    }

    fn compare(
        &self,
        text: &str,
        x: &Assertion,
        measure: Measure,
        op: CmpOp,
        bound: i128,
        instances: &[Instance],
    ) -> Option<Diagnostic> {
        let plan = &self.a.plan;
        // The kernels asked about: the plan's, or the instance's (those whose first op is
        // in it, as `analyze --summary` counts them).
        let inst = x.instance.and_then(|i| instances.get(i));
        let kernels: Vec<usize> = match inst {
            None => (0..plan.groups.len()).collect(),
            Some(i) => (0..plan.groups.len())
                .filter(|&k| {
                    plan.groups[k]
                        .ops
                        .first()
                        .is_some_and(|o| i.ops.contains(&o.index()))
                })
                .collect(),
        };
        let actual: u64 = match measure {
            Measure::Kernels => kernels.len() as u64,
            Measure::Traffic => match inst {
                None => self.a.traffic.fused.total,
                Some(_) => kernels
                    .iter()
                    .filter_map(|&k| self.a.traffic.groups.get(k))
                    .fold(0u64, |s, t| {
                        s.saturating_add(t.bytes_read)
                            .saturating_add(t.bytes_written)
                    }),
            },
        };
        if op.holds(i128::from(actual), bound) {
            return None;
        }
        let whose = match inst {
            None => "the plan".to_string(),
            Some(i) => format!("this instance of `{}`", i.block),
        };
        let (what, label) = match measure {
            Measure::Kernels => (
                format!(
                    "{whose} has {actual} kernel{}",
                    if actual == 1 { "" } else { "s" }
                ),
                format!("{actual} kernel{}", if actual == 1 { "" } else { "s" }),
            ),
            Measure::Traffic => (
                format!("{whose} moves {} through HBM", fmt_bytes(actual)),
                format!("{} read and written", fmt_bytes(actual)),
            ),
        };
        let listed: Vec<String> = kernels
            .iter()
            .take(MAX_LISTED)
            .map(|&k| format!("kernel {}: {}", k + 1, self.kernel_ops(k)))
            .collect();
        let more = if kernels.len() > MAX_LISTED {
            format!("; … {} more", kernels.len() - MAX_LISTED)
        } else {
            String::new()
        };
        Some(
            Diagnostic::new(
                Code::AssertionFailed,
                format!("assertion `{text}` failed: {what}"),
            )
            .at(x.span, label)
            .help(format!(
                "{}{more}; if the change is intended, update the bound",
                listed.join("; ")
            )),
        )
    }

    /// The ops of kernel `k`, `a` → `b` → `c` (at most a few).
    fn kernel_ops(&self, k: usize) -> String {
        let g = self.g();
        let ops = &self.a.plan.groups[k].ops;
        let mut s: Vec<String> = ops
            .iter()
            .take(6)
            .map(|&o| format!("`{}`", g.op(o).name))
            .collect();
        if ops.len() > 6 {
            s.push(format!("… ({} ops)", ops.len()));
        }
        s.join(" → ")
    }

    /// `kernel 1: `a`, `b`; kernel 2: `c``: the named ops by kernel, in kernel order.
    fn kernel_map(&self, ops: &[OpId]) -> String {
        let mut by: Vec<(usize, Vec<&str>)> = Vec::new();
        for &o in ops {
            let k = self.kernel_of(o);
            let name = self.g().op(o).name.as_str();
            match by.iter_mut().find(|(kk, _)| *kk == k) {
                Some((_, v)) => v.push(name),
                None => by.push((k, vec![name])),
            }
        }
        by.sort_by_key(|(k, _)| *k);
        by.iter()
            .map(|(k, v)| {
                let v: Vec<String> = v.iter().map(|n| format!("`{n}`")).collect();
                format!("kernel {}: {}", k + 1, v.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn boundary(&self, p: OpId, c: OpId) -> Option<&'a crate::fusion::Boundary> {
        self.a
            .plan
            .boundaries
            .iter()
            .find(|b| b.producer == p && b.consumer == c)
    }

    /// Adds the kernel boundaries on the path between `a` and `b` that crosses the fewest of
    /// them: the first as the help (with its rule), each at its consumer as a label.
    fn with_boundaries(&self, mut d: Diagnostic, a: OpId, b: OpId) -> Diagnostic {
        let g = self.g();
        let Some(edges) = self.path(a, b, None) else {
            return d.help(format!(
                "no chain of producer → consumer edges connects `{}` and `{}`, and ops fuse \
                 only along such edges",
                g.op(a).name,
                g.op(b).name
            ));
        };
        let crossing: Vec<(OpId, OpId, TensorId)> = edges
            .into_iter()
            .filter(|&(p, c, _)| self.shared(p, c).is_none())
            .collect();
        let mut helps = Vec::new();
        for &(p, c, t) in crossing.iter().take(3) {
            let (pn, cn, tn) = (&g.op(p).name, &g.op(c).name, &g.tensor(t).name);
            match self.boundary(p, c) {
                Some(bd) => {
                    helps.push(format!(
                        "`{pn}` → `{cn}` via `{tn}` is a kernel boundary [{}]: {}",
                        bd.reason,
                        bd.explain(g)
                    ));
                    d = d.with(
                        g.op(c).span,
                        format!("kernel boundary: `{tn}` goes through HBM [{}]", bd.reason),
                    );
                }
                None => {
                    helps.push(format!("`{pn}` → `{cn}` via `{tn}` is a kernel boundary"));
                    d = d.with(
                        g.op(c).span,
                        format!("kernel boundary: `{tn}` goes through HBM"),
                    );
                }
            }
        }
        if crossing.len() > 3 {
            helps.push(format!("and {} more boundaries", crossing.len() - 3));
        }
        if helps.is_empty() {
            return d;
        }
        d.help(helps.join("; "))
    }

    /// The edges (producer, consumer, tensor) of a path between ops `a` and `b` that follows
    /// edges in either direction and crosses the fewest kernel boundaries (0-1 breadth-first
    /// search); `inside` keeps it within that kernel (its ops and copies). `None` when no
    /// path connects them.
    fn path(&self, a: OpId, b: OpId, inside: Option<usize>) -> Option<Vec<(OpId, OpId, TensorId)>> {
        let g = self.g();
        let n = g.ops.len();
        let mut dist = vec![u32::MAX; n];
        let mut via: Vec<Option<(OpId, OpId, TensorId, OpId)>> = vec![None; n];
        let mut queue = VecDeque::new();
        dist[a.index()] = 0;
        queue.push_back(a);
        let mut done: HashSet<OpId> = HashSet::new();
        while let Some(u) = queue.pop_front() {
            if !done.insert(u) {
                continue;
            }
            if u == b {
                break;
            }
            let out = g.op(u).output;
            let forward = g.consumers(out).iter().map(|&c| (c, (u, c, out)));
            let backward = g
                .op(u)
                .inputs
                .iter()
                .filter_map(|i| g.producer(i.tensor).map(|p| (p, (p, u, i.tensor))));
            for (v, edge) in forward.chain(backward) {
                let w = match inside {
                    Some(k) if !self.computes(k, v) => continue,
                    Some(_) => 0,
                    None => u32::from(self.shared(u, v).is_none()),
                };
                let nd = dist[u.index()] + w;
                if nd < dist[v.index()] {
                    dist[v.index()] = nd;
                    via[v.index()] = Some((edge.0, edge.1, edge.2, u));
                    if w == 0 {
                        queue.push_front(v);
                    } else {
                        queue.push_back(v);
                    }
                }
            }
        }
        if dist[b.index()] == u32::MAX {
            return None;
        }
        let mut edges = Vec::new();
        let mut cur = b;
        while cur != a {
            let (p, c, t, prev) = via[cur.index()]?;
            edges.push((p, c, t));
            cur = prev;
        }
        edges.reverse();
        Some(edges)
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::{Options, check_file};
    use crate::diagnostics::{Code, Diagnostic};
    use crate::fusion::Policy;

    /// The seed MLP (kernels `[matmul1, bias1, relu]`, `[matmul2]`; 69,214,208 bytes fused)
    /// with `asserts` appended to its body.
    fn mlp(asserts: &str) -> String {
        format!(
            "graph mlp {{\n  param M = 1024\n  dtype f16\n  input x: [M, 4096]\n  \
             weight w1: [4096, 4096]\n  weight b1: [4096]\n  weight w2: [4096, 1024]\n  \
             op matmul1 = matmul(x, w1) -> y1\n  op bias1 = elementwise.add(y1, b1) -> y2\n  \
             op relu = elementwise.relu(y2) -> y3\n  op matmul2 = matmul(y3, w2) -> y4\n  \
             output y4\n{asserts}\n}}\n"
        )
    }

    fn diags_with(src: &str, opts: &Options) -> Vec<Diagnostic> {
        check_file("t.fgraph", src.as_bytes(), opts).diagnostics
    }

    fn diags(src: &str) -> Vec<Diagnostic> {
        diags_with(src, &Options::default())
    }

    /// The one diagnostic of `assert` on the MLP, or none.
    fn one(assert: &str) -> Option<Diagnostic> {
        let mut d = diags(&mlp(&format!("  assert {assert}")));
        assert!(d.len() <= 1, "{assert}: {d:#?}");
        d.pop()
    }

    fn holds(assert: &str) {
        assert!(
            one(assert).is_none(),
            "{assert} should hold: {:#?}",
            one(assert)
        );
    }

    fn fails(assert: &str) -> Diagnostic {
        let d = one(assert).unwrap_or_else(|| panic!("{assert} should fail"));
        assert_eq!(d.code, Code::AssertionFailed, "{assert}: {d:#?}");
        d
    }

    fn bad(assert: &str) -> Diagnostic {
        let d = one(assert).unwrap_or_else(|| panic!("{assert} should be reported"));
        assert!(d.is_error(), "{assert}: {d:#?}");
        d
    }

    fn text(d: &Diagnostic) -> String {
        let mut s = d.message.clone();
        for l in d.primary.iter().chain(&d.secondary) {
            s += "\n";
            s += &l.message;
        }
        s + "\n" + d.help.as_deref().unwrap_or("")
    }

    #[test]
    fn fused_holds_and_fails_with_the_boundary() {
        holds("fused(matmul1, bias1)");
        holds("fused(matmul1, bias1, relu)");
        holds("fused(relu, matmul1)");
        let d = fails("fused(relu, matmul2)");
        let t = text(&d);
        assert!(
            t.contains("`relu` and `matmul2` are in different kernels"),
            "{t}"
        );
        assert!(t.contains("kernel 1: `relu`; kernel 2: `matmul2`"), "{t}");
        assert!(t.contains("[matmul-starts-group]"), "{t}");
        assert!(t.contains("a matmul always starts a new kernel"), "{t}");
        // The boundary is labelled at the op that starts the next kernel.
        assert!(
            d.secondary
                .iter()
                .any(|l| l.message.contains("`y3` goes through HBM")),
            "{t}"
        );
        let t = text(&fails("fused(matmul1, bias1, relu, matmul2)"));
        assert!(t.contains("the 4 ops are in 2 kernels"), "{t}");
    }

    #[test]
    fn unfused_holds_and_fails_with_the_fused_edges() {
        holds("unfused(relu, matmul2)");
        holds("unfused(matmul1, matmul2)");
        let t = text(&fails("unfused(matmul1, relu)"));
        assert!(t.contains("`matmul1` and `relu` are in one kernel"), "{t}");
        assert!(t.contains("both in kernel 1"), "{t}");
        assert!(
            t.contains("`matmul1` → `bias1` via `y1`, `bias1` → `relu` via `y2`"),
            "{t}"
        );
        // Any two of several sharing a kernel fail it.
        let t = text(&fails("unfused(matmul2, bias1, relu)"));
        assert!(t.contains("`bias1` and `relu` are in one kernel"), "{t}");
    }

    #[test]
    fn materialized_and_not() {
        holds("materialized(y3)");
        holds("materialized(y3, y4)");
        holds("not materialized(y1, y2)");
        let t = text(&fails("materialized(y3, y1)"));
        assert!(t.contains("`y1` stays on chip"), "{t}");
        assert!(
            t.contains("inside kernel 1 (`matmul1` → `bias1` → `relu`)"),
            "{t}"
        );
        let t = text(&fails("not materialized(y3)"));
        assert!(t.contains("`y3` is written to HBM"), "{t}");
        assert!(t.contains("read by `matmul2` in kernel 2"), "{t}");
        assert!(t.contains("[matmul-starts-group]"), "{t}");
        let t = text(&fails("not materialized(y4)"));
        assert!(t.contains("`y4` is a graph output"), "{t}");
    }

    #[test]
    fn comparisons_of_kernels_and_traffic() {
        for ok in [
            "kernels <= 2",
            "kernels < 3",
            "kernels == 2",
            "kernels >= 2",
            "kernels > 1",
            "kernels == M / 512",
            "traffic == 69214208",
            "traffic <= 70 MB",
            "traffic < 67 MiB",
            "traffic > 66 MiB",
            "traffic >= 69214208 B",
            "traffic < 1 GB",
            "traffic < 1 GiB",
            "traffic < 1 TB",
            "traffic < 1 TiB",
            "traffic < 69215 KB",
            "traffic > 67591 KiB",
        ] {
            holds(ok);
        }
        for (no, says) in [
            ("kernels <= 1", "the plan has 2 kernels"),
            ("kernels < 2", "the plan has 2 kernels"),
            ("kernels == 3", "the plan has 2 kernels"),
            ("kernels >= 3", "the plan has 2 kernels"),
            ("kernels > 2", "the plan has 2 kernels"),
            ("kernels > -1 * -5", "the plan has 2 kernels"),
            ("traffic <= 60 MB", "moves 69,214,208 B (66.0 MiB)"),
            ("traffic < 69214208", "69,214,208 B"),
            ("traffic >= 1 GiB", "69,214,208 B"),
        ] {
            let t = text(&fails(no));
            assert!(t.contains(says), "{no}: {t}");
            assert!(t.contains("kernel 1: `matmul1` → `bias1` → `relu`"), "{t}");
        }
        // The message quotes the bound evaluated, with its unit.
        assert!(
            fails("traffic < M / 16 MB")
                .message
                .contains("`traffic < 64 MB`")
        );
    }

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
    fn assertions_follow_the_fusion_options_of_the_run() {
        // `t` has two readers: a boundary by default, fused into one reader under `store`.
        let src = "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  \
                   op b = elementwise.exp(t) -> u\n  op c = elementwise.neg(t) -> v\n  \
                   output u, v\n  assert unfused(a, b)\n  assert materialized(t)\n}\n";
        assert!(diags(src).is_empty(), "{:#?}", diags(src));
        let store = Options {
            policy: Policy::Store,
            ..Options::default()
        };
        // Under `store` all three ops share one kernel, so `t` never leaves it.
        let d = diags_with(src, &store);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(text(&d[0]).contains("`a` and `b` are in one kernel"));
        assert!(text(&d[1]).contains("`t` stays on chip"));
    }

    #[test]
    fn a_recomputed_copy_is_in_the_kernel_that_computes_it_and_a_launch_is_one_kernel() {
        // `a` is cheap and read by two reductions: `--policy recompute` computes it again in
        // the second one's kernel instead of writing `t`.
        let src = "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  \
                   op s1 = reduction.sum(t, axis = -1) -> u: [64, 1]\n  \
                   op s2 = reduction.max(t, axis = -1) -> v: [64, 1]\n  output u, v\n  \
                   assert fused(a, s2)\n  assert fused(a, s1)\n  assert unfused(s1, s2)\n  \
                   assert not materialized(t)\n}\n";
        let recompute = Options {
            policy: Policy::Recompute,
            ..Options::default()
        };
        assert!(
            diags_with(src, &recompute).is_empty(),
            "{:#?}",
            diags_with(src, &recompute)
        );
        let d = diags_with(
            &src.replace("unfused(s1, s2)", "unfused(a, s2)"),
            &recompute,
        );
        assert_eq!(d.len(), 1, "{d:#?}");
        let t = text(&d[0]);
        assert!(
            t.contains("both in kernel 2 (which computes `a` again)"),
            "{t}"
        );
        assert!(t.contains("computes `a` again instead of reading"), "{t}");
        // By default `t` is written and `a` is in its own kernel.
        let d = diags(src);
        assert_eq!(d.len(), 3, "{d:#?}");
        // Under `--horizontal grouped-gemm`, two projections of one input are one launch:
        // one kernel, as `analyze` lists it.
        let src = "graph g {\n  input x: [64, 64]\n  weight wq: [64, 64]\n  weight wk: [64, 64]\n  \
                   op q = matmul(x, wq) -> a\n  op k = matmul(x, wk) -> b\n  output a, b\n  \
                   assert unfused(q, k)\n  assert kernels == 2\n}\n";
        assert!(diags(src).is_empty());
        let grouped = Options {
            horizontal: crate::fusion::Horizontal::GroupedGemm,
            ..Options::default()
        };
        let d = diags_with(src, &grouped);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(text(&d[1]).contains("the plan has 1 kernel"));
    }

    #[test]
    fn ops_with_no_path_between_them_say_so() {
        let src = "graph g {\n  input x: [4]\n  input z: [4]\n  op a = elementwise.relu(x) -> y\n  \
                   op b = elementwise.exp(z) -> w\n  output y, w\n  assert fused(a, b)\n}\n";
        let d = diags(src);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(text(&d[0]).contains("no chain of producer → consumer edges connects"));
        // Two producers joined by a consumer share its kernel: the path may go backwards.
        let src = "graph g {\n  input x: [4]\n  input z: [4]\n  op a = elementwise.relu(x) -> y\n  \
                   op b = elementwise.exp(z) -> w\n  op c = elementwise.add(y, w) -> v\n  \
                   assert fused(a, b)\n  assert fused(a, b, c)\n}\n";
        assert!(diags(src).is_empty(), "{:#?}", diags(src));
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

    #[test]
    fn assertions_in_blocks_are_checked_per_instance_and_reported_once() {
        let src = "block layer(S) {\n  input x: [S, 64]\n  weight w: [64, 64]\n  \
                   op proj = matmul(x, w) -> p\n  op act = elementwise.gelu(p) -> y\n  \
                   output y\n  assert fused(proj, act)\n  assert kernels == 1\n  \
                   assert traffic < 40 KiB\n  assert not materialized(p)\n  \
                   assert unfused(proj, act)\n}\n\
                   graph m {\n  input x: [8, 64]\n  repeat 3 layers = layer(x, S = 8) -> h\n  \
                   output h\n  assert kernels == 3\n}\n";
        let d = diags(src);
        assert_eq!(d.len(), 1, "{d:#?}");
        let t = text(&d[0]);
        assert!(
            t.contains("`unfused(proj, act)` failed: `proj` and `act`"),
            "{t}"
        );
        assert!(
            !t.contains("layers.0."),
            "instance names are the block's own: {t}"
        );
        assert!(t.contains("in instance 0 of this repeat of `layer`"), "{t}");
        // The per-instance count and bytes: one kernel reading x (2 KiB) and w (16 KiB),
        // writing y (2 KiB).
        let d = diags(&src.replace("kernels == 1", "kernels == 2"));
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(text(&d[0]).contains("this instance of `layer` has 1 kernel"));
        let d = diags(&src.replace("traffic < 40 KiB", "traffic < 20 KiB"));
        assert!(
            d.iter()
                .any(|d| text(d).contains("moves 20,480 B (20.0 KiB)")),
            "{d:#?}"
        );
    }

    #[test]
    fn an_instance_failing_alone_is_labelled_with_its_instance() {
        // Only the last instance's output is a graph output; the others are read by the
        // next layer's matmul: two findings, each labelled with the first instance it
        // failed in.
        let src = "block layer(S) {\n  input x: [S, 64]\n  weight w: [64, 64]\n  \
                   op proj = matmul(x, w) -> p\n  op act = elementwise.gelu(p) -> y\n  \
                   output y\n  assert not materialized(y)\n}\n\
                   graph m {\n  input x: [8, 64]\n  repeat 3 layers = layer(x, S = 8) -> h\n  \
                   output h\n}\n";
        let d = diags(src);
        assert_eq!(d.len(), 2, "{d:#?}");
        let texts: Vec<String> = d.iter().map(text).collect();
        assert!(
            texts
                .iter()
                .any(|t| t.contains("`h` is a graph output") && t.contains("instance 2 of")),
            "{texts:#?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("`y` is written") && t.contains("instance 0 of")),
            "{texts:#?}"
        );
    }
}
