//! Issue 21, bounded reads (SPEC §9 "Trust"): every input the CLI reads (a file argument,
//! standard input, `--config`, `--hardware-file`, an `fgraph.toml` found upward) is read only
//! if it is a regular file (standard input aside) and never past the size limit; and the human
//! renderer draws a diagnostic far along a very long line without panicking.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LIMIT: &str = "268435456 bytes";

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/attention.fgraph")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-bounded-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs fgraph with `stdin`, killing it (and failing) if it runs past `limit`: a hang is the
/// bug being tested for. Its output goes through files, so a full pipe cannot stall it.
fn fgraph_in(args: &[&str], dir: Option<&Path>, stdin: Stdio, limit: Duration) -> Output {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let base = std::env::temp_dir().join(format!("fgraph-bounded-out-{}-{n}", std::process::id()));
    let (out_path, err_path) = (base.with_extension("out"), base.with_extension("err"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fgraph"));
    cmd.args(args)
        .env("NO_COLOR", "1")
        .stdin(stdin)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("run fgraph");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fgraph {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = Output {
        status,
        stdout: std::fs::read(&out_path).unwrap(),
        stderr: std::fs::read(&err_path).unwrap(),
    };
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    output
}

fn fgraph(args: &[&str]) -> Output {
    fgraph_in(args, None, Stdio::null(), Duration::from_secs(60))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `mkfifo PATH`; false when there is no `mkfifo` to make one.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// `s` with the renderer's line wrapping undone: every run of whitespace and box-drawing
/// margins (`│`) becomes one space, so a message wrapped at a width that depends on the
/// temporary path's length still matches.
fn unwrapped(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn refused(o: &Output, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(unwrapped(&err).contains(&unwrapped(what)), "{err}");
    assert!(!err.contains("All checks passed"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_device_as_a_file_argument_is_refused_before_reading() {
    let device = "not a regular file (a character device)";
    let o = fgraph(&["check", "/dev/zero"]);
    refused(
        &o,
        "cannot read `/dev/zero`: not a regular file (a character device)",
    );
    assert!(
        stderr(&o).contains("1 file could not be read"),
        "{}",
        stderr(&o)
    );
    refused(&fgraph(&["analyze", "/dev/zero"]), device);
    refused(&fgraph(&["fmt", "--check", "/dev/zero"]), device);
}

#[test]
fn config_and_hardware_file_on_a_device_are_refused() {
    let ex = example();
    let ex = ex.to_str().unwrap();
    refused(
        &fgraph(&["check", "--config", "/dev/zero", ex]),
        "cannot read configuration `/dev/zero`: not a regular file (a character",
    );
    refused(
        &fgraph(&["analyze", "--hardware-file", "/dev/zero", ex]),
        "cannot read hardware file `/dev/zero`: not a regular file (a character device)",
    );
}

#[test]
fn a_directory_is_refused_with_the_systems_words() {
    let dir = temp_dir("dir");
    let d = dir.to_str().unwrap();
    refused(&fgraph(&["check", d]), "Is a directory");
    let ex = example();
    let ex = ex.to_str().unwrap();
    refused(&fgraph(&["check", "--config", d, ex]), "Is a directory");
    refused(
        &fgraph(&["analyze", "--hardware-file", d, ex]),
        "Is a directory",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_is_refused_not_waited_on() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe.fgraph");
    if !mkfifo(&fifo) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    let f = fifo.to_str().unwrap();
    let ex = example();
    let ex = ex.to_str().unwrap();
    refused(&fgraph(&["check", f]), "not a regular file (a FIFO)");
    refused(
        &fgraph(&["check", "--config", f, ex]),
        "not a regular file (a FIFO)",
    );
    refused(
        &fgraph(&["analyze", "--hardware-file", f, ex]),
        "not a regular file (a FIFO)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_fgraph_toml_found_upward_that_is_not_a_regular_file_is_ignored() {
    let dir = temp_dir("toml");
    std::fs::copy(example(), dir.join("a.fgraph")).unwrap();
    // A directory named fgraph.toml, and (in a subdirectory) a FIFO.
    std::fs::create_dir(dir.join("fgraph.toml")).unwrap();
    let o = fgraph_in(
        &["check", "a.fgraph"],
        Some(&dir),
        Stdio::null(),
        Duration::from_secs(60),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(example(), sub.join("a.fgraph")).unwrap();
    if mkfifo(&sub.join("fgraph.toml")) {
        let o = fgraph_in(
            &["check", "a.fgraph"],
            Some(&sub),
            Stdio::null(),
            Duration::from_secs(60),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Standard input from `/dev/zero` never ends: reading stops one byte past the limit, and the
/// file is reported as too large (exit 1), in bounded time.
#[test]
fn endless_standard_input_stops_at_the_limit() {
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let o = fgraph_in(
        &["check", "--format", "json", "-"],
        None,
        Stdio::from(zero),
        Duration::from_secs(120),
    );
    let err = stderr(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        out.contains("\"code\":\"limit-exceeded\""),
        "{}",
        &out[..out.len().min(500)]
    );
    assert!(out.contains(&format!("the limit is {LIMIT}")));
    assert!(
        err.contains(&format!(
            "standard input is larger than the limit of {LIMIT}"
        )),
        "{err}"
    );
}

/// A 70 KB one-line file with an error at its end: miette panicked on columns past 65,535.
/// The line is cut around the error; the header keeps the true column, JSON the true position.
#[test]
fn an_error_far_along_one_long_line_renders() {
    let dir = temp_dir("long");
    let file = dir.join("long.fgraph");
    let pad = " ".repeat(70_000);
    std::fs::write(&file, format!("graph g {{{pad}@ }}\n")).unwrap();
    let f = file.to_str().unwrap();
    let o = fgraph(&["check", f]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("fgraph::syntax-error"), "{err}");
    assert!(err.contains(&format!("long.fgraph:1:{}]", 70_010)), "{err}");
    assert!(err.contains('…'), "{err}");
    assert!(err.lines().all(|l| l.len() < 1000), "{err}");
    let o = fgraph(&["check", "--format", "json", f]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"column\":70010"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `assert fused(...)` with thousands of names: each unknown name is a diagnostic, the last
/// ones past column 65,535.
#[test]
fn thousands_of_names_in_one_assertion_render() {
    let dir = temp_dir("fused");
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/seed_mlp.fgraph"),
    )
    .unwrap();
    let names: Vec<String> = (0..6000).map(|i| format!("nosuchop{i:05}")).collect();
    let line = format!("assert fused(matmul1, {})", names.join(", "));
    let src = src.replace("assert fused(matmul1, bias1)", &line);
    assert!(src.contains("nosuchop05999"));
    let file = dir.join("fused.fgraph");
    std::fs::write(&file, src).unwrap();
    let o = fgraph(&["check", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        &err[err.len().saturating_sub(2000)..]
    );
    assert!(!err.contains("panicked"));
    assert!(err.contains("no op named `nosuchop05999`"));
    assert!(err.contains("Found 6000 errors"));
    let _ = std::fs::remove_dir_all(&dir);
}
