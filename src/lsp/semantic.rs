//! Semantic tokens: what each word of a `.fgraph` file is, for editors to colour it. Graphs,
//! blocks, ops, tensors, params, op kinds, functions, dtypes and attributes are told apart
//! from the syntax tree (`crate::syntax::parse`), the way the semantic pass reads them;
//! keywords, numbers, comments, import paths and operators come from a scan of the text.
//!
//! [`highlight`] is the library function (text in, spans and token types out);
//! [`lsp_data`] renders them as the protocol's `SemanticTokens.data` (five numbers a token,
//! each relative to the one before), which the server answers `textDocument/semanticTokens/
//! full` and `/range` with, on a worker thread.
//!
//! Bounded: a text over [`MAX_BYTES`] gets no tokens (the editor's grammar colours it), a
//! request gets at most [`MAX_TOKENS`] (from the start of the file, or of the range asked
//! for), and a file with a syntax error is parsed again at most [`RETRIES`] times (with the
//! failing line blanked out, so that the statements around it keep their colours) and only
//! when it is at most [`RETRY_BYTES`]. The scan and the rendering are linear in the text,
//! however long its lines. An 8 MiB file of 167,725 ops took 0.5 s to highlight (mostly its
//! parse; the cap stops the scan) and 0.01 s to render, and its last 4,000 bytes as a range
//! 0.56 s (539 tokens): release build, on a busy 2-core machine.

use super::document::Encoding;
use crate::diagnostics::Span;
use crate::syntax::ast::{
    Arg, AssertKind, Expr, File, Ident, ParallelItem, Stmt, StmtKind, Stmts, TypeAst,
};
use crate::types::{Dtype, OpKind};
use std::collections::HashSet;

/// Texts longer than this get no semantic tokens.
pub const MAX_BYTES: usize = 8 << 20;
/// At most this many tokens are made for one request (1.3 million protocol numbers).
pub const MAX_TOKENS: usize = 1 << 18;
/// How many times a text with a syntax error is parsed again, its failing line blanked.
pub const RETRIES: usize = 4;
/// Only texts up to this size are parsed again after a syntax error.
pub const RETRY_BYTES: usize = 1 << 20;

/// What a token is, in the order of the legend the server advertises ([`TOKEN_TYPES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenType {
    /// A graph's name.
    Graph,
    /// A block's name, where it is defined and where it is instantiated.
    Block,
    /// An op's name (and a `repeat`'s instance name).
    Op,
    /// A tensor: declared, produced, used or output.
    Tensor,
    /// A param, of a graph or of a block's header.
    Param,
    /// An op kind (`matmul`, `elementwise`).
    Kind,
    /// An op's function (`relu` in `elementwise.relu`).
    Function,
    /// An element type (`bf16`).
    Dtype,
    /// An op's attribute name (`axis` in `axis = -1`).
    Attribute,
    /// A bare name as an attribute value (`group = tp`), a unit of an assertion (`MB`).
    Constant,
    /// An assertion's predicate or measure (`fused`, `kernels`).
    Predicate,
    Keyword,
    Comment,
    /// An import's path.
    String,
    Number,
    Operator,
}

/// The protocol's token type for each [`TokenType`], by index: the legend.
pub const TOKEN_TYPES: [&str; 16] = [
    "namespace",
    "class",
    "function",
    "variable",
    "parameter",
    "enum",
    "method",
    "type",
    "property",
    "enumMember",
    "macro",
    "keyword",
    "comment",
    "string",
    "number",
    "operator",
];

/// Token modifiers, as bits in the order of [`TOKEN_MODIFIERS`].
pub const DECLARATION: u32 = 1;
/// A name fgraph itself defines: a kind, a function, a dtype, a predicate.
pub const DEFAULT_LIBRARY: u32 = 2;
/// The protocol's token modifiers, by bit.
pub const TOKEN_MODIFIERS: [&str; 2] = ["declaration", "defaultLibrary"];

impl TokenType {
    /// The protocol's name of the token type (its entry in [`TOKEN_TYPES`]).
    pub fn lsp_name(self) -> &'static str {
        TOKEN_TYPES[self as usize]
    }
}

/// One coloured piece of the text: never across a line break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub span: Span,
    pub ty: TokenType,
    /// Bits of [`DECLARATION`] and [`DEFAULT_LIBRARY`].
    pub modifiers: u32,
}

/// The tokens of a text, in order, none overlapping.
#[derive(Debug, Default)]
pub struct Highlights {
    pub tokens: Vec<Token>,
    /// `false` when the text was over [`MAX_BYTES`], or the tokens stop at [`MAX_TOKENS`].
    pub complete: bool,
}

const KEYWORDS: [&str; 16] = [
    "graph", "param", "dtype", "input", "weight", "output", "op", "block", "import", "repeat",
    "assert", "not", "div", "true", "false", "parallel",
];

/// The semantic tokens of a `.fgraph` text.
pub fn highlight(src: &str) -> Highlights {
    highlight_range(src, Span::new(0, src.len()))
}

/// The semantic tokens of the lines of `src` that `within` touches (names are still told
/// from the whole file's syntax tree): the cap of [`MAX_TOKENS`] counts from there, so any
/// part of a long file can be asked for.
pub fn highlight_range(src: &str, within: Span) -> Highlights {
    if src.len() > MAX_BYTES {
        return Highlights::default();
    }
    let named = named(src);
    let mut out = Highlights {
        tokens: Vec::new(),
        complete: true,
    };
    // Scanned from the start of the line (no token spans lines) to the end of `within`.
    let from = src.as_bytes()[..within.start.min(src.len())]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |n| n + 1);
    let keep = within.start.min(src.len());
    scan(
        src,
        &named,
        (from, keep, within.end.min(src.len())),
        &mut out,
    );
    out
}

/// The names of the text and what they are, sorted by start, from its syntax tree. A syntax
/// error blanks its line and the text is parsed again (bounded); where it still fails, none.
fn named(src: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut text: Option<String> = None;
    for attempt in 0..=RETRIES {
        let t = text.as_deref().unwrap_or(src);
        let at = match crate::syntax::parse(t) {
            Ok(file) => {
                walk(&file, &mut out);
                break;
            }
            Err(d) => d.primary.map(|l| l.span.start),
        };
        let Some(at) = at else { break };
        if attempt == RETRIES || src.len() > RETRY_BYTES {
            break;
        }
        let mut bytes = t.as_bytes().to_vec();
        let at = at.min(bytes.len());
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        let end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(bytes.len(), |i| at + i);
        if start == end || bytes[start..end].iter().all(|&b| b == b' ') {
            break; // nothing left to blank: the error is elsewhere (an unclosed brace)
        }
        bytes[start..end].fill(b' ');
        // Spaces in place of whole lines keep the text UTF-8 and every offset where it was.
        match String::from_utf8(bytes) {
            Ok(s) => text = Some(s),
            Err(_) => break,
        }
    }
    out.sort_by_key(|t| t.span.start);
    out
}

/// The names a graph or block defines, to tell a param from a dtype and an op from a
/// tensor where the syntax alone does not.
#[derive(Default)]
struct Scope<'s> {
    params: HashSet<&'s str>,
    ops: HashSet<&'s str>,
}

impl<'s> Scope<'s> {
    fn of(stmts: &Stmts<'s>, header: impl Iterator<Item = &'s str>) -> Scope<'s> {
        let mut s = Scope {
            params: header.collect(),
            ops: HashSet::new(),
        };
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Param { name, .. } => {
                    s.params.insert(name.name);
                }
                StmtKind::Op(op) => {
                    s.ops.insert(op.name.name);
                }
                StmtKind::Repeat(r) => {
                    s.ops.insert(r.name.name);
                }
                _ => {}
            }
        }
        s
    }
}

struct Walker<'a, 's> {
    scope: &'a Scope<'s>,
    out: &'a mut Vec<Token>,
}

fn walk(file: &File<'_>, out: &mut Vec<Token>) {
    for g in &file.graphs {
        push(out, &g.name, TokenType::Graph, DECLARATION);
        let scope = Scope::of(&g.stmts, std::iter::empty());
        Walker { scope: &scope, out }.stmts(&g.stmts);
    }
    for b in &file.blocks {
        push(out, &b.name, TokenType::Block, DECLARATION);
        let scope = Scope::of(&b.stmts, b.params.iter().map(|p| p.name.name));
        let mut w = Walker { scope: &scope, out };
        for p in &b.params {
            push(w.out, &p.name, TokenType::Param, DECLARATION);
            if let Some(d) = &p.default {
                w.expr(d);
            }
        }
        w.stmts(&b.stmts);
    }
}

fn push(out: &mut Vec<Token>, id: &Ident<'_>, ty: TokenType, modifiers: u32) {
    out.push(Token {
        span: id.span,
        ty,
        modifiers,
    });
}

impl Walker<'_, '_> {
    fn name(&mut self, id: &Ident<'_>, ty: TokenType, modifiers: u32) {
        push(self.out, id, ty, modifiers);
    }

    fn stmts(&mut self, stmts: &Stmts<'_>) {
        for stmt in stmts {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt<'_>) {
        match &stmt.kind {
            StmtKind::Param { name, value } => {
                self.name(name, TokenType::Param, DECLARATION);
                self.expr(value);
            }
            StmtKind::Dtype(id) => self.dtype(id),
            StmtKind::Decl { name, ty, .. } => {
                self.name(name, TokenType::Tensor, DECLARATION);
                self.ty(ty);
            }
            StmtKind::Output(ids) => {
                for id in ids {
                    self.name(id, TokenType::Tensor, 0);
                }
            }
            StmtKind::Op(op) => {
                self.name(&op.name, TokenType::Op, DECLARATION);
                let kind = OpKind::from_name(op.kind.name).is_some();
                if kind {
                    self.name(&op.kind, TokenType::Kind, DEFAULT_LIBRARY);
                } else {
                    self.name(&op.kind, TokenType::Block, 0);
                }
                if let Some(f) = &op.func {
                    self.name(f, TokenType::Function, DEFAULT_LIBRARY);
                }
                self.args(&op.args, kind.then_some(op.kind.name));
                self.name(&op.output, TokenType::Tensor, DECLARATION);
                if let Some(ty) = &op.ty {
                    self.ty(ty);
                }
            }
            StmtKind::Repeat(r) => {
                self.expr(&r.count);
                self.name(&r.name, TokenType::Op, DECLARATION);
                self.name(&r.block, TokenType::Block, 0);
                self.args(&r.args, None);
                self.name(&r.output, TokenType::Tensor, DECLARATION);
            }
            StmtKind::Parallel(p) => {
                // `parallel tensor tp = 8 { column wq, wk  stage = 1 }`: the kind and the
                // roles as keywords-like constants, the group as a constant (it is the
                // `group =` of the collectives), the weights as tensors (`layers` names a
                // repeat: an op).
                self.name(&p.kind, TokenType::Constant, DEFAULT_LIBRARY);
                self.name(&p.group, TokenType::Constant, DECLARATION);
                self.expr(&p.size);
                for item in &p.items {
                    match item {
                        ParallelItem::Role { role, names } => {
                            self.name(role, TokenType::Attribute, 0);
                            let ty = if role.name == "layers" {
                                TokenType::Op
                            } else {
                                TokenType::Tensor
                            };
                            for id in names {
                                self.name(id, ty, 0);
                            }
                        }
                        ParallelItem::Setting { name, value } => {
                            self.name(name, TokenType::Attribute, 0);
                            self.expr(value);
                        }
                    }
                }
            }
            StmtKind::Assert(a) => match &a.kind {
                AssertKind::Predicate { name, args, .. } => {
                    self.name(name, TokenType::Predicate, DEFAULT_LIBRARY);
                    for id in args {
                        let ty = if self.scope.ops.contains(id.name) {
                            TokenType::Op
                        } else {
                            TokenType::Tensor
                        };
                        self.name(id, ty, 0);
                    }
                }
                AssertKind::Compare {
                    measure,
                    value,
                    unit,
                    ..
                } => {
                    self.name(measure, TokenType::Predicate, DEFAULT_LIBRARY);
                    self.expr(value);
                    if let Some(u) = unit {
                        self.name(u, TokenType::Constant, 0);
                    }
                }
            },
        }
    }

    /// An op's arguments; `kind` is the op's kind, `None` for a block's instantiation (whose
    /// attributes are the block's params).
    fn args(&mut self, args: &[Arg<'_>], kind: Option<&str>) {
        let attr = if kind.is_some() {
            TokenType::Attribute
        } else {
            TokenType::Param
        };
        for arg in args {
            match arg {
                Arg::Attr { name, value } => {
                    self.name(name, attr, 0);
                    match value {
                        Expr::Name(id)
                            if kind.is_some_and(|k| crate::ops::is_name_attr(k, name.name)) =>
                        {
                            self.name(id, TokenType::Constant, 0)
                        }
                        _ => self.expr(value),
                    }
                }
                Arg::Tensor(t) => {
                    self.name(&t.name, TokenType::Tensor, 0);
                    if let Some(i) = &t.index {
                        self.expr(i);
                    }
                }
                Arg::Scalar(_) => {}
                Arg::FloatAttr { name, .. } => self.name(name, attr, 0),
                Arg::ListAttr { name, items, .. } => {
                    self.name(name, attr, 0);
                    for e in items {
                        self.expr(e);
                    }
                }
            }
        }
    }

    fn ty(&mut self, ty: &TypeAst<'_>) {
        if let Some(d) = &ty.dtype {
            self.dtype(d);
        }
        for e in &ty.dims {
            self.expr(e);
        }
    }

    /// A dtype's place: a block's param of that name (`D = bf16`), else a dtype.
    fn dtype(&mut self, id: &Ident<'_>) {
        if self.scope.params.contains(id.name) {
            self.name(id, TokenType::Param, 0);
        } else if Dtype::from_name(id.name).is_some() {
            self.name(id, TokenType::Dtype, DEFAULT_LIBRARY);
        } else {
            self.name(id, TokenType::Dtype, 0); // misspelt: `unknown-dtype` says so
        }
    }

    fn expr(&mut self, e: &Expr<'_>) {
        match e {
            Expr::Int { .. } | Expr::Bool { .. } => {}
            // A name in an expression is a param, or a dtype as a block param's value.
            Expr::Name(id) => {
                if !self.scope.params.contains(id.name) && Dtype::from_name(id.name).is_some() {
                    self.name(id, TokenType::Dtype, DEFAULT_LIBRARY);
                } else {
                    self.name(id, TokenType::Param, 0);
                }
            }
            Expr::Neg { operand, .. } => self.expr(operand),
            Expr::Chain { first, rest, .. } => {
                self.expr(first);
                for (_, _, e) in rest {
                    self.expr(e);
                }
            }
        }
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Scans the text from `from` (the start of a line) to `to`, in order, keeping the tokens
/// that end after `keep`: names take their kind from `named` (sorted by start), and the rest
/// is told by its characters.
fn scan(src: &str, named: &[Token], (from, keep, to): (usize, usize, usize), out: &mut Highlights) {
    let bytes = src.as_bytes();
    // The first of `named` not yet passed.
    let mut next = named.partition_point(|t| t.span.start < from);
    let mut i = from;
    let mut tokens = Vec::new();
    let push = |tokens: &mut Vec<Token>, start: usize, end: usize, ty: TokenType, m: u32| {
        if end <= keep {
            return; // before the range, on its first line
        }
        // A piece that holds a line break (a lone `\r` inside a comment) is cut at it.
        let mut s = start;
        for (k, &b) in bytes[start..end].iter().enumerate() {
            if b == b'\n' || b == b'\r' {
                if s < start + k {
                    tokens.push(Token {
                        span: Span::new(s, start + k),
                        ty,
                        modifiers: m,
                    });
                }
                s = start + k + 1;
            }
        }
        if s < end {
            tokens.push(Token {
                span: Span::new(s, end),
                ty,
                modifiers: m,
            });
        }
    };
    while i < to {
        if tokens.len() >= MAX_TOKENS {
            out.complete = false;
            break;
        }
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            let end = crate::syntax::comment_end(src, i);
            push(&mut tokens, i, end, TokenType::Comment, 0);
            i = end;
            continue;
        }
        if b == b'"' {
            let end = bytes[i + 1..]
                .iter()
                .position(|&c| c == b'"' || c == b'\n')
                .map_or(bytes.len(), |n| {
                    i + 1 + n + usize::from(bytes[i + 1 + n] == b'"')
                });
            push(&mut tokens, i, end, TokenType::String, 0);
            i = end;
            continue;
        }
        if b.is_ascii_digit() {
            let end = number_end(bytes, i);
            push(&mut tokens, i, end, TokenType::Number, 0);
            i = end;
            continue;
        }
        let Some(c) = src[i..].chars().next() else {
            break;
        };
        if is_ident_start(c) {
            let end = src[i..]
                .char_indices()
                .find(|&(_, c)| !is_ident_char(c))
                .map_or(src.len(), |(n, _)| i + n);
            while named.get(next).is_some_and(|t| t.span.start < i) {
                next += 1;
            }
            let word = &src[i..end];
            match named.get(next) {
                Some(t) if t.span.start == i && t.span.end == end => {
                    push(&mut tokens, i, end, t.ty, t.modifiers)
                }
                _ if KEYWORDS.contains(&word) => push(&mut tokens, i, end, TokenType::Keyword, 0),
                // `.T`: a transpose.
                _ if word == "T" && i > 0 && bytes[i - 1] == b'.' => {
                    push(&mut tokens, i - 1, end, TokenType::Operator, 0)
                }
                _ => {}
            }
            i = end;
            continue;
        }
        let op_len = match (b, bytes.get(i + 1).copied()) {
            (b'-', Some(b'>')) | (b'<' | b'>' | b'=', Some(b'=')) => 2,
            (b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>', _) => 1,
            _ => 0,
        };
        if op_len > 0 {
            push(&mut tokens, i, i + op_len, TokenType::Operator, 0);
            i += op_len;
        } else {
            i += c.len_utf8();
        }
    }
    out.tokens = tokens;
}

/// The end of the number starting at `i`: digits, a fraction, an exponent.
fn number_end(bytes: &[u8], mut i: usize) -> usize {
    let digits =
        |bytes: &[u8], i: usize| i + bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    i = digits(bytes, i);
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = digits(bytes, i + 1);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        if bytes.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
            i = digits(bytes, i + 1 + sign);
        }
    }
    i
}

/// The protocol's `SemanticTokens.data` for the tokens that end after `within.start` and
/// start before `within.end` (all of them for the whole text): line and start relative to
/// the previous token, length, type, modifiers. Positions count `enc`'s units; one pass over
/// the text up to the last token.
pub fn lsp_data(src: &str, tokens: &[Token], within: Span, enc: Encoding) -> Vec<u32> {
    let first = tokens.partition_point(|t| t.span.end <= within.start);
    let last = tokens.partition_point(|t| t.span.start < within.end);
    let tokens = &tokens[first..last.max(first)];
    let units = |s: &str| -> usize {
        match enc {
            Encoding::Utf16 => s.chars().map(char::len_utf16).sum(),
            Encoding::Utf8 => s.len(),
        }
    };
    let bytes = src.as_bytes();
    let mut data = Vec::with_capacity(tokens.len() * 5);
    // The cursor: a byte offset, its line and the units from its line's start.
    let (mut at, mut line, mut col) = (0usize, 0u32, 0usize);
    let (mut prev_line, mut prev_col) = (0u32, 0usize);
    for t in tokens {
        while at < t.span.start {
            // Jump to the next line break before the token, counting units on the way.
            let stop = bytes[at..t.span.start]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map_or(t.span.start, |n| at + n);
            col += units(&src[at..stop]);
            at = stop;
            if at < t.span.start {
                // A line ends at `\n`, `\r\n` or a lone `\r`.
                if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                    at += 1;
                }
                at += 1;
                line += 1;
                col = 0;
            }
        }
        let len = units(&src[t.span.start..t.span.end]);
        let delta_col = if line == prev_line {
            col - prev_col
        } else {
            col
        };
        data.extend([
            line - prev_line,
            u32::try_from(delta_col).unwrap_or(u32::MAX),
            u32::try_from(len).unwrap_or(u32::MAX),
            t.ty as u32,
            t.modifiers,
        ]);
        (prev_line, prev_col) = (line, col);
        col += len;
        at = t.span.end;
    }
    data
}

/// The server's `semanticTokensProvider` capability: the legend, full and range requests.
pub fn capability() -> serde_json::Value {
    serde_json::json!({
        "legend": { "tokenTypes": TOKEN_TYPES, "tokenModifiers": TOKEN_MODIFIERS },
        "full": true,
        "range": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens of `src` as (text, type, modifiers), for comparing.
    fn words(src: &str) -> Vec<(&str, TokenType, u32)> {
        let h = highlight(src);
        assert!(h.complete);
        h.tokens
            .iter()
            .map(|t| (&src[t.span.start..t.span.end], t.ty, t.modifiers))
            .collect()
    }

    fn of<'s>(ws: &[(&'s str, TokenType, u32)], ty: TokenType) -> Vec<&'s str> {
        ws.iter().filter(|w| w.1 == ty).map(|w| w.0).collect()
    }

    const SMALL: &str = "import \"lib/x.fgraph\"\n\
        // a block\n\
        block mlp(S, D = bf16, H = 64) {\n  dtype D\n  input x: [S, H]\n  weight w: [H, H]\n  \
        op up = matmul(x, w) -> u\n  op act = elementwise.gelu(u) -> y: D[S, H]\n  output y\n}\n\
        graph g {\n  param B = 2 * 8\n  dtype f16\n  input t: [B, 64]\n  \
        op sm = reduction.softmax(t, axis = -1) -> p\n  op m = mlp(p, S = B) -> q\n  \
        repeat 2 layers = mlp(q, S = B) -> r\n  op tr = permute(r.T, dims = [1, 0]) -> o\n  \
        output o\n  assert fused(sm, m)\n  assert traffic < 300 MB\n}\n";

    #[test]
    fn a_small_file_gets_each_name_its_kind() {
        let ws = words(SMALL);
        assert_eq!(of(&ws, TokenType::Graph), ["g"]);
        assert_eq!(of(&ws, TokenType::Block), ["mlp", "mlp", "mlp"]);
        assert_eq!(
            of(&ws, TokenType::Op),
            ["up", "act", "sm", "m", "layers", "tr", "sm", "m"]
        );
        assert_eq!(
            of(&ws, TokenType::Tensor),
            [
                "x", "w", "x", "w", "u", "u", "y", "y", "t", "t", "p", "p", "q", "q", "r", "r",
                "o", "o"
            ]
        );
        // Block header params, the `dtype D` and type `D[..]` that name one, dims, values.
        assert_eq!(
            of(&ws, TokenType::Param),
            [
                "S", "D", "H", "D", "S", "H", "H", "H", "D", "S", "H", "B", "B", "S", "B", "S", "B"
            ]
        );
        assert_eq!(
            of(&ws, TokenType::Kind),
            ["matmul", "elementwise", "reduction", "permute"]
        );
        assert_eq!(of(&ws, TokenType::Function), ["gelu", "softmax"]);
        assert_eq!(of(&ws, TokenType::Dtype), ["bf16", "f16"]);
        assert_eq!(of(&ws, TokenType::Attribute), ["axis", "dims"]);
        assert_eq!(of(&ws, TokenType::Predicate), ["fused", "traffic"]);
        assert_eq!(of(&ws, TokenType::Constant), ["MB"]);
        assert_eq!(of(&ws, TokenType::String), ["\"lib/x.fgraph\""]);
        assert_eq!(of(&ws, TokenType::Comment), ["// a block"]);
        assert_eq!(
            of(&ws, TokenType::Number),
            ["64", "2", "8", "64", "1", "2", "1", "0", "300"]
        );
        assert_eq!(
            of(&ws, TokenType::Operator),
            ["->", "->", "*", "-", "->", "->", "->", ".T", "->", "<"]
        );
        assert_eq!(
            of(&ws, TokenType::Keyword),
            [
                "import", "block", "dtype", "input", "weight", "op", "op", "output", "graph",
                "param", "dtype", "input", "op", "op", "repeat", "op", "output", "assert",
                "assert"
            ]
        );
        // Declarations are marked; fgraph's own names are the default library.
        let decl = |w: &str, ty| ws.iter().find(|x| x.0 == w && x.1 == ty).unwrap().2;
        assert_eq!(decl("g", TokenType::Graph), DECLARATION);
        assert_eq!(decl("up", TokenType::Op), DECLARATION);
        assert_eq!(decl("matmul", TokenType::Kind), DEFAULT_LIBRARY);
        let xs: Vec<u32> = ws.iter().filter(|w| w.0 == "x").map(|w| w.2).collect();
        assert_eq!(xs, [DECLARATION, 0]);
    }

    #[test]
    fn tokens_are_in_order_and_never_overlap() {
        for src in [
            SMALL,
            "graph g {\n  op a = relu(x) y\n}\n",
            "é\r// a\rb\n\"x",
        ] {
            let h = highlight(src);
            for w in h.tokens.windows(2) {
                assert!(w[0].span.end <= w[1].span.start, "{src:?}: {w:?}");
            }
            for t in &h.tokens {
                assert!(t.span.start < t.span.end);
                assert!(!src[t.span.start..t.span.end].contains(['\n', '\r']));
            }
        }
    }

    #[test]
    fn a_syntax_error_leaves_the_other_lines_coloured() {
        let src = "graph g {\n  input x: f16[4]\n  op a = relu(x) y\n  op b = elementwise.gelu(x) -> z\n  output z\n}\n";
        let ws = words(src);
        // The broken line has keywords only; the lines around it keep their names.
        assert_eq!(of(&ws, TokenType::Op), ["b"]);
        assert_eq!(of(&ws, TokenType::Tensor), ["x", "x", "z", "z"]);
        assert_eq!(of(&ws, TokenType::Function), ["gelu"]);
        // An unclosed graph: no names, still keywords and numbers.
        let ws = words("graph g {\n  input x: f16[4]\n");
        assert_eq!(of(&ws, TokenType::Tensor), Vec::<&str>::new());
        assert_eq!(of(&ws, TokenType::Keyword), ["graph", "input"]);
        assert_eq!(of(&ws, TokenType::Number), ["4"]);
    }

    #[test]
    fn keywords_used_as_names_are_names() {
        // `assert` is not reserved: an op may be called so.
        let ws = words("graph g {\n  input x: f16[4]\n  op assert = relu(x) -> y\n  output y\n}\n");
        assert_eq!(of(&ws, TokenType::Op), ["assert"]);
    }

    #[test]
    fn the_protocol_data_is_relative_and_counts_the_encoding() {
        // `𝕏` is two UTF-16 units and four bytes.
        let src = "// 𝕏\ngraph g {\r\n  input x: f16[4]\r  output x\n}\n";
        let h = highlight(src);
        let all = Span::new(0, src.len());
        let d16 = lsp_data(src, &h.tokens, all, Encoding::Utf16);
        let d8 = lsp_data(src, &h.tokens, all, Encoding::Utf8);
        // The comment: line 0, column 0, 5 UTF-16 units (7 bytes).
        assert_eq!(d16[..5], [0, 0, 5, TokenType::Comment as u32, 0]);
        assert_eq!(d8[..5], [0, 0, 7, TokenType::Comment as u32, 0]);
        // `graph` on the next line, then `g` 6 further on the same line.
        assert_eq!(
            d16[5..15],
            [1, 0, 5, TokenType::Keyword as u32, 0, 0, 6, 1, 0, 1]
        );
        // After `\r\n`: `input` at line 2, column 2; after the lone `\r`: `output` at line 3.
        let lines: Vec<u32> = d16.chunks(5).map(|c| c[0]).collect();
        assert_eq!(lines, [0, 1, 0, 1, 0, 0, 0, 1, 0]);
        assert_eq!(d16[15..18], [1, 2, 5]);
        // A range: only the tokens of line 3, the first one relative to the start.
        let line3 = src.find("output").unwrap();
        let d = lsp_data(src, &h.tokens, Span::new(line3, line3 + 8), Encoding::Utf16);
        assert_eq!(d, [3, 2, 6, TokenType::Keyword as u32, 0, 0, 7, 1, 3, 0]);
    }

    #[test]
    fn bounds_hold_on_huge_texts() {
        assert!(highlight(&" ".repeat(MAX_BYTES + 1)).tokens.is_empty());
        // One long line of many tokens: capped, and rendered in one pass.
        let src = "1 ".repeat(MAX_TOKENS + 10);
        let h = highlight(&src);
        assert_eq!(h.tokens.len(), MAX_TOKENS);
        let d = lsp_data(&src, &h.tokens, Span::new(0, src.len()), Encoding::Utf16);
        assert_eq!(d.len(), MAX_TOKENS * 5);
        assert_eq!(d[5..10], [0, 2, 1, TokenType::Number as u32, 0]);
        // The end of that line, asked for as a range: the cap counts from the range.
        let end = src.len();
        let h = highlight_range(&src, Span::new(end - 6, end));
        assert!(h.complete);
        let d = lsp_data(&src, &h.tokens, Span::new(end - 6, end), Encoding::Utf16);
        assert_eq!(d.len(), 3 * 5);
        assert_eq!(d[..2], [0, u32::try_from(end - 6).unwrap()]);
        // A range in the middle of a long file's lines starts at its first line's start.
        let lines = "graph g {\n".to_string() + &"  input x: f16[4]\n".repeat(3) + "}\n";
        let second = lines.match_indices("input").nth(1).unwrap().0;
        let h = highlight_range(&lines, Span::new(second + 3, second + 4));
        assert_eq!(h.tokens[0].span, Span::new(second, second + 5));
        assert_eq!(h.tokens[0].ty, TokenType::Keyword);
        assert_eq!(h.tokens.len(), 1, "the scan stops after the range");
    }

    #[test]
    fn every_name_of_the_shipped_files_gets_a_token() {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut files = 0;
        for dir in ["examples", "examples/lib", "std", "validation", "benches"] {
            let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
                continue;
            };
            for e in entries.flatten() {
                let path = e.path();
                if path.extension().and_then(|x| x.to_str()) != Some("fgraph") {
                    continue;
                }
                let src = std::fs::read_to_string(&path).unwrap();
                let h = highlight(&src);
                assert!(h.complete);
                let mut covered = vec![false; src.len()];
                for t in &h.tokens {
                    covered[t.span.start..t.span.end].fill(true);
                }
                // Every word outside comments and paths is coloured.
                let bytes = src.as_bytes();
                let mut i = 0;
                while i < bytes.len() {
                    let b = bytes[i];
                    if b == b'/' && bytes.get(i + 1) == Some(&b'/') || b == b'"' {
                        assert!(covered[i], "{}: byte {i}", path.display());
                        while i < bytes.len() && bytes[i] != b'\n' {
                            i += 1;
                        }
                    } else if b.is_ascii_digit() {
                        i = number_end(bytes, i);
                    } else if b == b'_' || b.is_ascii_alphabetic() {
                        let end = i + bytes[i..]
                            .iter()
                            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                            .count();
                        assert!(covered[i], "{}: `{}` at {i}", path.display(), &src[i..end]);
                        i = end;
                    } else {
                        i += 1;
                    }
                }
                files += 1;
            }
        }
        assert!(files >= 30, "{files} files");
    }

    #[test]
    fn the_server_advertises_the_legend_and_answers_full_and_range() {
        use serde_json::{Value, json};
        let mut s = crate::lsp::Server::new();
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        ]);
        let caps = &out.messages[0]["result"]["capabilities"]["semanticTokensProvider"];
        assert_eq!(caps["legend"]["tokenTypes"], json!(TOKEN_TYPES));
        assert_eq!(caps["legend"]["tokenModifiers"], json!(TOKEN_MODIFIERS));
        assert_eq!(
            (&caps["full"], &caps["range"]),
            (&json!(true), &json!(true))
        );
        let uri = "file:///nonexistent-fgraph-test/s.fgraph";
        let text =
            "graph g {\n  input x: f16[4]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n";
        let doc = json!({"uri": uri, "languageId": "fgraph", "version": 1, "text": text});
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                   "params": {"textDocument": doc}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/semanticTokens/full",
                   "params": {"textDocument": {"uri": uri}}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/semanticTokens/range",
                   "params": {"textDocument": {"uri": uri}, "range": {
                       "start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 40}}}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/semanticTokens/range",
                   "params": {"textDocument": {"uri": uri}, "range": 7}}),
        ]);
        let reply =
            |id: i64| -> &Value { out.messages.iter().find(|m| m["id"] == json!(id)).unwrap() };
        let full = reply(1)["result"]["data"].as_array().unwrap();
        assert_eq!(full.len(), 5 * 15, "{full:?}");
        let range: Vec<u64> = reply(2)["result"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        // `op a = elementwise.relu(x) -> y`, the first token relative to the document's start.
        let types: Vec<u64> = range.chunks(5).map(|c| c[3]).collect();
        let t = |ty: TokenType| ty as u64;
        assert_eq!(range[..3], [2, 2, 2]);
        assert_eq!(
            types,
            [
                t(TokenType::Keyword),
                t(TokenType::Op),
                t(TokenType::Kind),
                t(TokenType::Function),
                t(TokenType::Tensor),
                t(TokenType::Operator),
                t(TokenType::Tensor)
            ]
        );
        assert_eq!(
            reply(3)["error"]["code"],
            json!(-32602),
            "{out:?}",
            out = reply(3)
        );
    }
}
