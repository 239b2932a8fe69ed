//! The language server after a one-character edit in a 2,000-line file: the time from the
//! change reaching the server to its diagnostics being published (the document re-checked
//! with the fusion pass, the name index rebuilt, the diagnostics converted), and the time to
//! answer a hover (on a tensor: its kernel and why it is materialized or fused) and the
//! inlay hints of one screen after that edit.
//!
//!     cargo bench --bench lsp -- [LINES] [EDITS] [typo]     (default: 2000 200)
//!
//! The edit turns `relu` into `gelu` and back; with `typo` it types one character into a
//! tensor argument instead (`t999` → `t999x`) and deletes it again, so every other state has
//! an `undefined-tensor` error with its "did you mean" (no fusion plan then).
//!
//! In-process, through `Server::handle_batch` with its jobs run inline (`fgraph lsp` runs the
//! same analysis on a worker thread, off its message loop; framing, the pipe and the hand-over
//! between threads are not counted). Figures go into docs/PERFORMANCE.md.

use fgraph::lsp::Server;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const URI: &str = "file:///nonexistent-bench-dir/bench.fgraph";

/// A graph of `lines` lines: a chain of elementwise ops with a matmul every fourth op, and
/// every tenth op written with its type (the rest get inlay hints).
fn generate(lines: usize) -> String {
    let mut s = String::from(
        "graph bench {\n  param N = 1024\n  dtype f16\n  input t0: [N, N]\n  weight w: [N, N]\n",
    );
    let ops = lines.saturating_sub(6).max(1);
    for i in 1..=ops {
        let ty = if i % 10 == 0 { ": f16[N, N]" } else { "" };
        if i % 4 == 0 {
            s.push_str(&format!("  op o{i} = matmul(t{}, w) -> t{i}{ty}\n", i - 1));
        } else {
            s.push_str(&format!(
                "  op o{i} = elementwise.relu(t{}) -> t{i}{ty}\n",
                i - 1
            ));
        }
    }
    s.push_str("}\n");
    s
}

fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let p = |q: f64| v[((v.len() - 1) as f64 * q) as usize];
    format!(
        "median {:.2} ms, p95 {:.2} ms, max {:.2} ms (n = {})",
        ms(p(0.5)),
        ms(p(0.95)),
        ms(v[v.len() - 1]),
        v.len()
    )
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let typo = std::env::args().any(|a| a == "typo");
    let lines = args.first().copied().unwrap_or(2000);
    let edits = args.get(1).copied().unwrap_or(200);
    let text = generate(lines);
    let mut server = Server::new();
    server.handle_batch(vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
               {"uri": URI, "languageId": "fgraph", "version": 1, "text": text}}}),
    ]);
    let (mut publish, mut hover, mut inlay) = (Vec::new(), Vec::new(), Vec::new());
    let mid = lines / 2;
    for i in 0..edits {
        // One character changed in the middle of the file, alternating `relu` ↔ `gelu`, as
        // the editor sends it: the whole text (full-document sync).
        let line = format!(
            "  op o{m} = elementwise.relu(t{p}) -> t{m}",
            m = mid,
            p = mid - 1
        );
        let edited = if typo {
            line.replace(&format!("(t{})", mid - 1), &format!("(t{}x)", mid - 1))
        } else {
            line.replace("relu", "gelu")
        };
        let replaced = if i % 2 == 0 {
            text.replacen(&line, &edited, 1)
        } else {
            text.clone()
        };
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": i + 2}, "contentChanges": [{"text": replaced}]}});
        let t = Instant::now();
        let out = server.handle_batch(vec![change]);
        publish.push(t.elapsed());
        assert!(
            out.messages
                .iter()
                .any(|m| m["method"] == "textDocument/publishDiagnostics")
        );

        let req = json!({"jsonrpc": "2.0", "id": i + 1, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": URI}, "position": {"line": mid + 4, "character": 34}}});
        let t = Instant::now();
        let out = server.handle_batch(vec![req]);
        hover.push(t.elapsed());
        let v: &Value = &out.messages[0]["result"]["contents"]["value"];
        assert!(
            v.as_str().is_some_and(|s| s.contains("kernel")) || typo,
            "{v}"
        );

        let req = json!({"jsonrpc": "2.0", "id": i + 1, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": URI},
            "range": {"start": {"line": mid, "character": 0}, "end": {"line": mid + 60, "character": 0}}}});
        let t = Instant::now();
        let out = server.handle_batch(vec![req]);
        inlay.push(t.elapsed());
        assert!(out.messages[0]["result"].is_array());
    }
    let what = if typo {
        "a typo in and out"
    } else {
        "relu ↔ gelu"
    };
    println!(
        "{lines}-line file ({} bytes), {edits} one-character edits ({what})",
        text.len()
    );
    println!("edit → diagnostics published: {}", stats(publish));
    println!("hover after the edit:         {}", stats(hover));
    println!("inlay hints (60 lines):       {}", stats(inlay));
}
