//! What the CLI test files share: running the binary from the repository root (colour off)
//! and reading what it printed, and checking a calibration batch's committed predictions
//! against the binary. Each test file uses some of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root. `FGRAPH_TEST_ROOT` overrides it: `.ci/run` copies what the
/// write and hostile-corpus tests need to a folder an unprivileged user can read, and runs
/// them there as that user.
pub fn root() -> PathBuf {
    std::env::var_os("FGRAPH_TEST_ROOT")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// The `fgraph` binary under test (`FGRAPH_TEST_BIN` overrides it, as [`root`]).
pub fn bin() -> PathBuf {
    std::env::var_os("FGRAPH_TEST_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_fgraph")),
        PathBuf::from,
    )
}

pub fn fgraph(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph")
}

/// `fgraph analyze FILE --traffic-model hardware --hardware h100 --format json`, its JSON (the
/// calibration tests' common call); panics unless it exits 0.
pub fn analyze_h100_json(file: &std::path::Path) -> serde_json::Value {
    let path = file.to_str().expect("a UTF-8 path");
    let out = fgraph(&[
        "analyze",
        path,
        "--traffic-model",
        "hardware",
        "--hardware",
        "h100",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{path}: {}", stdout(&out));
    serde_json::from_str(&stdout(&out)).expect("JSON")
}

pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed by a signal")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `text` written to `name` in a directory of this test process (`tag` names the suite).
pub fn temp_file_in(tag: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

/// `fgraph ARGS` with `input` on its standard input.
pub fn fgraph_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run fgraph");
    // A child that stops reading early closes the pipe: what it printed is still the
    // result to check, so a broken pipe here is not the test's failure.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

/// The binary run in `dir` (colour off).
pub fn fgraph_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph")
}

/// A fresh, empty folder for one test: `fgraph-TAG-PID` in the system's temporary folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The cases of a calibration batch's predictions file (`rel`, under the repository).
pub fn prediction_cases(rel: &str) -> Vec<serde_json::Value> {
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(rel)).expect("predictions"))
            .expect("JSON");
    p["cases"].as_array().expect("cases").clone()
}

/// A held-out calibration batch (`dir`: its predictions in `predictions_X.json` beside
/// `cases.json`, each case's `.fgraph` text kept with its prediction): every listed case is
/// predicted, in order, and the binary now gives the committed DRAM reads and kernel time, or
/// those of `refit` (a later refit's file of the same cases) where it holds the case.
pub fn check_batch_predictions(dir: &str, file: &str, n: usize, refit: &[serde_json::Value]) {
    let cases = prediction_cases(&format!("{dir}/{file}"));
    let listed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join(dir).join("cases.json")).expect("cases"),
    )
    .expect("JSON");
    let listed = listed.as_array().expect("cases");
    assert_eq!(cases.len(), n, "every case of {dir} is predicted");
    assert_eq!(cases.len(), listed.len());
    let tmp = std::env::temp_dir().join(format!(
        "fgraph-calib-{}-{}",
        file.replace('.', "-"),
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).expect("dir");
    for (c, l) in cases.iter().zip(listed) {
        let name = c["case"].as_str().expect("case");
        assert_eq!(c["case"], l["case"]);
        let expected = refit.iter().find(|r| r["case"] == c["case"]).unwrap_or(c);
        let path = tmp.join(format!("{name}.fgraph"));
        std::fs::write(&path, c["fgraph"].as_str().expect("text")).expect("write");
        let d = analyze_h100_json(&path);
        let hm = &d["cost"]["hardware_model"];
        assert_eq!(hm["dram_read"], expected["dram_read"], "{name}");
        let (now, then) = (
            hm["kernel_us"].as_f64().expect("now"),
            expected["kernel_us"].as_f64().expect("then"),
        );
        // Committed rounded to 3 decimals.
        assert!(
            (now - then).abs() <= 1e-4 * then.abs().max(1.0),
            "{name}: {now} µs now, {then} µs predicted"
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The rows of a comma-separated file under the repository root (no quoted commas), each a
/// map from its header's names to its fields.
pub fn csv_rows(rel: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    csv_file(&root().join(rel))
}

/// The same for the file at `path`.
pub fn csv_file(path: &std::path::Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    lines
        .map(|l| {
            head.iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The report of `text` checked as file `name`, which must have no diagnostic at all.
pub fn check_clean(name: &str, text: &str) -> fgraph::FileReport {
    let r = fgraph::check_file(name, text.as_bytes(), &fgraph::Options::default());
    let shown: Vec<String> = r
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect();
    assert!(shown.is_empty(), "{name}: {shown:#?}\n{text}");
    assert_eq!(r.graphs.len(), 1, "{name}");
    r
}

/// `fgraph emit torch`'s module of `text` (checked as `t.fgraph`, with no diagnostic).
pub fn emit_torch(text: &str) -> String {
    let r = check_clean("t.fgraph", text);
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    let place = |_| (String::from("t.fgraph"), 1);
    let input = fgraph::emit::Input {
        graph: &a.graph,
        file: "t.fgraph",
        overrides: Vec::new(),
        place: &place,
    };
    fgraph::emit::torch::emit(&input).expect("emits")
}

/// The parameters of a checked file's graph: every weight's elements but a decode step's KV
/// caches (per-layer state, declared as weights named `*_cache`).
pub fn params(r: &fgraph::FileReport) -> u64 {
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    a.graph
        .tensors
        .iter()
        .filter(|t| t.origin == fgraph::graph::Origin::Weight && !t.name.ends_with("_cache"))
        .map(|t| t.bytes / t.dtype.bytes())
        .sum()
}

/// validation/hf/param_counts.json: transformers' parameter count of each committed config.
pub fn published_param_counts() -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(root().join("validation/hf/param_counts.json"))
            .expect("param_counts.json"),
    )
    .expect("json")
}

/// The kernels of `a`'s plan, each as its ops' names joined by spaces.
pub fn groups(a: &fgraph::analysis::Analysis) -> Vec<String> {
    a.plan
        .groups
        .iter()
        .map(|k| {
            k.ops
                .iter()
                .map(|&o| a.graph.op(o).name.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
