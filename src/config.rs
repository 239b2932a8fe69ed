//! `fgraph.toml`: settings for every file below it, found by walking up from the file (as
//! ruff finds `ruff.toml` and rustfmt `rustfmt.toml`). The CLI and the language server read
//! it alike; `--config PATH` names one instead. Command-line flags win over it. It is read
//! through the bounded reader, `crate::fsio::read_regular`.
//!
//! ```toml
//! hardware = "h100"          # the cost model's GPU preset (`--hardware`)
//! deny-warnings = true       # exit 1 on warnings (`--deny-warnings`)
//! allow = ["unused-tensor"]  # warnings silenced everywhere (`--allow`)
//! flash-attention = false    # (`--flash-attention`)
//! fuser = "inductor"         # the fusion strategy: seed, inductor, xla or tvm (`--fuser`)
//! runtime = "eager"          # lead `analyze` with the step as eager or compile runs it (`--runtime`)
//! launch = "graph"           # launches: graph (CUDA graph replay) or eager (`--launch`)
//! host-probe-us = 8.7        # the host's probe, to scale the host figures (`--host-probe-us`)
//!
//! [set]                      # param overrides (`--set NAME=INT`)
//! batch = 8
//!
//! [imports]                  # library folders searched for imports, in order
//! paths = ["third_party/fgraph-lib"]
//!
//! [large-intermediate]       # the least size `large-intermediate` warns about
//! min-bytes = 67108864       # 64 MiB
//! min-weight-percent = 10    # 10% of the graph's weight bytes
//! ```
//!
//! A library folder must resolve, symbolic links followed, to a folder inside this file's
//! folder (`crate::imports::library::Library::resolve`); one that does not is `invalid-config`
//! and is never read.

use crate::analysis::Options;
use crate::diagnostics::{Code, Diagnostic, Severity, SourceFile, Span};
use crate::imports::library::Library;
use crate::imports::vfs::{Disk, Vfs};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The name looked for in each directory.
pub const FILE_NAME: &str = "fgraph.toml";

/// A checked configuration file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// Where it was read from (`None`: no file, the defaults).
    pub path: Option<PathBuf>,
    pub hardware: Option<String>,
    pub deny_warnings: bool,
    pub allow: Vec<Code>,
    pub flash_attention: bool,
    /// `fuser = "…"`: a compiler preset (the fusion flags on the command line change it).
    pub fuser: Option<crate::fusion::Fuser>,
    /// `runtime = "…"`: the runtime `analyze` leads its report with (`--runtime` wins).
    pub runtime: Option<crate::runtime::Runtime>,
    /// `launch = "…"`: how kernels are launched (`--launch` wins).
    pub launch: Option<crate::cost::LaunchMode>,
    /// `host-probe-us = …`: the host's probe in µs, to which the hardware model's host
    /// figures are scaled (`--host-probe-us` wins).
    pub host_probe_us: Option<f64>,
    /// Param overrides in file order.
    pub set: Vec<(String, i64)>,
    /// `[imports] paths`: the library folders, resolved (empty from [`parse`], which has no
    /// folder to resolve them in).
    pub libraries: Vec<Library>,
    /// `[large-intermediate] min-bytes, min-weight-percent`: the least size the warning
    /// `large-intermediate` needs (issue 28).
    pub large_intermediate: crate::analysis::LargeIntermediate,
}

/// A configuration file that could not be used: a diagnostic pointing into it, with its text.
#[derive(Clone, Debug)]
pub struct ConfigError {
    pub source: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    hardware: Option<Spanned<String>>,
    #[serde(default)]
    deny_warnings: bool,
    #[serde(default)]
    allow: Vec<Spanned<String>>,
    #[serde(default)]
    flash_attention: bool,
    fuser: Option<Spanned<String>>,
    runtime: Option<Spanned<String>>,
    launch: Option<Spanned<String>>,
    host_probe_us: Option<Spanned<f64>>,
    #[serde(default)]
    set: toml::Table,
    imports: Option<RawImports>,
    large_intermediate: Option<RawLargeIntermediate>,
}

/// `[large-intermediate]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLargeIntermediate {
    #[serde(default)]
    min_bytes: u64,
    #[serde(default)]
    min_weight_percent: u64,
}

/// `[imports]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawImports {
    #[serde(default)]
    paths: Vec<Spanned<String>>,
}

impl Config {
    /// `base` (the command line's options) with this file's settings under them: `--set`
    /// wins over `[set]`, `--allow` adds to `allow`, `fuser` sets the fusion choices (keeping
    /// `--flash-attention`), `flash-attention = true` turns FlashAttention on. The one place
    /// a configuration becomes options: the CLI and the language server both call it.
    pub fn options(&self, base: &Options) -> Options {
        let mut opts = base.clone();
        if let Some(f) = self.fuser {
            opts.fusion = f.options_keeping_flash(&opts.fusion);
        }
        for (name, value) in &self.set {
            opts.overrides.entry(name.clone()).or_insert(*value);
        }
        for c in &self.allow {
            if !opts.allow.contains(c) {
                opts.allow.push(*c);
            }
        }
        opts.fusion.flash_attention |= self.flash_attention;
        if self.large_intermediate != crate::analysis::LargeIntermediate::default() {
            opts.large_intermediate = self.large_intermediate;
        }
        opts.imports
            .libraries
            .extend(self.libraries.iter().cloned());
        opts
    }
}

/// The nearest `fgraph.toml` in the directory of `file` or above it. Only a regular file (or a
/// symlink to one) counts: a directory, device, FIFO or broken link of that name is ignored.
pub fn find(file: &Path) -> Option<PathBuf> {
    find_in(&Disk, file)
}

/// [`find`] in the file system `fs`.
pub fn find_in(fs: &dyn Vfs, file: &Path) -> Option<PathBuf> {
    let abs = fs.absolute(file)?;
    let mut dir = abs.parent();
    while let Some(d) = dir {
        let candidate = d.join(FILE_NAME);
        if fs.is_file(&candidate) {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

/// Reads and checks the file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let name = path.display().to_string();
    match crate::fsio::read_regular(path, crate::limits::MAX_FILE_BYTES) {
        Ok(bytes) if bytes.len() > crate::limits::MAX_FILE_BYTES => Err(ConfigError {
            source: SourceFile::new(&name, String::new()),
            diagnostics: vec![
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "configuration `{name}` is larger than the limit of {} bytes",
                        crate::limits::MAX_FILE_BYTES
                    ),
                )
                .help("name another with `--config PATH`"),
            ],
        }),
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let dir = path.parent().unwrap_or(Path::new(""));
            check(&name, &text, Some(dir)).map(|mut c| {
                c.path = Some(path.to_path_buf());
                c
            })
        }
        Err(e) => Err(ConfigError {
            source: SourceFile::new(&name, String::new()),
            diagnostics: vec![
                Diagnostic::new(
                    Code::InvalidConfig,
                    format!("cannot read configuration `{name}`: {e}"),
                )
                .help("fix the file's permissions, or name another with `--config PATH`"),
            ],
        }),
    }
}

/// The configuration in `text`, or every problem found in it. Library folders are checked
/// for their form only and left out of the result: [`load`] resolves them.
pub fn parse(name: &str, text: &str) -> Result<Config, ConfigError> {
    check(name, text, None)
}

/// [`parse`] for a configuration whose folder is `dir` (as the language server has it, from an
/// open editor's text): library folders are resolved in `dir` as [`load`] resolves them, so a
/// folder that is missing, not a folder or leads out by a symbolic link is reported too.
pub fn parse_in(name: &str, text: &str, dir: &Path) -> Result<Config, ConfigError> {
    check(name, text, Some(dir))
}

/// [`parse`], resolving library folders in `dir` (the configuration's folder) when given.
fn check(name: &str, text: &str, dir: Option<&Path>) -> Result<Config, ConfigError> {
    let fail = |diagnostics| ConfigError {
        source: SourceFile::new(name, text.to_string()),
        diagnostics,
    };
    let raw: Raw = match toml::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            let span = e
                .span()
                .map_or(Span::default(), |r| Span::new(r.start, r.end));
            let message = e.message().to_string();
            let d = Diagnostic::new(Code::InvalidConfig, format!("invalid `{FILE_NAME}`: {message}"))
                .at(span, "here")
                .help("keys: hardware, deny-warnings, allow, flash-attention, fuser, runtime, launch, host-probe-us, [set], [imports] paths, [large-intermediate] min-bytes, min-weight-percent; `fgraph explain invalid-config`");
            return Err(fail(vec![d]));
        }
    };
    let mut diags = Vec::new();
    let mut config = Config {
        deny_warnings: raw.deny_warnings,
        flash_attention: raw.flash_attention,
        large_intermediate: raw.large_intermediate.map_or(Default::default(), |l| {
            crate::analysis::LargeIntermediate {
                min_bytes: l.min_bytes,
                min_weight_percent: l.min_weight_percent,
            }
        }),
        ..Config::default()
    };
    if let Some(hw) = raw.hardware {
        let span = Span::new(hw.span().start, hw.span().end);
        let hw = hw.into_inner();
        if crate::cost::Hardware::preset(&hw).is_some() {
            config.hardware = Some(hw);
        } else {
            diags.push(
                Diagnostic::new(Code::InvalidConfig, format!("unknown hardware `{hw}`"))
                    .at(span, "not a preset")
                    .help(format!(
                        "the presets are {}",
                        crate::cost::PRESET_NAMES.join(", ")
                    )),
            );
        }
    }
    if let Some(f) = raw.fuser {
        let span = Span::new(f.span().start, f.span().end);
        let name = f.into_inner();
        let all = crate::fusion::Fuser::ALL;
        match all.iter().find(|p| p.as_str() == name) {
            Some(&p) => config.fuser = Some(p),
            None => {
                let names: Vec<&str> = all.iter().map(|p| p.as_str()).collect();
                diags.push(
                    Diagnostic::new(Code::InvalidConfig, format!("unknown fuser `{name}`"))
                        .at(span, "not a compiler preset")
                        .help(format!("the presets are {}", names.join(", "))),
                );
            }
        }
    }
    if let Some(r) = raw.runtime {
        let span = Span::new(r.span().start, r.span().end);
        let name = r.into_inner();
        match crate::runtime::Runtime::from_name(&name) {
            Some(r) => config.runtime = Some(r),
            None => {
                let names: Vec<&str> = crate::runtime::RUNTIMES.iter().map(|r| r.name).collect();
                diags.push(
                    Diagnostic::new(Code::InvalidConfig, format!("unknown runtime `{name}`"))
                        .at(span, "not a runtime")
                        .help(format!("the runtimes are {}", names.join(", "))),
                );
            }
        }
    }
    if let Some(l) = raw.launch {
        let span = Span::new(l.span().start, l.span().end);
        let name = l.into_inner();
        match name.as_str() {
            "graph" => config.launch = Some(crate::cost::LaunchMode::Graph),
            "eager" => config.launch = Some(crate::cost::LaunchMode::Eager),
            _ => diags.push(
                Diagnostic::new(Code::InvalidConfig, format!("unknown launch mode `{name}`"))
                    .at(span, "not a launch mode")
                    .help(
                        "the launch modes are graph (CUDA graph replay) and eager (plain launches)",
                    ),
            ),
        }
    }
    if let Some(p) = raw.host_probe_us {
        let span = Span::new(p.span().start, p.span().end);
        let us = p.into_inner();
        match crate::cost::hwmodel::check_range("probe_us", "host-probe-us", us) {
            Ok(us) => config.host_probe_us = Some(us),
            Err(e) => diags.push(
                Diagnostic::new(Code::InvalidConfig, e)
                    .at(span, "not a probe")
                    .help("the time of one `torch.add` of two small tensors under plain launches, in µs"),
            ),
        }
    }
    let warnings: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| c.severity() == Severity::Warning)
        .map(|c| c.as_str())
        .collect();
    for a in raw.allow {
        let span = Span::new(a.span().start, a.span().end);
        match Code::from_name(a.get_ref()) {
            Some(c) if c.severity() == Severity::Warning => config.allow.push(c),
            Some(c) => diags.push(
                Diagnostic::new(
                    Code::InvalidConfig,
                    format!("`{c}` is an error; only warnings can be allowed"),
                )
                .at(span, "not a warning"),
            ),
            None => {
                let mut d = Diagnostic::new(
                    Code::InvalidConfig,
                    format!("unknown code `{}` in `allow`", a.get_ref()),
                )
                .at(span, "silences nothing");
                d = match crate::diagnostics::did_you_mean(a.get_ref(), warnings.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")).fix(
                        crate::diagnostics::Fix::replace(
                            format!("replace with `{s}`"),
                            crate::diagnostics::Applicability::Safe,
                            span,
                            format!("\"{s}\""),
                        ),
                    ),
                    None => d.help(format!("the warnings are {}", warnings.join(", "))),
                };
                diags.push(d);
            }
        }
    }
    // `[set]` values: integers only. The table keeps no spans of its own, so a bad value is
    // found again in the text by its key.
    for (key, value) in raw.set {
        match value.as_integer() {
            Some(v) => config.set.push((key, v)),
            None => {
                let span = find_key(text, &key).unwrap_or_default();
                diags.push(
                    Diagnostic::new(
                        Code::InvalidConfig,
                        format!("`set.{key}` must be an integer, found {}", value.type_str()),
                    )
                    .at(span, "not an integer")
                    .help("param overrides are 64-bit integers, as with `--set NAME=INT`"),
                );
            }
        }
    }
    for p in raw.imports.map(|i| i.paths).unwrap_or_default() {
        let span = Span::new(p.span().start, p.span().end);
        let written = p.into_inner();
        let found = match dir {
            Some(dir) => Library::resolve(&Disk, dir, &written).map(Some),
            None => Library::check_form(&written)
                .map(|()| None)
                .map_err(str::to_string),
        };
        match found {
            Ok(Some(lib)) => config.libraries.push(lib),
            Ok(None) => {}
            Err(why) => diags.push(
                Diagnostic::new(
                    Code::InvalidConfig,
                    format!("the library folder `{written}` {why}"),
                )
                .at(span, "not a library folder")
                .help(
                    "a library folder is a folder inside the folder of `fgraph.toml`, written \
                     relative to it; symbolic links may not lead out of it",
                ),
            ),
        }
    }
    if diags.is_empty() {
        Ok(config)
    } else {
        Err(fail(diags))
    }
}

/// The span of `key` where it starts a line after `[set]` (best effort, for a label only).
fn find_key(text: &str, key: &str) -> Option<Span> {
    let set = text.find("[set]")?;
    let mut offset = set;
    for line in text[set..].split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with(key) && trimmed[key.len()..].trim_start().starts_with('=') {
            return Some(Span::new(offset + indent, offset + indent + key.len()));
        }
        offset += line.len();
    }
    None
}

/// The configuration for `file`: `explicit` when given, else the nearest `fgraph.toml`, else
/// the defaults.
pub fn for_file(file: &Path, explicit: Option<&Path>) -> Result<Config, ConfigError> {
    match explicit.map(Path::to_path_buf).or_else(|| find(file)) {
        Some(p) => load(&p),
        None => Ok(Config::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key() {
        let c = parse(
            "fgraph.toml",
            "hardware = \"a100\"\ndeny-warnings = true\nallow = [\"unused-tensor\"]\n\n[set]\nbatch = 8\n",
        )
        .expect("valid");
        assert_eq!(c.hardware.as_deref(), Some("a100"));
        assert!(c.deny_warnings);
        assert_eq!(c.allow, vec![Code::UnusedTensor]);
        assert_eq!(c.set, vec![("batch".to_string(), 8)]);
    }

    #[test]
    fn reads_the_host_probe_and_refuses_one_out_of_range() {
        let c = parse("fgraph.toml", "host-probe-us = 8.7\n").expect("valid");
        assert_eq!(c.host_probe_us, Some(8.7));
        for (text, bad) in [
            ("host-probe-us = 0.0\n", "0.0"),
            ("host-probe-us = nan\n", "nan"),
        ] {
            let e = parse("fgraph.toml", text).expect_err("invalid");
            let d = &e.diagnostics[0];
            assert_eq!(d.code, Code::InvalidConfig);
            let s = d.primary.as_ref().expect("placed").span;
            assert_eq!(&text[s.start..s.end], bad);
            assert!(d.message.contains("host-probe-us"), "{}", d.message);
        }
    }

    #[test]
    fn reads_the_runtime_and_the_launch_mode() {
        let c = parse("fgraph.toml", "runtime = \"compile\"\nlaunch = \"eager\"\n").expect("valid");
        assert_eq!(c.runtime, Some(crate::runtime::Runtime::Compile));
        assert_eq!(c.launch, Some(crate::cost::LaunchMode::Eager));
        let text = "runtime = \"jit\"\nlaunch = \"graphs\"\n";
        let e = parse("fgraph.toml", text).expect_err("invalid");
        let found: Vec<(&str, &str)> = e
            .diagnostics
            .iter()
            .map(|d| {
                let s = d.primary.as_ref().expect("placed").span;
                (&text[s.start..s.end], d.message.as_str())
            })
            .collect();
        assert_eq!(
            found,
            [
                ("\"jit\"", "unknown runtime `jit`"),
                ("\"graphs\"", "unknown launch mode `graphs`")
            ]
        );
    }

    #[test]
    fn errors_point_into_the_file() {
        let text = "allow = [\"unused-tensr\", \"cycle\"]\n[set]\nb = \"x\"\n";
        let e = parse("fgraph.toml", text).expect_err("invalid");
        let spans: Vec<&str> = e
            .diagnostics
            .iter()
            .map(|d| {
                let s = d.primary.as_ref().expect("placed").span;
                &text[s.start..s.end]
            })
            .collect();
        assert_eq!(spans, ["\"unused-tensr\"", "\"cycle\"", "b"]);
        assert_eq!(e.diagnostics[0].fixes.len(), 1);
        let e = parse("fgraph.toml", "hardwar = \"h100\"\n").expect_err("unknown key");
        let s = e.diagnostics[0].primary.as_ref().expect("placed").span;
        assert_eq!(&"hardwar = \"h100\"\n"[s.start..s.end], "hardwar");
        assert!(e.diagnostics[0].message.contains("unknown field"));
    }

    #[test]
    fn library_folders_are_checked_for_form_without_a_folder() {
        let text = "[imports]\npaths = [\"/etc\", \"lib/../../x\", \"third_party/lib\", \"\"]\n";
        let e = parse("fgraph.toml", text).expect_err("invalid");
        let found: Vec<(&str, &str)> = e
            .diagnostics
            .iter()
            .map(|d| {
                let s = d.primary.as_ref().expect("placed").span;
                (&text[s.start..s.end], d.message.as_str())
            })
            .collect();
        assert_eq!(
            found,
            [
                ("\"/etc\"", "the library folder `/etc` is an absolute path"),
                (
                    "\"lib/../../x\"",
                    "the library folder `lib/../../x` leads outside the folder of `fgraph.toml`"
                ),
                ("\"\"", "the library folder `` is empty"),
            ]
        );
        let c = parse("fgraph.toml", "[imports]\npaths = [\"lib\"]\n").expect("valid");
        assert!(c.libraries.is_empty(), "resolved only by `load`");
    }
}
