//! `fgraph fmt`: the canonical layout of a file (SPEC §6), comments kept.
//!
//! Statements are printed from the syntax tree; comments are taken from the source by
//! position. A comment on a line of its own stays where it is (indented like its
//! neighbours), a comment after a statement on the same line stays after it, and a comment
//! inside a statement (between its tokens) moves to the end of the statement's line. It never
//! moves onto a line of its own, where `// fgraph: allow(..)` would start to silence
//! something.
//! Runs of blank lines fold to one; blank lines right after `{` and before `}` go.

use crate::diagnostics::Diagnostic;
use crate::diagnostics::Span;
use crate::syntax::ast::{
    Arg, AssertKind, BinOp, BlockAst, Expr, File, GraphAst, ImportAst, ParallelItem, ParallelStmt,
    Stmt, StmtKind, TypeAst,
};

/// A top-level item of a file.
#[derive(Clone, Copy)]
enum Item<'a, 's> {
    Import(&'a ImportAst<'s>),
    Block(&'a BlockAst<'s>),
    Graph(&'a GraphAst<'s>),
}
use crate::syntax::{comment_end, decode, parse};

/// Formats a file's bytes. A file that does not decode or parse is not formatted: its first
/// error comes back instead.
pub fn format_bytes(bytes: &[u8]) -> Result<String, Box<Diagnostic>> {
    let (text, error) = decode(bytes);
    if let Some(d) = error {
        return Err(Box::new(d));
    }
    format_source(&text)
}

/// Formats source text (see the module documentation for the layout).
pub fn format_source(src: &str) -> Result<String, Box<Diagnostic>> {
    let file = parse(src)?;
    Ok(Printer::new(src, &file).print(&file))
}

/// A `//` comment: its byte range, without the line break.
#[derive(Clone, Copy)]
struct Comment {
    start: usize,
    end: usize,
}

/// Every comment of the source. The language has no string literals, so every `//` outside
/// a comment starts one.
fn comments(src: &str) -> Vec<Comment> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'/' && bytes[i + 1] == b'/' {
            let end = comment_end(src, i);
            out.push(Comment { start: i, end });
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

struct Printer<'a> {
    src: &'a str,
    comments: Vec<Comment>,
    /// Index of the first comment not printed yet.
    next: usize,
    out: String,
}

impl<'a> Printer<'a> {
    fn new(src: &'a str, _file: &File<'_>) -> Self {
        Printer {
            src,
            comments: comments(src),
            next: 0,
            out: String::with_capacity(src.len() + src.len() / 8),
        }
    }

    fn comment_text(&self, c: Comment) -> &'a str {
        self.src[c.start..c.end].trim_end()
    }

    /// Whether the source between two positions holds a blank line (the gap holds only
    /// whitespace: every comment in it is printed as an item of its own).
    fn blank_between(&self, from: usize, to: usize) -> bool {
        self.src[from.min(to)..to].matches('\n').count() >= 2
    }

    /// Prints the comments that start before `until` on lines of their own, at `indent`.
    /// `prev` is where the previous printed item ended; `first` suppresses a leading blank
    /// line (right after `{`).
    fn own_line_comments(
        &mut self,
        until: usize,
        indent: &str,
        prev: &mut usize,
        first: &mut bool,
    ) {
        while self.next < self.comments.len() && self.comments[self.next].start < until {
            let c = self.comments[self.next];
            if !*first && self.blank_between(*prev, c.start) {
                self.out.push('\n');
            }
            self.out.push_str(indent);
            self.out.push_str(self.comment_text(c));
            self.out.push('\n');
            *prev = c.end;
            *first = false;
            self.next += 1;
        }
    }

    /// Appends the comments that start before `until` to the current line. They run to the
    /// end of the line, so together they read as one comment.
    fn inner_comments(&mut self, until: usize) {
        while self.next < self.comments.len() && self.comments[self.next].start < until {
            let c = self.comments[self.next];
            self.out.push(' ');
            self.out.push_str(self.comment_text(c));
            self.next += 1;
        }
    }

    /// Appends a comment that follows `end` on the same line, before the next item starts at
    /// `before`, if there is one.
    fn trailing_comment(&mut self, end: usize, before: usize) -> usize {
        match self.comments.get(self.next) {
            Some(&c)
                if c.start >= end && c.start < before && !self.src[end..c.start].contains('\n') =>
            {
                self.out.push(' ');
                self.out.push_str(self.comment_text(c));
                self.next += 1;
                c.end
            }
            _ => end,
        }
    }

    fn print(mut self, file: &File<'_>) -> String {
        // Top-level items in source order: imports, blocks and graphs.
        let mut items: Vec<(Span, Item<'_, '_>)> = Vec::new();
        items.extend(file.imports.iter().map(|i| (i.span, Item::Import(i))));
        items.extend(file.blocks.iter().map(|b| (b.span, Item::Block(b))));
        items.extend(file.graphs.iter().map(|g| (g.span, Item::Graph(g))));
        items.sort_by_key(|(span, _)| span.start);
        let mut prev = 0;
        for (k, &(span, item)) in items.iter().enumerate() {
            let mut first = k == 0;
            // Exactly one blank line between items, before the next one's comments; imports
            // that follow one another stay together.
            let together = matches!(item, Item::Import(_))
                && k > 0
                && matches!(items[k - 1].1, Item::Import(_));
            if k > 0 && !together {
                self.out.push('\n');
                first = true;
            }
            self.own_line_comments(span.start, "", &mut prev, &mut first);
            if !first && self.blank_between(prev, span.start) {
                self.out.push('\n');
            }
            let next_item = items.get(k + 1).map_or(usize::MAX, |n| n.0.start);
            let (name, stmts, head) = match item {
                Item::Import(i) => {
                    self.out.push_str("import ");
                    self.out
                        .push_str(&self.src[i.path_span.start..i.path_span.end]);
                    prev = self.trailing_comment(span.end, next_item);
                    self.out.push('\n');
                    continue;
                }
                Item::Block(b) => {
                    let params: Vec<String> = b
                        .params
                        .iter()
                        .map(|p| match (&p.default, &p.float) {
                            (Some(e), _) => format!("{} = {}", p.name.name, self.expr(e)),
                            (None, Some(f)) => format!("{} = {}", p.name.name, f.text),
                            (None, None) => p.name.name.to_string(),
                        })
                        .collect();
                    let head = if params.is_empty() {
                        format!("block {}", b.name.name)
                    } else {
                        format!("block {}({})", b.name.name, params.join(", "))
                    };
                    (&b.name, &b.stmts, head)
                }
                Item::Graph(g) => (&g.name, &g.stmts, format!("graph {}", g.name.name)),
            };
            // The head runs from its keyword to its `{`; comments inside it follow the `{`.
            let open = brace_after(self.src, name.span.end).unwrap_or(name.span.end);
            self.out.push_str(&head);
            self.out.push_str(" {");
            self.inner_comments(open);
            let close = span.end.saturating_sub(1);
            let first_stmt = stmts.first().map_or(close, |st| st.span.start);
            prev = self.trailing_comment(open + 1, first_stmt);
            self.out.push('\n');
            let mut first_in_graph = true;
            for (i, st) in stmts.iter().enumerate() {
                let next_start = stmts.get(i + 1).map_or(close, |n| n.span.start);
                self.own_line_comments(st.span.start, "  ", &mut prev, &mut first_in_graph);
                if !first_in_graph && self.blank_between(prev, st.span.start) {
                    self.out.push('\n');
                }
                self.out.push_str("  ");
                self.stmt(st);
                // Comments between the statement's tokens follow it.
                self.inner_comments(st.span.end);
                prev = self.trailing_comment(st.span.end, next_start);
                self.out.push('\n');
                first_in_graph = false;
            }
            self.own_line_comments(close, "  ", &mut prev, &mut first_in_graph);
            self.out.push('}');
            prev = self.trailing_comment(span.end, next_item);
            self.out.push('\n');
        }
        let mut first = false;
        let end = self.src.len() + 1;
        self.own_line_comments(end, "", &mut prev, &mut first);
        self.out
    }

    fn stmt(&mut self, st: &Stmt<'_>) {
        let text = match &st.kind {
            StmtKind::Parallel(p) => return self.parallel(p, st.span),
            StmtKind::Param { name, value } => {
                format!("param {} = {}", name.name, self.expr(value))
            }
            StmtKind::Dtype(d) => format!("dtype {}", d.name),
            StmtKind::Decl { external, name, ty } => {
                format!("{} {}: {}", external.as_str(), name.name, self.ty(ty))
            }
            StmtKind::Output(names) => {
                let names: Vec<&str> = names.iter().map(|n| n.name).collect();
                format!("output {}", names.join(", "))
            }
            StmtKind::Repeat(r) => {
                let args: Vec<String> = r.args.iter().map(|a| self.arg(a)).collect();
                format!(
                    "repeat {} {} = {}({}) -> {}",
                    self.expr(&r.count),
                    r.name.name,
                    r.block.name,
                    args.join(", "),
                    r.output.name
                )
            }
            StmtKind::Assert(a) => match &a.kind {
                AssertKind::Predicate {
                    not, name, args, ..
                } => {
                    let args: Vec<&str> = args.iter().map(|n| n.name).collect();
                    format!(
                        "assert {}{}({})",
                        if not.is_some() { "not " } else { "" },
                        name.name,
                        args.join(", ")
                    )
                }
                AssertKind::Compare {
                    measure,
                    op,
                    value,
                    unit,
                    ..
                } => {
                    let mut s = format!(
                        "assert {} {} {}",
                        measure.name,
                        op.as_str(),
                        self.expr(value)
                    );
                    if let Some(u) = unit {
                        s += " ";
                        s += u.name;
                    }
                    s
                }
            },
            StmtKind::Op(op) => {
                let mut s = format!("op {} = {}", op.name.name, op.kind.name);
                if let Some(f) = &op.func {
                    s += ".";
                    s += f.name;
                }
                let args: Vec<String> = op.args.iter().map(|a| self.arg(a)).collect();
                s += &format!("({}) -> {}", args.join(", "), op.output.name);
                if let Some(ty) = &op.ty {
                    s += ": ";
                    s += &self.ty(ty);
                }
                s
            }
        };
        self.out.push_str(&text);
    }

    /// A `parallel` section (issue 25): its head, then one item a line at four spaces, each
    /// with its comments, and the closing brace at two.
    fn parallel(&mut self, p: &ParallelStmt<'_>, span: Span) {
        self.out.push_str(&format!(
            "parallel {} {} = {} {{",
            p.kind.name,
            p.group.name,
            self.expr(&p.size)
        ));
        let open = brace_after(self.src, p.size.span().end).unwrap_or(p.size.span().end);
        self.inner_comments(open);
        let close = span.end.saturating_sub(1);
        let spans: Vec<(usize, usize)> = p
            .items
            .iter()
            .map(|i| match i {
                ParallelItem::Role { role, names } => (
                    role.span.start,
                    names.last().map_or(role.span.end, |n| n.span.end),
                ),
                ParallelItem::Setting { name, value } => (name.span.start, value.span().end),
            })
            .collect();
        let mut prev = self.trailing_comment(open + 1, spans.first().map_or(close, |s| s.0));
        self.out.push('\n');
        let mut first = true;
        for (k, (item, &(start, end))) in p.items.iter().zip(&spans).enumerate() {
            let next = spans.get(k + 1).map_or(close, |s| s.0);
            self.own_line_comments(start, "    ", &mut prev, &mut first);
            let text = match item {
                ParallelItem::Role { role, names } => {
                    let names: Vec<&str> = names.iter().map(|n| n.name).collect();
                    format!("{} {}", role.name, names.join(", "))
                }
                ParallelItem::Setting { name, value } => {
                    format!("{} = {}", name.name, self.expr(value))
                }
            };
            self.out.push_str("    ");
            self.out.push_str(&text);
            self.inner_comments(end);
            prev = self.trailing_comment(end, next);
            self.out.push('\n');
            first = false;
        }
        self.own_line_comments(close, "    ", &mut prev, &mut first);
        self.out.push_str("  }");
    }

    fn arg(&self, a: &Arg<'_>) -> String {
        match a {
            Arg::Attr { name, value } => format!("{} = {}", name.name, self.expr(value)),
            Arg::Scalar(lit) => lit.text.to_string(),
            Arg::FloatAttr { name, value } => format!("{} = {}", name.name, value.text),
            Arg::ListAttr { name, items, .. } => {
                let items: Vec<String> = items.iter().map(|e| self.expr(e)).collect();
                format!("{} = [{}]", name.name, items.join(", "))
            }
            Arg::Tensor(t) => {
                let mut s = t.name.name.to_string();
                if let Some(i) = &t.index {
                    s += &format!("[{}]", self.expr(i));
                }
                if t.transpose {
                    s += ".T";
                }
                s
            }
        }
    }

    fn ty(&self, ty: &TypeAst<'_>) -> String {
        let dims: Vec<String> = ty.dims.iter().map(|d| self.expr(d)).collect();
        format!("{}[{}]", ty.dtype.map_or("", |d| d.name), dims.join(", "))
    }

    /// An expression with the fewest parentheses that keep its tree: a chain inside a
    /// tighter chain, and a chain on the right of an operator of its own level, are wrapped.
    fn expr(&self, e: &Expr<'_>) -> String {
        match e {
            Expr::Int { span, .. } => self.src[span.start..span.end].to_string(),
            Expr::Name(id) => id.name.to_string(),
            Expr::Bool { value, .. } => value.to_string(),
            Expr::Neg {
                negations, operand, ..
            } => {
                let inner = match operand.as_ref() {
                    Expr::Chain { .. } => format!("({})", self.expr(operand)),
                    other => self.expr(other),
                };
                format!("{}{inner}", "-".repeat(*negations))
            }
            Expr::Chain { first, rest, .. } => {
                let level = rest.first().map_or(0, |(op, _, _)| level(*op));
                let mut s = self.operand(first, level, true);
                for (op, _, rhs) in rest {
                    let sym = match op {
                        BinOp::Add => "+",
                        BinOp::Sub => "-",
                        BinOp::Mul => "*",
                        BinOp::Div => "/",
                        BinOp::Rem => "%",
                        BinOp::FloorDiv => "div",
                    };
                    s += &format!(" {sym} {}", self.operand(rhs, level, false));
                }
                s
            }
        }
    }

    fn operand(&self, e: &Expr<'_>, parent: u8, first: bool) -> String {
        match e {
            Expr::Chain { rest, .. } => {
                let own = rest.first().map_or(0, |(op, _, _)| level(*op));
                if own < parent || (own == parent && !first) {
                    format!("({})", self.expr(e))
                } else {
                    self.expr(e)
                }
            }
            _ => self.expr(e),
        }
    }
}

fn level(op: BinOp) -> u8 {
    match op {
        BinOp::Add | BinOp::Sub => 0,
        BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::FloorDiv => 1,
    }
}

/// The position of the first `{` at or after `from`, skipping comments.
fn brace_after(src: &str, from: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => return Some(i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = comment_end(src, i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(src: &str) -> String {
        format_source(src).expect("parses")
    }

    #[test]
    fn canonical_layout() {
        let src = "graph   g{param M=4*(2+1)\n\n\n\n dtype f16 input x:[M,8]\n  op a=elementwise . add(x,x[0].T , axis=-1)->y :f32[ M ,8]\noutput y}";
        assert_eq!(
            fmt(src),
            "graph g {\n  param M = 4 * (2 + 1)\n\n  dtype f16\n  input x: [M, 8]\n  op a = elementwise.add(x, x[0].T, axis = -1) -> y: f32[M, 8]\n  output y\n}\n"
        );
    }

    #[test]
    fn comments_are_kept() {
        let src = "// file header\n\n// about g\ngraph g { // opening\n  // a param\n  param A = 1 // trailing\n\n\n  input x: [ // inside\n    A]\n  // before the end\n} // after\n// last\n";
        assert_eq!(
            fmt(src),
            "// file header\n\n// about g\ngraph g { // opening\n  // a param\n  param A = 1 // trailing\n\n  input x: [A] // inside\n  // before the end\n} // after\n// last\n"
        );
    }

    #[test]
    fn parentheses_only_where_needed() {
        let cases = [
            ("1 + 2 * 3", "1 + 2 * 3"),
            ("(1 + 2) * 3", "(1 + 2) * 3"),
            ("1 - (2 - 3)", "1 - (2 - 3)"),
            ("(1 - 2) - 3", "1 - 2 - 3"),
            ("8 / (4 / 2)", "8 / (4 / 2)"),
            ("-(1 + 2)", "-(1 + 2)"),
            ("--3", "--3"),
            ("((4))", "4"),
            ("T%W", "T % W"),
            ("T div(W*2)", "T div (W * 2)"),
            ("(T div W) % 3 + 1", "T div W % 3 + 1"),
            ("T % (W div 2)", "T % (W div 2)"),
            ("T*(8%3)", "T * (8 % 3)"),
            ("(T + 1) div -W", "(T + 1) div -W"),
        ];
        for (input, want) in cases {
            let src = format!("graph g {{\n  param A = {input}\n}}\n");
            assert_eq!(
                fmt(&src),
                format!("graph g {{\n  param A = {want}\n}}\n"),
                "{input}"
            );
        }
    }

    #[test]
    fn boolean_attributes_round_trip() {
        let src = "graph g {\n  input x: [4, 4]\n  op s = reduction.softmax(x, axis = -1, causal=true,window=2) -> y\n  op m = reduction.sum(y, keepdim =false) -> z\n  output z\n}\n";
        let want = "graph g {\n  input x: [4, 4]\n  op s = reduction.softmax(x, axis = -1, causal = true, window = 2) -> y\n  op m = reduction.sum(y, keepdim = false) -> z\n  output z\n}\n";
        assert_eq!(fmt(src), want);
        assert_eq!(fmt(want), want);
    }

    #[test]
    fn several_graphs_get_one_blank_line_between() {
        let src = "graph a {\n}\ngraph b {\n}\n\n\n\ngraph c {\n}";
        assert_eq!(fmt(src), "graph a {\n}\n\ngraph b {\n}\n\ngraph c {\n}\n");
    }

    #[test]
    fn examples_are_canonical_and_formatting_is_idempotent() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
        let lib = std::fs::read_dir(format!("{dir}/lib")).expect("examples/lib");
        for entry in std::fs::read_dir(dir).expect("examples").chain(lib) {
            let path = entry.expect("entry").path();
            if !path.is_file() {
                continue;
            }
            let src = std::fs::read_to_string(&path).expect("read");
            let once = fmt(&src);
            assert_eq!(fmt(&once), once, "{}", path.display());
            // The shipped examples are written in the canonical layout.
            assert_eq!(once, src, "{} is not formatted", path.display());
        }
    }

    #[test]
    fn broken_files_are_not_formatted() {
        assert!(format_source("graph g { op }").is_err());
        assert!(format_bytes(b"graph g {\xff}").is_err());
    }

    #[test]
    fn formatting_changes_no_meaning_on_any_fixture() {
        use crate::analysis::{Options, check_file};
        let root = env!("CARGO_MANIFEST_DIR");
        for dir in [
            "tests/fixtures/diagnostics",
            "tests/fixtures/fusion",
            "examples",
        ] {
            for entry in std::fs::read_dir(format!("{root}/{dir}")).expect("dir") {
                let path = entry.expect("entry").path();
                if path.extension().is_none_or(|e| e != "fgraph") {
                    continue;
                }
                let bytes = std::fs::read(&path).expect("read");
                let Ok(once) = format_bytes(&bytes) else {
                    continue;
                };
                assert_eq!(fmt(&once), once, "{} is not idempotent", path.display());
                let before = check_file("f", &bytes, &Options::default());
                let after = check_file("f", once.as_bytes(), &Options::default());
                let codes = |r: &crate::analysis::FileReport| {
                    r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
                };
                assert_eq!(codes(&before), codes(&after), "{}", path.display());
                let traffic = |r: &crate::analysis::FileReport| {
                    r.graphs
                        .iter()
                        .map(|g| {
                            g.analysis
                                .as_ref()
                                .map(|a| (a.traffic.unfused, a.traffic.fused))
                        })
                        .collect::<Vec<_>>()
                };
                assert_eq!(traffic(&before), traffic(&after), "{}", path.display());
            }
        }
    }

    #[test]
    fn comments_inside_never_become_allow_lines() {
        let src = "graph // b\n\n g {\n  input x // fgraph: allow(unused-tensor)\n    : [4]\n}\n";
        let once = fmt(src);
        assert_eq!(
            once,
            "graph g { // b\n  input x: [4] // fgraph: allow(unused-tensor)\n}\n"
        );
        assert_eq!(fmt(&once), once);
        let before = crate::analysis::check_file("f", src.as_bytes(), &Default::default());
        let after = crate::analysis::check_file("f", once.as_bytes(), &Default::default());
        assert_eq!(before.diagnostics.len(), 1);
        assert_eq!(
            after.diagnostics.len(),
            1,
            "the trailing allow comment still silences nothing"
        );
    }
}
