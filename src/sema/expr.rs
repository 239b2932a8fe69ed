//! Integer expressions: checked 64-bit arithmetic, exact division (`/`), floor division
//! (`div`) and its remainder (`%`), both as Python's `//` and `%`.

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
    /// The param being defined, used in its own definition.
    SelfRef,
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
        // The grammar admits a boolean only as a whole attribute value: an op's attributes
        // take it (`declare`), so reaching here means a block's param was given one.
        Expr::Bool { value, span } => {
            diags.push(
                Diagnostic::new(
                    Code::BadInstance,
                    format!("expected an integer, found `{value}`"),
                )
                .at(*span, "not an integer")
                .help(format!(
                    "block params are integers: write `{}` for `{value}`; `true` and `false` \
                     are values of op attributes (`causal = true`)",
                    u8::from(*value)
                )),
            );
            None
        }
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
            for (op, _, rhs) in rest {
                let r = eval(rhs, lookup, suggest, diags);
                acc = match (acc, r) {
                    (Some(a), Some(b)) => apply(a, *op, b, first.span().to(rhs.span()), diags),
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
        Lookup::SelfRef => {
            diags.push(
                Diagnostic::new(
                    Code::UndefinedParam,
                    format!("param `{}` refers to itself", id.name),
                )
                .at(id.span, "used in its own definition")
                .help("a param's value may use only the params defined above it"),
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
                Some(s) => d
                    .help(format!("did you mean `{s}`?"))
                    .fix(super::rename_fix(id, &s)),
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
        .help(format!(
            "integers are 64-bit: from {} to {}",
            i64::MIN,
            i64::MAX
        ))
}

fn apply(a: i64, op: BinOp, b: i64, span: Span, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let r = match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => {
            // One label on the whole division: miette draws nested labels off by a column.
            if b == 0 {
                diags.push(
                    Diagnostic::new(Code::InexactDivision, format!("division by zero: {a} / 0"))
                        .at(span, "divides by zero")
                        .help("check the params the divisor is made of"),
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
                        .at(span, format!("leaves remainder {rem}"))
                        .help("fgraph divides integers exactly; pick sizes that divide evenly"),
                    );
                    return None;
                }
                None => None,
            }
        }
        BinOp::Rem | BinOp::FloorDiv => {
            if b == 0 {
                let sym = if op == BinOp::Rem { "%" } else { "div" };
                diags.push(
                    Diagnostic::new(
                        Code::InexactDivision,
                        format!("division by zero: {a} {sym} 0"),
                    )
                    .at(span, "divides by zero")
                    .help("check the params the divisor is made of"),
                );
                return None;
            }
            if op == BinOp::Rem {
                Some(floor_rem(a, b))
            } else {
                floor_div(a, b)
            }
        }
    };
    if r.is_none() {
        diags.push(overflow(span));
    }
    r
}

/// `a % b` as Python has it: the remainder of floor division, with the sign of `b` (never
/// overflows: `i64::MIN % -1` is 0). `b` is not 0.
fn floor_rem(a: i64, b: i64) -> i64 {
    let r = a.wrapping_rem(b);
    if r != 0 && (r < 0) != (b < 0) {
        r + b
    } else {
        r
    }
}

/// `a // b` as Python has it: rounded toward negative infinity; `None` when it overflows
/// (`i64::MIN div -1`). `b` is not 0.
fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    Some(if floor_rem(a, b) != 0 && (a < 0) != (b < 0) {
        q - 1
    } else {
        q
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::StmtKind;

    /// Evaluates `src` as the value of a param, with `M = 8` and `K = 3` in scope.
    fn value(src: &str) -> Result<i64, Vec<Code>> {
        let text = format!("graph g {{\n  param X = {src}\n}}\n");
        let file = crate::syntax::parse(&text).map_err(|d| vec![d.code])?;
        let StmtKind::Param { value, .. } = &file.graphs[0].stmts[0].kind else {
            panic!("not a param");
        };
        let lookup = |n: &str| match n {
            "M" => Lookup::Value(8),
            "K" => Lookup::Value(3),
            "BAD" => Lookup::Poisoned,
            "LATER" => Lookup::Later(Span::new(0, 1)),
            _ => Lookup::Unknown,
        };
        let mut diags = Vec::new();
        let v = eval(value, &lookup, &|_| None, &mut diags);
        v.ok_or_else(|| diags.iter().map(|d| d.code).collect())
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(value("1 + 2 * 3"), Ok(7));
        assert_eq!(value("(1 + 2) * 3"), Ok(9));
        assert_eq!(value("8 / 2 / 2"), Ok(2));
        assert_eq!(value("10 - 4 - 3"), Ok(3));
        assert_eq!(value("2 * 3 + 4 * 5"), Ok(26));
        assert_eq!(value("1 - 2 * 3 + 4"), Ok(-1));
        assert_eq!(value("-2 * -3"), Ok(6));
        assert_eq!(value("- -5"), Ok(5));
        assert_eq!(value("-(2 + 3) * 2"), Ok(-10));
        assert_eq!(value("4 * M / K / 2 + 1"), Err(vec![Code::InexactDivision]));
        assert_eq!(value("3 * M / 4 - K"), Ok(3));
    }

    #[test]
    fn exact_division_only() {
        assert_eq!(value("12 / 4"), Ok(3));
        assert_eq!(value("10 / 3"), Err(vec![Code::InexactDivision]));
        assert_eq!(value("1 / 0"), Err(vec![Code::InexactDivision]));
        assert_eq!(value("-12 / 4"), Ok(-3));
    }

    #[test]
    fn remainder_and_floor_division_as_python() {
        // Sliding-window slots: `T % W`.
        assert_eq!(value("4097 % 4096"), Ok(1));
        assert_eq!(value("4097 div 4096"), Ok(1));
        assert_eq!(value("M % K"), Ok(2));
        assert_eq!(value("M div K"), Ok(2));
        // Negative operands: floor, the remainder with the divisor's sign (Python).
        assert_eq!(value("-7 div 2"), Ok(-4));
        assert_eq!(value("-7 % 2"), Ok(1));
        assert_eq!(value("7 div -2"), Ok(-4));
        assert_eq!(value("7 % -2"), Ok(-1));
        assert_eq!(value("-7 div -2"), Ok(3));
        assert_eq!(value("-7 % -2"), Ok(-1));
        assert_eq!(value("-8 div 2"), Ok(-4));
        assert_eq!(value("-8 % 2"), Ok(0));
        assert_eq!(value("0 % 5"), Ok(0));
        // a = (a div b) * b + a % b, for every sign.
        for (a, b) in [(17, 5), (-17, 5), (17, -5), (-17, -5), (3, 7), (-3, 7)] {
            let q = value(&format!("{a} div {b}")).expect("q");
            let r = value(&format!("{a} % {b}")).expect("r");
            assert_eq!(q * b + r, a, "{a}, {b}");
        }
        // Precedence of `*` and `/`, left to right among them.
        assert_eq!(value("1 + 7 % 4"), Ok(4));
        assert_eq!(value("2 * 7 % 4"), Ok(2));
        assert_eq!(value("2 * (7 % 4)"), Ok(6));
        assert_eq!(value("7 % 4 * 2"), Ok(6));
        assert_eq!(value("17 div 4 div 2"), Ok(2));
        assert_eq!(value("17 div 2 * 2 - 17 % 2"), Ok(15));
        assert_eq!(value("12 / 4 % 2"), Ok(1));
        assert_eq!(value("-7 % 3"), Ok(2), "unary minus binds tightest");
        // `div` is an operator only between operands: a param may still be called `div`.
        assert_eq!(value("(M div K)"), Ok(2));
    }

    #[test]
    fn remainder_and_floor_division_are_checked() {
        assert_eq!(value("5 % 0"), Err(vec![Code::InexactDivision]));
        assert_eq!(value("5 div 0"), Err(vec![Code::InexactDivision]));
        assert_eq!(value("5 div (K - 3)"), Err(vec![Code::InexactDivision]));
        assert_eq!(
            value("(-9223372036854775807 - 1) div -1"),
            Err(vec![Code::SizeOverflow])
        );
        // Python's value, which fits: no overflow.
        assert_eq!(value("(-9223372036854775807 - 1) % -1"), Ok(0));
        assert_eq!(
            value("(-9223372036854775807 - 1) div 2"),
            Ok(-4611686018427387904)
        );
        assert_eq!(value("9223372036854775807 % 2"), Ok(1));
        // Every operand's error is reported.
        assert_eq!(
            value("N % 0 + 1 div 0"),
            Err(vec![Code::UndefinedParam, Code::InexactDivision])
        );
    }

    #[test]
    fn checked_arithmetic() {
        assert_eq!(value("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(value("9223372036854775808"), Err(vec![Code::SizeOverflow]));
        assert_eq!(
            value("9223372036854775807 + 1"),
            Err(vec![Code::SizeOverflow])
        );
        assert_eq!(
            value("4611686018427387904 * 2"),
            Err(vec![Code::SizeOverflow])
        );
        assert_eq!(value("-9223372036854775807 - 1"), Ok(i64::MIN));
        assert_eq!(
            value("(-9223372036854775807 - 1) / -1"),
            Err(vec![Code::SizeOverflow])
        );
        assert_eq!(
            value("-(-9223372036854775807 - 1)"),
            Err(vec![Code::SizeOverflow])
        );
    }

    #[test]
    fn names_resolve_or_report_once() {
        assert_eq!(value("M * K"), Ok(24));
        assert_eq!(value("N"), Err(vec![Code::UndefinedParam]));
        assert_eq!(value("LATER + 1"), Err(vec![Code::UndefinedParam]));
        // A poisoned param stays silent; its siblings are still checked.
        assert_eq!(value("BAD + 1"), Err(vec![]));
        assert_eq!(
            value("BAD + N + 5 / 0"),
            Err(vec![Code::UndefinedParam, Code::InexactDivision])
        );
    }
}
