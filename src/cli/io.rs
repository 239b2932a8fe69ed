//! What every command shares: where output goes ([`Io`]), the exit codes (SPEC §6), the usage
//! error that ends a run with exit code 2, and what a command keeps until the process exits.

use crate::diagnostics::Diagnostic;
use crate::diagnostics::render::{HumanStyle, Sink};
use std::io::Write;

/// Exit codes (SPEC §6).
pub const CLEAN: u8 = 0;
pub const FOUND: u8 = 1;
pub const USAGE: u8 = 2;

/// Where output goes; tests capture it.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// Whether stderr is a terminal that wants colour.
    pub color: bool,
    /// What `-` reads when the caller holds it in memory (the in-process API, [`super::embed`]);
    /// `None`: the process's standard input.
    pub stdin: Option<Vec<u8>>,
}

/// A usage error: the message `fgraph` prints before it exits with [`USAGE`].
pub(super) struct Usage(pub(super) String);

/// What a command built and is done with once its output is written: `run` drops it, the
/// binary's entry point (`main_with_args`) leaks it, since freeing millions of small
/// allocations just before the process exits costs time and frees nothing useful.
pub(super) type Keep = Vec<Box<dyn std::any::Any>>;

/// [`FOUND`] when there are errors (or warnings under `--deny-warnings`), else [`CLEAN`].
pub(super) fn exit_code(diags: &[&Diagnostic], deny_warnings: bool) -> u8 {
    let errors = diags.iter().any(|d| d.is_error());
    let warnings = diags.iter().any(|d| !d.is_error());
    if errors || (deny_warnings && warnings) {
        FOUND
    } else {
        CLEAN
    }
}

/// How human diagnostics are drawn: in colour, 100 columns wide, on a terminal.
pub(super) fn style(io: &Io<'_>) -> HumanStyle {
    if io.color {
        HumanStyle {
            color: true,
            width: 100,
        }
    } else {
        HumanStyle::plain()
    }
}

/// Where a run's rendering goes.
pub(super) fn sink<'w>(io: &'w mut Io<'_>) -> Sink<'w> {
    let style = style(io);
    Sink {
        out: &mut *io.out,
        err: &mut *io.err,
        style,
    }
}
