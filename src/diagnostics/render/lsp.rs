//! The language server's rendering of a diagnostic: the protocol's `Diagnostic` object (as
//! JSON) with the CLI's code, message and severity, the secondary labels and the help as
//! related information, and a link to the code's explain text. Positions are the server's
//! business (they depend on the document and the negotiated encoding), so the caller passes
//! a function from a span to a protocol range.

use crate::diagnostics::{Diagnostic, Severity, Span};
use serde_json::{Value, json};

/// The rule documentation a diagnostic's `codeDescription` links to: the explain texts of
/// this build's source tree (also printed by `fgraph explain CODE`).
pub fn explain_url(code: &str) -> String {
    format!(
        "file://{}/src/explain/{code}.md",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// One diagnostic as the protocol's, in document `uri`; `range` turns a span into a
/// protocol range.
pub fn lsp(d: &Diagnostic, uri: &str, range: &dyn Fn(Span) -> Value) -> Value {
    let primary = d.primary.as_ref().map_or(Span::default(), |l| l.span);
    let mut related: Vec<Value> = d
        .secondary
        .iter()
        .map(|l| {
            json!({
                "location": { "uri": uri, "range": range(l.span) },
                "message": l.message,
            })
        })
        .collect();
    if let Some(h) = &d.help {
        related.push(json!({
            "location": { "uri": uri, "range": range(primary) },
            "message": format!("help: {h}"),
        }));
    }
    let mut v = json!({
        "range": range(primary),
        "severity": match d.severity { Severity::Error => 1, Severity::Warning => 2 },
        "code": d.code.as_str(),
        "codeDescription": { "href": explain_url(d.code.as_str()) },
        "source": "fgraph",
        "message": d.message,
    });
    if !related.is_empty() {
        v["relatedInformation"] = Value::Array(related);
    }
    v
}
