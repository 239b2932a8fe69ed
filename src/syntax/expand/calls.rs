//! The two instantiating statements, `op x = block(args) -> y` and `repeat N x = block(args)
//! -> y`, made into a [`Call`] (a repeat's count evaluated, its block looked up), and the
//! record of an instantiation that is not expanded.

use super::{Call, Expander, Scope};
use crate::diagnostics::{Code, Diagnostic};
use crate::syntax::ast::*;

impl<'a, 'x, 's> Expander<'a, 'x, 's> {
    /// `op name = block(args) -> output`: one instance of `block`.
    pub(super) fn op_instance(
        &mut self,
        st: &'x Stmt<'s>,
        op: &'x OpStmt<'s>,
        block: &'x BlockAst<'s>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
    ) {
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
    }

    /// `repeat COUNT name = block(args) -> output`: COUNT instances of `block`, threaded
    /// through their first input.
    pub(super) fn repeat(
        &mut self,
        st: &'x Stmt<'s>,
        r: &'x RepeatStmt<'s>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
    ) {
        let Some(block) = self.blocks.get(r.block.name) else {
            // A block of an import that failed: that import is the one error.
            if self.blocks.lost(r.block.name) {
                self.failed_call(scope, &r.args, &r.output);
                return;
            }
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
        if self.blocks.is_broken(block.name.name) {
            self.failed_call(scope, &r.args, &r.output);
            return;
        }
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
    }

    /// Records an instantiation that was not expanded: the semantic pass then says nothing of
    /// its arguments being unused or its output undefined (see [`super::Expansion::attribute`]).
    pub(super) fn failed_call(&mut self, scope: &Scope<'s>, args: &[Arg<'s>], output: &Ident<'s>) {
        for a in args {
            if let Arg::Tensor(t) = a {
                let name = self.name(scope, t.name.name);
                self.info.unexpanded_args.push(name.to_string());
            }
        }
        let out = self.name(scope, output.name);
        self.info.unexpanded_outputs.push(out.to_string());
    }
}
