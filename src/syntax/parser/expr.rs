//! Lowering integer expressions (shape dimensions, param values, view indices, attributes):
//! a flat `expr` pair becomes chains with `* / % div` bound tighter than `+ -`.

use super::{Driver, Result, Rule};
use crate::diagnostics::Span;
use crate::syntax::ast::*;
use pest::iterators::Pair;

impl<'s> Driver<'s> {
    pub(super) fn expr_opt(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<Expr<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        self.expr(p, base)
    }

    /// Lowers a flat `expr` pair (`neg* atom (op neg* atom)*`) into chains with `* /` bound
    /// tighter than `+ -`. Recursion happens only through parentheses, whose depth
    /// `check_nesting` has bounded.
    pub(super) fn expr(&self, p: Pair<'s, Rule>, base: usize) -> Result<Expr<'s>> {
        // Operands (with their leading minus signs) and the operators between them.
        let mut operands: Vec<Expr<'s>> = Vec::new();
        let mut ops: Vec<(BinOp, Span)> = Vec::new();
        let mut negations: Option<(usize, usize)> = None;
        for c in p.into_inner() {
            let span = self.span(&c, base);
            let atom = match c.as_rule() {
                Rule::neg => {
                    let (n, start) = negations.unwrap_or((0, span.start));
                    negations = Some((n + 1, start));
                    continue;
                }
                Rule::plus
                | Rule::minus
                | Rule::star
                | Rule::slash
                | Rule::percent
                | Rule::floordiv => {
                    let op = match c.as_rule() {
                        Rule::plus => BinOp::Add,
                        Rule::minus => BinOp::Sub,
                        Rule::star => BinOp::Mul,
                        Rule::percent => BinOp::Rem,
                        Rule::floordiv => BinOp::FloorDiv,
                        _ => BinOp::Div,
                    };
                    ops.push((op, span));
                    continue;
                }
                Rule::int => Expr::Int {
                    value: c.as_str().parse().ok(),
                    span,
                },
                Rule::ident => Expr::Name(self.ident(Some(c), base)?),
                _ => self.expr(c, base)?,
            };
            operands.push(match negations.take() {
                Some((n, start)) => Expr::Neg {
                    negations: n,
                    span: Span::new(start, atom.span().end),
                    operand: Box::new(atom),
                },
                None => atom,
            });
        }
        let mut operands = operands.into_iter();
        let first = operands
            .next()
            .ok_or_else(|| self.expected_error(base, &[]))?;
        // Fold `* /` runs into terms, then chain the terms with `+ -`.
        let mut terms: Vec<(Option<(BinOp, Span)>, Expr<'s>)> = vec![(None, first)];
        for ((op, op_span), rhs) in ops.into_iter().zip(operands) {
            if multiplicative(op) {
                let (lead, term) = terms.pop().ok_or_else(|| self.expected_error(base, &[]))?;
                terms.push((lead, chain(term, op, op_span, rhs)));
            } else {
                terms.push((Some((op, op_span)), rhs));
            }
        }
        let mut terms = terms.into_iter();
        let (_, mut acc) = terms.next().ok_or_else(|| self.expected_error(base, &[]))?;
        for (lead, term) in terms {
            let (op, op_span) = lead.unwrap_or((BinOp::Add, Span::default()));
            acc = chain(acc, op, op_span, term);
        }
        Ok(acc)
    }
}

/// Whether `op` binds like `*` (`* / % div`) rather than like `+`.
fn multiplicative(op: BinOp) -> bool {
    matches!(op, BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::FloorDiv)
}

/// Appends `op rhs` to `lhs`, extending a chain of the same precedence level in place.
fn chain<'s>(lhs: Expr<'s>, op: BinOp, op_span: Span, rhs: Expr<'s>) -> Expr<'s> {
    let level = multiplicative;
    match lhs {
        Expr::Chain {
            first,
            mut rest,
            span,
        } if rest.first().is_some_and(|(o, _, _)| level(*o) == level(op)) => {
            let span = span.to(rhs.span());
            rest.push((op, op_span, rhs));
            Expr::Chain { first, rest, span }
        }
        lhs => {
            let span = lhs.span().to(rhs.span());
            Expr::Chain {
                first: Box::new(lhs),
                rest: vec![(op, op_span, rhs)],
                span,
            }
        }
    }
}
