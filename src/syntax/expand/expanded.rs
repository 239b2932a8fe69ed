//! An expanded graph as it is kept: for each statement, what it is made from (a statement of
//! the graph or of a block, a `dtype` reset around an instance, or an instance's header param)
//! and the names the renaming gave it, 32 bytes and a few names a statement. The semantic pass
//! reads it as a [`Body`]: a statement is made again from its block's statement, replaying
//! the names in the order the renaming asked for them ([`Rename`] with [`Replay`]), so it is
//! the statement the renaming made, byte for byte. The graph's own statements are borrowed.

use super::Scope;
use super::rename::{Recorder, Rename, Replay};
use super::typed::{Typed, Values};
use crate::diagnostics::Span;
use crate::syntax::ast::*;
use crate::syntax::body::{Body, Form, StmtRef};

/// An expanded graph: its statements, made on demand (see the module comment).
pub struct Expanded<'x, 's> {
    name: Ident<'s>,
    items: Vec<Item<'x, 's>>,
    /// The names of every item, in order: item `i`'s are `names[items[i].names..]` up to the
    /// next item's.
    names: Vec<&'s str>,
    /// The `dtype` statements made around instances.
    dtypes: Vec<(Ident<'s>, Span)>,
    /// The instances' header params.
    params: Vec<HeaderParam<'x, 's>>,
    /// The float and dtype params of the instances that have any (`NO_INSTANCE`: of a block
    /// checked on its own), by instance in increasing order.
    values: Vec<(u32, Values<'s>)>,
}

/// What one expanded statement is made from.
#[derive(Clone, Copy)]
enum Source<'x, 's> {
    /// A statement of the graph or of a block, renamed.
    Stmt(&'x Stmt<'s>),
    /// `dtypes[i]`.
    Dtype(u32),
    /// `params[i]`.
    Param(u32),
}

#[derive(Clone, Copy)]
struct Item<'x, 's> {
    source: Source<'x, 's>,
    /// Where its names start in `Expanded::names`.
    names: u32,
    /// The instance of an assertion (`NO_INSTANCE` for none).
    instance: u32,
    /// The shift of its spans.
    shift: usize,
}

const NO_INSTANCE: u32 = u32::MAX;

/// `param NAME = VALUE` made for an instance: the name given by the instance (with its span),
/// the value as written at the instantiation or as the block's default, renamed with the
/// item's names and shifted by `value_shift`.
struct HeaderParam<'x, 's> {
    name: Ident<'s>,
    value: &'x Expr<'s>,
    value_shift: usize,
    span: Span,
}

impl<'x, 's> Expanded<'x, 's> {
    pub(super) fn new(name: Ident<'s>, capacity: usize) -> Self {
        Expanded {
            name,
            items: Vec::with_capacity(capacity),
            names: Vec::new(),
            dtypes: Vec::new(),
            params: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Records the float and dtype params of `instance` (`None`: the block checked on its
    /// own), which its statements are made again with.
    pub(super) fn set_values(&mut self, instance: Option<usize>, values: &Values<'s>) {
        if !values.is_empty() {
            let key = instance.map_or(NO_INSTANCE, |i| i as u32);
            // Instances come in increasing order: this is a push, but for a block checked on
            // its own (`NO_INSTANCE`, the largest key, first).
            let at = self.values.partition_point(|(k, _)| *k < key);
            self.values.insert(at, (key, values.clone()));
        }
    }

    fn values_of(&self, instance: u32) -> &[(&'s str, Typed<'s>)] {
        match self.values.binary_search_by_key(&instance, |(k, _)| *k) {
            Ok(i) => &self.values[i].1,
            Err(_) => &[],
        }
    }

    /// Statements so far.
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    /// Gives back the room grown for and not used.
    pub(super) fn shrink(&mut self) {
        self.items.shrink_to_fit();
        self.names.shrink_to_fit();
        self.dtypes.shrink_to_fit();
        self.params.shrink_to_fit();
    }

    /// A statement of a body renamed into `scope`: the names are recorded (none for the
    /// graph's own statements, which are kept as written). Returns the statement as renamed.
    pub(super) fn push_stmt(
        &mut self,
        st: &'x Stmt<'s>,
        scope: &Scope<'s>,
        arena: &'s bumpalo::Bump,
    ) -> StmtRef<'x, 's> {
        let names = self.names.len() as u32;
        let made = if scope.is_identity() && scope.instance.is_none() {
            StmtRef::Borrowed(st)
        } else {
            let mut r = Rename {
                names: Recorder {
                    scope,
                    arena,
                    out: Some(&mut self.names),
                },
                shift: scope.shift,
                instance: scope.instance,
            };
            StmtRef::Made(r.stmt(st))
        };
        self.items.push(Item {
            source: Source::Stmt(st),
            names,
            instance: scope.instance.map_or(NO_INSTANCE, |i| i as u32),
            shift: scope.shift,
        });
        made
    }

    /// `dtype NAME` made around an instance.
    pub(super) fn push_dtype(&mut self, name: Ident<'s>, span: Span) -> Stmt<'s> {
        self.items.push(Item {
            source: Source::Dtype(self.dtypes.len() as u32),
            names: self.names.len() as u32,
            instance: NO_INSTANCE,
            shift: 0,
        });
        self.dtypes.push((name, span));
        Stmt {
            kind: StmtKind::Dtype(name),
            span,
        }
    }

    /// `param NAME = VALUE` made for an instance: `value` as written in `scope` (the caller's,
    /// or the instance's for a default). Returns the statement as made.
    pub(super) fn push_param(
        &mut self,
        name: Ident<'s>,
        value: &'x Expr<'s>,
        scope: &Scope<'s>,
        span: Span,
        arena: &'s bumpalo::Bump,
    ) -> Stmt<'s> {
        let names = self.names.len() as u32;
        let mut r = Rename {
            names: Recorder {
                scope,
                arena,
                out: Some(&mut self.names),
            },
            shift: scope.shift,
            instance: None,
        };
        let renamed = r.expr(value);
        self.items.push(Item {
            source: Source::Param(self.params.len() as u32),
            names,
            instance: NO_INSTANCE,
            shift: 0,
        });
        self.params.push(HeaderParam {
            name,
            value,
            value_shift: scope.shift,
            span,
        });
        Stmt {
            kind: StmtKind::Param {
                name,
                value: Box::new(renamed),
            },
            span,
        }
    }

    /// The names of item `i`.
    fn names_of(&self, i: usize) -> &[&'s str] {
        let start = self.items[i].names as usize;
        let end = self
            .items
            .get(i + 1)
            .map_or(self.names.len(), |n| n.names as usize);
        &self.names[start..end]
    }

    fn replay<'n>(
        &'n self,
        names: &'n [&'s str],
        shift: usize,
        instance: u32,
    ) -> Rename<Replay<'n, 's>> {
        Rename {
            names: Replay(names.iter(), self.values_of(instance)),
            shift,
            instance: (instance != NO_INSTANCE).then_some(instance as usize),
        }
    }

    /// Statement `i`, made again.
    fn make(&self, i: usize) -> StmtRef<'_, 's> {
        let item = self.items[i];
        let names = self.names_of(i);
        match item.source {
            Source::Stmt(st) => {
                // What renaming would not change is borrowed: no names, no shift, and no
                // assertion to tell its instance.
                let assertion = matches!(st.kind, StmtKind::Assert(_));
                if names.is_empty()
                    && item.shift == 0
                    && (item.instance == NO_INSTANCE || !assertion)
                    && self.values_of(item.instance).is_empty()
                {
                    StmtRef::Borrowed(st)
                } else {
                    StmtRef::Made(self.replay(names, item.shift, item.instance).stmt(st))
                }
            }
            Source::Dtype(k) => {
                let (name, span) = self.dtypes[k as usize];
                StmtRef::Made(Stmt {
                    kind: StmtKind::Dtype(name),
                    span,
                })
            }
            Source::Param(k) => {
                let p = &self.params[k as usize];
                let value = Rename {
                    names: Replay(names.iter(), &[]),
                    shift: p.value_shift,
                    instance: None,
                }
                .expr(p.value);
                StmtRef::Made(Stmt {
                    kind: StmtKind::Param {
                        name: p.name,
                        value: Box::new(value),
                    },
                    span: p.span,
                })
            }
        }
    }
}

impl<'s> Body<'s> for Expanded<'_, 's> {
    fn name(&self) -> Ident<'s> {
        self.name
    }
    fn len(&self) -> usize {
        self.items.len()
    }
    fn stmt(&self, i: usize) -> StmtRef<'_, 's> {
        self.make(i)
    }
    fn stmts(&self) -> Box<dyn Iterator<Item = StmtRef<'_, 's>> + Send + '_> {
        Box::new((0..self.items.len()).map(|i| self.make(i)))
    }
    fn forms(&self) -> Box<dyn Iterator<Item = Form> + Send + '_> {
        Box::new(self.items.iter().map(|item| match item.source {
            Source::Stmt(st) => Form::of(&st.kind),
            Source::Dtype(_) => Form::Dtype,
            Source::Param(_) => Form::Param,
        }))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_item_is_four_words() {
        assert_eq!(std::mem::size_of::<super::Item<'_, '_>>(), 32);
    }
}
