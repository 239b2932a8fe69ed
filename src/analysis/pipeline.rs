//! The whole pipeline for one file: decode, parse, expand blocks and imports, check each
//! graph, fuse, count traffic, lint, check assertions, then silence what the user allowed
//! and sort. It runs in two halves: every graph is expanded and checked first
//! ([`check_all`]), so that the names expansion made are freed before any graph is fused
//! ([`fuse_one`]); diagnostics keep the order of one graph after the other.

use super::lints::{bindings, invalid_allows, large_intermediates, search_budget};
use super::{Analysis, FileReport, GraphReport, Options};
use crate::diagnostics::{self, Code, Diagnostic, Severity, SourceFile, Span};
use crate::fusion::find_fusion_groups_with;
use crate::graph::Graph;
use crate::limits::MAX_EXPANDED_OPS;
use crate::perf::{PARALLEL_TRAFFIC, alongside};
use crate::sema::check_graph;
use crate::syntax;
use crate::syntax::expand::{self, Blocks, Expansion};
use crate::traffic::{compare_with_unfused, unfused_traffic};
use std::collections::{HashMap, HashSet};

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
/// `go_on` is asked between stages (after the parse, before each graph is checked, before
/// each block is checked on its own, before each graph is fused); once it answers false
/// the rest is skipped and the report is incomplete: the language server's cancellation.
pub fn check_file_inspecting(
    name: &str,
    bytes: Vec<u8>,
    opts: &Options,
    inspect: &mut dyn FnMut(&str, &syntax::ast::File<'_>),
    go_on: &dyn Fn() -> bool,
) -> FileReport {
    let (text, decode_error) = syntax::decode_owned(bytes);
    check_text_inspecting(name, text, decode_error, opts, inspect, go_on)
}

fn check_text(
    name: &str,
    text: String,
    decode_error: Option<Diagnostic>,
    opts: &Options,
) -> FileReport {
    check_text_inspecting(name, text, decode_error, opts, &mut |_, _| {}, &|| true)
}

fn check_text_inspecting(
    name: &str,
    text: String,
    decode_error: Option<Diagnostic>,
    opts: &Options,
    inspect: &mut dyn FnMut(&str, &syntax::ast::File<'_>),
    go_on: &dyn Fn() -> bool,
) -> FileReport {
    diagnostics::with_suggestion_budget(|| {
        check_text_budgeted(name, text, decode_error, opts, inspect, go_on)
    })
}

/// [`check_text_inspecting`] under the file's budget of "did you mean" work.
fn check_text_budgeted(
    name: &str,
    text: String,
    decode_error: Option<Diagnostic>,
    opts: &Options,
    inspect: &mut dyn FnMut(&str, &syntax::ast::File<'_>),
    go_on: &dyn Fn() -> bool,
) -> FileReport {
    let source = SourceFile::new(name, text);
    let mut diags = Vec::new();
    let mut graphs = Vec::new();
    // Imported files' text lives here, beside the source the tree borrows.
    let arena = bumpalo::Bump::new();
    // The names made by expanding blocks: freed once every graph is checked, before any is
    // fused.
    let names = bumpalo::Bump::new();
    let mut imported = Vec::new();
    // Methods that take the parse by value, so that nothing borrowing `names` is left once
    // the first half returns.
    let first = match decode_error {
        Some(d) => {
            diags.push(d);
            None
        }
        None => syntax::parse(&source.text)
            .map_err(|d| diags.push(*d))
            .ok()
            .filter(|_| go_on())
            .map(|file| {
                inspect(&source.text, &file);
                check_all(
                    (name, source.text.len()),
                    file,
                    &arena,
                    &names,
                    opts,
                    go_on,
                    &mut diags,
                )
            }),
    };
    drop(names);
    if let Some(first) = first {
        let Checked {
            graphs: checked,
            alone,
            allows,
            allow_codes,
            imported: files,
        } = first;
        imported = files;
        for c in checked {
            if !go_on() {
                break;
            }
            graphs.push(fuse_one(c, opts, &allows, &mut diags));
        }
        diags.extend(alone);
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
    crate::imports::relocate(&mut diags, source.text.len(), &imported);
    diags.retain(|d| d.severity == Severity::Error || !opts.allow.contains(&d.code));
    diagnostics::sort(&mut diags);
    cap_diagnostics(&mut diags);
    crate::fix::widen_deletions(&mut diags, &source.text);
    FileReport {
        source,
        graphs,
        diagnostics: diags,
    }
}

/// A file after the first half of the pipeline: nothing in it borrows the source.
struct Checked {
    graphs: Vec<CheckedGraph>,
    /// What checking the blocks no graph instantiates found.
    alone: Vec<Diagnostic>,
    allows: Vec<syntax::ast::Allow>,
    allow_codes: Vec<(String, Span)>,
    imported: Vec<crate::imports::Imported>,
}

/// The first half of the pipeline for a parsed file: its imports loaded, each graph expanded
/// (names made in `names`) and checked, and the blocks no graph instantiates checked on their
/// own. `(name, main_len)`: the checked file's name and length.
fn check_all<'s>(
    (name, main_len): (&str, usize),
    file: syntax::ast::File<'s>,
    arena: &'s bumpalo::Bump,
    names: &'s bumpalo::Bump,
    opts: &Options,
    go_on: &dyn Fn() -> bool,
    diags: &mut Vec<Diagnostic>,
) -> Checked {
    let syntax::ast::File {
        graphs: graph_asts,
        blocks: block_asts,
        imports,
        allows,
        allow_codes,
    } = file;
    let loaded = crate::imports::load(name, main_len, &imports, &opts.imports, arena, diags);
    let mut blocks = Blocks::new(block_asts.iter(), diags);
    for (tree, shift) in &loaded.trees {
        blocks.add(tree.blocks.iter(), *shift, diags);
    }
    let mut seen: HashMap<&str, Span> = HashMap::new();
    // Blocks a graph over the budget on expanded ops reached without expanding them: they
    // count as instantiated (checking each on its own would expand it).
    let mut counted: HashSet<String> = HashSet::new();
    // Each graph's syntax tree is handed to the semantic pass and freed there.
    let mut graphs: Vec<CheckedGraph> = Vec::with_capacity(graph_asts.len());
    // The budget on expanded ops holds for the whole file, not for each graph alone: the ops
    // of every graph (flat or expanded) and every block checked on its own add up, so that
    // many graphs under the limit each cannot add up to gigabytes.
    let mut ops_so_far: u64 = 0;
    for g in graph_asts {
        if !go_on() {
            break;
        }
        let flat = if expand::has_instances(&g, &blocks) {
            0
        } else {
            g.stmts
                .iter()
                .filter(|s| matches!(s.kind, syntax::ast::StmtKind::Op(_)))
                .count() as u64
        };
        if ops_so_far.saturating_add(flat) > MAX_EXPANDED_OPS || ops_so_far >= MAX_EXPANDED_OPS {
            diags.push(over_file_budget(
                "graph",
                g.name.name,
                g.name.span,
                ops_so_far,
            ));
            continue;
        }
        let c = check_one(g, &blocks, names, &mut seen, opts);
        counted.extend(c.expansion.counted.iter().cloned());
        // A clean graph's ops, or a graph with errors' summaries (one per op made).
        let made = c
            .graph
            .as_ref()
            .map_or(0, |g| g.ops.len())
            .max(c.written_ops.len());
        ops_so_far = ops_so_far.saturating_add(made as u64);
        graphs.push(c);
    }
    // Blocks of this file that no graph instantiates are checked on their own.
    let used: HashSet<&str> = graphs
        .iter()
        .flat_map(|c| c.expansion.instances.iter().map(|i| i.block.as_str()))
        .chain(counted.iter().map(String::as_str))
        .collect();
    let mut alone = Vec::new();
    for b in &block_asts {
        if !go_on() {
            break;
        }
        if used.contains(b.name.name) || blocks.get(b.name.name).is_none() {
            continue;
        }
        if ops_so_far >= MAX_EXPANDED_OPS {
            alone.push(over_file_budget(
                "block",
                b.name.name,
                b.name.span,
                ops_so_far,
            ));
            continue;
        }
        let mut found = Vec::new();
        let (g, expansion) = expand::standalone(b, &blocks, names, &mut found);
        // A block on its own has no plan: its assertions' names are checked, and the
        // assertions are evaluated where the block is instantiated.
        crate::analysis::assertions::collect(
            &g,
            &Default::default(),
            &expansion.instances,
            &mut found,
        );
        let checked = check_graph(g, &Default::default());
        let made = checked
            .graph
            .as_ref()
            .map_or(0, |g| g.ops.len())
            .max(checked.ops.len());
        ops_so_far = ops_so_far.saturating_add(made as u64);
        found.extend(checked.diagnostics);
        found.retain(|d| !expand::standalone_noise(b, d));
        alone.extend(expansion.attribute(found));
    }
    drop(used);
    Checked {
        graphs,
        alone,
        allows,
        allow_codes,
        imported: loaded.files,
    }
}

/// A graph or block of a file whose earlier graphs and blocks used the file's budget on
/// expanded ops: not checked, and said so at its name.
fn over_file_budget(what: &str, name: &str, at: Span, so_far: u64) -> Diagnostic {
    Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "{what} `{name}` is not checked: the file's graphs and blocks before it have {} \
             ops, and the limit of {} expanded ops holds for a whole file",
            crate::units::group_digits(so_far),
            crate::units::group_digits(MAX_EXPANDED_OPS)
        ),
    )
    .at(at, "over the file's budget on ops")
    .help("split the graphs into several files, or repeat fewer times")
}

/// One graph after the semantic pass, waiting to be fused.
struct CheckedGraph {
    name: String,
    span: Span,
    full_span: Span,
    params: Vec<String>,
    /// What was found before the semantic pass: a second definition, expansion's errors.
    early: Vec<Diagnostic>,
    /// What the semantic pass, the assertions' names and the block inputs' types found.
    found: Vec<Diagnostic>,
    /// The graph, when it has no errors.
    graph: Option<Graph>,
    written_ops: Vec<crate::sema::OpSummary>,
    assertions: Vec<crate::analysis::assertions::Assertion>,
    expansion: Expansion,
}

/// The first half of the pipeline for one graph: its blocks expanded (names made in
/// `names`), its assertions read, the semantic pass and the block inputs' types.
fn check_one<'s>(
    g: syntax::ast::GraphAst<'s>,
    blocks: &Blocks<'_, 's>,
    names: &'s bumpalo::Bump,
    seen: &mut HashMap<&'s str, Span>,
    opts: &Options,
) -> CheckedGraph {
    let mut early = Vec::new();
    let (name, span, full_span) = (g.name.name, g.name.span, g.span);
    if let Some(&first) = seen.get(name) {
        early.push(
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
            syntax::ast::StmtKind::Param { name, .. } => Some(name.name.to_string()),
            _ => None,
        })
        .collect();
    // Assertions are read before the semantic pass consumes the statements.
    let mut asserted = Vec::new();
    let (checked, assertions, expansion) = if expand::has_instances(&g, blocks) {
        let (x, expansion) = expand::expand(&g, blocks, names, &opts.overrides, &mut early);
        let assertions = crate::analysis::assertions::collect(
            &x,
            &opts.overrides,
            &expansion.instances,
            &mut asserted,
        );
        let checked = check_graph(x, &opts.overrides);
        drop(g);
        (checked, assertions, expansion)
    } else {
        let assertions =
            crate::analysis::assertions::collect(&g, &opts.overrides, &[], &mut asserted);
        (
            check_graph(g, &opts.overrides),
            assertions,
            Expansion::default(),
        )
    };
    let mut found = checked.diagnostics;
    found.append(&mut asserted);
    let graph = checked.graph.filter(|graph| {
        let bad = bindings(graph, &expansion);
        let ok = !bad.iter().any(Diagnostic::is_error);
        found.extend(bad);
        ok
    });
    CheckedGraph {
        name: name.to_string(),
        span,
        full_span,
        params,
        early,
        found,
        graph,
        written_ops: checked.ops,
        assertions,
        expansion,
    }
}

/// The second half: the plan, the traffic and the assertions; the diagnostics attributed.
fn fuse_one(
    c: CheckedGraph,
    opts: &Options,
    allows: &[syntax::ast::Allow],
    diags: &mut Vec<Diagnostic>,
) -> GraphReport {
    let CheckedGraph {
        name,
        span,
        full_span,
        params,
        early,
        mut found,
        graph,
        written_ops,
        assertions,
        expansion,
    } = c;
    let analysis = graph.and_then(|graph| analyze(graph, span, opts, &mut found));
    if let Some(a) = &analysis {
        found.extend(crate::analysis::assertions::check(
            &assertions,
            a,
            &expansion.instances,
        ));
    }
    diags.extend(early);
    diags.extend(expansion.attribute(found));
    // The warnings an allow would drop at the graph's name.
    let allowed = Code::ALL
        .iter()
        .copied()
        .filter(|&c| {
            c.severity() == Severity::Warning
                && (opts.allow.contains(&c)
                    || allows
                        .iter()
                        .any(|a| a.code == c.as_str() && a.scope.contains(span)))
        })
        .collect();
    GraphReport {
        name,
        span,
        full_span,
        params,
        analysis,
        written_ops,
        instances: expansion.instances,
        allowed,
    }
}

/// Keeps the first [`crate::limits::MAX_DIAGNOSTICS`] diagnostics (sorted) and counts the
/// rest in one `limit-exceeded` where reporting stopped: an error when an error was among
/// them, else a warning, so the exit code stays what the whole file deserves.
fn cap_diagnostics(diags: &mut Vec<Diagnostic>) {
    let max = crate::limits::MAX_DIAGNOSTICS;
    if diags.len() <= max {
        return;
    }
    let dropped = diags.split_off(max);
    let errors = dropped.iter().filter(|d| d.is_error()).count();
    let at = dropped
        .iter()
        .find_map(|d| d.primary.as_ref().map(|l| l.span))
        .unwrap_or_else(|| Span::new(0, 0));
    let mut d = Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "{} more {} ({errors} {}) {} not shown: the limit is {max} per file",
            dropped.len(),
            if dropped.len() == 1 {
                "diagnostic"
            } else {
                "diagnostics"
            },
            if errors == 1 { "error" } else { "errors" },
            if dropped.len() == 1 { "is" } else { "are" },
        ),
    )
    .at(at, "reporting stopped here")
    .help("fix the problems reported first, then check again");
    if errors == 0 {
        d.severity = Severity::Warning;
    }
    diags.push(d);
}

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
        || find_fusion_groups_with(&graph, opts.fusion),
    );
    match unfused.and_then(|u| compare_with_unfused(&graph, &plan, u)) {
        Ok(traffic) => {
            diags.extend(large_intermediates(&graph, &traffic));
            if let Some(stop) = &plan.stopped {
                let strategy = crate::fusion::strategy::flags(&opts.fusion);
                diags.push(search_budget(graph.ops.len(), stop, &strategy, at));
            }
            Some(Analysis {
                graph,
                plan,
                traffic,
                fusion: opts.fusion,
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
