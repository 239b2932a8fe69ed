//! The parallel parse of a large file: the file is split before `op` keywords that start a
//! line, each piece is parsed by its own driver on its own thread, and the pieces are joined
//! into the file the one-thread parse gives (or into nothing, and the caller parses again on
//! one thread).

use super::{Closed, Driver, OpenGraph, check_nesting};
use crate::diagnostics::Span;
use crate::syntax::ast::*;

/// Parses `src` in `chunks` pieces on as many threads, split before `op` keywords that start
/// a line. A valid file gives exactly what the one-thread parse gives: no statement can go on
/// with `op`, so every piece parses as it would in one pass. Anything else — a syntax error in
/// any piece, a piece that does not end where the next one starts, a graph closing inside a
/// middle piece — returns `None`, and the caller parses the file again on one thread, so
/// diagnostics are always those of the one-thread parse.
///
/// Each thread first bounds the nesting of its own piece (which is all its parser recurses
/// through); a piece nested too deeply also falls back, and the one-thread parse reports it.
pub(super) fn parse_parallel(src: &str, chunks: usize) -> Option<File<'_>> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
