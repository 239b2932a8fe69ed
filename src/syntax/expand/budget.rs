//! The budget on expanded ops, counted before anything is expanded: the ops each block's
//! instance makes (its own ops and those of the instances it makes, recursively), memoised
//! per block and values of its header params, with saturating arithmetic, so that a tree of
//! blocks asking for 2^40 ops is counted in a few steps and reported instead of built. The
//! statements the instances would emit are counted alongside and held to
//! [`MAX_STATEMENTS`] the same way, so that instances with few ops or none (instances that
//! fail) cannot fill memory either. So are the items they would emit ([`items`]: arguments,
//! list items, expression terms, type dimensions, bound inputs), held to
//! [`MAX_EXPANDED_ITEMS`], so that a few ops each holding a thousand arguments cannot
//! either: an op costs memory by what it holds, not only by being an op.
//!
//! Repeat counts are evaluated from the params in sight, as the expansion will see them: a
//! graph's (with the overrides), and in an instance its header params (the value the
//! instantiation passes, evaluated in the caller, else the default) and its own params. A
//! count that cannot be evaluated counts once (the expansion reports it and makes nothing).
//! An instantiation inside an instance of its own block counts nothing: it is not expanded
//! (the expansion reports it). [`Budget::instance_ops`] is checked again at each
//! instantiation, before its instances are emitted.
//!
//! Counting is bounded: it visits the statements of each block once per distinct values of
//! its header params (more often only where a block instantiates itself, through others or
//! not, which is an error: such a count depends on the enclosing instances and is not
//! memoised), and every such visit stands for an instance the expansion would make. Past
//! [`MAX_STATEMENTS`] statements visited, the count stops and the graph is reported over the
//! statement limit.

use super::{Blocks, MAX_DEPTH};
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::limits::{MAX_EXPANDED_ITEMS, MAX_EXPANDED_OPS, MAX_STATEMENTS};
use crate::sema::Overrides;
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::syntax::ast::*;
use crate::types::OpKind;
use std::collections::{BTreeSet, HashMap};

/// What the instances of each block make, as counted so far.
#[derive(Default)]
pub(super) struct Budget<'s> {
    /// What one instance makes, by block and the values of its header params, where the count
    /// did not depend on the instances around it (see [`Counted::cut`]).
    memo: HashMap<(&'s str, Vec<Option<i64>>), Size>,
    /// Every block the count reached.
    reached: BTreeSet<&'s str>,
    /// Statements visited outside the memo.
    visited: usize,
    /// What one instance of each block emits besides its instances and header params
    /// ([`own`]), by block: the same for every instance.
    own: HashMap<&'s str, Size>,
}

/// The params of one body, by name, with their values where known.
pub(super) type Env<'s> = HashMap<&'s str, Option<i64>>;

pub(super) fn value(env: &Env<'_>, e: &Expr<'_>) -> Option<i64> {
    let lookup = |n: &str| match env.get(n) {
        Some(Some(v)) => Lookup::Value(*v),
        Some(None) => Lookup::Poisoned,
        None => Lookup::Unknown,
    };
    eval_expr::eval(e, &lookup, &|_| None, &mut Vec::new())
}

/// What an instance (or a body) makes once expanded: ops, statements and [`items`],
/// saturating.
#[derive(Clone, Copy, Default)]
pub(super) struct Size {
    pub(super) ops: u64,
    pub(super) stmts: u64,
    pub(super) items: u64,
}

impl Size {
    fn add(self, o: Size) -> Size {
        Size {
            ops: self.ops.saturating_add(o.ops),
            stmts: self.stmts.saturating_add(o.stmts),
            items: self.items.saturating_add(o.items),
        }
    }

    fn times(self, n: u64) -> Size {
        Size {
            ops: self.ops.saturating_mul(n),
            stmts: self.stmts.saturating_mul(n),
            items: self.items.saturating_mul(n),
        }
    }
}

/// What a body makes.
#[derive(Clone, Copy)]
struct Counted {
    size: Size,
    /// Whether an instantiation in the body (or below) was cut because it instantiates the
    /// block of an enclosing instance: the count then depends on where the instance is.
    cut: bool,
}

/// The block `st` instantiates, with its instance count (1 where not known here) and the
/// statement's arguments.
fn instantiation<'a, 's>(
    st: &'a Stmt<'s>,
    blocks: &Blocks<'a, 's>,
    env: &Env<'s>,
) -> Option<(&'a BlockAst<'s>, u64, &'a [Arg<'s>])> {
    match &st.kind {
        StmtKind::Op(op) if op.func.is_none() && OpKind::from_name(op.kind.name).is_none() => {
            blocks.get(op.kind.name).map(|b| (b, 1, op.args.as_slice()))
        }
        StmtKind::Repeat(r) => {
            let n = value(env, &r.count).map_or(1, |n| u64::try_from(n).unwrap_or(0));
            blocks.get(r.block.name).map(|b| (b, n, r.args.as_slice()))
        }
        _ => None,
    }
}

/// What an instance of `block` emits besides the instances in it and its header params:
/// statements (two `dtype` resets, its header params, and its statements but inputs (bound
/// to the caller's tensors), its `output` and its instantiations (replaced by their
/// instances)), no ops (counted by [`Budget::stmt_ops`]), and the [`items`] of the
/// statements, of the `dtype` resets and of the inputs' bindings.
fn own(block: &BlockAst<'_>, blocks: &Blocks<'_, '_>) -> Size {
    let mut size = Size {
        ops: 0,
        stmts: block.params.len() as u64 + 2,
        items: 2,
    };
    for st in block.stmts.iter() {
        let (stmt, items) = match &st.kind {
            StmtKind::Decl {
                external: ExternalKind::Input,
                ty,
                ..
            } => (0, 1 + type_items(ty)),
            StmtKind::Output(_) | StmtKind::Repeat(_) => (0, 0),
            StmtKind::Op(op)
                if op.func.is_none()
                    && OpKind::from_name(op.kind.name).is_none()
                    && blocks.get(op.kind.name).is_some() =>
            {
                (0, 0)
            }
            kind => (1, items(kind)),
        };
        size.stmts += stmt;
        size.items = size.items.saturating_add(items);
    }
    size
}

/// The items of a statement as the expansion emits it, a measure of the memory it takes in
/// the expanded graph and the semantic pass: one for the statement, and one for each tensor
/// argument, attribute, scalar, list item, expression term (literal, name, negation) and
/// type dimension it holds. A bound input of an instance counts as its declaration does.
pub(super) fn items(kind: &StmtKind<'_>) -> u64 {
    let n = match kind {
        StmtKind::Param { value, .. } => expr_items(value),
        StmtKind::Dtype(_) => 0,
        StmtKind::Decl { ty, .. } => type_items(ty),
        StmtKind::Output(names) => names.len() as u64,
        StmtKind::Op(op) => op
            .args
            .iter()
            .map(arg_items)
            .fold(op.ty.as_deref().map_or(0, type_items), u64::saturating_add),
        StmtKind::Repeat(r) => r
            .args
            .iter()
            .map(arg_items)
            .fold(expr_items(&r.count), u64::saturating_add),
        StmtKind::Assert(a) => match &a.kind {
            AssertKind::Predicate { args, .. } => args.len() as u64,
            AssertKind::Compare { value, .. } => expr_items(value),
        },
        StmtKind::Parallel(p) => p.items.iter().fold(expr_items(&p.size), |n, i| {
            n.saturating_add(match i {
                ParallelItem::Role { names, .. } => names.len() as u64,
                ParallelItem::Setting { value, .. } => expr_items(value),
            })
        }),
    };
    n.saturating_add(1)
}

/// The items of a type: the terms of its dimensions.
pub(super) fn type_items(t: &TypeAst<'_>) -> u64 {
    t.dims.iter().map(expr_items).fold(0, u64::saturating_add)
}

fn arg_items(a: &Arg<'_>) -> u64 {
    let n = match a {
        Arg::Attr { value, .. } => expr_items(value),
        Arg::Tensor(t) => t.index.as_deref().map_or(0, expr_items),
        Arg::Scalar(_) | Arg::FloatAttr { .. } => 0,
        Arg::ListAttr { items, .. } => items
            .iter()
            .map(expr_items)
            .fold(items.len() as u64, u64::saturating_add),
    };
    n.saturating_add(1)
}

/// The terms of an expression (its depth is bounded by the parser's nesting limit).
fn expr_items(e: &Expr<'_>) -> u64 {
    match e {
        Expr::Int { .. } | Expr::Name(_) | Expr::Bool { .. } => 1,
        Expr::Neg { operand, .. } => expr_items(operand).saturating_add(1),
        Expr::Chain { first, rest, .. } => rest
            .iter()
            .map(|(_, _, e)| expr_items(e))
            .fold(expr_items(first), u64::saturating_add),
    }
}

/// The items of the header params an instance of `block` made by a statement with `args`
/// emits: the value passed (an integer attribute), else the default, else none.
pub(super) fn header_items(block: &BlockAst<'_>, args: &[Arg<'_>]) -> u64 {
    block
        .params
        .iter()
        .map(|p| {
            let given = args.iter().find_map(|a| match a {
                Arg::Attr { name, value } if name.name == p.name.name => Some(value),
                _ => None,
            });
            given
                .or(p.default.as_ref())
                .map_or(0, |e| expr_items(e).saturating_add(1))
        })
        .fold(0, u64::saturating_add)
}

/// The header params of an instance of `block`: the value `args` pass (evaluated in the
/// caller's `env`), else the default, else unknown; as the expansion emits them.
pub(super) fn header_env<'s>(
    block: &BlockAst<'s>,
    given: impl Fn(&str) -> Option<Option<i64>>,
) -> Env<'s> {
    let mut env = Env::new();
    for p in &block.params {
        let v = match given(p.name.name) {
            Some(v) => v,
            None => p.default.as_ref().and_then(|d| value(&env, d)),
        };
        env.entry(p.name.name).or_insert(v);
    }
    env
}

/// The value `args` pass to header param `name`, evaluated in `env`.
fn passed(args: &[Arg<'_>], env: &Env<'_>, name: &str) -> Option<Option<i64>> {
    args.iter().find_map(|a| match a {
        Arg::Attr { name: n, value: e } if n.name == name => Some(value(env, e)),
        _ => None,
    })
}

impl<'s> Budget<'s> {
    /// What one instance of `block` makes with header params `env`, inside instances of the
    /// blocks `path` (outermost first). A block met again below itself makes nothing.
    pub(super) fn instance_ops(
        &mut self,
        blocks: &Blocks<'_, 's>,
        block: &BlockAst<'s>,
        env: Env<'s>,
        path: &mut Vec<&'s str>,
    ) -> Size {
        if path.contains(&block.name.name) {
            return Size::default();
        }
        self.block_ops(blocks, block, env, path).size
    }

    /// Whether counting stopped at the statement bound.
    pub(super) fn gave_up(&self) -> bool {
        self.visited > MAX_STATEMENTS
    }

    fn block_ops(
        &mut self,
        blocks: &Blocks<'_, 's>,
        block: &BlockAst<'s>,
        env: Env<'s>,
        path: &mut Vec<&'s str>,
    ) -> Counted {
        let name = block.name.name;
        self.reached.insert(name);
        let values = block
            .params
            .iter()
            .map(|p| env.get(p.name.name).copied().flatten())
            .collect::<Vec<_>>();
        let key = (name, values);
        if let Some(&size) = self.memo.get(&key) {
            return Counted { size, cut: false };
        }
        if path.len() > MAX_DEPTH || self.gave_up() {
            // Too deep (the expansion stops there) or too much: not memoised either.
            return Counted {
                size: Size::default(),
                cut: true,
            };
        }
        let own = *self.own.entry(name).or_insert_with(|| own(block, blocks));
        self.visited = self.visited.saturating_add(block.stmts.len() + 2);
        path.push(name);
        let mut counted = self.body_ops(blocks, &block.stmts, env, path);
        path.pop();
        counted.size = counted.size.add(own);
        if !counted.cut && !self.gave_up() {
            self.memo.insert(key, counted.size);
        }
        counted
    }

    /// What the statements `stmts` of an instance make (its params starting as `env`).
    fn body_ops(
        &mut self,
        blocks: &Blocks<'_, 's>,
        stmts: &Stmts<'s>,
        mut env: Env<'s>,
        path: &mut Vec<&'s str>,
    ) -> Counted {
        let mut total = Counted {
            size: Size::default(),
            cut: false,
        };
        for st in stmts.iter() {
            let c = self.stmt_ops(blocks, st, &mut env, path);
            total.size = total.size.add(c.size);
            total.cut |= c.cut;
        }
        total
    }

    /// What statement `st` of a body makes besides itself; a param is added to `env`.
    fn stmt_ops(
        &mut self,
        blocks: &Blocks<'_, 's>,
        st: &Stmt<'s>,
        env: &mut Env<'s>,
        path: &mut Vec<&'s str>,
    ) -> Counted {
        if let StmtKind::Param { name, value: e } = &st.kind {
            if !env.contains_key(name.name) {
                let v = value(env, e);
                env.insert(name.name, v);
            }
            return Counted {
                size: Size::default(),
                cut: false,
            };
        }
        let Some((b, n, args)) = instantiation(st, blocks, env) else {
            let ops = u64::from(matches!(st.kind, StmtKind::Op(_)));
            return Counted {
                size: Size {
                    ops,
                    ..Size::default()
                },
                cut: false,
            };
        };
        if path.contains(&b.name.name) {
            // Inside an instance of its own block: not expanded.
            return Counted {
                size: Size::default(),
                cut: true,
            };
        }
        if n == 0 {
            // No instance (the expansion reports the count).
            self.reached.insert(b.name.name);
            return Counted {
                size: Size::default(),
                cut: false,
            };
        }
        let inner = header_env(b, |p| passed(args, env, p));
        let mut c = self.block_ops(blocks, b, inner, path);
        c.size.items = c.size.items.saturating_add(header_items(b, args));
        Counted {
            size: c.size.times(n),
            cut: c.cut,
        }
    }

    /// Counts the ops of a body (a graph's, or a block's checked on its own, whose params
    /// start as `env`) before it is expanded, and its statements. Over the budget on ops, or
    /// the limit on statements, reports it at the first instantiation that crosses it and
    /// returns `false`: nothing is then expanded.
    pub(super) fn check_body(
        &mut self,
        blocks: &Blocks<'_, 's>,
        stmts: &Stmts<'s>,
        mut env: Env<'s>,
        overrides: &Overrides,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let mut total = Size {
            ops: 0,
            stmts: stmts.len() as u64,
            items: 0,
        };
        let mut crossing: Option<Span> = None;
        let mut too_many: Option<Span> = None;
        let mut too_large: Option<Span> = None;
        let mut path = Vec::new();
        for st in stmts.iter() {
            if let StmtKind::Param { name, value: e } = &st.kind
                && !env.contains_key(name.name)
            {
                let v = match overrides.get(name.name) {
                    Some(&o) => Some(o),
                    None => value(&env, e),
                };
                env.insert(name.name, v);
                total.items = total.items.saturating_add(items(&st.kind));
                continue;
            }
            if instantiation(st, blocks, &env).is_none() {
                total.items = total.items.saturating_add(items(&st.kind));
            }
            total = total.add(self.stmt_ops(blocks, st, &mut env, &mut path).size);
            if self.gave_up() {
                diags.push(too_many_statements(st.span));
                return false;
            }
            if crossing.is_none() && total.ops > MAX_EXPANDED_OPS {
                crossing = Some(st.span);
            }
            if too_many.is_none() && total.stmts > MAX_STATEMENTS as u64 {
                too_many = Some(st.span);
            }
            if too_large.is_none() && total.items > MAX_EXPANDED_ITEMS {
                too_large = Some(st.span);
            }
        }
        match (crossing, too_many, too_large) {
            (Some(at), _, _) => {
                diags.push(over_limit(at, total.ops, "this graph"));
                false
            }
            (None, Some(at), _) => {
                diags.push(too_many_statements(at));
                false
            }
            (None, None, Some(at)) => {
                diags.push(too_many_items(at, total.items));
                false
            }
            (None, None, None) => true,
        }
    }
}

impl Budget<'_> {
    /// The blocks counted so far, by name, in order.
    pub(super) fn counted(&self) -> Vec<&str> {
        self.reached.iter().copied().collect()
    }
}

/// The `limit-exceeded` diagnostic at an instantiation whose instances would make more than
/// [`MAX_STATEMENTS`] statements (found while counting the ops).
pub(super) fn too_many_statements(at: Span) -> Diagnostic {
    Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "expanding this graph would make more than {} statements, over the limit",
            grouped(MAX_STATEMENTS as u64)
        ),
    )
    .at(at, "instantiated here")
    .help("repeat fewer times or nest fewer instances, or split the model into several graphs")
}

/// `1099511627776` as `1,099,511,627,776`.
pub(super) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The `limit-exceeded` diagnostic at an instantiation that would make `total` ops.
pub(super) fn over_limit(at: Span, total: u64, what: &str) -> Diagnostic {
    over(at, (total, "ops"), MAX_EXPANDED_OPS, what)
        .help("repeat fewer times or nest fewer instances, or split the model into several graphs")
}

/// The `limit-exceeded` diagnostic at an instantiation past which the graph would hold
/// `total` [`items`].
pub(super) fn too_many_items(at: Span, total: u64) -> Diagnostic {
    let unit = "arguments and expression terms";
    over(at, (total, unit), MAX_EXPANDED_ITEMS, "this graph").help(
        "an op with many arguments or long expressions is copied into every instance: repeat \
         it fewer times, or split the model into several graphs",
    )
}

/// `expanding WHAT would make TOTAL UNIT, over the limit of LIMIT` at `at`.
fn over(at: Span, (total, unit): (u64, &str), limit: u64, what: &str) -> Diagnostic {
    let count = if total == u64::MAX {
        format!("more than {}", grouped(total))
    } else {
        grouped(total)
    };
    Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "expanding {what} would make {count} {unit}, over the limit of {}",
            grouped(limit)
        ),
    )
    .at(at, "instantiated here")
}

#[cfg(test)]
mod tests {
    #[test]
    fn grouped() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(2_097_152), "2,097,152");
        assert_eq!(super::grouped(1_099_511_627_776), "1,099,511,627,776");
    }
}
