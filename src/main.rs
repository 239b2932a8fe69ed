use std::process::ExitCode;

fn main() -> ExitCode {
    // The pipeline is iterative and bounds expression nesting, but a generous stack costs only
    // address space and keeps any deep-but-legal input far from the edge. Where that address
    // space is not to be had (`ulimit -v`), the main thread's own stack does the work.
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(|| fgraph::cli::main_with_args(std::env::args_os()));
    let code = match worker {
        // A panic is a bug; the panic hook has already printed it.
        Ok(h) => h.join().unwrap_or(fgraph::cli::USAGE),
        Err(_) => fgraph::cli::main_with_args(std::env::args_os()),
    };
    ExitCode::from(code)
}
