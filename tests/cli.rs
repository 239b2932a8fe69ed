//! The binary end to end: exit codes (SPEC §6), formats, usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fgraph(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed by a signal")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

const WARN: &str =
    "graph g {\n  input x: [4]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n}\n";

#[test]
fn clean_file_exits_0() {
    let o = fgraph(&["check", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("All checks passed"));
}

#[test]
fn errors_exit_1() {
    let o = fgraph(&[
        "check",
        "tests/fixtures/diagnostics/undefined-tensor.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("fgraph::undefined-tensor"));
}

#[test]
fn warnings_exit_0_unless_denied() {
    let f = temp_file("warn.fgraph", WARN);
    let f = f.to_str().expect("utf-8 path");
    assert_eq!(code(&fgraph(&["check", f])), 0);
    assert_eq!(code(&fgraph(&["check", "--deny-warnings", f])), 1);
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--deny-warnings",
            "--allow",
            "unused-tensor",
            f
        ])),
        0
    );
}

#[test]
fn unreadable_file_exits_2_and_wins_over_1() {
    let o = fgraph(&["check", "no/such/file.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot read"));
    let o = fgraph(&[
        "check",
        "tests/fixtures/diagnostics/cycle.fgraph",
        "no/such/file.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("fgraph::cycle"),
        "the readable file is still checked"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&fgraph(&[])), 2);
    assert_eq!(code(&fgraph(&["check"])), 2);
    assert_eq!(code(&fgraph(&["frobnicate"])), 2);
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--format",
            "xml",
            "examples/seed_mlp.fgraph"
        ])),
        2
    );
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--set",
            "M",
            "examples/seed_mlp.fgraph"
        ])),
        2
    );
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--set",
            "M=x",
            "examples/seed_mlp.fgraph"
        ])),
        2
    );
    assert_eq!(code(&fgraph(&["explain", "no-such-code"])), 2);
    assert_eq!(code(&fgraph(&["--help"])), 0);
}

#[test]
fn set_overrides_params_and_unknown_names_are_usage_errors() {
    let o = fgraph(&["check", "--set", "NOPE=3", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("unknown param `NOPE`"),
        "{}",
        stderr(&o)
    );

    let o = fgraph(&["check", "--set", "M=0", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("fgraph::invalid-shape"));

    let o = fgraph(&[
        "analyze",
        "--format",
        "json",
        "--set",
        "M=2048",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["ops"][0]["shape"][0], 2048);
}

#[test]
fn allow_rejects_unknown_codes_and_errors() {
    let o = fgraph(&[
        "check",
        "--allow",
        "unused-tensr",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    let o = fgraph(&["check", "--allow", "cycle", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("only warnings can be silenced"));
}

#[test]
fn check_json_holds_all_files() {
    let o = fgraph(&[
        "check",
        "--format",
        "json",
        "tests/fixtures/diagnostics/cycle.fgraph",
        "tests/fixtures/diagnostics/unused-tensor.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let diags = v["diagnostics"].as_array().expect("array");
    let codes: Vec<&str> = diags
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["cycle", "unused-tensor"]);
    for d in diags {
        for key in [
            "severity",
            "message",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "help",
            "labels",
        ] {
            assert!(d.get(key).is_some(), "missing {key}");
        }
    }
}

#[test]
fn analyze_json_has_the_spec_keys_and_the_seed_numbers() {
    let o = fgraph(&["analyze", "--format", "json", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    for key in [
        "graph",
        "ops",
        "groups",
        "boundaries",
        "traffic",
        "savings_pct",
        "diagnostics",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let groups: Vec<Vec<&str>> = v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            g["ops"]
                .as_array()
                .expect("ops")
                .iter()
                .map(|o| o.as_str().expect("name"))
                .collect()
        })
        .collect();
    assert_eq!(groups, [vec!["matmul1", "bias1", "relu"], vec!["matmul2"]]);
    assert_eq!(v["traffic"]["unfused"]["bytes_read"], 75_505_664);
    assert_eq!(v["traffic"]["unfused"]["bytes_written"], 27_262_976);
    assert_eq!(v["traffic"]["fused"]["bytes_read"], 58_728_448);
    assert_eq!(v["traffic"]["fused"]["bytes_written"], 10_485_760);
    assert_eq!(v["traffic"]["fused"]["saved_by_fusion"], 33_554_432);
    assert_eq!(v["traffic"]["unfused"]["saved_by_fusion"], 0);
    assert_eq!(v["boundaries"][0]["reason"], "matmul-starts-group");
    let op = &v["ops"][0];
    for key in [
        "name", "kind", "func", "inputs", "output", "shape", "dtype", "bytes",
    ] {
        assert!(op.get(key).is_some(), "op missing {key}");
    }
}

#[test]
fn analyze_with_errors_prints_nulls_and_exits_1() {
    let o = fgraph(&[
        "analyze",
        "--format",
        "json",
        "tests/fixtures/diagnostics/cycle.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(v["groups"].is_null() && v["boundaries"].is_null() && v["traffic"].is_null());
    assert_eq!(v["diagnostics"][0]["code"], "cycle");
}

#[test]
fn analyze_needs_graph_when_a_file_has_several() {
    let f = temp_file(
        "two.fgraph",
        "graph a {\n  input x: [4]\n  op r = elementwise.relu(x) -> y\n}\n\ngraph b {\n  input x: [8]\n  op r = elementwise.relu(x) -> y\n}\n",
    );
    let f = f.to_str().expect("utf-8 path");
    let o = fgraph(&["analyze", f]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("graphs: a, b"), "{}", stderr(&o));
    let o = fgraph(&["analyze", "--graph", "b", "--format", "json", f]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["graph"], "b");
    assert_eq!(v["ops"][0]["bytes"], 32);
    assert_eq!(code(&fgraph(&["analyze", "--graph", "c", f])), 2);
    assert_eq!(code(&fgraph(&["check", f])), 0, "check checks every graph");
}

#[test]
fn human_analyze_report_lists_kernels_traffic_and_boundaries() {
    let o = fgraph(&["analyze", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("kernel 1  matmul1 → bias1 → relu"), "{out}");
    assert!(out.contains("75,505,664"));
    assert!(out.contains("33,554,432 B"));
    assert!(out.contains("[matmul-starts-group]"));
    assert!(!out.contains('\u{1b}'), "no colour when not on a terminal");
}

#[test]
fn transformer_command() {
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["ops"].as_array().expect("ops").len(), 14);
    assert_eq!(v["groups"].as_array().expect("groups").len(), 9);

    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "3",
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("fgraph::inexact-division"),
        "{}",
        stderr(&o)
    );
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "0",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
    ]);
    assert_eq!(code(&o), 1);
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
        "--dtype",
        "f13",
    ]);
    assert_eq!(code(&o), 2);
}

#[test]
fn transformer_emit_round_trips_through_analyze() {
    let args = [
        "transformer",
        "--seq-len",
        "512",
        "--hidden-dim",
        "1024",
        "--num-heads",
        "8",
        "--dtype",
        "bf16",
    ];
    let emitted = fgraph(&[&args[..], &["--emit"]].concat());
    assert_eq!(code(&emitted), 0);
    let f = temp_file("block.fgraph", &stdout(&emitted));
    let direct = fgraph(&[&args[..], &["--format", "json"]].concat());
    let via_file = fgraph(&["analyze", "--format", "json", f.to_str().expect("utf-8")]);
    let a: serde_json::Value = serde_json::from_str(&stdout(&direct)).expect("json");
    let b: serde_json::Value = serde_json::from_str(&stdout(&via_file)).expect("json");
    for key in ["ops", "groups", "boundaries", "traffic", "savings_pct"] {
        assert_eq!(a[key], b[key], "{key} differs");
    }
}

#[test]
fn explain_prints_the_text() {
    let o = fgraph(&["explain", "undefined-tensor"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("# undefined-tensor"));
    let o = fgraph(&["explain", "fgraph::materialized"]);
    assert_eq!(code(&o), 0);
}

#[test]
fn github_format_emits_workflow_commands() {
    let o = fgraph(&[
        "check",
        "--format",
        "github",
        "tests/fixtures/diagnostics/undefined-tensor.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "::error file=tests/fixtures/diagnostics/undefined-tensor.fgraph,line=13,col=36"
        ),
        "{out}"
    );
}

#[test]
fn every_example_runs_through_analyze() {
    for entry in std::fs::read_dir(root().join("examples")).expect("examples") {
        let p = entry.expect("entry").path();
        let rel = p
            .strip_prefix(root())
            .unwrap_or(Path::new(""))
            .to_string_lossy()
            .into_owned();
        let o = fgraph(&["analyze", "--deny-warnings", &rel]);
        assert_eq!(code(&o), 0, "{rel}: {}", stderr(&o));
    }
}
