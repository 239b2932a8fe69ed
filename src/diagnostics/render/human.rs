//! The human format (the default): miette's graphical report of each diagnostic, drawn against
//! its source, and the one-line count that ends a run ("Found 1 error and 0 warnings in 1
//! file."). Human output goes to standard error.

use crate::diagnostics::{Diagnostic, Label, Severity, SourceFile};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use std::fmt;
/// Adapter that lets miette draw one of our diagnostics against its source.
struct MietteView<'a> {
    diag: &'a Diagnostic,
    src: &'a SourceFile,
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
        self.diag
            .primary
            .as_ref()
            .map(|_| self.src as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = self.diag.primary.as_ref()?;
        let len = self.src.text.len();
        let clamp = move |l: &Label| {
            let start = l.span.start.min(len);
            (start, l.span.end.clamp(start, len) - start)
        };
        let (s, n) = clamp(primary);
        let first = LabeledSpan::new_primary_with_span(Some(primary.message.clone()), (s, n));
        let rest = self.diag.secondary.iter().map(move |l| {
            let (s, n) = clamp(l);
            LabeledSpan::new_with_span(Some(l.message.clone()), (s, n))
        });
        Some(Box::new(std::iter::once(first).chain(rest)))
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
    let mut out = String::new();
    if handler
        .render_report(&mut out, &MietteView { diag, src })
        .is_err()
    {
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
