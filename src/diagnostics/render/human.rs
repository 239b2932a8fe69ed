//! The human format (the default): miette's graphical report of each diagnostic, drawn against
//! its source, and the one-line count that ends a run ("Found 1 error and 0 warnings in 1
//! file."). Human output goes to standard error. A line too long for miette (which panics past
//! column 65,535) is cut to a window around the label with ellipses before it is drawn.

use crate::diagnostics::{Diagnostic, Label, Severity, SourceFile};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use std::fmt;
/// Adapter that lets miette draw one of our diagnostics against its source (the file, or a
/// [`Cut`] of it when a line is too long for miette).
struct MietteView<'a> {
    diag: &'a Diagnostic,
    src: &'a dyn miette::SourceCode,
    /// The primary label first, then the secondary ones, as (offset, length) in `src`.
    spans: Vec<(usize, usize)>,
}

impl fmt::Debug for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl fmt::Display for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl std::error::Error for MietteView<'_> {}

impl miette::Diagnostic for MietteView<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!("fgraph::{}", self.diag.code)))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.diag.primary.as_ref().map(|_| self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = self.diag.primary.as_ref()?;
        let labels = std::iter::once(primary).chain(&self.diag.secondary);
        Some(Box::new(labels.zip(&self.spans).enumerate().map(
            |(i, (l, &span))| {
                let text = Some(l.message.clone());
                if i == 0 {
                    LabeledSpan::new_primary_with_span(text, span)
                } else {
                    LabeledSpan::new_with_span(text, span)
                }
            },
        )))
    }
}

/// A line longer than this many bytes is cut before miette draws it: miette panics on a
/// column past 65,535 (a formatting width), and a megabyte of one line helps no one.
const MAX_LINE_BYTES: usize = 1000;
/// How much of a cut line is shown, in bytes, and how much of it before the label.
const WINDOW_BYTES: usize = 120;
const LEAD_BYTES: usize = 40;
const ELLIPSIS: &str = "…";

/// The lines a diagnostic's labels touch (with one line of context each side), each line
/// longer than [`MAX_LINE_BYTES`] cut to a window around its first label with an ellipsis at
/// each cut end; miette reads this instead of the file, with line numbers and the header's
/// column still those of the file. Other renderers keep the true positions.
struct Cut<'a> {
    file: &'a SourceFile,
    text: SourceFile,
    /// The file's line where `text` starts.
    first_line: usize,
    lines: Vec<CutLine>,
}

/// One line of a [`Cut`]: where it starts in the cut text and in the file, and what of it is
/// shown (`shown` is a byte range of the file, after `prefix` bytes of ellipsis).
struct CutLine {
    at: usize,
    start: usize,
    shown: std::ops::Range<usize>,
    prefix: usize,
}

impl CutLine {
    /// A file offset on this line, in the cut text.
    fn map(&self, p: usize) -> usize {
        self.at + self.prefix + p.clamp(self.shown.start, self.shown.end) - self.shown.start
    }
}

/// The byte range of line `l`'s text (no line ending).
fn line_range(src: &SourceFile, l: usize) -> std::ops::Range<usize> {
    let lines = src.lines();
    let start = lines.line_start(l);
    let end = if l + 1 < lines.line_count() {
        lines.line_start(l + 1)
    } else {
        src.text.len()
    };
    let text = src.text[start..end].trim_end_matches(['\n', '\r']);
    start..start + text.len()
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl<'a> Cut<'a> {
    /// The cut of `src` for labels at `spans`, or `None` when every line they show fits.
    fn new(src: &'a SourceFile, spans: &[(usize, usize)]) -> Option<Cut<'a>> {
        let lines = src.lines();
        let touched = |&(s, n): &(usize, usize)| {
            let first = lines.line_of(s).saturating_sub(1);
            let last = (lines.line_of(s + n) + 1).min(lines.line_count() - 1);
            first..=last
        };
        if spans
            .iter()
            .flat_map(touched)
            .all(|l| line_range(src, l).len() <= MAX_LINE_BYTES)
        {
            return None;
        }
        let first_line = spans.iter().map(|s| *touched(s).start()).min()?;
        let last_line = spans.iter().map(|s| *touched(s).end()).max()?;
        let (mut text, mut cut) = (String::new(), Vec::new());
        for l in first_line..=last_line {
            let range = line_range(src, l);
            let anchor = spans
                .iter()
                .map(|&(s, _)| s)
                .filter(|s| range.contains(s) || *s == range.end)
                .min()
                .unwrap_or(range.start);
            let shown = if range.len() <= MAX_LINE_BYTES {
                range.clone()
            } else {
                let from = floor_boundary(
                    &src.text,
                    anchor.saturating_sub(LEAD_BYTES).max(range.start),
                );
                let to = floor_boundary(&src.text, (from + WINDOW_BYTES).min(range.end));
                from..to
            };
            let prefix = if shown.start > range.start {
                ELLIPSIS.len()
            } else {
                0
            };
            cut.push(CutLine {
                at: text.len(),
                start: range.start,
                shown: shown.clone(),
                prefix,
            });
            if prefix > 0 {
                text.push_str(ELLIPSIS);
            }
            text.push_str(&src.text[shown.clone()]);
            if shown.end < range.end {
                text.push_str(ELLIPSIS);
            }
            text.push('\n');
        }
        Some(Cut {
            file: src,
            text: SourceFile::new(src.name.clone(), text),
            first_line,
            lines: cut,
        })
    }

    /// A label's (offset, length) in the file, in the cut text.
    fn map(&self, (s, n): (usize, usize)) -> (usize, usize) {
        let lines = self.file.lines();
        let at = |p: usize| &self.lines[lines.line_of(p) - self.first_line];
        let start = at(s).map(s);
        let end = at(s + n).map(s + n).max(start);
        (start, end - start)
    }
}

impl miette::SourceCode for Cut<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        // The header's column: that of the span's start in the file's line.
        let q = span.offset();
        let line = &self.lines[self.text.lines().line_of(q).min(self.lines.len() - 1)];
        let p = (q.saturating_sub(line.at + line.prefix) + line.shown.start).min(line.shown.end);
        let p = floor_boundary(&self.file.text, p);
        let column = self.file.text[line.start..p].chars().count();
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.file.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            inner.line_count(),
        )))
    }
}

/// How human output is drawn.
#[derive(Clone, Copy, Debug)]
pub struct HumanStyle {
    pub color: bool,
    pub width: usize,
}

impl HumanStyle {
    /// No colour, 80 columns: what tests snapshot.
    pub fn plain() -> Self {
        HumanStyle {
            color: false,
            width: 80,
        }
    }
}

/// miette's graphical report of one diagnostic.
pub fn human(diag: &Diagnostic, src: &SourceFile, style: HumanStyle) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let len = src.text.len();
    let spans: Vec<(usize, usize)> = diag
        .primary
        .iter()
        .chain(&diag.secondary)
        .map(|l: &Label| {
            let start = floor_boundary(&src.text, l.span.start.min(len));
            let end = floor_boundary(&src.text, l.span.end.clamp(start, len));
            (start, end - start)
        })
        .collect();
    let cut = Cut::new(src, &spans);
    let view = match &cut {
        Some(c) => MietteView {
            diag,
            src: c,
            spans: spans.iter().map(|&s| c.map(s)).collect(),
        },
        None => MietteView { diag, src, spans },
    };
    let mut out = String::new();
    if handler.render_report(&mut out, &view).is_err() {
        // Rendering into a String cannot fail on I/O; fall back to one line if miette gives up.
        out = format!(
            "{}: fgraph::{}: {}\n",
            diag.severity.as_str(),
            diag.code,
            diag.message
        );
    }
    out
}

/// The line that ends a run in the human format: how many errors and warnings in how many
/// files, or that all checks passed.
pub fn count_line(diags: &[&Diagnostic], files: usize) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if diags.is_empty() {
        format!("All checks passed ({}).\n", plural(files, "file"))
    } else {
        format!(
            "Found {} and {} in {}.\n",
            plural(errors, "error"),
            plural(warnings, "warning"),
            plural(files, "file")
        )
    }
}

/// [`count_line`] for a run where `unread` files could not be read (the reason was printed
/// before): never "All checks passed".
pub fn count_line_unread(diags: &[&Diagnostic], files: usize, unread: usize) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    format!(
        "Found {} and {} in {}; {} could not be read.\n",
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(files, "file"),
        plural(unread, "file")
    )
}
