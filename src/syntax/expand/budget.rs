//! The budget on expanded ops, counted before anything is expanded: the ops each block's
//! instance makes (its own ops and those of the instances it makes, recursively), memoised
//! per block with saturating arithmetic, so that a tree of blocks asking for 2^40 ops is
//! counted in a few steps and reported instead of built.
//!
//! Repeat counts are evaluated from the params in sight: a graph's (with the overrides), a
//! block's header defaults and its own params. A count that cannot be evaluated here counts
//! once, and [`Budget::ops`] is checked again at each instantiation, with its real count,
//! before its instances are emitted.

use super::{Blocks, MAX_DEPTH};
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::limits::MAX_EXPANDED_OPS;
use crate::sema::Overrides;
use crate::sema::expr::{self as eval_expr, Lookup};
use crate::syntax::ast::*;
use crate::types::OpKind;
use std::collections::HashMap;

/// Ops per instance of each block, as counted so far.
#[derive(Default)]
pub(super) struct Budget<'s> {
    memo: HashMap<&'s str, u64>,
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

/// The block `st` instantiates, with its instance count (1 where not known here).
fn instantiation<'a, 's>(
    st: &Stmt<'s>,
    blocks: &Blocks<'a, 's>,
    env: &Env<'s>,
) -> Option<(&'a BlockAst<'s>, u64)> {
    match &st.kind {
        StmtKind::Op(op) if op.func.is_none() && OpKind::from_name(op.kind.name).is_none() => {
            blocks.get(op.kind.name).map(|b| (b, 1))
        }
        StmtKind::Repeat(r) => {
            let n = value(env, &r.count).map_or(1, |n| u64::try_from(n).unwrap_or(0));
            blocks.get(r.block.name).map(|b| (b, n))
        }
        _ => None,
    }
}

impl<'s> Budget<'s> {
    /// The ops one instance of `block` makes. A block met again below itself counts nothing
    /// more (recursion and depth are reported by the expander).
    pub(super) fn ops(&mut self, blocks: &Blocks<'_, 's>, block: &BlockAst<'s>) -> u64 {
        self.block_ops(blocks, block, 0)
    }

    fn block_ops(&mut self, blocks: &Blocks<'_, 's>, block: &BlockAst<'s>, depth: usize) -> u64 {
        if let Some(&n) = self.memo.get(block.name.name) {
            return n;
        }
        if depth > MAX_DEPTH {
            return 0;
        }
        // While it is counted, a block counts nothing (recursion).
        self.memo.insert(block.name.name, 0);
        let mut env = Env::new();
        for p in &block.params {
            let v = p.default.as_ref().and_then(|d| value(&env, d));
            env.insert(p.name.name, v);
        }
        let mut total = 0u64;
        for st in block.stmts.iter() {
            total = total.saturating_add(self.stmt_ops(blocks, st, &mut env, depth));
        }
        self.memo.insert(block.name.name, total);
        total
    }

    /// The ops statement `st` of a body makes; a param is added to `env`.
    fn stmt_ops(
        &mut self,
        blocks: &Blocks<'_, 's>,
        st: &Stmt<'s>,
        env: &mut Env<'s>,
        depth: usize,
    ) -> u64 {
        if let StmtKind::Param { name, value: e } = &st.kind {
            if !env.contains_key(name.name) {
                let v = value(env, e);
                env.insert(name.name, v);
            }
            return 0;
        }
        match instantiation(st, blocks, env) {
            Some((b, n)) => n.saturating_mul(self.block_ops(blocks, b, depth + 1)),
            None => u64::from(matches!(st.kind, StmtKind::Op(_))),
        }
    }

    /// Counts the ops of a body (a graph's, or a block's checked on its own, whose params
    /// start as `env`) before it is expanded. Over the limit, reports it at the first
    /// instantiation that crosses it and returns `false`: nothing is then expanded.
    pub(super) fn check_body(
        &mut self,
        blocks: &Blocks<'_, 's>,
        stmts: &Stmts<'s>,
        mut env: Env<'s>,
        overrides: &Overrides,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let mut total = 0u64;
        let mut crossing: Option<Span> = None;
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
            total = total.saturating_add(self.stmt_ops(blocks, st, &mut env, 0));
            if crossing.is_none() && total > MAX_EXPANDED_OPS {
                crossing = Some(st.span);
            }
        }
        match crossing {
            Some(at) => {
                diags.push(over_limit(at, total, "this graph"));
                false
            }
            None => true,
        }
    }
}

impl Budget<'_> {
    /// The blocks counted so far, by name, in order.
    pub(super) fn counted(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.memo.keys().copied().collect();
        names.sort_unstable();
        names
    }
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
