//! From flags and `fgraph.toml` to what a command runs under: the analysis options
//! ([`options`], [`Configs`] and `Config::options`, the file's settings under the flags), the
//! GPU ([`hardware`], [`preset`]), the [`Settings`] of `analyze` and `transformer`, and the
//! report's options.

use crate::analysis::{FileReport, Options};
use crate::cli::args::{Common, CostArgs};
use crate::cli::io::{Io, Usage, style};
use crate::config::Config;
use crate::cost::{self, Hardware};
use crate::diagnostics::render::human;
use crate::diagnostics::{Code, Severity};
use crate::fusion::Fuser;
use crate::report::ReportOptions;
use std::path::{Path, PathBuf};

/// What `analyze` and `transformer` run under: the analysis options, the GPU, and the flags
/// with the configuration's `deny-warnings` and `hardware` merged in.
pub(super) struct Settings {
    pub options: Options,
    pub common: Common,
    pub cost: CostArgs,
    pub hardware: Hardware,
}

/// The [`Settings`] of a command with a cost model: the flags over the configuration found
/// from `anchor` (or `--config`; without either, the defaults). `Ok(None)` after printing why
/// when the configuration is invalid.
pub(super) fn for_cost(
    anchor: Option<&Path>,
    common: &Common,
    cost: &CostArgs,
    io: &mut Io<'_>,
) -> Result<Option<Settings>, Usage> {
    let mut opts = options(common)?;
    opts.fusion.flash_attention = cost.flash_attention;
    let cfg = match anchor.or(common.config.as_deref()) {
        Some(anchor) => match Configs::default().for_file(anchor, common, io) {
            Some(cfg) => cfg,
            None => return Ok(None),
        },
        None => Config::default(),
    };
    let mut options = cfg.options(&opts);
    cost.fusion.apply(&mut options);
    let common = Common {
        deny_warnings: common.deny_warnings || cfg.deny_warnings,
        ..common.clone()
    };
    let cost = CostArgs {
        hardware: cost.hardware.clone().or(cfg.hardware.clone()),
        runtime: cost.runtime.or(cfg.runtime),
        launch: cost.launch.or(cfg.launch),
        host_probe_us: cost.host_probe_us.or(cfg.host_probe_us),
        ..cost.clone()
    };
    let mut hardware = hardware(&cost)?;
    if let (Some(probe), Some(m)) = (cost.host_probe_us, &hardware.model) {
        hardware.model = Some(m.with_host_probe(probe).map_err(Usage)?);
    } else if cost.host_probe_us.is_some() {
        return Err(Usage(format!(
            "--host-probe-us: {} has no hardware model to scale",
            hardware.name
        )));
    }
    // A compiler's fuser runs layout-only kernels as its own generated copies (issue 24);
    // `--runtime` may choose otherwise.
    if let (Some(Fuser::Inductor | Fuser::Xla | Fuser::Tvm), Some(m)) =
        (cost.fusion.fuser.or(cfg.fuser), &hardware.model)
    {
        hardware.model = Some(m.with_copy_kernel(cost::CopyKernel::Generated));
    }
    Ok(Some(Settings {
        options,
        common,
        cost,
        hardware,
    }))
}

/// The report's options from the cost flags.
pub(super) fn report_options(cost: &CostArgs) -> ReportOptions {
    ReportOptions {
        launch: cost.launch.unwrap_or_default(),
        runtime: cost.runtime,
        traffic_model: cost.traffic_model,
        summary: cost.summary,
        hints: cost.hints,
        compare: cost.compare,
        ledger: cost.ledger,
        explain: cost.explain.clone(),
        memory: cost.memory || cost.max_param.is_some(),
        breakdown: cost.breakdown,
        baseline: None,
        fail_on_regression: cost.fail_on_regression,
        overrides: Default::default(),
    }
}

/// The analysis options the command line gives: `--set` and `--allow` (checked).
pub(super) fn options(common: &Common) -> Result<Options, Usage> {
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
pub(super) fn preset(name: &str) -> Result<Hardware, Usage> {
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
pub(super) fn hardware(args: &CostArgs) -> Result<Hardware, Usage> {
    let mut hw = hardware_description(args)?;
    if args.traffic_model == cost::TrafficModel::Hardware && hw.model.is_none() {
        return Err(Usage(format!(
            "--traffic-model hardware: GPU `{}` has no hardware-model coefficients (`model` in \
             a hardware file; calibrated presets: h100, h100-measured, h100-2x8); see \
             docs/VALIDATION.md, \
             \"Calibrating another GPU\"",
            hw.name
        )));
    }
    if args.runtime.is_some() && hw.model.is_none() {
        return Err(Usage(crate::runtime::no_model(&hw)));
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
        let limit = crate::limits::MAX_FILE_BYTES;
        let bytes = crate::fsio::read_regular(path, limit).map_err(|e| {
            Usage(format!(
                "cannot read hardware file `{}`: {e}",
                path.display()
            ))
        })?;
        if bytes.len() > limit {
            return Err(Usage(format!(
                "hardware file `{}` is larger than the limit of {limit} bytes",
                path.display()
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            Usage(format!(
                "cannot read hardware file `{}`: not UTF-8 ({e})",
                path.display()
            ))
        })?;
        return Hardware::from_json(&text)
            .map_err(|e| Usage(format!("invalid hardware file `{}`: {e}", path.display())));
    }
    preset(args.hardware.as_deref().unwrap_or(cost::DEFAULT_PRESET))
}

/// An unknown `--set` name is a usage error: it names no param of any graph checked.
pub(super) fn check_set_names(common: &Common, reports: &[FileReport]) -> Result<(), Usage> {
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

/// The configuration files of a run, each read once.
#[derive(Default)]
pub(super) struct Configs {
    read: std::collections::HashMap<Option<PathBuf>, Config>,
}

impl Configs {
    /// The configuration for `file` (`--config`, else the nearest `fgraph.toml`); `None`
    /// after printing why when it is invalid.
    pub(super) fn for_file(
        &mut self,
        file: &std::path::Path,
        common: &Common,
        io: &mut Io<'_>,
    ) -> Option<Config> {
        let path = common.config.clone().or_else(|| crate::config::find(file));
        if let Some(c) = self.read.get(&path) {
            return Some(c.clone());
        }
        let loaded = match &path {
            Some(p) => crate::config::load(p),
            None => Ok(Config::default()),
        };
        match loaded {
            Ok(c) => {
                self.read.insert(path, c.clone());
                Some(c)
            }
            Err(e) => {
                let st = style(io);
                for d in &e.diagnostics {
                    let _ = writeln!(io.err, "{}", human(d, &e.source, st));
                }
                None
            }
        }
    }
}
