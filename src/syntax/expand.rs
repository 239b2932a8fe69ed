//! Blocks and repeats: every instantiation of a block is replaced by the statements it stands
//! for, before the semantic pass, so that shapes, fusion, traffic, cost and diagnostics are
//! exactly those of the graph written out by hand.
//!
//! An instance's names are its path and the block's name: op `q_proj` of the fourth layer of
//! `repeat 32 layers = decoder(..)` is `layers.3.q_proj`, as PyTorch names modules. A block's
//! inputs are bound to the instantiation's tensor arguments (the names are substituted; the
//! declared type is checked against the argument once the graph is built, see
//! [`Binding`]), its header parameters to the instantiation's attributes or their defaults, and
//! its output to the name after `->`. Weights are declared once per instance. The statements
//! keep the spans of the block's source, so a diagnostic about an instance points into the
//! block; [`Expansion::attribute`] then names the instantiation that produced it and turns
//! instance names back into the block's own (rustc's "in this macro invocation").
//!
//! Names made here live in an arena that outlives the syntax tree (`bumpalo`); everything else
//! borrows the source as the parser's tree does.

use super::ast::*;
use crate::diagnostics::{Code, Diagnostic, Label, Span};
use crate::limits;
use crate::sema::Overrides;
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::types::{Dtype, OpKind};
use std::collections::HashMap;

/// One instance of a block in an expanded graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// `layers.3`, `attn`, `layers.3.attn`: the prefix of its ops' and tensors' names.
    pub path: String,
    pub block: String,
    /// The instantiating statement (an `op` or a `repeat`).
    pub call: Span,
    /// Its position in a repeat.
    pub index: Option<u64>,
    /// The instance this one is part of (nested blocks).
    pub parent: Option<usize>,
    /// The block's definition, from `block` to its `}`.
    pub block_span: Span,
    /// Its ops, as indices into the graph's ops in source order (`OpId`s).
    pub ops: std::ops::Range<usize>,
}

/// A block input bound to a tensor of the caller: checked once the graph is built.
#[derive(Clone, Debug)]
pub struct Binding {
    /// The caller's tensor, by name in the expanded graph.
    pub tensor: String,
    /// The type the block declares, evaluated for this instance (`None` where unknown).
    pub shape: Option<Vec<u64>>,
    pub dtype: Option<Dtype>,
    /// The block's `input` declaration.
    pub declared: Span,
    /// The argument at the instantiation.
    pub argument: Span,
    /// Index of the instance in [`Expansion::instances`].
    pub instance: usize,
}

/// What expansion learned about one graph.
#[derive(Debug, Default)]
pub struct Expansion {
    pub instances: Vec<Instance>,
    pub bindings: Vec<Binding>,
    /// Tensor arguments and outputs of instantiations that could not be expanded.
    pub unexpanded_args: Vec<String>,
    pub unexpanded_outputs: Vec<String>,
}

/// The blocks a file can instantiate: its own and its imports'.
pub struct Blocks<'a, 's> {
    /// Each block with the shift of its file's spans.
    by_name: HashMap<&'s str, (&'a BlockAst<'s>, usize)>,
}

impl<'a, 's> Blocks<'a, 's> {
    /// The blocks of `blocks`, the first definition of each name winning; a second definition,
    /// or a block named like an op kind, is reported.
    pub fn new(
        blocks: impl IntoIterator<Item = &'a BlockAst<'s>>,
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut all = Blocks {
            by_name: HashMap::new(),
        };
        all.add(blocks, 0, diags);
        all
    }

    /// Adds the blocks of a file whose spans are `shift` bytes after the importing file's (an
    /// imported file's text is placed after it: spans stay plain byte ranges).
    pub fn add(
        &mut self,
        blocks: impl IntoIterator<Item = &'a BlockAst<'s>>,
        shift: usize,
        diags: &mut Vec<Diagnostic>,
    ) {
        let sh = |s: Span| Span::new(s.start + shift, s.end + shift);
        let by_name = &mut self.by_name;
        for b in blocks {
            if OpKind::from_name(b.name.name).is_some() {
                diags.push(
                    Diagnostic::new(
                        Code::BadBlock,
                        format!("block `{}` is named like an op kind", b.name.name),
                    )
                    .at(sh(b.name.span), "an op kind")
                    .help("op kinds cannot be redefined: give the block another name"),
                );
                continue;
            }
            match by_name.get(b.name.name) {
                Some((first, first_shift)) => diags.push(
                    Diagnostic::new(
                        Code::DuplicateDefinition,
                        format!("block `{}` is defined more than once", b.name.name),
                    )
                    .at(sh(b.name.span), "defined again here")
                    .with(
                        Span::new(
                            first.name.span.start + first_shift,
                            first.name.span.end + first_shift,
                        ),
                        "first defined here",
                    )
                    .help("give each block its own name"),
                ),
                None => {
                    by_name.insert(b.name.name, (b, shift));
                }
            }
            // A block input no statement of the block reads: its declaration is never emitted,
            // so the semantic pass cannot see it unused.
            let reads = |args: &[Arg<'_>], name: &str| {
                args.iter()
                    .any(|a| matches!(a, Arg::Tensor(t) if t.name.name == name))
            };
            let used = |name: &str| {
                b.stmts.iter().any(|st| match &st.kind {
                    StmtKind::Op(op) => reads(&op.args, name),
                    StmtKind::Repeat(r) => reads(&r.args, name),
                    StmtKind::Output(names) => names.iter().any(|n| n.name == name),
                    _ => false,
                })
            };
            for st in b.stmts.iter() {
                if let StmtKind::Decl {
                    external: ExternalKind::Input,
                    name,
                    ..
                } = &st.kind
                    && !used(name.name)
                {
                    diags.push(
                        Diagnostic::new(
                            Code::UnusedTensor,
                            format!(
                                "input `{}` of block `{}` is never used",
                                name.name, b.name.name
                            ),
                        )
                        .at(sh(name.span), "no op of the block reads it")
                        .help("remove the input (and the argument at each instantiation)"),
                    );
                }
            }
            let mut seen: HashMap<&str, Span> = HashMap::new();
            for p in &b.params {
                if let Some(&first) = seen.get(p.name.name) {
                    diags.push(
                        Diagnostic::new(
                            Code::DuplicateDefinition,
                            format!("param `{}` is defined more than once", p.name.name),
                        )
                        .at(sh(p.name.span), "defined again here")
                        .with(sh(first), "first defined here")
                        .help("rename one of them; param names must be unique within a block"),
                    );
                } else {
                    seen.insert(p.name.name, p.name.span);
                }
            }
        }
    }

    pub fn get(&self, name: &str) -> Option<&'a BlockAst<'s>> {
        self.by_name.get(name).map(|b| b.0)
    }

    /// The shift of a block's spans.
    fn shift(&self, name: &str) -> usize {
        self.by_name.get(name).map_or(0, |b| b.1)
    }

    /// A span of `block`'s source, shifted to its file's place.
    fn block_span(&self, block: &BlockAst<'_>, s: Span) -> Span {
        let shift = self.shift(block.name.name);
        Span::new(s.start + shift, s.end + shift)
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    pub fn names(&self) -> impl Iterator<Item = &'s str> + '_ {
        self.by_name.keys().copied()
    }
}

/// Whether a graph instantiates anything (else it is analysed as parsed).
pub fn has_instances(g: &GraphAst<'_>, blocks: &Blocks<'_, '_>) -> bool {
    g.stmts.iter().any(|st| match &st.kind {
        StmtKind::Repeat(_) => true,
        StmtKind::Op(op) => {
            op.func.is_none()
                && OpKind::from_name(op.kind.name).is_none()
                && blocks.get(op.kind.name).is_some()
        }
        _ => false,
    })
}

/// The deepest nesting of blocks inside blocks.
const MAX_DEPTH: usize = 64;

/// Replaces every instantiation in `g` by its statements. Errors at instantiations are added
/// to `diags`; the statements of an instantiation that cannot be expanded are left out (its
/// output then is undefined, which the semantic pass does not report twice: see
/// [`Expansion::attribute`]).
pub fn expand<'s>(
    g: GraphAst<'s>,
    blocks: &Blocks<'_, 's>,
    arena: &'s bumpalo::Bump,
    overrides: &Overrides,
    diags: &mut Vec<Diagnostic>,
) -> (GraphAst<'s>, Expansion) {
    let mut x = Expander {
        blocks,
        arena,
        diags,
        out: Vec::with_capacity(g.stmts.len()),
        ops: 0,
        info: Expansion::default(),
        env: HashMap::new(),
        overrides,
        failed: false,
    };
    let mut dtype = None;
    let none = Scope::graph();
    for st in g.stmts.iter() {
        if x.failed {
            break;
        }
        x.statement(st, &none, &mut dtype, 0);
    }
    let GraphAst { name, span, .. } = g;
    let graph = GraphAst {
        name,
        stmts: Stmts::from(x.out),
        span,
    };
    (graph, x.info)
}

/// A block of the checked file that no graph instantiates, as a graph of its own, so that a
/// library of blocks is checked too: its header params with a default become params, its
/// inputs stay inputs, and nested instantiations are expanded. The caller drops what only
/// says that a required param has no value (see [`standalone_noise`]).
pub fn standalone<'s>(
    block: &BlockAst<'s>,
    blocks: &Blocks<'_, 's>,
    arena: &'s bumpalo::Bump,
    diags: &mut Vec<Diagnostic>,
) -> (GraphAst<'s>, Expansion) {
    let overrides = Overrides::new();
    let mut x = Expander {
        blocks,
        arena,
        diags,
        out: Vec::with_capacity(block.stmts.len() + block.params.len()),
        ops: 0,
        info: Expansion::default(),
        env: HashMap::new(),
        overrides: &overrides,
        failed: false,
    };
    let scope = Scope::graph();
    for p in &block.params {
        if let Some(d) = &p.default {
            let value = x.expr(&scope, d);
            x.push(
                StmtKind::Param {
                    name: p.name,
                    value: Box::new(value),
                },
                p.name.span.to(d.span()),
            );
        }
    }
    let mut dtype = None;
    for st in block.stmts.iter() {
        if x.failed {
            break;
        }
        x.statement(st, &scope, &mut dtype, 0);
    }
    let graph = GraphAst {
        name: block.name,
        stmts: Stmts::from(x.out),
        span: block.span,
    };
    (graph, x.info)
}

/// What checking a block on its own says only because it is on its own: a required header
/// param has no value, and an input is unused (reported once by [`Blocks::add`]).
pub fn standalone_noise(block: &BlockAst<'_>, d: &Diagnostic) -> bool {
    let names = |n: &str| d.message.contains(&format!("`{n}`"));
    match d.code {
        Code::UndefinedParam => block
            .params
            .iter()
            .any(|p| p.default.is_none() && names(p.name.name)),
        Code::UnusedTensor => block.stmts.iter().any(|st| {
            matches!(&st.kind, StmtKind::Decl { external: ExternalKind::Input, name, .. } if names(name.name))
        }),
        _ => false,
    }
}

/// How the names of one body (a graph's or an instance's) are renamed.
struct Scope<'s> {
    /// `layers.3.`, or empty for the graph itself.
    prefix: &'s str,
    /// Block-local names bound to something else: inputs to the caller's tensors, the output
    /// to the caller's name.
    bound: HashMap<&'s str, &'s str>,
    /// Index of the instance in `Expansion::instances`.
    instance: Option<usize>,
    /// Added to every span of the body: an imported file's place after the importing file's
    /// text (see [`Blocks::add`]).
    shift: usize,
}

impl<'s> Scope<'s> {
    fn graph() -> Self {
        Scope {
            prefix: "",
            bound: HashMap::new(),
            instance: None,
            shift: 0,
        }
    }
    fn span(&self, s: Span) -> Span {
        Span::new(s.start + self.shift, s.end + self.shift)
    }
}

struct Expander<'a, 'b, 's> {
    blocks: &'a Blocks<'b, 's>,
    arena: &'s bumpalo::Bump,
    diags: &'a mut Vec<Diagnostic>,
    out: Vec<Stmt<'s>>,
    /// Ops emitted so far (the next op's `OpId`).
    ops: usize,
    info: Expansion,
    /// Every param emitted so far, by its full name, with its value where it has one: repeat
    /// counts are evaluated here, before the semantic pass.
    env: HashMap<&'s str, Option<i64>>,
    overrides: &'a Overrides,
    /// A limit was hit: nothing more is expanded.
    failed: bool,
}

impl<'a, 'b, 's> Expander<'a, 'b, 's> {
    fn name(&self, scope: &Scope<'s>, name: &'s str) -> &'s str {
        match scope.bound.get(name) {
            Some(b) => b,
            None => self.prefixed(scope.prefix, name),
        }
    }

    fn prefixed(&self, prefix: &'s str, name: &'s str) -> &'s str {
        if prefix.is_empty() {
            return name;
        }
        let mut s = String::with_capacity(prefix.len() + name.len());
        s.push_str(prefix);
        s.push_str(name);
        self.arena.alloc_str(&s)
    }

    fn ident(&self, scope: &Scope<'s>, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: self.name(scope, id.name),
            span: scope.span(id.span),
        }
    }

    /// A param's name: params are never bound, only prefixed.
    fn param(&self, scope: &Scope<'s>, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: self.prefixed(scope.prefix, id.name),
            span: scope.span(id.span),
        }
    }

    fn expr(&self, scope: &Scope<'s>, e: &Expr<'s>) -> Expr<'s> {
        match e {
            Expr::Int { value, span } => Expr::Int {
                value: *value,
                span: scope.span(*span),
            },
            Expr::Name(id) => Expr::Name(self.param(scope, id)),
            Expr::Neg {
                negations,
                operand,
                span,
            } => Expr::Neg {
                negations: *negations,
                operand: Box::new(self.expr(scope, operand)),
                span: scope.span(*span),
            },
            Expr::Chain { first, rest, span } => Expr::Chain {
                first: Box::new(self.expr(scope, first)),
                rest: rest
                    .iter()
                    .map(|(op, s, e)| (*op, scope.span(*s), self.expr(scope, e)))
                    .collect(),
                span: scope.span(*span),
            },
        }
    }

    fn ty(&self, scope: &Scope<'s>, t: &TypeAst<'s>) -> TypeAst<'s> {
        TypeAst {
            dtype: t.dtype.map(|d| Ident {
                name: d.name,
                span: scope.span(d.span),
            }),
            dims: t.dims.iter().map(|d| self.expr(scope, d)).collect(),
            span: scope.span(t.span),
        }
    }

    fn arg(&self, scope: &Scope<'s>, a: &Arg<'s>) -> Arg<'s> {
        match a {
            Arg::Attr { name, value } => Arg::Attr {
                name: Ident {
                    name: name.name,
                    span: scope.span(name.span),
                },
                value: self.expr(scope, value),
            },
            Arg::Tensor(t) => Arg::Tensor(TensorArg {
                name: self.ident(scope, &t.name),
                index: t.index.as_ref().map(|i| Box::new(self.expr(scope, i))),
                transpose: t.transpose,
                span: scope.span(t.span),
            }),
            Arg::Scalar(lit) => Arg::Scalar(Literal {
                text: lit.text,
                span: scope.span(lit.span),
            }),
            Arg::FloatAttr { name, value } => Arg::FloatAttr {
                name: Ident {
                    name: name.name,
                    span: scope.span(name.span),
                },
                value: Literal {
                    text: value.text,
                    span: scope.span(value.span),
                },
            },
            Arg::ListAttr { name, items, span } => Arg::ListAttr {
                name: Ident {
                    name: name.name,
                    span: scope.span(name.span),
                },
                items: items.iter().map(|e| self.expr(scope, e)).collect(),
                span: scope.span(*span),
            },
        }
    }

    /// Evaluates `e` (already renamed) against the params emitted so far.
    fn value(&self, e: &Expr<'s>, diags: &mut Vec<Diagnostic>) -> Option<i64> {
        let env = &self.env;
        let lookup = |n: &str| match env.get(n) {
            Some(Some(v)) => Lookup::Value(*v),
            Some(None) => Lookup::Poisoned,
            None => Lookup::Unknown,
        };
        eval_expr::eval(e, &lookup, &|_| None, diags)
    }

    fn push(&mut self, kind: StmtKind<'s>, span: Span) {
        if matches!(kind, StmtKind::Op(_)) {
            self.ops += 1;
        }
        if let StmtKind::Param { name, value } = &kind
            && !self.env.contains_key(name.name)
        {
            let v = match self.overrides.get(name.name) {
                Some(&o) if !name.name.contains('.') => Some(o),
                _ => self.value(value, &mut Vec::new()),
            };
            self.env.insert(name.name, v);
        }
        self.out.push(Stmt { kind, span });
    }

    /// Emits statement `st` of a body in `scope`. `dtype` is the body's current `dtype`
    /// statement (restored after an instance, whose block starts from the default).
    fn statement(
        &mut self,
        st: &Stmt<'s>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
    ) {
        let kind = match &st.kind {
            StmtKind::Param { name, value } => StmtKind::Param {
                name: self.param(scope, name),
                value: Box::new(self.expr(scope, value)),
            },
            StmtKind::Dtype(d) => {
                let d = Ident {
                    name: d.name,
                    span: scope.span(d.span),
                };
                *dtype = Some(d);
                StmtKind::Dtype(d)
            }
            StmtKind::Decl { external, name, ty } => StmtKind::Decl {
                external: *external,
                name: self.ident(scope, name),
                ty: Box::new(self.ty(scope, ty)),
            },
            StmtKind::Output(names) => {
                StmtKind::Output(names.iter().map(|n| self.ident(scope, n)).collect())
            }
            // Names are renamed as the ops and tensors they name are, so an assertion in a
            // block is checked in each instance, against that instance's ops.
            StmtKind::Assert(a) => {
                let kind = match &a.kind {
                    AssertKind::Predicate {
                        not,
                        name,
                        args,
                        written,
                    } => AssertKind::Predicate {
                        written: written.clone(),
                        not: not.map(|s| scope.span(s)),
                        name: Ident {
                            name: name.name,
                            span: scope.span(name.span),
                        },
                        args: args.iter().map(|n| self.ident(scope, n)).collect(),
                    },
                    AssertKind::Compare {
                        measure,
                        op,
                        op_span,
                        value,
                        unit,
                    } => AssertKind::Compare {
                        measure: Ident {
                            name: measure.name,
                            span: scope.span(measure.span),
                        },
                        op: *op,
                        op_span: scope.span(*op_span),
                        value: self.expr(scope, value),
                        unit: unit.map(|u| Ident {
                            name: u.name,
                            span: scope.span(u.span),
                        }),
                    },
                };
                StmtKind::Assert(Box::new(AssertStmt {
                    kind,
                    instance: scope.instance,
                }))
            }
            StmtKind::Op(op) => {
                let block = (op.func.is_none() && OpKind::from_name(op.kind.name).is_none())
                    .then(|| self.blocks.get(op.kind.name))
                    .flatten();
                if let Some(block) = block {
                    let call = Call {
                        name: &op.name,
                        block,
                        args: &op.args,
                        output: &op.output,
                        span: scope.span(st.span),
                        count: None,
                    };
                    if let Some(ty) = &op.ty {
                        self.diags.push(
                            Diagnostic::new(
                                Code::BadInstance,
                                format!(
                                    "the output type of an instance of `{}` comes from the block",
                                    block.name.name
                                ),
                            )
                            .at(scope.span(ty.span), "not allowed here")
                            .with(
                                self.blocks.block_span(block, block.name.span),
                                "the block is defined here",
                            )
                            .help("remove the type; declare it on the block's output op instead"),
                        );
                    }
                    if !self.instantiate(&call, scope, dtype, depth) {
                        self.failed_call(scope, &op.args, &op.output);
                    }
                    return;
                }
                let shifted = |i: Ident<'s>| Ident {
                    name: i.name,
                    span: scope.span(i.span),
                };
                StmtKind::Op(OpStmt {
                    name: self.ident(scope, &op.name),
                    kind: shifted(op.kind),
                    func: op.func.map(shifted),
                    args: op.args.iter().map(|a| self.arg(scope, a)).collect(),
                    output: self.ident(scope, &op.output),
                    ty: op.ty.as_ref().map(|t| Box::new(self.ty(scope, t))),
                })
            }
            StmtKind::Repeat(r) => {
                let Some(block) = self.blocks.get(r.block.name) else {
                    let mut d = Diagnostic::new(
                        Code::BadInstance,
                        format!("no block named `{}`", r.block.name),
                    )
                    .at(scope.span(r.block.span), "not a block");
                    match crate::diagnostics::did_you_mean(r.block.name, self.blocks.names()) {
                        Some(s) => d = d.help(format!("did you mean `{s}`?")),
                        None if self.blocks.is_empty() => {
                            d = d.help("define it with `block NAME(PARAMS) { ... }` or import it")
                        }
                        None => {}
                    }
                    self.diags.push(d);
                    self.failed_call(scope, &r.args, &r.output);
                    return;
                };
                let count = self.expr(scope, &r.count);
                let mut count_diags = Vec::new();
                let n = self.value(&count, &mut count_diags);
                let failed = !count_diags.is_empty() || n.is_none();
                self.diags.extend(count_diags);
                let n = n.unwrap_or(0);
                if failed {
                    self.failed_call(scope, &r.args, &r.output);
                    return;
                }
                if n < 1 {
                    self.failed_call(scope, &r.args, &r.output);
                    self.diags.push(
                        Diagnostic::new(
                            Code::BadInstance,
                            format!("a repeat needs at least 1 instance, found {n}"),
                        )
                        .at(scope.span(r.count.span()), format!("evaluates to {n}"))
                        .help("repeat a block 1 or more times"),
                    );
                    return;
                }
                let call = Call {
                    name: &r.name,
                    block,
                    args: &r.args,
                    output: &r.output,
                    span: scope.span(st.span),
                    count: Some((n as u64, scope.span(r.count.span()))),
                };
                if !self.instantiate(&call, scope, dtype, depth) {
                    self.failed_call(scope, &r.args, &r.output);
                }
                return;
            }
        };
        self.push(kind, scope.span(st.span));
    }

    /// Records an instantiation that was not expanded: the semantic pass then says nothing of
    /// its arguments being unused or its output undefined (see [`Expansion::attribute`]).
    fn failed_call(&mut self, scope: &Scope<'s>, args: &[Arg<'s>], output: &Ident<'s>) {
        for a in args {
            if let Arg::Tensor(t) = a {
                let name = self.name(scope, t.name.name);
                self.info.unexpanded_args.push(name.to_string());
            }
        }
        let out = self.name(scope, output.name);
        self.info.unexpanded_outputs.push(out.to_string());
    }

    /// Emits the instances of one instantiation; `false` when it reported why it cannot.
    fn instantiate(
        &mut self,
        call: &Call<'_, 's>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
    ) -> bool {
        let block = call.block;
        let bshift = self.blocks.shift(block.name.name);
        let bs = |s: Span| Span::new(s.start + bshift, s.end + bshift);
        if depth >= MAX_DEPTH {
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!("blocks nest deeper than {MAX_DEPTH} levels"),
                )
                .at(call.span, "too deeply nested")
                .help("a block that instantiates itself, directly or through others, never ends"),
            );
            self.failed = true;
            return false;
        }
        if let Some(parent) = scope.instance
            && self.recursive(parent, block.name.name)
        {
            self.diags.push(
                Diagnostic::new(
                    Code::BadBlock,
                    format!("block `{}` instantiates itself", block.name.name),
                )
                .at(call.span, "instantiated again inside itself")
                .with(bs(block.name.span), "the block is defined here")
                .help("a block cannot contain an instance of itself, directly or through other blocks"),
            );
            return false;
        }
        // The block's pieces: inputs in order, and its one output.
        let inputs: Vec<(&Ident<'s>, &TypeAst<'s>, Span)> = block
            .stmts
            .iter()
            .filter_map(|st| match &st.kind {
                StmtKind::Decl {
                    external: ExternalKind::Input,
                    name,
                    ty,
                } => Some((name, &**ty, bs(st.span))),
                _ => None,
            })
            .collect();
        let outputs: Vec<&Ident<'s>> = block
            .stmts
            .iter()
            .filter_map(|st| match &st.kind {
                StmtKind::Output(names) => Some(names.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        let produced = |name: &str| {
            block.stmts.iter().any(|st| match &st.kind {
                StmtKind::Op(op) => op.output.name == name,
                StmtKind::Repeat(r) => r.output.name == name,
                _ => false,
            })
        };
        let output = match outputs.as_slice() {
            [one] if produced(one.name) => *one,
            [one] => {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadBlock,
                        format!(
                            "the output `{}` of block `{}` is not produced by an op of the block",
                            one.name, block.name.name
                        ),
                    )
                    .at(bs(one.span), "not produced in the block")
                    .with(call.span, "instantiated here")
                    .help("a block's output is the result of one of its ops"),
                );
                return false;
            }
            _ => {
                let d = Diagnostic::new(
                    Code::BadBlock,
                    format!(
                        "block `{}` must name exactly one output, found {}",
                        block.name.name,
                        outputs.len()
                    ),
                )
                .at(bs(block.name.span), "in this block")
                .with(call.span, "instantiated here")
                .help("end the block with `output NAME`: the tensor an instance stands for");
                self.diags.push(d);
                return false;
            }
        };
        // Tensor arguments bind to the inputs in order; attributes to header params.
        let tensors: Vec<&TensorArg<'s>> = call
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::Tensor(t) => Some(t),
                _ => None,
            })
            .collect();
        let mut ok = true;
        if tensors.len() != inputs.len() {
            let mut d = Diagnostic::new(
                Code::BadInstance,
                format!(
                    "block `{}` takes {} tensor argument{}, found {}",
                    block.name.name,
                    inputs.len(),
                    if inputs.len() == 1 { "" } else { "s" },
                    tensors.len()
                ),
            )
            .at(call.span, "wrong number of tensors")
            .with(bs(block.name.span), "the block is defined here");
            let names: Vec<&str> = inputs.iter().map(|i| i.0.name).collect();
            d = d.help(format!(
                "its inputs are: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
            self.diags.push(d);
            ok = false;
        }
        if call.count.is_some() && inputs.is_empty() {
            self.diags.push(
                Diagnostic::new(
                    Code::BadInstance,
                    format!(
                        "block `{}` has no input to thread a repeat through",
                        block.name.name
                    ),
                )
                .at(call.span, "nothing to thread")
                .help(
                    "each instance of a repeat takes the previous one's output as its first input",
                ),
            );
            ok = false;
        }
        for t in &tensors {
            if t.index.is_some() || t.transpose {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        "a block's tensor argument must be a whole tensor",
                    )
                    .at(scope.span(t.span), "a view")
                    .help(
                        "pass the tensor itself, or make the view an op (`slice`, `permute`) first",
                    ),
                );
                ok = false;
            }
        }
        for a in call.args {
            let other = match a {
                Arg::Scalar(lit) => Some(lit.span),
                Arg::FloatAttr { name, value } => Some(name.span.to(value.span)),
                Arg::ListAttr { span, .. } => Some(*span),
                _ => None,
            };
            if let Some(at) = other {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        format!(
                            "block `{}` takes tensors and integer params only",
                            block.name.name
                        ),
                    )
                    .at(scope.span(at), "not a tensor or an integer param")
                    .help("block params are integer expressions: `S = 2048`"),
                );
                ok = false;
            }
            if let Arg::Attr { name, .. } = a
                && !block.params.iter().any(|p| p.name.name == name.name)
            {
                let mut d = Diagnostic::new(
                    Code::BadInstance,
                    format!("block `{}` has no param `{}`", block.name.name, name.name),
                )
                .at(scope.span(name.span), "unknown param")
                .with(bs(block.name.span), "the block is defined here");
                let names = block.params.iter().map(|p| p.name.name);
                d = match crate::diagnostics::did_you_mean(name.name, names) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!(
                        "its params are: {}",
                        block
                            .params
                            .iter()
                            .map(|p| p.name.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                self.diags.push(d);
                ok = false;
            }
        }
        for p in &block.params {
            let given = call
                .args
                .iter()
                .any(|a| matches!(a, Arg::Attr { name, .. } if name.name == p.name.name));
            if !given && p.default.is_none() {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        format!(
                            "param `{}` of block `{}` is not given",
                            p.name.name, block.name.name
                        ),
                    )
                    .at(call.span, format!("`{}` missing", p.name.name))
                    .with(bs(p.name.span), "declared here without a default")
                    .help(format!("pass it as an attribute: `{} = ...`", p.name.name)),
                );
                ok = false;
            }
        }
        if !ok {
            return false;
        }
        let count = call.count.map_or(1, |(n, _)| n);
        // Bound the expansion before allocating it: every instance costs at least the
        // block's own statements and two dtype resets.
        let least = (block.stmts.len() as u64).saturating_add(2);
        let total = count
            .checked_mul(least)
            .and_then(|n| n.checked_add(self.out.len() as u64));
        if total.is_none_or(|t| t > limits::MAX_STATEMENTS as u64) {
            let at = call.count.map_or(call.span, |(_, s)| s);
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "{count} instance{} of `{}` would exceed the limit of {} statements in a graph",
                        if count == 1 { "" } else { "s" },
                        block.name.name,
                        limits::MAX_STATEMENTS
                    ),
                )
                .at(at, "too many statements")
                .help("repeat fewer times, or split the model into several graphs"),
            );
            self.failed = true;
            return false;
        }
        let base = self.name(scope, call.name.name);
        let mut threaded: Option<&'s str> = None;
        for i in 0..count {
            if self.failed || self.out.len() > limits::MAX_STATEMENTS {
                self.failed = true;
                return false;
            }
            let path = match call.count {
                Some(_) => self.alloc(&format!("{base}.{i}")),
                None => base,
            };
            let prefix = self.alloc(&format!("{path}."));
            let mut inner = Scope {
                prefix,
                bound: HashMap::new(),
                instance: Some(self.info.instances.len()),
                shift: bshift,
            };
            for (k, (input, ..)) in inputs.iter().enumerate() {
                let arg = match (k, threaded) {
                    (0, Some(prev)) => prev,
                    _ => self.name(scope, tensors[k].name.name),
                };
                inner.bound.insert(input.name, arg);
            }
            let last = i + 1 == count;
            let out_name = if last {
                self.name(scope, call.output.name)
            } else {
                self.alloc(&format!("{prefix}{}", output.name))
            };
            inner.bound.insert(output.name, out_name);
            let instance = self.info.instances.len();
            self.info.instances.push(Instance {
                path: path.to_string(),
                block: block.name.name.to_string(),
                call: call.span,
                index: call.count.map(|_| i),
                parent: scope.instance,
                block_span: bs(block.span),
                ops: self.ops..self.ops,
            });
            // The block starts from the default dtype, as a graph does.
            let reset = Ident {
                name: "f32",
                span: scope.span(call.name.span),
            };
            self.push(StmtKind::Dtype(reset), call.span);
            // Header params: the instantiation's value, else the default.
            for p in &block.params {
                let given = call.args.iter().find_map(|a| match a {
                    Arg::Attr { name, value } if name.name == p.name.name => Some((name, value)),
                    _ => None,
                });
                let (span, value) = match given {
                    Some((name, value)) => (
                        scope.span(name.span.to(value.span())),
                        self.expr(scope, value),
                    ),
                    None => match &p.default {
                        Some(d) => (bs(p.name.span.to(d.span())), self.expr(&inner, d)),
                        None => continue,
                    },
                };
                let name = self.param(&inner, &p.name);
                self.push(
                    StmtKind::Param {
                        name,
                        value: Box::new(value),
                    },
                    span,
                );
            }
            let mut block_dtype = None;
            let mut current_dtype: Option<Dtype> = Some(Dtype::F32);
            let mut input_k = 0;
            for st in block.stmts.iter() {
                if self.failed {
                    return false;
                }
                match &st.kind {
                    StmtKind::Decl {
                        external: ExternalKind::Input,
                        name,
                        ty,
                    } => {
                        let tensor = inner.bound.get(name.name).copied().unwrap_or(name.name);
                        // The first input of a later instance of a repeat is the threaded
                        // output: the repeat itself is the argument.
                        let argument = match (input_k, i) {
                            (0, 1..) => call.span,
                            (k, _) => tensors.get(k).map_or(call.span, |t| scope.span(t.span)),
                        };
                        input_k += 1;
                        let renamed = self.ty(&inner, ty);
                        let mut ignore = Vec::new();
                        let shape: Option<Vec<u64>> = renamed
                            .dims
                            .iter()
                            .map(|d| {
                                self.value(d, &mut ignore)
                                    .and_then(|v| u64::try_from(v).ok())
                            })
                            .collect();
                        let dtype = match &ty.dtype {
                            Some(d) => Dtype::from_name(d.name),
                            None => current_dtype,
                        };
                        self.info.bindings.push(Binding {
                            tensor: tensor.to_string(),
                            shape,
                            dtype,
                            declared: bs(st.span),
                            argument,
                            instance,
                        });
                    }
                    // The block's output is the instance's result, not a graph output.
                    StmtKind::Output(_) => {}
                    StmtKind::Dtype(d) => {
                        current_dtype = Dtype::from_name(d.name);
                        self.statement(st, &inner, &mut block_dtype, depth + 1);
                    }
                    _ => self.statement(st, &inner, &mut block_dtype, depth + 1),
                }
            }
            // Back to the caller's dtype for what follows the instance.
            let restore = dtype.unwrap_or(Ident {
                name: "f32",
                span: scope.span(call.name.span),
            });
            self.push(StmtKind::Dtype(restore), call.span);
            self.info.instances[instance].ops.end = self.ops;
            threaded = Some(out_name);
        }
        true
    }

    fn alloc(&self, s: &str) -> &'s str {
        self.arena.alloc_str(s)
    }

    /// Whether instance `at` or one of its parents is an instance of `block`.
    fn recursive(&self, at: usize, block: &str) -> bool {
        let mut cur = Some(at);
        while let Some(i) = cur {
            let inst = &self.info.instances[i];
            if inst.block == block {
                return true;
            }
            cur = inst.parent;
        }
        false
    }
}

/// One instantiation: `op name = block(args) -> output` or `repeat N name = ...`.
struct Call<'x, 's> {
    name: &'x Ident<'s>,
    block: &'x BlockAst<'s>,
    args: &'x [Arg<'s>],
    output: &'x Ident<'s>,
    span: Span,
    /// A repeat's count and the count's span.
    count: Option<(u64, Span)>,
}

impl Expansion {
    /// The instance a diagnostic about an instance's statement belongs to: the innermost
    /// instance whose block contains the diagnostic's place and whose path the diagnostic
    /// names (the first such instance when it names none).
    fn owner(&self, d: &Diagnostic) -> Option<usize> {
        // Blocks do not nest in the source: the instances whose block holds the place are
        // all instances of one block.
        let at = d.primary.as_ref()?.span;
        let text = diagnostic_text(d);
        let mut fallback = None;
        for (i, inst) in self.instances.iter().enumerate() {
            if !inst.block_span.contains(at) {
                continue;
            }
            if text.contains(&format!("{}.", inst.path)) {
                return Some(i);
            }
            fallback.get_or_insert(i);
        }
        fallback
    }

    /// Attributes the diagnostics about instances' statements: instance names become the
    /// block's own, the instantiations that produced the statement are labelled, and the copies
    /// one diagnostic gets from identical instances are reported once.
    pub fn attribute(&self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        if self.instances.is_empty()
            && self.unexpanded_args.is_empty()
            && self.unexpanded_outputs.is_empty()
        {
            return diags;
        }
        let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
        // Copies from the instances of one instantiation statement (the 32 layers of a
        // repeat) are one finding; another statement's instances are reported apart, so that
        // an allow comment on one statement does not hide the other's.
        let mut seen: HashMap<(Code, Option<Span>, String, Option<Span>), usize> = HashMap::new();
        for mut d in diags {
            // An instantiation already reported as wrong: its tensors say nothing more.
            let names =
                |list: &[String]| list.iter().any(|n| d.message.contains(&format!("`{n}`")));
            if (d.code == Code::UnusedTensor && names(&self.unexpanded_args))
                || (d.code == Code::UndefinedTensor && names(&self.unexpanded_outputs))
            {
                continue;
            }
            if let Some(i) = self.owner(&d) {
                let prefix = format!("{}.", self.instances[i].path);
                strip(&mut d, &prefix);
                // Labels from the innermost instantiation outwards.
                let mut cur = Some(i);
                while let Some(k) = cur {
                    let inst = &self.instances[k];
                    let label = match inst.index {
                        Some(n) => format!("{REPEAT_LABEL}{n} of this repeat of `{}`", inst.block),
                        None => format!("{INSTANCE_LABEL}{}`", inst.block),
                    };
                    d.secondary.push(Label {
                        span: inst.call,
                        message: label,
                    });
                    // The outer instances' names appear in the message too.
                    if let Some(p) = inst.parent {
                        strip(&mut d, &format!("{}.", self.instances[p].path));
                    }
                    cur = inst.parent;
                }
            }
            let outermost = instantiations(&d).last();
            let key = (
                d.code,
                d.primary.as_ref().map(|p| p.span),
                d.message.clone(),
                outermost,
            );
            if seen.contains_key(&key) {
                continue;
            }
            seen.insert(key, out.len());
            out.push(d);
        }
        out
    }
}

/// The instantiations a diagnostic about an instance's statement was produced by (the labels
/// [`Expansion::attribute`] adds): an allow comment on one of them, or on the graph holding
/// it, covers the diagnostic as it covers the statements the instantiation stands for.
pub fn instantiations(d: &Diagnostic) -> impl Iterator<Item = Span> + '_ {
    d.secondary
        .iter()
        .filter(|l| l.message.starts_with(INSTANCE_LABEL) || l.message.starts_with(REPEAT_LABEL))
        .map(|l| l.span)
}

const INSTANCE_LABEL: &str = "in this instance of `";
const REPEAT_LABEL: &str = "in instance ";

fn diagnostic_text(d: &Diagnostic) -> String {
    let mut s = d.message.clone();
    for l in d.primary.iter().chain(&d.secondary) {
        s.push('\n');
        s.push_str(&l.message);
    }
    if let Some(h) = &d.help {
        s.push('\n');
        s.push_str(h);
    }
    s
}

/// Removes an instance's prefix from every text of a diagnostic.
fn strip(d: &mut Diagnostic, prefix: &str) {
    let f = |s: &mut String| {
        if s.contains(prefix) {
            *s = s.replace(prefix, "");
        }
    };
    f(&mut d.message);
    if let Some(p) = &mut d.primary {
        f(&mut p.message);
    }
    for l in &mut d.secondary {
        f(&mut l.message);
    }
    if let Some(h) = &mut d.help {
        f(h);
    }
    for fix in d.fixes.iter_mut() {
        f(&mut fix.message);
        for e in &mut fix.edits {
            f(&mut e.replacement);
        }
    }
}
