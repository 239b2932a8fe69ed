//! The JSON format (`--format json`): one object per diagnostic (SPEC §6), with its fixes when
//! it has any. `check` prints `{"diagnostics": [...]}`; `analyze` puts the same objects in its
//! report.

use super::position::position;
use crate::diagnostics::{Diagnostic, Label, SourceFile};
use serde_json::{Value, json};

/// The JSON object of one diagnostic (SPEC §6).
pub fn json(diag: &Diagnostic, src: &SourceFile) -> Value {
    let label_json = |l: &Label, primary: bool| {
        let (line, column, end_line, end_column) = position(src, l.span);
        json!({
            "message": l.message, "primary": primary,
            "line": line, "column": column, "end_line": end_line, "end_column": end_column,
        })
    };
    let pos = diag.primary.as_ref().map(|l| position(src, l.span));
    let labels: Vec<Value> = diag
        .primary
        .iter()
        .map(|l| label_json(l, true))
        .chain(diag.secondary.iter().map(|l| label_json(l, false)))
        .collect();
    let mut obj = json!({
        "code": diag.code.as_str(),
        "severity": diag.severity.as_str(),
        "message": diag.message,
        "file": src.name,
        "line": pos.map(|p| p.0),
        "column": pos.map(|p| p.1),
        "end_line": pos.map(|p| p.2),
        "end_column": pos.map(|p| p.3),
        "help": diag.help,
        "labels": labels,
    });
    // Beside the keys of SPEC §6, and only when there is a fix, so a diagnostic without one
    // renders as it always did.
    if !diag.fixes.is_empty() {
        obj["fixes"] = fixes_json(diag, src);
    }
    obj
}

/// The suggested edits of a diagnostic: each fix's message, applicability, and edits with
/// both byte offsets and line/column positions (columns count characters, end exclusive).
fn fixes_json(diag: &Diagnostic, src: &SourceFile) -> Value {
    let fixes: Vec<Value> = diag
        .fixes
        .iter()
        .map(|f| {
            let edits: Vec<Value> = f
                .edits
                .iter()
                .map(|e| {
                    let (line, column, end_line, end_column) = position(src, e.span);
                    json!({
                        "start": e.span.start, "end": e.span.end,
                        "line": line, "column": column,
                        "end_line": end_line, "end_column": end_column,
                        "replacement": e.replacement,
                    })
                })
                .collect();
            json!({
                "message": f.message,
                "applicability": f.applicability.as_str(),
                "edits": edits,
            })
        })
        .collect();
    Value::Array(fixes)
}
