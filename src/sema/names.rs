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
        // Op names, built at the first undefined name (an op's name where its output belongs).
        let mut op_names = None;
        for o in pending {
            let o = o as usize;
            let mut poisoned = self.resolve_args(o, &mut op_names);
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
        self.listed_outputs(&mut op_names)
    }

    /// Resolves the arguments of op `o` left unresolved while it was declared, reporting
    /// undefined tensors and negative view indices. `true` if any of them failed.
    fn resolve_args(&mut self, o: usize, op_names: &mut Option<NameIndex>) -> bool {
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
            let tensor = self.lookup_tensor(&t.name, op_names, Some(o));
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
    fn listed_outputs(&mut self, op_names: &mut Option<NameIndex>) -> Option<Vec<TensorId>> {
        let names = std::mem::take(&mut self.outputs);
        let mut listed: Vec<TensorId> = Vec::new();
        // Where each output was first listed.
        let mut seen: FastMap<TensorId, Span> = FastMap::default();
        for id in &names {
            let Some(t) = self.lookup_tensor(id, op_names, None) else {
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

    /// The tensor `name` names, or its diagnostic: an op's name where its output belongs
    /// suggests that output; otherwise the nearest tensor name, of the rank the position
    /// needs where that can be told (`use_in`: the op whose argument it is).
    fn lookup_tensor(
        &mut self,
        name: &Ident<'s>,
        op_names: &mut Option<NameIndex>,
        use_in: Option<usize>,
    ) -> Option<TensorId> {
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
        .at(name.span, self.not_defined_label(name.name));
        let ops = &self.ops;
        let op = op_names
            .get_or_insert_with(|| {
                let mut index = NameIndex::with_capacity(ops.len());
                for (i, op) in ops.iter().enumerate() {
                    // Ops are at most `MAX_STATEMENTS` (2^24): indices fit in u32.
                    index.insert(op.name, i as u32, |k| ops[k as usize].name);
                }
                index
            })
            .get(name.name, |k| ops[k as usize].name);
        let suggestion = match op {
            Some(op) => {
                let t = self.ops[op as usize].output.index();
                let out = self.tensors[t].name.name;
                Some((
                    t,
                    format!("`{}` is an op; its output is `{out}`", name.name),
                ))
            }
            None => self.nearest_tensor(name.name, use_in).map(|t| {
                let s = self.tensors[t].name.name;
                (t, format!("did you mean `{s}`?"))
            }),
        };
        d = match suggestion {
            Some((t, help)) => {
                let s = self.tensors[t].name;
                self.suggested.insert(t);
                d.with(s.span, format!("`{}` is defined here", s.name))
                    .help(help)
                    .fix(rename_fix(name, s.name))
            }
            None => d.help(format!(
                "declare it (`input {}: [..]`) or produce it with an op (`-> {}`)",
                name.name, name.name
            )),
        };
        self.diags.push(d);
        None
    }

    /// Where an undefined name was looked for: its graph, or the block of the instance it
    /// was written in (an instance's names are its path, dotted, then the name as written:
    /// no name written in a file has a dot).
    fn not_defined_label(&self, name: &str) -> String {
        if name.contains('.') {
            "not defined in this block".to_string()
        } else {
            format!("not defined in graph `{}`", self.ast.name.name)
        }
    }

    /// The rank of tensor `t` as far as it is known before shapes are inferred: a declared
    /// tensor's, or the shape declared at the op that makes it.
    fn known_rank(&self, t: usize) -> Option<usize> {
        let tensor = &self.tensors[t];
        match (&tensor.shape, tensor.origin) {
            (Some(s), _) => Some(s.len()),
            (None, crate::graph::Origin::Produced(op)) => self
                .ops
                .get(op.index())
                .and_then(|o| o.declared_shape.as_ref()?.as_ref())
                .map(Vec::len),
            _ => None,
        }
    }

    /// The tensor whose name is nearest to `name` (a typo). Where the position tells the
    /// rank it needs (an argument of an elementwise op whose output shape is declared), a
    /// tensor of that rank wins over one of another rank as near.
    fn nearest_tensor(&self, name: &str, use_in: Option<usize>) -> Option<usize> {
        let tensors = &self.tensors;
        let id = |s: &str| {
            self.tensor_ids
                .get(s, |i| tensors[i as usize].name.name)
                .map(|t| t as usize)
        };
        let names = self.tensor_ids.ids().map(|i| tensors[i as usize].name.name);
        let best = id(did_you_mean(name, names)?)?;
        let wanted = use_in.and_then(|o| {
            let op = &self.ops[o];
            if op.kind != Some(crate::types::OpKind::Elementwise) {
                return None;
            }
            op.declared_shape.as_ref()?.as_ref().map(Vec::len)
        });
        // Bounded as the suggestion is: a large graph gets the nearest name only.
        let small = tensors.len() <= crate::diagnostics::SUGGESTION_COMPARISONS_PER_NAME as usize;
        let Some(rank) = wanted.filter(|_| small) else {
            return Some(best);
        };
        if self.known_rank(best) == Some(rank) {
            return Some(best);
        }
        let of_rank = self
            .tensor_ids
            .ids()
            .filter(|&i| self.known_rank(i as usize) == Some(rank))
            .map(|i| tensors[i as usize].name.name);
        let distance = |s: &str| {
            strsim::damerau_levenshtein(&name.to_ascii_lowercase(), &s.to_ascii_lowercase())
        };
        match did_you_mean(name, of_rank).and_then(id) {
            Some(t) if distance(tensors[t].name.name) <= distance(tensors[best].name.name) => {
                Some(t)
            }
            _ => Some(best),
        }
    }
}
