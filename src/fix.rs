//! Suggested edits as data, applied: `check --fix` and the language server's code actions.
//!
//! A [`Fix`] is attached where a diagnostic is made; this module decides which fixes can be
//! applied together (their edits may not overlap), applies them to a text, and builds the one
//! fix every warning has: an allow comment above its statement.
//!
//! A fix is offered as safe only once it is verified ([`verify`]): the file, checked again
//! with the fix applied alone (same name, same options), has fewer problems and no new ones.
//! A fix that fails is offered as needing review, with the reason in its title. `check --fix`
//! ([`fix_file`]) and the language server's "fix all" ([`apply_safe`]) check the safe fixes
//! applied together again too, and keep only what leaves the file better. Verification
//! checks the file with [`check_file_owned`], which never verifies: it does not recurse.

use crate::analysis::{FileReport, Options, check_file_owned};
use crate::diagnostics::{Applicability, Code, Diagnostic, Edit, Fix, Severity};
use crate::limits::{MAX_FIX_VERIFICATIONS, MAX_VERIFIED_FILE_BYTES, MAX_VERIFIED_OPS};
use std::collections::HashMap;

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
    let (out, taken) = apply_taking(text, fixes);
    (out, taken.len())
}

/// [`apply`], returning the fixes applied.
fn apply_taking<'a>(
    text: &str,
    fixes: impl IntoIterator<Item = &'a Fix>,
) -> (String, Vec<&'a Fix>) {
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = Vec::new();
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
        applied.push(fix);
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
    (out, applied)
}

/// A report's problems, for telling whether an edit left the file better.
struct Tally<'a> {
    /// Each error's (code, message), with how many times it occurs.
    errors: HashMap<(Code, &'a str), usize>,
    n_errors: usize,
    warnings: HashMap<(Code, &'a str), usize>,
    n_warnings: usize,
    /// Where parsing stopped: the start of the syntax error. Nothing after it was checked.
    syntax: Option<usize>,
}

fn tally(diags: &[Diagnostic]) -> Tally<'_> {
    let mut t = Tally {
        errors: HashMap::new(),
        n_errors: 0,
        warnings: HashMap::new(),
        n_warnings: 0,
        syntax: None,
    };
    for d in diags {
        let key = (d.code, d.message.as_str());
        if d.is_error() {
            *t.errors.entry(key).or_default() += 1;
            t.n_errors += 1;
        } else {
            *t.warnings.entry(key).or_default() += 1;
            t.n_warnings += 1;
        }
        if d.code == Code::SyntaxError && t.syntax.is_none() {
            t.syntax = Some(d.primary.as_ref().map_or(0, |p| p.span.start));
        }
    }
    t
}

/// Where byte `at` of a text is once `edits` (which do not overlap) are applied to it
/// (inside an edit: the end of its replacement).
fn moved(at: usize, edits: &[&Edit]) -> usize {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| e.span.start);
    let mut shift: isize = 0;
    for e in edits {
        if e.span.end <= at {
            shift += e.replacement.len() as isize - (e.span.end - e.span.start) as isize;
        } else if e.span.start < at {
            return (e.span.start as isize + shift).max(0) as usize + e.replacement.len();
        }
    }
    (at as isize + shift).max(0) as usize
}

/// Why the file after `edits` (whose diagnostics are `after`) is not better than before:
/// `None` when it is. Better: no error it did not have before (code and message: spans
/// move), and fewer errors, or as many errors and fewer warnings with no new one. A file
/// whose parse stopped at a syntax error had nothing else checked: there, better is parsing
/// past the point where it stopped (what that reveals is judged by the next fixes).
fn why_worse(before: &Tally<'_>, after: &[Diagnostic], edits: &[&Edit]) -> Option<String> {
    let now = tally(after);
    if let Some(at) = before.syntax {
        return match now.syntax {
            Some(q) if q <= moved(at, edits) => {
                Some("the file still does not parse there".to_string())
            }
            _ => None,
        };
    }
    /// The first (code, message) that `is` has more often than `was`.
    fn new<'a>(
        was: &HashMap<(Code, &str), usize>,
        is: &HashMap<(Code, &'a str), usize>,
    ) -> Option<(Code, &'a str)> {
        is.iter()
            .filter(|(k, n)| was.get(*k).is_none_or(|w| w < *n))
            .map(|(k, _)| *k)
            .min()
    }
    if let Some((code, message)) = new(&before.errors, &now.errors) {
        return Some(format!(
            "the file then has a new error: {code}: {message}",
            code = code.as_str()
        ));
    }
    if now.n_errors < before.n_errors {
        return None;
    }
    if now.n_errors > before.n_errors {
        return Some("the file then has more errors".to_string());
    }
    if let Some((code, message)) = new(&before.warnings, &now.warnings) {
        return Some(format!(
            "the file then has a new warning: {code}: {message}",
            code = code.as_str()
        ));
    }
    if now.n_warnings < before.n_warnings {
        return None;
    }
    Some("the file has as many problems with it".to_string())
}

/// Ops of a report's graphs (expanded), checked clean or not.
fn ops_of(report: &FileReport) -> usize {
    report
        .graphs
        .iter()
        .map(|g| {
            g.analysis
                .as_ref()
                .map_or(0, |a| a.graph.ops.len())
                .max(g.written_ops.len())
        })
        .fold(0, usize::saturating_add)
}

/// Whether `report`'s file is small enough for its fixes to be checked again: its size, its
/// ops, and its errors (a file of thousands of misspelt names costs a second of suggestions
/// to check: not once per fix).
fn within_limits(report: &FileReport) -> bool {
    report.source.text.len() <= MAX_VERIFIED_FILE_BYTES
        && ops_of(report) <= MAX_VERIFIED_OPS
        && report.diagnostics.iter().filter(|d| d.is_error()).count() <= MAX_FIX_VERIFICATIONS
}

/// Offers `fix` as needing review, saying why it is not verified.
fn downgrade(fix: &mut Fix, why: &str) {
    fix.applicability = Applicability::NeedsReview;
    fix.message = format!("{} (not verified: {why})", fix.message);
}

/// The reason a fix is not verified once the limits are reached.
fn limit_note() -> String {
    format!(
        "limit; fgraph checks the fixes of files up to {} bytes, {} ops and {m} errors, at \
         most {m} a file",
        crate::units::group_digits(MAX_VERIFIED_FILE_BYTES as u64),
        crate::units::group_digits(MAX_VERIFIED_OPS as u64),
        m = MAX_FIX_VERIFICATIONS
    )
}

/// Verifies each safe fix of `report`: the fix applied alone, the file is checked again
/// under `opts` with its name (so its imports and configuration are the same); a fix after
/// which the file is not better (see `why_worse`) needs review, its title says why. At most
/// [`MAX_FIX_VERIFICATIONS`] checks, only for files within [`MAX_VERIFIED_FILE_BYTES`] and
/// [`MAX_VERIFIED_OPS`]; past that, safe fixes need review ("not verified (limit)"), as do
/// those left when `go_on` answers false (the language server's cancellation).
pub fn verify(report: &mut FileReport, opts: &Options, go_on: &dyn Fn() -> bool) {
    verify_counting(report, opts, go_on, MAX_FIX_VERIFICATIONS);
}

/// [`verify`] with at most `budget` checks, returning how many were made.
fn verify_counting(
    report: &mut FileReport,
    opts: &Options,
    go_on: &dyn Fn() -> bool,
    budget: usize,
) -> usize {
    let targets: Vec<(usize, usize)> = report
        .diagnostics
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            d.fixes
                .iter()
                .enumerate()
                .filter(|(_, f)| f.applicability == Applicability::Safe)
                .map(move |(j, _)| (i, j))
        })
        .collect();
    if targets.is_empty() {
        return 0;
    }
    let fits = within_limits(report);
    let before = tally(&report.diagnostics);
    // The same edits offered by several diagnostics are checked once.
    let mut seen: HashMap<Vec<(usize, usize, &str)>, Option<String>> = HashMap::new();
    let mut spent = 0;
    let mut verdicts = Vec::with_capacity(targets.len());
    for &(i, j) in &targets {
        let fix = &report.diagnostics[i].fixes[j];
        let key: Vec<(usize, usize, &str)> = fix
            .edits
            .iter()
            .map(|e| (e.span.start, e.span.end, e.replacement.as_str()))
            .collect();
        let verdict = if let Some(v) = seen.get(&key) {
            v.clone()
        } else if !fits || spent >= budget.min(MAX_FIX_VERIFICATIONS) {
            Some(limit_note())
        } else if !go_on() {
            Some("the check was stopped".to_string())
        } else {
            spent += 1;
            let v = try_fixes(report, &before, &[fix], opts).err();
            seen.insert(key, v.clone());
            v
        };
        verdicts.push(verdict);
    }
    drop(seen);
    drop(before);
    for (&(i, j), v) in targets.iter().zip(verdicts) {
        if let Some(why) = v.as_deref() {
            downgrade(&mut report.diagnostics[i].fixes[j], why);
        }
    }
    spent
}

/// The file of `report` with `fixes` applied, checked again: its text and report when it
/// is better than `before` (all of them applied), else why not.
fn try_fixes(
    report: &FileReport,
    before: &Tally<'_>,
    fixes: &[&Fix],
    opts: &Options,
) -> Result<(String, FileReport), String> {
    let (text, taken) = apply_taking(&report.source.text, fixes.iter().copied());
    if taken.len() < fixes.len() {
        return Err("its edits overlap others or fall outside the file".to_string());
    }
    let edits: Vec<&Edit> = taken.iter().flat_map(|f| f.edits.iter()).collect();
    let after = check_file_owned(&report.source.name, text.clone().into_bytes(), opts);
    match why_worse(before, &after.diagnostics, &edits) {
        None => Ok((text, after)),
        Some(why) => Err(why),
    }
}

/// The safe fixes of a checked file applied together.
pub struct Applied {
    /// The new text.
    pub text: String,
    /// How many fixes it took.
    pub count: usize,
    /// The new text's report (its own fixes not verified yet).
    pub report: FileReport,
}

/// The safe fixes of `report` (verified by [`verify`]) applied together, when that leaves
/// the file better: the file is checked again. When it does not (two fixes that are right
/// alone may clash together), the fixes are tried one at a time in order of position, each
/// kept only if the file with it and those kept so far is better than before (at most
/// [`MAX_FIX_VERIFICATIONS`] checks). `None` when no safe fix can be applied. No text
/// returned has an error the report did not have.
pub fn apply_safe(
    report: &FileReport,
    opts: &Options,
    go_on: &dyn Fn() -> bool,
) -> Option<Applied> {
    apply_safe_counting(report, opts, go_on, MAX_FIX_VERIFICATIONS + 1).0
}

/// [`apply_safe`] with at most `budget` checks, with how many were made.
fn apply_safe_counting(
    report: &FileReport,
    opts: &Options,
    go_on: &dyn Fn() -> bool,
    budget: usize,
) -> (Option<Applied>, usize) {
    let mut fixes: Vec<&Fix> = safe(&report.diagnostics).collect();
    if fixes.is_empty() || budget == 0 || !within_limits(report) || !go_on() {
        return (None, 0);
    }
    fixes.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    fixes.dedup_by(|a, b| a.edits == b.edits);
    let before = tally(&report.diagnostics);
    let (_, taken) = apply_taking(&report.source.text, fixes.iter().copied());
    if taken.is_empty() {
        return (None, 0);
    }
    let mut spent = 1;
    if let Ok((text, after)) = try_fixes(report, &before, &taken, opts) {
        let count = taken.len();
        return (
            Some(Applied {
                text,
                count,
                report: after,
            }),
            spent,
        );
    }
    let mut kept: Vec<&Fix> = Vec::new();
    let mut best = None;
    for fix in &taken {
        if spent >= budget.min(MAX_FIX_VERIFICATIONS + 1) || !go_on() {
            break;
        }
        spent += 1;
        kept.push(fix);
        match try_fixes(report, &before, &kept, opts) {
            Ok(done) => best = Some(done),
            Err(_) => {
                kept.pop();
            }
        }
    }
    let applied = best.map(|(text, after)| Applied {
        text,
        count: kept.len(),
        report: after,
    });
    (applied, spent)
}

/// Checks a file and verifies its safe fixes ([`verify`]): what `check` reports.
pub fn check_verified(name: &str, bytes: Vec<u8>, opts: &Options) -> FileReport {
    let mut report = check_file_owned(name, bytes, opts);
    verify(&mut report, opts, &|| true);
    report
}

/// Most rounds of `check --fix` on one file: one fix can reveal the next (a fixed arrow lets
/// the names after it be checked).
pub const FIX_ROUNDS: usize = 10;

/// `check --fix` on one file's bytes: the verified safe fixes applied ([`apply_safe`]), the
/// result checked again and its fixes applied, for up to [`FIX_ROUNDS`] rounds and twice
/// [`MAX_FIX_VERIFICATIONS`] checks in all. Returns the last report (its fixes verified, or
/// offered as needing review once the checks are spent) and how many fixes were applied.
pub fn fix_file(name: &str, bytes: Vec<u8>, opts: &Options) -> (FileReport, usize) {
    let mut left = 2 * MAX_FIX_VERIFICATIONS;
    let mut report = check_file_owned(name, bytes, opts);
    left -= verify_counting(&mut report, opts, &|| true, left);
    let mut fixed = 0;
    for _ in 0..FIX_ROUNDS {
        let (applied, spent) = apply_safe_counting(&report, opts, &|| true, left);
        left = left.saturating_sub(spent);
        let Some(a) = applied else {
            break;
        };
        fixed += a.count;
        report = a.report;
        left = left.saturating_sub(verify_counting(&mut report, opts, &|| true, left));
    }
    (report, fixed)
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

    fn safe_messages(r: &FileReport) -> Vec<(&str, Applicability)> {
        r.diagnostics
            .iter()
            .flat_map(|d| d.fixes.iter())
            .map(|f| (f.message.as_str(), f.applicability))
            .collect()
    }

    #[test]
    fn a_fix_that_leaves_a_new_error_needs_review() {
        let text = "graph g {\n  input x: [8, 32]\n  weight w2: [16, 4]\n  \
                    op m = elementwise.mul(x, w3) -> h\n  output h\n}\n";
        let r = check_verified("g.fgraph", text.as_bytes().to_vec(), &Options::default());
        let fixes = safe_messages(&r);
        assert_eq!(fixes.len(), 1);
        assert_eq!(fixes[0].1, Applicability::NeedsReview);
        assert!(
            fixes[0].0.starts_with("replace `w3` with `w2` (not verified: the file then has a new error: shape-mismatch:"),
            "{}",
            fixes[0].0
        );
        // A right one stays safe.
        let good = text.replace("[16, 4]", "[8, 32]");
        let r = check_verified("g.fgraph", good.into_bytes(), &Options::default());
        assert_eq!(
            safe_messages(&r),
            [("replace `w3` with `w2`", Applicability::Safe)]
        );
    }

    #[test]
    fn fixes_right_alone_and_wrong_together_are_applied_one_at_a_time() {
        let text = "graph g {\n  input x: [4]\n  input y: [8]\n  \
                    op a = elementwise.add(xx, yy) -> z\n  output z\n}\n";
        let opts = Options::default();
        let r = check_verified("g.fgraph", text.as_bytes().to_vec(), &opts);
        // Each alone removes an error and adds none.
        assert!(
            safe_messages(&r)
                .iter()
                .all(|(_, a)| *a == Applicability::Safe)
        );
        let a = apply_safe(&r, &opts, &|| true).expect("one applies");
        assert_eq!(a.count, 1);
        assert!(a.text.contains("add(x, yy)"), "{}", a.text);
        let (r, n) = fix_file("g.fgraph", text.as_bytes().to_vec(), &opts);
        assert_eq!(n, 1);
        assert!(r.source.text.contains("add(x, yy)"));
        assert_eq!(
            safe_messages(&r)[0].1,
            Applicability::NeedsReview,
            "the second now makes a shape-mismatch"
        );
    }

    #[test]
    fn a_syntax_fix_is_verified_by_parsing_further() {
        // The missing arrow: once written, the parse goes on (and finds what it finds).
        let text = "graph g {\n  input x: [4]\n  op a = elementwise.relu(x) y\n  output y\n}\n";
        let r = check_verified("g.fgraph", text.as_bytes().to_vec(), &Options::default());
        assert_eq!(
            safe_messages(&r),
            [("insert `->`", Applicability::Safe)],
            "{:?}",
            r.diagnostics
        );
        let edit = Edit {
            span: Span::new(4, 6),
            replacement: "xyz".into(),
        };
        assert_eq!(moved(2, &[&edit]), 2);
        assert_eq!(moved(5, &[&edit]), 7);
        assert_eq!(moved(6, &[&edit]), 7);
        assert_eq!(moved(9, &[&edit]), 10);
    }

    #[test]
    fn verification_is_bounded() {
        let file = |n: usize| {
            let mut text = String::from("graph g {\n  input x: [4]\n");
            for i in 0..n {
                text.push_str(&format!("  op a{i} = elementwise.relu(xx) -> y{i}\n"));
            }
            text.push_str("  output ");
            let outs: Vec<String> = (0..n).map(|i| format!("y{i}")).collect();
            text.push_str(&outs.join(", "));
            text.push_str("\n}\n");
            text
        };
        let limited = |r: &FileReport| {
            safe_messages(r)
                .iter()
                .filter(|(m, a)| {
                    *a == Applicability::NeedsReview && m.contains("(not verified: limit")
                })
                .count()
        };
        // Each `xx` → `x` is checked alone: every one verified.
        let r = check_verified("g.fgraph", file(3).into_bytes(), &Options::default());
        assert_eq!(safe_messages(&r).len(), 3);
        assert_eq!(limited(&r), 0, "{:?}", safe_messages(&r));
        // More errors than verifications: none is checked (limit).
        let n = MAX_FIX_VERIFICATIONS + 1;
        let r = check_verified("g.fgraph", file(n).into_bytes(), &Options::default());
        assert_eq!(limited(&r), n);
        // `check --fix` on the first: all three applied, in one round.
        let (r, fixed) = fix_file("g.fgraph", file(3).into_bytes(), &Options::default());
        assert_eq!(fixed, 3);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        // And a file over the size limit is not verified at all.
        let mut big =
            String::from("graph g {\n  input x: [4]\n  op a = elementwise.relu(xx) -> y\n");
        big.push_str(&"  // padding\n".repeat(MAX_VERIFIED_FILE_BYTES / 13 + 1));
        big.push_str("}\n");
        let r = check_verified("g.fgraph", big.into_bytes(), &Options::default());
        assert!(safe_messages(&r)[0].0.contains("(not verified: limit"));
    }
}
