//! The command line: parses arguments ([`Cli`], [`Command`]), runs one command, and returns
//! its exit code. Each command is a file: `check`, `analyze` (settings → pipeline → report →
//! render; `transformer` shares its report), `transformer`, `emit`, `import`, `hardware`, `fmt` and `explain`
//! (`lsp` hands over to the language server). Below them: `args` (the flags they share),
//! `settings` (flags and `fgraph.toml` to options and a GPU), `input` (files and standard
//! input) and `io` (where output goes, exit codes, usage errors). [`run_program`] is the
//! binary's whole program; [`embed`] runs `check` and `analyze` in process for embedders.

mod analyze;
mod args;
mod capacity;
mod check;
pub mod embed;
mod emit;
mod explain;
mod fmt;
mod hardware;
mod import;
mod import_onnx;
mod input;
mod io;
mod settings;
mod transformer;

pub use args::{Common, CostArgs, FusionArgs};
pub use io::{CLEAN, FOUND, Io, USAGE};

use crate::cli::io::{Keep, Usage};
use crate::cli::transformer::BlockArgs;
use crate::diagnostics::render::Format;
use crate::types::Dtype;
use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fgraph",
    version,
    about = "Compiler and linter for .fgraph GPU computation graphs"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check files and report diagnostics.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
        /// Lint the FlashAttention plan: attention intermediates are not large-intermediate.
        #[arg(long)]
        flash_attention: bool,
        /// Apply the safe suggested fixes, rewrite the files, then report what is left.
        #[arg(long)]
        fix: bool,
        /// With --fix: rewrite read-only files too (their mode is kept).
        #[arg(long, requires = "fix")]
        force: bool,
        #[command(flatten)]
        fusion: FusionArgs,
    },
    /// Check one graph, then report its kernels, HBM traffic, estimated time and fusion
    /// boundaries.
    Analyze {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The graph to analyse when the file holds several.
        #[arg(long, value_name = "NAME")]
        graph: Option<String>,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        cost: CostArgs,
    },
    /// Print a graph as code for another framework: `emit torch` writes a self-contained
    /// PyTorch module (one call per op, random weights, a main that runs it).
    Emit {
        /// What to write: torch.
        #[arg(value_name = "TARGET", value_parser = parse_target)]
        target: &'static crate::emit::Target,
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The graph to emit when the file holds several.
        #[arg(long, value_name = "NAME")]
        graph: Option<String>,
        /// Write to this file instead of standard output (`-` is standard output).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Analyse the built-in 14-op transformer block.
    Transformer {
        #[arg(long, value_name = "S")]
        seq_len: u64,
        #[arg(long, value_name = "H")]
        hidden_dim: u64,
        #[arg(long, value_name = "NH")]
        num_heads: u64,
        /// Element type of every tensor.
        #[arg(long, default_value = "f16", value_parser = args::parse_dtype)]
        dtype: Dtype,
        /// Print the block as .fgraph source instead of analysing it.
        #[arg(long)]
        emit: bool,
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        cost: CostArgs,
    },
    /// List the GPUs the cost model knows, or print one as a --hardware-file template.
    Hardware {
        /// A preset (a100, h100, h200, h100-measured, h100-2x8).
        #[arg(value_name = "NAME")]
        name: Option<String>,
        /// Output format (json prints hardware-file JSON).
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Rewrite files in the canonical layout, comments kept.
    Fmt {
        /// Files to rewrite; `-` reads standard input and writes the result to standard
        /// output.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Change nothing; exit 1 if any file is not formatted.
        #[arg(long)]
        check: bool,
        /// Rewrite read-only files too (their mode is kept).
        #[arg(long)]
        force: bool,
        /// The name standard input (`-`) goes by in messages.
        #[arg(long, value_name = "PATH")]
        stdin_filename: Option<PathBuf>,
    },
    /// Run the language server on stdin/stdout (for editors; see docs/editors.md).
    Lsp {
        /// Read settings from this file for every document instead of each one's nearest
        /// `fgraph.toml`.
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
    },
    /// Write a model described in another format as a `.fgraph` file: `import hf
    /// CONFIG.json` (a Hugging Face config) or `import onnx MODEL.onnx`.
    Import {
        #[command(subcommand)]
        what: args::ImportCommand,
    },
    /// Explain a diagnostic code or fusion boundary reason.
    Explain {
        #[arg(value_name = "CODE")]
        code: String,
    },
}

/// An `emit` target by name.
fn parse_target(s: &str) -> Result<&'static crate::emit::Target, String> {
    crate::emit::target(s).ok_or_else(|| {
        let names: Vec<&str> = crate::emit::TARGETS.iter().map(|t| t.name).collect();
        format!("unknown target `{s}`; expected one of {}", names.join(", "))
    })
}

/// Runs a parsed command line and returns the exit code.
pub fn run(cli: Cli, io: &mut Io<'_>) -> u8 {
    run_keeping(cli, io, &mut Keep::new())
}

/// [`run`], handing what the command built to `keep` instead of dropping it.
fn run_keeping(cli: Cli, io: &mut Io<'_>, keep: &mut Keep) -> u8 {
    let result = match cli.command {
        Command::Check {
            files,
            common,
            flash_attention,
            fix,
            force,
            fusion,
        } => check::check(
            &files,
            &common,
            flash_attention,
            &fusion,
            check::Fix { fix, force },
            io,
            keep,
        ),

        Command::Analyze {
            file,
            graph,
            common,
            cost,
        } => analyze::analyze(&file, graph.as_deref(), &common, &cost, io, keep),
        Command::Emit {
            target,
            file,
            graph,
            output,
            common,
        } => emit::emit(
            emit::EmitArgs {
                target,
                file: &file,
                graph: graph.as_deref(),
                output: output.as_deref(),
            },
            &common,
            io,
            keep,
        ),
        Command::Transformer {
            seq_len,
            hidden_dim,
            num_heads,
            dtype,
            emit,
            common,
            cost,
        } => transformer::transformer_cmd(
            BlockArgs {
                seq_len,
                hidden_dim,
                num_heads,
                dtype,
                emit,
            },
            &common,
            &cost,
            io,
            keep,
        ),
        Command::Hardware { name, format } => hardware::hardware_cmd(name.as_deref(), format, io),
        Command::Fmt {
            files,
            check,
            force,
            stdin_filename,
        } => fmt::fmt_cmd(&files, check, force, stdin_filename.as_deref(), io),
        Command::Import { what } => import::import_cmd(&what, io),
        Command::Explain { code } => explain::explain(&code, io),
        Command::Lsp { config } => match crate::lsp::run_stdio(config) {
            Ok(0) => Ok(CLEAN),
            Ok(_) => Ok(FOUND),
            Err(e) => Err(Usage(format!("language server: {e}"))),
        },
    };
    match result {
        Ok(code) => code,
        Err(Usage(msg)) => {
            let _ = writeln!(io.err, "error: {msg}");
            USAGE
        }
    }
}

/// Entry point of the binary: parses `args`, runs, returns the exit code.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { USAGE } else { CLEAN };
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let mut keep = Keep::new();
    let code = run_keeping(
        cli,
        &mut Io {
            out: &mut out,
            err: &mut err,
            color,
            stdin: None,
        },
        &mut keep,
    );
    let _ = out.flush();
    // The output is written and flushed: the process is about to exit, so leave the graph,
    // its analysis and reports to the OS instead of freeing them one allocation at a time
    // (rustc does the same). Only here, in the binary's entry point; `run` drops them.
    std::mem::forget(keep);
    code
}

/// The whole program, as the binary runs it: [`main_with_args`] on a thread with a generous
/// stack (`crate::perf::MAIN_STACK_BYTES`); where that address space is not to be had
/// (`ulimit -v`), on the calling thread. Returns the exit code. The Python module's `fgraph`
/// console script runs this too.
pub fn run_program(args: Vec<std::ffi::OsString>) -> u8 {
    let retry = args.clone();
    let worker = std::thread::Builder::new()
        .stack_size(crate::perf::MAIN_STACK_BYTES)
        .spawn(move || main_with_args(args));
    match worker {
        // A panic is a bug; the panic hook has already printed it.
        Ok(h) => h.join().unwrap_or(USAGE),
        Err(_) => main_with_args(retry),
    }
}
