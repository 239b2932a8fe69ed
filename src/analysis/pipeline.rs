//! The whole pipeline for one file: decode, parse, expand blocks and imports, check each
//! graph, fuse, count traffic, lint, check assertions, then silence what the user allowed
//! and sort. It runs in two halves: every graph is expanded and checked first
//! ([`check_all`]), so that the names expansion made are freed before any graph is fused
//! ([`fuse_one`]); diagnostics keep the order of one graph after the other.

use super::lints::{invalid_allows, large_intermediates, search_budget};
use super::{Analysis, FileReport, GraphReport, Options};
use crate::diagnostics::{self, Code, Diagnostic, Severity, SourceFile, Span};
use crate::fusion::find_fusion_groups_with;
use crate::graph::Graph;
use crate::limits::{MAX_EXPANDED_ITEMS, MAX_EXPANDED_OPS};
use crate::perf::{PARALLEL_TRAFFIC, alongside};
use crate::sema::{check_expanded, check_graph};
use crate::syntax;
use crate::syntax::expand::{self, Blocks, Expansion};
use crate::traffic::{compare_with_unfused, unfused_traffic};
use std::collections::{HashMap, HashSet};

/// The budget on expanded ops, and on the items of expanded statements, that holds for a
/// whole file: a graph or block checked once the graphs and blocks before it reach either
/// is `limit-exceeded` at its name and not checked.
#[derive(Clone, Copy)]
struct FileBudget {
    ops: u64,
    items: u64,
}

/// The limits of docs/language.md §13; tests check with smaller ones.
const FILE_BUDGET: FileBudget = FileBudget {
    ops: MAX_EXPANDED_OPS,
    items: MAX_EXPANDED_ITEMS,
};

/// Runs the pipeline on a file's bytes.
pub fn check_file(name: &str, bytes: &[u8], opts: &Options) -> FileReport {
    let (text, decode_error) = syntax::decode(bytes);
    check_text(
        name,
        text,
        decode_error,
        opts,
        &mut |_, _| {},
        &|| true,
        FILE_BUDGET,
    )
}

/// [`check_file`] on bytes the caller gives up (no copy of a valid UTF-8 file).
pub fn check_file_owned(name: &str, bytes: Vec<u8>, opts: &Options) -> FileReport {
    check_file_inspecting(name, bytes, opts, &mut |_, _| {}, &|| true)
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
    check_text(name, text, decode_error, opts, inspect, go_on, FILE_BUDGET)
}

/// The pipeline on a decoded file, under the file's budget of "did you mean" work and
/// `budget` on expanded ops and items.
fn check_text(
    name: &str,
    text: String,
    decode_error: Option<Diagnostic>,
    opts: &Options,
    inspect: &mut dyn FnMut(&str, &syntax::ast::File<'_>),
    go_on: &dyn Fn() -> bool,
    budget: FileBudget,
) -> FileReport {
    diagnostics::with_suggestion_budget(|| {
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
                        (&arena, &names),
                        (opts, budget),
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
            imports: imported,
        }
    })
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
/// own, within `budget`. `(name, main_len)`: the checked file's name and length.
fn check_all<'s>(
    (name, main_len): (&str, usize),
    file: syntax::ast::File<'s>,
    (arena, names): (&'s bumpalo::Bump, &'s bumpalo::Bump),
    (opts, budget): (&Options, FileBudget),
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
    blocks.set_import_failed(loaded.failed);
    let mut seen: HashMap<&str, Span> = HashMap::new();
    // Blocks a graph over the budget on expanded ops reached without expanding them: they
    // count as instantiated (checking each on its own would expand it).
    let mut counted: HashSet<String> = HashSet::new();
    // Each graph's syntax tree is handed to the semantic pass and freed there.
    let mut graphs: Vec<CheckedGraph> = Vec::with_capacity(graph_asts.len());
    // The budget on expanded ops holds for the whole file, not for each graph alone: the ops
    // of every graph (flat or expanded) and every block checked on its own add up, so that
    // many graphs under the limit each cannot add up to gigabytes.
    // The items of expanded statements add up the same way (a flat graph's are its source's).
    let mut so_far = FileBudget { ops: 0, items: 0 };
    for g in graph_asts {
        if !go_on() {
            break;
        }
        let expands = expand::has_instances(&g, &blocks);
        let flat = if expands {
            0
        } else {
            g.stmts
                .iter()
                .filter(|s| matches!(s.kind, syntax::ast::StmtKind::Op(_)))
                .count() as u64
        };
        let over = so_far.over(budget, flat, expands);
        if let Some(over) = over {
            diags.push(over_file_budget(("graph", g.name.name, g.name.span), over));
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
        so_far.add(made, c.expansion.items);
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
        if let Some(over) = so_far.over(budget, 0, true) {
            alone.push(over_file_budget(("block", b.name.name, b.name.span), over));
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
        let instances = instance_ops(&expansion);
        let bound = crate::sema::Bindings {
            bindings: &expansion.bindings,
            instances: &instances,
        };
        let checked = check_expanded(g, &Default::default(), Some(bound));
        let made = checked
            .graph
            .as_ref()
            .map_or(0, |g| g.ops.len())
            .max(checked.ops.len());
        so_far.add(made, expansion.items);
        found.extend(checked.diagnostics);
        found.retain(|d| !expand::standalone_noise(b, d));
        // The semantic pass checked the block as a graph of its name: say "block".
        let (as_graph, as_block) = (
            format!("graph `{}`", b.name.name),
            format!("block `{}`", b.name.name),
        );
        for d in &mut found {
            d.message = d.message.replace(&as_graph, &as_block);
            for l in d.primary.iter_mut().chain(d.secondary.iter_mut()) {
                l.message = l.message.replace(&as_graph, &as_block);
            }
        }
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

impl FileBudget {
    /// Counts a graph's or block's `ops` and `items` in what the file used so far.
    fn add(&mut self, ops: usize, items: u64) {
        self.ops = self.ops.saturating_add(ops as u64);
        self.items = self.items.saturating_add(items);
    }

    /// Whether the file, having used `self`, may not check one more graph or block (with
    /// `flat` ops written out, or blocks to expand): what it used and the limit, ops first.
    fn over(&self, limit: FileBudget, flat: u64, expands: bool) -> Option<Used> {
        if self.ops.saturating_add(flat) > limit.ops || self.ops >= limit.ops {
            Some(Used::Ops(self.ops, limit.ops))
        } else if expands && self.items >= limit.items {
            Some(Used::Items(self.items, limit.items))
        } else {
            None
        }
    }
}

/// What a file used of its budget, and the limit.
enum Used {
    Ops(u64, u64),
    Items(u64, u64),
}

/// A graph or block (`(what, name, place)`) of a file whose earlier graphs and blocks used
/// the file's budget on expanded ops or items: not checked, and said so at its name.
fn over_file_budget((what, name, at): (&str, &str, Span), used: Used) -> Diagnostic {
    let (so_far, limit, unit) = match used {
        Used::Ops(n, limit) => (n, limit, "ops"),
        Used::Items(n, limit) => (n, limit, "arguments and expression terms"),
    };
    Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "{what} `{name}` is not checked: the file's graphs and blocks before it have {} \
             {unit}, and the limit of {} expanded {unit} holds for a whole file",
            crate::units::group_digits(so_far),
            crate::units::group_digits(limit)
        ),
    )
    .at(at, format!("over the file's budget on {unit}"))
    .help("split the graphs into several files, or repeat fewer times")
}

/// The instances of an expansion as the semantic pass checks their bindings.
fn instance_ops(x: &Expansion) -> Vec<crate::sema::InstanceOps<'_>> {
    x.instances
        .iter()
        .map(|i| crate::sema::InstanceOps {
            block: &i.block,
            ops: i.ops.clone(),
        })
        .collect()
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
    /// What sharding the graph found (issue 25): `graph` is then one GPU's.
    parallel: Option<std::sync::Arc<crate::parallel::Parallel>>,
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
    // The `parallel` sections, read before the semantic pass consumes the statements.
    let sharding = crate::parallel::read(
        g.stmts.iter(),
        || crate::sema::param_values(&g, &opts.overrides),
        &mut early,
    );
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
    let (checked, assertions, mut expansion) = if expand::has_instances(&g, blocks) {
        let (x, expansion) = expand::expand(&g, blocks, names, &opts.overrides, &mut early);
        let assertions = crate::analysis::assertions::collect(
            &x,
            &opts.overrides,
            &expansion.instances,
            &mut asserted,
        );
        let instances = instance_ops(&expansion);
        let bound = crate::sema::Bindings {
            bindings: &expansion.bindings,
            instances: &instances,
        };
        let checked = check_expanded(x, &opts.overrides, Some(bound));
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
    let mut graph = checked.graph;
    // The per-GPU graph replaces the written one for every later stage.
    let mut parallel = None;
    if let Some((plan, ok)) = sharding {
        graph = match graph
            .filter(|_| ok)
            .map(|g| crate::parallel::apply(g, &plan, &mut expansion.instances))
        {
            Some(Ok((g, p))) => {
                parallel = Some(std::sync::Arc::new(p));
                Some(g)
            }
            Some(Err(ds)) => {
                found.extend(ds);
                None
            }
            None => None,
        };
    }
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
        parallel,
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
        parallel,
    } = c;
    let analysis = graph
        .and_then(|graph| analyze(graph, span, opts, &mut found))
        .map(|a| Analysis { parallel, ..a });
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
            diags.extend(large_intermediates(
                &graph,
                &traffic,
                opts.large_intermediate,
            ));
            if let Some(stop) = &plan.stopped {
                let strategy = crate::fusion::strategy::flags(&opts.fusion);
                diags.push(search_budget(graph.ops.len(), stop, &strategy, at));
            }
            Some(Analysis {
                graph,
                plan,
                traffic,
                fusion: opts.fusion,
                parallel: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagnostics of `src` checked within `budget`.
    fn checked(src: &str, budget: FileBudget) -> Vec<Diagnostic> {
        let opts = Options::default();
        let (text, decode_error) = syntax::decode(src.as_bytes());
        check_text(
            "m.fgraph",
            text,
            decode_error,
            &opts,
            &mut |_, _| {},
            &|| true,
            budget,
        )
        .diagnostics
    }

    const BLOCK: &str = "block two() {\n  input x: [4]\n  op a = elementwise.relu(x) -> m\n  \
                         op b = elementwise.gelu(m) -> y\n  output y\n}\n";

    /// A graph `name` of `n` ops written out, the last reading `undefined` (an error when
    /// checked).
    fn flat(name: &str, n: usize) -> String {
        let mut s = format!("graph {name} {{\n  input x0: [4]\n");
        for i in 0..n - 1 {
            s += &format!("  op o{i} = elementwise.relu(x{i}) -> x{}\n", i + 1);
        }
        s += &format!(
            "  op last = elementwise.add(x{}, undefined) -> y\n  output y\n}}\n",
            n - 1
        );
        s
    }

    /// The `limit-exceeded` diagnostics of `diags`, as (message, place).
    fn over(diags: &[Diagnostic]) -> Vec<(String, Span)> {
        diags
            .iter()
            .filter(|d| d.code == Code::LimitExceeded)
            .map(|d| (d.message.clone(), d.primary.as_ref().expect("a place").span))
            .collect()
    }

    #[test]
    fn graphs_and_blocks_past_the_files_ops_are_not_checked() {
        let budget = FileBudget {
            ops: 10,
            items: MAX_EXPANDED_ITEMS,
        };
        // `a` (6 ops) and `b` (3 instances, 6 ops) are checked; `c`, and the block `lone`
        // no graph instantiates, come after 12 ops.
        let src = format!(
            "{BLOCK}block lone() {{\n  input x: [4]\n  op a = elementwise.relu(nope) -> y\n  \
             output y\n}}\n{}graph b {{\n  input x: [4]\n  repeat 3 l = two(x) -> y\n  \
             output y\n}}\n{}",
            flat("a", 6),
            flat("c", 1)
        );
        let diags = checked(&src, budget);
        let refused: Vec<_> = over(&diags)
            .into_iter()
            .map(|(m, at)| (m, &src[at.start..at.end]))
            .collect();
        let message = |what| {
            format!(
                "{what} is not checked: the file's graphs and blocks before it have 12 ops, and \
                 the limit of 10 expanded ops holds for a whole file"
            )
        };
        assert_eq!(
            refused,
            vec![
                (message("block `lone`"), "lone"),
                (message("graph `c`"), "c")
            ],
            "{diags:#?}"
        );
        // `a` was checked (its undefined tensor is reported), `c` and `lone` were not.
        let undefined: Vec<_> = diags
            .iter()
            .filter(|d| d.code == Code::UndefinedTensor)
            .collect();
        assert_eq!(undefined.len(), 1, "{diags:#?}");
        assert!(undefined[0].primary.as_ref().unwrap().span.start < src.find("graph b").unwrap());
    }

    #[test]
    fn graphs_and_blocks_past_the_files_items_are_not_checked() {
        let budget = FileBudget {
            ops: MAX_EXPANDED_OPS,
            items: 20,
        };
        // `b`'s three instances make 24 items and the graph 4 more; `d` expands and is refused, `c` is
        // written out and checked.
        let src = format!(
            "{BLOCK}graph b {{\n  input x: [4]\n  repeat 3 l = two(x) -> y\n  output y\n}}\n\
             {}graph d {{\n  input x: [4]\n  op l = two(nope) -> y\n  output y\n}}\n",
            flat("c", 2)
        );
        let diags = checked(&src, budget);
        let refused = over(&diags);
        assert_eq!(refused.len(), 1, "{diags:#?}");
        let (message, span) = &refused[0];
        assert!(
            message.starts_with(
                "graph `d` is not checked: the file's graphs and blocks before it have "
            ) && message.ends_with(
                " arguments and expression terms, and the limit of 20 expanded arguments and \
                     expression terms holds for a whole file"
            ),
            "{message}"
        );
        assert_eq!(&src[span.start..span.end], "d");
        // `c` was checked: its undefined tensor is reported; `d`'s is not.
        let undefined: Vec<_> = diags
            .iter()
            .filter(|d| d.code == Code::UndefinedTensor)
            .collect();
        assert_eq!(undefined.len(), 1, "{diags:#?}");
        assert!(undefined[0].message.contains("`undefined`"), "{diags:#?}");
    }
}
