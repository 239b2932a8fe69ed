//! Renaming one body's statements into a scope: tensor and op names get the instance's path
//! (or the caller's name where they are bound), params are only prefixed, and every span is
//! shifted to its file's place.
//!
//! One walk ([`Rename`]) does it, asking a [`Namer`] for each renamed name in a fixed order:
//! while expanding, [`Recorder`] works each name out from the scope (allocating new names in
//! the arena, once per instance) and records it; an expanded statement is later made again
//! from its block's statement and those names by [`Replay`], which hands them back in the same
//! order (see [`super::Expanded`]).

use super::Scope;
use super::typed::{Typed, lookup};
use crate::diagnostics::Span;
use crate::syntax::ast::*;

/// Gives the renamed names of a walk, in the walk's order.
pub(super) trait Namer<'s> {
    /// A tensor or op name: bound to the caller's name, else prefixed.
    fn tensor(&mut self, name: &'s str) -> &'s str;
    /// A param's name: params are never bound, only prefixed.
    fn param(&mut self, name: &'s str) -> &'s str;
    /// The value of a float, boolean or dtype param of the scope (substituted, not recorded).
    fn typed(&self, name: &str) -> Option<Typed<'s>>;
}

/// Works names out from a scope, recording them in `out` when given.
pub(super) struct Recorder<'r, 's> {
    pub scope: &'r Scope<'s>,
    pub arena: &'s bumpalo::Bump,
    pub out: Option<&'r mut Vec<&'s str>>,
}

impl<'s> Recorder<'_, 's> {
    fn record(&mut self, name: &'s str) -> &'s str {
        if let Some(out) = &mut self.out {
            out.push(name);
        }
        name
    }
}

impl<'s> Namer<'s> for Recorder<'_, 's> {
    fn tensor(&mut self, name: &'s str) -> &'s str {
        let full = match self.scope.bound.get(name) {
            Some(b) => b,
            None => self.scope.prefixed(self.arena, name),
        };
        self.record(full)
    }
    fn param(&mut self, name: &'s str) -> &'s str {
        let full = self.scope.prefixed(self.arena, name);
        self.record(full)
    }
    fn typed(&self, name: &str) -> Option<Typed<'s>> {
        lookup(&self.scope.values, name)
    }
}

/// Hands back names recorded by a [`Recorder`] walk of the same statement, in a scope whose
/// float and dtype params are the second field.
pub(super) struct Replay<'n, 's>(
    pub std::slice::Iter<'n, &'s str>,
    pub &'n [(&'s str, Typed<'s>)],
);

impl<'s> Namer<'s> for Replay<'_, 's> {
    fn tensor(&mut self, name: &'s str) -> &'s str {
        // The walk is the recording's: a name is always there.
        self.0.next().copied().unwrap_or(name)
    }
    fn param(&mut self, name: &'s str) -> &'s str {
        self.tensor(name)
    }
    fn typed(&self, name: &str) -> Option<Typed<'s>> {
        self.1.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// One walk over a statement (or part of one), renaming it.
pub(super) struct Rename<N> {
    pub names: N,
    /// Added to every span: an imported file's place after the importing file's text.
    pub shift: usize,
    /// Index of the instance in `Expansion::instances`, given to assertions.
    pub instance: Option<usize>,
}

impl<'s, N: Namer<'s>> Rename<N> {
    pub(super) fn span(&self, s: Span) -> Span {
        Span::new(s.start + self.shift, s.end + self.shift)
    }

    /// An identifier that is not renamed, only shifted (kinds, attributes, dtypes).
    fn kept(&self, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: id.name,
            span: self.span(id.span),
        }
    }

    /// A dtype as written: a dtype param's value, else kept.
    fn dtype(&self, id: &Ident<'s>) -> Ident<'s> {
        match self.names.typed(id.name) {
            Some(Typed::Dtype(d)) => Ident {
                name: d,
                span: self.span(id.span),
            },
            _ => self.kept(id),
        }
    }

    pub(super) fn ident(&mut self, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: self.names.tensor(id.name),
            span: self.span(id.span),
        }
    }

    /// A param's name: params are never bound, only prefixed.
    pub(super) fn param(&mut self, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: self.names.param(id.name),
            span: self.span(id.span),
        }
    }

    pub(super) fn expr(&mut self, e: &Expr<'s>) -> Expr<'s> {
        match e {
            Expr::Int { value, span } => Expr::Int {
                value: *value,
                span: self.span(*span),
            },
            Expr::Name(id) => Expr::Name(self.param(id)),
            Expr::Bool { value, span } => Expr::Bool {
                value: *value,
                span: self.span(*span),
            },
            Expr::Neg {
                negations,
                operand,
                span,
            } => Expr::Neg {
                negations: *negations,
                operand: Box::new(self.expr(operand)),
                span: self.span(*span),
            },
            Expr::Chain { first, rest, span } => Expr::Chain {
                first: Box::new(self.expr(first)),
                rest: rest
                    .iter()
                    .map(|(op, s, e)| (*op, self.span(*s), self.expr(e)))
                    .collect(),
                span: self.span(*span),
            },
        }
    }

    pub(super) fn ty(&mut self, t: &TypeAst<'s>) -> TypeAst<'s> {
        TypeAst {
            dtype: t.dtype.map(|d| self.dtype(&d)),
            dims: t.dims.iter().map(|d| self.expr(d)).collect(),
            span: self.span(t.span),
        }
    }

    fn arg(&mut self, a: &Arg<'s>) -> Arg<'s> {
        // A float or boolean param given whole to an attribute: its value.
        if let Arg::Attr {
            name,
            value: Expr::Name(id),
        } = a
        {
            match self.names.typed(id.name) {
                Some(Typed::Float(text)) => {
                    return Arg::FloatAttr {
                        name: self.kept(name),
                        value: Literal {
                            text,
                            span: self.span(id.span),
                        },
                    };
                }
                Some(Typed::Bool(value)) => {
                    return Arg::Attr {
                        name: self.kept(name),
                        value: Expr::Bool {
                            value,
                            span: self.span(id.span),
                        },
                    };
                }
                _ => {}
            }
        }
        match a {
            Arg::Attr { name, value } => Arg::Attr {
                name: self.kept(name),
                value: self.expr(value),
            },
            Arg::Tensor(t) => Arg::Tensor(TensorArg {
                name: self.ident(&t.name),
                index: t.index.as_ref().map(|i| Box::new(self.expr(i))),
                transpose: t.transpose,
                span: self.span(t.span),
            }),
            Arg::Scalar(lit) => Arg::Scalar(Literal {
                text: lit.text,
                span: self.span(lit.span),
            }),
            Arg::FloatAttr { name, value } => Arg::FloatAttr {
                name: self.kept(name),
                value: Literal {
                    text: value.text,
                    span: self.span(value.span),
                },
            },
            Arg::ListAttr { name, items, span } => Arg::ListAttr {
                name: self.kept(name),
                items: items.iter().map(|e| self.expr(e)).collect(),
                span: self.span(*span),
            },
        }
    }

    /// An op statement that is not an instantiation.
    pub(super) fn op(&mut self, op: &OpStmt<'s>) -> OpStmt<'s> {
        OpStmt {
            name: self.ident(&op.name),
            kind: self.kept(&op.kind),
            func: op.func.map(|f| self.kept(&f)),
            args: op
                .args
                .iter()
                .map(|a| match a {
                    // A name attribute (`group = tp`, issue 25) is kept as written.
                    Arg::Attr {
                        name,
                        value: Expr::Name(id),
                    } if crate::ops::is_name_attr(op.kind.name, name.name) => Arg::Attr {
                        name: self.kept(name),
                        value: Expr::Name(self.kept(id)),
                    },
                    _ => self.arg(a),
                })
                .collect(),
            output: self.ident(&op.output),
            ty: op.ty.as_ref().map(|t| Box::new(self.ty(t))),
        }
    }

    /// An assertion, its names renamed as the ops and tensors they name are, so that an
    /// assertion in a block is checked in each instance, against that instance's ops.
    fn assertion(&mut self, a: &AssertStmt<'s>) -> AssertStmt<'s> {
        let kind = match &a.kind {
            AssertKind::Predicate {
                not,
                name,
                args,
                written,
            } => AssertKind::Predicate {
                written: written.clone(),
                not: not.map(|s| self.span(s)),
                name: self.kept(name),
                args: args.iter().map(|n| self.ident(n)).collect(),
            },
            AssertKind::Compare {
                measure,
                op,
                op_span,
                value,
                unit,
            } => AssertKind::Compare {
                measure: self.kept(measure),
                op: *op,
                op_span: self.span(*op_span),
                value: self.expr(value),
                unit: unit.map(|u| self.kept(&u)),
            },
        };
        AssertStmt {
            kind,
            instance: self.instance,
        }
    }

    /// A statement renamed. The expander never emits an instantiating statement (it emits
    /// the instance's statements instead); one is renamed as any other.
    pub(super) fn stmt(&mut self, st: &Stmt<'s>) -> Stmt<'s> {
        let kind = match &st.kind {
            StmtKind::Param { name, value } => StmtKind::Param {
                name: self.param(name),
                value: Box::new(self.expr(value)),
            },
            StmtKind::Dtype(d) => StmtKind::Dtype(self.dtype(d)),
            StmtKind::Decl { external, name, ty } => StmtKind::Decl {
                external: *external,
                name: self.ident(name),
                ty: Box::new(self.ty(ty)),
            },
            StmtKind::Output(names) => {
                StmtKind::Output(names.iter().map(|n| self.ident(n)).collect())
            }
            StmtKind::Assert(a) => StmtKind::Assert(Box::new(self.assertion(a))),
            // A block's section is refused (`bad-block`, crate::parallel); renamed all the same.
            StmtKind::Parallel(p) => StmtKind::Parallel(Box::new(ParallelStmt {
                kind: p.kind,
                group: p.group,
                size: self.expr(&p.size),
                items: p
                    .items
                    .iter()
                    .map(|i| match i {
                        ParallelItem::Role { role, names } => ParallelItem::Role {
                            role: *role,
                            names: names.iter().map(|n| self.kept(n)).collect(),
                        },
                        ParallelItem::Setting { name, value } => ParallelItem::Setting {
                            name: *name,
                            value: self.expr(value),
                        },
                    })
                    .collect(),
            })),
            StmtKind::Op(op) => StmtKind::Op(self.op(op)),
            StmtKind::Repeat(r) => StmtKind::Repeat(Box::new(RepeatStmt {
                count: self.expr(&r.count),
                name: self.ident(&r.name),
                block: self.kept(&r.block),
                args: r.args.iter().map(|a| self.arg(a)).collect(),
                output: self.ident(&r.output),
            })),
        };
        Stmt {
            kind,
            span: self.span(st.span),
        }
    }
}
