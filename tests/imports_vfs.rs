//! The file-system seam of import loading (`fgraph::imports::vfs`): the same tree on disk and
//! in a `MemoryFs` gives the same diagnostics (so the seam changes no behaviour), and the
//! in-memory log shows that nothing outside the project was read.

use fgraph::analysis::{Options, check_file};
use fgraph::imports::library::{ImportOptions, Library};
use fgraph::imports::vfs::{MemoryFs, Vfs};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const BLOCK_A: &str =
    "block a(S) {\n  input x: [S, 64]\n  op r = elementwise.relu(x) -> y\n  output y\n}\n";
const BLOCK_V: &str = "import \"w.fgraph\"\nblock v(S) {\n  input x: [S, 64]\n  op e = w(x, S = S) -> y\n  output y\n}\n";
const BLOCK_W: &str =
    "block w(S) {\n  input x: [S, 64]\n  op r = elementwise.exp(x) -> y\n  output y\n}\n";

const IMPORTS: &[&str] = &[
    "lib/a.fgraph",
    "lib/bad.fgraph",
    "lib/cyc.fgraph",
    "lib/dir.fgraph",
    "missing.fgraph",
    "../secret.fgraph",
    "lib/out.fgraph",
    "v.fgraph",
    "std/llama.fgraph",
    "std/nope.fgraph",
    "/etc/passwd",
    "lib/a.fgraph",
];

fn main_text() -> String {
    let imports: String = IMPORTS
        .iter()
        .map(|i| format!("import \"{i}\"\n"))
        .collect();
    format!(
        "{imports}\ngraph model {{\n  input x: [8, 64]\n  op t = a(x, S = 8) -> h\n  op u = v(h, S = 8) -> y\n  output y\n}}\n"
    )
}

/// The files of the tree under a base folder (relative paths), with the link.
fn files() -> Vec<(&'static str, String)> {
    vec![
        ("secret.fgraph", "TOPSECRETTOKEN\n".to_string()),
        (
            "proj/fgraph.toml",
            "[imports]\npaths = [\"vendor\"]\n".to_string(),
        ),
        ("proj/main.fgraph", main_text()),
        ("proj/lib/a.fgraph", BLOCK_A.to_string()),
        ("proj/lib/bad.fgraph", "\n  SECRETWORD=1\n".to_string()),
        (
            "proj/lib/cyc.fgraph",
            "import \"../main.fgraph\"\n".to_string(),
        ),
        ("proj/vendor/v.fgraph", BLOCK_V.to_string()),
        ("proj/vendor/w.fgraph", BLOCK_W.to_string()),
    ]
}

/// Code, line, column and message of every diagnostic.
fn summary(name: &str, opts: &Options) -> Vec<String> {
    let report = check_file(name, main_text().as_bytes(), opts);
    report
        .diagnostics
        .iter()
        .map(|d| {
            let (line, col) = d.primary.as_ref().map_or((0, 0), |p| {
                report
                    .source
                    .lines()
                    .line_col(&report.source.text, p.span.start)
            });
            format!("{} {line}:{col} {}", d.code, d.message)
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn the_same_tree_on_disk_and_in_memory_gives_the_same_diagnostics() {
    // On disk.
    let base = std::env::temp_dir().join(format!("fgraph-vfs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    for (rel, text) in files() {
        let p = base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
    }
    std::fs::create_dir_all(base.join("proj/lib/dir.fgraph")).unwrap();
    std::os::unix::fs::symlink(base.join("secret.fgraph"), base.join("proj/lib/out.fgraph"))
        .unwrap();
    let cfg = fgraph::config::load(&base.join("proj/fgraph.toml")).expect("valid");
    let on_disk = summary(
        base.join("proj/main.fgraph").to_str().unwrap(),
        &cfg.options(&Options::default()),
    );
    let _ = std::fs::remove_dir_all(&base);

    // In memory.
    let mut fs = MemoryFs::new();
    for (rel, text) in files() {
        assert!(fs.add_file(Path::new("/w").join(rel), text));
    }
    assert!(fs.add_dir("/w/proj/lib/dir.fgraph"));
    assert!(fs.add_symlink("/w/proj/lib/out.fgraph", "/w/secret.fgraph"));
    let lib = Library::resolve(&fs, Path::new("/w/proj"), "vendor").expect("inside");
    assert_eq!(lib.name, "vendor");
    let fs = Arc::new(fs);
    let opts = Options {
        imports: ImportOptions {
            libraries: vec![lib],
            fs: Some(fs.clone() as Arc<dyn Vfs>),
        },
        ..Options::default()
    };
    let in_memory = summary("/w/proj/main.fgraph", &opts);

    assert_eq!(on_disk, in_memory);
    let expected = [
        "bad-import 2:1 the imported file `lib/bad.fgraph` does not parse (unexpected identifier at 2:3)",
        "bad-import 3:1 import cycle: main.fgraph → lib/cyc.fgraph → main.fgraph",
        "bad-import 4:1 `lib/dir.fgraph` is a directory: only regular files are imported",
        "bad-import 5:1 cannot read `missing.fgraph`: No such file or directory (os error 2); it is not in the library folder `vendor` either",
        "bad-import 6:1 imports stay inside the project: `../secret.fgraph` leads outside it",
        "bad-import 7:1 imports stay inside the project: `lib/out.fgraph` leads outside it through a symbolic link",
        "bad-import 10:1 the standard library has no `std/nope.fgraph`",
        "bad-import 11:1 imports stay inside the project: `/etc/passwd` is an absolute path",
    ];
    assert_eq!(in_memory, expected, "{in_memory:#?}");
    // Nothing outside the project was read, each file once, and the standard library not
    // from the file system.
    let reads = fs.reads();
    assert!(reads.iter().all(|r| r.starts_with("/w/proj")), "{reads:?}");
    let mut unique = reads.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), reads.len(), "{reads:?}");
    assert_eq!(
        reads,
        [
            "/w/proj/lib/a.fgraph",
            "/w/proj/lib/bad.fgraph",
            "/w/proj/lib/cyc.fgraph",
            "/w/proj/lib/dir.fgraph",
            "/w/proj/vendor/v.fgraph",
            "/w/proj/vendor/w.fgraph",
        ]
        .map(PathBuf::from)
    );
}

#[test]
fn a_library_folder_that_leads_out_of_the_configuration_folder_is_refused() {
    let mut fs = MemoryFs::new();
    assert!(fs.add_file("/w/out/x.fgraph", BLOCK_A));
    assert!(fs.add_file("/w/proj/lib/x.fgraph", BLOCK_A));
    assert!(fs.add_symlink("/w/proj/link", "../out"));
    assert!(fs.add_symlink("/w/proj/inside", "lib/."));
    let base = Path::new("/w/proj");
    let why = |p: &str| Library::resolve(&fs, base, p).err();
    assert_eq!(
        why("link").as_deref(),
        Some("leads outside the folder of `fgraph.toml` through a symbolic link")
    );
    assert_eq!(
        why("../out").as_deref(),
        Some("leads outside the folder of `fgraph.toml`")
    );
    assert_eq!(why("lib/x.fgraph").as_deref(), Some("is not a folder"));
    let lib = Library::resolve(&fs, base, "./inside/").expect("inside");
    assert_eq!(lib.name, "inside");
    assert_eq!(lib.dir, Path::new("/w/proj/lib"));
    assert!(fs.reads().is_empty());
}
