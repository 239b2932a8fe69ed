//! Name resolution: the name tables of a graph (tensors and ops, each name by its first
//! definition), built apart from the declarations (on a second thread for a large graph);
//! the tensor arguments left unresolved while declaring, resolved with their diagnostics
//! ("undefined tensor", with a "did you mean" fix, negative view indices); and the tensors of
//! the `output` statements.

use super::{BAD_INDEX, FastMap, NO_INDEX, NO_TENSOR, Sema, UseDraft, rename_fix, use_range};
use crate::diagnostics::{Code, Diagnostic, Span, did_you_mean};
use crate::graph::TensorId;
use crate::syntax::ast::{Arg, Ident, StmtKind};
use crate::syntax::body::{Body, Form};
use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::BuildHasher;

/// Names of tensors or ops, each stored as the index of its first definition: 5 bytes a
/// slot (index and control byte) where a `(&str, id)` map entry takes 25.
pub(super) struct NameIndex {
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl NameIndex {
    pub(super) fn with_capacity(n: usize) -> NameIndex {
        NameIndex {
            table: HashTable::with_capacity(n),
            hasher: DefaultHashBuilder::default(),
        }
    }

    /// The index defining `name`; `name_of` gives the name of an index.
    pub(super) fn get<'n>(&self, name: &str, name_of: impl Fn(u32) -> &'n str) -> Option<u32> {
        let h = self.hasher.hash_one(name);
        self.table.find(h, |&i| name_of(i) == name).copied()
    }

    /// Adds `id` as the definition of `name`, unless `name` has one: then returns that.
    pub(super) fn insert<'n>(
        &mut self,
        name: &str,
        id: u32,
        name_of: impl Fn(u32) -> &'n str,
    ) -> Option<u32> {
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

    pub(super) fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.table.iter().copied()
    }
}

/// What the name tables say about a graph's definitions.
pub(super) struct Names {
    /// Each tensor name, as the id of its first definition.
    pub(super) tensor_ids: NameIndex,
    /// Each tensor (by id) whose name an earlier tensor has, with that first tensor and the
    /// statement that defines it again.
    pub(super) tensors_twice: Vec<(u32, u32, u32)>,
    /// Each op (by index) whose name an earlier op has, with that first op.
    pub(super) ops_twice: Vec<(u32, u32)>,
}

/// The name tables of a graph. Tensors are numbered as `Sema::new_tensor` numbers them: one
/// per declaration and per op output, in statement order.
pub(super) fn name_tables(ast: &dyn Body<'_>, n_ops: usize, n_tensors: usize) -> Names {
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
    names.extend(
        ast.select(&[Form::Op])
            .filter_map(|(_, st)| match &st.kind {
                StmtKind::Op(op) => Some(op.name.name),
                _ => None,
            }),
    );
    let mut ops_twice = Vec::new();
    drop(table(&names, &mut ops_twice));
    names.clear();
    let mut stmt_of = Vec::with_capacity(n_tensors);
    for (i, st) in ast.select(&[Form::Op, Form::Decl]) {
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

impl<'a, 's> Sema<'a, 's> {
    /// Resolves tensor arguments (which may name tensors defined further down) and checks
    /// arity. Returns the tensors of the `output` statements, each once, if there are any.
    pub(super) fn resolve_inputs(&mut self) -> Option<Vec<TensorId>> {
        let pending = std::mem::take(&mut self.pending);
        for o in pending {
            let o = o as usize;
            let mut poisoned = self.resolve_args(o);
            poisoned |= self.check_arity(o);
            self.ops[o].poisoned |= poisoned;
        }
        if self.unreported_names > 0 {
            let n = self.unreported_names;
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "{n} more uses of undefined tensors in graph `{}` are not reported: \
                         the limit is {} diagnostics",
                        self.ast.name().name,
                        crate::limits::MAX_DIAGNOSTICS
                    ),
                )
                .at(
                    self.ast.name().span,
                    "this graph has too many undefined names",
                )
                .help("fix the names reported first, then check again"),
            );
        }
        self.listed_outputs()
    }

    /// Resolves the arguments of op `o` left unresolved while it was declared, reporting
    /// undefined tensors and negative view indices. `true` if any of them failed.
    fn resolve_args(&mut self, o: usize) -> bool {
        let stmt = self.stmt(o);
        let start = use_range(&self.ops, o).start;
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
        poisoned
    }

    /// The tensors of the `output` statements, each once (a repeat is reported), if there
    /// are any `output` statements.
    fn listed_outputs(&mut self) -> Option<Vec<TensorId>> {
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
        if self.diags.len() >= crate::limits::MAX_DIAGNOSTICS {
            self.unreported_names += 1;
            return None;
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
}
