//! The whole pipeline for one file: decode, parse, check each graph, fuse, count traffic,
//! lint, then silence what the user allowed and sort.

use crate::cost::{flash_savings, round_trips};
use crate::diagnostics::{self, Applicability, Code, Diagnostic, Fix, Severity, SourceFile, Span};
use crate::fusion::flash::{self, Candidate};
use crate::fusion::{FusionOptions, FusionPlan, find_fusion_groups_with};
use crate::graph::{Graph, Origin, TensorId};
use crate::parallel::alongside;
use crate::sema::{Overrides, check_graph};
use crate::syntax;
use crate::syntax::expand::{self, Blocks, Expansion, Instance};
use crate::traffic::{TrafficReport, compare_with_unfused, unfused_traffic};
use std::collections::HashMap;

/// Settings that apply to every file of a run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--set NAME=INT`.
    pub overrides: Overrides,
    /// `--allow CODE`: warnings silenced everywhere.
    pub allow: Vec<Code>,
    /// `--flash-attention`: fuse every attention pattern into one FlashAttention kernel
    /// (off by default: the plan is then exactly SPEC §2).
    pub flash_attention: bool,
    /// `--policy`: what rule 4 does (SPEC §2's `boundary` by default).
    pub policy: crate::fusion::Policy,
    /// `--reduction-epilogue`: elementwise work on a reduced value joins the reduction's
    /// kernel (off by default).
    pub reduction_epilogue: bool,
    /// `--matmul-epilogue`: what may follow a matmul in its kernel.
    pub matmul_epilogue: crate::fusion::MatmulEpilogue,
    /// `--horizontal`: merge independent kernels that read the same tensor.
    pub horizontal: crate::fusion::Horizontal,
    /// `--max-kernel-ops`, `--max-kernel-tensors`, `--max-registers`.
    pub budgets: crate::fusion::Budgets,
    /// `--fuse-diamonds`: tensors whose readers reconverge through cheap ops stay on chip.
    pub diamonds: bool,
}

impl Options {
    /// The grouping these options ask for.
    pub fn fusion(&self) -> FusionOptions {
        FusionOptions {
            flash_attention: self.flash_attention,
            policy: self.policy,
            reduction_epilogue: self.reduction_epilogue,
            matmul_epilogue: self.matmul_epilogue,
            horizontal: self.horizontal,
            budgets: self.budgets,
            diamonds: self.diamonds,
        }
    }
    /// Sets every fusion choice to `f`'s.
    pub fn set_fusion(&mut self, f: FusionOptions) {
        self.flash_attention = f.flash_attention;
        self.policy = f.policy;
        self.reduction_epilogue = f.reduction_epilogue;
        self.matmul_epilogue = f.matmul_epilogue;
        self.horizontal = f.horizontal;
        self.budgets = f.budgets;
        self.diamonds = f.diamonds;
    }
}

/// A graph that checked clean, with its fusion plan and traffic.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub graph: Graph,
    pub plan: FusionPlan,
    pub traffic: TrafficReport,
    /// The options the plan was made under.
    pub fusion: FusionOptions,
}

#[derive(Clone, Debug)]
pub struct GraphReport {
    pub name: String,
    /// The graph's name in the source.
    pub span: Span,
    /// From `graph` to its closing brace.
    pub full_span: Span,
    /// Its params' names, in order.
    pub params: Vec<String>,
    /// `None` when the graph has errors.
    pub analysis: Option<Analysis>,
    /// When the graph has errors: its ops as written (empty otherwise).
    pub written_ops: Vec<crate::sema::OpSummary>,
    /// The block instances the graph was expanded from, outermost first (empty for a graph
    /// without instantiations).
    pub instances: Vec<Instance>,
}

/// Everything fgraph found in one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub source: SourceFile,
    pub graphs: Vec<GraphReport>,
    /// Sorted by position then code, allowed warnings removed.
    pub diagnostics: Vec<Diagnostic>,
}

impl FileReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Runs the pipeline on a file's bytes.
pub fn check_file(name: &str, bytes: &[u8], opts: &Options) -> FileReport {
    let (text, decode_error) = syntax::decode(bytes);
    check_text(name, text, decode_error, opts)
}

/// [`check_file`] on bytes the caller gives up (no copy of a valid UTF-8 file).
pub fn check_file_owned(name: &str, bytes: Vec<u8>, opts: &Options) -> FileReport {
    let (text, decode_error) = syntax::decode_owned(bytes);
    check_text(name, text, decode_error, opts)
}

/// [`check_file_owned`], showing the file's syntax tree (when it parses) to `inspect` before
/// the semantic pass consumes it: the language server indexes names from the same parse.
pub fn check_file_inspecting(
    name: &str,
    bytes: Vec<u8>,
    opts: &Options,
    inspect: &mut dyn FnMut(&str, &syntax::ast::File<'_>),
) -> FileReport {
    let (text, decode_error) = syntax::decode_owned(bytes);
    check_text_inspecting(name, text, decode_error, opts, inspect)
}

fn check_text(
    name: &str,
    text: String,
    decode_error: Option<Diagnostic>,
    opts: &Options,
) -> FileReport {
    check_text_inspecting(name, text, decode_error, opts, &mut |_, _| {})
}

fn check_text_inspecting(
    name: &str,
    text: String,
    decode_error: Option<Diagnostic>,
    opts: &Options,
    inspect: &mut dyn FnMut(&str, &syntax::ast::File<'_>),
) -> FileReport {
    let source = SourceFile::new(name, text);
    let mut diags = Vec::new();
    let mut graphs = Vec::new();
    // Names made by expanding blocks live here, beside the source the tree borrows.
    let arena = bumpalo::Bump::new();
    let mut imported = Vec::new();
    if let Some(d) = decode_error {
        diags.push(d);
    } else {
        match syntax::parse(&source.text) {
            Err(d) => diags.push(*d),
            Ok(file) => {
                inspect(&source.text, &file);
                let syntax::ast::File {
                    graphs: graph_asts,
                    blocks: block_asts,
                    imports,
                    allows,
                    allow_codes,
                } = file;
                let main_len = source.text.len();
                let loaded = crate::imports::load(name, main_len, &imports, &arena, &mut diags);
                let mut blocks = Blocks::new(block_asts.iter(), &mut diags);
                for (tree, shift) in &loaded.trees {
                    blocks.add(tree.blocks.iter(), *shift, &mut diags);
                }
                imported = loaded.files;
                let mut seen: HashMap<&str, Span> = HashMap::new();
                // Each graph's syntax tree is handed to the semantic pass and freed there.
                for g in graph_asts {
                    let (name, span, full_span) = (g.name.name, g.name.span, g.span);
                    if let Some(&first) = seen.get(name) {
                        diags.push(
                            Diagnostic::new(
                                Code::DuplicateDefinition,
                                format!("graph `{name}` is defined more than once"),
                            )
                            .at(span, "defined again here")
                            .with(first, "first defined here")
                            .help("give each graph of a file its own name"),
                        );
                    } else {
                        seen.insert(name, span);
                    }
                    let params = g
                        .stmts
                        .iter()
                        .filter_map(|s| match &s.kind {
                            syntax::ast::StmtKind::Param { name, .. } => {
                                Some(name.name.to_string())
                            }
                            _ => None,
                        })
                        .collect();
                    let (g, expansion) = if expand::has_instances(&g, &blocks) {
                        expand::expand(g, &blocks, &arena, &opts.overrides, &mut diags)
                    } else {
                        (g, Expansion::default())
                    };
                    // Assertions are read before the semantic pass consumes the tree.
                    let mut asserted = Vec::new();
                    let assertions = crate::assertions::collect(
                        &g,
                        &opts.overrides,
                        &expansion.instances,
                        &mut asserted,
                    );
                    let checked = check_graph(g, &opts.overrides);
                    let mut found = checked.diagnostics;
                    found.append(&mut asserted);
                    let written_ops = checked.ops;
                    let graph = checked.graph.filter(|graph| {
                        let bad = bindings(graph, &expansion);
                        let ok = !bad.iter().any(Diagnostic::is_error);
                        found.extend(bad);
                        ok
                    });
                    let analysis = graph.and_then(|graph| analyze(graph, span, opts, &mut found));
                    if let Some(a) = &analysis {
                        found.extend(crate::assertions::check(
                            &assertions,
                            a,
                            &expansion.instances,
                        ));
                    }
                    diags.extend(expansion.attribute(found));
                    graphs.push(GraphReport {
                        name: name.to_string(),
                        span,
                        full_span,
                        params,
                        analysis,
                        written_ops,
                        instances: expansion.instances,
                    });
                }
                // Blocks of this file that no graph instantiates are checked on their own.
                let used: std::collections::HashSet<&str> = graphs
                    .iter()
                    .flat_map(|g: &GraphReport| g.instances.iter().map(|i| i.block.as_str()))
                    .collect();
                for b in &block_asts {
                    if used.contains(b.name.name) || blocks.get(b.name.name).is_none() {
                        continue;
                    }
                    let mut found = Vec::new();
                    let (g, expansion) = expand::standalone(b, &blocks, &arena, &mut found);
                    // A block on its own has no plan: its assertions' names are checked, and
                    // the assertions are evaluated where the block is instantiated.
                    crate::assertions::collect(
                        &g,
                        &Default::default(),
                        &expansion.instances,
                        &mut found,
                    );
                    found.extend(check_graph(g, &Default::default()).diagnostics);
                    found.retain(|d| !expand::standalone_noise(b, d));
                    diags.extend(expansion.attribute(found));
                }
                diags.extend(invalid_allows(&allow_codes));
                diags.retain(|d| {
                    d.severity == Severity::Error
                        || !allows.iter().any(|a| {
                            a.code == d.code.as_str()
                                && (d.primary.as_ref().is_some_and(|p| a.scope.contains(p.span))
                                    || expand::instantiations(d).any(|at| a.scope.contains(at)))
                        })
                });
            }
        }
    }
    crate::imports::relocate(&mut diags, source.text.len(), &imported);
    diags.retain(|d| d.severity == Severity::Error || !opts.allow.contains(&d.code));
    diagnostics::sort(&mut diags);
    crate::fix::widen_deletions(&mut diags, &source.text);
    FileReport {
        source,
        graphs,
        diagnostics: diags,
    }
}

/// Block inputs bound to tensors of another shape or dtype than the block declares.
fn bindings(graph: &Graph, expansion: &Expansion) -> Vec<Diagnostic> {
    if expansion.bindings.is_empty() {
        return Vec::new();
    }
    let by_name: HashMap<&str, TensorId> = graph
        .tensors
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), TensorId(i as u32)))
        .collect();
    let mut out = Vec::new();
    for b in &expansion.bindings {
        let Some(&t) = by_name.get(b.tensor.as_str()) else {
            continue;
        };
        let t = graph.tensor(t);
        let inst = &expansion.instances[b.instance];
        if let Some(shape) = &b.shape
            && *shape != t.shape
        {
            out.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "`{}` has shape {}, but block `{}` takes {}",
                        t.name,
                        crate::sema::fmt_shape(&t.shape),
                        inst.block,
                        crate::sema::fmt_shape(shape)
                    ),
                )
                .at(
                    b.argument,
                    format!("shape {}", crate::sema::fmt_shape(&t.shape)),
                )
                .with(b.declared, "the block's input is declared here")
                .help("pass a tensor of the declared shape, or change the block's params"),
            );
        } else if let Some(dtype) = b.dtype
            && dtype != t.dtype
        {
            out.push(
                Diagnostic::new(
                    Code::DtypeMismatch,
                    format!(
                        "`{}` is {}, but block `{}` declares its input {}",
                        t.name, t.dtype, inst.block, dtype
                    ),
                )
                .at(b.argument, format!("{}", t.dtype))
                .with(b.declared, "the block's input is declared here")
                .help("the block computes in the caller's dtype; declare the input to match"),
            );
        }
    }
    out
}

/// Ops above which the unfused traffic is summed on a second thread.
const PARALLEL_TRAFFIC: usize = 20_000;

fn analyze(
    graph: Graph,
    at: Span,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) -> Option<Analysis> {
    // A large graph's unfused traffic is summed on a second thread while the plan is found.
    let (unfused, plan) = alongside(
        graph.ops.len() >= PARALLEL_TRAFFIC,
        || unfused_traffic(&graph),
        || find_fusion_groups_with(&graph, opts.fusion()),
    );
    match unfused.and_then(|u| compare_with_unfused(&graph, &plan, u)) {
        Ok(traffic) => {
            diags.extend(large_intermediates(&graph, &traffic));
            Some(Analysis {
                graph,
                plan,
                traffic,
                fusion: opts.fusion(),
            })
        }
        Err(_) => {
            diags.push(
                Diagnostic::new(
                    Code::SizeOverflow,
                    format!(
                        "the HBM traffic of graph `{}` overflows 64 bits",
                        graph.name
                    ),
                )
                .at(at, "total bytes do not fit in 64 bits")
                .help("reduce the dimensions; every tensor fits but their sum does not"),
            );
            None
        }
    }
}

/// `invalid-allow`: an allow comment naming no warning (a misspelt code, or an error, which
/// cannot be silenced) would silence nothing without anyone noticing.
fn invalid_allows(codes: &[(String, Span)]) -> Vec<Diagnostic> {
    let warnings: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| c.severity() == Severity::Warning)
        .map(|c| c.as_str())
        .collect();
    let mut out = Vec::new();
    for (name, span) in codes {
        let d = match Code::from_name(name) {
            Some(c) if c.severity() == Severity::Warning => continue,
            Some(c) => Diagnostic::new(
                Code::InvalidAllow,
                format!("`{c}` is an error; errors cannot be silenced"),
            )
            .at(*span, "not a warning")
            .help("fix the error instead; allow comments silence warnings only"),
            None => {
                let d = Diagnostic::new(
                    Code::InvalidAllow,
                    format!("unknown code `{name}` in an allow comment"),
                )
                .at(*span, "silences nothing");
                match crate::diagnostics::did_you_mean(name, warnings.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")).fix(Fix::replace(
                        format!("replace `{name}` with `{s}`"),
                        Applicability::Safe,
                        *span,
                        s,
                    )),
                    None => d.help(format!("the warnings are {}", warnings.join(", "))),
                }
            }
        };
        out.push(d);
    }
    out
}

/// Human-readable byte count: `268,435,456 B (256.0 MiB)`.
pub fn fmt_bytes(b: u64) -> String {
    let digits = b.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut unit = None;
    for u in UNITS {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = Some(u);
    }
    match unit {
        Some(u) => format!("{grouped} B ({v:.1} {u})"),
        None => format!("{grouped} B"),
    }
}

/// `large-intermediate`: an intermediate the fused plan writes to HBM that is larger than
/// every declared input and weight, such as an attention score matrix. When the tensor is an
/// intermediate of an attention pattern, the help says what one fused attention kernel would
/// save; when it sits next to a softmax that cannot be fused, it says why.
fn large_intermediates(g: &Graph, traffic: &TrafficReport) -> Vec<Diagnostic> {
    let largest = g
        .tensors
        .iter()
        .filter(|t| matches!(t.origin, Origin::Input | Origin::Weight))
        .max_by_key(|t| t.bytes);
    let Some(largest) = largest else {
        return Vec::new();
    };
    let qualifies = |t: TensorId| !g.is_output(t) && g.tensor(t).bytes > largest.bytes;
    // Most graphs have no such intermediate: skip the per-tensor tables below.
    if !traffic
        .groups
        .iter()
        .any(|gt| gt.writes.iter().any(|w| qualifies(w.tensor)))
    {
        return Vec::new();
    }
    // Bytes each tensor is read back by kernels other than its producer's.
    let mut read_back: HashMap<usize, (u64, usize)> = HashMap::new();
    for gt in &traffic.groups {
        for r in &gt.reads {
            let e = read_back.entry(r.tensor.index()).or_default();
            e.0 = e.0.saturating_add(r.bytes);
            e.1 += 1;
        }
    }
    // Attention candidates, only looked for when some tensor qualifies.
    let mut candidates: Option<(Vec<Candidate>, HashMap<usize, usize>)> = None;
    let trips = round_trips(&traffic.groups);
    let mut out = Vec::new();
    for (k, gt) in traffic.groups.iter().enumerate() {
        for w in &gt.writes {
            let t = g.tensor(w.tensor);
            if g.is_output(w.tensor) || t.bytes <= largest.bytes {
                continue;
            }
            let (reads, readers) = read_back.get(&w.tensor.index()).copied().unwrap_or((0, 0));
            let saved = w.bytes.saturating_add(reads);
            let producer = g.producer(w.tensor).map_or("", |p| g.op(p).name.as_str());
            let (cands, near) = candidates.get_or_insert_with(|| {
                let c = flash::candidates(g);
                let mut near = HashMap::new();
                for (i, cand) in c.iter().enumerate() {
                    for t in &cand.tensors {
                        near.entry(t.index()).or_insert(i);
                    }
                }
                (c, near)
            });
            let size = format!(
                "`{}` is larger than every input and weight (the largest is `{}`, {})",
                t.name,
                largest.name,
                fmt_bytes(largest.bytes)
            );
            let help = match near.get(&w.tensor.index()).map(|&i| &cands[i]) {
                Some(Candidate { result: Ok(p), .. }) if p.intermediates.contains(&w.tensor) => {
                    let names: Vec<String> = p
                        .ops()
                        .iter()
                        .map(|&o| format!("`{}`", g.op(o).name))
                        .collect();
                    format!(
                        "{size}; it is an intermediate of the attention {}, and one fused \
                         attention kernel (FlashAttention: QK^T, softmax and the product with \
                         V on chip) would save {} of HBM traffic; `--flash-attention` models \
                         that kernel",
                        names.join(" → "),
                        fmt_bytes(flash_savings(p, &trips))
                    )
                }
                Some(Candidate {
                    softmax,
                    result: Err(miss),
                    ..
                }) => format!(
                    "{size}; a fused formulation that keeps it on chip would save {} of HBM \
                     traffic, but the attention around softmax `{}` cannot become one \
                     FlashAttention kernel: {}",
                    fmt_bytes(saved),
                    g.op(*softmax).name,
                    miss.describe(g)
                ),
                _ => format!(
                    "{size}; a fused formulation that keeps it on chip, as FlashAttention \
                     does for attention scores, would save {} of HBM traffic",
                    fmt_bytes(saved)
                ),
            };
            out.push(
                Diagnostic::new(
                    Code::LargeIntermediate,
                    format!(
                        "intermediate `{}` ({}) makes a round trip through HBM",
                        t.name,
                        fmt_bytes(t.bytes)
                    ),
                )
                .at(
                    t.span,
                    format!(
                        "written by kernel {} (`{producer}`), read back by {readers} kernel{}",
                        k + 1,
                        if readers == 1 { "" } else { "s" }
                    ),
                )
                .help(help),
            );
        }
    }
    out
}
