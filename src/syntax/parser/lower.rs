//! Lowering pest pairs into the AST's statements: graph and block heads and imports, params,
//! dtypes, declarations, repeats, assertions, outputs and ops, with their arguments, types and
//! identifiers (checked against the length limit, ASCII and the reserved words).

use super::{Driver, OpenGraph, Result, Rule};
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::limits;
use crate::syntax::ast::*;
use pest::iterators::{Pair, Pairs};

/// Words that cannot name anything.
const RESERVED: [&str; 10] = [
    "graph", "param", "dtype", "input", "weight", "output", "op", "block", "import", "repeat",
];

impl<'s> Driver<'s> {
    pub(super) fn ident(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<Ident<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        // One look-up of the pair's ends gives both the span and the text.
        let s = p.as_span();
        let span = Span::new(base + s.start(), base + s.end());
        let name = s.as_str();
        if name.len() > limits::MAX_IDENT_LEN {
            return Err(Box::new(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "identifier is {} characters long; the limit is {}",
                        name.len(),
                        limits::MAX_IDENT_LEN
                    ),
                )
                .at(
                    Span::new(span.start, span.start + 1),
                    "identifier starts here",
                ),
            ));
        }
        // The grammar matches Unicode identifier characters (one check per character instead
        // of one per ASCII range); the language allows ASCII only.
        if !name.is_ascii()
            && let Some((i, c)) = name.char_indices().find(|(_, c)| !c.is_ascii())
        {
            let at = span.start + i;
            return Err(Box::new(
                Diagnostic::new(
                    Code::SyntaxError,
                    format!("unexpected character `{c}` in identifier"),
                )
                .at(Span::new(at, at + c.len_utf8()), "not allowed in a name")
                .help("names are ASCII letters, digits and `_`, starting with a letter or `_`"),
            ));
        }
        if (2..=6).contains(&name.len()) && RESERVED.contains(&name) {
            return Err(Box::new(
                Diagnostic::new(
                    Code::SyntaxError,
                    format!("expected an identifier, found keyword `{name}`"),
                )
                .at(span, "reserved word")
                .help(format!(
                    "`{name}` is reserved ({}): name things otherwise (`{name}_`), and if it \
                     starts the next statement, the statement before it is incomplete",
                    RESERVED.join(", ")
                )),
            ));
        }
        Ok(Ident { name, span })
    }

    /// The graph, block or import a top-level head pair (`head`, from `start` to `pos`)
    /// starts: an import is recorded at once and gives `None`.
    pub(super) fn lower_head(
        &mut self,
        head: Pair<'s, Rule>,
        start: usize,
        pos: usize,
    ) -> Result<Option<OpenGraph<'s>>> {
        let Some(head) = head.into_inner().next() else {
            return Err(self.expected_error(start, &[]));
        };
        let rule = head.as_rule();
        let mut it = head.into_inner();
        it.next(); // the keyword
        if rule == Rule::import_stmt {
            let path = it.next().ok_or_else(|| self.expected_error(start, &[]))?;
            let path_span = self.span(&path, start);
            let quoted = path.as_str();
            self.file.imports.push(ImportAst {
                path: &quoted[1..quoted.len() - 1],
                span: Span::new(start, pos),
                path_span,
            });
            self.pending.clear();
            return Ok(None);
        }
        let name = self.ident(it.next(), start)?;
        let block = if rule == Rule::block_head {
            let mut params = Vec::new();
            for p in it {
                let mut parts = p.into_inner();
                let name = self.ident(parts.next(), start)?;
                let (default, float) = match parts.next() {
                    Some(f) if f.as_rule() == Rule::float => (
                        None,
                        Some(Literal {
                            text: f.as_str(),
                            span: self.span(&f, start),
                        }),
                    ),
                    Some(b) if b.as_rule() == Rule::boolean => (
                        Some(Expr::Bool {
                            value: b.as_str() == "true",
                            span: self.span(&b, start),
                        }),
                        None,
                    ),
                    Some(e) => (Some(self.expr(e, start)?), None),
                    None => (None, None),
                };
                params.push(BlockParam {
                    name,
                    default,
                    float,
                });
            }
            Some(params)
        } else {
            None
        };
        Ok(Some(OpenGraph {
            name,
            start,
            open: pos - 1,
            allows: std::mem::take(&mut self.pending),
            stmts: Stmts::default(),
            resumed: false,
            block,
        }))
    }

    /// Lowers one statement of a graph or block; `base` is the offset of the pair's text.
    pub(super) fn lower_stmt(&mut self, p: Pair<'s, Rule>, base: usize) -> Result<StmtKind<'s>> {
        let rule = p.as_rule();
        let mut it = p.into_inner();
        Ok(match rule {
            Rule::param_stmt => {
                it.next(); // kw_param
                StmtKind::Param {
                    name: self.ident(it.next(), base)?,
                    value: Box::new(self.expr_opt(it.next(), base)?),
                }
            }
            Rule::dtype_stmt => {
                it.next();
                StmtKind::Dtype(self.ident(it.next(), base)?)
            }
            Rule::decl_stmt => {
                let kw = it.next().map(|p| p.as_rule());
                let external = if kw == Some(Rule::kw_input) {
                    ExternalKind::Input
                } else {
                    ExternalKind::Weight
                };
                StmtKind::Decl {
                    external,
                    name: self.ident(it.next(), base)?,
                    ty: Box::new(self.ty(it.next(), base)?),
                }
            }
            Rule::repeat_stmt => StmtKind::Repeat(Box::new(self.repeat_stmt(it, base)?)),
            Rule::assert_stmt => StmtKind::Assert(Box::new(self.assert_stmt(it, base)?)),
            Rule::parallel_stmt => StmtKind::Parallel(Box::new(self.parallel_stmt(it, base)?)),
            Rule::output_stmt => StmtKind::Output(
                it.skip(1)
                    .map(|p| self.ident(Some(p), base))
                    .collect::<Result<_>>()?,
            ),
            _ => StmtKind::Op(self.op_stmt(it, base)?),
        })
    }

    /// `repeat COUNT name = block(args) -> output`.
    fn repeat_stmt(&self, mut it: Pairs<'s, Rule>, base: usize) -> Result<RepeatStmt<'s>> {
        it.next(); // kw_repeat
        let count = self.expr_opt(it.next(), base)?;
        let name = self.ident(it.next(), base)?;
        let block = self.ident(it.next(), base)?;
        let mut args = Vec::new();
        let mut output = None;
        for p in it {
            match p.as_rule() {
                Rule::arg => args.push(self.arg(p, base)?),
                _ => output = Some(self.ident(Some(p), base)?),
            }
        }
        Ok(RepeatStmt {
            count,
            name,
            block,
            args,
            output: output.ok_or_else(|| self.expected_error(base, &[]))?,
        })
    }

    /// `parallel KIND GROUP = SIZE { items }` (issue 25).
    fn parallel_stmt(&self, mut it: Pairs<'s, Rule>, base: usize) -> Result<ParallelStmt<'s>> {
        it.next(); // kw_parallel
        let kind = self.ident(it.next(), base)?;
        let group = self.ident(it.next(), base)?;
        let size = self.expr_opt(it.next(), base)?;
        let mut items = Vec::new();
        for item in it {
            let mut parts = item.into_inner();
            let head = self.ident(parts.next(), base)?;
            match parts.peek() {
                Some(p) if p.as_rule() == Rule::expr => items.push(ParallelItem::Setting {
                    name: head,
                    value: self.expr_opt(parts.next(), base)?,
                }),
                _ => items.push(ParallelItem::Role {
                    role: head,
                    names: parts
                        .map(|p| self.ident(Some(p), base))
                        .collect::<Result<_>>()?,
                }),
            }
        }
        Ok(ParallelStmt {
            kind,
            group,
            size,
            items,
        })
    }

    /// `assert [not] predicate(names)` or `assert measure CMP value [unit]`.
    fn assert_stmt(&self, mut it: Pairs<'s, Rule>, base: usize) -> Result<AssertStmt<'s>> {
        it.next(); // kw_assert
        let body = it.next().ok_or_else(|| self.expected_error(base, &[]))?;
        let rule = body.as_rule();
        let mut parts = body.into_inner().peekable();
        let kind = if rule == Rule::assert_pred {
            let not = match parts.peek() {
                Some(p) if p.as_rule() == Rule::kw_not => parts.next().map(|p| self.span(&p, base)),
                _ => None,
            };
            let name = self.ident(parts.next(), base)?;
            let args: Vec<Ident<'s>> = parts
                .map(|p| self.ident(Some(p), base))
                .collect::<Result<_>>()?;
            let written = args.iter().map(|a: &Ident<'s>| a.name).collect();
            AssertKind::Predicate {
                not,
                name,
                args,
                written,
            }
        } else {
            let measure = self.ident(parts.next(), base)?;
            let cmp = parts.next().ok_or_else(|| self.expected_error(base, &[]))?;
            let op_span = self.span(&cmp, base);
            let op = CmpOp::from_symbol(cmp.as_str())
                .ok_or_else(|| self.expected_error(op_span.start, &[]))?;
            let value = self.expr_opt(parts.next(), base)?;
            let unit = parts.next().map(|p| Ident {
                name: p.as_str(),
                span: self.span(&p, base),
            });
            AssertKind::Compare {
                measure,
                op,
                op_span,
                value,
                unit,
            }
        };
        Ok(AssertStmt {
            kind,
            instance: None,
        })
    }

    /// `op name = kind[.func](args) -> output[: type]`.
    fn op_stmt(&mut self, mut it: Pairs<'s, Rule>, base: usize) -> Result<OpStmt<'s>> {
        // kw_op name kind func? arg* out ty?
        it.next();
        let name = self.ident(it.next(), base)?;
        let kind = self.ident(it.next(), base)?;
        let mut func = None;
        let mut output = None;
        let mut ty = None;
        // Arguments are gathered in a scratch vector and copied out at their exact
        // count: most ops have one or two, and a growing vector would reserve four.
        self.args.clear();
        for p in it {
            match p.as_rule() {
                Rule::func => func = Some(self.ident(p.into_inner().next(), base)?),
                Rule::arg => {
                    let arg = self.arg(p, base)?;
                    self.args.push(arg);
                }
                Rule::ident => output = Some(self.ident(Some(p), base)?),
                _ => ty = Some(self.ty(Some(p), base)?),
            }
        }
        Ok(OpStmt {
            name,
            kind,
            func,
            args: self.args.drain(..).collect(),
            output: output.ok_or_else(|| self.expected_error(base, &[]))?,
            ty: ty.map(Box::new),
        })
    }

    pub(super) fn arg(&self, p: Pair<'s, Rule>, base: usize) -> Result<Arg<'s>> {
        let start = self.span(&p, base).start;
        let mut it = p.into_inner();
        let first = it.next().ok_or_else(|| self.expected_error(start, &[]))?;
        if first.as_rule() == Rule::number {
            return Ok(Arg::Scalar(Literal {
                text: first.as_str(),
                span: self.span(&first, base),
            }));
        }
        let name = self.ident(Some(first), base)?;
        let mut end = name.span.end;
        let mut index = None;
        let mut transpose = false;
        for p in it {
            match p.as_rule() {
                Rule::expr => {
                    return Ok(Arg::Attr {
                        name,
                        value: self.expr(p, base)?,
                    });
                }
                Rule::boolean => {
                    return Ok(Arg::Attr {
                        name,
                        value: Expr::Bool {
                            value: p.as_str() == "true",
                            span: self.span(&p, base),
                        },
                    });
                }
                Rule::float => {
                    return Ok(Arg::FloatAttr {
                        name,
                        value: Literal {
                            text: p.as_str(),
                            span: self.span(&p, base),
                        },
                    });
                }
                Rule::list => {
                    let span = self.span(&p, base);
                    let items = p
                        .into_inner()
                        .map(|e| self.expr(e, base))
                        .collect::<Result<_>>()?;
                    return Ok(Arg::ListAttr { name, items, span });
                }
                Rule::index => {
                    end = self.span(&p, base).end;
                    index = Some(self.expr_opt(p.into_inner().next(), base)?);
                }
                _ => {
                    end = self.span(&p, base).end;
                    transpose = true;
                }
            }
        }
        Ok(Arg::Tensor(TensorArg {
            name,
            index: index.map(Box::new),
            transpose,
            span: Span::new(start, end),
        }))
    }

    pub(super) fn ty(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<TypeAst<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        let span = self.span(&p, base);
        let mut dtype = None;
        let mut dims = Vec::new();
        for p in p.into_inner() {
            match p.as_rule() {
                Rule::ident => dtype = Some(self.ident(Some(p), base)?),
                _ => dims.push(self.expr(p, base)?),
            }
        }
        Ok(TypeAst { dtype, dims, span })
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Diagnostic;
    use crate::syntax::parse;

    fn error(src: &str) -> Diagnostic {
        *parse(src).expect_err("a syntax error")
    }

    #[test]
    fn names_are_ascii() {
        let d = error("graph g {\n  input x: [4]\n  op a = elementwise.relu(xé) -> y\n}\n");
        assert_eq!(d.message, "unexpected character `é` in identifier");
        assert_eq!(
            d.primary.map(|p| (p.span.start, p.span.end)),
            Some((52, 54))
        );
        let d = error("graph g {\n  input é: [4]\n}\n");
        assert_eq!(d.message, "unexpected character `é` in identifier");
        // Not an identifier character at all: the grammar stops there.
        let d = error("graph g {\n  input x€: [4]\n}\n");
        assert!(d.message.ends_with("found `€`"), "{}", d.message);
    }
}
