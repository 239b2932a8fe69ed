//! The `fgraph` binary: the CLI (`fgraph::cli`) on a thread with a large stack.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(fgraph::cli::run_program(std::env::args_os().collect()))
}
