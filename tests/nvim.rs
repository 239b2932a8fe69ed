//! A real editor: Debian's Neovim (0.7+), headless, with its built-in LSP client configured by
//! tests/nvim/session.lua to start `fgraph lsp`. The script opens a broken file, waits for the
//! diagnostics, hovers, applies a quick fix and records everything in a JSON file checked here.
//! tests/nvim/semantic.lua asks for the file's semantic tokens, and on Neovim 0.9+ reads them
//! back from Neovim's own highlighter.
//!
//! Without `nvim` on the PATH the test is skipped with a message, unless
//! `FGRAPH_REQUIRE_NVIM=1` (set by `.ci/run`), where a missing Neovim fails it.

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BROKEN: &str = "graph g {\n  // 𝕏 comment: wörld\n  param hidden = 64\n  input x: f16[4, hidden]\n  input spare: f16[4]\n  op a = elementwise.relu(x) -> y\n  op b = elementwise.gelu(yy) -> z\n  output z\n}\n";

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether to skip: no `nvim`, and not required.
fn skip() -> bool {
    if nvim_available() {
        return false;
    }
    let required = std::env::var("FGRAPH_REQUIRE_NVIM").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "FGRAPH_REQUIRE_NVIM=1 but `nvim` is not on the PATH (apt-get install neovim)"
    );
    eprintln!("skipped: `nvim` is not installed (set FGRAPH_REQUIRE_NVIM=1 to require it)");
    true
}

/// Runs tests/nvim/SCRIPT.lua in a headless Neovim on a file `name` holding `text`, in a
/// fresh temporary folder; returns the folder and the JSON report the script wrote.
fn run_session(script: &str, name: &str, text: &str) -> (std::path::PathBuf, Value) {
    let dir = std::env::temp_dir().join(format!("fgraph-nvim-{script}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, text).expect("fixture");
    let out = dir.join("report.json");
    let script = format!("{}/tests/nvim/{script}.lua", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {script}"))
        .env("FGRAPH_BIN", env!("CARGO_BIN_EXE_fgraph"))
        .env("FGRAPH_NVIM_FILE", &file)
        .env("FGRAPH_NVIM_OUT", &out)
        .env("XDG_STATE_HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .env("XDG_CACHE_HOME", &dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start nvim");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("nvim did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out).expect("nvim wrote its report");
    let r: Value = serde_json::from_str(&text).expect("json report");
    (dir, r)
}

#[test]
fn neovim_shows_diagnostics_hover_and_applies_a_fix() {
    if skip() {
        return;
    }
    let (dir, r) = run_session("session", "broken.fgraph", BROKEN);
    assert!(r.get("error").is_none(), "the script failed: {r}");
    assert_eq!(r["client_started"], true, "{r}");
    assert_eq!(r["got_diagnostics"], true, "{r}");
    let diags = r["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), 2, "{r}");
    // vim.diagnostic severities: 1 error, 2 warning; lines and columns 0-based.
    assert_eq!(
        diags[0]["message"],
        "tensor `spare` is declared but never used"
    );
    assert_eq!(diags[0]["severity"], 2);
    assert_eq!(
        (diags[0]["lnum"].as_u64(), diags[0]["col"].as_u64()),
        (Some(4), Some(8))
    );
    assert_eq!(diags[1]["message"], "undefined tensor `yy`");
    assert_eq!(diags[1]["severity"], 1);
    assert_eq!(diags[1]["code"], "undefined-tensor");
    assert_eq!(diags[1]["source"], "fgraph");
    assert_eq!(
        (diags[1]["lnum"].as_u64(), diags[1]["col"].as_u64()),
        (Some(6), Some(26))
    );
    assert_eq!(r["hover"], "**param** `hidden` = 64", "{r}");
    assert_eq!(r["applied"], "replace `yy` with `y`", "{r}");
    assert_eq!(r["line_after_fix"], "  op b = elementwise.gelu(y) -> z");
    assert_eq!(r["fixed"], true, "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}

const COLOURED: &str = "graph g {\n  param hidden = 64\n  input x: f16[4, hidden]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n";

/// Neovim receives the server's semantic tokens and reads them with the legend the server
/// advertised; on Neovim 0.9 and later its own highlighter (`vim.lsp.semantic_tokens`)
/// holds them at the positions of the names.
#[test]
fn neovim_receives_semantic_tokens() {
    if skip() {
        return;
    }
    let (dir, r) = run_session("semantic", "coloured.fgraph", COLOURED);
    assert!(r.get("error").is_none(), "the script failed: {r}");
    assert_eq!(r["initialized"], true, "{r}");
    assert_eq!(
        (&r["full"], &r["range"]),
        (&Value::Bool(true), &Value::Bool(true))
    );
    assert!(r.get("request_error").is_none(), "{r}");
    let tokens: Vec<(String, String)> = r["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap_or_default().to_string();
            (s("text"), s("type"))
        })
        .collect();
    let want = [
        ("graph", "keyword"),
        ("g", "namespace"),
        ("param", "keyword"),
        ("hidden", "parameter"),
        ("64", "number"),
        ("input", "keyword"),
        ("x", "variable"),
        ("f16", "type"),
        ("4", "number"),
        ("hidden", "parameter"),
        ("op", "keyword"),
        ("a", "function"),
        ("elementwise", "enum"),
        ("relu", "method"),
        ("x", "variable"),
        ("->", "operator"),
        ("y", "variable"),
        ("output", "keyword"),
        ("y", "variable"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(tokens, want, "{r}");
    // Neovim 0.9+: the editor's highlighter took the tokens in.
    if r["nvim"].as_str() != Some("0.7") && r["nvim"].as_str() != Some("0.8") {
        assert_eq!(r["highlighter"], true, "{r}");
        let probes: Vec<&str> = r["probes"]
            .as_array()
            .expect("probes")
            .iter()
            .map(|p| p["type"].as_str().unwrap_or("none"))
            .collect();
        assert_eq!(
            probes,
            [
                "namespace",
                "parameter",
                "function",
                "enum",
                "method",
                "variable"
            ],
            "{r}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
