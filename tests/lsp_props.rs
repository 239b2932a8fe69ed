//! The language server's document state under random edits (the fuzz target `lsp` does the
//! same at length): every request after every edit is answered, and the server's text stays
//! what the edits make of it.

use fgraph::lsp::Server;
use proptest::prelude::*;
use serde_json::{Value, json};

const URI: &str = "file:///nonexistent-dir/doc.fgraph";
const START: &str = include_str!("../examples/attention.fgraph");
const SNIPPETS: &[&str] = &[
    "",
    "x",
    "é",
    "𝕏",
    "\n",
    "\r\n",
    "->",
    "op c = elementwise.relu(x) -> q\n",
    "[",
    "]",
    "}",
    "graph h {\n",
    "// fgraph: allow(unused-tensor)\n",
    "f16[4, 4]",
    "param p = 3\n",
];

fn pos(l: u32, c: u32) -> Value {
    json!({"line": l, "character": c})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn random_edits_never_break_the_server(
        utf8 in any::<bool>(),
        edits in prop::collection::vec((0u32..40, 0u32..90, 0u32..3, 0u32..10, 0usize..SNIPPETS.len()), 1..12),
    ) {
        let mut server = Server::new();
        let enc = if utf8 { "utf-8" } else { "utf-16" };
        server.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"processId": null,
                "rootUri": null, "capabilities": {"general": {"positionEncodings": [enc]}}}}),
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
                {"uri": URI, "languageId": "fgraph", "version": 1, "text": START}}}),
        ]);
        for (i, &(line, ch, dl, dc, snip)) in edits.iter().enumerate() {
            let id = i as i64 * 10 + 1;
            let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": URI, "version": i + 2},
                "contentChanges": [{"range": {"start": pos(line, ch), "end": pos(line + dl, ch + dc)},
                                    "text": SNIPPETS[snip]}]}});
            let doc = json!({"uri": URI});
            let requests = vec![
                json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                       "params": {"textDocument": doc, "position": pos(line, ch)}}),
                json!({"jsonrpc": "2.0", "id": id + 1, "method": "textDocument/inlayHint",
                       "params": {"textDocument": doc, "range": {"start": pos(0, 0), "end": pos(99, 0)}}}),
                json!({"jsonrpc": "2.0", "id": id + 2, "method": "textDocument/codeAction",
                       "params": {"textDocument": doc, "range": {"start": pos(0, 0), "end": pos(99, 0)},
                                  "context": {"diagnostics": []}}}),
                json!({"jsonrpc": "2.0", "id": id + 3, "method": "textDocument/rename",
                       "params": {"textDocument": doc, "position": pos(line, ch), "newName": "renamed"}}),
                json!({"jsonrpc": "2.0", "id": id + 4, "method": "textDocument/documentSymbol",
                       "params": {"textDocument": doc}}),
                json!({"jsonrpc": "2.0", "id": id + 5, "method": "textDocument/formatting",
                       "params": {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": true}}}),
            ];
            let mut batch = vec![change];
            batch.extend(requests);
            let out = server.handle_batch(batch);
            let responses: Vec<&Value> = out.messages.iter().filter(|m| m.get("method").is_none()).collect();
            prop_assert_eq!(responses.len(), 6);
            prop_assert!(responses.iter().all(|r| r.get("result").is_some() || r["error"]["code"] == -32803));
            let published = out.messages.iter()
                .filter(|m| m["method"] == "textDocument/publishDiagnostics").count();
            prop_assert_eq!(published, 1, "one publish per batch with a change");
        }
    }
}
