//! Text to syntax tree: decoding bytes into text (here), the parser (`parser`: the pest grammar
//! and lowering into the tree), the tree itself (`ast`), the expansion of blocks and repeats
//! into the statements they stand for (`expand`), and the statements of a graph as the
//! semantic pass reads them, parsed or expanded (`body`).

pub mod ast;
pub mod body;
pub mod expand;
pub(crate) mod parser;

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

/// [`decode`] for bytes the caller gives up: valid UTF-8 becomes the text without a copy.
pub fn decode_owned(mut bytes: Vec<u8>) -> (String, Option<Diagnostic>) {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    match String::from_utf8(bytes) {
        Ok(s) => (s, None),
        Err(e) => decode(e.as_bytes()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_decoding_equals_borrowed() {
        for bytes in [
            &b"graph g {}"[..],
            b"\xEF\xBB\xBFgraph g {}",
            b"graph \xFF g",
            b"\xEF\xBB\xBFgraph \xC3 g",
            b"",
            b"\xEF\xBB",
        ] {
            let (text, diag) = decode(bytes);
            let (owned, owned_diag) = decode_owned(bytes.to_vec());
            assert_eq!(text, owned);
            assert_eq!(
                diag.map(|d| (d.message, d.primary.map(|p| p.span))),
                owned_diag.map(|d| (d.message, d.primary.map(|p| p.span)))
            );
        }
    }
}
