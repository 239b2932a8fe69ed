//! A source file as diagnostics see it: its name, text and line index ([`LineIndex`], line and
//! column by binary search), and the miette `SourceCode` over it for the human renderer.

use std::sync::OnceLock;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Byte offsets of line starts, so that a position maps to (line, column) by binary search.
/// miette's own `SourceCode for str` walks the file from the start for every span, which is
/// quadratic when a large file has many diagnostics.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Lines end at `\n`, `\r\n`, or a lone `\r` (old Mac files).
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let is_end =
            |i: usize, b: u8| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        // Blocks without `\n` or `\r` (most of a file) are skipped with one vectorised test.
        const BLOCK: usize = 16;
        let blocks = bytes.chunks_exact(BLOCK);
        let tail = bytes.len() - blocks.remainder().len();
        for (k, block) in blocks.enumerate() {
            if block
                .iter()
                .fold(false, |a, &b| a | (b == b'\n') | (b == b'\r'))
            {
                let base = k * BLOCK;
                for (j, &b) in block.iter().enumerate() {
                    if is_end(base + j, b) {
                        starts.push(base + j + 1);
                    }
                }
            }
        }
        for (j, &b) in bytes[tail..].iter().enumerate() {
            if is_end(tail + j, b) {
                starts.push(tail + j + 1);
            }
        }
        LineIndex { starts }
    }

    /// 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.starts[line.min(self.starts.len() - 1)]
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 1-based line and 1-based column counted in characters (SPEC §6).
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.line_start(line);
        (line + 1, text[start..offset].chars().count() + 1)
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One file's text with its display name and line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Built on first use: only diagnostics need lines and columns, and a clean file has
    /// none (the index of a 50 MB file takes ~20 ms to build).
    lines: OnceLock<LineIndex>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
            lines: OnceLock::new(),
        }
    }

    /// Where the lines of the text start.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }
}

impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text = self.text.as_str();
        let start = span.offset();
        let end = start
            .checked_add(span.len())
            .ok_or(MietteError::OutOfBounds)?;
        if end > text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let lines = self.lines();
        let first = lines.line_of(start).saturating_sub(context_lines_before);
        let last_line = lines.line_of(end.saturating_sub(1).max(start));
        let last = (last_line + context_lines_after).min(lines.line_count() - 1);
        let from = lines.line_start(first);
        let to = if last + 1 < lines.line_count() {
            // Keep the trailing newline out, as miette does.
            lines.line_start(last + 1).saturating_sub(1)
        } else {
            text.len()
        };
        let to = to.max(from);
        // miette prints the primary span's line and column in the header, reading it with no
        // context: the column is that of the span's start within its line.
        let start_line = lines.line_start(lines.line_of(start));
        let column = text
            .get(start_line..floor_char_boundary(text, start))
            .map_or(0, |s| s.chars().count());
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &text.as_bytes()[from..to],
            SourceSpan::new(from.into(), to - from),
            first,
            column,
            last - first + 1,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    /// The block scan finds the line starts a byte-by-byte scan finds, `\r\n` split across
    /// blocks included.
    #[test]
    fn line_starts_match_a_plain_scan() {
        let pieces = ["a", "\n", "\r", "\r\n", "bcdefghijklmno", "é"];
        let mut state = 12345u64;
        for len in 0..400 {
            let mut text = String::new();
            for _ in 0..len {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let bytes = text.as_bytes();
            let mut expected = vec![0];
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                    expected.push(i + 1);
                }
            }
            assert_eq!(LineIndex::new(&text).starts, expected, "{text:?}");
        }
    }
}
