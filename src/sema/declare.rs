//! Declaring a graph's statements in order: tensors of declarations and op outputs (numbered
//! as the name tables number them), ops with their kind, attributes, scalar constants and
//! declared type, and the arguments that name the tensor just above (the others are left to
//! `names`). The name tables are built alongside, and second definitions are reported where a
//! one-pass check would find them. Also the arity rule and its diagnostic.

use super::names::name_tables;
use super::{
    FastMap, NO_INDEX, NO_TENSOR, OpPart, PARALLEL_NAMES, Sema, TensorDraft, UseDraft, duplicate,
    rename_fix, use_range,
};
use crate::diagnostics::{Code, Diagnostic, Span, did_you_mean};
use crate::graph::{AttrValue, CompactString, OpExtra, OpId, Origin, TensorId};
use crate::perf::alongside;
use crate::syntax::ast::{Arg, Expr, ExternalKind, Ident, OpStmt, StmtKind};
use crate::types::{Dtype, OpKind};
use std::ops::Range;

/// A statement that reported something while it was declared: `count` diagnostics, of
/// which the first `tensor_at` came before its tensor was declared.
struct Mark {
    stmt: u32,
    count: usize,
    tensor_at: usize,
}

/// What an op of `kind` with `n` tensor arguments should have taken, if `n` is wrong.
/// What op `kind` (with function `func`) takes when its `n` tensors (and `scalars` scalar
/// constants) are the wrong number: the kind's arity for the tensors, then its function's
/// for the operands, tensors and constants ([`crate::ops::funcs::FuncSpec::operands`]).
fn bad_arity(kind: Option<OpKind>, func: Option<&str>, n: usize, scalars: usize) -> Option<String> {
    let kind = kind?;
    let a = crate::ops::spec(kind).arity;
    if n < a.min || n > a.max {
        return Some(a.text.to_string());
    }
    let t = super::funcs::spec_of(kind, func)?.operands;
    let n = n + scalars;
    let plural = if t.min == 1 && t.max == 1 { "" } else { "s" };
    (n < t.min || n > t.max).then(|| format!("{} operand{plural}", t.text()))
}

impl<'a, 's> Sema<'a, 's> {
    /// A tensor, numbered in statement order; the name tables are built apart
    /// ([`name_tables`]), which marks second definitions.
    pub(super) fn new_tensor(&mut self, name: Ident<'s>, origin: Origin) -> TensorId {
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

    pub(super) fn declarations(&mut self, n_ops: usize) {
        // The name tables need nothing the declarations compute (ids are given in statement
        // order), and the declarations need no table (arguments they cannot resolve from
        // the tensor just above are resolved afterwards): a large graph's tables are built
        // on a second thread while its statements are declared.
        let (ast, n_tensors) = (self.ast.body, self.tensors.capacity());
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
        let ast = self.ast;
        for (i, st) in ast.stmts().enumerate() {
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
                    let bytes = self.size(shape.as_deref(), dtype, || (*name, ty.span));
                    // A size that overflowed makes the tensor unknown: no cascade downstream.
                    let shape = shape
                        .filter(|_| bytes.is_some())
                        .map(|s| self.intern.shape(s));
                    let t = &mut self.tensors[id.index()];
                    (t.shape, t.dtype, t.bytes) = (shape, dtype, bytes);
                }
                StmtKind::Output(names) => {
                    self.has_output_stmt = true;
                    self.outputs.extend(names.iter().copied());
                }
                // Statements are at most `MAX_STATEMENTS` (2^24): indices fit in u32.
                StmtKind::Op(op) => self.declare_op(op, i as u32, st.span, default_dtype),
                // Expanded into its instances' statements before this pass (syntax::expand).
                StmtKind::Repeat(_) => {}
                // Checked against the fusion plan once the graph is built (crate::analysis::assertions).
                StmtKind::Assert(_) => {}
                // Applied to the checked graph (crate::parallel).
                StmtKind::Parallel(_) => {}
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

    /// Declares op statement `op` (statement `stmt` of the graph): its kind, attributes,
    /// declared type, arguments and output tensor. Ops with arguments left to resolve or the
    /// wrong number of them are left `pending` for `resolve_inputs`.
    fn declare_op(&mut self, op: &OpStmt<'s>, stmt: u32, span: Span, default_dtype: Option<Dtype>) {
        let id = OpId(self.ops.len() as u32);
        let kind = OpKind::from_name(op.kind.name);
        if kind.is_none() {
            self.unknown_kind(op);
        }
        let (attrs, extra) = self.attributes(op);
        let scalars = extra.scalars.len();
        if let Some(k) = kind {
            self.check_function(k, op, &attrs, &extra);
        }
        let scalar_misplaced = self.misplaced_scalars(kind, op);
        let attrs = self.intern.attrs(attrs);
        let extra = (extra != OpExtra::default()).then(|| self.intern.extra(extra));
        let (declared_shape, declared_dtype) = match &op.ty {
            Some(ty) => (
                Some(self.dims(ty)),
                ty.dtype.as_ref().map(|d| self.dtype(d)),
            ),
            None => (None, None),
        };
        // A recv takes no tensor to take a dtype from: the default dtype (issue 25).
        let declared_dtype = match (kind, declared_dtype) {
            (Some(OpKind::Recv), None) => Some(default_dtype),
            (_, d) => d,
        };
        let use_start = self.uses.len();
        let deferred = self.tensor_uses(op);
        let uses_end = self.uses.len();
        let n = uses_end - use_start;
        if deferred || bad_arity(kind, op.func.map(|f| f.name), n, scalars).is_some() {
            self.pending.push(id.0);
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

    /// Reports the kind of `op` as unknown, with the kind it is likely a typo of.
    fn unknown_kind(&mut self, op: &OpStmt<'s>) {
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

    /// The integer attributes of `op`, and its float and list attributes and scalar constants;
    /// an attribute given twice is reported.
    fn attributes(&mut self, op: &OpStmt<'s>) -> (Vec<(CompactString, i64)>, OpExtra) {
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
                    extra.scalars.push((position, lit.text.into()));
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
                // `group = tp` (issue 25): a bare name, kept as written, never a param.
                Arg::Attr {
                    value: Expr::Name(id),
                    ..
                } if crate::ops::is_name_attr(op.kind.name, name.name) => extra
                    .attrs
                    .push((name.name.into(), AttrValue::Name(id.name.into()))),
                // `causal = true`: 1 or 0, as `keepdim = 1` (`funcs` checks where it belongs).
                Arg::Attr {
                    value: Expr::Bool { value, .. },
                    ..
                } => attrs.push((name.name.into(), i64::from(*value))),
                Arg::Attr { value, .. } => {
                    if let Some(v) = self.eval(value) {
                        attrs.push((name.name.into(), v));
                    }
                }
                Arg::FloatAttr { value, .. } => extra.attrs.push((
                    name.name.into(),
                    AttrValue::Float {
                        // The grammar admits only what parses.
                        value: value.text.parse().unwrap_or(f64::NAN),
                        text: value.text.into(),
                    },
                )),
                Arg::ListAttr { items, .. } => {
                    let values: Vec<Option<i64>> = items.iter().map(|e| self.eval(e)).collect();
                    if let Some(values) = values.into_iter().collect::<Option<Vec<i64>>>() {
                        extra
                            .attrs
                            .push((name.name.into(), AttrValue::List(values)));
                    }
                }
                Arg::Tensor(_) | Arg::Scalar(_) => {}
            }
        }
        (attrs, extra)
    }

    /// Reports the scalar constants of `op` unless it is elementwise (a scalar constant is an
    /// operand of an elementwise op only). `true` if there were any.
    fn misplaced_scalars(&mut self, kind: Option<OpKind>, op: &OpStmt<'s>) -> bool {
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
        scalar_misplaced
    }

    /// Adds the tensor arguments of `op` to the flat list. Arguments naming a tensor defined
    /// above, with no view index or a literal one, are resolved now, while the statement is in
    /// cache: that reports nothing. The others are resolved by `resolve_inputs`, with their
    /// diagnostics, in statement order. `true` if any is left to resolve.
    fn tensor_uses(&mut self, op: &OpStmt<'s>) -> bool {
        let mut deferred = false;
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
            // The list starts at one argument an op and grows by an eighth, not by doubling:
            // it is at its largest when the pass is (a model with `repeat` has about 1.6).
            if self.uses.len() == self.uses.capacity() {
                self.uses.reserve_exact(self.uses.capacity() / 8 + 16);
            }
            self.uses.push(UseDraft {
                tensor: tensor.unwrap_or(NO_TENSOR),
                transpose: t.transpose,
                index: index.unwrap_or(NO_INDEX),
                span: t.span,
            });
        }
        deferred
    }

    /// Reports op `o` taking the wrong number of tensors for its kind. `true` if it does.
    pub(super) fn check_arity(&mut self, o: usize) -> bool {
        let stmt = self.stmt(o);
        let Range { start, end } = use_range(&self.ops, o);
        let n = end - start;
        let kind = self.ops[o].kind;
        let func = stmt.func.map(|f| f.name);
        let scalars = self.ops[o].extra.as_ref().map_or(0, |e| e.scalars.len());
        let Some(expected) = bad_arity(kind, func, n, scalars) else {
            return false;
        };
        let kind_name = match func {
            Some(f)
                if kind
                    .and_then(|k| super::funcs::spec_of(k, Some(f)))
                    .is_some() =>
            {
                format!("{}.{f}", stmt.kind.name)
            }
            _ => stmt.kind.name.to_string(),
        };
        let arity = kind.map(|k| crate::ops::spec(k).arity);
        let of_func = kind
            .and_then(|k| super::funcs::spec_of(k, func))
            .filter(|_| arity.is_some_and(|a| n >= a.min && n <= a.max));
        let found = match of_func {
            Some(_) => n + scalars,
            None => n,
        };
        let mut d = Diagnostic::new(
            Code::Arity,
            format!("`{kind_name}` takes {expected}, found {found}"),
        )
        .at(stmt.kind.span, format!("takes {expected}"));
        let extra = match of_func {
            Some(f) => f.operands.max.saturating_sub(scalars),
            None => arity.map_or(usize::MAX, |a| a.max),
        };
        for u in self.uses[start..end].iter().skip(extra) {
            d = d.with(u.span, "extra tensor");
        }
        d = match of_func {
            Some(f) => d.help(format!(
                "`{kind_name}` is `{}`: pass the tensors and scalar constants it reads",
                f.torch
            )),
            None => d.help(arity.map_or("pass the tensors the op reads", |a| a.help)),
        };
        self.diags.push(d);
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Code;
    use crate::sema::{Overrides, check_graph};

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
