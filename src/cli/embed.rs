//! The command line in process, for programs that embed fgraph (the Python module,
//! `python/`): [`check`] and [`analyze`] run those commands on a file or on source text held
//! in memory, under typed flags ([`Flags`], the command line's own defaults), and hand back
//! what the command printed (the JSON document, the messages), its exit code, the
//! diagnostics of an invalid `fgraph.toml` as JSON, and `analyze`'s notebook view. An
//! embedder so gets the command line's exact behaviour (settings and `fgraph.toml`, SPEC §9's
//! reads and writes, usage errors, exit codes) without starting a process; nothing here reads
//! the process's standard input for source text or writes to its standard output.

use crate::cli::analyze as analyze_cmd;
use crate::cli::check::{self as check_cmd, Fix};
use crate::cli::input::config_anchor;
use crate::cli::io::{Io, Keep, USAGE, Usage};
use crate::cli::{Command, Common, CostArgs, FusionArgs};
use crate::diagnostics::render::{Format, HumanStyle, human, json};
use crate::report::render::notebook::{self, Notebook};
use clap::Parser;
use std::path::PathBuf;

/// What a command runs on.
#[derive(Clone, Debug)]
pub enum Input {
    /// A file, read as the command line reads it (SPEC §9: a regular file, at most the size
    /// limit; `-` is the process's standard input).
    Path(PathBuf),
    /// Source text held in memory, read as standard input (`-`) is, under `name` (as
    /// `--stdin-filename`: the name in messages, where `fgraph.toml` and imports are looked
    /// for) or `<string>`.
    Source {
        text: Vec<u8>,
        name: Option<PathBuf>,
    },
}

/// The flags of `check` and `analyze`, as the command line's defaults leave them.
#[derive(Clone, Debug)]
pub struct Flags {
    pub common: Common,
    /// `analyze`'s cost flags; `cost.fusion` is also `check`'s fusion flags.
    pub cost: CostArgs,
}

impl Default for Flags {
    fn default() -> Flags {
        // The command line's own defaults: those of `fgraph analyze -`.
        match crate::cli::Cli::try_parse_from(["fgraph", "analyze", "-"]) {
            Ok(crate::cli::Cli {
                command: Command::Analyze { common, cost, .. },
            }) => Flags { common, cost },
            _ => unreachable!("`fgraph analyze -` parses"),
        }
    }
}

/// What a command printed, and how it ended.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The exit code (SPEC §6): 0 clean, 1 errors found, 2 the command could not run.
    pub code: u8,
    /// What went to standard output: the JSON document (`{"diagnostics": [...]}` for
    /// `check`, the report for `analyze`); empty when the command could not run.
    pub json: String,
    /// What went to standard error, as plain text: usage errors, unreadable files, notes.
    pub messages: String,
    /// The diagnostics of an invalid `fgraph.toml`, as JSON (the command line prints them on
    /// standard error); the command did not run.
    pub config_diagnostics: Vec<serde_json::Value>,
    /// `analyze`: the notebook view of the report (`None` when there is no plan to show).
    pub notebook: Option<Notebook>,
}

/// `fgraph check --format json` on `input` (with `--flash-attention` when `flash_attention`).
pub fn check(input: Input, flags: &Flags, flash_attention: bool) -> Outcome {
    let fusion: FusionArgs = flags.cost.fusion.clone();
    run(input, flags, move |path, common, io, keep| {
        check_cmd::check(
            std::slice::from_ref(path),
            common,
            flash_attention,
            &fusion,
            Fix::default(),
            io,
            keep,
        )
    })
}

/// `fgraph analyze --format json` on `input` (the graph `graph` of it, or its only one).
/// Files the flags name (`roofline`, `dot`, `svg`, `html`) are written as the command line
/// writes them, except to standard output, which holds the JSON report here.
pub fn analyze(input: Input, graph: Option<&str>, flags: &Flags) -> Outcome {
    let cost = &flags.cost;
    let to_stdout = [&cost.roofline, &cost.dot, &cost.svg, &cost.html]
        .into_iter()
        .flatten()
        .find(|p| crate::fsio::is_stdout(p));
    if let Some(p) = to_stdout {
        return Outcome {
            code: USAGE,
            messages: format!(
                "error: cannot write a picture to `{}` here: standard output holds the JSON \
                 report; name a file\n",
                p.display()
            ),
            ..Outcome::default()
        };
    }
    let mut view = None;
    let mut outcome = run(input, flags, |path, common, io, keep| {
        analyze_cmd::analyze_seeing(path, graph, common, cost, io, keep, &mut |r| {
            view = notebook::notebook(r);
        })
    });
    outcome.notebook = view;
    outcome
}

/// Runs `f` on a thread with the binary's generous stack ([`crate::cli::run_program`]'s), or
/// on this one when that stack cannot be had; a panic goes on in the caller.
fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let f = std::sync::Mutex::new(Some(f));
    let take = || f.lock().ok().and_then(|mut f| f.take());
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .stack_size(crate::perf::MAIN_STACK_BYTES)
            .spawn_scoped(s, || take().map(|f| f()));
        let done = match worker {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(_) => None,
        };
        match done.or_else(|| take().map(|f| f())) {
            Some(t) => t,
            None => unreachable!("`f` runs once, on one thread or the other"),
        }
    })
}

/// Runs `command` on `input` under `flags` in JSON, its output captured, on a thread with a
/// large stack as the binary does: the common part of [`check`] and [`analyze`].
fn run(
    input: Input,
    flags: &Flags,
    command: impl FnOnce(&PathBuf, &Common, &mut Io<'_>, &mut Keep) -> Result<u8, Usage> + Send,
) -> Outcome {
    on_large_stack(move || run_here(input, flags, command))
}

/// [`run`] on this thread.
fn run_here(
    input: Input,
    flags: &Flags,
    command: impl FnOnce(&PathBuf, &Common, &mut Io<'_>, &mut Keep) -> Result<u8, Usage>,
) -> Outcome {
    let mut common = Common {
        format: Format::Json,
        ..flags.common.clone()
    };
    let (path, stdin) = match input {
        Input::Path(p) => (p, None),
        Input::Source { text, name } => {
            common.stdin_filename = Some(name.unwrap_or_else(|| "<string>".into()));
            (PathBuf::from("-"), Some(text))
        }
    };
    // An invalid `fgraph.toml` ends the run before the command: its diagnostics as data.
    let anchor = config_anchor(&path, common.stdin_filename.as_deref());
    if let Err(e) = crate::config::for_file(anchor, common.config.as_deref()) {
        let mut messages = String::new();
        for d in &e.diagnostics {
            messages.push_str(&human(d, &e.source, HumanStyle::plain()));
            messages.push('\n');
        }
        return Outcome {
            code: USAGE,
            messages,
            config_diagnostics: e.diagnostics.iter().map(|d| json(d, &e.source)).collect(),
            ..Outcome::default()
        };
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut keep = Keep::new();
    let mut io = Io {
        out: &mut out,
        err: &mut err,
        color: false,
        stdin,
    };
    let code = match command(&path, &common, &mut io, &mut keep) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            let _ = writeln!(io.err, "error: {msg}");
            USAGE
        }
    };
    drop(keep);
    Outcome {
        code,
        json: String::from_utf8_lossy(&out).into_owned(),
        messages: String::from_utf8_lossy(&err).into_owned(),
        ..Outcome::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str =
        "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n";

    fn source(text: &str) -> Input {
        Input::Source {
            text: text.as_bytes().to_vec(),
            name: None,
        }
    }

    #[test]
    fn the_defaults_are_the_command_line_s() {
        let f = Flags::default();
        assert_eq!(f.common.format, Format::Human);
        assert!(f.common.set.is_empty() && !f.common.deny_warnings);
        assert_eq!(f.cost.traffic_model, crate::cost::TrafficModel::Compulsory);
        assert!(f.cost.hardware.is_none() && f.cost.fusion.fuser.is_none());
    }

    #[test]
    fn analyze_a_source_gives_the_json_report_and_a_view() {
        let o = analyze(source(SRC), None, &Flags::default());
        assert_eq!(o.code, 0, "{}", o.messages);
        let v: serde_json::Value = serde_json::from_str(&o.json).expect("JSON");
        assert_eq!(v["graph"], "g");
        assert_eq!(v["groups"].as_array().map(Vec::len), Some(1));
        assert!(o.notebook.is_some());
    }

    #[test]
    fn errors_are_diagnostics_with_exit_1_and_a_source_goes_by_its_name() {
        let input = Input::Source {
            text: b"graph g {\n  op a = elementwise.relu(x) -> y\n}\n".to_vec(),
            name: Some("model.fgraph".into()),
        };
        let o = check(input, &Flags::default(), false);
        assert_eq!(o.code, 1);
        let v: serde_json::Value = serde_json::from_str(&o.json).expect("JSON");
        assert_eq!(v["diagnostics"][0]["code"], "undefined-tensor");
        assert_eq!(v["diagnostics"][0]["file"], "model.fgraph");
    }

    #[test]
    fn usage_errors_and_unreadable_files_exit_2_with_a_message() {
        let mut flags = Flags::default();
        flags.cost.hardware = Some("h1000".into());
        let o = analyze(source(SRC), None, &flags);
        assert_eq!(o.code, 2);
        assert!(
            o.messages.contains("unknown hardware `h1000`"),
            "{}",
            o.messages
        );
        assert!(o.json.is_empty() && o.notebook.is_none());

        let o = check(
            Input::Path("/nonexistent/x.fgraph".into()),
            &Flags::default(),
            false,
        );
        assert_eq!(o.code, 2);
        assert!(o.messages.contains("cannot read `/nonexistent/x.fgraph`"));

        let mut flags = Flags::default();
        flags.cost.html = Some("-".into());
        let o = analyze(source(SRC), None, &flags);
        assert_eq!(o.code, 2);
        assert!(o.messages.contains("standard output holds the JSON report"));
    }

    #[test]
    fn an_invalid_configuration_is_json_diagnostics() {
        let dir = std::env::temp_dir().join(format!("fgraph-embed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let cfg = dir.join("fgraph.toml");
        std::fs::write(&cfg, "hardwre = \"h100\"\n").expect("write");
        let mut flags = Flags::default();
        flags.common.config = Some(cfg);
        let o = check(source(SRC), &flags, false);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(o.code, 2);
        assert!(!o.config_diagnostics.is_empty());
        assert!(o.config_diagnostics[0]["code"].is_string());
    }
}
