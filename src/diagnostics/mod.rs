//! One diagnostic model for the whole pipeline. Diagnostics are plain data until the edge;
//! [`render`] turns them into text in every output format (human through miette, JSON, GitHub
//! annotations, SARIF) and into the language server's protocol objects.

mod code;
pub mod render;
mod source;

pub use code::{Code, Severity};
pub use source::{LineIndex, SourceFile};

use serde::Serialize;

/// A byte range into one source file. Diagnostics about graphs built without a source (the
/// library API) carry no spans at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    pub fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// A place in the source with a short explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// The place the diagnostic is about; `None` for diagnostics without a source.
    pub primary: Option<Label>,
    /// Other places that matter ("first defined here").
    pub secondary: Vec<Label>,
    pub help: Option<String>,
    /// Concrete changes that would resolve it, next to the help text (`check --fix`, the
    /// language server's code actions).
    pub fixes: Fixes,
}

/// A diagnostic's fixes: one pointer while there are none (most diagnostics), so that a
/// `Diagnostic` stays small in the `Result`s that carry one.
// One pointer, not a `Vec`'s three words: hence the box around the vector.
#[allow(clippy::box_collection)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fixes(Option<Box<Vec<Fix>>>);

impl Fixes {
    pub fn push(&mut self, fix: Fix) {
        self.0.get_or_insert_with(Default::default).push(fix);
    }
}

impl std::ops::Deref for Fixes {
    type Target = [Fix];
    fn deref(&self) -> &[Fix] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl std::ops::DerefMut for Fixes {
    fn deref_mut(&mut self) -> &mut [Fix] {
        self.0.as_deref_mut().map_or(&mut [], Vec::as_mut_slice)
    }
}

/// Whether a suggested edit may be applied without a person looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// It keeps the meaning the author evidently intended (a misspelt name, a missing `->`):
    /// `check --fix` applies it.
    Safe,
    /// It changes what the graph computes or hides a finding: offered, never applied alone.
    NeedsReview,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::NeedsReview => "needs-review",
        }
    }
}

/// Replace the bytes of `span` with `replacement` (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// One suggested change: its edits apply together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What it does, as a code action's title ("replace `hiden` with `hidden`").
    pub message: String,
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
}

impl Fix {
    /// One replacement.
    pub fn replace(
        message: impl Into<String>,
        applicability: Applicability,
        span: Span,
        replacement: impl Into<String>,
    ) -> Self {
        Fix {
            message: message.into(),
            applicability,
            edits: vec![Edit {
                span,
                replacement: replacement.into(),
            }],
        }
    }
}

impl Diagnostic {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            help: None,
            fixes: Fixes::default(),
        }
    }
    pub fn at(mut self, span: Span, label: impl Into<String>) -> Self {
        self.primary = Some(Label {
            span,
            message: label.into(),
        });
        self
    }
    pub fn with(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: label.into(),
        });
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// Attaches a suggested change.
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn start(&self) -> usize {
        self.primary.as_ref().map_or(0, |l| l.span.start)
    }
}

/// Sorts one file's diagnostics by position, then code (SPEC §5).
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (a.start(), a.code.as_str(), &a.message).cmp(&(b.start(), b.code.as_str(), &b.message))
    });
}

/// Most edit distances one suggestion computes (candidates that pass the length filter):
/// about 20 ms. A name with more candidates than that is compared with the first ones only.
pub const SUGGESTION_COMPARISONS_PER_NAME: u32 = 20_000;
/// Most edit distances all the suggestions of one file compute together (about a second):
/// past it, unknown names are still reported, each one, without a "did you mean".
pub const SUGGESTION_COMPARISONS_PER_FILE: u64 = 1_000_000;

thread_local! {
    /// What is left of the current file's [`SUGGESTION_COMPARISONS_PER_FILE`] (`None`: no
    /// file's budget is in force on this thread; the per-name bound alone applies).
    static SUGGESTION_BUDGET: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` (one file's check) under a fresh budget of suggestion work: a file with a
/// million unknown names, each with a million candidates, would otherwise ask for 10^12 edit
/// distances. Suggestions made on other threads are bounded per name only.
pub fn with_suggestion_budget<R>(f: impl FnOnce() -> R) -> R {
    with_suggestion_budget_of(SUGGESTION_COMPARISONS_PER_FILE, f)
}

fn with_suggestion_budget_of<R>(comparisons: u64, f: impl FnOnce() -> R) -> R {
    let outer = SUGGESTION_BUDGET.with(|b| b.replace(Some(comparisons)));
    let r = f();
    SUGGESTION_BUDGET.with(|b| b.set(outer));
    r
}

/// Suggests the candidate closest to `name`, if one is close enough to be a likely typo.
/// Case is ignored first (`X` finds `x`, `hidden` finds `HIDDEN`); then up to a third of the
/// name's length may differ (`hiden` → `hidden`, `elemwise` → `elementwise`). The work is
/// bounded per name and per file ([`SUGGESTION_COMPARISONS_PER_NAME`],
/// [`with_suggestion_budget`]), counted in edit distances, so the answer is the same on every
/// run.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    let max = name.len().div_ceil(3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let budget = SUGGESTION_BUDGET.with(std::cell::Cell::get);
    let allowed = budget.map_or(u64::from(SUGGESTION_COMPARISONS_PER_NAME), |b| {
        b.min(u64::from(SUGGESTION_COMPARISONS_PER_NAME))
    });
    let mut spent = 0u64;
    for cand in candidates {
        // Long names are compared only with candidates of similar length: the edit distance
        // is quadratic, and a typo changes the length by a few characters at most.
        if cand == name
            || cand.len().abs_diff(name.len()) > max
            || cand.len() > 256
            || name.len() > 256
        {
            continue;
        }
        if spent == allowed {
            break;
        }
        spent += 1;
        let d = strsim::damerau_levenshtein(&lower, &cand.to_ascii_lowercase());
        if d <= max && best.is_none_or(|(bd, bc)| (d, cand) < (bd, bc)) {
            best = Some((d, cand));
        }
    }
    if let Some(b) = budget {
        SUGGESTION_BUDGET.with(|c| c.set(Some(b - spent)));
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("X", ["v", "x"]), Some("x"));
        assert_eq!(did_you_mean("hidden", ["HIDDEN", "h"]), Some("HIDDEN"));
        assert_eq!(did_you_mean("hiden", ["hidden", "x"]), Some("hidden"));
        assert_eq!(
            did_you_mean("elemwise", ["elementwise", "reduction"]),
            Some("elementwise")
        );
        assert_eq!(did_you_mean("f13", ["f16", "f32"]), Some("f16"));
        assert_eq!(did_you_mean("foo", ["elementwise", "matmul"]), None);
    }

    #[test]
    fn suggestion_work_is_bounded_per_name_and_per_file() {
        use super::{SUGGESTION_COMPARISONS_PER_NAME, with_suggestion_budget_of};
        let per_name = SUGGESTION_COMPARISONS_PER_NAME as usize;
        // The close candidate comes after the per-name bound: not found.
        let mut far: Vec<String> = (0..per_name).map(|i| format!("z{i:05}")).collect();
        far.push("abcdef".into());
        assert_eq!(did_you_mean("abcdeg", far.iter().map(String::as_str)), None);
        assert_eq!(
            did_you_mean("abcdeg", far[per_name - 10..].iter().map(String::as_str)),
            Some("abcdef")
        );
        // Under a file's budget, suggestions stop once it is spent, and start again with
        // the next file.
        let near: Vec<String> = (0..per_name - 1).map(|i| format!("q{i:05}")).collect();
        let names = || near.iter().map(String::as_str).chain(["abcdef"]);
        let rounds = 3;
        with_suggestion_budget_of(3 * per_name as u64 + 5, || {
            for _ in 0..rounds {
                assert_eq!(did_you_mean("abcdeg", names()), Some("abcdef"));
            }
            assert_eq!(did_you_mean("abcdeg", names()), None);
        });
        with_suggestion_budget_of(per_name as u64, || {
            assert_eq!(did_you_mean("abcdeg", names()), Some("abcdef"))
        });
    }
}
