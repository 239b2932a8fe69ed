//! The GitHub format (`--format github`): one Actions workflow command per diagnostic, which
//! the Actions UI shows as an annotation on the pull request's lines.

use super::position::position;
use crate::diagnostics::{Diagnostic, Severity, SourceFile};

/// A GitHub Actions workflow command, which the Actions UI shows as an annotation.
pub fn github(diag: &Diagnostic, src: &SourceFile) -> String {
    fn escape_data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn escape_prop(s: &str) -> String {
        escape_data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let kind = match diag.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut props = format!("file={}", escape_prop(&src.name));
    if let Some(l) = &diag.primary {
        let (line, col, end_line, end_col) = position(src, l.span);
        props += &format!(",line={line},col={col},endLine={end_line},endColumn={end_col}");
    }
    props += &format!(",title={}", escape_prop(&format!("fgraph::{}", diag.code)));
    let mut msg = diag.message.clone();
    if let Some(h) = &diag.help {
        msg += &format!("\nhelp: {h}");
    }
    format!("::{kind} {props}::{}", escape_data(&msg))
}
