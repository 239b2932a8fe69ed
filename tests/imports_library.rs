//! Library folders and the standard library (SPEC §9 "Reads", issue 21 item 2): `fgraph.toml`'s
//! `[imports] paths` are searched after the importing file's folder, in order, each one
//! confined to itself; a library folder outside the configuration's folder is `invalid-config`
//! and never read; `std/…` is the library compiled into the binary, whatever is on disk, and
//! the Llama examples give the same numbers importing `std/llama.fgraph` as importing their
//! own `lib/llama3.fgraph`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-library-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proj/third_party/lib")).expect("temp dir");
    std::fs::create_dir_all(dir.join("proj/models")).expect("temp dir");
    dir
}

fn write(p: &Path, text: &str) {
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(p, text).unwrap();
}

fn run(args: &[&str]) -> (Output, serde_json::Value, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph");
    let v = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o, v, all)
}

fn check(file: &Path) -> (Output, serde_json::Value, String) {
    run(&["check", "--format", "json", file.to_str().unwrap()])
}

fn messages(v: &serde_json::Value) -> Vec<String> {
    v["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| {
                    format!(
                        "{}: {}",
                        d["code"].as_str().unwrap(),
                        d["message"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A block `NAME(S)` applying `KIND` to `[S, 64]`.
fn block(name: &str, kind: &str) -> String {
    format!(
        "block {name}(S) {{\n  input x: [S, 64]\n  op a = elementwise.{kind}(x) -> y\n  output y\n}}\n"
    )
}

fn main_using(imports: &[&str], block: &str) -> String {
    let imports: String = imports
        .iter()
        .map(|i| format!("import \"{i}\"\n"))
        .collect();
    format!(
        "{imports}\ngraph model {{\n  input x: [8, 64]\n  op t = {block}(x, S = 8) -> y\n  output y\n}}\n"
    )
}

#[test]
fn library_folders_are_searched_after_the_importing_folder_in_order() {
    let dir = temp_dir("order");
    let proj = dir.join("proj");
    write(
        &proj.join("fgraph.toml"),
        "[imports]\npaths = [\"third_party/lib\", \"./more\"]\n",
    );
    write(
        &proj.join("third_party/lib/act.fgraph"),
        &block("first", "relu"),
    );
    write(&proj.join("more/act.fgraph"), &block("second", "relu"));
    write(&proj.join("more/only.fgraph"), &block("only", "exp"));
    let main = proj.join("models/main.fgraph");
    // Found in the first library folder, not the second.
    write(&main, &main_using(&["act.fgraph"], "first"));
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{all}");
    write(&main, &main_using(&["act.fgraph"], "second"));
    let (o, v2, all) = check(&main);
    assert_eq!(o.status.code(), Some(1), "{all}");
    assert!(messages(&v2)[0].contains("`second`"), "{v2}");
    // The second folder is searched when the first lacks the file.
    write(&main, &main_using(&["only.fgraph"], "only"));
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{all}");
    // Beside the importing file first.
    write(&proj.join("models/act.fgraph"), &block("local", "relu"));
    write(&main, &main_using(&["act.fgraph"], "local"));
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{all}");
    // A library file's own imports: beside it, then the library folders.
    write(
        &proj.join("third_party/lib/nested.fgraph"),
        "import \"sub/deep.fgraph\"\nimport \"only.fgraph\"\n",
    );
    write(
        &proj.join("third_party/lib/sub/deep.fgraph"),
        &block("deep", "relu"),
    );
    write(&main, &main_using(&["nested.fgraph"], "deep"));
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{all}");
    // Not found anywhere: the message names the library folders, paths relative to the project.
    write(&main, &main_using(&["missing.fgraph"], "deep"));
    let (_, v, all) = check(&main);
    let first = &messages(&v)[0];
    assert!(
        first.starts_with("bad-import: cannot read `models/missing.fgraph`: ")
            && first
                .ends_with("; it is not in the library folders `third_party/lib`, `more` either"),
        "{all}"
    );
    assert!(!first.contains(dir.to_str().unwrap()), "{all}");
    // Paths with `..` are only relative to the importing file.
    write(&main, &main_using(&["../only.fgraph"], "only"));
    let (_, v, all) = check(&main);
    assert!(
        messages(&v)[0].starts_with("bad-import: cannot read `only.fgraph`: ")
            && !messages(&v)[0].contains("library"),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_library_folder_outside_the_configuration_folder_is_invalid_config() {
    let dir = temp_dir("outside");
    let proj = dir.join("proj");
    write(&dir.join("secret/x.fgraph"), "TOPSECRETTOKEN\n");
    let main = proj.join("models/main.fgraph");
    write(&main, &main_using(&["x.fgraph"], "x"));
    let mut cases = vec![
        ("../secret", "leads outside the folder of `fgraph.toml`"),
        (
            "third_party/../../secret",
            "leads outside the folder of `fgraph.toml`",
        ),
        ("/etc", "is an absolute path"),
        ("", "is empty"),
        ("no-such", "cannot be used: "),
        ("models/main.fgraph", "is not a folder"),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("secret"), proj.join("third_party/out")).unwrap();
        cases.push((
            "third_party/out",
            "leads outside the folder of `fgraph.toml` through a symbolic link",
        ));
    }
    for (path, why) in cases {
        write(
            &proj.join("fgraph.toml"),
            &format!("[imports]\npaths = [\"third_party/lib\", \"{path}\"]\n"),
        );
        let (o, _, all) = check(&main);
        // The human rendering wraps lines: compare words.
        let all: Vec<&str> = all.split_whitespace().filter(|w| *w != "│").collect();
        let all = all.join(" ");
        assert_eq!(o.status.code(), Some(2), "{path}: {all}");
        assert!(all.contains("invalid-config"), "{all}");
        assert!(
            all.contains(&format!("the library folder `{path}` {why}")),
            "{path}: {all}"
        );
        assert!(!all.contains("TOPSECRETTOKEN"), "{all}");
    }
    // An unknown key under [imports].
    write(&proj.join("fgraph.toml"), "[imports]\npath = [\"lib\"]\n");
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(2), "{all}");
    assert!(all.contains("unknown field `path`"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_symlink_in_a_library_folder_stays_inside_that_folder() {
    let dir = temp_dir("confined");
    let proj = dir.join("proj");
    write(
        &proj.join("fgraph.toml"),
        "[imports]\npaths = [\"third_party/lib\"]\n",
    );
    write(&dir.join("secret.fgraph"), "TOPSECRETTOKEN\n");
    write(&proj.join("models/elsewhere.fgraph"), &block("e", "relu"));
    std::os::unix::fs::symlink(
        dir.join("secret.fgraph"),
        proj.join("third_party/lib/s.fgraph"),
    )
    .unwrap();
    // Inside the project but outside the library folder it was found under.
    std::os::unix::fs::symlink(
        proj.join("models/elsewhere.fgraph"),
        proj.join("third_party/lib/e.fgraph"),
    )
    .unwrap();
    let main = proj.join("main.fgraph");
    for (import, lib) in [("s.fgraph", "s"), ("e.fgraph", "e")] {
        write(&main, &main_using(&[import], lib));
        let (o, v, all) = check(&main);
        assert_eq!(o.status.code(), Some(1), "{all}");
        assert_eq!(
            messages(&v)[0],
            format!(
                "bad-import: imports stay inside the project: `{import}` leads outside the \
                 library folder `third_party/lib` through a symbolic link"
            ),
            "{all}"
        );
        assert!(!all.contains("TOPSECRETTOKEN"), "{all}");
    }
    // A library file that does not parse is named relative to the project, never quoted.
    write(
        &proj.join("third_party/lib/bad.fgraph"),
        "\n  SECRETWORD=1\n",
    );
    write(&main, &main_using(&["bad.fgraph"], "x"));
    let (_, v, all) = check(&main);
    assert_eq!(
        messages(&v)[0],
        "bad-import: the imported file `third_party/lib/bad.fgraph` does not parse \
         (unexpected identifier at 2:3)"
    );
    assert!(!all.contains("SECRETWORD"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn std_is_the_embedded_library_whatever_is_on_disk() {
    let dir = temp_dir("std");
    let proj = dir.join("proj");
    let main = proj.join("main.fgraph");
    let graph =
        "\ngraph model {\n  input x: [16, 4096]\n  op f = ffn(x, S = 16) -> y\n  output y\n}\n";
    write(&main, &format!("import \"std/llama.fgraph\"\n{graph}"));
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{all}");
    // A `std/` folder beside it changes nothing; `./std/…` reaches it.
    write(&proj.join("std/llama.fgraph"), "SECRETWORD\n");
    let (o, _, all) = check(&main);
    assert_eq!(o.status.code(), Some(0), "{all}");
    write(&main, &format!("import \"./std/llama.fgraph\"\n{graph}"));
    let (o, v, all) = check(&main);
    assert_eq!(o.status.code(), Some(1), "{all}");
    assert!(
        messages(&v)[0].contains("the imported file `./std/llama.fgraph` does not parse"),
        "{all}"
    );
    assert!(!all.contains("SECRETWORD"), "{all}");
    // An unknown file names the ones there are.
    for (import, message) in [
        (
            "std/lama.fgraph",
            "the standard library has no `std/lama.fgraph`",
        ),
        (
            "std/nn/../x.fgraph",
            "the standard library has no `std/x.fgraph`",
        ),
        (
            "std/../secret.fgraph",
            "`std/../secret.fgraph` leads outside the standard library",
        ),
    ] {
        write(&main, &format!("import \"{import}\"\n{graph}"));
        let (o, v, all) = check(&main);
        assert_eq!(o.status.code(), Some(1), "{all}");
        assert_eq!(messages(&v)[0], format!("bad-import: {message}"), "{all}");
        assert!(all.contains("`std/llama.fgraph`"), "{all}");
    }
    // A diagnostic inside a standard-library block names its place there.
    write(
        &main,
        "import \"std/llama.fgraph\"\n\ngraph model {\n  dtype bf16\n  input t: [1, 1, 16, 7]\n  input c: [16, 7]\n  op r = rope(t, c, c, A = 1, B = 1, S = 16, D = 7) -> y\n  output y\n}\n",
    );
    let (_, v, all) = check(&main);
    assert!(
        messages(&v)
            .iter()
            .any(|m| m.contains("(in `std/llama.fgraph:")),
        "{all}"
    );
    // A tensor of the wrong shape passed to one is reported at the argument, not inside.
    write(
        &main,
        "import \"std/llama.fgraph\"\n\ngraph model {\n  dtype bf16\n  input x: [16, 4096]\n  op f = ffn(x, S = 16, H = 64) -> y\n  output y\n}\n",
    );
    let (_, v, all) = check(&main);
    assert_eq!(
        messages(&v),
        ["shape-mismatch: `x` is [16, 4096] but `ffn`'s input `x` is [S, H] = [16, 64] here"],
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fgraph analyze --format json` of `text` written as `name` in a fresh folder (no `lib/`).
fn analyze_alone(name: &str, text: &str) -> String {
    let dir = temp_dir(name);
    let f = dir.join(name);
    write(&f, text);
    let (o, _, all) = run(&["analyze", "--format", "json", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn the_llama_examples_give_the_same_numbers_from_std() {
    let root = common::root();
    for example in ["llama3_8b.fgraph", "llama3_8b_decode.fgraph"] {
        let path = root.join("examples").join(example);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("import \"lib/llama3.fgraph\"\n"), "{example}");
        let with_std = text.replace(
            "import \"lib/llama3.fgraph\"\n",
            "import \"std/llama.fgraph\"\n",
        );
        let (o, _, all) = run(&["analyze", "--format", "json", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{all}");
        let from_lib = String::from_utf8(o.stdout).unwrap();
        let from_std = analyze_alone(example, &with_std);
        assert!(from_lib.len() > 10_000, "{example}");
        assert!(from_lib == from_std, "{example}: the reports differ");
    }
    // A Llama built from std's `decoder_layer` has the example's totals (its op names differ:
    // the attention is a nested instance).
    let text = std::fs::read_to_string(root.join("examples/llama3_8b.fgraph")).unwrap();
    let graph = &text[text.find("graph llama3_8b").unwrap()..];
    let graph = graph.replace(
        "= decoder(x, cos, sin, S = S)",
        "= decoder_layer(x, cos, sin, S = S)",
    );
    let from_layers = analyze_alone(
        "layers.fgraph",
        &format!("import \"std/llama.fgraph\"\n\n{graph}"),
    );
    let (_, example, _) = run(&[
        "analyze",
        "--format",
        "json",
        root.join("examples/llama3_8b.fgraph").to_str().unwrap(),
    ]);
    let layers: serde_json::Value = serde_json::from_str(&from_layers).unwrap();
    assert_eq!(layers["summary"]["total"], example["summary"]["total"]);
    assert_eq!(layers["traffic"], example["traffic"]);
    assert_eq!(
        example["summary"]["total"]["flops"].as_u64(),
        Some(32_970_828_152_832)
    );
}
