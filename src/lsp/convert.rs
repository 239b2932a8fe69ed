//! Conversions between fgraph's data and the protocol's: byte spans to ranges, diagnostics
//! (`lsp_diagnostic`, through the diagnostics' LSP renderer `diagnostics::render::lsp`) and
//! the note on a document under an invalid configuration, fixes to code actions, the index
//! to document symbols, `file:` URIs to paths and back, and content changes to edits of a
//! [`Document`]. Protocol values are built as JSON; `super::server` puts them into replies and
//! notifications.

use super::document::{Document, Encoding, Pos};
use super::ide::{self, FileModel, SymbolKind};
use crate::diagnostics::render::lsp::{self, explain_url};
use crate::diagnostics::{Diagnostic, Fix, Span};
use serde_json::{Value, json};
use std::path::PathBuf;

pub(super) fn range_json(doc: &Document, span: Span, enc: Encoding) -> Value {
    let (s, e) = doc.range(span, enc);
    json!({
        "start": { "line": s.line, "character": s.character },
        "end": { "line": e.line, "character": e.character },
    })
}

/// One diagnostic as the protocol's ([`lsp::lsp`], the diagnostics' LSP renderer), with
/// ranges in `doc` under the negotiated encoding.
pub(super) fn lsp_diagnostic(d: &Diagnostic, doc: &Document, uri: &str, enc: Encoding) -> Value {
    lsp::lsp(d, uri, &|span| range_json(doc, span, enc))
}

/// On each document under an invalid configuration: one error at its start, pointing into
/// the configuration file.
pub(super) fn model_config_note(model: &FileModel, doc: &Document, enc: Encoding) -> Option<Value> {
    let ide::ConfigNote {
        uri: cfg_uri,
        message,
        range: cfg_range,
    } = model.config_error.as_ref()?;
    Some(json!({
        "range": range_json(doc, Span::new(0, 0), enc),
        "severity": 1,
        "code": "invalid-config",
        "codeDescription": { "href": explain_url("invalid-config") },
        "source": "fgraph",
        "message": format!("the configuration is invalid, so defaults apply: {message}"),
        "relatedInformation": [{
            "location": { "uri": cfg_uri, "range": cfg_range.clone().unwrap_or(json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}})) },
            "message": message,
        }],
    }))
}

pub(super) fn code_action(
    fix: &Fix,
    diag: Option<&Diagnostic>,
    kind: &str,
    doc: &Document,
    uri: &str,
    enc: Encoding,
) -> Value {
    let edits: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| json!({ "range": range_json(doc, e.span, enc), "newText": e.replacement }))
        .collect();
    let mut v = json!({
        "title": fix.message,
        "kind": kind,
        "isPreferred": fix.applicability == crate::diagnostics::Applicability::Safe,
        "edit": { "changes": { uri: edits } },
    });
    if let Some(d) = diag {
        v["diagnostics"] = json!([lsp_diagnostic(d, doc, uri, enc)]);
    }
    v
}

pub(super) fn document_symbols(model: &FileModel, doc: &Document, enc: Encoding) -> Value {
    // LSP SymbolKind numbers: Namespace 3, Function 12, Variable 13, Constant 14.
    let lsp_kind = |k: SymbolKind| match k {
        SymbolKind::Graph => 3,
        SymbolKind::Op => 12,
        SymbolKind::Tensor => 13,
        SymbolKind::Param => 14,
    };
    let syms = &model.index.symbols;
    let mut out = Vec::new();
    for g in syms.iter().filter(|s| s.kind == SymbolKind::Graph) {
        let (Some(def), Some(stmt)) = (g.def, g.def_stmt) else {
            continue;
        };
        let children: Vec<Value> = syms
            .iter()
            .filter(|s| s.kind != SymbolKind::Graph && s.graph == g.graph)
            .filter_map(|s| {
                let (d, st) = (s.def?, s.def_stmt?);
                Some(json!({
                    "name": s.name,
                    "detail": s.detail,
                    "kind": lsp_kind(s.kind),
                    "range": range_json(doc, st, enc),
                    "selectionRange": range_json(doc, d, enc),
                }))
            })
            .collect();
        out.push(json!({
            "name": g.name,
            "detail": "graph",
            "kind": lsp_kind(SymbolKind::Graph),
            "range": range_json(doc, stmt, enc),
            "selectionRange": range_json(doc, def, enc),
            "children": children,
        }));
    }
    Value::Array(out)
}

/// The local path of a `file:` URI, percent-decoded.
pub(super) fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(h, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let path = String::from_utf8(out).ok()?;
    Some(PathBuf::from(path))
}

pub(super) fn file_uri(path: &std::path::Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                s.push(b as char)
            }
            _ => s += &format!("%{b:02X}"),
        }
    }
    s
}

pub(super) fn apply_changes(
    doc: &mut Document,
    changes: Vec<lsp_types::TextDocumentContentChangeEvent>,
    version: i32,
    enc: Encoding,
) {
    for c in changes {
        match c.range {
            None => doc.replace(c.text, version),
            Some(r) => doc.edit(
                Pos {
                    line: r.start.line,
                    character: r.start.character,
                },
                Pos {
                    line: r.end.line,
                    character: r.end.character,
                },
                &c.text,
                version,
                enc,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip() {
        let p = std::path::Path::new("/tmp/a b/é.fgraph");
        assert_eq!(uri_path(&file_uri(p)).as_deref(), Some(p));
    }
}
