//! Drives the pest grammar one statement at a time and lowers pairs into the owned AST.

use super::ast::*;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::limits;
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/fgraph.pest"]
struct FgraphParser;

type Result<T> = std::result::Result<T, Box<Diagnostic>>;

/// Parses a whole file. Parsing stops at the first syntax error (SPEC §5).
pub fn parse(src: &str) -> Result<File<'_>> {
    if src.len() > limits::MAX_FILE_BYTES {
        return Err(Box::new(
            Diagnostic::new(
                Code::LimitExceeded,
                format!(
                    "file is {} bytes; the limit is {} bytes",
                    src.len(),
                    limits::MAX_FILE_BYTES
                ),
            )
            .at(Span::new(0, 0), "file too large"),
        ));
    }
    check_nesting(src)?;
    Driver {
        src,
        pending: Vec::new(),
        file: File::default(),
    }
    .run()
}

/// Rejects bracket nesting deeper than the limit before pest (which recurses per level) sees
/// the input, so that no input can exhaust the stack.
fn check_nesting(src: &str) -> Result<()> {
    let bytes = src.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' => {
                depth += 1;
                if depth > limits::MAX_NESTING {
                    return Err(Box::new(
                        Diagnostic::new(
                            Code::LimitExceeded,
                            format!("brackets nest deeper than {} levels", limits::MAX_NESTING),
                        )
                        .at(Span::new(i, i + 1), "too deeply nested")
                        .help("split the expression into several `param`s"),
                    ));
                }
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

struct Driver<'s> {
    src: &'s str,
    /// Codes of `// fgraph: allow(..)` comments not yet attached to a statement or graph.
    pending: Vec<String>,
    file: File<'s>,
}

impl<'s> Driver<'s> {
    fn run(mut self) -> Result<File<'s>> {
        let mut pos = self.skip_trivia(0);
        if pos >= self.src.len() {
            return Err(self.expected_error(pos, &["`graph`".to_string()]));
        }
        while pos < self.src.len() {
            let head = self.parse_one(Rule::graph_head, pos)?;
            let start = pos;
            pos = start + head.as_span().end();
            let name = self.ident(head.into_inner().nth(1), start)?;
            let graph_allows = std::mem::take(&mut self.pending);
            let mut stmts = Vec::new();
            loop {
                pos = self.skip_trivia(pos);
                let item = self.parse_one(Rule::graph_item, pos)?;
                let item_start = pos;
                // pest skips trivia before an optional part that then does not match, so a
                // statement's pair can run over the comments after it: end at its last token.
                let end = item
                    .clone()
                    .into_inner()
                    .flatten()
                    .filter(|p| p.clone().into_inner().next().is_none())
                    .map(|p| p.as_span().end())
                    .max()
                    .unwrap_or(item.as_span().end());
                pos = item_start + end;
                let span = Span::new(item_start, pos);
                let inner = item.into_inner().next();
                match inner {
                    Some(p) if p.as_rule() != Rule::rbrace => {
                        let kind = self.lower_stmt(p, item_start)?;
                        for code in std::mem::take(&mut self.pending) {
                            self.file.allows.push(Allow { code, scope: span });
                        }
                        stmts.push(Stmt { kind, span });
                    }
                    _ => {
                        self.pending.clear();
                        break;
                    }
                }
            }
            let span = Span::new(start, pos);
            for code in graph_allows {
                self.file.allows.push(Allow { code, scope: span });
            }
            self.file.graphs.push(GraphAst { name, stmts, span });
            pos = self.skip_trivia(pos);
        }
        Ok(self.file)
    }

    /// Skips whitespace and comments, collecting `// fgraph: allow(..)` comments that stand on
    /// a line of their own.
    fn skip_trivia(&mut self, mut pos: usize) -> usize {
        let bytes = self.src.as_bytes();
        while pos < bytes.len() {
            match bytes[pos] {
                b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
                b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                    let end = self.src[pos..].find('\n').map_or(bytes.len(), |n| pos + n);
                    let line_start = self.src[..pos].rfind('\n').map_or(0, |n| n + 1);
                    if self.src[line_start..pos].trim().is_empty() {
                        self.pending.extend(parse_allow(&self.src[pos + 2..end]));
                    }
                    pos = end;
                }
                _ => break,
            }
        }
        pos
    }

    fn parse_one(&self, rule: Rule, pos: usize) -> Result<Pair<'s, Rule>> {
        match FgraphParser::parse(rule, &self.src[pos..]) {
            Ok(mut pairs) => pairs.next().ok_or_else(|| self.expected_error(pos, &[])),
            Err(e) => {
                let at = pos
                    + match e.location {
                        InputLocation::Pos(p) => p,
                        InputLocation::Span((s, _)) => s,
                    };
                let expected = match &e.variant {
                    ErrorVariant::ParsingError { positives, .. } => readable(positives),
                    ErrorVariant::CustomError { .. } => Vec::new(),
                };
                Err(self.expected_error(at, &expected))
            }
        }
    }

    fn expected_error(&self, at: usize, expected: &[String]) -> Box<Diagnostic> {
        let (found, len) = found_at(self.src, at);
        let message = match expected {
            [] => format!("unexpected {found}"),
            [one] => format!("expected {one}, found {found}"),
            [init @ .., last] => format!("expected {} or {last}, found {found}", init.join(", ")),
        };
        let label = match expected {
            [] => "unexpected".to_string(),
            [one] => format!("expected {one}"),
            _ => "unexpected here".to_string(),
        };
        Box::new(Diagnostic::new(Code::SyntaxError, message).at(Span::new(at, at + len), label))
    }

    fn span(&self, p: &Pair<'s, Rule>, base: usize) -> Span {
        let s = p.as_span();
        Span::new(base + s.start(), base + s.end())
    }

    fn ident(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<Ident<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        let span = self.span(&p, base);
        let name = p.as_str();
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
        Ok(Ident { name, span })
    }

    fn lower_stmt(&self, p: Pair<'s, Rule>, base: usize) -> Result<StmtKind<'s>> {
        let rule = p.as_rule();
        let mut it = p.into_inner().filter(|p| is_meaningful(p.as_rule()));
        Ok(match rule {
            Rule::param_stmt => StmtKind::Param {
                name: self.ident(it.next(), base)?,
                value: self.expr_opt(it.next(), base)?,
            },
            Rule::dtype_stmt => StmtKind::Dtype(self.ident(it.next(), base)?),
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
                    ty: self.ty(it.next(), base)?,
                }
            }
            Rule::output_stmt => StmtKind::Output(
                it.filter(|p| p.as_rule() == Rule::ident)
                    .map(|p| self.ident(Some(p), base))
                    .collect::<Result<_>>()?,
            ),
            _ => {
                // op_stmt: kw_op name = kind (. func)? ( args ) -> out (: ty)?
                let mut name = None;
                let mut kind = None;
                let mut func = None;
                let mut output = None;
                let mut ty = None;
                let mut args = Vec::new();
                let mut seen_arrow = false;
                for p in it {
                    match p.as_rule() {
                        Rule::ident if seen_arrow => output = Some(self.ident(Some(p), base)?),
                        Rule::ident if name.is_none() => name = Some(self.ident(Some(p), base)?),
                        Rule::ident if kind.is_none() => kind = Some(self.ident(Some(p), base)?),
                        Rule::ident => func = Some(self.ident(Some(p), base)?),
                        Rule::arrow => seen_arrow = true,
                        Rule::attr => {
                            let mut a = p.into_inner().filter(|p| is_meaningful(p.as_rule()));
                            args.push(Arg::Attr {
                                name: self.ident(a.next(), base)?,
                                value: self.expr_opt(a.next(), base)?,
                            });
                        }
                        Rule::tensor_arg => args.push(Arg::Tensor(self.tensor_arg(p, base)?)),
                        Rule::ty => ty = Some(self.ty(Some(p), base)?),
                        _ => {}
                    }
                }
                let missing = || self.expected_error(base, &[]);
                StmtKind::Op(Box::new(OpStmt {
                    name: name.ok_or_else(missing)?,
                    kind: kind.ok_or_else(missing)?,
                    func,
                    args,
                    output: output.ok_or_else(missing)?,
                    ty,
                }))
            }
        })
    }

    fn tensor_arg(&self, p: Pair<'s, Rule>, base: usize) -> Result<TensorArg<'s>> {
        let span = self.span(&p, base);
        let mut name = None;
        let mut index = None;
        let mut transpose = false;
        for p in p.into_inner() {
            match p.as_rule() {
                Rule::ident => name = Some(self.ident(Some(p), base)?),
                Rule::expr => index = Some(self.expr(p, base)?),
                Rule::transpose => transpose = true,
                _ => {}
            }
        }
        Ok(TensorArg {
            name: name.ok_or_else(|| self.expected_error(span.start, &[]))?,
            index,
            transpose,
            span,
        })
    }

    fn ty(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<TypeAst<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        let span = self.span(&p, base);
        let mut dtype = None;
        let mut dims = Vec::new();
        for p in p.into_inner() {
            match p.as_rule() {
                Rule::ident => dtype = Some(self.ident(Some(p), base)?),
                Rule::expr => dims.push(self.expr(p, base)?),
                _ => {}
            }
        }
        Ok(TypeAst { dtype, dims, span })
    }

    fn expr_opt(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<Expr<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        self.expr(p, base)
    }

    /// Lowers `expr`, `term` and `unary` pairs. Recursion happens only through parentheses,
    /// whose depth `check_nesting` has bounded.
    fn expr(&self, p: Pair<'s, Rule>, base: usize) -> Result<Expr<'s>> {
        let span = self.span(&p, base);
        match p.as_rule() {
            Rule::expr | Rule::term => {
                let mut it = p.into_inner();
                let first = self.expr_opt(it.next(), base)?;
                let mut rest = Vec::new();
                while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
                    let bin = match op.as_rule() {
                        Rule::plus => BinOp::Add,
                        Rule::minus => BinOp::Sub,
                        Rule::star => BinOp::Mul,
                        _ => BinOp::Div,
                    };
                    rest.push((bin, self.span(&op, base), self.expr(rhs, base)?));
                }
                if rest.is_empty() {
                    return Ok(first);
                }
                Ok(Expr::Chain {
                    first: Box::new(first),
                    rest,
                    span,
                })
            }
            Rule::unary => {
                let mut negations = 0;
                let mut operand = None;
                for p in p.into_inner() {
                    match p.as_rule() {
                        Rule::minus => negations += 1,
                        Rule::lparen | Rule::rparen => {}
                        _ => operand = Some(self.expr(p, base)?),
                    }
                }
                let operand = operand.ok_or_else(|| self.expected_error(span.start, &[]))?;
                if negations == 0 {
                    return Ok(operand);
                }
                Ok(Expr::Neg {
                    negations,
                    operand: Box::new(operand),
                    span,
                })
            }
            Rule::int => Ok(Expr::Int {
                value: p.as_str().parse().ok(),
                span,
            }),
            _ => Ok(Expr::Name(self.ident(Some(p), base)?)),
        }
    }
}

/// Pairs that carry meaning; punctuation exists as rules only to name itself in errors.
fn is_meaningful(rule: Rule) -> bool {
    !matches!(
        rule,
        Rule::lbrace
            | Rule::rbrace
            | Rule::lparen
            | Rule::rparen
            | Rule::lbracket
            | Rule::rbracket
            | Rule::comma
            | Rule::colon
            | Rule::equals
            | Rule::dot
            | Rule::kw_param
            | Rule::kw_dtype
            | Rule::kw_output
            | Rule::kw_op
            | Rule::kw_graph
    )
}

/// `fgraph: allow(a, b)` → `["a", "b"]`.
fn parse_allow(comment: &str) -> Vec<String> {
    let rest = comment.trim();
    let Some(rest) = rest.strip_prefix("fgraph:") else {
        return Vec::new();
    };
    let Some(inner) = rest
        .trim()
        .strip_prefix("allow(")
        .and_then(|r| r.trim_end().strip_suffix(')'))
    else {
        return Vec::new();
    };
    inner
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// What a parse error found: a word, a character or the end of the file, with its length.
fn found_at(src: &str, at: usize) -> (String, usize) {
    let rest = src.get(at..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return ("end of file".to_string(), 0);
    };
    if c.is_ascii_alphanumeric() || c == '_' {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let shown = if word.len() > 40 {
            format!("`{}…`", &word[..40])
        } else {
            format!("`{word}`")
        };
        return (shown, len);
    }
    let shown = match c {
        '\n' | '\r' => "end of line".to_string(),
        c if c.is_control() || c == '\u{FFFD}' => format!("character {:?}", c),
        c => format!("`{c}`"),
    };
    (shown, c.len_utf8())
}

/// Readable names for what pest expected, in a stable order without repeats.
fn readable(rules: &[Rule]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rules {
        let names: &[&str] = match r {
            Rule::kw_graph | Rule::graph_head => &["`graph`"],
            Rule::kw_param | Rule::param_stmt => &["`param`"],
            Rule::kw_dtype | Rule::dtype_stmt => &["`dtype`"],
            Rule::kw_input => &["`input`"],
            Rule::kw_weight => &["`weight`"],
            Rule::decl_stmt => &["`input`", "`weight`"],
            Rule::kw_output | Rule::output_stmt => &["`output`"],
            Rule::kw_op | Rule::op_stmt => &["`op`"],
            Rule::graph_item => &["a statement", "`}`"],
            Rule::ident => &["an identifier"],
            Rule::int => &["an integer"],
            Rule::lbrace => &["`{`"],
            Rule::rbrace => &["`}`"],
            Rule::lparen => &["`(`"],
            Rule::rparen => &["`)`"],
            Rule::lbracket => &["`[`"],
            Rule::rbracket => &["`]`"],
            Rule::comma => &["`,`"],
            Rule::colon => &["`:`"],
            Rule::equals => &["`=`"],
            Rule::arrow => &["`->`"],
            Rule::dot => &["`.`"],
            Rule::transpose => &["`.T`"],
            Rule::plus => &["`+`"],
            Rule::minus => &["`-`"],
            Rule::star => &["`*`"],
            Rule::slash => &["`/`"],
            Rule::expr | Rule::term | Rule::unary => &["an expression"],
            Rule::ty => &["a type such as `[M, K]`"],
            Rule::tensor_arg => &["a tensor"],
            Rule::attr => &["an attribute"],
            _ => &[],
        };
        for n in names {
            if !out.iter().any(|o| o == n) {
                out.push((*n).to_string());
            }
        }
    }
    out
}
