use std::process::ExitCode;

fn main() -> ExitCode {
    // The pipeline is iterative and bounds expression nesting, but a generous stack costs only
    // address space and keeps any deep-but-legal input far from the edge.
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(|| fgraph::cli::main_with_args(std::env::args_os()));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => ExitCode::from(fgraph::cli::USAGE),
    }
}
