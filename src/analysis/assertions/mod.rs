//! Fusion assertions: the `assert` statements a graph (or block) carries, so that a change that
//! breaks a fusion the author relies on fails `fgraph check` in CI. This module owns the
//! assertion model: which predicates ([`Predicate`]) and measures ([`Measure`]) exist and how
//! they are spelt, the byte units of a bound ([`UNITS`]), and an assertion with its names
//! resolved and its bound evaluated ([`Assertion`]). Its two steps live in the files beside it:
//!
//! - `collect.rs`: [`collect`] reads the assertions from a graph's syntax tree before the
//!   semantic pass consumes it. Names are resolved against the ops and tensors the tree defines
//!   (so a misspelt name is reported even when the graph has other errors) and bounds are
//!   evaluated with the graph's params; what cannot be checked is a `bad-assertion`.
//! - `eval.rs`: [`check`] evaluates them once the graph is built and fused, against the plan of
//!   the run ([`crate::analysis::Analysis::plan`], made under the run's fusion options) as
//!   `plan.rs` indexes it; one that does not hold is an `assertion-failed` that says what is
//!   true instead.
//!
//! An assertion inside a block reaches here once per instance (block expansion renames its
//! names as it renames the block's ops), is checked against that instance, and is reported
//! once with the instance labels by [`crate::syntax::expand::Expansion::attribute`].

mod collect;
mod eval;
mod plan;

pub use collect::{collect, has_assertions};
pub use eval::check;

use crate::diagnostics::{Code, Span};
use crate::syntax::ast::CmpOp;

/// What an assertion over names says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicate {
    /// `fused(a, b, ...)`: the ops are in one kernel.
    Fused,
    /// `unfused(a, b, ...)`: each op is in a kernel of its own (no two share one).
    Unfused,
    /// `materialized(t, ...)`: each tensor is written to HBM; `not materialized(t, ...)`: none
    /// is (each stays on chip, inside the kernel that produces it).
    Materialized,
}

impl Predicate {
    pub const ALL: &'static [Predicate] = &[
        Predicate::Fused,
        Predicate::Unfused,
        Predicate::Materialized,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Predicate::Fused => "fused",
            Predicate::Unfused => "unfused",
            Predicate::Materialized => "materialized",
        }
    }
    pub fn from_name(name: &str) -> Option<Predicate> {
        Predicate::ALL.iter().copied().find(|p| p.as_str() == name)
    }
    /// Whether its arguments are tensors (else ops).
    pub fn names_tensors(self) -> bool {
        self == Predicate::Materialized
    }
}

/// What a comparison measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The number of kernels of the plan (of the instance, in a block).
    Kernels,
    /// The HBM bytes the fused plan reads and writes (of the instance's kernels, in a block).
    Traffic,
}

impl Measure {
    pub const ALL: &'static [Measure] = &[Measure::Kernels, Measure::Traffic];
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Kernels => "kernels",
            Measure::Traffic => "traffic",
        }
    }
    pub fn from_name(name: &str) -> Option<Measure> {
        Measure::ALL.iter().copied().find(|m| m.as_str() == name)
    }
}

/// The byte units a `traffic` bound may carry, with their size in bytes.
pub const UNITS: &[(&str, u64)] = &[
    ("B", 1),
    ("KB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
];

/// One assertion of a graph, its names resolved and its bound evaluated, ready to be checked
/// against the plan.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// The whole statement.
    pub span: Span,
    /// The block instance it was expanded from (an index into the graph's instances).
    pub instance: Option<usize>,
    pub test: Test,
}

#[derive(Clone, Debug)]
pub enum Test {
    /// `fused(..)`, `unfused(..)`, `[not] materialized(..)`, over distinct names.
    Names {
        predicate: Predicate,
        negated: bool,
        names: Vec<Name>,
    },
    /// `kernels <= 9`, `traffic < 300 MB`: the bound in the measure's unit (bytes or kernels).
    Compare {
        measure: Measure,
        op: CmpOp,
        bound: i128,
        /// The bound as written after evaluation, for messages: `300 MB`.
        shown: String,
    },
}

/// A name of an assertion: the op or tensor of the graph it resolved to, and as written.
#[derive(Clone, Debug)]
pub struct Name {
    /// In the graph (an instance's op is `layers.3.proj`).
    pub name: String,
    pub span: Span,
    /// In the source (`proj`).
    pub written: String,
}

impl Assertion {
    /// The assertion as a message quotes it: `fused(a, b)`, `kernels <= 9`.
    fn text(&self) -> String {
        match &self.test {
            Test::Names {
                predicate,
                negated,
                names,
            } => {
                let names: Vec<&str> = names.iter().map(|n| n.written.as_str()).collect();
                format!(
                    "{}{}({})",
                    if *negated { "not " } else { "" },
                    predicate.as_str(),
                    names.join(", ")
                )
            }
            Test::Compare {
                measure, op, shown, ..
            } => format!("{} {} {shown}", measure.as_str(), op.as_str()),
        }
    }
}

/// Whether `code` is about an assertion only: the graph and its plan are sound, so reports
/// still show the plan beside it.
pub fn is_assertion_code(code: Code) -> bool {
    matches!(code, Code::AssertionFailed | Code::BadAssertion)
}

#[cfg(test)]
mod tests {
    //! The helpers the unit tests of `collect.rs` and `eval.rs` share, and the tests of both
    //! steps together across block expansion.

    use crate::analysis::{Options, check_file};
    use crate::diagnostics::{Code, Diagnostic};

    /// The seed MLP (kernels `[matmul1, bias1, relu]`, `[matmul2]`; 69,214,208 bytes fused)
    /// with `asserts` appended to its body.
    pub(super) fn mlp(asserts: &str) -> String {
        format!(
            "graph mlp {{\n  param M = 1024\n  dtype f16\n  input x: [M, 4096]\n  \
             weight w1: [4096, 4096]\n  weight b1: [4096]\n  weight w2: [4096, 1024]\n  \
             op matmul1 = matmul(x, w1) -> y1\n  op bias1 = elementwise.add(y1, b1) -> y2\n  \
             op relu = elementwise.relu(y2) -> y3\n  op matmul2 = matmul(y3, w2) -> y4\n  \
             output y4\n{asserts}\n}}\n"
        )
    }

    pub(super) fn diags_with(src: &str, opts: &Options) -> Vec<Diagnostic> {
        check_file("t.fgraph", src.as_bytes(), opts).diagnostics
    }

    pub(super) fn diags(src: &str) -> Vec<Diagnostic> {
        diags_with(src, &Options::default())
    }

    /// The one diagnostic of `assert` on the MLP, or none.
    fn one(assert: &str) -> Option<Diagnostic> {
        let mut d = diags(&mlp(&format!("  assert {assert}")));
        assert!(d.len() <= 1, "{assert}: {d:#?}");
        d.pop()
    }

    pub(super) fn holds(assert: &str) {
        assert!(
            one(assert).is_none(),
            "{assert} should hold: {:#?}",
            one(assert)
        );
    }

    pub(super) fn fails(assert: &str) -> Diagnostic {
        let d = one(assert).unwrap_or_else(|| panic!("{assert} should fail"));
        assert_eq!(d.code, Code::AssertionFailed, "{assert}: {d:#?}");
        d
    }

    pub(super) fn bad(assert: &str) -> Diagnostic {
        let d = one(assert).unwrap_or_else(|| panic!("{assert} should be reported"));
        assert!(d.is_error(), "{assert}: {d:#?}");
        d
    }

    pub(super) fn text(d: &Diagnostic) -> String {
        let mut s = d.message.clone();
        for l in d.primary.iter().chain(&d.secondary) {
            s += "\n";
            s += &l.message;
        }
        s + "\n" + d.help.as_deref().unwrap_or("")
    }

    #[test]
    fn assertions_in_blocks_are_checked_per_instance_and_reported_once() {
        let src = "block layer(S) {\n  input x: [S, 64]\n  weight w: [64, 64]\n  \
                   op proj = matmul(x, w) -> p\n  op act = elementwise.gelu(p) -> y\n  \
                   output y\n  assert fused(proj, act)\n  assert kernels == 1\n  \
                   assert traffic < 40 KiB\n  assert not materialized(p)\n  \
                   assert unfused(proj, act)\n}\n\
                   graph m {\n  input x: [8, 64]\n  repeat 3 layers = layer(x, S = 8) -> h\n  \
                   output h\n  assert kernels == 3\n}\n";
        let d = diags(src);
        assert_eq!(d.len(), 1, "{d:#?}");
        let t = text(&d[0]);
        assert!(
            t.contains("`unfused(proj, act)` failed: `proj` and `act`"),
            "{t}"
        );
        assert!(
            !t.contains("layers.0."),
            "instance names are the block's own: {t}"
        );
        assert!(t.contains("in instance 0 of this repeat of `layer`"), "{t}");
        // The per-instance count and bytes: one kernel reading x (2 KiB) and w (16 KiB),
        // writing y (2 KiB).
        let d = diags(&src.replace("kernels == 1", "kernels == 2"));
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(text(&d[0]).contains("this instance of `layer` has 1 kernel"));
        let d = diags(&src.replace("traffic < 40 KiB", "traffic < 20 KiB"));
        assert!(
            d.iter()
                .any(|d| text(d).contains("moves 20,480 B (20.0 KiB)")),
            "{d:#?}"
        );
    }

    #[test]
    fn an_instance_failing_alone_is_labelled_with_its_instance() {
        // Only the last instance's output is a graph output; the others are read by the
        // next layer's matmul: two findings, each labelled with the first instance it
        // failed in.
        let src = "block layer(S) {\n  input x: [S, 64]\n  weight w: [64, 64]\n  \
                   op proj = matmul(x, w) -> p\n  op act = elementwise.gelu(p) -> y\n  \
                   output y\n  assert not materialized(y)\n}\n\
                   graph m {\n  input x: [8, 64]\n  repeat 3 layers = layer(x, S = 8) -> h\n  \
                   output h\n}\n";
        let d = diags(src);
        assert_eq!(d.len(), 2, "{d:#?}");
        let texts: Vec<String> = d.iter().map(text).collect();
        assert!(
            texts
                .iter()
                .any(|t| t.contains("`h` is a graph output") && t.contains("instance 2 of")),
            "{texts:#?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.contains("`y` is written") && t.contains("instance 0 of")),
            "{texts:#?}"
        );
    }
}
