//! The parser's driver: runs the pest grammar (`grammar/fgraph.pest`) one statement at a time
//! over a file and collects the statements of each graph and block, the imports and the
//! `// fgraph: allow(..)` comments into the owned AST ([`super::ast::File`]).
//!
//! | module | owns |
//! |---|---|
//! | here | [`parse`], the bracket-nesting bound, the driver's loop over graphs and statements, trivia and allow comments |
//! | `parallel` | splitting a large file into pieces parsed on several threads, and joining them |
//! | `lower` | lowering pest pairs into statements: graph and block heads, params, declarations, repeats, assertions, ops, arguments, types, identifiers |
//! | `expr` | lowering integer expressions, with `* /` bound tighter than `+ -` |
//! | `errors` | syntax error diagnostics: what pest expected, in words, with hints and fixes |

mod errors;
mod expr;
mod lower;
mod parallel;

use super::ast::*;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::limits;
use pest::Parser;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/fgraph.pest"]
struct FgraphParser;

type Result<T> = std::result::Result<T, Box<Diagnostic>>;

use crate::perf::PARALLEL_PARSE_BYTES as PARALLEL_MIN_BYTES;

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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunks = threads.min(src.len() / PARALLEL_MIN_BYTES).min(8);
    if chunks >= 2
        && let Some(file) = parallel::parse_parallel(src, chunks)
    {
        return Ok(file);
    }
    check_nesting(src)?;
    Driver::new(src, src.len()).run()
}

/// Rejects bracket nesting deeper than the limit before pest (which recurses per level) sees
/// the input, so that no input can exhaust the stack.
fn check_nesting(src: &str) -> Result<()> {
    // The bytes the loop acts on; the others are skipped in a tight scan.
    const SPECIAL: [bool; 256] = {
        let mut t = [false; 256];
        t[b'/' as usize] = true;
        t[b'(' as usize] = true;
        t[b'[' as usize] = true;
        t[b')' as usize] = true;
        t[b']' as usize] = true;
        t
    };
    let bytes = src.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i..].iter().position(|&b| SPECIAL[b as usize]) {
            Some(skip) => i += skip,
            None => break,
        }
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

struct Driver<'s> {
    src: &'s str,
    /// Where parsing stops: the end of the file, or where the next piece of a parallel parse
    /// starts.
    limit: usize,
    /// A piece of a parallel parse: a syntax error only makes the whole parse run again on
    /// one thread, so it is not worked out in detail here.
    speculative: bool,
    /// Codes of `// fgraph: allow(..)` comments not yet attached to a statement or graph.
    pending: Vec<String>,
    file: File<'s>,
    /// A resumed piece: the statements of the graph it started in, once its `}` is reached.
    closed: Option<Closed<'s>>,
    /// Scratch space for an op's arguments.
    args: Vec<Arg<'s>>,
}

/// A graph whose `}` has not been reached yet.
struct OpenGraph<'s> {
    name: Ident<'s>,
    start: usize,
    /// The position of its `{`.
    open: usize,
    /// Allow codes that apply to the whole graph.
    allows: Vec<String>,
    stmts: Stmts<'s>,
    /// Started mid-graph by a piece of a parallel parse (name and start are not known).
    resumed: bool,
    /// A block's header parameters (`None` for a graph).
    block: Option<Vec<BlockParam<'s>>>,
}

impl<'s> OpenGraph<'s> {
    /// The graph (or block) closed at `end`, added to `file` with its allow codes.
    fn finish(self, end: usize, file: &mut File<'s>) {
        let span = Span::new(self.start, end);
        for code in self.allows {
            file.allows.push(Allow { code, scope: span });
        }
        match self.block {
            Some(params) => file.blocks.push(BlockAst {
                name: self.name,
                params,
                stmts: self.stmts,
                span,
            }),
            None => file.graphs.push(GraphAst {
                name: self.name,
                stmts: self.stmts,
                span,
            }),
        }
    }
}

/// What a resumed piece found of the graph it started in.
struct Closed<'s> {
    stmts: Stmts<'s>,
    /// Just after its `}`.
    end: usize,
    /// How many of the piece's allows were recorded before the `}`.
    allows: usize,
}

impl<'s> Driver<'s> {
    fn new(src: &'s str, limit: usize) -> Self {
        Driver {
            src,
            limit,
            speculative: false,
            pending: Vec::new(),
            file: File::default(),
            closed: None,
            args: Vec::new(),
        }
    }

    fn run(mut self) -> Result<File<'s>> {
        let pos = self.skip_trivia(0);
        if pos >= self.src.len() {
            return Err(self.expected_error(pos, &["`graph`".to_string()]));
        }
        self.drive(pos, None)?;
        Ok(self.file)
    }

    /// Parses graphs from `pos` (inside `current` if given) to the end of the file, or to
    /// `limit` where it returns the graph still open there.
    fn drive(
        &mut self,
        mut pos: usize,
        mut current: Option<OpenGraph<'s>>,
    ) -> Result<Option<OpenGraph<'s>>> {
        loop {
            let mut graph = match current.take() {
                Some(g) => g,
                None => {
                    if pos >= self.src.len() {
                        return Ok(None);
                    }
                    let head = self.parse_one(Rule::top_head, pos)?;
                    let start = pos;
                    pos = start + head.as_span().end();
                    match self.lower_head(head, start, pos)? {
                        Some(graph) => graph,
                        None => {
                            pos = self.skip_trivia(pos);
                            continue;
                        }
                    }
                }
            };
            'items: loop {
                pos = self.skip_trivia(pos);
                if self.limit < self.src.len() && pos >= self.limit {
                    return Ok(Some(graph));
                }
                let open = graph.open;
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
                    let kind = self.lower_stmt(item, base)?;
                    // pest skips trivia before an optional part that then does not match, so
                    // a statement's pair can run over the comments after it. An op or a
                    // declaration ends with its last token's pair; others are scanned.
                    let end = match &kind {
                        StmtKind::Op(op) => {
                            op.ty.as_ref().map_or(op.output.span.end, |t| t.span.end)
                        }
                        StmtKind::Decl { ty, .. } => ty.span.end,
                        _ => trimmed_end(self.src, span.start, span.end),
                    };
                    debug_assert_eq!(end, trimmed_end(self.src, span.start, span.end));
                    let span = Span::new(span.start, end);
                    pos = span.end;
                    for code in std::mem::take(&mut self.pending) {
                        self.file.allows.push(Allow { code, scope: span });
                    }
                    graph.stmts.push(Stmt { kind, span });
                }
            }
            if graph.resumed {
                self.closed = Some(Closed {
                    stmts: graph.stmts,
                    end: pos,
                    allows: self.file.allows.len(),
                });
            } else {
                graph.finish(pos, &mut self.file);
            }
            pos = self.skip_trivia(pos);
        }
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
        match FgraphParser::parse(rule, &self.src[pos..self.limit]) {
            Ok(mut pairs) => pairs.next().ok_or_else(|| self.expected_error(pos, &[])),
            Err(_) if self.speculative => Err(Box::new(Diagnostic::new(
                Code::SyntaxError,
                "syntax error in a piece of a parallel parse",
            ))),
            Err(e) => Err(self.syntax_error(rule, pos, e)),
        }
    }

    fn span(&self, p: &Pair<'s, Rule>, base: usize) -> Span {
        let s = p.as_span();
        Span::new(base + s.start(), base + s.end())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unclosed_brace_is_labelled() {
        let error = |src: &str| *parse(src).expect_err("a syntax error");
        let d = error("graph g {\n  input x: [4]\n");
        assert_eq!(
            d.secondary
                .first()
                .map(|l| (l.span.start, l.message.as_str())),
            Some((8, "this `{` is never closed"))
        );
    }
}
