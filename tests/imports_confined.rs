//! Imports stay inside the project (SPEC §9 "Reads", issue 21 item 2): absolute paths, `..`
//! escapes and symlinks leading out are `bad-import` naming the rule; only regular files are
//! read; a file that does not parse is never quoted; paths in messages are relative to the
//! project root; a long chain of imports is bounded and linear.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-confined-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proj/lib")).expect("temp dir");
    dir
}

fn check(file: &Path) -> (Output, serde_json::Value) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(["check", "--format", "json", file.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph");
    let v = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (o, v)
}

const GRAPH: &str =
    "\ngraph model {\n  input x: [8, 64]\n  op r = elementwise.relu(x) -> y\n  output y\n}\n";

/// The first diagnostic's code and message for `main.fgraph` importing `import`.
fn first(main: &Path, import: &str) -> (String, String, String) {
    std::fs::write(main, format!("import \"{import}\"\n{GRAPH}")).unwrap();
    let (o, v) = check(main);
    // The checked file is named as given on the command line; everything else is checked.
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
    .replace(main.to_str().unwrap(), "<main>");
    assert_eq!(o.status.code(), Some(1), "{all}");
    let d = &v["diagnostics"][0];
    (
        d["code"].as_str().unwrap_or_default().to_string(),
        d["message"].as_str().unwrap_or_default().to_string(),
        all,
    )
}

#[test]
fn absolute_paths_escapes_and_symlinks_out_are_refused_without_reading() {
    let dir = temp_dir("escape");
    let secret = dir.join("secret.fgraph");
    std::fs::write(&secret, "TOPSECRETTOKEN = 1\n").unwrap();
    let main = dir.join("proj/main.fgraph");
    let cases = [
        secret.to_str().unwrap().to_string(),
        "../secret.fgraph".to_string(),
        "lib/../../secret.fgraph".to_string(),
        "../no-such.fgraph".to_string(),
        "/proc/self/environ".to_string(),
    ];
    for import in &cases {
        let (code, message, all) = first(&main, import);
        assert_eq!(code, "bad-import", "{import}: {all}");
        assert!(
            message.starts_with("imports stay inside the project: "),
            "{all}"
        );
        assert!(!all.contains("TOPSECRETTOKEN"), "{all}");
        // Nothing about whether a file outside exists.
        assert!(!all.contains("No such file"), "{all}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, dir.join("proj/lib/link.fgraph")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("proj/up")).unwrap();
        for import in ["lib/link.fgraph", "up/secret.fgraph", "up/missing.fgraph"] {
            let (code, message, all) = first(&main, import);
            assert_eq!(code, "bad-import", "{all}");
            assert!(message.contains("symbolic link"), "{all}");
            assert!(!all.contains("TOPSECRETTOKEN"), "{all}");
            assert!(!all.contains(dir.to_str().unwrap()), "{all}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_root_is_the_folder_of_fgraph_toml_and_dot_dot_inside_it_works() {
    let dir = temp_dir("root");
    std::fs::create_dir_all(dir.join("proj/models")).unwrap();
    std::fs::write(
        dir.join("proj/lib/relu.fgraph"),
        "block r(S) {\n  input x: [S, 64]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n",
    )
    .unwrap();
    let main = dir.join("proj/models/main.fgraph");
    let text = "import \"../lib/relu.fgraph\"\n\ngraph model {\n  input x: [8, 64]\n  op t = r(x, S = 8) -> y\n  output y\n}\n";
    std::fs::write(&main, text).unwrap();
    // Without fgraph.toml the root is models/: `../lib` leads out.
    let (o, v) = check(&main);
    assert_eq!(o.status.code(), Some(1), "{v}");
    assert!(
        v["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("imports stay inside the project: `../lib/relu.fgraph` leads outside it"),
        "{v}"
    );
    // With fgraph.toml in proj/, it is inside.
    std::fs::write(dir.join("proj/fgraph.toml"), "").unwrap();
    let (o, v) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_does_not_parse_is_not_quoted_and_paths_are_relative() {
    let dir = temp_dir("quote");
    let main = dir.join("proj/main.fgraph");
    std::fs::write(
        dir.join("proj/lib/x.fgraph"),
        "\n\n    SECRETWORD=hunter2\n",
    )
    .unwrap();
    let (code, message, all) = first(&main, "lib/x.fgraph");
    assert_eq!(code, "bad-import", "{all}");
    assert_eq!(
        message,
        "the imported file `lib/x.fgraph` does not parse (unexpected identifier at 3:5)"
    );
    assert!(
        !all.contains("SECRETWORD") && !all.contains("hunter2"),
        "{all}"
    );
    // Not UTF-8.
    std::fs::write(dir.join("proj/lib/x.fgraph"), b"\xff\xfeSECRETWORD").unwrap();
    let (_, message, all) = first(&main, "lib/x.fgraph");
    assert!(message.contains("not UTF-8"), "{all}");
    assert!(!all.contains("SECRETWORD"), "{all}");
    // Nested, with a cycle: names relative to the root, never absolute.
    std::fs::write(dir.join("proj/lib/x.fgraph"), "import \"y.fgraph\"\n").unwrap();
    std::fs::write(dir.join("proj/lib/y.fgraph"), "import \"../main.fgraph\"\n").unwrap();
    let (code, message, all) = first(&main, "lib/x.fgraph");
    assert_eq!(code, "bad-import", "{all}");
    assert_eq!(
        message,
        "import cycle: main.fgraph → lib/x.fgraph → lib/y.fgraph → main.fgraph"
    );
    assert!(!all.contains(dir.to_str().unwrap()), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_read_and_a_fifo_does_not_hang() {
    let dir = temp_dir("fifo");
    let main = dir.join("proj/main.fgraph");
    let fifo = dir.join("proj/lib/pipe.fgraph");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    std::fs::create_dir_all(dir.join("proj/lib/d.fgraph")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("proj/lib/zero.fgraph")).unwrap();
    let mut cases = vec![("lib/d.fgraph", "a directory")];
    if made.is_ok_and(|s| s.success()) {
        cases.push(("lib/pipe.fgraph", "a FIFO"));
    }
    for (import, what) in cases {
        let start = Instant::now();
        let (code, message, all) = first(&main, import);
        assert!(start.elapsed() < Duration::from_secs(20), "{all}");
        assert_eq!(code, "bad-import", "{all}");
        assert_eq!(
            message,
            format!("`{import}` is {what}: only regular files are imported")
        );
    }
    // A symlink to /dev/zero leads outside the project before it is anything else.
    let (code, message, all) = first(&main, "lib/zero.fgraph");
    assert_eq!(code, "bad-import", "{all}");
    assert!(
        message.starts_with("imports stay inside the project"),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_of_ten_thousand_imports_is_bounded() {
    let dir = temp_dir("chain");
    let n = 10_000;
    for i in 0..n {
        std::fs::write(
            dir.join(format!("proj/lib/f{i}.fgraph")),
            format!("import \"f{}.fgraph\"\n", i + 1),
        )
        .unwrap();
    }
    std::fs::write(dir.join(format!("proj/lib/f{n}.fgraph")), "").unwrap();
    let main = dir.join("proj/main.fgraph");
    let start = Instant::now();
    let (code, message, all) = first(&main, "lib/f0.fgraph");
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code, "limit-exceeded", "{all}");
    assert!(message.contains("4096 files"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_import_over_the_file_limit_is_limit_exceeded_before_reading() {
    let dir = temp_dir("large");
    let main = dir.join("proj/main.fgraph");
    // Sparse: no disk used, and refused from its size before a byte is read.
    let big = std::fs::File::create(dir.join("proj/lib/big.fgraph")).unwrap();
    big.set_len(256 * 1024 * 1024 + 1).unwrap();
    let start = Instant::now();
    let (code, message, all) = first(&main, "lib/big.fgraph");
    assert!(start.elapsed() < Duration::from_secs(20), "{all}");
    assert_eq!(code, "limit-exceeded", "{all}");
    assert_eq!(
        message,
        "`lib/big.fgraph` is larger than the 268435456-byte file limit"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
