//! The semantic pass: names, params, dtypes, shapes, the DAG and its order. It reports every
//! error of a graph in one run; a value made unknown by an error causes no further diagnostics.

pub(crate) mod expr;
mod ops;
mod order;
mod shape;

use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span, did_you_mean};
use crate::graph::{AttrValue, Graph, OpExtra, OpId, OpNode, Origin, Tensor, TensorId, TensorUse};
use crate::limits;
use crate::parallel::alongside;
use crate::syntax::ast::{Arg, Expr, ExternalKind, GraphAst, Ident, OpStmt, StmtKind, TypeAst};
use crate::types::{Dtype, OpKind};
use expr::Lookup;
use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::ops::Range;

// Name tables hash with hashbrown's default, foldhash: several times faster than SipHash on
// short names, and seeded per process, so a file cannot be written to make its names collide.
type FastMap<K, V> = hashbrown::HashMap<K, V>;
type FastSet<K> = hashbrown::HashSet<K>;

/// Names of tensors or ops, each stored as the index of its first definition: 5 bytes a
/// slot (index and control byte) where a `(&str, id)` map entry takes 25.
struct NameIndex {
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl NameIndex {
    fn with_capacity(n: usize) -> NameIndex {
        NameIndex {
            table: HashTable::with_capacity(n),
            hasher: DefaultHashBuilder::default(),
        }
    }

    /// The index defining `name`; `name_of` gives the name of an index.
    fn get<'n>(&self, name: &str, name_of: impl Fn(u32) -> &'n str) -> Option<u32> {
        let h = self.hasher.hash_one(name);
        self.table.find(h, |&i| name_of(i) == name).copied()
    }

    /// Adds `id` as the definition of `name`, unless `name` has one: then returns that.
    fn insert<'n>(&mut self, name: &str, id: u32, name_of: impl Fn(u32) -> &'n str) -> Option<u32> {
        let hasher = &self.hasher;
        let h = hasher.hash_one(name);
        match self
            .table
            .entry(h, |&i| name_of(i) == name, |&i| hasher.hash_one(name_of(i)))
        {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(e) => {
                e.insert(id);
                None
            }
        }
    }

    fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.table.iter().copied()
    }
}

/// `--set NAME=INT` values, applied to every graph that has a param of that name.
pub type Overrides = BTreeMap<String, i64>;

/// The value of each param of `ast`, in statement order, as the semantic pass evaluates it
/// (`overrides` win; `None` where the definition has an error). For editors' hovers: the
/// errors themselves are reported by [`check_graph`].
pub fn param_values(ast: &GraphAst<'_>, overrides: &Overrides) -> Vec<(String, Option<i64>)> {
    let mut values: FastMap<&str, Option<i64>> = FastMap::default();
    let mut out = Vec::new();
    let mut ignored = Vec::new();
    for st in ast.stmts.iter() {
        let StmtKind::Param { name, value } = &st.kind else {
            continue;
        };
        if values.contains_key(name.name) {
            continue;
        }
        let v = match overrides.get(name.name) {
            Some(&o) => Some(o),
            None => {
                let lookup = |n: &str| match values.get(n) {
                    Some(Some(v)) => expr::Lookup::Value(*v),
                    Some(None) => expr::Lookup::Poisoned,
                    None => expr::Lookup::Unknown,
                };
                ignored.clear();
                expr::eval(value, &lookup, &|_| None, &mut ignored)
            }
        };
        values.insert(name.name, v);
        out.push((name.name.to_string(), v));
    }
    out
}

/// What the semantic pass learned about one graph.
pub struct Checked {
    /// The graph, when it has no errors.
    pub graph: Option<Graph>,
    pub diagnostics: Vec<Diagnostic>,
    /// When the graph has errors: its ops as written, with what is known of their outputs
    /// (reports still list them; SPEC §6). Empty when `graph` is built.
    pub ops: Vec<OpSummary>,
}

/// An op of a graph with errors: names as written, output facts where known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpSummary {
    pub name: String,
    /// The kind as written, even when it is not a known kind.
    pub kind: String,
    pub func: Option<String>,
    /// Tensor arguments as written: `qkv_heads[1].T`.
    pub inputs: Vec<String>,
    pub output: String,
    pub shape: Option<Vec<u64>>,
    pub dtype: Option<Dtype>,
    pub bytes: Option<u64>,
}

/// Checks one graph of a parsed file. The syntax tree is consumed: it is dropped before the
/// checked graph is built, so the two are never in memory together.
pub fn check_graph(ast: GraphAst<'_>, overrides: &Overrides) -> Checked {
    let (parts, diagnostics) = analyze(&ast, overrides);
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    // A large tree is freed on a scoped thread alongside the build (it borrows the source,
    // so the thread is scoped); otherwise now, so that the build can reuse its memory.
    let on_thread = ast.stmts.len() >= DROP_ON_THREAD && !has_errors && parts.is_some();
    let ast = if on_thread {
        Some(ast)
    } else {
        drop(ast);
        None
    };
    match parts {
        Some(p) if !has_errors => Checked {
            graph: match ast {
                Some(ast) => alongside(true, move || drop(ast), || p.build()).1,
                None => p.build(),
            },
            diagnostics,
            ops: Vec::new(),
        },
        Some(p) => Checked {
            graph: None,
            ops: p.summaries(),
            diagnostics,
        },
        None => Checked {
            graph: None,
            diagnostics,
            ops: Vec::new(),
        },
    }
}

/// Ops above which the name tables are built on a second thread.
const PARALLEL_NAMES: usize = 50_000;

/// A statement that reported something while it was declared: `count` diagnostics, of
/// which the first `tensor_at` came before its tensor was declared.
struct Mark {
    stmt: u32,
    count: usize,
    tensor_at: usize,
}

/// What the name tables say about a graph's definitions.
struct Names {
    /// Each tensor name, as the id of its first definition.
    tensor_ids: NameIndex,
    /// Each tensor (by id) whose name an earlier tensor has, with that first tensor and the
    /// statement that defines it again.
    tensors_twice: Vec<(u32, u32, u32)>,
    /// Each op (by index) whose name an earlier op has, with that first op.
    ops_twice: Vec<(u32, u32)>,
}

/// The name tables of a graph. Tensors are numbered as `Sema::new_tensor` numbers them: one
/// per declaration and per op output, in statement order.
fn name_tables(ast: &GraphAst<'_>, n_ops: usize, n_tensors: usize) -> Names {
    // Statements and ops are at most `MAX_STATEMENTS` (2^24): indices fit in u32.
    fn table(names: &[&str], twice: &mut Vec<(u32, u32)>) -> NameIndex {
        let mut ids = NameIndex::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if let Some(first) = ids.insert(name, i as u32, |k| names[k as usize]) {
                twice.push((i as u32, first));
            }
        }
        ids
    }
    let mut names = Vec::with_capacity(n_ops.max(n_tensors));
    names.extend(ast.stmts.iter().filter_map(|st| match &st.kind {
        StmtKind::Op(op) => Some(op.name.name),
        _ => None,
    }));
    let mut ops_twice = Vec::new();
    drop(table(&names, &mut ops_twice));
    names.clear();
    let mut stmt_of = Vec::with_capacity(n_tensors);
    for (i, st) in ast.stmts.iter().enumerate() {
        let name = match &st.kind {
            StmtKind::Op(op) => op.output.name,
            StmtKind::Decl { name, .. } => name.name,
            _ => continue,
        };
        names.push(name);
        stmt_of.push(i as u32);
    }
    let mut twice = Vec::new();
    let tensor_ids = table(&names, &mut twice);
    let tensors_twice = twice
        .into_iter()
        .map(|(again, first)| (again, first, stmt_of[again as usize]))
        .collect();
    Names {
        tensor_ids,
        tensors_twice,
        ops_twice,
    }
}

/// Ops above which a graph's tensors and ops are built on two threads.
const PARALLEL_BUILD: usize = 50_000;

/// Statements above which a syntax tree is freed on another thread while the graph is built
/// (freeing 200,000 statements takes ~20 ms, about as long as building the graph).
const DROP_ON_THREAD: usize = 50_000;

/// Every check of one graph. Returns what the graph is built from (when the checks got that
/// far) and the diagnostics.
fn analyze<'s>(ast: &GraphAst<'s>, overrides: &Overrides) -> (Option<Parts<'s>>, Vec<Diagnostic>) {
    if ast.stmts.len() > limits::MAX_STATEMENTS {
        let d = Diagnostic::new(
            Code::LimitExceeded,
            format!(
                "graph `{}` has {} statements; the limit is {}",
                ast.name.name,
                ast.stmts.len(),
                limits::MAX_STATEMENTS
            ),
        )
        .at(ast.name.span, "too many statements")
        .help("split the graph into several graphs");
        return (None, vec![d]);
    }
    // Counts first, so that the tables are allocated once at their final size (the
    // arguments' at one an op, the usual count).
    // Params are found here too, so that their pass reads only them.
    let (mut n_ops, mut n_decls, mut params) = (0usize, 0usize, Vec::new());
    for (i, st) in ast.stmts.iter().enumerate() {
        match &st.kind {
            StmtKind::Op(_) => n_ops += 1,
            StmtKind::Decl { .. } => n_decls += 1,
            StmtKind::Param { name, value } => params.push((i, name, &**value)),
            _ => {}
        }
    }
    let n_tensors = n_ops + n_decls;
    let mut s = Sema {
        ast,
        overrides,
        diags: Vec::new(),
        params: FastMap::default(),
        param_order: Vec::new(),
        tensors: Vec::with_capacity(n_tensors),
        tensor_ids: NameIndex::with_capacity(n_tensors),
        ops: Vec::with_capacity(n_ops),
        uses: Vec::with_capacity(n_ops),
        outputs: Vec::new(),
        has_output_stmt: false,
        suggested: FastSet::default(),
        unresolved: Vec::new(),
        unknown_kinds: Vec::new(),
        pending: Vec::new(),
    };
    s.params(&params);
    s.declarations(n_ops);
    let listed_outputs = s.resolve_inputs();
    // Names are resolved: the map is not needed any more.
    s.tensor_ids = NameIndex::with_capacity(0);
    let (consumer_start, consumer_list, indegree) = s.consumers();
    let consumers_of = |t: usize| &consumer_list[consumer_start[t]..consumer_start[t + 1]];
    let (topo, stuck) = order::topo_sort(indegree, consumers_of, |o| s.ops[o].output);
    if !stuck.is_empty() {
        s.report_cycles(&stuck, consumers_of);
    }
    for &o in &topo {
        s.infer(o.index());
    }
    let outputs = match listed_outputs {
        Some(listed) => listed,
        None => s.implied_outputs(consumers_of),
    };
    let mut is_output = vec![false; s.tensors.len()];
    for t in &outputs {
        is_output[t.index()] = true;
    }
    s.unused(consumers_of, &is_output);
    let diagnostics = std::mem::take(&mut s.diags);
    let parts = Parts {
        name: ast.name.name,
        tensors: s.tensors,
        ops: s.ops,
        uses: s.uses,
        unresolved: s.unresolved,
        unknown_kinds: s.unknown_kinds,
        topo,
        outputs,
        is_output,
        consumer_start,
        consumer_list,
    };
    (Some(parts), diagnostics)
}

struct ParamInfo {
    value: Option<i64>,
    span: Span,
}

struct TensorDraft<'s> {
    name: Ident<'s>,
    shape: Option<Vec<u64>>,
    bytes: Option<u64>,
    origin: Origin,
    dtype: Option<Dtype>,
    /// A second definition of a name: kept so its op has an output, but never reported on.
    duplicate: bool,
}

/// A tensor argument, in 32 bytes: what is unknown is encoded in the integers.
struct UseDraft {
    /// `NO_TENSOR` when the name resolves to nothing (its text is then in
    /// `Sema::unresolved`); otherwise the tensor, whose name is the name as written.
    tensor: u32,
    transpose: bool,
    /// `NO_INDEX`, `BAD_INDEX` when the index expression failed, or the index.
    index: u64,
    span: Span,
}

const NO_TENSOR: u32 = u32::MAX;
// Indices come from non-negative i64 values: both are out of their range.
const NO_INDEX: u64 = u64::MAX;
const BAD_INDEX: u64 = u64::MAX - 1;

impl UseDraft {
    fn tensor(&self) -> Option<TensorId> {
        (self.tensor != NO_TENSOR).then_some(TensorId(self.tensor))
    }
    /// `None` without a view index, `Some(None)` if it failed.
    fn index(&self) -> Option<Option<u64>> {
        match self.index {
            NO_INDEX => None,
            BAD_INDEX => Some(None),
            i => Some(Some(i)),
        }
    }
}

/// The name of argument `k` (an index into the flat list) as written.
fn use_name<'s>(
    k: usize,
    u: &UseDraft,
    tensors: &[TensorDraft<'s>],
    unresolved: &[(usize, &'s str)],
) -> &'s str {
    match u.tensor() {
        Some(t) => tensors[t.index()].name.name,
        None => unresolved
            .binary_search_by_key(&k, |&(i, _)| i)
            .map_or("", |i| unresolved[i].1),
    }
}

/// Arguments of one op as the shape diagnostics name them: `qkv_heads[…].T`.
struct ArgsOf<'x, 's> {
    uses: &'x [UseDraft],
    /// Index of `uses[0]` in the flat list.
    base: usize,
    tensors: &'x [TensorDraft<'s>],
    unresolved: &'x [(usize, &'s str)],
}

impl shape::ArgNames for ArgsOf<'_, '_> {
    fn name(&self, k: usize) -> String {
        let u = &self.uses[k];
        let mut s = use_name(self.base + k, u, self.tensors, self.unresolved).to_string();
        if u.index().is_some() {
            s += "[…]";
        }
        if u.transpose {
            s += ".T";
        }
        s
    }
    fn span(&self, k: usize) -> Span {
        self.uses[k].span
    }
}

/// An op as the checks and the checked graph need it (names borrow the source, not the
/// syntax tree). As large as an `OpNode` (128 bytes), which the graph's ops are written over.
struct OpPart<'s> {
    name: &'s str,
    func: Option<&'s str>,
    span: Span,
    attrs: Vec<(String, i64)>,
    /// Scalar constants, float and list attributes (as in `OpNode`).
    extra: Option<Box<OpExtra>>,
    /// The op's arguments are `uses[end of the previous op..uses_end]`.
    uses_end: usize,
    output: TensorId,
    kind: Option<OpKind>,
    /// Index of the op's statement in the graph's statements (see `Sema::stmt`).
    stmt: u32,
    /// Declared output shape: `None` if none was written, `Some(None)` if it failed.
    declared_shape: Option<Option<Vec<u64>>>,
    declared_dtype: Option<Option<Dtype>>,
    /// An error in the op itself (arity, unknown kind, undefined input) leaves its output
    /// unknown.
    poisoned: bool,
    /// Some argument could not be resolved silently while the op was declared.
    deferred: bool,
}

/// The arguments of op `o` in the flat argument list.
fn use_range(ops: &[OpPart<'_>], o: usize) -> Range<usize> {
    let start = match o.checked_sub(1) {
        Some(p) => ops[p].uses_end,
        None => 0,
    };
    start..ops[o].uses_end
}

struct Sema<'a, 's> {
    ast: &'a GraphAst<'s>,
    overrides: &'a Overrides,
    diags: Vec<Diagnostic>,
    params: FastMap<&'s str, ParamInfo>,
    param_order: Vec<&'s str>,
    tensors: Vec<TensorDraft<'s>>,
    tensor_ids: NameIndex,
    /// Ops in source order.
    ops: Vec<OpPart<'s>>,
    /// Tensor arguments of all ops, in source order.
    uses: Vec<UseDraft>,
    /// Names of the arguments that resolve to nothing, by index into `uses`.
    unresolved: Vec<(usize, &'s str)>,
    /// Kinds as written of the ops whose kind is unknown, by op.
    unknown_kinds: Vec<(usize, &'s str)>,
    /// Ops with arguments left to resolve or the wrong number of them, in source order.
    pending: Vec<usize>,
    outputs: Vec<Ident<'s>>,
    has_output_stmt: bool,
    /// Tensors offered by a "did you mean" help.
    suggested: FastSet<usize>,
}

/// The statement of an op, by its index in the graph's statements.
fn op_stmt<'a, 's>(ast: &'a GraphAst<'s>, stmt: u32) -> &'a OpStmt<'s> {
    match &ast.stmts[stmt as usize].kind {
        StmtKind::Op(op) => op,
        _ => unreachable!("ops are declared from op statements"),
    }
}

/// What an op of `kind` with `n` tensor arguments should have taken, if `n` is wrong.
fn bad_arity(kind: Option<OpKind>, n: usize) -> Option<&'static str> {
    match kind {
        Some(OpKind::Matmul) if n != 2 => Some("exactly 2 tensors"),
        Some(OpKind::Reshape) if n != 1 => Some("exactly 1 tensor"),
        Some(k) if ops::arity(k).is_some_and(|a| n < a.min || n > a.max) => {
            ops::arity(k).map(|a| a.text)
        }
        Some(_) if n == 0 => Some("at least 1 tensor"),
        _ => None,
    }
}

fn duplicate(what: &str, name: &Ident<'_>, first: Span) -> Diagnostic {
    Diagnostic::new(
        Code::DuplicateDefinition,
        format!("{what} `{}` is defined more than once", name.name),
    )
    .at(name.span, "defined again here")
    .with(first, "first defined here")
    .help(format!(
        "rename one of them; {what} names must be unique within a graph"
    ))
}

/// The fix of a misspelt name: the name the "did you mean" help offers, in its place.
pub(crate) fn rename_fix(name: &Ident<'_>, to: &str) -> Fix {
    Fix::replace(
        format!("replace `{}` with `{to}`", name.name),
        Applicability::Safe,
        name.span,
        to,
    )
}

pub(crate) fn fmt_shape(shape: &[u64]) -> String {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    format!("[{}]", dims.join(", "))
}

impl<'a, 's> Sema<'a, 's> {
    /// The statement of op `o`.
    fn stmt(&self, o: usize) -> &'a OpStmt<'s> {
        op_stmt(self.ast, self.ops[o].stmt)
    }

    // ---- params ---------------------------------------------------------------------------

    /// Evaluates the params, given as (statement index, name, value) in statement order.
    fn params(&mut self, params: &[(usize, &Ident<'s>, &Expr<'s>)]) {
        // Names and positions first, so that a use before the definition can point at it.
        let mut defined_at: FastMap<&'s str, (usize, Span)> = FastMap::default();
        for &(i, name, _) in params {
            defined_at.entry(name.name).or_insert((i, name.span));
        }
        for &(i, name, value) in params {
            if let Some(first) = self.params.get(name.name) {
                let d = duplicate("param", name, first.span);
                self.diags.push(d);
                continue;
            }
            // An overridden param takes the `--set` value; its own expression is not evaluated.
            let v = match self.overrides.get(name.name) {
                Some(&o) => Some(o),
                None => {
                    let params = &self.params;
                    let lookup = |n: &str| match params.get(n) {
                        Some(p) => p.value.map_or(Lookup::Poisoned, Lookup::Value),
                        None => match defined_at.get(n) {
                            Some(&(j, _)) if j == i => Lookup::SelfRef,
                            Some(&(j, span)) if j > i => Lookup::Later(span),
                            _ => Lookup::Unknown,
                        },
                    };
                    let names = &self.param_order;
                    let suggest =
                        |n: &str| did_you_mean(n, names.iter().copied()).map(str::to_string);
                    expr::eval(value, &lookup, &suggest, &mut self.diags)
                }
            };
            self.params.insert(
                name.name,
                ParamInfo {
                    value: v,
                    span: name.span,
                },
            );
            self.param_order.push(name.name);
        }
    }

    /// Evaluates a shape or index expression, where every param of the graph is visible.
    fn eval(&mut self, e: &crate::syntax::ast::Expr<'s>) -> Option<i64> {
        let params = &self.params;
        let lookup = |n: &str| match params.get(n) {
            Some(p) => p.value.map_or(Lookup::Poisoned, Lookup::Value),
            None => Lookup::Unknown,
        };
        let names = &self.param_order;
        let suggest = |n: &str| did_you_mean(n, names.iter().copied()).map(str::to_string);
        expr::eval(e, &lookup, &suggest, &mut self.diags)
    }

    fn dims(&mut self, ty: &TypeAst<'s>) -> Option<Vec<u64>> {
        if ty.dims.len() > limits::MAX_RANK {
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "rank {} exceeds the limit of {}",
                        ty.dims.len(),
                        limits::MAX_RANK
                    ),
                )
                .at(ty.span, "too many dimensions"),
            );
            return None;
        }
        let mut ok = true;
        let mut out = Vec::with_capacity(ty.dims.len());
        for d in &ty.dims {
            match self.eval(d) {
                Some(v) if v >= 1 && v as u64 > limits::MAX_DIM => {
                    ok = false;
                    self.diags.push(
                        Diagnostic::new(
                            Code::LimitExceeded,
                            format!(
                                "dimension {v} exceeds the limit of 2^48 ({})",
                                limits::MAX_DIM
                            ),
                        )
                        .at(d.span(), "too large")
                        .help("dimensions are at most 2^48; no real tensor comes near it"),
                    );
                }
                Some(v) if v >= 1 => out.push(v as u64),
                Some(v) => {
                    ok = false;
                    self.diags.push(
                        Diagnostic::new(
                            Code::InvalidShape,
                            format!("dimension must be at least 1, found {v}"),
                        )
                        .at(d.span(), format!("evaluates to {v}"))
                        .help("every dimension of a tensor is a positive integer"),
                    );
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn dtype(&mut self, id: &Ident<'s>) -> Option<Dtype> {
        if let Some(d) = Dtype::from_name(id.name) {
            return Some(d);
        }
        let names: Vec<&str> = Dtype::ALL.iter().map(|d| d.as_str()).collect();
        let mut help = format!("expected one of {}", names.join(", "));
        let suggestion = did_you_mean(id.name, names.iter().copied());
        if let Some(s) = suggestion {
            help = format!("did you mean `{s}`? ({help})");
        }
        let mut d = Diagnostic::new(Code::UnknownDtype, format!("unknown dtype `{}`", id.name))
            .at(id.span, "not a dtype")
            .help(help);
        if let Some(s) = suggestion {
            d = d.fix(rename_fix(id, s));
        }
        self.diags.push(d);
        None
    }

    // ---- declarations ---------------------------------------------------------------------

    /// A tensor, numbered in statement order; the name tables are built apart
    /// ([`name_tables`]), which marks second definitions.
    fn new_tensor(&mut self, name: Ident<'s>, origin: Origin) -> TensorId {
        let id = TensorId(self.tensors.len() as u32);
        self.tensors.push(TensorDraft {
            name,
            shape: None,
            bytes: None,
            origin,
            dtype: None,
            duplicate: false,
        });
        id
    }

    fn declarations(&mut self, n_ops: usize) {
        // The name tables need nothing the declarations compute (ids are given in statement
        // order), and the declarations need no table (arguments they cannot resolve from
        // the tensor just above are resolved afterwards): a large graph's tables are built
        // on a second thread while its statements are declared.
        let (ast, n_tensors) = (self.ast, self.tensors.capacity());
        let base = self.diags.len();
        let (names, marks) = alongside(
            n_ops >= PARALLEL_NAMES,
            || name_tables(ast, n_ops, n_tensors),
            || self.declare_all(),
        );
        self.tensor_ids = names.tensor_ids;
        if !names.tensors_twice.is_empty() {
            // An argument resolved to the tensor just above it binds to the first definition
            // of that name, as the table does.
            let first_of = |t: u32| {
                names
                    .tensors_twice
                    .binary_search_by_key(&t, |&(again, ..)| again)
                    .map_or(t, |k| names.tensors_twice[k].1)
            };
            for u in &mut self.uses {
                if u.tensor != NO_TENSOR {
                    u.tensor = first_of(u.tensor);
                }
            }
        }
        if names.tensors_twice.is_empty() && names.ops_twice.is_empty() {
            return;
        }
        // The repeats join the declarations' diagnostics in statement order, each where a
        // one-pass check finds it: an op's name before anything else of its statement, a
        // tensor's name where the tensor is declared (`Mark::tensor_at`).
        let mut declared = self.diags.split_off(base).into_iter();
        let mut ops_twice = names.ops_twice.into_iter().peekable();
        let mut tensors_twice = names.tensors_twice.into_iter().peekable();
        let mut marks = marks.into_iter().peekable();
        loop {
            let op_at = ops_twice
                .peek()
                .map(|&(again, _)| self.ops[again as usize].stmt);
            let tensor_at = tensors_twice.peek().map(|&(.., stmt)| stmt);
            let mark_at = marks.peek().map(|m| m.stmt);
            let Some(at) = [op_at, tensor_at, mark_at].into_iter().flatten().min() else {
                break;
            };
            if op_at == Some(at)
                && let Some((again, first)) = ops_twice.next()
            {
                let name = &self.stmt(again as usize).name;
                let d = duplicate("op", name, self.stmt(first as usize).name.span);
                self.diags.push(d);
            }
            let mark = marks.next_if(|m| m.stmt == at);
            if let Some(m) = &mark {
                self.diags.extend(declared.by_ref().take(m.tensor_at));
            }
            if tensor_at == Some(at)
                && let Some((again, first, _)) = tensors_twice.next()
            {
                self.defined_twice(again as usize, first as usize);
            }
            if let Some(m) = &mark {
                self.diags
                    .extend(declared.by_ref().take(m.count - m.tensor_at));
            }
        }
    }

    /// Reports tensor `again` as a second definition of tensor `first`'s name.
    fn defined_twice(&mut self, again: usize, first: usize) {
        let (f, t) = (&self.tensors[first], &self.tensors[again]);
        let name = t.name.name;
        let what = match (f.origin, t.origin) {
            (Origin::Produced(_), Origin::Produced(_)) => {
                format!("tensor `{name}` is produced by more than one op")
            }
            (Origin::Produced(_), _) | (_, Origin::Produced(_)) => {
                format!("tensor `{name}` is both declared and produced by an op")
            }
            _ => format!("tensor `{name}` is declared more than once"),
        };
        let d = Diagnostic::new(Code::DuplicateDefinition, what)
            .at(t.name.span, "defined again here")
            .with(f.name.span, "first defined here")
            .help("every tensor has exactly one definition: rename one of them");
        self.diags.push(d);
        self.tensors[again].duplicate = true;
    }

    /// Declares every statement's tensors and ops, and says which statements reported
    /// something.
    fn declare_all(&mut self) -> Vec<Mark> {
        let mut default_dtype = Some(Dtype::F32);
        let mut marks = Vec::new();
        for (i, st) in self.ast.stmts.iter().enumerate() {
            let start = self.diags.len();
            // Where the statement's tensor is declared: an op's is its last step.
            let mut tensor_at = None;
            match &st.kind {
                StmtKind::Param { .. } => {}
                StmtKind::Dtype(id) => default_dtype = self.dtype(id),
                StmtKind::Decl { external, name, ty } => {
                    let origin = match external {
                        ExternalKind::Input => Origin::Input,
                        ExternalKind::Weight => Origin::Weight,
                    };
                    let dtype = match &ty.dtype {
                        Some(d) => self.dtype(d),
                        None => default_dtype,
                    };
                    let shape = self.dims(ty);
                    tensor_at = Some(self.diags.len() - start);
                    let id = self.new_tensor(*name, origin);
                    let bytes = self.size(&shape, dtype, || (*name, ty.span));
                    let t = &mut self.tensors[id.index()];
                    // A size that overflowed makes the tensor unknown: no cascade downstream.
                    (t.shape, t.dtype, t.bytes) = (shape.filter(|_| bytes.is_some()), dtype, bytes);
                }
                StmtKind::Output(names) => {
                    self.has_output_stmt = true;
                    self.outputs.extend(names.iter().copied());
                }
                // Statements are at most `MAX_STATEMENTS` (2^24): indices fit in u32.
                StmtKind::Op(op) => self.declare_op(op, i as u32, st.span),
                // Expanded into its instances' statements before this pass (syntax::expand).
                StmtKind::Repeat(_) => {}
                // Checked against the fusion plan once the graph is built (crate::assertions).
                StmtKind::Assert(_) => {}
            }
            let count = self.diags.len() - start;
            if count > 0 {
                marks.push(Mark {
                    stmt: i as u32,
                    count,
                    tensor_at: tensor_at.unwrap_or(count),
                });
            }
        }
        marks
    }

    fn declare_op(&mut self, op: &'a OpStmt<'s>, stmt: u32, span: Span) {
        let id = OpId(self.ops.len() as u32);
        let kind = OpKind::from_name(op.kind.name);
        if kind.is_none() {
            self.unknown_kinds.push((self.ops.len(), op.kind.name));
            let names: Vec<&str> = OpKind::ALL.iter().map(|k| k.as_str()).collect();
            let suggestion = did_you_mean(op.kind.name, names.iter().copied());
            // A typo of one of the seed's four kinds gets the seed's help, byte for byte
            // (SPEC §8: files without the new forms report as before); otherwise every kind.
            let listed = match suggestion {
                Some(s) if OpKind::from_name(s).is_some_and(|k| k.is_seed()) => &names[..4],
                _ => &names[..],
            };
            let mut help = format!("expected one of {}", listed.join(", "));
            if let Some(s) = suggestion {
                help = format!("did you mean `{s}`? ({help})");
            }
            let mut d = Diagnostic::new(
                Code::UnknownKind,
                format!("unknown op kind `{}`", op.kind.name),
            )
            .at(op.kind.span, "not an op kind")
            .help(help);
            if let Some(s) = suggestion {
                d = d.fix(rename_fix(&op.kind, s));
            }
            self.diags.push(d);
        }
        let mut attrs = Vec::new();
        // Where each attribute name was first given: the first attribute, then a map once
        // there is a second (most ops have at most one).
        let mut first_attr: Option<&Ident<'s>> = None;
        let mut given: Option<FastMap<&'s str, Span>> = None;
        let mut extra = OpExtra::default();
        let mut position = 0;
        for a in &op.args {
            let name = match a {
                Arg::Tensor(_) => {
                    position += 1;
                    continue;
                }
                Arg::Scalar(lit) => {
                    extra.scalars.push((position, lit.text.to_string()));
                    position += 1;
                    continue;
                }
                Arg::Attr { name, .. }
                | Arg::FloatAttr { name, .. }
                | Arg::ListAttr { name, .. } => name,
            };
            if let Some(f) = first_attr {
                let given = given.get_or_insert_with(|| FastMap::from_iter([(f.name, f.span)]));
                if let Some(&first) = given.get(name.name) {
                    self.diags.push(
                        Diagnostic::new(
                            Code::DuplicateDefinition,
                            format!("attribute `{}` is given more than once", name.name),
                        )
                        .at(name.span, "given again here")
                        .with(first, "first given here")
                        .help("give each attribute of an op once"),
                    );
                } else {
                    given.insert(name.name, name.span);
                }
            } else {
                first_attr = Some(name);
            }
            match a {
                Arg::Attr { value, .. } => {
                    if let Some(v) = self.eval(value) {
                        attrs.push((name.name.to_string(), v));
                    }
                }
                Arg::FloatAttr { value, .. } => extra.attrs.push((
                    name.name.to_string(),
                    AttrValue::Float {
                        // The grammar admits only what parses.
                        value: value.text.parse().unwrap_or(f64::NAN),
                        text: value.text.to_string(),
                    },
                )),
                Arg::ListAttr { items, .. } => {
                    let values: Vec<Option<i64>> = items.iter().map(|e| self.eval(e)).collect();
                    if let Some(values) = values.into_iter().collect::<Option<Vec<i64>>>() {
                        extra
                            .attrs
                            .push((name.name.to_string(), AttrValue::List(values)));
                    }
                }
                Arg::Tensor(_) | Arg::Scalar(_) => {}
            }
        }
        // A scalar constant is an operand of an elementwise op only.
        let mut scalar_misplaced = false;
        if let Some(k) = kind
            && k != OpKind::Elementwise
        {
            for a in &op.args {
                if let Arg::Scalar(lit) = a {
                    scalar_misplaced = true;
                    self.diags.push(
                        Diagnostic::new(
                            Code::Arity,
                            format!("`{}` takes no scalar constant, found `{}`", k, lit.text),
                        )
                        .at(lit.span, "not a tensor")
                        .help(
                            "scalar constants are operands of elementwise ops \
                             (`elementwise.mul(x, 0.125)`); pass a tensor here",
                        ),
                    );
                }
            }
        }
        let extra = (extra != OpExtra::default()).then(|| Box::new(extra));
        let (declared_shape, declared_dtype) = match &op.ty {
            Some(ty) => (
                Some(self.dims(ty)),
                ty.dtype.as_ref().map(|d| self.dtype(d)),
            ),
            None => (None, None),
        };
        // Arguments naming a tensor defined above, with no view index or a literal one, are
        // resolved now, while the statement is in cache: that reports nothing. The others are
        // resolved by `resolve_inputs`, with their diagnostics, in statement order.
        let mut deferred = false;
        let use_start = self.uses.len();
        let tensors = &self.tensors;
        for a in &op.args {
            let Arg::Tensor(t) = a else { continue };
            let index = match t.index.as_deref() {
                None => Some(NO_INDEX),
                Some(&Expr::Int { value: Some(i), .. }) if i >= 0 => Some(i as u64),
                Some(_) => None,
            };
            // Most arguments name the tensor defined just before (a chain). If that is a
            // second definition of its name, `declarations` binds the argument to the first.
            let tensor = match (index, tensors.last()) {
                (Some(_), Some(last)) if last.name.name == t.name.name => {
                    Some((tensors.len() - 1) as u32)
                }
                _ => None,
            };
            deferred |= tensor.is_none();
            self.uses.push(UseDraft {
                tensor: tensor.unwrap_or(NO_TENSOR),
                transpose: t.transpose,
                index: index.unwrap_or(NO_INDEX),
                span: t.span,
            });
        }
        let uses_end = self.uses.len();
        if deferred || bad_arity(kind, uses_end - use_start).is_some() {
            self.pending.push(self.ops.len());
        }
        let output = self.new_tensor(op.output, Origin::Produced(id));
        self.ops.push(OpPart {
            name: op.name.name,
            func: op.func.map(|f| f.name),
            span,
            attrs,
            extra,
            uses_end,
            output,
            kind,
            stmt,
            declared_shape,
            declared_dtype,
            poisoned: kind.is_none() || scalar_misplaced,
            deferred,
        });
    }

    /// Resolves tensor arguments (which may name tensors defined further down) and checks
    /// arity. Returns the tensors of the `output` statements, each once, if there are any.
    fn resolve_inputs(&mut self) -> Option<Vec<TensorId>> {
        let pending = std::mem::take(&mut self.pending);
        for o in pending {
            let stmt = self.stmt(o);
            let Range { start, end } = use_range(&self.ops, o);
            let mut poisoned = false;
            let mut slot = start;
            for a in &stmt.args {
                if !self.ops[o].deferred {
                    break;
                }
                let Arg::Tensor(t) = a else { continue };
                // Resolved while declared (the tensor just above, with no view index or a
                // literal one): what the table gives, with nothing to report.
                if self.uses[slot].tensor != NO_TENSOR {
                    slot += 1;
                    continue;
                }
                let tensor = self.lookup_tensor(&t.name);
                poisoned |= tensor.is_none();
                let index = t.index.as_ref().map(|e| {
                    let v = self.eval(e);
                    match v {
                        Some(i) if i < 0 => {
                            self.diags.push(
                                Diagnostic::new(
                                    Code::BadView,
                                    format!("view index {i} is negative"),
                                )
                                .at(e.span(), "must be at least 0")
                                .help("`t[i]` selects slice i of the first dimension, counting from 0"),
                            );
                            None
                        }
                        v => v.map(|i| i as u64),
                    }
                });
                poisoned |= matches!(index, Some(None));
                if tensor.is_none() {
                    self.unresolved.push((slot, t.name.name));
                }
                self.uses[slot] = UseDraft {
                    tensor: tensor.map_or(NO_TENSOR, |t| t.0),
                    transpose: t.transpose,
                    index: match index {
                        None => NO_INDEX,
                        Some(None) => BAD_INDEX,
                        Some(Some(i)) => i,
                    },
                    span: t.span,
                };
                slot += 1;
            }
            let n = end - start;
            let kind = self.ops[o].kind;
            if let Some(expected) = bad_arity(kind, n) {
                poisoned = true;
                let kind_name = stmt.kind.name;
                let mut d = Diagnostic::new(
                    Code::Arity,
                    format!("`{kind_name}` takes {expected}, found {n}"),
                )
                .at(stmt.kind.span, format!("takes {expected}"));
                let extra = match kind {
                    Some(OpKind::Matmul) => 2,
                    Some(OpKind::Reshape) => 1,
                    Some(k) => ops::arity(k).map_or(usize::MAX, |a| a.max),
                    _ => usize::MAX,
                };
                for u in self.uses[start..end].iter().skip(extra) {
                    d = d.with(u.span, "extra tensor");
                }
                d = d.help(match kind {
                    Some(OpKind::Matmul) => "a matmul multiplies two tensors: `matmul(a, b)`",
                    Some(OpKind::Reshape) => "a reshape takes one tensor: `reshape(t) -> u: [..]`",
                    Some(k) if ops::arity(k).is_some() => ops::arity(k).map_or("", |a| a.help),
                    _ => "pass the tensors the op reads",
                });
                self.diags.push(d);
            }
            self.ops[o].poisoned |= poisoned;
        }
        let names = std::mem::take(&mut self.outputs);
        let mut listed: Vec<TensorId> = Vec::new();
        // Where each output was first listed.
        let mut seen: FastMap<TensorId, Span> = FastMap::default();
        for id in &names {
            let Some(t) = self.lookup_tensor(id) else {
                continue;
            };
            match seen.get(&t) {
                None => {
                    seen.insert(t, id.span);
                    listed.push(t);
                }
                Some(&first) => self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateOutput,
                        format!("tensor `{}` is listed as an output more than once", id.name),
                    )
                    .at(id.span, "listed again here")
                    .with(first, "first listed here")
                    .help(
                        "remove the repeat: an output is written once however often it is listed",
                    ),
                ),
            }
        }
        self.has_output_stmt.then_some(listed)
    }

    fn lookup_tensor(&mut self, name: &Ident<'s>) -> Option<TensorId> {
        let tensors = &self.tensors;
        if let Some(t) = self
            .tensor_ids
            .get(name.name, |i| tensors[i as usize].name.name)
        {
            return Some(TensorId(t));
        }
        let mut d = Diagnostic::new(
            Code::UndefinedTensor,
            format!("undefined tensor `{}`", name.name),
        )
        .at(
            name.span,
            format!("not defined in graph `{}`", self.ast.name.name),
        );
        let names = self.tensor_ids.ids().map(|i| tensors[i as usize].name.name);
        d = match did_you_mean(name.name, names) {
            Some(s) => {
                let t = self
                    .tensor_ids
                    .get(s, |i| tensors[i as usize].name.name)
                    .map_or(0, |t| t as usize);
                self.suggested.insert(t);
                d.with(self.tensors[t].name.span, format!("`{s}` is defined here"))
                    .help(format!("did you mean `{s}`?"))
                    .fix(rename_fix(name, s))
            }
            None => d.help(format!(
                "declare it (`input {}: [..]`) or produce it with an op (`-> {}`)",
                name.name, name.name
            )),
        };
        self.diags.push(d);
        None
    }

    /// Distinct consuming ops of each tensor, in source order, as one list: those of tensor
    /// `t` are `list[start[t]..start[t + 1]]`. Also the number of distinct producers of each
    /// op's inputs (its in-degree in the DAG).
    fn consumers(&self) -> (Vec<usize>, Vec<OpId>, Vec<usize>) {
        let n = self.tensors.len();
        let mut start = vec![0usize; n + 1];
        let mut indegree = Vec::with_capacity(self.ops.len());
        // The last op counted for each tensor: an op reading a tensor twice counts once.
        let mut last = vec![u32::MAX; n];
        let mut total = 0usize;
        let mut begin = 0;
        for (o, op) in self.ops.iter().enumerate() {
            let mut producers = 0usize;
            for u in &self.uses[begin..op.uses_end] {
                let Some(t) = u.tensor() else { continue };
                let t = t.index();
                if last[t] != o as u32 {
                    last[t] = o as u32;
                    start[t] += 1;
                    total += 1;
                    // Each op produces one tensor: distinct produced tensors are distinct
                    // producers.
                    if matches!(self.tensors[t].origin, Origin::Produced(_)) {
                        producers += 1;
                    }
                }
            }
            indegree.push(producers);
            begin = op.uses_end;
        }
        drop(last);
        // Counts to starts.
        let mut acc = 0usize;
        for s in &mut start {
            let c = *s;
            *s = acc;
            acc += c;
        }
        let mut pos = start[..n].to_vec();
        let mut list = vec![OpId(0); total];
        for o in 0..self.ops.len() {
            for u in &self.uses[use_range(&self.ops, o)] {
                let Some(t) = u.tensor() else { continue };
                let t = t.index();
                let p = pos[t];
                if p == start[t] || list[p - 1] != OpId(o as u32) {
                    list[p] = OpId(o as u32);
                    pos[t] = p + 1;
                }
            }
        }
        (start, list, indegree)
    }

    fn report_cycles<'c>(&mut self, stuck: &[usize], consumers_of: impl Fn(usize) -> &'c [OpId]) {
        let ops = &self.ops;
        for cycle in order::cycles(stuck, |o| consumers_of(ops[o].output.index())) {
            const SHOWN: usize = 8;
            let names: Vec<&str> = cycle.iter().map(|&o| ops[o].name).collect();
            let mut path: Vec<String> =
                names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
            if names.len() > SHOWN {
                path.push(format!("… ({} ops in all)", names.len()));
            }
            path.push(format!("`{}`", names[0]));
            let mut d = Diagnostic::new(
                Code::Cycle,
                format!("dependency cycle: {}", path.join(" → ")),
            )
            .at(
                self.stmt(cycle[0]).name.span,
                "this op depends on its own output",
            );
            // Label the argument through which each op of the cycle reads the previous one.
            for (k, &o) in cycle.iter().enumerate().take(SHOWN) {
                let prev = cycle[(k + cycle.len() - 1) % cycle.len()];
                let t = ops[prev].output;
                if let Some(u) = self.uses[use_range(ops, o)]
                    .iter()
                    .find(|u| u.tensor() == Some(t))
                {
                    d = d.with(
                        u.span,
                        format!(
                            "`{}` reads `{}` from `{}`",
                            ops[o].name,
                            self.tensors[t.index()].name.name,
                            ops[prev].name
                        ),
                    );
                }
            }
            d = d.help("ops must form a DAG: break the cycle by reading a declared input instead");
            self.diags.push(d);
        }
    }

    // ---- shapes ---------------------------------------------------------------------------

    /// `name_at` gives the tensor's name and the place to report an overflow at; it is called
    /// only then (for an op, it reads the statement, which is out of cache by now).
    fn size(
        &mut self,
        shape: &Option<Vec<u64>>,
        dtype: Option<Dtype>,
        name_at: impl FnOnce() -> (Ident<'s>, Span),
    ) -> Option<u64> {
        let (shape, dtype) = (shape.as_ref()?, dtype?);
        let bytes = shape
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .and_then(|n| n.checked_mul(dtype.bytes()));
        if bytes.is_none() {
            let (name, at) = name_at();
            self.diags.push(
                Diagnostic::new(
                    Code::SizeOverflow,
                    format!(
                        "size of `{}` ({dtype}{}) overflows 64 bits",
                        name.name,
                        fmt_shape(shape)
                    ),
                )
                .at(at, "more than 2^64 bytes")
                .help("check the dimensions and the params they use"),
            );
        }
        bytes
    }

    /// Infers and checks the output of op `o`; its inputs have been inferred already.
    fn infer(&mut self, o: usize) {
        if self.ops[o].poisoned {
            return;
        }
        let Some(kind) = self.ops[o].kind else { return };
        // The statement is read only to report something: a large graph's syntax tree is
        // long out of cache by now.
        let (ast, at) = (self.ast, self.ops[o].stmt);
        let stmt = move || op_stmt(ast, at);
        // Each op is inferred once: its declared shape can be moved out.
        let declared = self.ops[o].declared_shape.take();
        let ty_span = || stmt().ty.as_ref().map_or(stmt().output.span, |t| t.span);
        // Argument shapes borrow the tensors: this block ends before the output is stored.
        let (out, first_dtype) = {
            let range = use_range(&self.ops, o);
            let uses = &self.uses[range.clone()];
            let (tensors, diags) = (&self.tensors, &mut self.diags);
            let names = ArgsOf {
                uses,
                base: range.start,
                tensors,
                unresolved: &self.unresolved,
            };
            // Argument shapes after views, borrowed where no view changes them; `None` where an
            // input is unknown.
            let arg = |k: usize, diags: &mut Vec<Diagnostic>| {
                let u = &uses[k];
                let t = &tensors[u.tensor()?.index()];
                let s = t.shape.as_deref()?;
                shape::view(
                    s,
                    u.index().flatten(),
                    u.transpose,
                    t.name.name,
                    u.span,
                    diags,
                )
            };
            let mut small: [Option<Cow<'_, [u64]>>; 2] = [None, None];
            let many: Vec<Option<Cow<'_, [u64]>>>;
            let args: &[Option<Cow<'_, [u64]>>] = if uses.len() <= small.len() {
                for (k, slot) in small.iter_mut().enumerate().take(uses.len()) {
                    *slot = arg(k, diags);
                }
                &small[..uses.len()]
            } else {
                many = (0..uses.len()).map(|k| arg(k, diags)).collect();
                &many
            };
            // `Some(shape)`: inferred; `None` with `inferable`: unknown because of an earlier error.
            let inferable = !matches!(kind, OpKind::Reduction | OpKind::Reshape | OpKind::Expand);
            let op_attrs = ops::Attrs {
                kind,
                ints: &self.ops[o].attrs,
                extra: self.ops[o].extra.as_deref(),
                stmt: stmt(),
            };
            let inferred: Option<Vec<u64>> = match kind {
                OpKind::Elementwise => shape::broadcast_all(args, &names, diags).flatten(),
                OpKind::Matmul => shape::matmul(args, &names, diags).flatten(),
                OpKind::Reduction | OpKind::Reshape | OpKind::Expand => None,
                _ => ops::infer(args, &op_attrs, &names, diags),
            };
            let out = match declared {
                // The declared dims had errors of their own.
                Some(None) => None,
                None if inferable => inferred,
                None => {
                    diags.push(
                        Diagnostic::new(
                            Code::MissingShape,
                            format!(
                                "the output of {kind} `{}` needs a declared shape",
                                stmt().name.name
                            ),
                        )
                        .at(stmt().output.span, "no shape given")
                        .help(format!(
                            "{kind} output shapes cannot be inferred: write `-> {}: [..]`",
                            stmt().output.name
                        )),
                    );
                    None
                }
                Some(Some(decl)) => match inferred {
                    Some(inf) if inf != decl => {
                        diags.push(
                        Diagnostic::new(
                            Code::ShapeMismatch,
                            format!(
                                "declared shape {} of `{}` does not match the inferred shape {}",
                                fmt_shape(&decl),
                                stmt().output.name,
                                fmt_shape(&inf)
                            ),
                        )
                        .at(ty_span(), format!("declared {}", fmt_shape(&decl)))
                        .with(stmt().kind.span, format!("{kind} produces {}", fmt_shape(&inf)))
                        .help(format!(
                            "declare `{}: {}{}` or leave the shape out",
                            stmt().output.name,
                            stmt().ty.as_ref().and_then(|t| t.dtype).map_or("", |d| d.name),
                            fmt_shape(&inf)
                        ))
                        .fix(Fix::replace(
                            format!("declare the inferred shape {}", fmt_shape(&inf)),
                            Applicability::NeedsReview,
                            ty_span(),
                            format!(
                                "{}{}",
                                stmt().ty.as_ref().and_then(|t| t.dtype).map_or("", |d| d.name),
                                fmt_shape(&inf)
                            ),
                        )),
                    );
                        None
                    }
                    _ if kind == OpKind::Reshape => {
                        shape::reshape(args, decl, &names, ty_span(), diags)
                    }
                    _ if kind == OpKind::Expand => {
                        ops::expand(args, decl, &names, ty_span(), diags)
                    }
                    _ => Some(decl),
                },
            };
            // dtype: the declared one, else the first tensor input's.
            let first_dtype = uses
                .first()
                .and_then(|u| u.tensor())
                .and_then(|t| tensors[t.index()].dtype);
            (out, first_dtype)
        };
        let dtype = match self.ops[o].declared_dtype {
            Some(d) => d,
            None => first_dtype,
        };
        if kind == OpKind::Elementwise {
            self.dtype_mismatch(o);
        }
        let output = self.ops[o].output;
        let bytes = self.size(&out, dtype, || (stmt().output, ty_span()));
        let t = &mut self.tensors[output.index()];
        (t.shape, t.dtype, t.bytes) = (out.filter(|_| bytes.is_some()), dtype, bytes);
    }

    fn dtype_mismatch(&mut self, o: usize) {
        let mut first: Option<(Dtype, Span, &str)> = None;
        for u in &self.uses[use_range(&self.ops, o)] {
            let Some(t) = u.tensor() else { continue };
            let t = &self.tensors[t.index()];
            let Some(d) = t.dtype else { continue };
            match first {
                None => first = Some((d, u.span, t.name.name)),
                Some((fd, fspan, fname)) if fd != d => {
                    let diag = Diagnostic::new(
                        Code::DtypeMismatch,
                        format!(
                            "elementwise `{}` mixes {fd} and {d} inputs",
                            self.ops[o].name
                        ),
                    )
                    .at(u.span, format!("`{}` is {d}", t.name.name))
                    .with(fspan, format!("`{fname}` is {fd}"))
                    .help("declare the inputs with one dtype, or convert one of them with an explicit op");
                    self.diags.push(diag);
                    return;
                }
                Some(_) => {}
            }
        }
    }

    // ---- outputs and warnings -------------------------------------------------------------

    /// Without an `output` statement: the produced tensors no op reads.
    fn implied_outputs<'c>(&self, consumers_of: impl Fn(usize) -> &'c [OpId]) -> Vec<TensorId> {
        (0..self.tensors.len())
            .filter(|&t| {
                // The consumer lists first: most tensors have consumers.
                consumers_of(t).is_empty()
                    && matches!(self.tensors[t].origin, Origin::Produced(_))
                    && !self.tensors[t].duplicate
            })
            .map(|t| TensorId(t as u32))
            .collect()
    }

    fn unused<'c>(&mut self, consumers_of: impl Fn(usize) -> &'c [OpId], is_output: &[bool]) {
        for (t, &output) in is_output.iter().enumerate() {
            // The consumer lists first: most tensors have consumers.
            if !consumers_of(t).is_empty() {
                continue;
            }
            let draft = &self.tensors[t];
            // A tensor made unknown by an error, or offered as the fix of a misspelt use, says
            // nothing more.
            if draft.duplicate || output || draft.shape.is_none() || self.suggested.contains(&t) {
                continue;
            }
            let name = draft.name.name;
            let name_span = draft.name.span;
            let d = match draft.origin {
                Origin::Produced(o) => {
                    let d = Diagnostic::new(
                        Code::UnusedTensor,
                        format!("tensor `{name}` is produced but never used"),
                    )
                    .at(name_span, "no op reads it and it is not an output")
                    .help(format!(
                        "`{}` still writes it to HBM: add `{name}` to `output`, or remove the op",
                        self.ops[o.index()].name
                    ));
                    // Only a listed output can leave a produced tensor unused.
                    match self.outputs.last() {
                        Some(last) => d.fix(Fix::replace(
                            format!("add `{name}` to `output`"),
                            Applicability::NeedsReview,
                            Span::new(last.span.end, last.span.end),
                            format!(", {name}"),
                        )),
                        None => d,
                    }
                }
                Origin::Input | Origin::Weight => {
                    let d = Diagnostic::new(
                        Code::UnusedTensor,
                        format!("tensor `{name}` is declared but never used"),
                    )
                    .at(name_span, "no op reads it")
                    .help("remove the declaration, or pass it to the op that should read it");
                    let decl = self.ast.stmts.iter().find(|s| {
                        matches!(&s.kind, StmtKind::Decl { name, .. } if name.span == name_span)
                    });
                    match decl {
                        Some(s) => d.fix(Fix::replace(
                            format!("remove the declaration of `{name}`"),
                            Applicability::NeedsReview,
                            s.span,
                            "",
                        )),
                        None => d,
                    }
                }
            };
            self.diags.push(d);
        }
    }
}

/// The drafts of a checked graph, detached from the syntax tree (names borrow the source).
struct Parts<'s> {
    name: &'s str,
    tensors: Vec<TensorDraft<'s>>,
    ops: Vec<OpPart<'s>>,
    uses: Vec<UseDraft>,
    unresolved: Vec<(usize, &'s str)>,
    unknown_kinds: Vec<(usize, &'s str)>,
    topo: Vec<OpId>,
    outputs: Vec<TensorId>,
    is_output: Vec<bool>,
    consumer_start: Vec<usize>,
    consumer_list: Vec<OpId>,
}

/// Tensor arguments as written, with the scalar constants of `extra` put back in their places.
fn with_scalars(extra: Option<&OpExtra>, tensors: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut consts = extra
        .map_or(&[][..], |e| e.scalars.as_slice())
        .iter()
        .peekable();
    for t in tensors {
        while let Some((_, text)) = consts.next_if(|(at, _)| *at == out.len()) {
            out.push(text.clone());
        }
        out.push(t);
    }
    out.extend(consts.map(|(_, t)| t.clone()));
    out
}

impl Parts<'_> {
    /// The ops as written, for a graph with errors.
    fn summaries(&self) -> Vec<OpSummary> {
        self.ops
            .iter()
            .enumerate()
            .map(|(o, op)| {
                let out = &self.tensors[op.output.index()];
                OpSummary {
                    name: op.name.to_string(),
                    kind: match op.kind {
                        Some(k) => k.as_str().to_string(),
                        None => self
                            .unknown_kinds
                            .binary_search_by_key(&o, |&(i, _)| i)
                            .map_or(String::new(), |i| self.unknown_kinds[i].1.to_string()),
                    },
                    func: op.func.map(str::to_string),
                    inputs: with_scalars(
                        op.extra.as_deref(),
                        use_range(&self.ops, o).map(|k| {
                            let u = &self.uses[k];
                            let mut s = use_name(k, u, &self.tensors, &self.unresolved).to_string();
                            match u.index() {
                                Some(Some(i)) => s += &format!("[{i}]"),
                                Some(None) => s += "[?]",
                                None => {}
                            }
                            if u.transpose {
                                s += ".T";
                            }
                            s
                        }),
                    ),
                    output: out.name.name.to_string(),
                    shape: out.shape.clone(),
                    dtype: out.dtype,
                    bytes: out.bytes,
                }
            })
            .collect()
    }

    /// Moves the drafts into the checked graph (no copies of shapes, attributes or the
    /// consumer lists). `None` if anything is unknown, which only happens after an error.
    fn build(self) -> Option<Graph> {
        let Parts {
            name,
            tensors: drafts,
            ops: op_parts,
            uses,
            unresolved: _,
            unknown_kinds: _,
            topo,
            outputs,
            is_output,
            consumer_start,
            consumer_list,
        } = self;
        // Collected from the drafts' own iterator: a `TensorDraft` is as large as a `Tensor`
        // (88 bytes), so the standard library writes the tensors over the drafts, in place.
        let tensors_of = |drafts: Vec<TensorDraft<'_>>| {
            drafts
                .into_iter()
                .map(|t| {
                    Some(Tensor {
                        name: t.name.name.to_string(),
                        shape: t.shape?,
                        dtype: t.dtype?,
                        bytes: t.bytes?,
                        origin: t.origin,
                        span: t.name.span,
                    })
                })
                .collect::<Option<Vec<Tensor>>>()
        };
        // Likewise the ops over their drafts (`OpPart` is as large as `OpNode`).
        let ops_of = |op_parts: Vec<OpPart<'_>>| {
            let mut start = 0;
            op_parts
                .into_iter()
                .map(|op| {
                    let args = &uses[start..op.uses_end];
                    start = op.uses_end;
                    let mut inputs = Vec::with_capacity(args.len());
                    for u in args {
                        inputs.push(TensorUse {
                            tensor: u.tensor()?,
                            index: match u.index() {
                                Some(i) => Some(i?),
                                None => None,
                            },
                            transpose: u.transpose,
                            span: u.span,
                        });
                    }
                    Some(OpNode {
                        name: op.name.to_string(),
                        kind: op.kind?,
                        func: op.func.map(str::to_string),
                        inputs,
                        output: op.output,
                        attrs: op.attrs,
                        span: op.span,
                        extra: op.extra,
                    })
                })
                .collect::<Option<Vec<OpNode>>>()
        };
        // A large graph's tensors are built on a second thread while this one builds the ops
        // (each name is an allocation and a copy: ~20 ms for 200,000 tensors).
        let (tensors, ops) = alongside(
            op_parts.len() >= PARALLEL_BUILD,
            move || tensors_of(drafts),
            || ops_of(op_parts),
        );
        let (tensors, ops) = (tensors?, ops?);
        Some(Graph {
            name: name.to_string(),
            tensors,
            ops,
            outputs,
            is_output,
            consumer_start,
            consumer_list,
            topo,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An argument binds to its tensor's first definition, also when the tensor defined just
    /// before it (the chain fast path) is a second definition of that name.
    #[test]
    fn arguments_bind_to_the_first_definition() {
        let src = "graph g {\n  input x: [4]\n  input w: [8]\n  \
                   op a = elementwise.relu(x) -> y\n  op b = elementwise.relu(w) -> y\n  \
                   op c = elementwise.relu(y) -> z\n}\n";
        let file = crate::syntax::parse(src).expect("parses");
        let graph = file.graphs.into_iter().next().expect("one graph");
        let checked = check_graph(graph, &Overrides::new());
        assert!(
            checked
                .diagnostics
                .iter()
                .any(|d| d.code == Code::DuplicateDefinition)
        );
        let c = checked.ops.iter().find(|o| o.name == "c").expect("op c");
        assert_eq!(c.shape.as_deref(), Some(&[4u64][..]));
    }
}
