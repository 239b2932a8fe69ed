//! Where a span is, as the machine formats (JSON, GitHub, SARIF) write it: 1-based lines and
//! columns counted in characters, the end exclusive (SPEC §6).

use crate::diagnostics::{SourceFile, Span};

/// `(line, column, end_line, end_column)` of `span` in `src`.
pub fn position(src: &SourceFile, span: Span) -> (usize, usize, usize, usize) {
    let (line, column) = src.lines().line_col(&src.text, span.start);
    let (end_line, end_column) = src.lines().line_col(&src.text, span.end);
    (line, column, end_line, end_column)
}
