//! `import "path"`: reading, parsing and placing the files whose blocks a file uses.
//!
//! Paths are relative to the importing file. Every file is read and parsed once, however many
//! files import it; a cycle of imports, a file that cannot be read and a file that does not
//! parse are `bad-import` diagnostics at the import statement of the file being checked that
//! led to them. An imported file's text is placed after the importing file's in one span space
//! (file `k` starts at its `base`), so that spans stay plain byte ranges through the pipeline;
//! [`relocate`] moves the diagnostics about imported text back into the checked file, pointing
//! at the instantiation that used the block and naming the place in the imported file.

use crate::diagnostics::{Code, Diagnostic, Label, SourceFile, Span};
use crate::syntax::ast::{File, ImportAst};
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
    let main_canon = std::fs::canonicalize(main_path).ok();
    // Every file read so far, by canonical path (the checked file first, if it is one).
    let mut seen: Vec<PathBuf> = main_canon.iter().cloned().collect();
    struct Frame {
        dir: PathBuf,
        /// The file's chain of canonical paths from the checked file.
        chain: Vec<PathBuf>,
        imports: Vec<(String, Span)>,
        next: usize,
        /// The checked file's import statement this frame descends from (`None`: the
        /// checked file itself).
        via: Option<Span>,
    }
    let dir_of = |p: &Path| p.parent().map_or_else(PathBuf::new, Path::to_path_buf);
    let mut stack = vec![Frame {
        dir: dir_of(main_path),
        chain: main_canon.iter().cloned().collect(),
        imports: imports
            .iter()
            .map(|i| (i.path.to_string(), i.span))
            .collect(),
        next: 0,
        via: None,
    }];
    let mut base = main_len + 1;
    while let Some(frame) = stack.last_mut() {
        let Some((path, span)) = frame.imports.get(frame.next).cloned() else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        let via = frame.via.unwrap_or(span);
        let nested = frame.via.is_some();
        let joined = frame.dir.join(&path);
        let shown = joined.display().to_string();
        let bad = |message: String, label: &str| {
            Diagnostic::new(Code::BadImport, message).at(via, label.to_string())
        };
        let canon = match std::fs::canonicalize(&joined) {
            Ok(c) => c,
            Err(e) => {
                let what = if nested {
                    format!("`{shown}`, imported by an imported file, cannot be read: {e}")
                } else {
                    format!("cannot read `{shown}`: {e}")
                };
                diags.push(
                    bad(what, "imported here")
                        .help("import paths are relative to the file that imports them"),
                );
                continue;
            }
        };
        if let Some(k) = frame.chain.iter().position(|c| *c == canon) {
            let mut names: Vec<String> = frame.chain[k..]
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            names.push(canon.display().to_string());
            diags.push(
                bad(
                    format!("import cycle: {}", names.join(" → ")),
                    "this import leads back to a file that imports it",
                )
                .help("move the blocks both files need into a third file that both import"),
            );
            continue;
        }
        if seen.contains(&canon) {
            continue;
        }
        seen.push(canon.clone());
        let bytes = match std::fs::read(&canon) {
            Ok(b) => b,
            Err(e) => {
                diags.push(bad(format!("cannot read `{shown}`: {e}"), "imported here"));
                continue;
            }
        };
        let (text, decode_error) = crate::syntax::decode_owned(bytes);
        let text: &'s str = arena.alloc_str(&text);
        let source = SourceFile::new(shown.clone(), text.to_string());
        let first_error = match decode_error {
            Some(d) => Err(Box::new(d)),
            None => crate::syntax::parse(text),
        };
        let file = match first_error {
            Ok(f) => f,
            Err(d) => {
                let at = d.primary.as_ref().map_or(String::new(), |p| {
                    let (line, col) = source.lines().line_col(&source.text, p.span.start);
                    format!(" ({shown}:{line}:{col})")
                });
                diags.push(
                    bad(
                        format!("`{shown}` does not parse: {}{at}", d.message),
                        "imported here",
                    )
                    .help(format!("run `fgraph check {shown}` to see its errors")),
                );
                continue;
            }
        };
        let mut chain = frame.chain.clone();
        chain.push(canon);
        let imports = file
            .imports
            .iter()
            .map(|i| (i.path.to_string(), i.span))
            .collect();
        loaded.files.push(Imported { source, base, via });
        loaded.trees.push((file, base));
        base = base.saturating_add(text.len() + 1);
        stack.push(Frame {
            dir: dir_of(&joined),
            chain,
            imports,
            next: 0,
            via: Some(via),
        });
    }
    loaded
}

/// Moves every diagnostic about an imported file's text into the checked file (`main_len`
/// bytes): it points at the checked file's instantiation that used the block (else at the
/// import), and its message names the place in the imported file.
pub fn relocate(diags: &mut [Diagnostic], main_len: usize, files: &[Imported]) {
    if files.is_empty() {
        return;
    }
    let file_of = |s: Span| {
        files
            .iter()
            .rev()
            .find(|f| s.start >= f.base && s.start > main_len)
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
