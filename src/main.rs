//! The `fgraph` binary: the CLI (`fgraph::cli`) on a thread with a large stack.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A generous stack (`fgraph::perf::MAIN_STACK_BYTES`); where that address space is not to
    // be had (`ulimit -v`), the main thread's own stack does the work.
    let worker = std::thread::Builder::new()
        .stack_size(fgraph::perf::MAIN_STACK_BYTES)
        .spawn(|| fgraph::cli::main_with_args(std::env::args_os()));
    let code = match worker {
        // A panic is a bug; the panic hook has already printed it.
        Ok(h) => h.join().unwrap_or(fgraph::cli::USAGE),
        Err(_) => fgraph::cli::main_with_args(std::env::args_os()),
    };
    ExitCode::from(code)
}
