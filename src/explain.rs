//! `fgraph explain CODE`: what a diagnostic, boundary reason or fused-edge label means, why,
//! and an example.
//! The texts live in `src/explain/*.md`, one file per code, like ruff's rule docs.

macro_rules! texts {
    ($($name:literal),* $(,)?) => {
        const TEXTS: &[(&str, &str)] = &[$(($name, include_str!(concat!("explain/", $name, ".md"))),)*];
    };
}

texts!(
    "syntax-error",
    "undefined-tensor",
    "undefined-param",
    "duplicate-definition",
    "cycle",
    "arity",
    "shape-mismatch",
    "invalid-shape",
    "inexact-division",
    "size-overflow",
    "unknown-dtype",
    "unknown-kind",
    "bad-view",
    "missing-shape",
    "bad-attribute",
    "limit-exceeded",
    "unused-tensor",
    "dtype-mismatch",
    "large-intermediate",
    "invalid-allow",
    "duplicate-output",
    "search-budget",
    "unknown-function",
    "invalid-config",
    "bad-block",
    "bad-instance",
    "bad-import",
    "bad-assertion",
    "assertion-failed",
    "invalid-dtype",
    "matmul-starts-group",
    "after-reduction",
    "reduction-after-matmul",
    "materialized",
    "second-matmul",
    "would-create-cycle",
    "budget-exceeded",
    "matmul-epilogue",
    "search-stopped",
    "collective",
    "flash-attention",
    "reduction-epilogue",
    "recompute",
);

/// The text for a code (with or without the `fgraph::` prefix).
pub fn text(code: &str) -> Option<&'static str> {
    let code = code.strip_prefix("fgraph::").unwrap_or(code);
    TEXTS.iter().find(|(n, _)| *n == code).map(|(_, t)| *t)
}

/// Every code that has a text.
pub fn codes() -> Vec<&'static str> {
    TEXTS.iter().map(|(n, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;
    use crate::fusion::{FusedBy, Reason};

    #[test]
    fn every_code_and_reason_has_a_full_text() {
        let names = Code::ALL
            .iter()
            .map(|c| c.as_str())
            .chain(Reason::ALL.iter().map(|r| r.as_str()))
            .chain(FusedBy::ALL.iter().map(|f| f.as_str()));
        for name in names {
            let t = text(name).unwrap_or_else(|| panic!("no explain text for {name}"));
            assert!(t.starts_with(&format!("# {name}")), "{name}: title");
            for section in ["## What it does", "## Why", "## Example"] {
                assert!(t.contains(section), "{name}: missing {section}");
            }
        }
        assert_eq!(
            codes().len(),
            Code::ALL.len() + Reason::ALL.len() + FusedBy::ALL.len()
        );
    }
}
