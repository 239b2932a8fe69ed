//! The statements of one graph as the semantic pass reads them ([`Body`]): a parsed graph's
//! ([`GraphAst`], each statement borrowed), or an expanded graph's
//! ([`crate::syntax::expand::Expanded`]), whose instances' statements are made on demand from
//! their blocks' (a million-op model is never held as a million statements).

use super::ast::{GraphAst, Ident, OpStmt, Stmt, StmtKind};
use std::cell::OnceCell;
use std::ops::Deref;

/// One statement: borrowed from a tree, or made for the caller (an instance's). A made
/// statement is held in place: making one allocates nothing more than its own parts.
#[allow(clippy::large_enum_variant)]
pub enum StmtRef<'b, 's> {
    Borrowed(&'b Stmt<'s>),
    Made(Stmt<'s>),
}

impl<'s> Deref for StmtRef<'_, 's> {
    type Target = Stmt<'s>;
    fn deref(&self) -> &Stmt<'s> {
        match self {
            StmtRef::Borrowed(s) => s,
            StmtRef::Made(s) => s,
        }
    }
}

/// Op statement `index` of a body, made when first read (the semantic pass hands one to
/// each op's shape rule, which most kinds never read).
pub struct OpRef<'b, 's> {
    body: &'b dyn Body<'s>,
    index: usize,
    made: OnceCell<StmtRef<'b, 's>>,
}

impl<'b, 's> OpRef<'b, 's> {
    /// Statement `index` of `body`, which must be an op (the semantic pass makes an op of
    /// each op statement, and of nothing else).
    pub fn new(body: &'b dyn Body<'s>, index: usize) -> Self {
        OpRef {
            body,
            index,
            made: OnceCell::new(),
        }
    }
}

impl<'s> Deref for OpRef<'_, 's> {
    type Target = OpStmt<'s>;
    fn deref(&self) -> &OpStmt<'s> {
        match &self.made.get_or_init(|| self.body.stmt(self.index)).kind {
            StmtKind::Op(op) => op,
            _ => unreachable!("ops are declared from op statements"),
        }
    }
}

/// What a statement is, known without making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Param,
    Dtype,
    Decl,
    Output,
    Op,
    Repeat,
    Assert,
    Parallel,
}

impl Form {
    pub fn of(kind: &StmtKind<'_>) -> Form {
        match kind {
            StmtKind::Param { .. } => Form::Param,
            StmtKind::Dtype(_) => Form::Dtype,
            StmtKind::Decl { .. } => Form::Decl,
            StmtKind::Output(_) => Form::Output,
            StmtKind::Op(_) => Form::Op,
            StmtKind::Repeat(_) => Form::Repeat,
            StmtKind::Assert(_) => Form::Assert,
            StmtKind::Parallel(_) => Form::Parallel,
        }
    }
}

/// The statements of one graph, in order.
pub trait Body<'s>: Sync {
    /// The graph's name.
    fn name(&self) -> Ident<'s>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Statement `i` (`i < len()`).
    fn stmt(&self, i: usize) -> StmtRef<'_, 's>;
    /// Every statement, in order.
    fn stmts(&self) -> Box<dyn Iterator<Item = StmtRef<'_, 's>> + Send + '_>;
    /// What each statement is, in order, without making any.
    fn forms(&self) -> Box<dyn Iterator<Item = Form> + Send + '_>;
    /// The statements of the forms in `forms`, with their indices, in order: the others are
    /// not made.
    fn select<'b>(
        &'b self,
        forms: &'b [Form],
    ) -> Box<dyn Iterator<Item = (usize, StmtRef<'b, 's>)> + Send + 'b> {
        Box::new(
            self.forms()
                .enumerate()
                .filter(|(_, f)| forms.contains(f))
                .map(|(i, _)| (i, self.stmt(i))),
        )
    }
}

impl<'s> Body<'s> for GraphAst<'s> {
    fn name(&self) -> Ident<'s> {
        self.name
    }
    fn len(&self) -> usize {
        self.stmts.len()
    }
    fn stmt(&self, i: usize) -> StmtRef<'_, 's> {
        StmtRef::Borrowed(&self.stmts[i])
    }
    fn stmts(&self) -> Box<dyn Iterator<Item = StmtRef<'_, 's>> + Send + '_> {
        Box::new(self.stmts.iter().map(StmtRef::Borrowed))
    }
    fn forms(&self) -> Box<dyn Iterator<Item = Form> + Send + '_> {
        Box::new(self.stmts.iter().map(|st| Form::of(&st.kind)))
    }
    fn select<'b>(
        &'b self,
        forms: &'b [Form],
    ) -> Box<dyn Iterator<Item = (usize, StmtRef<'b, 's>)> + Send + 'b> {
        Box::new(
            self.stmts
                .iter()
                .enumerate()
                .filter(|(_, st)| forms.contains(&Form::of(&st.kind)))
                .map(|(i, st)| (i, StmtRef::Borrowed(st))),
        )
    }
}
