//! The command line: parses arguments, runs the library, renders, chooses the exit code.

use crate::analysis::{FileReport, GraphReport, Options, check_file, check_file_owned};
use crate::cost::{self, Hardware, LaunchMode};
use crate::diagnostics::render::{self as diagnostics_render, FileDiagnostics, Format, Sink};
use crate::diagnostics::{Code, Diagnostic, Severity, SourceFile};
use crate::report::render::{self, FileKind, Files};
use crate::report::{Report, ReportOptions};
use crate::transformer::{self, BlockDims};
use crate::types::Dtype;
use clap::{Args, Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Exit codes (SPEC §6).
pub const CLEAN: u8 = 0;
pub const FOUND: u8 = 1;
pub const USAGE: u8 = 2;

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
    /// Analyse the built-in 14-op transformer block.
    Transformer {
        #[arg(long, value_name = "S")]
        seq_len: u64,
        #[arg(long, value_name = "H")]
        hidden_dim: u64,
        #[arg(long, value_name = "NH")]
        num_heads: u64,
        /// Element type of every tensor.
        #[arg(long, default_value = "f16", value_parser = parse_dtype)]
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
        /// A preset (a100, h100, h200, h100-measured).
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
    /// Explain a diagnostic code or fusion boundary reason.
    Explain {
        #[arg(value_name = "CODE")]
        code: String,
    },
}

#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Override a param: NAME=INT (repeatable).
    #[arg(long = "set", value_name = "NAME=INT", value_parser = parse_set)]
    pub set: Vec<(String, i64)>,
    /// Exit with 1 when there are warnings.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Silence a warning code everywhere (repeatable).
    #[arg(long = "allow", value_name = "CODE")]
    pub allow: Vec<String>,
    /// Read settings from this file instead of the nearest `fgraph.toml` above each file.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// The name standard input (`-`) goes by in messages, and where its `fgraph.toml` is
    /// looked for.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
}

/// The cost model's options (`analyze`, `transformer`).
/// How to fuse: a compiler preset and the choices it bundles (docs/language.md, "Fusion
/// strategies"). Flags change one choice of the preset (or of SPEC §2 without one).
#[derive(Args, Clone, Debug, Default)]
pub struct FusionArgs {
    /// Fuse as a compiler's default mode does: seed (SPEC §2, the default), inductor
    /// (torch.compile), xla or tvm.
    #[arg(long, value_enum, value_name = "COMPILER")]
    pub fuser: Option<crate::fusion::Fuser>,
    /// What a tensor with several consumers (or a graph output) does to fusion: boundary
    /// (SPEC §2), store (fuse into a consumer, still write it for the others) or recompute
    /// (compute a cheap producer again in each consumer's kernel).
    #[arg(long, value_enum)]
    pub policy: Option<crate::fusion::Policy>,
    /// Let elementwise work on a reduced value (RMSNorm's scale, softmax's division) join
    /// the reduction's kernel.
    #[arg(long)]
    pub reduction_epilogue: bool,
    /// What may join a matmul's kernel: elementwise (SPEC §2), bias (a bias add only, as
    /// cuBLAS) or none.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub matmul_epilogue: Option<crate::fusion::MatmulEpilogue>,
    /// Merge independent kernels that read the same tensor into one launch: pointwise (the
    /// default when the flag is given alone), grouped-gemm (matmuls too) or off.
    #[arg(long, value_enum, value_name = "WHICH", num_args = 0..=1, default_missing_value = "pointwise")]
    pub horizontal: Option<crate::fusion::Horizontal>,
    /// Keep a tensor with several readers on chip when all its paths reconverge at one op
    /// through cheap ops (TVM's post-dominator fusion).
    #[arg(long)]
    pub fuse_diamonds: bool,
    /// Budget: at most N ops per kernel.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_kernel_ops: Option<u32>,
    /// Budget: at most N distinct tensors read or written by one kernel.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_kernel_tensors: Option<u32>,
    /// Budget: at most N registers per thread (estimated; 255 is CUDA's limit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_registers: Option<u32>,
}

impl FusionArgs {
    /// `opts` (SPEC §2, or what `fgraph.toml` chose) with these flags applied.
    pub fn apply(&self, opts: &mut Options) {
        if let Some(f) = self.fuser {
            let flash = opts.flash_attention;
            opts.set_fusion(f.options());
            opts.flash_attention = flash;
        }
        if let Some(p) = self.policy {
            opts.policy = p;
        }
        opts.reduction_epilogue |= self.reduction_epilogue;
        opts.diamonds |= self.fuse_diamonds;
        if let Some(m) = self.matmul_epilogue {
            opts.matmul_epilogue = m;
        }
        if let Some(h) = self.horizontal {
            opts.horizontal = h;
        }
        let b = &mut opts.budgets;
        b.ops = self.max_kernel_ops.or(b.ops);
        b.tensors = self.max_kernel_tensors.or(b.tensors);
        b.registers = self.max_registers.or(b.registers);
    }
}

#[derive(Args, Debug, Clone, Default)]
pub struct CostArgs {
    /// GPU for time estimates: a100, h100 (default), h200 or h100-measured.
    #[arg(long, value_name = "NAME", conflicts_with = "hardware_file")]
    pub hardware: Option<String>,
    /// Read the GPU from a JSON file instead (template: `fgraph hardware h100 --format json`).
    #[arg(long, value_name = "FILE")]
    pub hardware_file: Option<PathBuf>,
    /// Launch overhead added per kernel: graph (CUDA graph replay) or eager (PyTorch eager).
    #[arg(long, value_enum, default_value_t = LaunchMode::Graph)]
    pub launch: LaunchMode,
    /// Write the roofline of the GPU with every kernel, unfused and fused, as SVG.
    #[arg(long, value_name = "FILE")]
    pub roofline: Option<PathBuf>,
    /// Write the fusion plan as a Graphviz DOT picture: kernels as clusters, tensors kept on
    /// chip apart from those that go through HBM, boundaries with their reasons.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Write the same picture as SVG (needs Graphviz's `dot` program).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write a self-contained HTML report: the picture, kernels, traffic, roofline,
    /// boundaries and diagnostics, kernels highlighted on click (needs Graphviz's `dot`).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Fuse each attention pattern (matmul → softmax → matmul) into one FlashAttention kernel.
    #[arg(long)]
    pub flash_attention: bool,
    /// compulsory (SPEC §3, the default) or hardware: also predict each kernel's DRAM reads
    /// and time from coefficients fitted on a real GPU, shown beside the compulsory numbers.
    #[arg(long, value_enum, default_value_t = cost::TrafficModel::Compulsory)]
    pub traffic_model: cost::TrafficModel,
    /// With `--traffic-model hardware`: the attention kernel that FlashAttention kernels are
    /// priced as: `default` (PyTorch's default on the GPU: cuDNN's on an H100) or one the
    /// hardware file names (`flash2`: FlashAttention-2's own kernel).
    #[arg(long, value_name = "NAME")]
    pub attention_kernel: Option<String>,
    /// With `--traffic-model hardware`: the FlashAttention kernels are causal
    /// (`is_causal=True`), which visit half the key blocks: half the FLOPs and time.
    #[arg(long)]
    pub causal_attention: bool,
    #[command(flatten)]
    pub fusion: FusionArgs,
    /// For a graph built from blocks: one line per instance (each layer) and per block, and
    /// the model total, instead of the list of kernels.
    #[arg(long)]
    pub summary: bool,
    /// Under every boundary, the smallest change that would fuse it and the bytes it would
    /// save (always in JSON; `--explain OP` gives one op's).
    #[arg(long)]
    pub hints: bool,
    /// Plan the graph under every fusion policy and compiler preset and show them side by
    /// side (kernels, launches, HBM traffic, FLOPs, time) instead of the list of kernels.
    #[arg(long, conflicts_with = "summary")]
    pub compare: bool,
    /// Report one op instead of the whole plan: its kernel, every edge into and out of it
    /// (fused, or a boundary with its rule and the smallest change that fuses it) and its
    /// tensor's line of the ledger.
    #[arg(long, value_name = "OP")]
    pub explain: Option<String>,
    /// Add the per-tensor ledger: for every tensor, the kernels that write and read it,
    /// whether it is in HBM and why, and the bytes (they add up to the fused traffic).
    #[arg(long)]
    pub ledger: bool,
}

fn parse_set(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=INT, found `{s}`"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{value}` is not a 64-bit integer"))?;
    Ok((name.trim().to_string(), value))
}

fn parse_dtype(s: &str) -> Result<Dtype, String> {
    Dtype::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Dtype::ALL.iter().map(|d| d.as_str()).collect();
        format!("unknown dtype `{s}`; expected one of {}", names.join(", "))
    })
}

/// Where output goes; tests capture it.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// Whether stderr is a terminal that wants colour.
    pub color: bool,
}

struct Usage(String);

/// What a command built and is done with once its output is written: [`run`] drops it,
/// the binary's entry point ([`main_with_args`]) leaks it, since freeing millions of small
/// allocations just before the process exits costs time and frees nothing useful.
type Keep = Vec<Box<dyn std::any::Any>>;

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
            fusion,
        } => check(&files, &common, flash_attention, &fusion, fix, io, keep),

        Command::Analyze {
            file,
            graph,
            common,
            cost,
        } => analyze(&file, graph.as_deref(), &common, &cost, io, keep),
        Command::Transformer {
            seq_len,
            hidden_dim,
            num_heads,
            dtype,
            emit,
            common,
            cost,
        } => transformer_cmd(
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
        Command::Hardware { name, format } => hardware_cmd(name.as_deref(), format, io),
        Command::Fmt {
            files,
            check,
            stdin_filename,
        } => fmt_cmd(&files, check, stdin_filename.as_deref(), io),
        Command::Explain { code } => explain(&code, io),
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

fn options(common: &Common) -> Result<Options, Usage> {
    let mut allow = Vec::new();
    for name in &common.allow {
        match Code::from_name(name) {
            Some(c) if c.severity() == Severity::Warning => allow.push(c),
            Some(c) => {
                return Err(Usage(format!(
                    "`{c}` is an error; only warnings can be silenced"
                )));
            }
            None => {
                let warnings: Vec<&str> = Code::ALL
                    .iter()
                    .filter(|c| c.severity() == Severity::Warning)
                    .map(|c| c.as_str())
                    .collect();
                return Err(Usage(format!(
                    "unknown code `{name}` in --allow; warnings are {}",
                    warnings.join(", ")
                )));
            }
        }
    }
    Ok(Options {
        overrides: common.set.iter().cloned().collect(),
        allow,
        ..Options::default()
    })
}

/// A preset by name, with a "did you mean" for near misses.
fn preset(name: &str) -> Result<Hardware, Usage> {
    Hardware::preset(name).ok_or_else(|| {
        let best = cost::PRESET_NAMES
            .iter()
            .map(|p| (strsim::levenshtein(&name.to_ascii_lowercase(), p), *p))
            .min();
        let hint = match best {
            Some((d, p)) if d <= 3 => format!("; did you mean `{p}`?"),
            _ => String::new(),
        };
        Usage(format!(
            "unknown hardware `{name}` (presets: {}){hint}; describe another GPU with --hardware-file",
            cost::PRESET_NAMES.join(", ")
        ))
    })
}

/// The GPU the cost model uses: `--hardware-file`, `--hardware`, or the default; with
/// `--traffic-model hardware`, one that carries the hardware model's coefficients.
fn hardware(args: &CostArgs) -> Result<Hardware, Usage> {
    let mut hw = hardware_description(args)?;
    if args.traffic_model == cost::TrafficModel::Hardware && hw.model.is_none() {
        return Err(Usage(format!(
            "--traffic-model hardware: GPU `{}` has no hardware-model coefficients (`model` in \
             a hardware file; calibrated presets: h100, h100-measured); see docs/VALIDATION.md, \
             \"Calibrating another GPU\"",
            hw.name
        )));
    }
    for (flag, given) in [
        ("--attention-kernel", args.attention_kernel.is_some()),
        ("--causal-attention", args.causal_attention),
    ] {
        if given && args.traffic_model != cost::TrafficModel::Hardware {
            return Err(Usage(format!(
                "{flag} prices kernels under the hardware model: add `--traffic-model hardware`"
            )));
        }
    }
    if let (Some(name), Some(m)) = (&args.attention_kernel, &hw.model) {
        hw.model = Some(m.with_attention_kernel(name).map_err(Usage)?);
    }
    if let (true, Some(m)) = (args.causal_attention, &hw.model) {
        hw.model = Some(m.with_causal_attention());
    }
    Ok(hw)
}

fn hardware_description(args: &CostArgs) -> Result<Hardware, Usage> {
    if let Some(path) = &args.hardware_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Usage(format!(
                "cannot read hardware file `{}`: {e}",
                path.display()
            ))
        })?;
        return Hardware::from_json(&text)
            .map_err(|e| Usage(format!("invalid hardware file `{}`: {e}", path.display())));
    }
    preset(args.hardware.as_deref().unwrap_or(cost::DEFAULT_PRESET))
}

/// An unknown `--set` name is a usage error: it names no param of any graph checked.
fn check_set_names(common: &Common, reports: &[FileReport]) -> Result<(), Usage> {
    for (name, _) in &common.set {
        let known = reports
            .iter()
            .any(|r| r.graphs.iter().any(|g| g.params.iter().any(|p| p == name)));
        let any_parsed = reports.iter().any(|r| !r.graphs.is_empty());
        if any_parsed && !known {
            let mut params: Vec<&str> = reports
                .iter()
                .flat_map(|r| {
                    r.graphs
                        .iter()
                        .flat_map(|g| g.params.iter().map(String::as_str))
                })
                .collect();
            params.sort_unstable();
            params.dedup();
            let list = if params.is_empty() {
                "the graphs have no params".to_string()
            } else {
                format!("params: {}", params.join(", "))
            };
            return Err(Usage(format!("unknown param `{name}` in --set ({list})")));
        }
    }
    Ok(())
}

/// Whether `path` names standard input (`-`, as rustfmt and ruff take it).
fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// The name a file goes by in messages: `--stdin-filename` (or `<stdin>`) for `-`.
fn display_name(path: &std::path::Path, stdin_filename: Option<&std::path::Path>) -> String {
    match (is_stdin(path), stdin_filename) {
        (true, Some(name)) => name.display().to_string(),
        (true, None) => "<stdin>".into(),
        (false, _) => path.display().to_string(),
    }
}

/// Where a file's `fgraph.toml` is looked for: beside `--stdin-filename` for `-` (else from
/// the working directory).
fn config_anchor<'p>(
    path: &'p std::path::Path,
    stdin_filename: Option<&'p std::path::Path>,
) -> &'p std::path::Path {
    match (is_stdin(path), stdin_filename) {
        (true, Some(name)) => name,
        (true, None) => std::path::Path::new("<stdin>"),
        (false, _) => path,
    }
}

fn read(path: &PathBuf, io: &mut Io<'_>) -> Option<Vec<u8>> {
    let read = if is_stdin(path) {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut b).map(|_| b)
    } else {
        std::fs::read(path)
    };
    match read {
        Ok(b) => Some(b),
        Err(e) if is_stdin(path) => {
            let _ = writeln!(io.err, "error: cannot read standard input: {e}");
            None
        }
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot read `{}`: {e}", path.display());
            None
        }
    }
}

fn style(io: &Io<'_>) -> diagnostics_render::HumanStyle {
    if io.color {
        diagnostics_render::HumanStyle {
            color: true,
            width: 100,
        }
    } else {
        diagnostics_render::HumanStyle::plain()
    }
}

/// Where a run's rendering goes.
fn sink<'w>(io: &'w mut Io<'_>) -> Sink<'w> {
    let style = style(io);
    Sink {
        out: &mut *io.out,
        err: &mut *io.err,
        style,
    }
}

fn exit_code(diags: &[&Diagnostic], deny_warnings: bool) -> u8 {
    let errors = diags.iter().any(|d| d.is_error());
    let warnings = diags.iter().any(|d| !d.is_error());
    if errors || (deny_warnings && warnings) {
        FOUND
    } else {
        CLEAN
    }
}

fn check(
    files: &[PathBuf],
    common: &Common,
    flash_attention: bool,
    fusion: &FusionArgs,
    fix: bool,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let mut opts = options(common)?;
    opts.flash_attention = flash_attention;
    let mut unreadable = false;
    let mut reports = Vec::new();
    let mut configs = Configs::default();
    let mut deny_warnings = common.deny_warnings;
    if fix && files.iter().any(|f| is_stdin(f)) {
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
            Some(bytes) if fix => match fix_file(path, bytes, &file_opts, io) {
                Some(r) => reports.push(r),
                None => unreadable = true,
            },
            Some(bytes) => reports.push(check_file_owned(
                &display_name(path, stdin_name),
                bytes,
                &file_opts,
            )),
            None => unreadable = true,
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
    diagnostics_render::run(
        common.format,
        &files,
        &diagnostics_render::Diagnostics,
        &mut sink(io),
    );
    drop(files);
    let code = exit_code(&all, common.deny_warnings);
    drop(all);
    keep.push(Box::new(reports));
    Ok(if unreadable { USAGE } else { code })
}

fn analyze(
    path: &PathBuf,
    graph: Option<&str>,
    common: &Common,
    cost: &CostArgs,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let mut opts = options(common)?;
    opts.flash_attention = cost.flash_attention;
    let stdin_name = common.stdin_filename.as_deref();
    let Some(cfg) = Configs::default().for_file(config_anchor(path, stdin_name), common, io) else {
        return Ok(USAGE);
    };
    let mut opts = cfg.options(&opts);
    cost.fusion.apply(&mut opts);
    let common = &Common {
        deny_warnings: common.deny_warnings || cfg.deny_warnings,
        ..common.clone()
    };
    let cost = &CostArgs {
        hardware: cost.hardware.clone().or(cfg.hardware.clone()),
        ..cost.clone()
    };
    let hw = hardware(cost)?;
    let Some(bytes) = read(path, io) else {
        return Ok(USAGE);
    };
    let report = check_file_owned(&display_name(path, stdin_name), bytes, &opts);
    let code = analyze_report(&report, path, graph, common, cost, &hw, io, keep);
    keep.push(Box::new(report));
    code
}

#[allow(clippy::too_many_arguments)]
fn analyze_report(
    report: &FileReport,
    path: &std::path::Path,
    graph: Option<&str>,
    common: &Common,
    cost: &CostArgs,
    hw: &Hardware,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    check_set_names(common, std::slice::from_ref(report))?;
    let names: Vec<&str> = report.graphs.iter().map(|g| g.name.as_str()).collect();
    let chosen = match (graph, report.graphs.len()) {
        (Some(name), _) => match report.graphs.iter().find(|g| g.name == name) {
            Some(g) => Some(g),
            None if report.graphs.is_empty() => None,
            None => {
                return Err(Usage(format!(
                    "no graph `{name}` in `{}` (graphs: {})",
                    path.display(),
                    names.join(", ")
                )));
            }
        },
        (None, 0) => None,
        (None, 1) => report.graphs.first(),
        (None, _) => {
            return Err(Usage(format!(
                "`{}` holds {} graphs; choose one with --graph NAME (graphs: {})",
                path.display(),
                names.len(),
                names.join(", ")
            )));
        }
    };
    render_analysis(report, chosen, common, cost, hw, io, keep)
}

/// The report's options from the cost flags.
fn report_options(cost: &CostArgs) -> ReportOptions {
    ReportOptions {
        launch: cost.launch,
        traffic_model: cost.traffic_model,
        summary: cost.summary,
        hints: cost.hints,
        compare: cost.compare,
        ledger: cost.ledger,
        explain: cost.explain.clone(),
    }
}

/// The report of `graph` (of `file`), assembled by the library; then the files asked for,
/// then the report itself in `--format`.
fn render_analysis(
    file: &FileReport,
    graph: Option<&GraphReport>,
    common: &Common,
    cost: &CostArgs,
    hw: &Hardware,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let options = report_options(cost);
    let mut head_written = false;
    let early = render::early(common.format, &options, &mut *io.out, &mut head_written);
    let report = Report::assemble(file, graph, hw, &options, early).map_err(Usage)?;
    let written = write_files(&report, cost, io);
    render::render(&report, common.format, head_written, &mut sink(io));
    let code = exit_code(&report.diagnostics, common.deny_warnings);
    keep.push(Box::new(report.cost));
    written?;
    Ok(code)
}

/// Writes the files asked for beside the report (`--roofline`, `--dot`, `--svg`, `--html`),
/// or says why not when the graph has errors. The first failure is returned once the others
/// are written.
fn write_files(report: &Report<'_>, args: &CostArgs, io: &mut Io<'_>) -> Result<(), Usage> {
    let files = Files::new(report);
    let mut written = Ok(());
    for (kind, path) in [
        (FileKind::Roofline, &args.roofline),
        (FileKind::Dot, &args.dot),
        (FileKind::Svg, &args.svg),
        (FileKind::Html, &args.html),
    ] {
        let Some(path) = path else { continue };
        let result = match files.render(kind) {
            None => {
                let _ = writeln!(
                    io.err,
                    "note: {} `{}` not written: the graph has errors",
                    kind.what(),
                    path.display()
                );
                Ok(())
            }
            Some(contents) => contents
                .map_err(|e| Usage(format!("cannot write `{}`: {e}", path.display())))
                .and_then(|text| {
                    crate::fsio::write_atomically(path, text.as_bytes()).map_err(|e| {
                        Usage(format!(
                            "cannot write {} `{}`: {e}",
                            kind.as_str(),
                            path.display()
                        ))
                    })
                }),
        };
        if written.is_ok() {
            written = result;
        }
    }
    written
}

/// The configuration files of a run, each read once.
#[derive(Default)]
struct Configs {
    read: std::collections::HashMap<Option<PathBuf>, crate::config::Config>,
}

impl Configs {
    /// The configuration for `file` (`--config`, else the nearest `fgraph.toml`); `None`
    /// after printing why when it is invalid.
    fn for_file(
        &mut self,
        file: &std::path::Path,
        common: &Common,
        io: &mut Io<'_>,
    ) -> Option<crate::config::Config> {
        let path = common.config.clone().or_else(|| crate::config::find(file));
        if let Some(c) = self.read.get(&path) {
            return Some(c.clone());
        }
        let loaded = match &path {
            Some(p) => crate::config::load(p),
            None => Ok(crate::config::Config::default()),
        };
        match loaded {
            Ok(c) => {
                self.read.insert(path, c.clone());
                Some(c)
            }
            Err(e) => {
                let st = style(io);
                for d in &e.diagnostics {
                    let _ = writeln!(io.err, "{}", diagnostics_render::human(d, &e.source, st));
                }
                None
            }
        }
    }
}

impl crate::config::Config {
    /// `base` (the command line's options) with this file's settings under them: `--set`
    /// wins over `[set]`, `--allow` adds to `allow`.
    fn options(&self, base: &Options) -> Options {
        let mut opts = base.clone();
        if let Some(f) = self.fuser {
            let flash = opts.flash_attention;
            opts.set_fusion(f.options());
            opts.flash_attention = flash;
        }
        for (name, value) in &self.set {
            opts.overrides.entry(name.clone()).or_insert(*value);
        }
        for c in &self.allow {
            if !opts.allow.contains(c) {
                opts.allow.push(*c);
            }
        }
        opts.flash_attention |= self.flash_attention;
        opts
    }
}

/// `check --fix` on one file: applies the safe fixes (again on the result, up to a bound,
/// since one fix can reveal the next), writes the file atomically when anything changed, and
/// returns the report of what is left. `None` when the file could not be written.
fn fix_file(
    path: &std::path::Path,
    bytes: Vec<u8>,
    opts: &Options,
    io: &mut Io<'_>,
) -> Option<FileReport> {
    let name = path.display().to_string();
    let original = bytes.clone();
    let mut report = check_file_owned(&name, bytes, opts);
    // A file that is not UTF-8 was decoded with replacements: rewriting it would lose bytes.
    if std::str::from_utf8(&original).is_err() {
        return Some(report);
    }
    let mut fixed = 0;
    for _ in 0..10 {
        let (text, n) =
            crate::fix::apply(&report.source.text, crate::fix::safe(&report.diagnostics));
        if n == 0 {
            break;
        }
        fixed += n;
        report = check_file_owned(&name, text.into_bytes(), opts);
    }
    if report.source.text.as_bytes() != original.as_slice() {
        if let Err(e) = crate::fsio::write_atomically(path, report.source.text.as_bytes()) {
            let _ = writeln!(io.err, "error: cannot write `{name}`: {e}");
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

/// `fgraph transformer`'s own arguments.
struct BlockArgs {
    seq_len: u64,
    hidden_dim: u64,
    num_heads: u64,
    dtype: Dtype,
    emit: bool,
}

fn transformer_cmd(
    block: BlockArgs,
    common: &Common,
    cost: &CostArgs,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let BlockArgs {
        seq_len,
        hidden_dim,
        num_heads,
        dtype,
        emit,
    } = block;
    let mut opts = options(common)?;
    opts.flash_attention = cost.flash_attention;
    // The block has no file to look for an `fgraph.toml` from: only `--config` applies.
    let (opts, common, cost) = match &common.config {
        Some(path) => {
            let Some(cfg) = Configs::default().for_file(path, common, io) else {
                return Ok(USAGE);
            };
            let common = Common {
                deny_warnings: common.deny_warnings || cfg.deny_warnings,
                ..common.clone()
            };
            let cost = CostArgs {
                hardware: cost.hardware.clone().or(cfg.hardware.clone()),
                ..cost.clone()
            };
            (cfg.options(&opts), common, cost)
        }
        None => (opts, common.clone(), cost.clone()),
    };
    let mut opts = opts;
    cost.fusion.apply(&mut opts);
    let (common, cost) = (&common, &cost);
    let hw = hardware(cost)?;
    let dims = match BlockDims::new(seq_len, hidden_dim, num_heads) {
        Ok(d) => d,
        Err(diags) => {
            let src = SourceFile::new("<transformer>", "");
            let options = report_options(cost);
            let report = Report::unbuilt("transformer_block", &src, &diags, &hw, &options);
            render::render(&report, common.format, false, &mut sink(io));
            return Ok(FOUND);
        }
    };
    let source = transformer::emit(dims, dtype);
    if emit {
        let _ = write!(io.out, "{source}");
        return Ok(CLEAN);
    }
    let report = check_file("<transformer>", source.as_bytes(), &opts);
    let code = render_analysis(&report, report.graphs.first(), common, cost, &hw, io, keep);
    keep.push(Box::new(report));
    code
}

fn hardware_cmd(name: Option<&str>, format: Format, io: &mut Io<'_>) -> Result<u8, Usage> {
    let list = match name {
        Some(n) => vec![preset(n)?],
        None => Hardware::presets(),
    };
    match format {
        Format::Json => {
            let files: Vec<_> = list.iter().map(Hardware::to_file).collect();
            let text = if name.is_some() {
                serde_json::to_string_pretty(&files[0])
            } else {
                serde_json::to_string_pretty(&files)
            };
            let _ = writeln!(io.out, "{}", text.unwrap_or_default());
        }
        _ => {
            use crate::units::fmt_num;
            use cost::Unit;
            for hw in &list {
                let _ = writeln!(io.out, "{}  {}", hw.name, hw.description);
                let _ = writeln!(
                    io.out,
                    "  dense 16-bit tensor {} TFLOP/s, f32 {} TFLOP/s, HBM {} TB/s",
                    fmt_num(hw.peak_f16 / 1e12),
                    fmt_num(hw.peak_f32 / 1e12),
                    fmt_num(hw.bandwidth / 1e12)
                );
                let _ = writeln!(
                    io.out,
                    "  ridge point {} FLOP/B (16-bit tensor), {} FLOP/B (f32)",
                    fmt_num(hw.ridge(Unit::Tensor16)),
                    fmt_num(hw.ridge(Unit::F32))
                );
                let l2 = hw
                    .l2_bytes
                    .map_or("?".into(), |b| format!("{} MiB", b / (1024 * 1024)));
                let sms = hw.sms.map_or("?".into(), |n| n.to_string());
                let _ = writeln!(
                    io.out,
                    "  L2 {l2}, {sms} SMs, launch {} µs (graph) / {} µs (eager)",
                    fmt_num(hw.launch_graph * 1e6),
                    fmt_num(hw.launch_eager * 1e6)
                );
                let _ = writeln!(io.out, "  source: {}\n", hw.source);
            }
        }
    }
    Ok(CLEAN)
}

fn fmt_cmd(
    files: &[PathBuf],
    check: bool,
    stdin_filename: Option<&std::path::Path>,
    io: &mut Io<'_>,
) -> Result<u8, Usage> {
    let (mut changed, mut unchanged, mut failed, mut unreadable) = (0, 0, 0, false);
    for path in files {
        let Some(bytes) = read(path, io) else {
            unreadable = true;
            continue;
        };
        let name = display_name(path, stdin_filename);
        let formatted = match crate::format::format_bytes(&bytes) {
            Ok(text) => text,
            Err(d) => {
                // Not formatted: show why, with the file's text for context.
                let src = SourceFile::new(&name, crate::syntax::decode(&bytes).0);
                let _ = write!(io.err, "{}", diagnostics_render::human(&d, &src, style(io)));
                failed += 1;
                continue;
            }
        };
        if is_stdin(path) && !check {
            // Standard input: the result goes to standard output, changed or not.
            let _ = io.out.write_all(formatted.as_bytes());
            if formatted.as_bytes() == bytes.as_slice() {
                unchanged += 1;
            } else {
                changed += 1;
            }
        } else if formatted.as_bytes() == bytes.as_slice() {
            unchanged += 1;
        } else if check {
            let _ = writeln!(io.err, "would reformat {name}");
            changed += 1;
        } else {
            match crate::fsio::write_atomically(path, formatted.as_bytes()) {
                Ok(()) => {
                    let _ = writeln!(io.err, "reformatted {name}");
                    changed += 1;
                }
                Err(e) => {
                    let _ = writeln!(io.err, "error: cannot write `{name}`: {e}");
                    unreadable = true;
                }
            }
        }
    }
    let plural = |n: usize| if n == 1 { "file" } else { "files" };
    let verb = if check {
        "would be reformatted"
    } else {
        "reformatted"
    };
    let mut parts = vec![
        format!("{changed} {} {verb}", plural(changed)),
        format!("{unchanged} {} already formatted", plural(unchanged)),
    ];
    if failed > 0 {
        parts.push(format!(
            "{failed} {} with errors left unchanged",
            plural(failed)
        ));
    }
    // Formatting standard input alone (an editor's buffer) prints only the result.
    if !files.iter().all(|f| is_stdin(f)) || check {
        let _ = writeln!(io.err, "{}.", parts.join(", "));
    }
    Ok(if unreadable {
        USAGE
    } else if failed > 0 || (check && changed > 0) {
        FOUND
    } else {
        CLEAN
    })
}

fn explain(code: &str, io: &mut Io<'_>) -> Result<u8, Usage> {
    match crate::explain::text(code) {
        Some(t) => {
            let _ = write!(io.out, "{t}");
            Ok(CLEAN)
        }
        None => Err(Usage(format!(
            "unknown code `{code}`; known codes: {}",
            crate::explain::codes().join(", ")
        ))),
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
