//! The whole pipeline for one file: decode, parse, expand blocks and imports, check each
//! graph, fuse, count traffic, lint, check assertions, then silence what the user allowed
//! and sort.

use super::lints::{bindings, invalid_allows, large_intermediates};
use super::{Analysis, FileReport, GraphReport, Options};
use crate::diagnostics::{self, Code, Diagnostic, Severity, SourceFile, Span};
use crate::fusion::find_fusion_groups_with;
use crate::graph::Graph;
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
                // Blocks a graph over the budget on expanded ops reached without expanding
                // them: they count as instantiated (checking each on its own would expand it).
                let mut counted: HashSet<String> = HashSet::new();
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
                    // Assertions are read before the semantic pass consumes the statements.
                    let mut asserted = Vec::new();
                    let (checked, assertions, expansion) = if expand::has_instances(&g, &blocks) {
                        let (x, expansion) =
                            expand::expand(&g, &blocks, &arena, &opts.overrides, &mut diags);
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
                        let assertions = crate::analysis::assertions::collect(
                            &g,
                            &opts.overrides,
                            &[],
                            &mut asserted,
                        );
                        (
                            check_graph(g, &opts.overrides),
                            assertions,
                            Expansion::default(),
                        )
                    };
                    counted.extend(expansion.counted.iter().cloned());
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
                        found.extend(crate::analysis::assertions::check(
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
                let used: HashSet<&str> = graphs
                    .iter()
                    .flat_map(|g: &GraphReport| g.instances.iter().map(|i| i.block.as_str()))
                    .chain(counted.iter().map(String::as_str))
                    .collect();
                for b in &block_asts {
                    if used.contains(b.name.name) || blocks.get(b.name.name).is_none() {
                        continue;
                    }
                    let mut found = Vec::new();
                    let (g, expansion) = expand::standalone(b, &blocks, &arena, &mut found);
                    // A block on its own has no plan: its assertions' names are checked, and
                    // the assertions are evaluated where the block is instantiated.
                    crate::analysis::assertions::collect(
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
