//! `import "path"`: finding, reading, parsing and placing the files whose blocks a file uses.
//!
//! An import is looked up relative to the importing file, then (a path without `..`) in each
//! library folder of the configuration in order ([`library`]); `std/…` is the standard
//! library compiled into the binary ([`stdlib`]), never the file system. Whatever folder a
//! file is found under, the path stays inside it (`read.rs`: the project root is the folder
//! of the governing `fgraph.toml`, else of the checked file); only regular files are read,
//! within the file and import-graph limits ([`crate::limits`]), through the file system seam
//! ([`vfs`]: the disk, or one in memory for tests and fuzzing). Every file is read and parsed
//! once, however many files import it; an import that leads outside, a cycle, a file that
//! cannot be read or found and a file that does not parse are `bad-import` diagnostics at
//! the import statement of the file being checked that led to them, naming files relative to
//! the project and never quoting a file that did not parse. An imported file's text is
//! placed after the importing file's in one span space (file `k` starts at its `base`), so
//! that spans stay plain byte ranges through the pipeline; [`relocate`] moves the diagnostics
//! about imported text back into the checked file, pointing at the instantiation that used
//! the block and naming the place in the imported file.

pub mod library;
mod read;
pub mod stdlib;
pub mod vfs;

use crate::diagnostics::{Code, Diagnostic, Label, SourceFile, Span};
use crate::limits::{MAX_FILE_BYTES, MAX_IMPORT_BYTES, MAX_IMPORT_FILES};
use crate::syntax::ast::{File, ImportAst};
use library::ImportOptions;
use read::{Project, Refusal, Under};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use vfs::{ReadError, Vfs};

/// An imported file.
#[derive(Clone, Debug)]
pub struct Imported {
    /// Named by its path relative to the project (`std/…` for the standard library).
    pub source: SourceFile,
    /// Where its text starts in the span space.
    pub base: usize,
    /// The import statement of the checked file that brought it in.
    pub via: Span,
}

/// The imports of a file, transitively, and their syntax trees with their spans' shifts.
pub struct Loaded<'s> {
    pub files: Vec<Imported>,
    pub trees: Vec<(File<'s>, usize)>,
    /// An import (of the checked file or of a file it imports) that brought in no blocks: it
    /// was reported, and the names it may have defined are unknown (see
    /// [`crate::syntax::expand::Blocks::set_import_failed`]).
    pub failed: bool,
}

/// A file's identity: its canonical path, or its name in the standard library.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Disk(PathBuf),
    Std(&'static str),
}

/// Where a file was found, which decides where its own imports are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Under(Under),
    Std,
}

/// A file an import names, found.
enum Found {
    Disk {
        canon: PathBuf,
        /// Its path as joined to the folder it was found under (its imports are relative
        /// to this one's folder).
        joined: PathBuf,
        under: Under,
    },
    Std {
        name: &'static str,
        text: &'static str,
    },
}

/// Imports, transitively, of the file `name` (whose text is `main_len` bytes long), found
/// as `settings` says.
pub fn load<'s>(
    name: &str,
    main_len: usize,
    imports: &[ImportAst<'_>],
    settings: &ImportOptions,
    arena: &'s bumpalo::Bump,
    diags: &mut Vec<Diagnostic>,
) -> Loaded<'s> {
    let mut loaded = Loaded {
        files: Vec::new(),
        trees: Vec::new(),
        failed: false,
    };
    if imports.is_empty() {
        return loaded;
    }
    let reported = diags.len();
    let disk = vfs::Disk;
    let fs: &dyn Vfs = settings.fs.as_deref().unwrap_or(&disk);
    let main_path = Path::new(name);
    let project = Project::of(fs, main_path, &settings.libraries);
    let main_canon = fs.canonicalize(main_path).ok();
    // Every file read so far (the checked file first, if it is one).
    let mut seen: HashSet<Key> = main_canon.iter().cloned().map(Key::Disk).collect();
    // The files on the stack with their depth: the chain from the checked file that a cycle
    // leads back into.
    let mut on_stack: HashMap<Key, usize> = HashMap::new();
    struct Frame {
        dir: PathBuf,
        origin: Origin,
        /// Its identity (`None`: a checked file that is not on disk).
        key: Option<Key>,
        /// How messages name it.
        shown: String,
        imports: Vec<(String, Span)>,
        next: usize,
        /// The checked file's import statement this frame descends from (`None`: the
        /// checked file itself).
        via: Option<Span>,
    }
    let dir_of = |p: &Path| p.parent().map_or_else(PathBuf::new, Path::to_path_buf);
    let main_key = main_canon.clone().map(Key::Disk);
    if let Some(k) = &main_key {
        on_stack.insert(k.clone(), 0);
    }
    let mut stack = vec![Frame {
        dir: dir_of(main_path),
        origin: Origin::Under(Under::Project),
        key: main_key,
        shown: main_canon
            .as_deref()
            .and_then(|c| project.show(c))
            .unwrap_or_else(|| name.to_string()),
        imports: imports
            .iter()
            .map(|i| (i.path.to_string(), i.span))
            .collect(),
        next: 0,
        via: None,
    }];
    let mut base = main_len + 1;
    let mut total_bytes = 0usize;
    while let Some(frame) = stack.last_mut() {
        let Some((path, span)) = frame.imports.get(frame.next).cloned() else {
            if let Some(k) = &frame.key {
                on_stack.remove(k);
            }
            stack.pop();
            continue;
        };
        frame.next += 1;
        let via = frame.via.unwrap_or(span);
        let importer = frame.via.map(|_| frame.shown.clone());
        let ctx = Ctx {
            project: &project,
            path: &path,
            via,
            importer: importer.as_deref(),
        };
        let found = match ctx.locate(&frame.dir, frame.origin) {
            Ok(f) => f,
            Err(d) => {
                diags.push(*d);
                continue;
            }
        };
        let (key, shown) = match &found {
            Found::Disk { canon, .. } => (
                Key::Disk(canon.clone()),
                project.show(canon).unwrap_or_else(|| ctx.shown()),
            ),
            Found::Std { name, .. } => (Key::Std(name), format!("std/{name}")),
        };
        let by = ctx.by();
        if let Some(&k) = on_stack.get(&key) {
            let mut names: Vec<&str> = stack[k..].iter().map(|f| f.shown.as_str()).collect();
            names.push(&shown);
            if names.len() > 8 {
                let n = names.len();
                names.splice(3..n - 3, ["…"]);
            }
            diags.push(
                ctx.bad(
                    format!("import cycle: {}", names.join(" → ")),
                    "this import leads back to a file that imports it",
                )
                .help("move the blocks both files need into a third file that both import"),
            );
            continue;
        }
        if !seen.insert(key.clone()) {
            continue;
        }
        if loaded.files.len() >= MAX_IMPORT_FILES {
            diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "the imports bring in more than {MAX_IMPORT_FILES} files, the limit on \
                         an import graph"
                    ),
                )
                .at(via, "imported here"),
            );
            break;
        }
        let room = MAX_IMPORT_BYTES
            .saturating_sub(total_bytes)
            .min(MAX_FILE_BYTES);
        let read = match &found {
            Found::Disk { canon, .. } => fs.read(canon, room),
            Found::Std { text, .. } if text.len() > room => Err(ReadError::TooLarge),
            Found::Std { text, .. } => Ok(text.as_bytes().to_vec()),
        };
        let bytes = match read {
            Ok(b) => b,
            Err(ReadError::NotRegular(what)) => {
                diags.push(
                    ctx.bad(
                        format!("`{shown}`{by} is {what}: only regular files are imported"),
                        "imported here",
                    )
                    .help("import a `.fgraph` file"),
                );
                continue;
            }
            Err(ReadError::TooLarge) => {
                let message = if room < MAX_FILE_BYTES {
                    format!(
                        "the imports add up to more than {MAX_IMPORT_BYTES} bytes, the limit on \
                         an import graph (at `{shown}`)"
                    )
                } else {
                    format!("`{shown}`{by} is larger than the {MAX_FILE_BYTES}-byte file limit")
                };
                diags.push(Diagnostic::new(Code::LimitExceeded, message).at(via, "imported here"));
                break;
            }
            Err(ReadError::Io(e)) => {
                diags.push(ctx.bad(format!("cannot read `{shown}`{by}: {e}"), "imported here"));
                continue;
            }
        };
        total_bytes += bytes.len();
        let (text, decode_error) = crate::syntax::decode_owned(bytes);
        let text: &'s str = arena.alloc_str(&text);
        let source = SourceFile::new(shown.clone(), text.to_string());
        let parsed = match decode_error {
            Some(_) => Err(None),
            None => crate::syntax::parse(text).map_err(|d| d.primary.map(|p| p.span.start)),
        };
        let file = match parsed {
            Ok(f) => f,
            Err(at) => {
                // Never its text: the file may be anything that happened to be in the project.
                let why = match at {
                    None => "it is not UTF-8 text".to_string(),
                    Some(at) => {
                        let (line, col) = source.lines().line_col(&source.text, at);
                        format!("unexpected {} at {line}:{col}", token_kind(text, at))
                    }
                };
                diags.push(
                    ctx.bad(
                        format!("the imported file `{shown}`{by} does not parse ({why})"),
                        "imported here",
                    )
                    .help("run `fgraph check` on it to see its errors"),
                );
                continue;
            }
        };
        let imports = file
            .imports
            .iter()
            .map(|i| (i.path.to_string(), i.span))
            .collect();
        loaded.files.push(Imported { source, base, via });
        loaded.trees.push((file, base));
        base = base.saturating_add(text.len() + 1);
        on_stack.insert(key.clone(), stack.len());
        let (dir, origin) = match found {
            Found::Disk { joined, under, .. } => (dir_of(&joined), Origin::Under(under)),
            Found::Std { .. } => (PathBuf::new(), Origin::Std),
        };
        stack.push(Frame {
            dir,
            origin,
            key: Some(key),
            shown,
            imports,
            next: 0,
            via: Some(via),
        });
    }
    // Every diagnostic here is an import that failed, except a cycle: the file it leads back
    // to is loaded, blocks and all.
    loaded.failed = diags[reported..]
        .iter()
        .any(|d| !d.message.starts_with("import cycle"));
    loaded
}

/// One import statement being followed: what it says, where, and from which file.
struct Ctx<'a, 'f> {
    project: &'a Project<'f>,
    /// As written.
    path: &'a str,
    /// The checked file's import statement it descends from.
    via: Span,
    /// How messages name the importing file, when it is not the checked one.
    importer: Option<&'a str>,
}

impl Ctx<'_, '_> {
    fn bad(&self, message: String, label: &str) -> Diagnostic {
        Diagnostic::new(Code::BadImport, message).at(self.via, label.to_string())
    }

    /// ", imported by `lib/a.fgraph`," when the importing file is not the checked one.
    fn by(&self) -> String {
        self.importer
            .map_or(String::new(), |i| format!(", imported by `{i}`,"))
    }

    /// The path as messages name it before it is found: as written, `\` as `/`.
    fn shown(&self) -> String {
        self.path.replace('\\', "/")
    }

    /// The file the import names, written in a file in `dir` found as `origin`: the
    /// standard library for `std/…` (and for everything a standard-library file imports),
    /// else relative to `dir` under the importing file's folder, else (a path without `..`,
    /// not there) in each library folder in order.
    fn locate(&self, dir: &Path, origin: Origin) -> Result<Found, Box<Diagnostic>> {
        let path = self.path;
        let by = self.by();
        let under = match origin {
            Origin::Std => return self.locate_std(true),
            Origin::Under(_) if stdlib::is_std(path) => return self.locate_std(false),
            Origin::Under(u) => u,
        };
        let shown = self
            .project
            .show(&dir.join(path))
            .unwrap_or_else(|| self.shown());
        let first = match self.project.resolve(under, dir, path) {
            Ok(canon) => {
                return Ok(Found::Disk {
                    canon,
                    joined: dir.join(path),
                    under,
                });
            }
            Err(Refusal::Outside(why)) => return Err(self.outside(&why)),
            Err(Refusal::Unresolved(e)) => e,
        };
        let searched = absent(&first) && searchable(path);
        let libraries: Vec<&str> = if searched {
            self.project.library_names().collect()
        } else {
            Vec::new()
        };
        for (k, _) in libraries.iter().enumerate() {
            let Some(lib) = self.project.library_dir(k) else {
                continue;
            };
            match self.project.resolve(Under::Library(k), lib, path) {
                Ok(canon) => {
                    return Ok(Found::Disk {
                        canon,
                        joined: lib.join(path),
                        under: Under::Library(k),
                    });
                }
                Err(Refusal::Outside(why)) => return Err(self.outside(&why)),
                Err(Refusal::Unresolved(e)) if absent(&e) => {}
                Err(Refusal::Unresolved(e)) => {
                    let shown = self
                        .project
                        .show(&lib.join(path))
                        .unwrap_or_else(|| self.shown());
                    return Err(Box::new(
                        self.bad(format!("cannot read `{shown}`{by}: {e}"), "imported here"),
                    ));
                }
            }
        }
        let elsewhere = match libraries.as_slice() {
            [] => String::new(),
            [one] => format!("; it is not in the library folder `{one}` either"),
            many => format!(
                "; it is not in the library folders {} either",
                many.iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let what = match self.importer {
            Some(i) => format!("`{shown}`, imported by `{i}`, cannot be read: {first}{elsewhere}"),
            None => format!("cannot read `{shown}`: {first}{elsewhere}"),
        };
        let help = if libraries.is_empty() {
            "import paths are relative to the file that imports them"
        } else {
            "import paths are relative to the file that imports them, then to each library \
             folder (`[imports] paths` in `fgraph.toml`)"
        };
        Err(Box::new(self.bad(what, "imported here").help(help)))
    }

    fn locate_std(&self, in_std: bool) -> Result<Found, Box<Diagnostic>> {
        match stdlib::find(self.path, in_std) {
            Ok((name, text)) => Ok(Found::Std { name, text }),
            Err(stdlib::Miss::Outside) => Err(Box::new(
                self.bad(
                    format!(
                        "`{}`{} leads outside the standard library",
                        self.shown(),
                        self.by()
                    ),
                    "imported here",
                )
                .help(format!("the standard library has {}", stdlib::listing())),
            )),
            Err(stdlib::Miss::Unknown(name)) => {
                let mut d = self.bad(
                    format!(
                        "the standard library has no `std/{name}`{}",
                        self.by().trim_end_matches(',')
                    ),
                    "not in the standard library",
                );
                let names = stdlib::FILES.iter().map(|(n, _)| *n);
                d = match crate::diagnostics::did_you_mean(&name, names) {
                    Some(s) => d.help(format!(
                        "did you mean `std/{s}`? The standard library has {}",
                        stdlib::listing()
                    )),
                    None => d.help(format!(
                        "the standard library has {}; a project folder named `std` is \
                         imported as `./std/…`",
                        stdlib::listing()
                    )),
                };
                Err(Box::new(d))
            }
        }
    }

    fn outside(&self, why: &str) -> Box<Diagnostic> {
        Box::new(
            self.bad(
                format!(
                    "imports stay inside the project: `{}`{} {why}",
                    self.path,
                    self.by()
                ),
                "imported here",
            )
            .help(ROOT_HELP),
        )
    }
}

/// Whether an error resolving a path means that nothing is there (so the library folders
/// are searched).
fn absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// Whether an import path is looked up in the library folders too: relative, without `..`.
fn searchable(path: &str) -> bool {
    let p = Path::new(path);
    !p.is_absolute()
        && !p.has_root()
        && !p
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
}

const ROOT_HELP: &str = "an import is a path relative to the importing file, inside the project: \
                         the folder of the nearest `fgraph.toml` above the checked file, else the \
                         checked file's folder";

/// The kind of the token that starts at `at` in `text`, in words (never the token itself).
fn token_kind(text: &str, at: usize) -> &'static str {
    match text.get(at..).and_then(|r| r.chars().next()) {
        None => "end of file",
        Some(c) if c.is_ascii_alphabetic() || c == '_' => "identifier",
        Some(c) if c.is_ascii_digit() => "number",
        Some('"') => "string",
        Some('\n' | '\r') => "end of line",
        Some(c) if c.is_whitespace() => "whitespace",
        Some(c) if c.is_ascii_punctuation() => "punctuation",
        Some(c) if c.is_control() => "control character",
        Some(_) => "non-ASCII character",
    }
}

/// Moves every diagnostic about an imported file's text into the checked file (`main_len`
/// bytes): it points at the checked file's instantiation that used the block (else at the
/// import), and its message names the place in the imported file.
pub fn relocate(diags: &mut [Diagnostic], main_len: usize, files: &[Imported]) {
    if files.is_empty() {
        return;
    }
    // Files are in increasing `base`: the last one starting at or before the span.
    let file_of = |s: Span| {
        let k = files.partition_point(|f| f.base <= s.start);
        (s.start > main_len && k > 0).then(|| &files[k - 1])
    };
    let place = |f: &Imported, s: Span| {
        let (line, col) = f
            .source
            .lines()
            .line_col(&f.source.text, s.start.saturating_sub(f.base));
        format!("{}:{line}:{col}", f.source.name)
    };
    for d in diags.iter_mut() {
        let Some(primary) = d.primary.clone() else {
            continue;
        };
        let Some(f) = file_of(primary.span) else {
            // About the checked file, with labels in an imported one: those become notes.
            let notes: Vec<String> = d
                .secondary
                .iter()
                .filter_map(|l| {
                    file_of(l.span).map(|g| format!("{}: {}", place(g, l.span), l.message))
                })
                .collect();
            if !notes.is_empty() {
                d.secondary.retain(|l| l.span.end <= main_len);
                let help = d.help.take().map_or(String::new(), |h| format!("; {h}"));
                d.help = Some(format!("{}{help}", notes.join("; ")));
            }
            continue;
        };
        let anchor = d
            .secondary
            .iter()
            .find(|l| l.span.end <= main_len)
            .map(|l| l.span)
            .unwrap_or(f.via);
        let mut notes = vec![format!("{}: {}", place(f, primary.span), primary.message)];
        for l in &d.secondary {
            if let Some(g) = file_of(l.span) {
                notes.push(format!("{}: {}", place(g, l.span), l.message));
            }
        }
        d.message = format!("{} (in `{}`)", d.message, place(f, primary.span));
        d.primary = Some(Label {
            span: anchor,
            message: format!("in a block of `{}`: {}", f.source.name, primary.message),
        });
        d.secondary
            .retain(|l| l.span.end <= main_len && l.span != anchor);
        let help = d.help.take().map_or(String::new(), |h| format!("; {h}"));
        d.help = Some(format!("{}{help}", notes.join("; ")));
        // Edits would land in the wrong file.
        d.fixes = Default::default();
    }
}
