//! Emitting a body's statements into the expanded graph: each statement is renamed into its
//! scope, or, where it instantiates a block, replaced by the instance's statements; the
//! params emitted so far are evaluated, so that repeat counts are known here.

use super::{Expander, Scope};
use crate::diagnostics::{Diagnostic, Span};
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::syntax::ast::*;
use crate::types::OpKind;

impl<'a, 'b, 's> Expander<'a, 'b, 's> {
    /// Evaluates `e` (already renamed) against the params emitted so far.
    pub(super) fn value(&self, e: &Expr<'s>, diags: &mut Vec<Diagnostic>) -> Option<i64> {
        let env = &self.env;
        let lookup = |n: &str| match env.get(n) {
            Some(Some(v)) => Lookup::Value(*v),
            Some(None) => Lookup::Poisoned,
            None => Lookup::Unknown,
        };
        eval_expr::eval(e, &lookup, &|_| None, diags)
    }

    pub(super) fn push(&mut self, kind: StmtKind<'s>, span: Span) {
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
    pub(super) fn statement(
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
            StmtKind::Assert(a) => StmtKind::Assert(Box::new(self.assertion(scope, a))),
            StmtKind::Op(op) => {
                let block = (op.func.is_none() && OpKind::from_name(op.kind.name).is_none())
                    .then(|| self.blocks.get(op.kind.name))
                    .flatten();
                if let Some(block) = block {
                    self.op_instance(st, op, block, scope, dtype, depth);
                    return;
                }
                StmtKind::Op(self.op(scope, op))
            }
            StmtKind::Repeat(r) => {
                self.repeat(st, r, scope, dtype, depth);
                return;
            }
        };
        self.push(kind, scope.span(st.span));
    }
}
