//! The flags commands share: [`Common`] (format, `--set`, `--allow`, configuration),
//! [`FusionArgs`] (how to fuse, with [`FusionArgs::apply`] onto the analysis options) and
//! [`CostArgs`] (the GPU, the cost model, the files and views of the report), and the parsers
//! of their values.

use crate::analysis::Options;
use crate::cost::{self, LaunchMode};
use crate::diagnostics::render::Format;
use crate::types::Dtype;
use clap::Args;
use std::path::PathBuf;

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
    /// default when the flag is given alone), grouped-gemm (matmuls too), inductor (as
    /// Inductor's scheduler: the same elements read, no peak-memory rise) or off.
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
    /// Most units of work one plan search may spend on its checks before it stops and keeps
    /// the plan found so far (warning `search-budget`); default 2^24 plus 8,192 per op, at
    /// most 2^29.
    #[arg(long, value_name = "UNITS")]
    pub max_plan_work: Option<u64>,
}

impl FusionArgs {
    /// `opts` (SPEC §2, or what `fgraph.toml` chose) with these flags applied.
    pub fn apply(&self, opts: &mut Options) {
        let opts = &mut opts.fusion;
        if let Some(f) = self.fuser {
            *opts = f.options_keeping_flash(opts);
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
        opts.work_limit = self.max_plan_work.or(opts.work_limit);
    }
}

/// The cost model's options (`analyze`, `transformer`), and what the report shows.
#[derive(Args, Debug, Clone, Default)]
pub struct CostArgs {
    /// GPU for time estimates: a100, h100 (default), h200, h100-measured or h100-2x8 (two
    /// nodes of 8, for collectives that cross nodes).
    #[arg(long, value_name = "NAME", conflicts_with = "hardware_file")]
    pub hardware: Option<String>,
    /// Read the GPU from a JSON file instead (template: `fgraph hardware h100 --format json`).
    #[arg(long, value_name = "FILE")]
    pub hardware_file: Option<PathBuf>,
    /// Launch overhead added per kernel: graph (CUDA graph replay, the default) or eager
    /// (PyTorch eager, plain launches).
    #[arg(long, value_enum)]
    pub launch: Option<LaunchMode>,
    /// Lead the report with one prediction of the step as a runtime runs the file: eager
    /// (PyTorch, one kernel per op but views) or compile (torch.compile, TorchInductor's
    /// default mode), priced by the hardware model.
    #[arg(long, value_enum, value_name = "RUNTIME")]
    pub runtime: Option<crate::runtime::Runtime>,
    /// Scale the hardware model's host figures (plain launches under --runtime) to a host
    /// whose probe, one `torch.add` of two small tensors launched after another, takes US µs
    /// (the H100 presets' host: 7.21; `validation/gpu/models/host_calib.py --probe measure`
    /// times yours).
    #[arg(long, value_name = "US")]
    pub host_probe_us: Option<f64>,
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
    /// With --dot or --svg: draw the first instance of each block op by op and fold the
    /// later ones, one node per range of instances with their counts (as --html does).
    #[arg(long)]
    pub collapse_repeats: bool,
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
    /// Add memory and capacity: parameters and weight bytes by block, KV caches, the peak of
    /// live activations, and the total against the GPU's memory.
    #[arg(long)]
    pub memory: bool,
    /// With the memory report: the largest value of param NAME (a batch or a context length)
    /// at which the graph still fits in the GPU's memory.
    #[arg(long, value_name = "NAME")]
    pub max_param: Option<String>,
    /// Add where the time goes: every kernel by family (matmul, attention, normalisation,
    /// elementwise, …), for the model and per layer.
    #[arg(long)]
    pub breakdown: bool,
    /// Compare with a saved JSON report (`analyze --format json`): kernels, traffic and time,
    /// in total, per layer and per kernel.
    #[arg(long, value_name = "OLD.json")]
    pub baseline: Option<PathBuf>,
    /// With --baseline: exit 1 when the fused traffic or time grew by more than PCT percent,
    /// with a GitHub annotation at the op whose kernel grew most.
    #[arg(long, value_name = "PCT", requires = "baseline", value_parser = parse_pct)]
    pub fail_on_regression: Option<f64>,
}

pub(super) fn parse_pct(s: &str) -> Result<f64, String> {
    match s.trim().trim_end_matches('%').parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1e9).contains(&v) => Ok(v),
        _ => Err(format!(
            "`{s}` is not a percentage: expected a number from 0 to 1e9, such as 5 or 0.5"
        )),
    }
}

pub(super) fn parse_set(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=INT, found `{s}`"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{value}` is not a 64-bit integer"))?;
    Ok((name.trim().to_string(), value))
}

/// [`parse_set`] for `fgraph import onnx --dim NAME=INT`.
pub(super) fn parse_set_pub(s: &str) -> Result<(String, i64), String> {
    parse_set(s)
}

pub(super) fn parse_dtype(s: &str) -> Result<Dtype, String> {
    Dtype::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Dtype::ALL.iter().map(|d| d.as_str()).collect();
        format!("unknown dtype `{s}`; expected one of {}", names.join(", "))
    })
}

/// `fgraph import FORMAT …`: a model described in another format, written as `.fgraph`.
#[derive(clap::Subcommand, Debug)]
pub enum ImportCommand {
    /// A Hugging Face `config.json` (model_type llama, mistral, qwen2, gemma, gemma2, phi3,
    /// gpt2, bert, mixtral, deepseek_v2): one block per kind of layer, repeated, on the
    /// standard library's blocks, the config's values as params.
    Hf(HfArgs),
    /// An ONNX model's graph: initializers as weights by shape (their data and external data
    /// never read), standard operators as fgraph ops, named dynamic dimensions as params,
    /// shape arithmetic folded, repeated layers as a block and a repeat.
    Onnx(OnnxArgs),
}

/// `fgraph import onnx MODEL.onnx`'s flags.
#[derive(Args, Debug)]
pub struct OnnxArgs {
    #[arg(value_name = "MODEL.onnx")]
    pub model: PathBuf,
    /// Write to this file instead of standard output (`-` is standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The graph's name (default: the file's stem).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// A value for a named dynamic dimension: NAME=INT (repeatable; default 1 each).
    #[arg(long = "dim", value_name = "NAME=INT", value_parser = parse_set_pub)]
    pub dims: Vec<(String, i64)>,
    /// Write every layer out instead of one block and a `repeat`.
    #[arg(long)]
    pub no_repeat: bool,
}

/// `fgraph import hf CONFIG.json`'s flags.
#[derive(Args, Debug)]
pub struct HfArgs {
    /// The config (`-` reads standard input).
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,
    /// Write to this file instead of standard output (`-` is standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Sequences in the batch.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    pub batch: u64,
    /// Tokens per sequence of the prefill (default 2048, or the model's learned positions
    /// when fewer).
    #[arg(long, value_name = "N", conflicts_with = "decode", value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    pub seq: Option<u64>,
    /// One decode step (one new token per sequence) over a KV cache of `--context`
    /// positions, instead of a prefill.
    #[arg(long, requires = "context")]
    pub decode: bool,
    /// With --decode: positions already in each layer's KV cache.
    #[arg(long, value_name = "N", requires = "decode", value_parser = clap::value_parser!(u64).range(0..=1 << 40))]
    pub context: Option<u64>,
    /// Every tensor's element type (fgraph's names: bf16, f16, f32…); default: the config's
    /// `torch_dtype`.
    #[arg(long, value_name = "DTYPE", value_parser = parse_dtype)]
    pub dtype: Option<Dtype>,
    /// Which ops the file writes: `model` (the computation, one op per operation) or
    /// `transformers` (transformers' modeling code as its eager forward runs it, op by op:
    /// llama, mistral and qwen2 prefills and decode steps), for `--runtime eager` to price
    /// transformers' step.
    #[arg(long, value_name = "OPS", value_enum, default_value_t = crate::importers::hf::Ops::Model)]
    pub ops: crate::importers::hf::Ops,
    /// The attention, as transformers' `attn_implementation`: `eager` (the scores written
    /// out) or `sdpa` (one `attention` op); default `eager` with `--ops model`, `sdpa` with
    /// `--ops transformers`. `sdpa-traced` (`--ops transformers` only): `sdpa` as
    /// transformers runs it under torch.compile or a CUDA-graph capture, the causal mask
    /// built and K and V repeated to every query head.
    #[arg(long, value_name = "ATTN", value_enum)]
    pub attn: Option<crate::importers::hf::Attn>,
}
