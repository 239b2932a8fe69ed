//! The tree-sitter grammar of fgraph's `.fgraph` files (editors/tree-sitter-fgraph/grammar.js,
//! generated into `src/parser.c`), for the `tree-sitter` crate, with its highlight query.
//!
//! ```ignore
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_fgraph::LANGUAGE.into())?;
//! let tree = parser.parse("graph g {}", None).unwrap();
//! ```

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_fgraph() -> *const ();
}

/// The grammar, for `tree_sitter::Parser::set_language(&LANGUAGE.into())`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_fgraph) };

/// The syntax highlighting query (queries/highlights.scm).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The grammar's node types (src/node-types.json).
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");
