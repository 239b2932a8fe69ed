//! The diagnostic codes: one `codes!` row per code (kebab-case name and severity). SARIF rules,
//! `--allow`, `allow` comments, the LSP codes and `fgraph explain` all derive from `Code::ALL`.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($( $variant:ident = $name:literal, $sev:ident; )*) => {
        /// Every diagnostic fgraph can emit. The kebab-case name is stable: users silence
        /// warnings by it and CI scripts match on it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $($variant,)* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }
            pub fn from_name(name: &str) -> Option<Code> {
                match name { $($name => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    SyntaxError = "syntax-error", Error;
    UndefinedTensor = "undefined-tensor", Error;
    UndefinedParam = "undefined-param", Error;
    DuplicateDefinition = "duplicate-definition", Error;
    Cycle = "cycle", Error;
    Arity = "arity", Error;
    ShapeMismatch = "shape-mismatch", Error;
    InvalidShape = "invalid-shape", Error;
    InexactDivision = "inexact-division", Error;
    SizeOverflow = "size-overflow", Error;
    UnknownDtype = "unknown-dtype", Error;
    UnknownKind = "unknown-kind", Error;
    BadView = "bad-view", Error;
    MissingShape = "missing-shape", Error;
    BadAttribute = "bad-attribute", Error;
    LimitExceeded = "limit-exceeded", Error;
    InvalidConfig = "invalid-config", Error;
    BadBlock = "bad-block", Error;
    BadInstance = "bad-instance", Error;
    BadImport = "bad-import", Error;
    BadAssertion = "bad-assertion", Error;
    AssertionFailed = "assertion-failed", Error;
    UnusedTensor = "unused-tensor", Warning;
    DtypeMismatch = "dtype-mismatch", Warning;
    LargeIntermediate = "large-intermediate", Warning;
    InvalidAllow = "invalid-allow", Warning;
    DuplicateOutput = "duplicate-output", Warning;
    // Last, so that SARIF's rule indices of the codes above stay as they were.
    InvalidDtype = "invalid-dtype", Error;
    SearchBudget = "search-budget", Warning;
    UnknownFunction = "unknown-function", Error;
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
