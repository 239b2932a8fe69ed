//! Drives the pest grammar one statement at a time and lowers pairs into the owned AST.

use super::ast::*;
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span};
use crate::limits;
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/fgraph.pest"]
struct FgraphParser;

type Result<T> = std::result::Result<T, Box<Diagnostic>>;

/// Files smaller than this are parsed on one thread: below it, starting threads costs more
/// than it saves.
const PARALLEL_MIN_BYTES: usize = 1 << 20;

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
        && let Some(file) = parse_parallel(src, chunks)
    {
        return Ok(file);
    }
    check_nesting(src)?;
    Driver::new(src, src.len()).run()
}

/// Parses `src` in `chunks` pieces on as many threads, split before `op` keywords that start
/// a line. A valid file gives exactly what the one-thread parse gives: no statement can go on
/// with `op`, so every piece parses as it would in one pass. Anything else — a syntax error in
/// any piece, a piece that does not end where the next one starts, a graph closing inside a
/// middle piece — returns `None`, and the caller parses the file again on one thread, so
/// diagnostics are always those of the one-thread parse.
///
/// Each thread first bounds the nesting of its own piece (which is all its parser recurses
/// through); a piece nested too deeply also falls back, and the one-thread parse reports it.
fn parse_parallel(src: &str, chunks: usize) -> Option<File<'_>> {
    let mut splits = Vec::with_capacity(chunks + 1);
    splits.push(0);
    for i in 1..chunks {
        let s = find_split(src, src.len() / chunks * i)?;
        if s <= *splits.last()? {
            return None;
        }
        splits.push(s);
    }
    splits.push(src.len());
    let pieces: Vec<Option<Piece<'_>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = splits
            .windows(2)
            .skip(1)
            .map(|w| {
                let (from, to) = (w[0], w[1]);
                // A thread that cannot be started (resource limits) makes the parse fall
                // back to one thread instead of panicking.
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || {
                        check_nesting(&src[from..to]).ok()?;
                        Driver::new(src, to).resume(from)
                    })
                    .ok()
            })
            .collect();
        if handles.iter().any(Option::is_none) {
            return vec![None];
        }
        let first = check_nesting(&src[..splits[1]])
            .ok()
            .and_then(|()| Driver::new(src, splits[1]).head());
        let mut pieces = vec![first];
        for h in handles.into_iter().flatten() {
            pieces.push(h.join().ok().flatten());
        }
        pieces
    });
    let mut pieces = pieces.into_iter();
    let Piece {
        mut file,
        open,
        mut pending,
        ..
    } = pieces.next()??;
    let mut open = open?;
    let last = chunks - 2;
    for (i, piece) in pieces.enumerate() {
        let piece = piece?;
        // The allow comments just before the split belong to the piece's first statement.
        let first_span = piece.first_span?;
        for code in pending.drain(..) {
            file.allows.push(Allow {
                code,
                scope: first_span,
            });
        }
        let Piece {
            file: mut rest,
            open: rest_open,
            pending: rest_pending,
            closed,
            ..
        } = piece;
        file.allow_codes.append(&mut rest.allow_codes);
        if i < last {
            // A middle piece stays inside the graph it started in.
            if closed.is_some()
                || !rest.graphs.is_empty()
                || !rest.blocks.is_empty()
                || !rest.imports.is_empty()
            {
                return None;
            }
            open.stmts.append(rest_open?.stmts);
            file.allows.append(&mut rest.allows);
            pending = rest_pending;
        } else {
            // The last piece closes the graph it started in, then parses on to the end.
            let closed = closed?;
            let mut after = rest.allows.split_off(closed.allows);
            file.allows.append(&mut rest.allows);
            open.stmts.append(closed.stmts);
            open.finish(closed.end, &mut file);
            file.allows.append(&mut after);
            file.graphs.append(&mut rest.graphs);
            file.blocks.append(&mut rest.blocks);
            file.imports.append(&mut rest.imports);
            return Some(file);
        }
    }
    None
}

/// The first `op` at the start of a line at or after `from` (within 64 KiB): where a piece of a
/// parallel parse may start.
fn find_split(src: &str, from: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let end = src.len().min(from.saturating_add(1 << 16));
    let mut i = from;
    while i < end {
        let nl = i + bytes[i..end].iter().position(|&b| b == b'\n')?;
        let mut j = nl + 1;
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        if bytes[j..].starts_with(b"op") && matches!(bytes.get(j + 2), Some(b' ' | b'\t')) {
            return Some(j);
        }
        i = nl + 1;
    }
    None
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

/// Words that cannot name anything.
const RESERVED: [&str; 10] = [
    "graph", "param", "dtype", "input", "weight", "output", "op", "block", "import", "repeat",
];

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

/// The result of one piece of a parallel parse.
struct Piece<'s> {
    /// Graphs the piece opened and closed, and its allow comments.
    file: File<'s>,
    /// The graph still open where the piece stopped.
    open: Option<OpenGraph<'s>>,
    /// Allow codes not yet attached where the piece stopped.
    pending: Vec<String>,
    /// The span of a resumed piece's first statement.
    first_span: Option<Span>,
    closed: Option<Closed<'s>>,
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

    /// The first piece of a parallel parse: from the start of the file to `limit`.
    fn head(mut self) -> Option<Piece<'s>> {
        self.speculative = true;
        let pos = self.skip_trivia(0);
        let open = self.drive(pos, None).ok()?;
        Some(self.into_piece(open))
    }

    /// A later piece of a parallel parse: statements from `from` (a statement's start inside
    /// a graph) to `limit`.
    fn resume(mut self, from: usize) -> Option<Piece<'s>> {
        self.speculative = true;
        let graph = OpenGraph {
            name: Ident {
                name: "",
                span: Span::default(),
            },
            start: from,
            open: from,
            allows: Vec::new(),
            stmts: Stmts::default(),
            resumed: true,
            block: None,
        };
        let open = self.drive(from, Some(graph)).ok()?;
        Some(self.into_piece(open))
    }

    fn into_piece(self, open: Option<OpenGraph<'s>>) -> Piece<'s> {
        let first = match (&self.closed, &open) {
            (Some(c), _) => c.stmts.first(),
            (None, Some(g)) => g.stmts.first(),
            (None, None) => None,
        };
        Piece {
            first_span: first.map(|s| s.span),
            file: self.file,
            open,
            pending: self.pending,
            closed: self.closed,
        }
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
                        pos = self.skip_trivia(pos);
                        continue;
                    }
                    let name = self.ident(it.next(), start)?;
                    let block = if rule == Rule::block_head {
                        let mut params = Vec::new();
                        for p in it {
                            let mut parts = p.into_inner();
                            let name = self.ident(parts.next(), start)?;
                            let default = match parts.next() {
                                Some(e) => Some(self.expr(e, start)?),
                                None => None,
                            };
                            params.push(BlockParam { name, default });
                        }
                        Some(params)
                    } else {
                        None
                    };
                    OpenGraph {
                        name,
                        start,
                        open: pos - 1,
                        allows: std::mem::take(&mut self.pending),
                        stmts: Stmts::default(),
                        resumed: false,
                        block,
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
                        // `_` is the first letter of an identifier, `//` starts a comment,
                        // `a..b` is a character range (of identifiers or whitespace).
                        if punct && token != "//" && token != "_" && !token.contains("..") {
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
        if let Some(fix) = syntax_fix(self.src, at, expected) {
            d = d.fix(fix);
        }
        Box::new(d)
    }

    fn span(&self, p: &Pair<'s, Rule>, base: usize) -> Span {
        let s = p.as_span();
        Span::new(base + s.start(), base + s.end())
    }

    fn ident(&self, p: Option<Pair<'s, Rule>>, base: usize) -> Result<Ident<'s>> {
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

    fn lower_stmt(&mut self, p: Pair<'s, Rule>, base: usize) -> Result<StmtKind<'s>> {
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
            Rule::repeat_stmt => {
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
                StmtKind::Repeat(Box::new(RepeatStmt {
                    count,
                    name,
                    block,
                    args,
                    output: output.ok_or_else(|| self.expected_error(base, &[]))?,
                }))
            }
            Rule::assert_stmt => {
                it.next(); // kw_assert
                let body = it.next().ok_or_else(|| self.expected_error(base, &[]))?;
                let rule = body.as_rule();
                let mut parts = body.into_inner().peekable();
                let kind = if rule == Rule::assert_pred {
                    let not = match parts.peek() {
                        Some(p) if p.as_rule() == Rule::kw_not => {
                            parts.next().map(|p| self.span(&p, base))
                        }
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
                StmtKind::Assert(Box::new(AssertStmt {
                    kind,
                    instance: None,
                }))
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
                StmtKind::Op(OpStmt {
                    name,
                    kind,
                    func,
                    args: self.args.drain(..).collect(),
                    output: output.ok_or_else(|| self.expected_error(base, &[]))?,
                    ty: ty.map(Box::new),
                })
            }
        })
    }

    fn arg(&self, p: Pair<'s, Rule>, base: usize) -> Result<Arg<'s>> {
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

/// The edit for the slips whose repair is certain: a missing arrow before an op's output
/// (`relu(x) y`) and an arrow written with a space (`- >`).
fn syntax_fix(src: &str, at: usize, expected: &[String]) -> Option<Fix> {
    let rest = src.get(at..)?;
    if let Some(after) = rest.strip_prefix('-') {
        let gap = after.len() - after.trim_start().len();
        if gap > 0 && after[gap..].starts_with('>') {
            let span = Span::new(at, at + 2 + gap);
            return Some(Fix::replace("write `->`", Applicability::Safe, span, "->"));
        }
    }
    let ident_next = rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    if expected == ["`->`"] && ident_next {
        return Some(Fix::replace(
            "insert `->`",
            Applicability::Safe,
            Span::new(at, at),
            "-> ",
        ));
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
            Rule::kw_graph | Rule::graph_head | Rule::top_head => &["`graph`"],
            Rule::kw_block | Rule::block_head => &["`block`"],
            Rule::kw_import | Rule::import_stmt => &["`import`"],
            Rule::kw_repeat | Rule::repeat_stmt => &["`repeat`"],
            Rule::kw_assert | Rule::assert_stmt => &["`assert`"],
            Rule::kw_not => &["`not`"],
            Rule::assert_pred | Rule::assert_cmp => {
                &["an assertion such as `fused(a, b)` or `kernels <= 9`"]
            }
            Rule::cmp => &["a comparison (`<=`, `<`, `==`, `>=`, `>`)"],
            Rule::unit => &["a unit (`B`, `KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`, ...)"],
            Rule::path => &["a quoted path"],
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

    fn sequential(src: &str) -> String {
        format!("{:?}", Driver::new(src, src.len()).run())
    }

    /// A file of several graphs with allow comments before, between and inside statements.
    fn many_graphs(graphs: usize, ops: usize) -> String {
        let mut s = String::from("// fgraph: allow(unused-tensor)\n");
        for g in 0..graphs {
            s.push_str(&format!(
                "// fgraph: allow(large-intermediate)\ngraph g{g} {{\n  param N = 4 * (2 + 1)\n  \
                 dtype f16\n  input t0: [N, 8]\n  weight w: f32[8, 8]\n"
            ));
            for i in 1..=ops {
                if i % 7 == 0 {
                    s.push_str("  // fgraph: allow(unused-tensor)\n");
                }
                if i % 5 == 0 {
                    s.push_str(&format!(
                        "\top o{i} = matmul(t{}, w.T) -> t{i}: [N, 8]\n",
                        i - 1
                    ));
                } else {
                    s.push_str(&format!(
                        "  op o{i} = elementwise.relu(t{}) -> t{i} // trailing\n",
                        i - 1
                    ));
                }
            }
            s.push_str(&format!(
                "  output t{ops}\n  assert fused(o1, o{ops})\n  assert not materialized(t1)\n  \
                 assert kernels <= N * 2\n}}\n\n"
            ));
        }
        s
    }

    #[test]
    fn parallel_parse_equals_the_one_thread_parse() {
        for (graphs, ops) in [(1, 200), (3, 60), (7, 10), (2, 1)] {
            let src = many_graphs(graphs, ops);
            let want = sequential(&src);
            for chunks in 2..=5 {
                if let Some(file) = parse_parallel(&src, chunks) {
                    assert_eq!(format!("{:?}", Ok::<_, ()>(file)), want);
                }
            }
        }
        // Splits inside one large graph, and a last piece that closes its graph and parses
        // the graphs after it.
        for (graphs, ops, chunks) in [(1, 400, 2), (1, 400, 4), (3, 60, 2), (5, 60, 2)] {
            let src = many_graphs(graphs, ops);
            let file = parse_parallel(&src, chunks).expect("splits");
            assert_eq!(file.graphs.len(), graphs);
            assert_eq!(format!("{:?}", Ok::<_, ()>(file)), sequential(&src));
        }
    }

    #[test]
    fn parallel_parse_gives_up_on_errors_and_odd_splits() {
        let src = many_graphs(1, 400);
        // A syntax error in either half, or a statement cut by the split.
        let broken = src.replacen("-> t300", "-> ", 1);
        assert!(parse_parallel(&broken, 2).is_none());
        let broken = src.replacen("-> t3 ", "-> ", 1);
        assert!(parse_parallel(&broken, 2).is_none());
        // `op` starting a line inside a statement (a split candidate) is an error anyway.
        for at in [150, 198, 250] {
            let cut = src.replacen(&format!("(t{at})"), &format!("(t{at},\n  op x)"), 1);
            assert_ne!(cut, src);
            assert!(sequential(&cut).starts_with("Err"));
            for chunks in 2..=4 {
                assert!(parse_parallel(&cut, chunks).is_none());
            }
        }
        // A graph that closes inside a middle piece.
        let src = many_graphs(9, 30);
        for chunks in 3..=5 {
            if let Some(file) = parse_parallel(&src, chunks) {
                assert_eq!(format!("{:?}", Ok::<_, ()>(file)), sequential(&src));
            }
        }
    }

    /// Whatever the text, a parallel parse that succeeds equals the one-thread parse.
    #[test]
    fn parallel_parse_never_differs_under_edits() {
        let src = many_graphs(3, 12);
        let edits = [
            "",
            "}",
            "{",
            "\n  op ",
            "op",
            "\n}\ngraph h {\n",
            "//",
            "(",
            "-> x",
        ];
        let mut checked = 0;
        for at in (0..src.len()).step_by(41) {
            if !src.is_char_boundary(at) {
                continue;
            }
            for (e, edit) in edits.iter().enumerate() {
                // Delete a byte for the empty edit, insert otherwise.
                let mut text = src.clone();
                if e == 0 {
                    text.remove(at);
                } else {
                    text.insert_str(at, edit);
                }
                let want = sequential(&text);
                for chunks in [2, 3] {
                    if let Some(file) = parse_parallel(&text, chunks) {
                        assert_eq!(format!("{:?}", Ok::<_, ()>(file)), want, "{at} {edit:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 30, "{checked}");
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
