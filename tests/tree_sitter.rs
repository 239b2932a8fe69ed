//! The tree-sitter grammar of `.fgraph` files (editors/tree-sitter-fgraph, compiled from its
//! generated `src/parser.c` by the `tree-sitter-fgraph` crate) kept in step with the pest
//! grammar fgraph parses with (grammar/fgraph.pest): every shipped `.fgraph` file and every
//! fixture that fgraph's parser accepts parses without an ERROR or MISSING node; fixtures it
//! rejects with a syntax error have one; and the highlight query compiles against the
//! grammar and colours what it should.

use std::path::{Path, PathBuf};
use tree_sitter::{Node, Parser, Query, QueryCursor, StreamingIterator};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_fgraph::LANGUAGE.into())
        .expect("the grammar's ABI is one the tree-sitter crate reads");
    p
}

/// Where the tree has ERROR or MISSING nodes: "line:column kind".
fn errors(text: &str) -> Vec<String> {
    let tree = parser().parse(text, None).expect("a tree");
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            let p = n.start_position();
            let what = if n.is_missing() { "MISSING" } else { "ERROR" };
            out.push(format!(
                "{}:{} {what} {}",
                p.row + 1,
                p.column + 1,
                n.kind()
            ));
        } else if n.has_error() {
            let mut c = n.walk();
            stack.extend(n.children(&mut c).collect::<Vec<Node>>());
        }
    }
    out
}

/// The regular `.fgraph` files below `dir` (symbolic links, FIFOs and the like left alone).
fn fgraph_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            fgraph_files(&path, out);
        } else if meta.is_file() && path.extension().is_some_and(|x| x == "fgraph") {
            out.push(path);
        }
    }
}

fn files_under(dirs: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dirs {
        fgraph_files(&Path::new(ROOT).join(d), &mut out);
    }
    out.sort();
    out
}

#[test]
fn every_shipped_file_parses_without_errors() {
    let files = files_under(&["examples", "std", "validation", "benches"]);
    assert!(files.len() >= 30, "{} files", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).expect("UTF-8");
        assert!(
            fgraph::syntax::parse(&text).is_ok(),
            "{}: fgraph rejects a shipped file",
            f.display()
        );
        let errs = errors(&text);
        assert!(errs.is_empty(), "{}: {errs:?}", f.display());
    }
}

/// Rejections that come from lowering or from limits, not from the grammar: tree-sitter's
/// grammar, which does not lower, accepts these files (a keyword or a non-ASCII character
/// as a name, a name or a nesting past the limits).
fn rejected_after_the_grammar(d: &fgraph::diagnostics::Diagnostic) -> bool {
    d.code == fgraph::diagnostics::Code::LimitExceeded
        || d.message
            .starts_with("expected an identifier, found keyword")
        || d.message.starts_with("unexpected character")
}

#[test]
fn fixtures_parse_as_fgraph_parses_them() {
    let files = files_under(&["tests"]);
    assert!(files.len() >= 60, "{} files", files.len());
    let (mut accepted, mut rejected, mut skipped) = (0, 0, 0);
    for f in &files {
        let bytes = std::fs::read(f).expect("readable");
        if bytes.len() > 1 << 20 {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // not UTF-8: fgraph reports it before parsing
        };
        let errs = errors(&text);
        match fgraph::syntax::parse(&text) {
            Ok(_) => {
                accepted += 1;
                assert!(errs.is_empty(), "{}: {errs:?}", f.display());
            }
            Err(d) if !rejected_after_the_grammar(&d) => {
                rejected += 1;
                assert!(
                    !errs.is_empty(),
                    "{}: fgraph says `{}` but tree-sitter finds no error",
                    f.display(),
                    d.message
                );
            }
            Err(d) => {
                skipped += 1;
                eprintln!("{}: not compared: {}", f.display(), d.message);
            }
        }
    }
    eprintln!(
        "{accepted} fixtures accepted, {rejected} rejected by the grammar, {skipped} after it"
    );
    assert!(accepted >= 50, "{accepted} fixtures accepted");
    assert!(rejected >= 3, "{rejected} fixtures rejected by the grammar");
}

#[test]
fn syntax_errors_are_errors_here_too() {
    // Each is rejected by the pest grammar; tree-sitter finds an error in each.
    for text in [
        "graph g {\n  op a = relu(x) y\n}\n",
        "graph g {\n  input x: f16[4\n}\n",
        "graph g {\n  op a = relu(x) - > y\n}\n",
        "graph g {\n  param = 4\n}\n",
        "graph g {\n  input x f16[4]\n}\n",
        "graph g {\n",
        "import \"a//b\"\n",
        "graph g {\n  op a = f(2 * x) -> y\n}\n",
        "block b(S = ) {\n}\n",
        "graph g {\n  assert kernels <= \n}\n",
    ] {
        assert!(fgraph::syntax::parse(text).is_err(), "{text:?}");
        assert!(!errors(text).is_empty(), "{text:?}");
    }
}

#[test]
fn what_fgraph_rejects_after_its_grammar_parses_here() {
    // A keyword as a name and a non-ASCII name are refused by fgraph's lowering, with
    // messages of their own; this grammar takes them as names.
    for text in [
        "graph g {\n  input op: f16[4]\n  output op\n}\n",
        "graph g {\n  input x\u{e9}: f16[4]\n  output x\u{e9}\n}\n",
    ] {
        let d = fgraph::syntax::parse(text).expect_err("fgraph refuses it");
        assert!(rejected_after_the_grammar(&d), "{}", d.message);
        assert!(errors(text).is_empty(), "{text:?}");
    }
}

#[test]
fn every_keyword_of_the_pest_grammar_is_one_here() {
    // `kw_graph = @{ "graph" ~ !ident_char }` and the like: each is a literal of grammar.js
    // and of the highlight query.
    let pest = std::fs::read_to_string(Path::new(ROOT).join("grammar/fgraph.pest")).unwrap();
    let js = std::fs::read_to_string(Path::new(ROOT).join("editors/tree-sitter-fgraph/grammar.js"))
        .unwrap();
    let mut keywords = Vec::new();
    for line in pest.lines().filter(|l| l.starts_with("kw_")) {
        let word = line.split('"').nth(1).expect("a quoted keyword");
        keywords.push(word);
        assert!(
            js.contains(&format!("'{word}'")),
            "grammar.js lacks `{word}`"
        );
        assert!(
            tree_sitter_fgraph::HIGHLIGHTS_QUERY.contains(&format!("\"{word}\"")),
            "highlights.scm lacks `{word}`"
        );
    }
    assert!(keywords.len() >= 12, "{keywords:?}");
}

#[test]
fn the_dtype_lists_of_the_editor_grammars_are_fgraphs() {
    // The highlight query and the TextMate grammar name the dtypes; a new dtype goes there too.
    let query = tree_sitter_fgraph::HIGHLIGHTS_QUERY;
    let tm = std::fs::read_to_string(
        Path::new(ROOT).join("editors/vscode/syntaxes/fgraph.tmLanguage.json"),
    )
    .expect("the TextMate grammar");
    let listed = |text: &str| -> Vec<String> {
        let at = text.find("f64|").expect("a dtype list");
        let end = at + text[at..].find([')', '\\']).expect("its end");
        text[at..end].split('|').map(str::to_string).collect()
    };
    let mut all: Vec<String> = fgraph::types::Dtype::ALL
        .iter()
        .map(|d| d.as_str().to_string())
        .collect();
    all.sort();
    for (what, text) in [
        ("queries/highlights.scm", query),
        ("fgraph.tmLanguage.json", &tm),
    ] {
        let mut names = listed(text);
        names.sort();
        assert_eq!(names, all, "{what}: its dtype list is not fgraph's");
    }
}

#[test]
fn the_highlight_query_compiles_and_colours_the_names() {
    let lang: tree_sitter::Language = tree_sitter_fgraph::LANGUAGE.into();
    let query = Query::new(&lang, tree_sitter_fgraph::HIGHLIGHTS_QUERY).expect("query compiles");
    let text = "import \"lib/x.fgraph\" // c\n\
        block mlp(S, D = bf16) {\n  dtype D\n  input x: [S, 4]\n  \
        op up = elementwise.gelu(x, eps = 1e-5) -> y: f16[S, 4]\n  output y\n}\n\
        graph g {\n  param B = 2 div 1\n  input t: f16[B, 4]\n  \
        repeat 2 layers = mlp(t, S = B) -> r\n  op tr = permute(r.T, dims = [1, 0]) -> o\n  \
        output o\n  assert not materialized(r)\n  assert traffic < 3 MB\n}\n";
    let tree = parser().parse(text, None).unwrap();
    assert!(errors(text).is_empty());
    // The first capture of each node, as Neovim and Zed apply them (the later pattern wins
    // in both, but no node here has two).
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&query, tree.root_node(), text.as_bytes());
    while let Some(m) = matches.next() {
        for c in m.captures {
            let name = query.capture_names()[c.index as usize].to_string();
            let word = c.node.utf8_text(text.as_bytes()).unwrap().to_string();
            seen.push((word, name));
        }
    }
    let has = |word: &str, capture: &str| {
        assert!(
            seen.iter().any(|(w, c)| w == word && c == capture),
            "`{word}` is not captured as @{capture}: {seen:?}"
        );
    };
    has("import", "keyword.import");
    has("\"lib/x.fgraph\"", "string.special.path");
    has("// c", "comment");
    has("block", "keyword");
    has("mlp", "type.definition");
    has("S", "variable.parameter");
    has("bf16", "type.builtin");
    has("f16", "type.builtin");
    has("x", "variable");
    has("up", "function");
    has("elementwise", "type");
    has("gelu", "function.method.call");
    has("eps", "property");
    has("1e-5", "number.float");
    has("g", "module");
    has("B", "variable.parameter");
    has("div", "keyword.operator");
    has("layers", "function");
    has(".T", "operator");
    has("->", "operator");
    has("materialized", "function.builtin");
    has("traffic", "function.builtin");
    has("MB", "constant.builtin");
    has("not", "keyword");
    has("4", "number");
}
