//! Renaming one body's statements into a scope: tensor and op names get the instance's path
//! (or the caller's name where they are bound), params are only prefixed, and every span is
//! shifted to its file's place. Names made here are allocated in the arena.

use super::{Expander, Scope};
use crate::syntax::ast::*;

impl<'a, 'b, 's> Expander<'a, 'b, 's> {
    pub(super) fn name(&self, scope: &Scope<'s>, name: &'s str) -> &'s str {
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

    pub(super) fn ident(&self, scope: &Scope<'s>, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: self.name(scope, id.name),
            span: scope.span(id.span),
        }
    }

    /// A param's name: params are never bound, only prefixed.
    pub(super) fn param(&self, scope: &Scope<'s>, id: &Ident<'s>) -> Ident<'s> {
        Ident {
            name: self.prefixed(scope.prefix, id.name),
            span: scope.span(id.span),
        }
    }

    pub(super) fn expr(&self, scope: &Scope<'s>, e: &Expr<'s>) -> Expr<'s> {
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

    pub(super) fn ty(&self, scope: &Scope<'s>, t: &TypeAst<'s>) -> TypeAst<'s> {
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

    /// An op statement that is not an instantiation, renamed into `scope`.
    pub(super) fn op(&self, scope: &Scope<'s>, op: &OpStmt<'s>) -> OpStmt<'s> {
        let shifted = |i: Ident<'s>| Ident {
            name: i.name,
            span: scope.span(i.span),
        };
        OpStmt {
            name: self.ident(scope, &op.name),
            kind: shifted(op.kind),
            func: op.func.map(shifted),
            args: op.args.iter().map(|a| self.arg(scope, a)).collect(),
            output: self.ident(scope, &op.output),
            ty: op.ty.as_ref().map(|t| Box::new(self.ty(scope, t))),
        }
    }

    /// An assertion, its names renamed as the ops and tensors they name are, so that an
    /// assertion in a block is checked in each instance, against that instance's ops.
    pub(super) fn assertion(&self, scope: &Scope<'s>, a: &AssertStmt<'s>) -> AssertStmt<'s> {
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
        AssertStmt {
            kind,
            instance: scope.instance,
        }
    }

    pub(super) fn alloc(&self, s: &str) -> &'s str {
        self.arena.alloc_str(s)
    }
}
