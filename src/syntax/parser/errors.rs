//! Syntax error diagnostics: pest's error turned into "expected …, found …" with readable
//! names of what was expected (punctuation included, from pest's detailed attempts), a hint
//! for common slips and a fix where the repair is certain.

use super::{Driver, FgraphParser, Rule};
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span};
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};

impl<'s> Driver<'s> {
    /// The diagnostic of pest's error `e` in parsing `rule` at `pos`.
    pub(super) fn syntax_error(
        &self,
        rule: Rule,
        pos: usize,
        e: pest::error::Error<Rule>,
    ) -> Box<Diagnostic> {
        let mut at = pos + error_pos(&e);
        let mut expected = match &e.variant {
            ErrorVariant::ParsingError { positives, .. } => readable(positives),
            ErrorVariant::CustomError { .. } => Vec::new(),
        };
        // Punctuation is silent in the grammar, so pest's plain error neither names
        // it nor places the error at it. Parse again with pest's error detail, which
        // tracks literal tokens too. Errors are rare: this is paid once per file.
        pest::set_error_detail(true);
        let detailed = FgraphParser::parse(rule, &self.src[pos..]);
        pest::set_error_detail(false);
        if let Some(attempts) = detailed.err().and_then(|d| d.parse_attempts()) {
            // Rules pest tried are named at its own error position; when a literal
            // failed further on, only the literals expected there apply.
            if pos + attempts.max_position != at {
                at = pos + attempts.max_position;
                expected.clear();
            }
            for t in attempts.expected_tokens() {
                let token = t.to_string();
                let punct = !token.is_empty() && token.chars().all(|c| c.is_ascii_punctuation());
                // `_` is the first letter of an identifier, `//` starts a comment,
                // `a..b` is a character range (of identifiers or whitespace).
                if punct && token != "//" && token != "_" && !token.contains("..") {
                    let shown = format!("`{token}`");
                    if !expected.contains(&shown) {
                        expected.push(shown);
                    }
                }
            }
        }
        self.expected_error(at, &expected)
    }

    pub(super) fn expected_error(&self, at: usize, expected: &[String]) -> Box<Diagnostic> {
        let (found, len) = found_at(self.src, at);
        let message = match expected {
            [] => format!("unexpected {found}"),
            [one] => format!("expected {one}, found {found}"),
            [init @ .., last] => format!("expected {} or {last}, found {found}", init.join(", ")),
        };
        let label = match expected {
            [] => "unexpected".to_string(),
            [one] => format!("expected {one}"),
            _ => "unexpected here".to_string(),
        };
        let mut d = Diagnostic::new(Code::SyntaxError, message).at(Span::new(at, at + len), label);
        if let Some(help) = syntax_hint(self.src, at) {
            d = d.help(help);
        }
        if let Some(fix) = syntax_fix(self.src, at, expected) {
            d = d.fix(fix);
        }
        Box::new(d)
    }
}

fn error_pos(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}

/// A hint for common slips at a syntax error's position, where the plain "expected …" does
/// not say what went wrong.
fn syntax_hint(src: &str, at: usize) -> Option<&'static str> {
    let (before, rest) = (&src[..at], &src[at..]);
    let after_digit = before.ends_with(|c: char| c.is_ascii_digit());
    if after_digit && rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_')
    {
        return Some("numbers are decimal integers: no fractions, exponents or base prefixes");
    }
    if rest.starts_with('-') && rest[1..].trim_start().starts_with('>') {
        return Some("write the arrow as `->`, without a space");
    }
    if rest.starts_with('.') {
        return Some("`.T` (transpose) is written right after the tensor, as one word: `w.T`");
    }
    if before.ends_with(".T") && rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        return Some("`.T` (transpose) ends a tensor argument; views are `t[i]` and `t.T` only");
    }
    None
}

/// The edit for the slips whose repair is certain: a missing arrow before an op's output
/// (`relu(x) y`) and an arrow written with a space (`- >`).
fn syntax_fix(src: &str, at: usize, expected: &[String]) -> Option<Fix> {
    let rest = src.get(at..)?;
    if let Some(after) = rest.strip_prefix('-') {
        let gap = after.len() - after.trim_start().len();
        if gap > 0 && after[gap..].starts_with('>') {
            let span = Span::new(at, at + 2 + gap);
            return Some(Fix::replace("write `->`", Applicability::Safe, span, "->"));
        }
    }
    let ident_next = rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    if expected == ["`->`"] && ident_next {
        return Some(Fix::replace(
            "insert `->`",
            Applicability::Safe,
            Span::new(at, at),
            "-> ",
        ));
    }
    None
}

/// What a parse error found: a word, a character or the end of the file, with its length.
fn found_at(src: &str, at: usize) -> (String, usize) {
    let rest = src.get(at..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return ("end of file".to_string(), 0);
    };
    if c.is_ascii_alphanumeric() || c == '_' {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let shown = if word.len() > 40 {
            format!("`{}…`", &word[..40])
        } else {
            format!("`{word}`")
        };
        return (shown, len);
    }
    let shown = match c {
        '\n' | '\r' => "end of line".to_string(),
        c if c.is_control() || c == '\u{FFFD}' => format!("character {:?}", c),
        c => format!("`{c}`"),
    };
    (shown, c.len_utf8())
}

/// Readable names for what pest expected, in a stable order without repeats.
fn readable(rules: &[Rule]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rules {
        let names: &[&str] = match r {
            Rule::kw_graph | Rule::graph_head | Rule::top_head => &["`graph`"],
            Rule::kw_block | Rule::block_head => &["`block`"],
            Rule::kw_import | Rule::import_stmt => &["`import`"],
            Rule::kw_repeat | Rule::repeat_stmt => &["`repeat`"],
            Rule::kw_assert | Rule::assert_stmt => &["`assert`"],
            Rule::kw_not => &["`not`"],
            Rule::assert_pred | Rule::assert_cmp => {
                &["an assertion such as `fused(a, b)` or `kernels <= 9`"]
            }
            Rule::cmp => &["a comparison (`<=`, `<`, `==`, `>=`, `>`)"],
            Rule::unit => &["a unit (`B`, `KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`, ...)"],
            Rule::path => &["a quoted path"],
            Rule::kw_param | Rule::param_stmt => &["`param`"],
            Rule::kw_dtype | Rule::dtype_stmt => &["`dtype`"],
            Rule::kw_input => &["`input`"],
            Rule::kw_weight => &["`weight`"],
            Rule::decl_stmt => &["`input`", "`weight`"],
            Rule::kw_output | Rule::output_stmt => &["`output`"],
            Rule::kw_op | Rule::op_stmt => &["`op`"],
            Rule::graph_items => &["a statement", "`}`"],
            Rule::rbrace => &["`}`"],
            Rule::ident => &["an identifier"],
            Rule::int => &["an integer"],
            Rule::transpose => &["`.T`"],
            Rule::func => &["`.`"],
            Rule::index => &["`[`"],
            Rule::plus => &["`+`"],
            Rule::minus | Rule::neg => &["`-`"],
            Rule::star => &["`*`"],
            Rule::slash => &["`/`"],
            Rule::expr => &["an expression"],
            Rule::ty => &["a type such as `[M, K]`"],
            Rule::arg => &["an argument"],
            _ => &[],
        };
        for n in names {
            if !out.iter().any(|o| o == n) {
                out.push((*n).to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Diagnostic;
    use crate::syntax::parse;

    fn error(src: &str) -> Diagnostic {
        *parse(src).expect_err("a syntax error")
    }

    #[test]
    fn errors_name_what_was_expected() {
        let d = error("graph g {\n  op a = elementwise.relu(x) y\n}\n");
        assert_eq!(d.message, "expected `->`, found `y`");
        let d = error("graph g {\n  op a = matmul(x w) -> y\n}\n");
        assert!(
            d.message.starts_with("expected ") && d.message.ends_with("found `w`"),
            "{}",
            d.message
        );
        assert!(d.message.contains("`,`") && d.message.contains("`)`"));
        let d = error("");
        assert_eq!(d.message, "expected `graph`, found end of file");
        let d = error("graph g {\n  op output = elementwise.relu(x) -> y\n}\n");
        assert_eq!(d.message, "expected an identifier, found keyword `output`");
    }

    #[test]
    fn hints_for_common_slips() {
        for (src, hint) in [
            ("graph g {\n  input x: [0x10]\n}\n", "numbers are decimal"),
            ("graph g {\n  input x: [4.5]\n}\n", "numbers are decimal"),
            (
                "graph g {\n  op a = elementwise.relu(x) - > y\n}\n",
                "write the arrow as `->`",
            ),
            (
                "graph g {\n  op a = elementwise.relu(x . T) -> y\n}\n",
                "one word",
            ),
            (
                "graph g {\n  op a = elementwise.relu(x.Tail) -> y\n}\n",
                "ends a tensor argument",
            ),
        ] {
            let d = error(src);
            assert!(
                d.help.as_deref().is_some_and(|h| h.contains(hint)),
                "{src:?}: {:?}",
                d.help
            );
        }
    }
}
