//! The budget on expanded ops, counted before anything is expanded: the ops each block's
//! instance makes (its own ops and those of the instances it makes, recursively), memoised
//! per block and values of its header params, with saturating arithmetic, so that a tree of
//! blocks asking for 2^40 ops is counted in a few steps and reported instead of built. The
//! statements the instances would emit are counted alongside and held to
//! [`MAX_STATEMENTS`] the same way, so that instances with few ops or none (instances that
//! fail) cannot fill memory either.
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
use crate::limits::{MAX_EXPANDED_OPS, MAX_STATEMENTS};
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

/// What an instance (or a body) makes once expanded: ops and statements, saturating.
#[derive(Clone, Copy, Default)]
pub(super) struct Size {
    pub(super) ops: u64,
    pub(super) stmts: u64,
}

impl Size {
    fn add(self, o: Size) -> Size {
        Size {
            ops: self.ops.saturating_add(o.ops),
            stmts: self.stmts.saturating_add(o.stmts),
        }
    }

    fn times(self, n: u64) -> Size {
        Size {
            ops: self.ops.saturating_mul(n),
            stmts: self.stmts.saturating_mul(n),
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

/// The statements an instance of `block` emits besides those of the instances in it: two
/// `dtype` resets, its header params, and its statements but inputs (bound to the caller's
/// tensors), its `output` and its instantiations (replaced by their instances).
fn emitted(block: &BlockAst<'_>, blocks: &Blocks<'_, '_>) -> usize {
    let own = block
        .stmts
        .iter()
        .filter(|st| match &st.kind {
            StmtKind::Decl {
                external: ExternalKind::Input,
                ..
            }
            | StmtKind::Output(_)
            | StmtKind::Repeat(_) => false,
            StmtKind::Op(op) => {
                op.func.is_some()
                    || OpKind::from_name(op.kind.name).is_some()
                    || blocks.get(op.kind.name).is_none()
            }
            _ => true,
        })
        .count();
    own + block.params.len() + 2
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
        let own = emitted(block, blocks);
        self.visited = self.visited.saturating_add(block.stmts.len() + 2);
        path.push(name);
        let mut counted = self.body_ops(blocks, &block.stmts, env, path);
        path.pop();
        counted.size.stmts = counted.size.stmts.saturating_add(own as u64);
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
                size: Size { ops, stmts: 0 },
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
        let c = self.block_ops(blocks, b, inner, path);
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
        };
        let mut crossing: Option<Span> = None;
        let mut too_many: Option<Span> = None;
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
                continue;
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
        }
        match (crossing, too_many) {
            (Some(at), _) => {
                diags.push(over_limit(at, total.ops, "this graph"));
                false
            }
            (None, Some(at)) => {
                diags.push(too_many_statements(at));
                false
            }
            (None, None) => true,
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
    let count = if total == u64::MAX {
        format!("more than {}", grouped(total))
    } else {
        grouped(total)
    };
    Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "expanding {what} would make {count} ops, over the limit of {}",
            grouped(MAX_EXPANDED_OPS)
        ),
    )
    .at(at, "instantiated here")
    .help("repeat fewer times or nest fewer instances, or split the model into several graphs")
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
