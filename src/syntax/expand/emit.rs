//! Emitting a body's statements into the expanded graph: each statement is renamed into its
//! scope, or, where it instantiates a block, replaced by the instance's statements; the
//! params emitted so far are evaluated, so that repeat counts are known here. Also the
//! renaming of the pieces an instantiation needs (names, a count, a type), which records
//! nothing.

use super::rename::{Namer, Recorder, Rename};
use super::{Expander, Scope};
use crate::diagnostics::{Diagnostic, Span};
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::syntax::ast::*;
use crate::types::OpKind;

impl<'a, 'x, 's> Expander<'a, 'x, 's> {
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

    /// Takes note of a statement just emitted: an op and the statement's items are counted,
    /// a param evaluated.
    fn emitted(&mut self, kind: &StmtKind<'s>) {
        if matches!(kind, StmtKind::Op(_)) {
            self.ops += 1;
        }
        self.info.items = self.info.items.saturating_add(super::budget::items(kind));
        if let StmtKind::Param { name, value } = kind
            && !self.env.contains_key(name.name)
        {
            let v = match self.overrides.get(name.name) {
                Some(&o) if !name.name.contains('.') => Some(o),
                _ => self.value(value, &mut Vec::new()),
            };
            self.env.insert(name.name, v);
        }
    }

    /// Emits `dtype NAME` around an instance.
    pub(super) fn dtype(&mut self, name: Ident<'s>, span: Span) {
        let st = self.out.push_dtype(name, span);
        self.emitted(&st.kind);
    }

    /// Emits header param `name` with `value` as written in `scope`.
    pub(super) fn header_param(
        &mut self,
        name: Ident<'s>,
        value: &'x Expr<'s>,
        scope: &Scope<'s>,
        span: Span,
    ) {
        let st = self.out.push_param(name, value, scope, span, self.arena);
        self.emitted(&st.kind);
    }

    /// Emits statement `st` of a body in `scope`. `dtype` is the body's current `dtype`
    /// statement (restored after an instance, whose block starts from the default).
    pub(super) fn statement(
        &mut self,
        st: &'x Stmt<'s>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
    ) {
        match &st.kind {
            StmtKind::Op(op) => {
                let block = (op.func.is_none() && OpKind::from_name(op.kind.name).is_none())
                    .then(|| self.blocks.get(op.kind.name))
                    .flatten();
                if let Some(block) = block {
                    if self.blocks.is_broken(block.name.name) {
                        self.failed_call(scope, &op.args, &op.output);
                    } else {
                        self.op_instance(st, op, block, scope, dtype, depth);
                    }
                    return;
                }
                // A block of an import that failed: that import is the one error.
                if op.func.is_none() && self.blocks.lost(op.kind.name) {
                    self.failed_call(scope, &op.args, &op.output);
                    return;
                }
            }
            StmtKind::Repeat(r) => {
                self.repeat(st, r, scope, dtype, depth);
                return;
            }
            _ => {}
        }
        let made = self.out.push_stmt(st, scope, self.arena);
        if let StmtKind::Dtype(d) = &made.kind {
            *dtype = Some(*d);
        }
        self.emitted(&made.kind);
    }

    /// Renaming into `scope` that records nothing: for the pieces of an instantiation.
    fn rename<'r>(&self, scope: &'r Scope<'s>) -> Rename<Recorder<'r, 's>> {
        Rename {
            names: Recorder {
                scope,
                arena: self.arena,
                out: None,
            },
            shift: scope.shift,
            instance: scope.instance,
        }
    }

    pub(super) fn name(&self, scope: &Scope<'s>, name: &'s str) -> &'s str {
        self.rename(scope).names.tensor(name)
    }

    /// A param's name: params are never bound, only prefixed.
    pub(super) fn param(&self, scope: &Scope<'s>, id: &Ident<'s>) -> Ident<'s> {
        self.rename(scope).param(id)
    }

    pub(super) fn expr(&self, scope: &Scope<'s>, e: &Expr<'s>) -> Expr<'s> {
        self.rename(scope).expr(e)
    }

    pub(super) fn ty(&self, scope: &Scope<'s>, t: &TypeAst<'s>) -> TypeAst<'s> {
        self.rename(scope).ty(t)
    }

    pub(super) fn alloc(&self, s: &str) -> &'s str {
        self.arena.alloc_str(s)
    }
}
