//! `fgraph fmt` and `--format sarif` through the binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn fgraph(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph")
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-fmt-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

const MESSY: &str = "graph g{input x:[4]   // the input\n\n\n\n  op a=elementwise.relu(x)->y}";
const TIDY: &str =
    "graph g {\n  input x: [4] // the input\n\n  op a = elementwise.relu(x) -> y\n}\n";

#[test]
fn fmt_rewrites_in_place_and_check_reports() {
    let dir = temp_dir("rewrite");
    let f = dir.join("messy.fgraph");
    std::fs::write(&f, MESSY).expect("write");
    let path = f.to_str().expect("utf-8");

    let o = fgraph(&["fmt", "--check", path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("would reformat"));
    assert_eq!(
        std::fs::read_to_string(&f).expect("read"),
        MESSY,
        "--check changes nothing"
    );

    let o = fgraph(&["fmt", path]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&f).expect("read"), TIDY);
    assert_eq!(fgraph(&["fmt", "--check", path]).status.code(), Some(0));
    // No temporary files are left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn fmt_leaves_broken_files_alone() {
    let dir = temp_dir("broken");
    let f = dir.join("broken.fgraph");
    let broken = "graph g {\n  op a = elementwise.relu(x) y\n}\n";
    std::fs::write(&f, broken).expect("write");
    let o = fgraph(&["fmt", f.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("fgraph::syntax-error"));
    assert_eq!(std::fs::read_to_string(&f).expect("read"), broken);
    assert_eq!(
        fgraph(&["fmt", "no/such/file.fgraph"]).status.code(),
        Some(2)
    );
}

#[test]
fn shipped_examples_are_formatted() {
    let o = fgraph(&[
        "fmt",
        "--check",
        "examples/seed_mlp.fgraph",
        "examples/transformer_block.fgraph",
        "examples/attention.fgraph",
        "examples/swiglu_mlp.fgraph",
        "examples/layernorm_gelu.fgraph",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn sarif_output_is_one_log_for_all_files() {
    let o = fgraph(&[
        "check",
        "--format",
        "sarif",
        "tests/fixtures/diagnostics/cycle.fgraph",
        "tests/fixtures/diagnostics/unused-tensor.fgraph",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().expect("results");
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["cycle", "unused-tensor"]);
    assert_eq!(results[1]["level"], "warning");
    let uri = &results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    assert_eq!(uri, "tests/fixtures/diagnostics/cycle.fgraph");

    let o = fgraph(&["analyze", "--format", "sarif", "examples/seed_mlp.fgraph"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["runs"][0]["results"].as_array().map(Vec::len), Some(0));
}
