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
                i = super::comment_end(src, i);
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
                        .help("nest less: split long expressions into several `param`s"),
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

/// Words that cannot name anything.
const RESERVED: [&str; 7] = ["graph", "param", "dtype", "input", "weight", "output", "op"];

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
            let open = pos - 1;
            let name = self.ident(head.into_inner().nth(1), start)?;
            let graph_allows = std::mem::take(&mut self.pending);
            let mut stmts = Vec::new();
            'items: loop {
                pos = self.skip_trivia(pos);
                let batch = self.parse_one(Rule::graph_items, pos).map_err(|d| {
                    // Running out of file inside a graph: point at the brace left open.
                    match d.primary.as_ref() {
                        Some(p) if p.span.start >= self.src.len() => {
                            Box::new(d.with(Span::new(open, open + 1), "this `{` is never closed"))
                        }
                        _ => d,
                    }
                })?;
                let base = pos;
                for item in batch.into_inner() {
                    if item.as_rule() == Rule::rbrace {
                        pos = base + item.as_span().end();
                        self.pending.clear();
                        break 'items;
                    }
                    let span = self.span(&item, base);
                    // Comments between statements of one batch were skipped by pest: look for
                    // allow comments in the gap before this statement.
                    if span.start > pos {
                        self.skip_trivia(pos);
                    }
                    // pest skips trivia before an optional part that then does not match, so
                    // a statement's pair can run over the comments after it.
                    let span = Span::new(span.start, trimmed_end(self.src, span.start, span.end));
                    pos = span.end;
                    let kind = self.lower_stmt(item, base)?;
                    for code in std::mem::take(&mut self.pending) {
                        self.file.allows.push(Allow { code, scope: span });
                    }
                    stmts.push(Stmt { kind, span });
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
                b' ' | b'\t'..=b'\r' => pos += 1,
                b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                    let end = super::comment_end(self.src, pos);
                    let line_start = self.src[..pos].rfind('\n').map_or(0, |n| n + 1);
                    if self.src[line_start..pos].trim().is_empty() {
                        for (code, span) in parse_allow(self.src, pos + 2, end) {
                            self.file.allow_codes.push((code.clone(), span));
                            self.pending.push(code);
                        }
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
                let mut at = pos + error_pos(&e);
                let mut expected = match &e.variant {
                    ErrorVariant::ParsingError { positives, .. } => readable(positives),
                    ErrorVariant::CustomError { .. } => Vec::new(),
                };
                // Punctuation is silent in the grammar, so pest's plain error neither names
                // it nor places the error at it. Parse again with pest's error detail, which
                // tracks literal tokens too. Errors are rare: this is paid once per file.
                pest::set_error_detail(true);
                let detailed = FgraphParser::parse(rule, &self.src[pos..]);
                pest::set_error_detail(false);
                if let Some(attempts) = detailed.err().and_then(|d| d.parse_attempts()) {
                    // Rules pest tried are named at its own error position; when a literal
                    // failed further on, only the literals expected there apply.
                    if pos + attempts.max_position != at {
                        at = pos + attempts.max_position;
                        expected.clear();
                    }
                    for t in attempts.expected_tokens() {
                        let token = t.to_string();
                        let punct =
                            !token.is_empty() && token.chars().all(|c| c.is_ascii_punctuation());
                        // `_` is the first letter of an identifier, `//` starts a comment.
                        if punct && token != "//" && token != "_" {
                            let shown = format!("`{token}`");
                            if !expected.contains(&shown) {
                                expected.push(shown);
                            }
                        }
                    }
                }
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
        let mut d = Diagnostic::new(Code::SyntaxError, message).at(Span::new(at, at + len), label);
        if let Some(help) = syntax_hint(self.src, at) {
            d = d.help(help);
        }
        Box::new(d)
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
        if RESERVED.contains(&name) {
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

    fn lower_stmt(&self, p: Pair<'s, Rule>, base: usize) -> Result<StmtKind<'s>> {
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
            Rule::output_stmt => StmtKind::Output(
                it.skip(1)
                    .map(|p| self.ident(Some(p), base))
                    .collect::<Result<_>>()?,
            ),
            _ => {
                // op_stmt: kw_op name kind func? arg* out ty?
                it.next();
                let name = self.ident(it.next(), base)?;
                let kind = self.ident(it.next(), base)?;
                let mut func = None;
                let mut output = None;
                let mut ty = None;
                let mut args = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::func => func = Some(self.ident(p.into_inner().next(), base)?),
                        Rule::arg => args.push(self.arg(p, base)?),
                        Rule::ident => output = Some(self.ident(Some(p), base)?),
                        _ => ty = Some(self.ty(Some(p), base)?),
                    }
                }
                StmtKind::Op(Box::new(OpStmt {
                    name,
                    kind,
                    func,
                    args,
                    output: output.ok_or_else(|| self.expected_error(base, &[]))?,
                    ty: ty.map(Box::new),
                }))
            }
        })
    }

    fn arg(&self, p: Pair<'s, Rule>, base: usize) -> Result<Arg<'s>> {
        let start = self.span(&p, base).start;
        let mut it = p.into_inner();
        let name = self.ident(it.next(), base)?;
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

    fn ty(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<TypeAst<'s>> {
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

    fn expr_opt(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<Expr<'s>> {
        let p = p.ok_or_else(|| self.expected_error(base, &[]))?;
        self.expr(p, base)
    }

    /// Lowers a flat `expr` pair (`neg* atom (op neg* atom)*`) into chains with `* /` bound
    /// tighter than `+ -`. Recursion happens only through parentheses, whose depth
    /// `check_nesting` has bounded.
    fn expr(&self, p: Pair<'s, Rule>, base: usize) -> Result<Expr<'s>> {
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
                Rule::plus | Rule::minus | Rule::star | Rule::slash => {
                    let op = match c.as_rule() {
                        Rule::plus => BinOp::Add,
                        Rule::minus => BinOp::Sub,
                        Rule::star => BinOp::Mul,
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
            if matches!(op, BinOp::Mul | BinOp::Div) {
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

/// Appends `op rhs` to `lhs`, extending a chain of the same precedence level in place.
fn chain<'s>(lhs: Expr<'s>, op: BinOp, op_span: Span, rhs: Expr<'s>) -> Expr<'s> {
    let level = |o: BinOp| matches!(o, BinOp::Mul | BinOp::Div);
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

fn error_pos(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}

/// The end of a statement's last token: `[start, end)` may run over trailing whitespace and
/// comments. Comments run to the end of the line and no token contains `//`.
fn trimmed_end(src: &str, start: usize, end: usize) -> usize {
    let bytes = src.as_bytes();
    let (mut i, mut last) = (start, start);
    while i < end {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = super::comment_end(src, i);
                continue;
            }
            b' ' | b'\t'..=b'\r' => {}
            _ => last = i + 1,
        }
        i += 1;
    }
    last
}

/// The codes of a `fgraph: allow(a, b)` comment body (`src[start..end]`), each with its span.
fn parse_allow(src: &str, start: usize, end: usize) -> Vec<(String, Span)> {
    let body = &src[start..end];
    let rest = body.trim_start();
    let Some(rest) = rest.strip_prefix("fgraph:") else {
        return Vec::new();
    };
    let Some(inner) = rest
        .trim_start()
        .strip_prefix("allow(")
        .and_then(|r| r.trim_end().strip_suffix(')'))
    else {
        return Vec::new();
    };
    // `inner` is a slice of `src`: its offset gives each code's place.
    let base = inner.as_ptr() as usize - src.as_ptr() as usize;
    let mut out = Vec::new();
    let mut offset = 0;
    for part in inner.split(',') {
        let code = part.trim();
        if !code.is_empty() {
            let at = base + offset + (part.len() - part.trim_start().len());
            out.push((code.to_string(), Span::new(at, at + code.len())));
        }
        offset += part.len() + 1;
    }
    out
}

/// A hint for common slips at a syntax error's position, where the plain "expected …" does
/// not say what went wrong.
fn syntax_hint(src: &str, at: usize) -> Option<&'static str> {
    let (before, rest) = (&src[..at], &src[at..]);
    let after_digit = before.ends_with(|c: char| c.is_ascii_digit());
    if after_digit && rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_')
    {
        return Some("numbers are decimal integers: no fractions, exponents or base prefixes");
    }
    if rest.starts_with('-') && rest[1..].trim_start().starts_with('>') {
        return Some("write the arrow as `->`, without a space");
    }
    if rest.starts_with('.') {
        return Some("`.T` (transpose) is written right after the tensor, as one word: `w.T`");
    }
    if before.ends_with(".T") && rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        return Some("`.T` (transpose) ends a tensor argument; views are `t[i]` and `t.T` only");
    }
    None
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
            Rule::graph_items => &["a statement", "`}`"],
            Rule::rbrace => &["`}`"],
            Rule::ident => &["an identifier"],
            Rule::int => &["an integer"],
            Rule::transpose => &["`.T`"],
            Rule::func => &["`.`"],
            Rule::index => &["`[`"],
            Rule::plus => &["`+`"],
            Rule::minus | Rule::neg => &["`-`"],
            Rule::star => &["`*`"],
            Rule::slash => &["`/`"],
            Rule::expr => &["an expression"],
            Rule::ty => &["a type such as `[M, K]`"],
            Rule::arg => &["an argument"],
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

#[cfg(test)]
mod tests {
    use super::*;

    fn error(src: &str) -> Diagnostic {
        *parse(src).expect_err("a syntax error")
    }

    #[test]
    fn errors_name_what_was_expected() {
        let d = error("graph g {\n  op a = elementwise.relu(x) y\n}\n");
        assert_eq!(d.message, "expected `->`, found `y`");
        let d = error("graph g {\n  op a = matmul(x w) -> y\n}\n");
        assert!(
            d.message.starts_with("expected ") && d.message.ends_with("found `w`"),
            "{}",
            d.message
        );
        assert!(d.message.contains("`,`") && d.message.contains("`)`"));
        let d = error("");
        assert_eq!(d.message, "expected `graph`, found end of file");
        let d = error("graph g {\n  op output = elementwise.relu(x) -> y\n}\n");
        assert_eq!(d.message, "expected an identifier, found keyword `output`");
    }

    #[test]
    fn hints_for_common_slips() {
        for (src, hint) in [
            ("graph g {\n  input x: [0x10]\n}\n", "numbers are decimal"),
            ("graph g {\n  input x: [4.5]\n}\n", "numbers are decimal"),
            (
                "graph g {\n  op a = elementwise.relu(x) - > y\n}\n",
                "write the arrow as `->`",
            ),
            (
                "graph g {\n  op a = elementwise.relu(x . T) -> y\n}\n",
                "one word",
            ),
            (
                "graph g {\n  op a = elementwise.relu(x.Tail) -> y\n}\n",
                "ends a tensor argument",
            ),
        ] {
            let d = error(src);
            assert!(
                d.help.as_deref().is_some_and(|h| h.contains(hint)),
                "{src:?}: {:?}",
                d.help
            );
        }
    }

    #[test]
    fn an_unclosed_brace_is_labelled() {
        let d = error("graph g {\n  input x: [4]\n");
        assert_eq!(
            d.secondary
                .first()
                .map(|l| (l.span.start, l.message.as_str())),
            Some((8, "this `{` is never closed"))
        );
    }
}
