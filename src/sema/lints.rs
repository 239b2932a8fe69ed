//! The warnings of the semantic pass: an elementwise op mixing dtypes, and tensors that are
//! produced or declared but never read (with the fix that removes a declaration).

use super::{Sema, use_range};
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span};
use crate::graph::{OpId, Origin};
use crate::syntax::ast::StmtKind;
use crate::syntax::body::Form;
use crate::types::Dtype;

impl<'a, 's> Sema<'a, 's> {
    pub(super) fn dtype_mismatch(&mut self, o: usize) {
        let mut first: Option<(Dtype, Span, &str)> = None;
        for u in &self.uses[use_range(&self.ops, o)] {
            let Some(t) = u.tensor() else { continue };
            let t = &self.tensors[t.index()];
            let Some(d) = t.dtype else { continue };
            match first {
                None => first = Some((d, u.span, t.name.name)),
                Some((fd, fspan, fname)) if fd != d => {
                    let diag = Diagnostic::new(
                        Code::DtypeMismatch,
                        format!(
                            "elementwise `{}` mixes {fd} and {d} inputs",
                            self.ops[o].name
                        ),
                    )
                    .at(u.span, format!("`{}` is {d}", t.name.name))
                    .with(fspan, format!("`{fname}` is {fd}"))
                    .help("declare the inputs with one dtype, or convert one of them with an explicit op");
                    self.diags.push(diag);
                    return;
                }
                Some(_) => {}
            }
        }
    }

    pub(super) fn unused<'c>(
        &mut self,
        consumers_of: impl Fn(usize) -> &'c [OpId],
        is_output: &[bool],
    ) {
        for (t, &output) in is_output.iter().enumerate() {
            // The consumer lists first: most tensors have consumers.
            if !consumers_of(t).is_empty() {
                continue;
            }
            let draft = &self.tensors[t];
            // A tensor made unknown by an error, or offered as the fix of a misspelt use, says
            // nothing more.
            if draft.duplicate || output || draft.shape.is_none() || self.suggested.contains(&t) {
                continue;
            }
            let name = draft.name.name;
            let name_span = draft.name.span;
            let d = match draft.origin {
                Origin::Produced(o) => {
                    let d = Diagnostic::new(
                        Code::UnusedTensor,
                        format!("tensor `{name}` is produced but never used"),
                    )
                    .at(name_span, "no op reads it and it is not an output")
                    .help(format!(
                        "`{}` still writes it to HBM: add `{name}` to `output`, or remove the op",
                        self.ops[o.index()].name
                    ));
                    // Only a listed output can leave a produced tensor unused.
                    match self.outputs.last() {
                        Some(last) => d.fix(Fix::replace(
                            format!("add `{name}` to `output`"),
                            Applicability::NeedsReview,
                            Span::new(last.span.end, last.span.end),
                            format!(", {name}"),
                        )),
                        None => d,
                    }
                }
                Origin::Input | Origin::Weight => {
                    let d = Diagnostic::new(
                        Code::UnusedTensor,
                        format!("tensor `{name}` is declared but never used"),
                    )
                    .at(name_span, "no op reads it")
                    .help("remove the declaration, or pass it to the op that should read it");
                    let decl = self.ast.select(&[Form::Decl]).find(|(_, s)| {
                        matches!(&s.kind, StmtKind::Decl { name, .. } if name.span == name_span)
                    });
                    match decl {
                        Some((_, s)) => d.fix(Fix::replace(
                            format!("remove the declaration of `{name}`"),
                            Applicability::NeedsReview,
                            s.span,
                            "",
                        )),
                        None => d,
                    }
                }
            };
            self.diags.push(d);
        }
    }
}
