//! A real editor: Debian's Neovim (0.7+), headless, with its built-in LSP client configured by
//! tests/nvim/session.lua to start `fgraph lsp`. The script opens a broken file, waits for the
//! diagnostics, hovers, applies a quick fix and records everything in a JSON file checked here.
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

#[test]
fn neovim_shows_diagnostics_hover_and_applies_a_fix() {
    if !nvim_available() {
        let required = std::env::var("FGRAPH_REQUIRE_NVIM").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "FGRAPH_REQUIRE_NVIM=1 but `nvim` is not on the PATH (apt-get install neovim)"
        );
        eprintln!("skipped: `nvim` is not installed (set FGRAPH_REQUIRE_NVIM=1 to require it)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("fgraph-nvim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("broken.fgraph");
    std::fs::write(&file, BROKEN).expect("fixture");
    let out = dir.join("report.json");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/nvim/session.lua");
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
