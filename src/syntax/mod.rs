//! Text to syntax tree: decoding, the pest grammar and lowering.

pub mod ast;
mod parser;

pub use parser::parse;

use crate::diagnostics::{Code, Diagnostic, Span};

/// Where the `//` comment starting at `pos` ends: its line break, or the end of the text.
/// The language has no string literals, so `//` always starts a comment.
pub(crate) fn comment_end(src: &str, pos: usize) -> usize {
    src.as_bytes()[pos..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |n| pos + n)
}

/// Turns a file's bytes into text. Invalid UTF-8 is replaced (so the file can still be shown)
/// and reported at its first bad byte; a leading byte-order mark is dropped.
pub fn decode(bytes: &[u8]) -> (String, Option<Diagnostic>) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), None),
        Err(e) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(bytes).into_owned();
            let diag = Diagnostic::new(Code::SyntaxError, "file is not valid UTF-8")
                .at(
                    Span::new(at, at + '\u{FFFD}'.len_utf8()),
                    "invalid byte sequence",
                )
                .help("fgraph reads UTF-8 text; re-save the file as UTF-8");
            (text, Some(diag))
        }
    }
}
