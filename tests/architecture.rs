//! The layout's two rules, checked on the source so later changes keep them (issue 20,
//! README "Layout"):
//!
//! 1. **No import cycles between files.** Every `crate::` path in a file's code (in `use`
//!    items, `use` groups and paths written inline) is an arrow from that file to the file of
//!    the longest module prefix of the path; the arrows must form no cycle. Code after a file's
//!    `#[cfg(test)]` is left out: a unit test may call the whole pipeline.
//! 2. **No file in `src/` holds more than 800 lines before its `#[cfg(test)]`** (comments
//!    included). Generated code lives outside `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 800;

/// Files being split while issue 20's layout lands; this list only shrinks, and is empty
/// when the issue is done.
const SPLITTING: &[&str] = &[];

/// Every `.rs` file under `src/`, as paths relative to `src/`.
fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p.strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn read(rel: &Path) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(rel)).unwrap()
}

/// The lines before the first `#[cfg(test)]` line.
fn code(text: &str) -> Vec<&str> {
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .collect()
}

/// The module path of a file: `fusion/mod.rs` → `fusion`, `cost/hwmodel/memory.rs` →
/// `cost::hwmodel::memory`, `lib.rs` → `` (the crate root).
fn module_of(rel: &Path) -> String {
    let s = rel.to_string_lossy().replace('\\', "/");
    let s = s.trim_end_matches(".rs");
    let s = s.trim_end_matches("/mod");
    if s == "lib" || s == "main" {
        return String::new();
    }
    s.replace('/', "::")
}

/// Strips comments and string literals, so that `crate::` in a doc comment or a message is
/// not an arrow.
fn strip(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            break;
        }
        if c == '"' {
            in_str = true;
            continue;
        }
        out.push(c);
    }
    out
}

/// Expands a `use` tree written after `crate::` (`a::{b, c::{d, self}}`) into full paths.
fn expand_tree(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim().trim_end_matches("::");
        let close = tree.rfind('}').unwrap_or(tree.len());
        let inner = &tree[open + 1..close];
        let base = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_tree(&base, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_tree(&base, &inner[start..], out);
    } else {
        let item = tree.split(" as ").next().unwrap().trim();
        if item.is_empty() {
            return;
        }
        if item == "self" {
            out.push(prefix.to_string());
        } else {
            out.push(join(prefix, item));
        }
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}::{b}"),
    }
}

/// Every `crate::` path in a file's code.
fn crate_paths(text: &str) -> Vec<String> {
    let code: String = code(text)
        .iter()
        .map(|l| strip(l))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        let after = &rest[at + "crate::".len()..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if after.starts_with('{') {
            // A use group: up to its matching brace.
            let mut depth = 0;
            let mut end = after.len();
            for (i, c) in after.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            expand_tree("", &after[..end], &mut out);
        } else {
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{'))
                .unwrap_or(after.len());
            let path = &after[..end];
            if path.ends_with('{') || path.contains("::{") {
                // `crate::a::{b, c}`: the group follows.
                let open = at_group(after);
                let mut depth = 0;
                let mut close = after.len();
                for (i, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                close = open + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                expand_tree("", &after[..close], &mut out);
            } else {
                out.push(path.trim_end_matches(':').to_string());
            }
        }
    }
    out
}

fn at_group(s: &str) -> usize {
    s.find('{').unwrap_or(s.len())
}

/// The file a `crate::` path lands in: the longest prefix of the path that is a module.
fn resolve<'m>(path: &str, modules: &'m BTreeMap<String, PathBuf>) -> Option<&'m PathBuf> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    (0..=segs.len())
        .rev()
        .find_map(|n| modules.get(&segs[..n].join("::")))
}

#[test]
fn no_import_cycles_between_files() {
    let files = sources();
    let mut modules = BTreeMap::new();
    for f in &files {
        if f.as_os_str() != "main.rs" {
            modules.insert(module_of(f), f.clone());
        }
    }
    let mut arrows: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for f in &files {
        if f.as_os_str() == "main.rs" {
            continue; // the binary: a crate of its own, on top of everything
        }
        let text = read(f);
        for p in crate_paths(&text) {
            if let Some(to) = resolve(&p, &modules)
                && to != f
            {
                arrows.entry(f.clone()).or_default().insert(to.clone());
            }
        }
    }
    // Tarjan's strongly connected components, iteratively is not needed at this size.
    let nodes: Vec<&PathBuf> = modules.values().collect();
    let nodes = &nodes;
    let index_of: BTreeMap<&PathBuf, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            arrows
                .get(*n)
                .into_iter()
                .flatten()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let cycles = strongly_connected(&succ)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> =
                c.iter().map(|&i| nodes[i].display().to_string()).collect();
            names.sort();
            let ties: Vec<String> =
                c.iter()
                    .flat_map(|&i| {
                        succ[i].iter().filter(|j| c.contains(j)).map(move |&j| {
                            format!("{} -> {}", nodes[i].display(), nodes[j].display())
                        })
                    })
                    .collect();
            format!("{}\n    {}", names.join(", "), ties.join("\n    "))
        })
        .collect::<Vec<_>>();
    assert!(
        cycles.is_empty(),
        "import cycles between files in src/ (arrows are `crate::` paths):\n  {}",
        cycles.join("\n  ")
    );
}

fn strongly_connected(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct T<'a> {
        succ: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &t.succ[v] {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(i) if t.on[w] => t.low[v] = t.low[v].min(i),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            t.out.push(comp);
        }
    }
    let n = succ.len();
    let mut t = T {
        succ,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_source_file_over_800_lines_before_its_tests() {
    let long: Vec<String> = sources()
        .iter()
        .filter_map(|f| {
            if SPLITTING.contains(&f.to_string_lossy().as_ref()) {
                return None;
            }
            let n = code(&read(f)).len();
            (n > MAX_LINES).then(|| format!("src/{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files in src/ over {MAX_LINES} lines before #[cfg(test)] (split them along a seam): {}",
        long.join(", ")
    );
}

#[test]
fn the_path_reader_reads_groups_and_inline_paths() {
    let text = "use crate::{a, b::{c, d as e}};\nuse crate::f::{self, g};\nfn x() { crate::h::i(); }\n// crate::comment\nlet s = \"crate::string\";\n#[cfg(test)]\nuse crate::tests_only;";
    let mut got = crate_paths(text);
    got.sort();
    assert_eq!(got, ["a", "b::c", "b::d", "f", "f::g", "h::i"]);
}
