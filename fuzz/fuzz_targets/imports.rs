//! Imports over arbitrary small trees of files, through the in-memory file system
//! (`fgraph::imports::vfs::MemoryFs`): the input is decoded by `arbitrary` into a project
//! (`/r/p`, with or without `fgraph.toml` and library folders), files inside and outside it,
//! folders, symbolic links (relative, absolute, out of the project, in loops), a chain of up
//! to 80 files (optionally closing into a cycle), and the checked file's imports. Paths are
//! drawn from a pool of parts: `..`, `.`, `std`, `llama.fgraph`, names of the tree's files,
//! absolute prefixes (`/`, `/r/`, `/r/p/`, `/etc/`), so escapes, self-imports, cycles and
//! standard-library imports are common. A file's text is a block (sometimes with an error
//! the checked file's instantiation meets), fuzzer bytes, or fuzzer bytes behind a secret
//! marker that never parses; every file outside the project holds the marker.
//!
//! Asserts, besides `common::render_diagnostics` rendering every diagnostic in every format:
//! - every path the file system was asked to read lies inside the project root or a library
//!   folder (nothing outside is ever read);
//! - every file a message names as imported, importing, in a cycle or as the place of a
//!   diagnostic (`(in \`F:L:C\`)`) is `std/…` of the standard library or a path relative to
//!   the project, without `..`, of something inside it; every diagnostic points into the
//!   checked file;
//! - no diagnostic quotes the secret marker, which is only in files that do not parse or lie
//!   outside the project.

#![no_main]

mod common;

use arbitrary::{Arbitrary, Unstructured};
use fgraph::imports::library::{ImportOptions, Library};
use fgraph::imports::vfs::{MemoryFs, Vfs};
use libfuzzer_sys::fuzz_target;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

const ROOT: &str = "/r/p";
const MARK: &str = "SECRETMARK";

/// A list of at most `N` items, its length read first.
fn up_to<'a, const N: usize, T: Arbitrary<'a>>(
    u: &mut Unstructured<'a>,
) -> arbitrary::Result<Vec<T>> {
    let n = u.int_in_range(0..=N)?;
    (0..n).map(|_| u.arbitrary()).collect()
}

const PARTS: &[&str] = &[
    "lib",
    "vendor",
    "sub",
    "..",
    ".",
    "std",
    "a.fgraph",
    "b.fgraph",
    "c.fgraph",
    "llama.fgraph",
    "main.fgraph",
    "link",
    "chain",
    "c0.fgraph",
    "x",
];

const PREFIXES: &[&str] = &["", "", "", "", "/", "/r/", "/r/p/", "/etc/", "./", "std/"];

#[derive(Arbitrary, Debug)]
struct PathDesc {
    prefix: u8,
    #[arbitrary(with = up_to::<4, _>)]
    parts: Vec<u8>,
    /// A part of its own: lowercase letters, digits, `.`, `-`, `_`.
    raw: Option<[u8; 3]>,
}

impl PathDesc {
    fn render(&self) -> String {
        let mut parts: Vec<String> = self
            .parts
            .iter()
            .map(|&p| PARTS[usize::from(p) % PARTS.len()].to_string())
            .collect();
        if let Some(raw) = self.raw {
            const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789.-_";
            parts.push(
                raw.iter()
                    .map(|&b| char::from(ALPHABET[usize::from(b) % ALPHABET.len()]))
                    .collect(),
            );
        }
        if parts.is_empty() {
            parts.push("a.fgraph".to_string());
        }
        format!(
            "{}{}",
            PREFIXES[usize::from(self.prefix) % PREFIXES.len()],
            parts.join("/")
        )
    }
}

/// An import path: most often one that leads to something in the tree.
#[derive(Arbitrary, Debug)]
enum ImportDesc {
    /// The relative path from the importing file to the tree's file of this index (itself,
    /// one outside the project, ...).
    ToFile(u8),
    /// The same, through `./` or a `sub/..` detour.
    ToFileDetour(u8, bool),
    /// The relative path to the link of this index.
    ToLink(u8),
    /// A file of the chain.
    ToChain(u8),
    /// `std/llama.fgraph`, else a name the standard library does not have.
    Std(bool),
    Path(PathDesc),
}

/// Where things are in the tree, for [`ImportDesc::render`].
struct Places {
    files: Vec<PathBuf>,
    links: Vec<PathBuf>,
    chain: usize,
}

impl ImportDesc {
    /// The path as written in a file in `dir`.
    fn render(&self, dir: &Path, places: &Places) -> String {
        let pick = |all: &[PathBuf], k: u8| {
            (!all.is_empty()).then(|| relative(dir, &all[usize::from(k) % all.len()]))
        };
        let found = match *self {
            ImportDesc::ToFile(k) => pick(&places.files, k),
            ImportDesc::ToFileDetour(k, dot) => pick(&places.files, k).map(|r| {
                if dot {
                    format!("./{r}")
                } else {
                    format!("sub/../{r}")
                }
            }),
            ImportDesc::ToLink(k) => pick(&places.links, k),
            ImportDesc::ToChain(k) => (places.chain > 0).then(|| {
                relative(
                    dir,
                    &Path::new(ROOT)
                        .join(format!("chain/c{}.fgraph", usize::from(k) % places.chain)),
                )
            }),
            ImportDesc::Std(true) => Some("std/llama.fgraph".to_string()),
            ImportDesc::Std(false) => Some("std/../llama.fgraph".to_string()),
            ImportDesc::Path(ref p) => Some(p.render()),
        };
        found.unwrap_or_else(|| "a.fgraph".to_string())
    }
}

/// The path from the folder `from` to `to` (both absolute), with `..` steps.
fn relative(from: &Path, to: &Path) -> String {
    let a: Vec<_> = from.components().collect();
    let b: Vec<_> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[derive(Arbitrary, Debug)]
enum Body {
    /// `block bN(S)` applying an op to `[S, 64]` (`bad`: one whose shapes do not fit, an
    /// error inside the block the checked file's instantiation meets).
    Block { name: u8, bad: bool },
    /// Fuzzer bytes (parsing or not).
    Bytes(Vec<u8>),
    /// Fuzzer bytes with the secret marker, where the parser stops first.
    Secret { before: bool, bytes: Vec<u8> },
}

impl Body {
    fn render(&self, imports: &[String]) -> Vec<u8> {
        let mut out: Vec<u8> = imports
            .iter()
            .flat_map(|i| format!("import \"{i}\"\n").into_bytes())
            .collect();
        match self {
            Body::Block { name, bad } => out.extend(block(*name, *bad).into_bytes()),
            Body::Bytes(b) => out.extend(unmarked(b)),
            Body::Secret { before, bytes } => {
                if *before {
                    out.extend(format!("{MARK} = 1\n").into_bytes());
                    out.extend(unmarked(bytes));
                } else {
                    out.extend(unmarked(bytes));
                    out.extend(format!("\n@{MARK}\n").into_bytes());
                }
            }
        }
        out
    }
}

/// `bytes` without the marker (so that only marked files hold it), byte for byte otherwise.
fn unmarked(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mark = MARK.as_bytes();
    let mut i = 0;
    while i + mark.len() <= out.len() {
        if &out[i..i + mark.len()] == mark {
            out[i] = b's';
        }
        i += 1;
    }
    out
}

fn block(name: u8, bad: bool) -> String {
    let op = if bad {
        "matmul(x, x)"
    } else {
        [
            "elementwise.relu(x)",
            "elementwise.exp(x)",
            "reduction.softmax(x, axis = -1)",
        ][usize::from(name) % 3]
    };
    format!(
        "block b{}(S) {{\n  input x: [S, 64]\n  op a = {op} -> y\n  output y\n}}\n",
        name % 4
    )
}

/// A library folder as `fgraph.toml` writes it.
#[derive(Arbitrary, Debug)]
enum LibraryDesc {
    /// The folder of the tree's file of this index (or the link's), relative to the root.
    DirOf(u8, bool),
    Path(PathDesc),
}

#[derive(Arbitrary, Debug)]
struct FileDesc {
    /// Relative to the project root (or absolute).
    path: PathDesc,
    #[arbitrary(with = up_to::<3, _>)]
    imports: Vec<ImportDesc>,
    body: Body,
}

#[derive(Arbitrary, Debug)]
struct Tree {
    /// `fgraph.toml` at the project root (library folders need it).
    toml: bool,
    /// The checked file in `sub/` rather than at the root.
    in_sub: bool,
    #[arbitrary(with = up_to::<2, _>)]
    libraries: Vec<LibraryDesc>,
    #[arbitrary(with = up_to::<8, _>)]
    files: Vec<FileDesc>,
    #[arbitrary(with = up_to::<2, _>)]
    dirs: Vec<PathDesc>,
    /// (at, target); the target is written as an import would be from the link's folder.
    #[arbitrary(with = up_to::<4, _>)]
    links: Vec<(PathDesc, ImportDesc)>,
    /// Files `chain/c0.fgraph` … each importing the next; `cycle`: the last imports the first.
    chain: u8,
    cycle: bool,
    #[arbitrary(with = up_to::<5, _>)]
    imports: Vec<ImportDesc>,
    /// The blocks `b0`… the checked file's graph instantiates, in order.
    #[arbitrary(with = up_to::<3, _>)]
    uses: Vec<u8>,
}

/// `p` absolute (against the project root), `.`/`..` removed; `None` above `/`.
fn place(p: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in Path::new(ROOT).join(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// The text between each `open` and the next backquote.
fn quoted<'m>(message: &'m str, open: &str) -> Vec<&'m str> {
    message
        .match_indices(open)
        .filter_map(|(i, _)| {
            let rest = &message[i + open.len()..];
            rest.find('`').map(|j| &rest[..j])
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(tree) = Tree::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let root = Path::new(ROOT);
    let mut fs = MemoryFs::new();
    let main_path = if tree.in_sub {
        root.join("sub/main.fgraph")
    } else {
        root.join("main.fgraph")
    };
    let toml_name = |p: &Path| p.file_name().is_some_and(|n| n == "fgraph.toml");
    let chain = usize::from(tree.chain % 81);
    // Where everything goes, first, so that imports and links can lead to it.
    let placed = |d: &PathDesc| place(&d.render()).filter(|at| !toml_name(at) && *at != main_path);
    let places = Places {
        files: tree.files.iter().filter_map(|f| placed(&f.path)).collect(),
        links: tree.links.iter().filter_map(|(at, _)| placed(at)).collect(),
        chain,
    };
    let main_dir = main_path.parent().unwrap();
    let mut main_text = String::new();
    for i in &tree.imports {
        main_text.push_str(&format!("import \"{}\"\n", i.render(main_dir, &places)));
    }
    main_text.push_str("\ngraph g {\n  input x: [8, 64]\n");
    let mut last = "x".to_string();
    for (k, b) in tree.uses.iter().enumerate() {
        main_text.push_str(&format!("  op t{k} = b{}({last}, S = 8) -> h{k}\n", b % 4));
        last = format!("h{k}");
    }
    main_text.push_str(&format!("  output {last}\n}}\n"));
    assert!(fs.add_file(&main_path, main_text.clone()));
    if tree.toml {
        assert!(fs.add_file(root.join("fgraph.toml"), ""));
    }
    // Files: outside the project they hold the marker, whatever the description says.
    for f in &tree.files {
        let Some(at) = placed(&f.path) else {
            continue;
        };
        let dir = at.parent().unwrap_or(root);
        let imports: Vec<String> = f.imports.iter().map(|i| i.render(dir, &places)).collect();
        let mut text = f.body.render(&imports);
        if !at.starts_with(root) {
            let mut marked = format!("{MARK}\n").into_bytes();
            marked.extend(text);
            text = marked;
        }
        fs.add_file(&at, text);
    }
    for d in &tree.dirs {
        if let Some(at) = place(&d.render()) {
            fs.add_dir(&at);
        }
    }
    for (at, target) in &tree.links {
        if let Some(at) = placed(at) {
            let target = target.render(at.parent().unwrap_or(root), &places);
            fs.add_symlink(&at, target);
        }
    }
    for k in 0..chain {
        let next = if k + 1 < chain {
            format!("import \"c{}.fgraph\"\n", k + 1)
        } else if tree.cycle {
            "import \"c0.fgraph\"\n".to_string()
        } else {
            block(k as u8, false)
        };
        fs.add_file(root.join(format!("chain/c{k}.fgraph")), next);
    }
    // Library folders, as `fgraph.toml` would name them (those it would refuse left out).
    let libraries: Vec<Library> = if tree.toml {
        tree.libraries
            .iter()
            .filter_map(|l| {
                let written = match l {
                    LibraryDesc::DirOf(k, link) => {
                        let all = if *link { &places.links } else { &places.files };
                        match all.get(usize::from(*k) % all.len().max(1)) {
                            Some(p) => Some(relative(root, p.parent().unwrap_or(root)))
                                .filter(|r| !r.is_empty())
                                .unwrap_or_else(|| ".".to_string()),
                            None => ".".to_string(),
                        }
                    }
                    LibraryDesc::Path(p) => p.render(),
                };
                Library::resolve(&fs, root, &written).ok()
            })
            .collect()
    } else {
        Vec::new()
    };
    for l in &libraries {
        assert!(l.dir.starts_with(root), "library folder {l:?} outside");
    }
    let project = if tree.toml {
        root.to_path_buf()
    } else {
        main_path.parent().unwrap().to_path_buf()
    };
    let fs = Arc::new(fs);
    let opts = fgraph::Options {
        imports: ImportOptions {
            libraries: libraries.clone(),
            fs: Some(fs.clone() as Arc<dyn Vfs>),
        },
        ..fgraph::Options::default()
    };
    let name = main_path.to_str().unwrap();
    let report = fgraph::check_file(name, main_text.as_bytes(), &opts);
    common::render_diagnostics(&report, false);
    if std::env::var_os("FGRAPH_FUZZ_PRINT").is_some() {
        for (p, b) in fs.files() {
            eprintln!(
                "== {} ({} bytes)\n{}",
                p.display(),
                b.len(),
                String::from_utf8_lossy(b)
            );
        }
        eprintln!("libraries: {libraries:?}\nreads: {:?}", fs.reads());
        for d in &report.diagnostics {
            eprintln!("{}: {}", d.code, d.message);
        }
    }

    for r in fs.reads() {
        assert!(
            r.starts_with(&project) || libraries.iter().any(|l| r.starts_with(&l.dir)),
            "read outside the project: {r:?}"
        );
    }
    let inside = |shown: &str| -> bool {
        if let Some(n) = shown.strip_prefix("std/") {
            return fgraph::imports::stdlib::FILES.iter().any(|(f, _)| *f == n);
        }
        let p = Path::new(shown.strip_prefix("./").unwrap_or(shown));
        !p.is_absolute()
            && !p.components().any(|c| matches!(c, Component::ParentDir))
            && fs
                .canonicalize(&project.join(p))
                .is_ok_and(|c| c.starts_with(&project))
    };
    for d in &report.diagnostics {
        if let Some(p) = &d.primary {
            assert!(
                p.span.end <= main_text.len(),
                "{d:?} points outside the checked file"
            );
        }
        let mut texts = vec![d.message.as_str()];
        texts.extend(d.help.as_deref());
        texts.extend(d.primary.iter().map(|l| l.message.as_str()));
        texts.extend(d.secondary.iter().map(|l| l.message.as_str()));
        for t in &texts {
            assert!(!t.contains(MARK), "quoted a file that did not parse: {t}");
        }
        let m = d.message.as_str();
        let mut named: Vec<&str> = Vec::new();
        named.extend(quoted(m, "the imported file `"));
        named.extend(quoted(m, "imported by `"));
        named.extend(
            quoted(m, "(in `")
                .into_iter()
                .filter_map(|q| q.rsplitn(3, ':').nth(2)),
        );
        if m.contains("only regular files are imported") {
            named.extend(quoted(m, "`").into_iter().take(1));
        }
        if let Some(cycle) = m.strip_prefix("import cycle: ") {
            named.extend(cycle.split(" → ").filter(|n| *n != "…"));
        }
        for n in named {
            assert!(inside(n), "`{n}` named in {m:?} is not inside the tree");
        }
    }
});
