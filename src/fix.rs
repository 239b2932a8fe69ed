//! Suggested edits as data, applied: `check --fix` and the language server's code actions.
//!
//! A [`Fix`] is attached where a diagnostic is made; this module decides which fixes can be
//! applied together (their edits may not overlap), applies them to a text, and builds the one
//! fix every warning has: an allow comment above its statement.

use crate::diagnostics::{Applicability, Diagnostic, Edit, Fix, Severity};

/// Whether every edit of `fix` lies inside `text` on character boundaries.
fn fits(text: &str, fix: &Fix) -> bool {
    fix.edits.iter().all(|e| {
        e.span.start <= e.span.end
            && text.is_char_boundary(e.span.start)
            && text.is_char_boundary(e.span.end)
    })
}

/// Applies `fixes` in order of position, skipping any whose edits overlap those of a fix
/// already taken (or touch the same insertion point) or fall outside the text. Returns the
/// new text and how many fixes were applied.
pub fn apply<'a>(text: &str, fixes: impl IntoIterator<Item = &'a Fix>) -> (String, usize) {
    let mut taken: Vec<&Edit> = Vec::new();
    let mut count = 0;
    let mut fixes: Vec<&Fix> = fixes.into_iter().filter(|f| fits(text, f)).collect();
    fixes.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    for fix in fixes {
        let clashes = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                (e.span.start < t.span.end && t.span.start < e.span.end)
                    || e.span.start == t.span.start
                    || (e.span.start == e.span.end && e.span.start == t.span.end)
                    || (t.span.start == t.span.end && t.span.start == e.span.end)
            })
        });
        // Two edits of one fix may not overlap each other either.
        let mut own: Vec<&Edit> = fix.edits.iter().collect();
        own.sort_by_key(|e| e.span.start);
        let self_overlap = own.windows(2).any(|w| w[0].span.end > w[1].span.start);
        if clashes || self_overlap {
            continue;
        }
        taken.extend(fix.edits.iter());
        count += 1;
    }
    taken.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in taken {
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.replacement);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    (out, count)
}

/// The safe fixes of `diags`: what `check --fix` applies.
pub fn safe(diags: &[Diagnostic]) -> impl Iterator<Item = &Fix> {
    diags
        .iter()
        .flat_map(|d| d.fixes.iter())
        .filter(|f| f.applicability == Applicability::Safe)
}

/// The start of the line holding byte `at`, and that line's indentation.
fn line_start(text: &str, at: usize) -> (usize, &str) {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    let indent_len = line.len() - line.trim_start_matches([' ', '\t']).len();
    (start, &line[..indent_len])
}

/// The fix that silences warning `diag` where it stands: an allow comment on its own line
/// above the line the warning points at (the statement's line in formatted files). Needs
/// review: it hides a finding rather than resolving it. `None` for errors, which cannot be
/// silenced, and for diagnostics without a place.
pub fn allow_comment(diag: &Diagnostic, text: &str) -> Option<Fix> {
    if diag.severity != Severity::Warning {
        return None;
    }
    let p = diag.primary.as_ref()?;
    if p.span.start > text.len() || !text.is_char_boundary(p.span.start) {
        return None;
    }
    let (start, indent) = line_start(text, p.span.start);
    Some(Fix::replace(
        format!("silence `{}` here with an allow comment", diag.code),
        Applicability::NeedsReview,
        crate::diagnostics::Span::new(start, start),
        format!("{indent}// fgraph: allow({})\n", diag.code),
    ))
}

/// Widens deletions that leave only blank space on their line to the whole line, newline
/// included, so removing a statement leaves no empty line behind.
pub fn widen_deletions(diags: &mut [Diagnostic], text: &str) {
    for fix in diags.iter_mut().flat_map(|d| d.fixes.iter_mut()) {
        for e in &mut fix.edits {
            if !e.replacement.is_empty()
                || e.span.end > text.len()
                || e.span.start >= e.span.end
                || !text.is_char_boundary(e.span.start)
                || !text.is_char_boundary(e.span.end)
            {
                continue;
            }
            let (start, indent) = line_start(text, e.span.start);
            if start + indent.len() != e.span.start {
                continue;
            }
            let rest = &text[e.span.end..];
            let line_end = rest.find('\n').map_or(text.len(), |i| e.span.end + i + 1);
            if text[e.span.end..line_end].trim().is_empty() {
                e.span = crate::diagnostics::Span::new(start, line_end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Code, Span};

    fn fix(start: usize, end: usize, to: &str) -> Fix {
        Fix::replace("f", Applicability::Safe, Span::new(start, end), to)
    }

    #[test]
    fn applies_in_order_and_skips_overlaps() {
        let text = "abcdef";
        let fixes = [
            fix(4, 5, "E"),
            fix(0, 2, "AB"),
            fix(1, 3, "x"),
            fix(6, 6, "!"),
        ];
        assert_eq!(apply(text, &fixes), ("ABcdEf!".to_string(), 3));
        // Two insertions at one point would be ordered arbitrarily: the second is left.
        let fixes = [fix(2, 2, "1"), fix(2, 2, "2")];
        assert_eq!(apply(text, &fixes), ("ab1cdef".to_string(), 1));
        // Out of range or inside a character: never applied, never a panic.
        let fixes = [fix(3, 99, "x"), fix(1, 2, "y")];
        assert_eq!(apply("aé", &fixes), ("aé".to_string(), 0));
    }

    #[test]
    fn allow_comment_goes_above_the_line_with_its_indentation() {
        let text = "graph g {\n  input x: [4]\n}\n";
        let d = Diagnostic::new(Code::UnusedTensor, "unused").at(Span::new(18, 19), "here");
        let f = allow_comment(&d, text).expect("a warning gets one");
        assert_eq!(
            apply(text, [&f]).0,
            "graph g {\n  // fgraph: allow(unused-tensor)\n  input x: [4]\n}\n"
        );
        let e = Diagnostic::new(Code::Cycle, "cycle").at(Span::new(18, 19), "here");
        assert!(allow_comment(&e, text).is_none());
    }

    #[test]
    fn deletions_take_their_line() {
        let text = "graph g {\n  input x: [4]\n  output y\n}\n";
        let mut d = vec![Diagnostic::new(Code::UnusedTensor, "u").fix(Fix::replace(
            "rm",
            Applicability::NeedsReview,
            Span::new(12, 24),
            "",
        ))];
        widen_deletions(&mut d, text);
        assert_eq!(
            apply(text, d[0].fixes.iter()).0,
            "graph g {\n  output y\n}\n"
        );
    }
}
