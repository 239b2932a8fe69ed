//! Integer expressions: checked 64-bit arithmetic, exact division.

use crate::diagnostics::{Code, Diagnostic, Span};
use crate::syntax::ast::{BinOp, Expr, Ident};

/// How a name in an expression resolves.
pub enum Lookup {
    /// A param with a value.
    Value(i64),
    /// A param whose own definition failed: stay silent, the error is already reported.
    Poisoned,
    /// A param defined later in the graph than this (param) expression may look.
    Later(Span),
    Unknown,
}

/// Evaluates `e`; on failure pushes one diagnostic and returns `None`. `lookup` resolves names;
/// `suggest` offers a close param name for unknown ones.
pub fn eval<'s>(
    e: &Expr<'s>,
    lookup: &dyn Fn(&str) -> Lookup,
    suggest: &dyn Fn(&str) -> Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    match e {
        Expr::Int { value, span } => {
            if value.is_none() {
                diags.push(
                    Diagnostic::new(
                        Code::SizeOverflow,
                        "integer literal does not fit in 64 bits",
                    )
                    .at(*span, "too large")
                    .help(format!("integers range up to {}", i64::MAX)),
                );
            }
            *value
        }
        Expr::Name(id) => name(id, lookup, suggest, diags),
        Expr::Neg {
            negations,
            operand,
            span,
        } => {
            let v = eval(operand, lookup, suggest, diags)?;
            if v == i64::MIN && *negations > 0 {
                diags.push(overflow(*span));
                return None;
            }
            Some(if negations % 2 == 1 { -v } else { v })
        }
        Expr::Chain { first, rest, .. } => {
            // Evaluate every operand so that all of their errors are reported, then fold.
            let mut acc = eval(first, lookup, suggest, diags);
            for (op, op_span, rhs) in rest {
                let r = eval(rhs, lookup, suggest, diags);
                acc = match (acc, r) {
                    (Some(a), Some(b)) => {
                        apply(a, *op, b, *op_span, first.span().to(rhs.span()), diags)
                    }
                    _ => None,
                };
            }
            acc
        }
    }
}

fn name(
    id: &Ident<'_>,
    lookup: &dyn Fn(&str) -> Lookup,
    suggest: &dyn Fn(&str) -> Option<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    match lookup(id.name) {
        Lookup::Value(v) => Some(v),
        Lookup::Poisoned => None,
        Lookup::Later(def) => {
            diags.push(
                Diagnostic::new(
                    Code::UndefinedParam,
                    format!("param `{}` is used before it is defined", id.name),
                )
                .at(id.span, "used here")
                .with(def, "defined here, later")
                .help(format!(
                    "params are evaluated in order: move `param {}` above this use",
                    id.name
                )),
            );
            None
        }
        Lookup::Unknown => {
            let mut d = Diagnostic::new(
                Code::UndefinedParam,
                format!("undefined param `{}`", id.name),
            )
            .at(id.span, "not a param of this graph");
            d = match suggest(id.name) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("define it with `param {} = …`", id.name)),
            };
            diags.push(d);
            None
        }
    }
}

fn overflow(span: Span) -> Diagnostic {
    Diagnostic::new(Code::SizeOverflow, "integer overflow in expression")
        .at(span, "result does not fit in 64 bits")
}

fn apply(
    a: i64,
    op: BinOp,
    b: i64,
    op_span: Span,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    let r = match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => {
            if b == 0 {
                diags.push(
                    Diagnostic::new(Code::InexactDivision, format!("division by zero: {a} / 0"))
                        .at(op_span, "divides by zero")
                        .with(span, "in this expression"),
                );
                return None;
            }
            match a.checked_rem(b) {
                Some(0) => a.checked_div(b),
                Some(rem) => {
                    diags.push(
                        Diagnostic::new(
                            Code::InexactDivision,
                            format!("{a} / {b} is not exact (remainder {rem})"),
                        )
                        .at(op_span, "inexact division")
                        .with(span, "in this expression")
                        .help("fgraph divides integers exactly; pick sizes that divide evenly"),
                    );
                    return None;
                }
                None => None,
            }
        }
    };
    if r.is_none() {
        diags.push(overflow(span));
    }
    r
}
