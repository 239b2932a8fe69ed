//! `fgraph check FILE...`: every file checked under the flags over its `fgraph.toml`, its
//! diagnostics rendered as one run; `--fix` applies the safe fixes first. Safe fixes are
//! verified (`crate::fix::verify`): what shows as safe leaves the file better.

use crate::analysis::{FileReport, Options};
use crate::cli::args::{Common, FusionArgs};
use crate::cli::input::{config_anchor, display_name, is_stdin, read};
use crate::cli::io::{Io, Keep, USAGE, Usage, exit_code, sink};
use crate::cli::settings::{Configs, check_set_names, options};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::render::human::count_line_unread;
use crate::diagnostics::render::{Diagnostics, FileDiagnostics, Format, RunReport, run};
use crate::fix::check_verified;
use std::path::PathBuf;

/// `--fix`, and `--force` (rewrite read-only files too).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fix {
    pub(super) fix: bool,
    pub(super) force: bool,
}

pub(super) fn check(
    files: &[PathBuf],
    common: &Common,
    flash_attention: bool,
    fusion: &FusionArgs,
    fix: Fix,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let mut opts = options(common)?;
    opts.fusion.flash_attention = flash_attention;
    let mut unreadable = 0;
    let mut reports = Vec::new();
    let mut configs = Configs::default();
    let mut deny_warnings = common.deny_warnings;
    if fix.fix && files.iter().any(|f| is_stdin(f)) {
        return Err(Usage(
            "--fix rewrites files in place and cannot rewrite standard input (`-`)".into(),
        ));
    }
    let stdin_name = common.stdin_filename.as_deref();
    for path in files {
        let anchor = config_anchor(path, stdin_name);
        let Some(cfg) = configs.for_file(anchor, common, io) else {
            return Ok(USAGE);
        };
        let mut file_opts = cfg.options(&opts);
        fusion.apply(&mut file_opts);
        deny_warnings |= cfg.deny_warnings;
        match read(path, io) {
            Some(bytes) if fix.fix => match fix_file(path, bytes, &file_opts, fix.force, io) {
                Some(r) => reports.push(r),
                None => unreadable += 1,
            },
            Some(bytes) => reports.push(check_verified(
                &display_name(path, stdin_name),
                bytes,
                &file_opts,
            )),
            None => unreadable += 1,
        }
    }
    check_set_names(common, &reports)?;
    let common = &Common {
        deny_warnings,
        ..common.clone()
    };
    let all: Vec<&Diagnostic> = reports.iter().flat_map(|r| r.diagnostics.iter()).collect();
    let files: Vec<FileDiagnostics<'_>> = reports
        .iter()
        .map(|r| FileDiagnostics {
            source: &r.source,
            diagnostics: r.diagnostics.iter().collect(),
        })
        .collect();
    if unreadable == 0 {
        run(common.format, &files, &Diagnostics, &mut sink(io));
    } else {
        // Not "All checks passed": the count says what could not be read.
        run(common.format, &files, &NoFooter, &mut sink(io));
        if common.format == Format::Human {
            let line = count_line_unread(&all, files.len(), unreadable);
            let _ = write!(io.err, "{line}");
        }
    }
    drop(files);
    let code = exit_code(&all, common.deny_warnings);
    drop(all);
    keep.push(Box::new(reports));
    Ok(if unreadable > 0 { USAGE } else { code })
}

/// `check`'s run when a file could not be read: its own count line replaces the footer.
struct NoFooter;

impl RunReport for NoFooter {
    fn footer(&self) -> bool {
        false
    }
}

/// `check --fix` on one file: applies the verified safe fixes (`crate::fix::fix_file`: again
/// on the result, up to a bound, since one fix can reveal the next; never an edit that leaves
/// the file with a new error), writes the file atomically when anything changed (SPEC §9:
/// only a regular file unchanged since it was read, a read-only one only with `--force`), and
/// returns the report of what is left. `None` when the file could not be written.
fn fix_file(
    path: &std::path::Path,
    bytes: Vec<u8>,
    opts: &Options,
    force: bool,
    io: &mut Io<'_>,
) -> Option<FileReport> {
    let name = path.display().to_string();
    // A file that is not UTF-8 was decoded with replacements: rewriting it would lose bytes.
    if std::str::from_utf8(&bytes).is_err() {
        return Some(check_verified(&name, bytes, opts));
    }
    let original = bytes.clone();
    let (report, fixed) = crate::fix::fix_file(&name, bytes, opts);
    if report.source.text.as_bytes() != original.as_slice() {
        let write = crate::fsio::WriteOptions {
            expect: Some(&original),
            force,
        };
        if let Err(e) = crate::fsio::write_file(path, report.source.text.as_bytes(), write) {
            let hint = e.force_hint();
            let _ = writeln!(io.err, "error: cannot write `{name}`: {e}{hint}");
            return None;
        }
        let _ = writeln!(
            io.err,
            "fixed {fixed} {} in {name}",
            if fixed == 1 { "problem" } else { "problems" }
        );
    }
    Some(report)
}
