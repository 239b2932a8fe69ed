//! An open document: its text, versions, and the conversion between the protocol's
//! (line, character) positions and fgraph's byte offsets.

use crate::diagnostics::{LineIndex, Span};

/// How the client counts characters in a line (LSP 3.17 `positionEncoding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units: the protocol's default.
    Utf16,
    /// Bytes, when the client offers `utf-8`.
    Utf8,
}

impl Encoding {
    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf8 => c.len_utf8(),
        }
    }
}

/// A zero-based protocol position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: u32,
    pub character: u32,
}

/// The text of an open file and its line starts.
#[derive(Clone, Debug)]
pub struct Document {
    pub text: String,
    pub version: i32,
    lines: LineIndex,
}

impl Document {
    pub fn new(text: String, version: i32) -> Self {
        let lines = LineIndex::new(&text);
        Document {
            text,
            version,
            lines,
        }
    }

    /// Replaces the whole text (full-document sync).
    pub fn replace(&mut self, text: String, version: i32) {
        *self = Document::new(text, version);
    }

    /// Replaces the text between two positions (a ranged change, for clients that send
    /// them even though the server asked for full sync).
    pub fn edit(&mut self, start: Pos, end: Pos, new: &str, version: i32, enc: Encoding) {
        let (a, b) = (self.offset(start, enc), self.offset(end, enc));
        let (a, b) = (a.min(b), a.max(b));
        let mut text = String::with_capacity(self.text.len() + new.len());
        text.push_str(&self.text[..a]);
        text.push_str(new);
        text.push_str(&self.text[b..]);
        self.replace(text, version);
    }

    /// The end of line `line`, before its line break.
    fn line_end(&self, line: usize) -> usize {
        let next = if line + 1 < self.lines.line_count() {
            self.lines.line_start(line + 1)
        } else {
            self.text.len()
        };
        let s = &self.text[self.lines.line_start(line)..next];
        let content = s.trim_end_matches(['\n', '\r']);
        self.lines.line_start(line) + content.len()
    }

    /// The byte offset of a position, clamped into the text: a line past the end is the end
    /// of the text, a character past the line's end is the line's end, and a position inside
    /// a character (half of a UTF-16 surrogate pair) is the character's start.
    pub fn offset(&self, p: Pos, enc: Encoding) -> usize {
        let line = p.line as usize;
        if line >= self.lines.line_count() {
            return self.text.len();
        }
        let start = self.lines.line_start(line);
        let end = self.line_end(line);
        let mut units = 0usize;
        for (i, c) in self.text[start..end].char_indices() {
            let next = units + enc.units(c);
            if next > p.character as usize {
                return start + i;
            }
            units = next;
        }
        end
    }

    /// The position of a byte offset (clamped to the text and to a character boundary).
    pub fn position(&self, offset: usize, enc: Encoding) -> Pos {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.lines.line_of(offset);
        let start = self.lines.line_start(line);
        let character: usize = self.text[start..offset].chars().map(|c| enc.units(c)).sum();
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: u32::try_from(character).unwrap_or(u32::MAX),
        }
    }

    pub fn range(&self, span: Span, enc: Encoding) -> (Pos, Pos) {
        (self.position(span.start, enc), self.position(span.end, enc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        // `é` is 2 bytes and 1 UTF-16 unit; `𝕏` is 4 bytes and 2 UTF-16 units.
        let d = Document::new("ab\n// é𝕏 x\r\nlast".into(), 1);
        let x = d.text.find(" x").expect("x") + 1;
        assert_eq!(
            d.position(x, Encoding::Utf16),
            Pos {
                line: 1,
                character: 7
            }
        );
        assert_eq!(
            d.position(x, Encoding::Utf8),
            Pos {
                line: 1,
                character: 10
            }
        );
        assert_eq!(
            d.offset(
                Pos {
                    line: 1,
                    character: 7
                },
                Encoding::Utf16
            ),
            x
        );
        assert_eq!(
            d.offset(
                Pos {
                    line: 1,
                    character: 10
                },
                Encoding::Utf8
            ),
            x
        );
        // Inside the surrogate pair: the character's start. Past the line: its end (before
        // `\r\n`). Past the text: its end.
        let dbl = d.text.find('𝕏').expect("𝕏");
        assert_eq!(
            d.offset(
                Pos {
                    line: 1,
                    character: 5
                },
                Encoding::Utf16
            ),
            dbl
        );
        assert_eq!(
            d.offset(
                Pos {
                    line: 1,
                    character: 99
                },
                Encoding::Utf16
            ),
            x + 1
        );
        assert_eq!(
            d.offset(
                Pos {
                    line: 9,
                    character: 0
                },
                Encoding::Utf16
            ),
            d.text.len()
        );
        assert_eq!(
            d.position(dbl + 1, Encoding::Utf16),
            d.position(dbl, Encoding::Utf16)
        );
    }

    #[test]
    fn ranged_edits_apply() {
        let mut d = Document::new("graph g {\n  op a\n}\n".into(), 1);
        d.edit(
            Pos {
                line: 1,
                character: 5,
            },
            Pos {
                line: 1,
                character: 6,
            },
            "bb",
            2,
            Encoding::Utf16,
        );
        assert_eq!(d.text, "graph g {\n  op bb\n}\n");
        assert_eq!(d.version, 2);
    }
}
