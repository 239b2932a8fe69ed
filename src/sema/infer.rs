//! Shape inference: the output of each op (in topological order) from its arguments' shapes
//! after views, by the shape rule of its kind (`shape`, `ops`); checked against a declared
//! shape, which reshape, expand and reductions must give. Then its dtype (declared, else the
//! first input's) and its size.

use super::{Sema, TensorDraft, UseDraft, fmt_shape, op_stmt, ops, shape, use_name, use_range};
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span};
use crate::syntax::ast::OpStmt;
use crate::types::OpKind;
use std::borrow::Cow;

/// Arguments of one op as the shape diagnostics name them: `qkv_heads[…].T`.
struct ArgsOf<'x, 's> {
    uses: &'x [UseDraft],
    /// Index of `uses[0]` in the flat list.
    base: usize,
    tensors: &'x [TensorDraft<'s>],
    unresolved: &'x [(usize, &'s str)],
}

impl shape::ArgNames for ArgsOf<'_, '_> {
    fn name(&self, k: usize) -> String {
        let u = &self.uses[k];
        let mut s = use_name(self.base + k, u, self.tensors, self.unresolved).to_string();
        if u.index().is_some() {
            s += "[…]";
        }
        if u.transpose {
            s += ".T";
        }
        s
    }
    fn span(&self, k: usize) -> Span {
        self.uses[k].span
    }
}

impl<'a, 's> Sema<'a, 's> {
    /// Infers and checks the output of op `o`; its inputs have been inferred already.
    pub(super) fn infer(&mut self, o: usize) {
        if self.ops[o].poisoned {
            return;
        }
        let Some(kind) = self.ops[o].kind else { return };
        // The statement is read only to report something: a large graph's syntax tree is
        // long out of cache by now.
        let (ast, at) = (self.ast, self.ops[o].stmt);
        let stmt = move || op_stmt(ast, at);
        // Each op is inferred once: its declared shape can be moved out.
        let declared = self.ops[o].declared_shape.take();
        let ty_span = || stmt().ty.as_ref().map_or(stmt().output.span, |t| t.span);
        // Argument shapes borrow the tensors: this block ends before the output is stored.
        let (out, first_dtype) = {
            let range = use_range(&self.ops, o);
            let uses = &self.uses[range.clone()];
            let (tensors, diags) = (&self.tensors, &mut self.diags);
            let names = ArgsOf {
                uses,
                base: range.start,
                tensors,
                unresolved: &self.unresolved,
            };
            // Argument shapes after views, borrowed where no view changes them; `None` where an
            // input is unknown.
            let arg = |k: usize, diags: &mut Vec<Diagnostic>| {
                let u = &uses[k];
                let t = &tensors[u.tensor()?.index()];
                let s = t.shape.as_deref()?;
                shape::view(
                    s,
                    u.index().flatten(),
                    u.transpose,
                    t.name.name,
                    u.span,
                    diags,
                )
            };
            let mut small: [Option<Cow<'_, [u64]>>; 2] = [None, None];
            let many: Vec<Option<Cow<'_, [u64]>>>;
            let args: &[Option<Cow<'_, [u64]>>] = if uses.len() <= small.len() {
                for (k, slot) in small.iter_mut().enumerate().take(uses.len()) {
                    *slot = arg(k, diags);
                }
                &small[..uses.len()]
            } else {
                many = (0..uses.len()).map(|k| arg(k, diags)).collect();
                &many
            };
            // `Some(shape)`: inferred; `None` with `inferable`: unknown because of an earlier error.
            let inferable = !matches!(kind, OpKind::Reduction | OpKind::Reshape | OpKind::Expand);
            let written = stmt();
            let op_attrs = ops::Attrs {
                kind,
                ints: &self.ops[o].attrs,
                extra: self.ops[o].extra.as_deref(),
                stmt: &written,
            };
            let inferred: Option<Vec<u64>> = match kind {
                OpKind::Elementwise => shape::broadcast_all(args, &names, diags).flatten(),
                OpKind::Matmul => shape::matmul(args, &names, diags).flatten(),
                OpKind::Reduction | OpKind::Reshape | OpKind::Expand => None,
                _ => ops::infer(args, &op_attrs, &names, diags),
            };
            let out = match declared {
                // The declared dims had errors of their own.
                Some(None) => None,
                None if inferable => inferred,
                None => {
                    diags.push(missing_shape(kind, &stmt()));
                    None
                }
                Some(Some(decl)) => match inferred {
                    Some(inf) if inf != decl => {
                        diags.push(shape_mismatch(kind, &decl, &inf, &stmt(), ty_span()));
                        None
                    }
                    _ if kind == OpKind::Reshape => {
                        shape::reshape(args, decl, &names, ty_span(), diags)
                    }
                    _ if kind == OpKind::Expand => {
                        ops::expand(args, decl, &names, ty_span(), diags)
                    }
                    _ => Some(decl),
                },
            };
            // dtype: the declared one, else the first tensor input's.
            let first_dtype = uses
                .first()
                .and_then(|u| u.tensor())
                .and_then(|t| tensors[t.index()].dtype);
            (out, first_dtype)
        };
        let dtype = match self.ops[o].declared_dtype {
            Some(d) => d,
            None => first_dtype,
        };
        if kind == OpKind::Elementwise {
            self.dtype_mismatch(o);
        }
        let output = self.ops[o].output;
        let bytes = self.size(&out, dtype, || (stmt().output, ty_span()));
        let t = &mut self.tensors[output.index()];
        (t.shape, t.dtype, t.bytes) = (out.filter(|_| bytes.is_some()), dtype, bytes);
    }
}

/// An op whose kind cannot infer its output shape, declared without one.
fn missing_shape(kind: OpKind, stmt: &OpStmt<'_>) -> Diagnostic {
    Diagnostic::new(
        Code::MissingShape,
        format!(
            "the output of {kind} `{}` needs a declared shape",
            stmt.name.name
        ),
    )
    .at(stmt.output.span, "no shape given")
    .help(format!(
        "{kind} output shapes cannot be inferred: write `-> {}: [..]`",
        stmt.output.name
    ))
}

/// A declared output shape `decl` that is not the inferred `inf`, with the fix that declares
/// `inf` in the type at `ty_span`.
fn shape_mismatch(
    kind: OpKind,
    decl: &[u64],
    inf: &[u64],
    stmt: &OpStmt<'_>,
    ty_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::ShapeMismatch,
        format!(
            "declared shape {} of `{}` does not match the inferred shape {}",
            fmt_shape(decl),
            stmt.output.name,
            fmt_shape(inf)
        ),
    )
    .at(ty_span, format!("declared {}", fmt_shape(decl)))
    .with(
        stmt.kind.span,
        format!("{kind} produces {}", fmt_shape(inf)),
    )
    .help(format!(
        "declare `{}: {}{}` or leave the shape out",
        stmt.output.name,
        stmt.ty
            .as_ref()
            .and_then(|t| t.dtype)
            .map_or("", |d| d.name),
        fmt_shape(inf)
    ))
    .fix(Fix::replace(
        format!("declare the inferred shape {}", fmt_shape(inf)),
        Applicability::NeedsReview,
        ty_span,
        format!(
            "{}{}",
            stmt.ty
                .as_ref()
                .and_then(|t| t.dtype)
                .map_or("", |d| d.name),
            fmt_shape(inf)
        ),
    ))
}
