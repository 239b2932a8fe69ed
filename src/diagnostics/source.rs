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
    /// Characters before each [`MARK`]-byte boundary of the text, built on the first column
    /// asked for deep inside a long line: a column is then counted from the nearest mark, not
    /// from the line's start, so a one-line file with a million diagnostics is not quadratic.
    marks: OnceLock<Box<[usize]>>,
}

/// Bytes between two character-count marks of a [`LineIndex`].
const MARK: usize = 1024;

/// Characters in `bytes` (a UTF-8 text cut anywhere): the bytes that do not continue a
/// character. Written so the compiler vectorises it.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
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
        LineIndex {
            starts,
            marks: OnceLock::new(),
        }
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
        let bytes = text.as_bytes();
        let column = if offset - start <= 2 * MARK {
            chars_in(&bytes[start..offset])
        } else {
            self.chars_before(bytes, offset) - self.chars_before(bytes, start)
        };
        (line + 1, column + 1)
    }

    /// Characters in `bytes[..offset]`, from the nearest mark below `offset`.
    fn chars_before(&self, bytes: &[u8], offset: usize) -> usize {
        let marks = self.marks.get_or_init(|| {
            let mut marks = Vec::with_capacity(bytes.len() / MARK + 1);
            let mut n = 0;
            marks.push(0);
            for chunk in bytes.chunks_exact(MARK) {
                n += chars_in(chunk);
                marks.push(n);
            }
            marks.into_boxed_slice()
        });
        let k = (offset / MARK).min(marks.len() - 1);
        marks[k] + chars_in(&bytes[k * MARK..offset])
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
    lines: OnceLock<Box<LineIndex>>,
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
        self.lines
            .get_or_init(|| Box::new(LineIndex::new(&self.text)))
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

    /// Columns deep inside long lines, counted from the marks, are the characters before the
    /// offset on its line, with multi-byte characters on both sides of marks.
    #[test]
    fn columns_in_long_lines_count_characters() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(if i % 7 == 0 { "é€" } else { "ab" });
            if i % 1000 == 999 {
                text.push('\n');
            }
        }
        let idx = LineIndex::new(&text);
        let mut offsets: Vec<usize> = (0..text.len()).step_by(97).collect();
        offsets.push(text.len());
        for o in offsets {
            let o = super::floor_char_boundary(&text, o);
            let start = text[..o].rfind('\n').map_or(0, |i| i + 1);
            let line = text[..o].matches('\n').count() + 1;
            let want = (line, text[start..o].chars().count() + 1);
            assert_eq!(idx.line_col(&text, o), want, "offset {o}");
        }
    }

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
