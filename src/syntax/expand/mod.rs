//! Blocks and repeats: every instantiation of a block is replaced by the statements it stands
//! for, before the semantic pass, so that shapes, fusion, traffic, cost and diagnostics are
//! exactly those of the graph written out by hand.
//!
//! An instance's names are its path and the block's name: op `q_proj` of the fourth layer of
//! `repeat 32 layers = decoder(..)` is `layers.3.q_proj`, as PyTorch names modules. A block's
//! inputs are bound to the instantiation's tensor arguments (the names are substituted; the
//! declared type is checked against the argument once the graph is built, see
//! [`Binding`]), its header parameters to the instantiation's attributes or their defaults, and
//! its output to the name after `->`. Weights are declared once per instance. The statements
//! keep the spans of the block's source, so a diagnostic about an instance points into the
//! block; [`Expansion::attribute`] then names the instantiation that produced it and turns
//! instance names back into the block's own (rustc's "in this macro invocation").
//!
//! The expanded graph is not held as statements: [`Expanded`] keeps, for each statement, the
//! block statement it comes from and the names the renaming gave it (a few words, where a
//! statement takes hundreds of bytes), and makes the statement again when the semantic pass
//! reads it ([`crate::syntax::body::Body`]). Names made here live in an arena that outlives
//! the syntax tree (`bumpalo`), each once per instance; everything else borrows the source as
//! the parser's tree does.
//!
//! | module | owns |
//! |---|---|
//! | here | the results ([`Instance`], [`Expansion`], [`Expanded`]; [`Binding`] is the semantic pass's), [`expand`], [`standalone`], and the expander's state |
//! | `blocks` | [`Blocks`]: the blocks a file can instantiate, and the checks of each definition |
//! | `emit` | emitting a body's statements in a scope, and the params' values seen so far |
//! | `expanded` | [`Expanded`]: what is kept of each expanded statement, and making it again |
//! | `rename` | renaming names and shifting spans of statements, expressions, types and arguments, recording the names or replaying them |
//! | `calls` | the two instantiating statements (`op x = block(..)`, `repeat N x = block(..)`) and the record of those not expanded |
//! | `instantiate` | checking an instantiation against its block and emitting its instances |
//! | `budget` | the budget on expanded ops, counted from the block tree before expanding |
//! | `attribute` | diagnostics about instances: block names back, instantiation labels, one report per instantiation |
//! | `typed` | header params of every type (integer, float, dtype): their types, their misuses, the values an instantiation gives |

mod attribute;
mod blocks;
mod budget;
mod calls;
mod emit;
mod expanded;
mod instantiate;
mod rename;
mod typed;

pub use crate::sema::{Binding, BindingKind};
pub use attribute::instantiations;
pub use blocks::Blocks;
pub use expanded::Expanded;

use super::ast::*;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::sema::Overrides;
use crate::types::OpKind;
use std::cell::RefCell;
use std::collections::HashMap;

/// One instance of a block in an expanded graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// `layers.3`, `attn`, `layers.3.attn`: the prefix of its ops' and tensors' names.
    pub path: String,
    pub block: String,
    /// The instantiating statement (an `op` or a `repeat`).
    pub call: Span,
    /// Its position in a repeat.
    pub index: Option<u64>,
    /// The instance this one is part of (nested blocks).
    pub parent: Option<usize>,
    /// The block's definition, from `block` to its `}`.
    pub block_span: Span,
    /// Its ops, as indices into the graph's ops in source order (`OpId`s).
    pub ops: std::ops::Range<usize>,
    /// The name of its output in the expanded graph (the caller's name for the last instance
    /// of a repeat and for an `op` instance).
    pub output: String,
}

/// What expansion learned about one graph.
#[derive(Debug, Default)]
pub struct Expansion {
    pub instances: Vec<Instance>,
    pub bindings: Vec<Binding>,
    /// Tensor arguments and outputs of instantiations that could not be expanded.
    pub unexpanded_args: Vec<String>,
    pub unexpanded_outputs: Vec<String>,
    /// Over the budget on expanded ops nothing is expanded: the blocks the count reached, by
    /// name, which count as instantiated (they are not checked again on their own).
    pub counted: Vec<String>,
    /// The items of the expanded statements and bound inputs, as the budget counts them
    /// (`limits::MAX_EXPANDED_ITEMS`).
    pub items: u64,
}

/// Whether a graph instantiates anything (else it is analysed as parsed).
pub fn has_instances(g: &GraphAst<'_>, blocks: &Blocks<'_, '_>) -> bool {
    g.stmts.iter().any(|st| match &st.kind {
        StmtKind::Repeat(_) => true,
        StmtKind::Op(op) => {
            op.func.is_none()
                && OpKind::from_name(op.kind.name).is_none()
                && (blocks.get(op.kind.name).is_some() || blocks.lost(op.kind.name))
        }
        _ => false,
    })
}

/// The deepest nesting of blocks inside blocks.
const MAX_DEPTH: usize = 64;

/// Replaces every instantiation in `g` by its statements. Errors at instantiations are added
/// to `diags`; the statements of an instantiation that cannot be expanded are left out (its
/// output then is undefined, which the semantic pass does not report twice: see
/// [`Expansion::attribute`]).
pub fn expand<'x, 's>(
    g: &'x GraphAst<'s>,
    blocks: &Blocks<'x, 's>,
    arena: &'s bumpalo::Bump,
    overrides: &Overrides,
    diags: &mut Vec<Diagnostic>,
) -> (Expanded<'x, 's>, Expansion) {
    let mut x = Expander::new(blocks, arena, diags, overrides, g.name, g.stmts.len());
    x.over_budget = !x
        .budget
        .check_body(blocks, &g.stmts, budget::Env::new(), overrides, x.diags);
    let mut dtype = None;
    let none = Scope::graph();
    for st in g.stmts.iter() {
        if x.failed {
            break;
        }
        x.statement(st, &none, &mut dtype, 0);
    }
    if x.over_budget {
        x.info.counted = x.budget.counted().into_iter().map(str::to_string).collect();
    }
    x.finish()
}

/// A block of the checked file that no graph instantiates, as a graph of its own, so that a
/// library of blocks is checked too: its header params with a default become params, its
/// inputs stay inputs, and nested instantiations are expanded. The caller drops what only
/// says that a required param has no value (see [`standalone_noise`]).
pub fn standalone<'x, 's>(
    block: &'x BlockAst<'s>,
    blocks: &Blocks<'x, 's>,
    arena: &'s bumpalo::Bump,
    diags: &mut Vec<Diagnostic>,
) -> (Expanded<'x, 's>, Expansion) {
    let overrides = Overrides::new();
    let n = block.stmts.len() + block.params.len();
    let mut x = Expander::new(blocks, arena, diags, &overrides, block.name, n);
    let mut env = budget::Env::new();
    for p in &block.params {
        let v = p.default.as_ref().and_then(|d| budget::value(&env, d));
        env.insert(p.name.name, v);
    }
    x.over_budget = !x
        .budget
        .check_body(blocks, &block.stmts, env, &overrides, x.diags);
    let mut scope = Scope::graph();
    // A block whose params are used as other types was reported where it was added: its
    // body would only say so again.
    let broken = blocks.is_broken(block.name.name);
    let (types, _) = typed::param_types(block);
    for (p, &t) in block.params.iter().zip(&types) {
        match (t, &p.default) {
            (typed::ParamType::Int, Some(d)) => {
                x.header_param(p.name, d, &scope, p.name.span.to(d.span()));
            }
            _ => {
                if let Some(v) = typed::default_value(p, t, &scope.values) {
                    scope.values.push((p.name.name, v));
                }
            }
        }
    }
    x.out.set_values(None, &scope.values);
    let mut dtype = None;
    for st in block.stmts.iter() {
        if x.failed || broken {
            break;
        }
        x.statement(st, &scope, &mut dtype, 0);
    }
    if x.over_budget {
        x.info.counted = x.budget.counted().into_iter().map(str::to_string).collect();
    }
    x.finish()
}

/// What checking a block on its own says only because it is on its own: a required header
/// param has no value (nor one whose default is its name: `m = c`), and an input is unused
/// (reported once by [`Blocks::add`]).
pub fn standalone_noise(block: &BlockAst<'_>, d: &Diagnostic) -> bool {
    let names = |n: &str| d.message.contains(&format!("`{n}`"));
    let mut valueless: Vec<&str> = Vec::new();
    for p in &block.params {
        let from_valueless =
            matches!(&p.default, Some(Expr::Name(id)) if valueless.contains(&id.name));
        if p.required() || from_valueless {
            valueless.push(p.name.name);
        }
    }
    match d.code {
        Code::UndefinedParam | Code::UnknownDtype => valueless.iter().any(|n| names(n)),
        Code::UnusedTensor => block.stmts.iter().any(|st| {
            matches!(&st.kind, StmtKind::Decl { external: ExternalKind::Input, name, .. } if names(name.name))
        }),
        _ => false,
    }
}

/// How the names of one body (a graph's or an instance's) are renamed.
struct Scope<'s> {
    /// `layers.3.`, or empty for the graph itself.
    prefix: &'s str,
    /// Block-local names bound to something else: inputs to the caller's tensors, the output
    /// to the caller's name.
    bound: HashMap<&'s str, &'s str>,
    /// Index of the instance in `Expansion::instances`.
    instance: Option<usize>,
    /// Added to every span of the body: an imported file's place after the importing file's
    /// text (see [`Blocks::add`]).
    shift: usize,
    /// The prefixed names made so far: each is made once per instance.
    made: RefCell<HashMap<&'s str, &'s str>>,
    /// The values of the block's float and dtype params, substituted where they are used.
    values: typed::Values<'s>,
}

impl<'s> Scope<'s> {
    fn graph() -> Self {
        Scope {
            prefix: "",
            bound: HashMap::new(),
            instance: None,
            shift: 0,
            made: RefCell::default(),
            values: Vec::new(),
        }
    }
    fn span(&self, s: Span) -> Span {
        Span::new(s.start + self.shift, s.end + self.shift)
    }
    /// Whether renaming into this scope changes nothing (the graph's own statements).
    fn is_identity(&self) -> bool {
        self.prefix.is_empty() && self.bound.is_empty() && self.shift == 0 && self.values.is_empty()
    }
    /// `name` with the scope's prefix, made in `arena` the first time.
    fn prefixed(&self, arena: &'s bumpalo::Bump, name: &'s str) -> &'s str {
        if self.prefix.is_empty() {
            return name;
        }
        let mut made = self.made.borrow_mut();
        if let Some(&full) = made.get(name) {
            return full;
        }
        let mut s = String::with_capacity(self.prefix.len() + name.len());
        s.push_str(self.prefix);
        s.push_str(name);
        let full = arena.alloc_str(&s);
        made.insert(name, full);
        full
    }
}

struct Expander<'a, 'x, 's> {
    blocks: &'a Blocks<'x, 's>,
    arena: &'s bumpalo::Bump,
    diags: &'a mut Vec<Diagnostic>,
    /// The expanded statements so far.
    out: Expanded<'x, 's>,
    /// Ops emitted so far (the next op's `OpId`).
    ops: usize,
    info: Expansion,
    /// Every param emitted so far, by its full name, with its value where it has one: repeat
    /// counts are evaluated here, before the semantic pass.
    env: HashMap<&'s str, Option<i64>>,
    overrides: &'a Overrides,
    /// A limit was hit: nothing more is expanded.
    failed: bool,
    /// Ops per instance of each block, counted before expanding.
    budget: budget::Budget<'s>,
    /// The whole body would exceed the budget on expanded ops: no instantiation is expanded.
    over_budget: bool,
}

impl<'a, 'x, 's> Expander<'a, 'x, 's> {
    fn new(
        blocks: &'a Blocks<'x, 's>,
        arena: &'s bumpalo::Bump,
        diags: &'a mut Vec<Diagnostic>,
        overrides: &'a Overrides,
        name: Ident<'s>,
        capacity: usize,
    ) -> Self {
        Expander {
            blocks,
            arena,
            diags,
            out: Expanded::new(name, capacity),
            ops: 0,
            info: Expansion::default(),
            env: HashMap::new(),
            overrides,
            failed: false,
            budget: budget::Budget::default(),
            over_budget: false,
        }
    }

    fn finish(mut self) -> (Expanded<'x, 's>, Expansion) {
        self.out.shrink();
        (self.out, self.info)
    }
}

/// One instantiation: `op name = block(args) -> output` or `repeat N name = ...`.
struct Call<'x, 's> {
    name: &'x Ident<'s>,
    block: &'x BlockAst<'s>,
    args: &'x [Arg<'s>],
    output: &'x Ident<'s>,
    span: Span,
    /// A repeat's count and the count's span.
    count: Option<(u64, Span)>,
}
