//! The language server's document state under random edit sequences: a document is opened,
//! then edited (ranged changes at arbitrary, often invalid, positions, and whole-text
//! replacements) with requests of every kind in between, at arbitrary positions, in UTF-8 or
//! UTF-16, plus raw messages that may be anything. The server must answer every request
//! (a result or a JSON-RPC error) and never panic.

#![no_main]

use arbitrary::Arbitrary;
use fgraph::lsp::Server;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

#[derive(Arbitrary, Debug)]
enum Step {
    Change {
        sl: u8,
        sc: u8,
        el: u8,
        ec: u8,
        text: String,
    },
    Replace(String),
    Hover(u8, u8),
    Definition(u8, u8),
    References(u8, u8),
    Rename(u8, u8, String),
    CodeAction(u8, u8, u8, u8),
    InlayHint(u8, u8, u8, u8),
    Symbols,
    Format,
    Raw(String),
    Cancel(u8),
}

#[derive(Arbitrary, Debug)]
struct Session {
    utf8: bool,
    text: String,
    steps: Vec<Step>,
}

const URI: &str = "file:///fuzz/doc.fgraph";

fn pos(l: u8, c: u8) -> Value {
    json!({"line": l, "character": c})
}

fuzz_target!(|s: Session| {
    let mut server = Server::new();
    let encodings = if s.utf8 {
        json!(["utf-8"])
    } else {
        json!(["utf-16"])
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"processId": null, "rootUri": null,
                   "capabilities": {"general": {"positionEncodings": encodings}}}});
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": URI, "languageId": "fgraph", "version": 1, "text": s.text}}});
    server.handle_batch(vec![init, open]);
    let doc = json!({"uri": URI});
    let mut version = 1;
    for (i, step) in s.steps.into_iter().take(64).enumerate() {
        let id = i as i64 + 1;
        let req = |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        version += 1;
        let msg = match step {
            Step::Change {
                sl,
                sc,
                el,
                ec,
                text,
            } => json!({"jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": URI, "version": version},
                           "contentChanges": [{"range": {"start": pos(sl, sc), "end": pos(el, ec)}, "text": text}]}}),
            Step::Replace(text) => json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": URI, "version": version},
                           "contentChanges": [{"text": text}]}}),
            Step::Hover(l, c) => req(
                "textDocument/hover",
                json!({"textDocument": doc, "position": pos(l, c)}),
            ),
            Step::Definition(l, c) => req(
                "textDocument/definition",
                json!({"textDocument": doc, "position": pos(l, c)}),
            ),
            Step::References(l, c) => req(
                "textDocument/references",
                json!({"textDocument": doc, "position": pos(l, c), "context": {"includeDeclaration": true}}),
            ),
            Step::Rename(l, c, name) => req(
                "textDocument/rename",
                json!({"textDocument": doc, "position": pos(l, c), "newName": name}),
            ),
            Step::CodeAction(a, b, c, d) => req(
                "textDocument/codeAction",
                json!({"textDocument": doc, "range": {"start": pos(a, b), "end": pos(c, d)}, "context": {"diagnostics": []}}),
            ),
            Step::InlayHint(a, b, c, d) => req(
                "textDocument/inlayHint",
                json!({"textDocument": doc, "range": {"start": pos(a, b), "end": pos(c, d)}}),
            ),
            Step::Symbols => req("textDocument/documentSymbol", json!({"textDocument": doc})),
            Step::Format => req(
                "textDocument/formatting",
                json!({"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": true}}),
            ),
            Step::Raw(text) => match serde_json::from_str::<Value>(&text) {
                Ok(v) => v,
                Err(_) => continue,
            },
            Step::Cancel(n) => {
                json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": n}})
            }
        };
        let is_request = msg.get("id").is_some() && msg.get("method").is_some();
        let out = server.handle_batch(vec![msg]);
        if is_request {
            // Every request gets exactly one response with its id.
            let answered = out.messages.iter().any(|m| {
                m.get("method").is_none() && (m.get("result").is_some() || m.get("error").is_some())
            });
            assert!(answered || out.exit.is_some());
        }
    }
});
