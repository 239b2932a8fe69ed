//! The names of a file, found in its syntax tree (so they are known even when a graph has
//! semantic errors): every tensor, op, param and graph name of each graph and block scope,
//! where it is defined and every place it is written, and the lookup from a byte offset to
//! the name there. Beside them, what `super::ide` needs from the text as written: each
//! graph's param values, each tensor's type as written, where each op statement ends, and
//! the op outputs written without a type.

use crate::analysis::Options;
use crate::diagnostics::Span;
use crate::syntax::ast::{Arg, AssertKind, Expr, Ident, StmtKind, TypeAst};
// hashbrown's default hasher (foldhash): the index is rebuilt on every change, and SipHash
// was 7% of the time from an edit to published diagnostics.
use hashbrown::HashMap;

/// What a name names. Tensors, ops and params of a graph have separate namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Graph,
    Tensor,
    Op,
    Param,
}

impl SymbolKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Graph => "graph",
            SymbolKind::Tensor => "tensor",
            SymbolKind::Op => "op",
            SymbolKind::Param => "param",
        }
    }
}

/// One named thing of a file and every place its name is written.
#[derive(Clone, Debug)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    /// Index of the graph in the file (for a graph symbol, itself).
    pub graph: usize,
    /// Where it is defined (the first definition); `None` for a name used but never defined.
    pub def: Option<Span>,
    /// The whole statement that defines it (for document symbols).
    pub def_stmt: Option<Span>,
    /// Every occurrence, the definition included, in source order.
    pub occurrences: Vec<Span>,
    /// For ops: the output tensor's name; for tensors: "input"/"weight"/"op".
    pub detail: String,
}

/// An op output written without a type: where its inferred type would go.
#[derive(Clone, Debug)]
pub(super) struct UntypedOutput {
    pub(super) graph: usize,
    pub(super) output: String,
    pub(super) end: usize,
}

/// The names of a file, found in its syntax tree (so they are known even when a graph has
/// semantic errors), with the values of the params and the type as written of each tensor.
#[derive(Clone, Debug, Default)]
pub struct Index {
    pub symbols: Vec<Symbol>,
    /// (span, symbol) for every occurrence, sorted by span start.
    occurrences: Vec<(Span, usize)>,
    /// Per graph: param name → value.
    params: Vec<HashMap<String, Option<i64>>>,
    /// Per graph: tensor name → its type as written (`f16[S, H]`).
    pub(super) written_types: Vec<HashMap<String, String>>,
    /// Per graph: op name → the end of its statement.
    pub(super) op_ends: Vec<HashMap<String, usize>>,
    pub(super) untyped: Vec<UntypedOutput>,
    /// Scopes after the graphs are blocks: scope `graphs + i` is the block named `blocks[i]`.
    pub(super) graphs: usize,
    pub(super) blocks: Vec<String>,
    /// The kinds, roles and names of `parallel` sections, for hovers (`super::parallel`).
    pub(super) parallel: Vec<super::parallel::Item>,
}

fn expr_names<'s>(e: &Expr<'s>, out: &mut Vec<Ident<'s>>) {
    // Iterative: expressions nest only through parentheses, but a file may nest deeply.
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Int { .. } | Expr::Bool { .. } => {}
            Expr::Name(id) => out.push(*id),
            Expr::Neg { operand, .. } => stack.push(operand),
            Expr::Chain { first, rest, .. } => {
                stack.push(first);
                stack.extend(rest.iter().map(|(_, _, e)| e));
            }
        }
    }
}

fn type_names<'s>(ty: &TypeAst<'s>, out: &mut Vec<Ident<'s>>) {
    for d in &ty.dims {
        expr_names(d, out);
    }
}

impl Index {
    /// Indexes `text` (nothing when it does not parse: the syntax error is the diagnostic).
    pub fn new(text: &str, opts: &Options) -> Index {
        match crate::syntax::parse(text) {
            Ok(file) => Index::of(text, &file, opts),
            Err(_) => Index::default(),
        }
    }

    /// Indexes the syntax tree `file` of `text`.
    pub fn of<'s>(text: &str, file: &crate::syntax::ast::File<'s>, opts: &Options) -> Index {
        let mut ix = Index::default();
        let mut by_key: HashMap<(usize, SymbolKind, &'s str), usize> = HashMap::default();
        // The graphs, then the blocks: each a scope of names of its own.
        let scopes = file
            .graphs
            .iter()
            .map(|g| (&g.name, &g.stmts, g.span, Some(g), None))
            .chain(
                file.blocks
                    .iter()
                    .map(|b| (&b.name, &b.stmts, b.span, None, Some(b))),
            );
        ix.graphs = file.graphs.len();
        ix.blocks = file
            .blocks
            .iter()
            .map(|b| b.name.name.to_string())
            .collect();
        for (gi, (scope_name, stmts, scope_span, graph, block)) in scopes.enumerate() {
            let mut add = |ix: &mut Index,
                           kind: SymbolKind,
                           id: &Ident<'s>,
                           def: Option<Span>,
                           detail: &str| {
                let key = (gi, kind, id.name);
                let s = match by_key.get(&key) {
                    Some(&s) => s,
                    None => {
                        ix.symbols.push(Symbol {
                            kind,
                            name: id.name.to_string(),
                            graph: gi,
                            def: None,
                            def_stmt: None,
                            occurrences: Vec::new(),
                            detail: String::new(),
                        });
                        let s = ix.symbols.len() - 1;
                        by_key.insert(key, s);
                        s
                    }
                };
                let sym = &mut ix.symbols[s];
                if let Some(stmt) = def
                    && sym.def.is_none()
                {
                    sym.def = Some(id.span);
                    sym.def_stmt = Some(stmt);
                    sym.detail = detail.to_string();
                }
                sym.occurrences.push(id.span);
            };
            if graph.is_some() {
                add(
                    &mut ix,
                    SymbolKind::Graph,
                    scope_name,
                    Some(scope_span),
                    "graph",
                );
            }
            let mut names = Vec::new();
            if let Some(b) = block {
                for p in &b.params {
                    add(
                        &mut ix,
                        SymbolKind::Param,
                        &p.name,
                        Some(scope_span),
                        "param",
                    );
                    if let Some(d) = &p.default {
                        expr_names(d, &mut names);
                    }
                }
                for n in &names {
                    add(&mut ix, SymbolKind::Param, n, None, "");
                }
            }
            let mut types = HashMap::default();
            let mut ends = HashMap::default();
            for st in stmts.iter() {
                names.clear();
                match &st.kind {
                    StmtKind::Param { name, value } => {
                        add(&mut ix, SymbolKind::Param, name, Some(st.span), "param");
                        expr_names(value, &mut names);
                    }
                    StmtKind::Dtype(_) => {}
                    // A `parallel` section names weights (a pipeline's `layers`, a repeat).
                    StmtKind::Parallel(p) => {
                        expr_names(&p.size, &mut names);
                        super::parallel::index(&mut ix.parallel, gi, p);
                        for item in &p.items {
                            match item {
                                // A repeat is a name of the graph; weights are named as their
                                // blocks write them (hovered by `super::parallel`).
                                crate::syntax::ast::ParallelItem::Role { role, names: ns } => {
                                    if role.name == "layers" {
                                        for n in ns {
                                            add(&mut ix, SymbolKind::Op, n, None, "");
                                        }
                                    }
                                }
                                crate::syntax::ast::ParallelItem::Setting { value, .. } => {
                                    expr_names(value, &mut names)
                                }
                            }
                        }
                    }
                    StmtKind::Assert(a) => match &a.kind {
                        AssertKind::Predicate { name, args, .. } => {
                            let kind = match crate::analysis::assertions::Predicate::from_name(
                                name.name,
                            ) {
                                Some(p) if p.names_tensors() => Some(SymbolKind::Tensor),
                                Some(_) => Some(SymbolKind::Op),
                                None => None,
                            };
                            if let Some(kind) = kind {
                                for n in args {
                                    add(&mut ix, kind, n, None, "");
                                }
                            }
                        }
                        AssertKind::Compare { value, .. } => expr_names(value, &mut names),
                    },
                    StmtKind::Repeat(r) => {
                        add(
                            &mut ix,
                            SymbolKind::Op,
                            &r.name,
                            Some(st.span),
                            r.output.name,
                        );
                        expr_names(&r.count, &mut names);
                        for a in &r.args {
                            match a {
                                Arg::Attr { value, .. } => expr_names(value, &mut names),
                                Arg::Tensor(t) => {
                                    add(&mut ix, SymbolKind::Tensor, &t.name, None, "");
                                }
                                Arg::ListAttr { items, .. } => {
                                    for e in items {
                                        expr_names(e, &mut names);
                                    }
                                }
                                Arg::Scalar(_) | Arg::FloatAttr { .. } => {}
                            }
                        }
                        let detail = format!("output of repeat `{}`", r.name.name);
                        add(
                            &mut ix,
                            SymbolKind::Tensor,
                            &r.output,
                            Some(st.span),
                            &detail,
                        );
                    }
                    StmtKind::Decl { external, name, ty } => {
                        add(
                            &mut ix,
                            SymbolKind::Tensor,
                            name,
                            Some(st.span),
                            external.as_str(),
                        );
                        type_names(ty, &mut names);
                        types
                            .entry(name.name.to_string())
                            .or_insert_with(|| text[ty.span.start..ty.span.end].to_string());
                    }
                    StmtKind::Output(outs) => {
                        for o in outs {
                            add(&mut ix, SymbolKind::Tensor, o, None, "");
                        }
                    }
                    StmtKind::Op(op) => {
                        add(
                            &mut ix,
                            SymbolKind::Op,
                            &op.name,
                            Some(st.span),
                            op.output.name,
                        );
                        for a in &op.args {
                            match a {
                                // A name attribute (`group = tp`) names no param.
                                Arg::Attr { name, .. }
                                    if crate::ops::is_name_attr(op.kind.name, name.name) => {}
                                Arg::Attr { value, .. } => expr_names(value, &mut names),
                                Arg::ListAttr { items, .. } => {
                                    for e in items {
                                        expr_names(e, &mut names);
                                    }
                                }
                                Arg::Scalar(_) | Arg::FloatAttr { .. } => {}
                                Arg::Tensor(t) => {
                                    add(&mut ix, SymbolKind::Tensor, &t.name, None, "");
                                    if let Some(i) = &t.index {
                                        expr_names(i, &mut names);
                                    }
                                }
                            }
                        }
                        let detail = format!("output of op `{}`", op.name.name);
                        add(
                            &mut ix,
                            SymbolKind::Tensor,
                            &op.output,
                            Some(st.span),
                            &detail,
                        );
                        match &op.ty {
                            Some(ty) => {
                                type_names(ty, &mut names);
                                types.entry(op.output.name.to_string()).or_insert_with(|| {
                                    text[ty.span.start..ty.span.end].to_string()
                                });
                            }
                            None => ix.untyped.push(UntypedOutput {
                                graph: gi,
                                output: op.output.name.to_string(),
                                end: op.output.span.end,
                            }),
                        }
                        ends.entry(op.name.name.to_string()).or_insert(st.span.end);
                    }
                }
                for n in &names {
                    add(&mut ix, SymbolKind::Param, n, None, "");
                }
            }
            ix.params.push(match graph {
                Some(g) => crate::sema::param_values(g, &opts.overrides)
                    .into_iter()
                    .collect(),
                // A block's params take each instance's values: see `FileModel::instance_of`.
                None => HashMap::default(),
            });
            ix.written_types.push(types);
            ix.op_ends.push(ends);
        }
        for (s, sym) in ix.symbols.iter().enumerate() {
            for &sp in &sym.occurrences {
                ix.occurrences.push((sp, s));
            }
        }
        ix.occurrences.sort_by_key(|(sp, _)| (sp.start, sp.end));
        ix
    }

    /// The symbol whose name is written at byte `at` (or just before it: a cursor at the end
    /// of a name is on it).
    pub fn at(&self, at: usize) -> Option<usize> {
        let i = self.occurrences.partition_point(|(sp, _)| sp.start <= at);
        let (sp, s) = *self.occurrences.get(i.checked_sub(1)?)?;
        (at <= sp.end).then_some(s)
    }

    pub fn symbol(&self, s: usize) -> &Symbol {
        &self.symbols[s]
    }

    pub(super) fn param_value(&self, graph: usize, name: &str) -> Option<Option<i64>> {
        self.params.get(graph)?.get(name).copied()
    }
}
