//! The edge: diagnostics become text here and nowhere else. [`Format`] is the one list of
//! output formats (`--format`), and [`run`] renders a whole run in one of them with one
//! `match`. Each format is one file: [`human`](mod@human) (miette's graphical report, to standard error,
//! and the count that ends a run), [`json`](mod@json) (one object per diagnostic, SPEC §6), [`github`](mod@github)
//! (Actions workflow commands) and [`sarif`](mod@sarif) (one SARIF 2.1.0 log). [`lsp`](mod@lsp) is the language
//! server's rendering of one diagnostic as a protocol object; the server calls it per
//! document, not per run.
//!
//! A command with more to say than its diagnostics (`analyze`: the report of a graph) passes
//! a [`RunReport`], which gives the text that follows the diagnostics, the JSON document that
//! holds them, and whether the human count ends the run; `check` passes [`Diagnostics`].
//!
//! Adding a format is one file here, one variant of [`Format`] and one arm in [`run`] (the
//! compiler asks for the arm). `fgraph hardware` also matches on [`Format`], for its own
//! document (a hardware file, not a run of diagnostics).

pub mod github;
pub mod human;
pub mod json;
pub mod lsp;
mod position;
pub mod sarif;

pub use github::github;
pub use human::{HumanStyle, human};
pub use json::json;
pub use lsp::lsp;
pub use sarif::sarif;

use crate::diagnostics::{Diagnostic, SourceFile};
use serde_json::Value;
use std::io::Write;

/// An output format (`--format`). No doc comments on the variants: clap would print them in
/// `--help` beside the names.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    // miette's report per diagnostic on standard error, then the command's text.
    Human,
    // One JSON document for the run.
    Json,
    // GitHub Actions annotations, then the command's text.
    Github,
    // One SARIF 2.1.0 log for the run (diagnostics only).
    Sarif,
}

/// The diagnostics of one file of a run, with the source they point into.
pub struct FileDiagnostics<'a> {
    pub source: &'a SourceFile,
    pub diagnostics: Vec<&'a Diagnostic>,
}

/// Where a run goes: human diagnostics to `err` (standard error), everything else to `out`.
pub struct Sink<'w> {
    pub out: &'w mut dyn Write,
    pub err: &'w mut dyn Write,
    pub style: HumanStyle,
}

/// What a run prints besides its diagnostics, in the formats that have room for it.
pub trait RunReport {
    /// Human format: whether the count ("Found 1 error and 0 warnings in 1 file.") ends the
    /// run. A command that shows a report after its diagnostics leaves it off.
    fn footer(&self) -> bool {
        true
    }

    /// Human and GitHub formats: what follows the diagnostics on standard output.
    fn text(&self, _out: &mut dyn Write) {}

    /// JSON format: the run's one document, given its diagnostics as JSON objects.
    fn json(&self, diagnostics: Vec<Value>, out: &mut dyn Write) {
        let _ = writeln!(out, "{}", serde_json::json!({ "diagnostics": diagnostics }));
    }
}

/// A run of diagnostics and nothing else (`check`): `{"diagnostics": [...]}` in JSON, the
/// count at the end of the human format.
pub struct Diagnostics;

impl RunReport for Diagnostics {}

/// Renders the diagnostics of a whole run, file by file, in `format`, with what `report`
/// adds to them. Write errors are ignored: the output is all there is to say.
pub fn run(format: Format, files: &[FileDiagnostics<'_>], report: &dyn RunReport, to: &mut Sink) {
    let all = || {
        files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |&d| (d, f.source)))
    };
    match format {
        Format::Human => {
            for (d, src) in all() {
                // A blank line after each report keeps consecutive diagnostics apart.
                let _ = writeln!(to.err, "{}", human(d, src, to.style));
            }
            if report.footer() {
                let diags: Vec<&Diagnostic> = all().map(|(d, _)| d).collect();
                let _ = write!(to.err, "{}", human::count_line(&diags, files.len()));
            }
            report.text(to.out);
        }
        Format::Json => report.json(all().map(|(d, src)| json(d, src)).collect(), to.out),
        Format::Github => {
            for (d, src) in all() {
                let _ = writeln!(to.out, "{}", github(d, src));
            }
            report.text(to.out);
        }
        Format::Sarif => {
            let _ = writeln!(to.out, "{}", sarif::log(all()));
        }
    }
}
