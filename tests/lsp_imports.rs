//! The language server follows the CLI's import rules (it runs the same pipeline under the
//! same `fgraph.toml`): an import found in a library folder and one from the standard library
//! resolve, and an import leading out of the project is `bad-import`, through `lsp::Server`.

use fgraph::lsp::Server;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// The diagnostics the server publishes for `uri` after opening it with `text`, asking for a
/// hover until they come (the server may publish them in a later batch).
fn open(server: &mut Server, uri: &str, text: &str) -> Vec<Value> {
    let mut batch = vec![json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "fgraph", "version": 1, "text": text}}})];
    let start = Instant::now();
    let mut id = 1;
    while start.elapsed() < Duration::from_secs(60) {
        id += 1;
        batch.push(
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}}),
        );
        let out = server.handle_batch(std::mem::take(&mut batch));
        if let Some(p) = out
            .messages
            .iter()
            .find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        {
            return p["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no diagnostics published for {uri}");
}

#[test]
fn library_folders_std_and_confinement_apply_in_the_language_server() {
    let dir = std::env::temp_dir().join(format!("fgraph-lsp-imports-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let proj = dir.join("proj");
    std::fs::create_dir_all(proj.join("vendor")).unwrap();
    std::fs::create_dir_all(proj.join("models")).unwrap();
    std::fs::write(dir.join("secret.fgraph"), "TOPSECRETTOKEN\n").unwrap();
    std::fs::write(
        proj.join("fgraph.toml"),
        "[imports]\npaths = [\"vendor\"]\n",
    )
    .unwrap();
    std::fs::write(
        proj.join("vendor/relu.fgraph"),
        "block r(S, H = 4096) {\n  dtype bf16\n  input x: [S, H]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n",
    )
    .unwrap();
    let mut server = Server::new();
    server.handle_batch(vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"processId": null,
            "rootUri": uri(&proj), "capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ]);
    let graph = "\ngraph model {\n  dtype bf16\n  input x: [16, 4096]\n  op t = r(x, S = 16) -> h\n  op f = ffn(h, S = 16) -> y\n  output y\n}\n";
    let good = proj.join("models/good.fgraph");
    let diags = open(
        &mut server,
        &uri(&good),
        &format!("import \"relu.fgraph\"\nimport \"std/llama.fgraph\"\n{graph}"),
    );
    assert!(diags.is_empty(), "{diags:#?}");
    // An escape and an unknown standard-library file are `bad-import`; the library-folder and
    // standard-library imports beside them resolve.
    let bad = proj.join("models/bad.fgraph");
    let text = format!(
        "import \"../../secret.fgraph\"\nimport \"std/nope.fgraph\"\nimport \"relu.fgraph\"\nimport \"std/llama.fgraph\"\n{graph}"
    );
    let diags = open(&mut server, &uri(&bad), &text);
    let messages: Vec<(&str, &str)> = diags
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        messages,
        [
            (
                "bad-import",
                "imports stay inside the project: `../../secret.fgraph` leads outside it"
            ),
            (
                "bad-import",
                "the standard library has no `std/nope.fgraph`"
            ),
        ],
        "{diags:#?}"
    );
    assert!(!format!("{diags:?}").contains("TOPSECRETTOKEN"));
    // Outside the project (no fgraph.toml above, so no library folder) `relu.fgraph` is not
    // found: the configuration is what found it above.
    let alone = dir.join("alone.fgraph");
    let diags = open(
        &mut server,
        &uri(&alone),
        &format!("import \"relu.fgraph\"\n{graph}"),
    );
    assert!(
        diags.iter().any(|d| d["code"] == "bad-import"
            && d["message"]
                .as_str()
                .unwrap()
                .starts_with("cannot read `relu.fgraph`")),
        "{diags:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
