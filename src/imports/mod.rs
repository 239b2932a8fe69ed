//! `import "path"`: reading, parsing and placing the files whose blocks a file uses.
//!
//! Paths are relative to the importing file and stay inside the project (`read.rs`: the folder
//! of the governing `fgraph.toml`, else of the checked file); only regular files are read, within
//! the file and import-graph limits ([`crate::limits`]). Every file is read and parsed once,
//! however many files import it; an import that leads outside the project, a cycle, a file that
//! cannot be read and a file that does not parse are `bad-import` diagnostics at the import
//! statement of the file being checked that led to them, naming files relative to the project
//! and never quoting a file that did not parse. An imported file's text is placed after the
//! importing file's in one span space (file `k` starts at its `base`), so that spans stay plain
//! byte ranges through the pipeline; [`relocate`] moves the diagnostics about imported text back
//! into the checked file, pointing at the instantiation that used the block and naming the
//! place in the imported file.

mod read;

use crate::diagnostics::{Code, Diagnostic, Label, SourceFile, Span};
use crate::limits::{MAX_FILE_BYTES, MAX_IMPORT_BYTES, MAX_IMPORT_FILES};
use crate::syntax::ast::{File, ImportAst};
use read::{Project, ReadError, Refusal};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// An imported file.
#[derive(Clone, Debug)]
pub struct Imported {
    /// Named by its path as joined to the importing file's directory.
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
}

/// Imports, transitively, of the file `name` (whose text is `main_len` bytes long).
pub fn load<'s>(
    name: &str,
    main_len: usize,
    imports: &[ImportAst<'_>],
    arena: &'s bumpalo::Bump,
    diags: &mut Vec<Diagnostic>,
) -> Loaded<'s> {
    let mut loaded = Loaded {
        files: Vec::new(),
        trees: Vec::new(),
    };
    if imports.is_empty() {
        return loaded;
    }
    let main_path = Path::new(name);
    let project = Project::of(main_path);
    let main_canon = std::fs::canonicalize(main_path).ok();
    // Every file read so far, by canonical path (the checked file first, if it is one).
    let mut seen: HashSet<PathBuf> = main_canon.iter().cloned().collect();
    // The files on the stack, by canonical path, with their depth: the chain from the
    // checked file that a cycle leads back into.
    let mut on_stack: HashMap<PathBuf, usize> = HashMap::new();
    struct Frame {
        dir: PathBuf,
        /// Its canonical path (`None`: a checked file that is not on disk).
        canon: Option<PathBuf>,
        /// How messages name it.
        shown: String,
        imports: Vec<(String, Span)>,
        next: usize,
        /// The checked file's import statement this frame descends from (`None`: the
        /// checked file itself).
        via: Option<Span>,
    }
    let dir_of = |p: &Path| p.parent().map_or_else(PathBuf::new, Path::to_path_buf);
    if let Some(c) = &main_canon {
        on_stack.insert(c.clone(), 0);
    }
    let mut stack = vec![Frame {
        dir: dir_of(main_path),
        canon: main_canon.clone(),
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
            if let Some(c) = &frame.canon {
                on_stack.remove(c);
            }
            stack.pop();
            continue;
        };
        frame.next += 1;
        let via = frame.via.unwrap_or(span);
        let importer = frame.via.map(|_| frame.shown.clone());
        let joined = frame.dir.join(&path);
        let shown = project
            .show(&joined)
            .unwrap_or_else(|| path.replace('\\', "/"));
        let bad = |message: String, label: &str| {
            Diagnostic::new(Code::BadImport, message).at(via, label.to_string())
        };
        let by = importer
            .as_ref()
            .map_or(String::new(), |i| format!(", imported by `{i}`,"));
        let canon = match project.resolve(&frame.dir, &path) {
            Ok(c) => c,
            Err(Refusal::Outside(why)) => {
                diags.push(
                    bad(
                        format!("imports stay inside the project: `{path}`{by} {why}"),
                        "imported here",
                    )
                    .help(ROOT_HELP),
                );
                continue;
            }
            Err(Refusal::Unresolved(e)) => {
                let what = match &importer {
                    Some(i) => format!("`{shown}`, imported by `{i}`, cannot be read: {e}"),
                    None => format!("cannot read `{shown}`: {e}"),
                };
                diags.push(
                    bad(what, "imported here")
                        .help("import paths are relative to the file that imports them"),
                );
                continue;
            }
        };
        let shown = project.show(&canon).unwrap_or(shown);
        if let Some(&k) = on_stack.get(&canon) {
            let mut names: Vec<&str> = stack[k..].iter().map(|f| f.shown.as_str()).collect();
            names.push(&shown);
            if names.len() > 8 {
                let n = names.len();
                names.splice(3..n - 3, ["…"]);
            }
            diags.push(
                bad(
                    format!("import cycle: {}", names.join(" → ")),
                    "this import leads back to a file that imports it",
                )
                .help("move the blocks both files need into a third file that both import"),
            );
            continue;
        }
        if !seen.insert(canon.clone()) {
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
        let bytes = match read::read_regular(&canon, room) {
            Ok(b) => b,
            Err(ReadError::NotRegular(what)) => {
                diags.push(
                    bad(
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
                diags.push(bad(
                    format!("cannot read `{shown}`{by}: {e}"),
                    "imported here",
                ));
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
                    bad(
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
        on_stack.insert(canon.clone(), stack.len());
        stack.push(Frame {
            dir: dir_of(&joined),
            canon: Some(canon),
            shown,
            imports,
            next: 0,
            via: Some(via),
        });
    }
    loaded
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
