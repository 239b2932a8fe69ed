//! The semantic pass: names, params, dtypes, shapes, the DAG and its order. It reports every
//! error of a graph in one run; a value made unknown by an error causes no further diagnostics.
//!
//! | module | owns |
//! |---|---|
//! | here | the entry points ([`check_graph`], [`param_values`]), the driver (`analyze`: the passes in order), the drafts the passes fill in, the pass's speed thresholds, shared diagnostic helpers |
//! | `values` | params (with `--set` overrides), shape dims, dtypes and byte sizes |
//! | `declare` | declaring every statement's tensors and ops (attributes, scalar constants, arity), alongside the name tables, and reporting second definitions |
//! | `names` | the name tables, resolving tensor arguments and `output` names |
//! | `dag` | consumer lists and in-degrees, cycle diagnostics, the outputs implied without an `output` statement |
//! | `infer` | inferring and checking each op's output shape, dtype, size and FLOPs, in topological order, and the limits every output passes |
//! | `lints` | warnings: unused tensors, elementwise dtype mismatches |
//! | `build` | the checked graph built from the drafts, or the ops as written when it has errors |
//! | `order` | topological order and cycle finding (algorithms only) |
//! | `shape` | shape rules: views, broadcasting, matmul, reshape |
//! | `ops` | shape rules of the data-movement ops (slice, concat, permute, expand, gather, update) |
//! | `expr` | evaluating integer expressions |
//! | `intern` | sharing the shapes, attribute lists and extras that tensors and ops hold alike |
//! | `funcs` | functions and attributes checked against the registries (`unknown-function`, opaque functions, attribute names, types and ranges) |
//! | `bindings` | block instances' arguments checked against the block's inputs before its body, and a repeated block's output |
//! | `conv` | the shape rule of `conv` |
//! | `pool` | shape rules of the pooling kinds and of `reduction.group_norm`'s groups |
//! | `routing` (a child of `ops`) | shape rules of the routing and indexing kinds (`topk`, `sort`, `index_add`, …) |
//! | `attention` | the shape rule of the `attention` op |
//! | `quant` | the shape and dtype rules of `scaled_mm` and `quant_mm` |

mod attention;
mod bindings;
mod collective;
pub use bindings::{Binding, BindingKind, Bindings, InstanceOps};
mod build;
mod conv;
mod dag;
mod declare;
pub(crate) mod expr;
mod funcs;
mod infer;
mod intern;
mod lints;
mod names;
mod ops;
pub(crate) mod order;
mod pool;
mod quant;
mod shape;
mod values;

use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span};
use crate::graph::{Graph, IntAttrs, OpExtra, OpId, Origin, Shape, TensorId};
use crate::limits;
use crate::perf::alongside;
use crate::syntax::ast::{Ident, StmtKind};
use crate::syntax::body::{Body, Form, OpRef};
use crate::types::{Dtype, OpKind};
use names::NameIndex;
use std::collections::BTreeMap;
use std::ops::Range;

// Name tables hash with hashbrown's default, foldhash: several times faster than SipHash on
// short names, and seeded per process, so a file cannot be written to make its names collide.
type FastMap<K, V> = hashbrown::HashMap<K, V>;
type FastSet<K> = hashbrown::HashSet<K>;

/// `--set NAME=INT` values, applied to every graph that has a param of that name.
pub type Overrides = BTreeMap<String, i64>;

/// The value of each param of `ast`, in statement order, as the semantic pass evaluates it
/// (`overrides` win; `None` where the definition has an error). For editors' hovers: the
/// errors themselves are reported by [`check_graph`].
pub fn param_values<'s>(ast: &dyn Body<'s>, overrides: &Overrides) -> Vec<(String, Option<i64>)> {
    let mut values: FastMap<&str, Option<i64>> = FastMap::default();
    let mut out = Vec::new();
    let mut ignored = Vec::new();
    for (_, st) in ast.select(&[Form::Param]) {
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

/// Checks one graph: a parsed file's ([`crate::syntax::ast::GraphAst`]) or an expanded one
/// ([`crate::syntax::expand::Expanded`]). The statements are consumed: they are dropped
/// before the checked graph is built, so the two are never in memory together.
pub fn check_graph<'s, B: Body<'s> + Send>(ast: B, overrides: &Overrides) -> Checked {
    check_expanded(ast, overrides, None)
}

/// [`check_graph`] for a graph with block instances: their arguments are checked against the
/// blocks' inputs before their bodies (see `bindings`).
pub fn check_expanded<'s, B: Body<'s> + Send>(
    ast: B,
    overrides: &Overrides,
    expansion: Option<Bindings<'_>>,
) -> Checked {
    let (parts, diagnostics) = analyze(&ast, overrides, expansion);
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    // A large tree is freed on a scoped thread alongside the build (it borrows the source,
    // so the thread is scoped); otherwise now, so that the build can reuse its memory.
    let on_thread = ast.len() >= DROP_ON_THREAD && !has_errors && parts.is_some();
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

// The speed thresholds live with the others in `crate::perf`.
pub(crate) use crate::perf::{DROP_ON_THREAD, PARALLEL_BUILD, PARALLEL_NAMES};

/// Every check of one graph. Returns what the graph is built from (when the checks got that
/// far) and the diagnostics.
fn analyze<'s>(
    ast: &dyn Body<'s>,
    overrides: &Overrides,
    expansion: Option<Bindings<'_>>,
) -> (Option<Parts<'s>>, Vec<Diagnostic>) {
    if ast.len() > limits::MAX_STATEMENTS {
        let d = Diagnostic::new(
            Code::LimitExceeded,
            format!(
                "graph `{}` has {} statements; the limit is {}",
                ast.name().name,
                ast.len(),
                limits::MAX_STATEMENTS
            ),
        )
        .at(ast.name().span, "too many statements")
        .help("split the graph into several graphs");
        return (None, vec![d]);
    }
    // Counts first, so that the tables are allocated once at their final size (the
    // arguments' at one an op, the usual count).
    // Params are found here too, so that their pass reads only them.
    let (mut n_ops, mut n_decls) = (0usize, 0usize);
    for form in ast.forms() {
        match form {
            Form::Op => n_ops += 1,
            Form::Decl => n_decls += 1,
            _ => {}
        }
    }
    let n_tensors = n_ops + n_decls;
    let mut s = Sema {
        ast: Source {
            name: ast.name(),
            body: ast,
        },
        overrides,
        diags: Vec::new(),
        unreported_names: 0,
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
        intern: intern::Interner::default(),
    };
    s.params();
    s.declarations(n_ops);
    // The arguments' count is known now: no room left over for more.
    s.uses.shrink_to_fit();
    let listed_outputs = s.resolve_inputs();
    let mut bound = expansion
        .filter(|x| !x.bindings.is_empty())
        .map(|x| bindings::Bound::new(&s, x));
    // Names are resolved, and expressions evaluated: the name map and the params are not
    // needed any more.
    s.tensor_ids = NameIndex::with_capacity(0);
    s.params = FastMap::default();
    s.param_order = Vec::new();
    let (consumer_start, consumer_list, indegree) = s.consumers();
    let consumers_of = |t: usize| &consumer_list[consumer_start[t]..consumer_start[t + 1]];
    let (topo, stuck) = order::topo_sort(indegree, consumers_of, |o| s.ops[o].output);
    if !stuck.is_empty() {
        s.report_cycles(&stuck, consumers_of);
    }
    if let Some(b) = &mut bound {
        b.attach(s.ops.len(), consumers_of);
    }
    let mut flops = infer::FlopTotal::default();
    for &o in &topo {
        // An instance's arguments are checked before the first of its ops that reads them.
        if let Some(b) = &mut bound {
            for k in b.before(o.index()) {
                let c = b.check(k);
                s.check_binding(b, c);
            }
        }
        flops.add(s.infer(o.index()));
    }
    if let Some(b) = &mut bound {
        for c in b.unchecked() {
            s.check_binding(b, c);
        }
    }
    s.flop_total(flops);
    s.collective_groups();
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
        name: ast.name().name,
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

// ---- the drafts the passes fill in ----------------------------------------------------------

struct ParamInfo {
    value: Option<i64>,
    span: Span,
}

/// As large as a `Tensor` (80 bytes), which the graph's tensors are written over.
struct TensorDraft<'s> {
    name: Ident<'s>,
    shape: Option<Shape>,
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

/// An op as the checks and the checked graph need it (names borrow the source, not the
/// syntax tree). As large as an `OpNode` (120 bytes), which the graph's ops are written over.
struct OpPart<'s> {
    name: &'s str,
    func: Option<&'s str>,
    span: Span,
    attrs: IntAttrs,
    /// Scalar constants, float and list attributes (as in `OpNode`).
    extra: Option<std::sync::Arc<OpExtra>>,
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

// The build writes the graph's tensors and ops over their drafts (`build`): that needs the
// same size and alignment, else it allocates the graph beside the drafts.
const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<TensorDraft<'static>>() == size_of::<crate::graph::Tensor>());
    assert!(align_of::<TensorDraft<'static>>() == align_of::<crate::graph::Tensor>());
    assert!(size_of::<OpPart<'static>>() == size_of::<crate::graph::OpNode>());
    assert!(align_of::<OpPart<'static>>() == align_of::<crate::graph::OpNode>());
    assert!(size_of::<crate::graph::Tensor>() == 80);
    assert!(size_of::<crate::graph::OpNode>() == 120);
};

/// The arguments of op `o` in the flat argument list.
fn use_range(ops: &[OpPart<'_>], o: usize) -> Range<usize> {
    let start = match o.checked_sub(1) {
        Some(p) => ops[p].uses_end,
        None => 0,
    };
    start..ops[o].uses_end
}

/// The graph the pass reads: its name, and its statements (a parsed graph's, or made from an
/// expansion); it reads as the statements (`Deref`).
#[derive(Clone, Copy)]
struct Source<'a, 's> {
    name: Ident<'s>,
    body: &'a dyn Body<'s>,
}

impl<'a, 's> std::ops::Deref for Source<'a, 's> {
    type Target = dyn Body<'s> + 'a;
    fn deref(&self) -> &Self::Target {
        self.body
    }
}

struct Sema<'a, 's> {
    ast: Source<'a, 's>,
    overrides: &'a Overrides,
    diags: Vec<Diagnostic>,
    /// Uses of undefined tensors not recorded because `diags` was full
    /// ([`crate::limits::MAX_DIAGNOSTICS`]): counted in one diagnostic instead.
    unreported_names: usize,
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
    pending: Vec<u32>,
    outputs: Vec<Ident<'s>>,
    has_output_stmt: bool,
    /// Tensors offered by a "did you mean" help.
    suggested: FastSet<usize>,
    /// The shapes, attribute lists and extras made so far, to share equal ones.
    intern: intern::Interner,
}

/// The statement of an op, by its index in the graph's statements.
fn op_stmt<'a, 's>(ast: Source<'a, 's>, stmt: u32) -> OpRef<'a, 's> {
    OpRef::new(ast.body, stmt as usize)
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

pub(crate) use crate::units::fmt_shape;

impl<'a, 's> Sema<'a, 's> {
    /// The statement of op `o`.
    fn stmt(&self, o: usize) -> OpRef<'a, 's> {
        op_stmt(self.ast, self.ops[o].stmt)
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
