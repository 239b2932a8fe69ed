//! The hostile corpus of issue 21: one case per class of attack, each a folder under
//! `tests/hostile/` holding the files of a small project and a `case.toml` that says how to
//! set it up (FIFOs, symlinks, directories, read-only files, files *outside* the project,
//! generated inputs), which `fgraph` commands to run in it, and what each must give: the exit
//! code, text that must appear on standard output or error, text that must appear in
//! neither (a secret from a file outside the project, an absolute path), and the state of the
//! files afterwards (a device still a device, a FIFO still a FIFO, a symlink still a symlink,
//! a file unchanged).
//!
//! Every run is bounded: the binary runs under `ulimit -v` (2 GiB of address space) and is
//! killed after 60 seconds, so an input that allocates without bound or hangs fails the
//! test instead of the machine. `{dir}` in an expectation is the case's temporary folder
//! (the parent of the project), so "the message never holds an absolute path" is checkable.
//! docs/ROBUSTNESS.md lists the cases.

mod common;

use serde::Deserialize;
use std::collections::BTreeMap;
use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Address space for each run, in KiB (`ulimit -v`).
const ADDRESS_SPACE_KIB: u64 = 2 * 1024 * 1024;
/// Wall-clock bound for each run (a debug build).
const TIMEOUT: Duration = Duration::from_secs(60);

/// The classes of issue 21; every one must have a case.
const CLASSES: [&str; 4] = [
    "memory and time",
    "reading what it should not",
    "writing what it should not",
    "panics and silent overflow",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    class: String,
    what: String,
    #[serde(default)]
    fifos: Vec<String>,
    #[serde(default)]
    symlinks: Vec<(String, String)>,
    #[serde(default)]
    dirs: Vec<String>,
    #[serde(default)]
    read_only: Vec<String>,
    /// Files written beside the project folder, outside it.
    #[serde(default)]
    outside: BTreeMap<String, String>,
    /// A generated input: `import-chain N`, `long-line BYTES`, `undefined-args N`,
    /// `unused-inputs N`, `wide-repeat N` (a `concat` of 1,000 arguments, repeated N times)
    /// or `typos N` (N ops each reading a misspelt tensor).
    generate: Option<String>,
    run: Vec<Run>,
    #[serde(default)]
    after: After,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Run {
    args: Vec<String>,
    /// A file to read standard input from (else none).
    stdin: Option<String>,
    exit: i32,
    /// Text that must appear in the output (standard output or error: human diagnostics
    /// go to standard error, reports and JSON to standard output).
    #[serde(default)]
    says: Vec<String>,
    /// Text that must appear in neither stream.
    #[serde(default)]
    never: Vec<String>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct After {
    #[serde(default)]
    char_devices: Vec<String>,
    #[serde(default)]
    fifos: Vec<String>,
    #[serde(default)]
    symlinks: Vec<String>,
    /// Files whose bytes must be those the case shipped.
    #[serde(default)]
    unchanged: Vec<String>,
    /// (file, text it must contain).
    #[serde(default)]
    contains: Vec<(String, String)>,
}

fn corpus() -> PathBuf {
    common::root().join("tests/hostile")
}

fn cases() -> Vec<(String, Case)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(corpus()).expect("tests/hostile") {
        let dir = entry.expect("entry").path();
        let text = std::fs::read_to_string(dir.join("case.toml"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let case: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let name = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        out.push((name, case));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Copies the case's files (all but `case.toml`) into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read case") {
        let p = entry.expect("entry").path();
        let name = p.file_name().expect("name");
        if name == "case.toml" {
            continue;
        }
        if p.is_dir() {
            copy_tree(&p, &to.join(name));
        } else {
            std::fs::copy(&p, to.join(name)).expect("copy");
        }
    }
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(rc, 0, "mkfifo {}", p.display());
}

fn generate(spec: &str, project: &Path) {
    let (what, n) = spec.split_once(' ').expect("generate: KIND N");
    let n: usize = n.parse().expect("generate: a count");
    match what {
        "import-chain" => {
            let leaf =
                "block b() {\n  input x: [4]\n  op r = elementwise.relu(x) -> y\n  output y\n}\n";
            std::fs::write(
                project.join("main.fgraph"),
                "import \"f1.fgraph\"\ngraph g {\n  input x: [4]\n  op r = b(x) -> y\n  output y\n}\n",
            )
            .expect("write");
            for i in 1..=n {
                let text = if i == n {
                    leaf.to_string()
                } else {
                    format!("import \"f{}.fgraph\"\n", i + 1)
                };
                std::fs::write(project.join(format!("f{i}.fgraph")), text).expect("write");
            }
        }
        "long-line" => {
            let mut s = String::from("graph g { input x: [4] ");
            let mut i = 0;
            while s.len() < n {
                s += &format!("op r{i} = elementwise.relu(x) -> y{i} output y{i} ");
                i += 1;
            }
            s += "op bad = elementwise.relu(nope) -> z output z }\n";
            std::fs::write(project.join("long.fgraph"), s).expect("write");
        }
        "undefined-args" => {
            let args = vec!["q"; n].join(", ");
            std::fs::write(
                project.join("args.fgraph"),
                format!("graph g {{\n  op r = elementwise.add({args}) -> y\n}}\n"),
            )
            .expect("write");
        }
        "unused-inputs" => {
            let mut s = String::from("graph g {\n");
            for i in 0..n {
                s += &format!("  input x{i}: [4]\n");
            }
            s += "}\n";
            std::fs::write(project.join("unused.fgraph"), s).expect("write");
        }
        "wide-repeat" => {
            std::fs::write(project.join("wide.fgraph"), wide_repeat(n)).expect("write")
        }
        "typos" => {
            // N ops each reading `hiden` where `hidden` is meant: N errors, each with a rename
            // fix that `check --fix` verifies by checking the file again before applying it.
            let mut s = String::from("graph g {\n  input hidden: [4]\n");
            for i in 0..n {
                s += &format!("  op r{i} = elementwise.relu(hiden) -> y{i}\n");
            }
            s += "}\n";
            std::fs::write(project.join("typos.fgraph"), s).expect("write");
        }
        other => panic!("unknown generator `{other}`"),
    }
}

/// A block whose `concat` holds 1,000 tensor arguments (about 3 KB), repeated `n` times: two
/// ops an instance, so a few hundred thousand instances are within the ops budget and hold
/// hundreds of millions of arguments.
fn wide_repeat(n: usize) -> String {
    let args = vec!["x"; 1000].join(", ");
    format!(
        "block wide() {{\n  input x: [4, 4]\n  op c = concat({args}, axis = 0) -> w\n  \
         op s = slice(w, axis = 0, start = 0, end = 4) -> y\n  output y\n}}\n\
         graph g {{\n  input x: [4, 4]\n  repeat {n} layers = wide(x) -> y\n  output y\n}}\n"
    )
}

/// Sets the case up in a fresh folder; returns (case folder, project folder).
fn set_up(name: &str, case: &Case) -> (PathBuf, PathBuf) {
    let root = common::temp_dir(&format!("hostile-{name}"));
    let project = root.join("project");
    copy_tree(&corpus().join(name), &project);
    for (file, text) in &case.outside {
        std::fs::write(root.join(file), text).expect("write outside");
    }
    for f in &case.fifos {
        mkfifo(&project.join(f));
    }
    for (link, target) in &case.symlinks {
        symlink(target, project.join(link)).expect("symlink");
    }
    for d in &case.dirs {
        std::fs::create_dir_all(project.join(d)).expect("mkdir");
    }
    for f in &case.read_only {
        let p = project.join(f);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    }
    if let Some(spec) = &case.generate {
        generate(spec, &project);
    }
    (root, project)
}

/// Runs one command of a case, bounded in address space and time; returns (exit, stdout,
/// stderr), the exit `None` when it was killed for running too long.
fn run(root: &Path, project: &Path, i: usize, r: &Run) -> (Option<i32>, String, String) {
    let out = root.join(format!("stdout-{i}"));
    let err = root.join(format!("stderr-{i}"));
    let stdin = match &r.stdin {
        Some(f) => Stdio::from(std::fs::File::open(project.join(f)).expect("stdin file")),
        None => Stdio::null(),
    };
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(common::bin())
        .args(&r.args)
        .current_dir(project)
        .env("NO_COLOR", "1")
        .stdin(stdin)
        .stdout(std::fs::File::create(&out).expect("stdout file"))
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .spawn()
        .expect("run bash");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).expect("read")).into_owned();
    (status.and_then(|s| s.code()), read(&out), read(&err))
}

fn check_case(name: &str, case: &Case) -> Vec<String> {
    let (root, project) = set_up(name, case);
    let dir = root.to_string_lossy().into_owned();
    let fill = |s: &String| s.replace("{dir}", &dir);
    let mut failures = Vec::new();
    let mut fail = |why: String| failures.push(format!("{name} ({}): {why}", case.what));
    for (i, r) in case.run.iter().enumerate() {
        let (code, out, err) = run(&root, &project, i, r);
        let cmd = r.args.join(" ");
        let both = format!("{out}{err}");
        // Messages wrap at the terminal width, continuing after a `│` gutter; compare with
        // the wrapping undone.
        let flat = |s: &str| {
            s.split_whitespace()
                .filter(|w| *w != "│")
                .collect::<Vec<_>>()
                .join(" ")
        };
        let fboth = flat(&both);
        if code != Some(r.exit) {
            fail(format!(
                "`fgraph {cmd}` exited {code:?}, expected {}\nstdout: {}\nstderr: {}",
                r.exit,
                cut(&out),
                cut(&err)
            ));
        }
        for want in &r.says {
            if !both.contains(&fill(want)) && !fboth.contains(&flat(&fill(want))) {
                fail(format!(
                    "`fgraph {cmd}` does not say {want:?}:\n{}",
                    cut(&both)
                ));
            }
        }
        for never in &r.never {
            if both.contains(&fill(never)) {
                fail(format!("`fgraph {cmd}` printed {never:?}:\n{}", cut(&both)));
            }
        }
    }
    let at = |f: &str| -> PathBuf {
        if f.starts_with('/') {
            PathBuf::from(f)
        } else {
            project.join(f)
        }
    };
    let kind = |f: &str| std::fs::symlink_metadata(at(f)).map(|m| m.file_type());
    for f in &case.after.char_devices {
        if !kind(f).is_ok_and(|t| t.is_char_device()) {
            fail(format!("{f} is no longer a character device"));
        }
    }
    for f in &case.after.fifos {
        if !kind(f).is_ok_and(|t| t.is_fifo()) {
            fail(format!("{f} is no longer a FIFO"));
        }
    }
    for f in &case.after.symlinks {
        if !kind(f).is_ok_and(|t| t.is_symlink()) {
            fail(format!("{f} is no longer a symlink"));
        }
    }
    for f in &case.after.unchanged {
        let shipped = std::fs::read(corpus().join(name).join(f)).expect("shipped file");
        if std::fs::read(at(f)).ok() != Some(shipped) {
            fail(format!("{f} was changed"));
        }
    }
    for (f, text) in &case.after.contains {
        let now = std::fs::read_to_string(at(f)).unwrap_or_default();
        if !now.contains(text.as_str()) {
            fail(format!("{f} lacks {text:?}: {}", cut(&now)));
        }
    }
    // Read-only files are made writable again so the folder can be removed.
    for f in &case.read_only {
        let _ = std::fs::set_permissions(project.join(f), std::fs::Permissions::from_mode(0o644));
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&root);
    }
    failures
}

fn cut(s: &str) -> String {
    match s.char_indices().nth(2000) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[test]
fn every_case_of_the_hostile_corpus_gives_its_exit_code_and_message() {
    let all = cases();
    assert!(all.len() >= 20, "the corpus has {} cases", all.len());
    // Cases run two at a time: each is bounded, and some take seconds in a debug build.
    let failures: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<&[(String, Case)]> = all.chunks(all.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .flat_map(|(name, case)| check_case(name, case))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_class_of_the_issue_has_a_case_and_every_case_a_class() {
    let all = cases();
    for class in CLASSES {
        assert!(
            all.iter().any(|(_, c)| c.class == class),
            "no case for the class {class:?}"
        );
    }
    for (name, case) in &all {
        assert!(
            CLASSES.contains(&case.class.as_str()),
            "{name}: unknown class {:?}",
            case.class
        );
        assert!(!case.run.is_empty(), "{name}: no run");
    }
}
