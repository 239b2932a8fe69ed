//! One instantiation expanded: checked against its block (nesting, recursion, the block's one
//! output, its tensor arguments and params, the statement limit), then emitted instance by
//! instance: each instance's scope binds the block's inputs and output to the caller's names
//! (a repeat threads each instance's output into the next one's first input), its header
//! params get the call's values or their defaults, and its body is emitted between two
//! `dtype` statements, recording a [`Binding`] for each input.

use super::typed::ParamType;
use super::{Binding, BindingKind, Call, Expander, Instance, MAX_DEPTH, Scope};
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::limits;
use crate::syntax::ast::*;
use crate::types::Dtype;
use std::collections::HashMap;

/// An instantiation checked against its block: what each of its instances binds.
struct Signature<'c, 'x, 's> {
    call: &'c Call<'x, 's>,
    /// The block's inputs in order: name, declared type and declaration (in its file's place).
    inputs: Vec<(&'x Ident<'s>, &'x TypeAst<'s>, Span)>,
    /// The block's one output.
    output: &'x Ident<'s>,
    /// The call's tensor arguments, which bind to the inputs in order.
    tensors: Vec<&'x TensorArg<'s>>,
    /// The shift of the block's spans (see [`super::Blocks::add`]).
    shift: usize,
    /// The caller's name for the call: the path of its instance, or of a repeat's instances
    /// before their index.
    base: &'s str,
    /// The types of the block's header params (worked out once for all its instances).
    types: Vec<ParamType>,
}

impl Signature<'_, '_, '_> {
    /// A span of the block's source, in its file's place.
    fn bs(&self, s: Span) -> Span {
        Span::new(s.start + self.shift, s.end + self.shift)
    }
}

impl<'a, 'x, 's> Expander<'a, 'x, 's> {
    /// Emits the instances of one instantiation; `false` when it reported why it cannot.
    pub(super) fn instantiate(
        &mut self,
        call: &Call<'x, 's>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
    ) -> bool {
        if self.over_budget || self.failed {
            return false;
        }
        if !self.may_nest(call, scope, depth) {
            return false;
        }
        let Some(sig) = self.signature(call, scope) else {
            return false;
        };
        let tensors_ok = self.check_tensors(&sig, scope);
        let params_ok = self.check_params(&sig, scope);
        if !(tensors_ok && params_ok) {
            return false;
        }
        if !self.within_limit(call) || !self.within_budget(call, scope) {
            return false;
        }
        let count = call.count.map_or(1, |(n, _)| n);
        let mut threaded: Option<&'s str> = None;
        for i in 0..count {
            if self.failed || self.out.len() > limits::MAX_STATEMENTS {
                self.failed = true;
                return false;
            }
            // `failed_call` records each instantiation not expanded by its output.
            let failed_before = self.info.unexpanded_outputs.len();
            let (first_instance, first_binding) =
                (self.info.instances.len(), self.info.bindings.len());
            let Some(out_name) = self.emit_instance(&sig, scope, dtype, depth, i, threaded) else {
                return false;
            };
            threaded = Some(out_name);
            if i == 0 && call.count.is_some() {
                self.returned(&sig, out_name, first_instance, first_binding);
            }
            // An instance that could not be expanded whole (an instantiation inside it failed,
            // reported now or by the semantic pass) stands for the rest: they have the same
            // params and blocks, so they would fail the same way (and be reported once, see
            // `Expansion::attribute`), at the cost of every one.
            if i + 1 < count && self.info.unexpanded_outputs.len() > failed_before {
                // Its output, which the next instance would have read, is not unused.
                self.info.unexpanded_args.push(out_name.to_string());
                return false;
            }
        }
        true
    }

    /// Records that the output `out_name` of a repeat's first instance (`instance`, whose
    /// bindings start at `from`) must have the type of the block's first input: each
    /// instance's output is the next one's first input.
    fn returned(
        &mut self,
        sig: &Signature<'_, '_, 's>,
        out_name: &str,
        instance: usize,
        from: usize,
    ) {
        let Some(first) = self.info.bindings[from..]
            .iter()
            .find(|b| b.instance == instance)
            .cloned()
        else {
            return;
        };
        let output_stmt = sig.call.block.stmts.iter().find_map(|st| match &st.kind {
            StmtKind::Output(names) if names.iter().any(|n| n.name == sig.output.name) => {
                Some(st.span)
            }
            _ => None,
        });
        self.info.bindings.push(Binding {
            tensor: out_name.into(),
            declared: sig.bs(output_stmt.unwrap_or(sig.output.span)),
            argument: sig.call.span,
            kind: BindingKind::Returned {
                output: sig.output.name.to_string(),
            },
            ..first
        });
    }

    /// Whether `call` may be expanded where it is: not nested too deeply (which stops the
    /// whole expansion) and not inside an instance of its own block.
    fn may_nest(&mut self, call: &Call<'_, 's>, scope: &Scope<'s>, depth: usize) -> bool {
        let block = call.block;
        let bshift = self.blocks.shift(block.name.name);
        let bs = |s: Span| Span::new(s.start + bshift, s.end + bshift);
        if depth >= MAX_DEPTH {
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!("blocks nest deeper than {MAX_DEPTH} levels"),
                )
                .at(call.span, "too deeply nested")
                .help("a block that instantiates itself, directly or through others, never ends"),
            );
            self.failed = true;
            return false;
        }
        if let Some(parent) = scope.instance
            && self.recursive(parent, block.name.name)
        {
            self.diags.push(
                Diagnostic::new(
                    Code::BadBlock,
                    format!("block `{}` instantiates itself", block.name.name),
                )
                .at(call.span, "instantiated again inside itself")
                .with(bs(block.name.span), "the block is defined here")
                .help("a block cannot contain an instance of itself, directly or through other blocks"),
            );
            return false;
        }
        true
    }

    /// The block's pieces the call binds: its inputs in order and its one output (reported
    /// when missing or not produced), with the call's tensor arguments and its name.
    fn signature<'c>(
        &mut self,
        call: &'c Call<'x, 's>,
        scope: &Scope<'s>,
    ) -> Option<Signature<'c, 'x, 's>> {
        let block = call.block;
        let bshift = self.blocks.shift(block.name.name);
        let bs = |s: Span| Span::new(s.start + bshift, s.end + bshift);
        // The block's pieces: inputs in order, and its one output.
        let inputs: Vec<(&'x Ident<'s>, &'x TypeAst<'s>, Span)> = block
            .stmts
            .iter()
            .filter_map(|st| match &st.kind {
                StmtKind::Decl {
                    external: ExternalKind::Input,
                    name,
                    ty,
                } => Some((name, &**ty, bs(st.span))),
                _ => None,
            })
            .collect();
        let outputs: Vec<&'x Ident<'s>> = block
            .stmts
            .iter()
            .filter_map(|st| match &st.kind {
                StmtKind::Output(names) => Some(names.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        let produced = |name: &str| {
            block.stmts.iter().any(|st| match &st.kind {
                StmtKind::Op(op) => op.output.name == name,
                StmtKind::Repeat(r) => r.output.name == name,
                _ => false,
            })
        };
        let output = match outputs.as_slice() {
            [one] if produced(one.name) => *one,
            [one] => {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadBlock,
                        format!(
                            "the output `{}` of block `{}` is not produced by an op of the block",
                            one.name, block.name.name
                        ),
                    )
                    .at(bs(one.span), "not produced in the block")
                    .with(call.span, "instantiated here")
                    .help("a block's output is the result of one of its ops"),
                );
                return None;
            }
            _ => {
                let d = Diagnostic::new(
                    Code::BadBlock,
                    format!(
                        "block `{}` must name exactly one output, found {}",
                        block.name.name,
                        outputs.len()
                    ),
                )
                .at(bs(block.name.span), "in this block")
                .with(call.span, "instantiated here")
                .help("end the block with `output NAME`: the tensor an instance stands for");
                self.diags.push(d);
                return None;
            }
        };
        // Tensor arguments bind to the inputs in order; attributes to header params.
        let tensors: Vec<&'x TensorArg<'s>> = call
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::Tensor(t) => Some(t),
                _ => None,
            })
            .collect();
        Some(Signature {
            call,
            inputs,
            output,
            tensors,
            shift: bshift,
            base: self.name(scope, call.name.name),
            types: super::typed::param_types(block).0,
        })
    }

    /// Checks the call's tensor arguments: one per input, an input to thread a repeat
    /// through, and whole tensors only. `false` when something was reported.
    fn check_tensors(&mut self, sig: &Signature<'_, '_, 's>, scope: &Scope<'s>) -> bool {
        let (call, block) = (sig.call, sig.call.block);
        let (inputs, tensors) = (&sig.inputs, &sig.tensors);
        let bs = |s: Span| sig.bs(s);
        let mut ok = true;
        if tensors.len() != inputs.len() {
            let mut d = Diagnostic::new(
                Code::BadInstance,
                format!(
                    "block `{}` takes {} tensor argument{}, found {}",
                    block.name.name,
                    inputs.len(),
                    if inputs.len() == 1 { "" } else { "s" },
                    tensors.len()
                ),
            )
            .at(call.span, "wrong number of tensors")
            .with(bs(block.name.span), "the block is defined here");
            let names: Vec<&str> = inputs.iter().map(|i| i.0.name).collect();
            d = d.help(format!(
                "its inputs are: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
            self.diags.push(d);
            ok = false;
        }
        if call.count.is_some() && inputs.is_empty() {
            self.diags.push(
                Diagnostic::new(
                    Code::BadInstance,
                    format!(
                        "block `{}` has no input to thread a repeat through",
                        block.name.name
                    ),
                )
                .at(call.span, "nothing to thread")
                .help(
                    "each instance of a repeat takes the previous one's output as its first input",
                ),
            );
            ok = false;
        }
        for t in tensors {
            if t.index.is_some() || t.transpose {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        "a block's tensor argument must be a whole tensor",
                    )
                    .at(scope.span(t.span), "a view")
                    .help(
                        "pass the tensor itself, or make the view an op (`slice`, `permute`) first",
                    ),
                );
                ok = false;
            }
        }
        ok
    }

    /// Checks the call's other arguments: integer attributes naming the block's params only,
    /// and every param without a default given. `false` when something was reported.
    fn check_params(&mut self, sig: &Signature<'_, '_, 's>, scope: &Scope<'s>) -> bool {
        let (call, block) = (sig.call, sig.call.block);
        let bs = |s: Span| sig.bs(s);
        let mut ok = true;
        let types = &sig.types;
        for a in call.args {
            let other = match a {
                Arg::Scalar(lit) => Some(lit.span),
                Arg::ListAttr { span, .. } => Some(*span),
                _ => None,
            };
            if let Some(at) = other {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        format!("block `{}` takes tensors and params only", block.name.name),
                    )
                    .at(scope.span(at), "not a tensor or a param")
                    .help(
                        "block params are integer expressions, floats, booleans or dtypes: \
                         `S = 2048`, `eps = 1e-5`, `causal = true`, `D = bf16`",
                    ),
                );
                ok = false;
            }
            // A value of the param's type.
            let param = a.attr_name().and_then(|name| {
                let k = block.params.iter().position(|p| p.name.name == name.name)?;
                Some((name, k))
            });
            if let Some((name, k)) = param
                && !matches!(a, Arg::ListAttr { .. })
                && let Err(found) = super::typed::given(types[k], a, &scope.values, &|n| {
                    self.env.contains_key(scope.prefixed(self.arena, n))
                })
            {
                let value = match a {
                    Arg::Attr { value, .. } => value.span(),
                    Arg::FloatAttr { value, .. } => value.span,
                    _ => name.span,
                };
                let (want, example) = super::typed::wanted(types[k], name.name, a);
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        format!(
                            "param `{}` of block `{}` is {want}, found {found}",
                            name.name, block.name.name
                        ),
                    )
                    .at(scope.span(value), format!("not {want}"))
                    .with(bs(block.params[k].name.span), "declared here")
                    .help(format!("give it {want}: {example}")),
                );
                ok = false;
            }
            if let Some(name) = a.attr_name()
                && !matches!(a, Arg::ListAttr { .. })
                && !block.params.iter().any(|p| p.name.name == name.name)
            {
                let mut d = Diagnostic::new(
                    Code::BadInstance,
                    format!("block `{}` has no param `{}`", block.name.name, name.name),
                )
                .at(scope.span(name.span), "unknown param")
                .with(bs(block.name.span), "the block is defined here");
                let names = block.params.iter().map(|p| p.name.name);
                d = match crate::diagnostics::did_you_mean(name.name, names) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!(
                        "its params are: {}",
                        block
                            .params
                            .iter()
                            .map(|p| p.name.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                self.diags.push(d);
                ok = false;
            }
        }
        for p in &block.params {
            let given = call.args.iter().any(|a| {
                matches!(a, Arg::Attr { name, .. } | Arg::FloatAttr { name, .. }
                    if name.name == p.name.name)
            });
            if !given && p.required() {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadInstance,
                        format!(
                            "param `{}` of block `{}` is not given",
                            p.name.name, block.name.name
                        ),
                    )
                    .at(call.span, format!("`{}` missing", p.name.name))
                    .with(bs(p.name.span), "declared here without a default")
                    .help(format!("pass it as an attribute: `{} = ...`", p.name.name)),
                );
                ok = false;
            }
        }
        ok
    }

    /// Whether the call's instances fit in the statement limit, bounded before anything is
    /// allocated (which stops the whole expansion when they do not).
    fn within_limit(&mut self, call: &Call<'_, 's>) -> bool {
        let block = call.block;
        let count = call.count.map_or(1, |(n, _)| n);
        // Bound the expansion before allocating it: every instance costs at least the
        // block's own statements and two dtype resets.
        let least = (block.stmts.len() as u64).saturating_add(2);
        let total = count
            .checked_mul(least)
            .and_then(|n| n.checked_add(self.out.len() as u64));
        if total.is_none_or(|t| t > limits::MAX_STATEMENTS as u64) {
            let at = call.count.map_or(call.span, |(_, s)| s);
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "{count} instance{} of `{}` would exceed the limit of {} statements in a graph",
                        if count == 1 { "" } else { "s" },
                        block.name.name,
                        limits::MAX_STATEMENTS
                    ),
                )
                .at(at, "too many statements")
                .help("repeat fewer times, or split the model into several graphs"),
            );
            self.failed = true;
            return false;
        }
        true
    }

    /// Whether the call's instances fit in the budget on expanded ops with their real count,
    /// checked before they are emitted (the count of the whole body, made before expanding,
    /// may not have known a count that depends on a block's params).
    fn within_budget(&mut self, call: &Call<'_, 's>, scope: &Scope<'s>) -> bool {
        let blocks = self.blocks;
        let count = call.count.map_or(1, |(n, _)| n);
        // The block's header params as this call passes them, and the blocks of the
        // instances around it.
        let mut given: HashMap<&str, Option<i64>> = HashMap::new();
        for a in call.args {
            if let Arg::Attr { name, value } = a {
                let e = self.expr(scope, value);
                let v = self.value(&e, &mut Vec::new());
                given.entry(name.name).or_insert(v);
            }
        }
        let env = super::budget::header_env(call.block, |p| given.get(p).copied());
        let mut path = Vec::new();
        let mut cur = scope.instance;
        while let Some(i) = cur {
            let inst = &self.info.instances[i];
            if let Some(b) = blocks.get(&inst.block) {
                path.push(b.name.name);
            }
            cur = inst.parent;
        }
        path.reverse();
        let per = self.budget.instance_ops(blocks, call.block, env, &mut path);
        let stmts = (self.out.len() as u64).saturating_add(count.saturating_mul(per.stmts));
        if self.budget.gave_up() || stmts > limits::MAX_STATEMENTS as u64 {
            self.diags
                .push(super::budget::too_many_statements(call.span));
            self.failed = true;
            return false;
        }
        let total = (self.ops as u64).saturating_add(count.saturating_mul(per.ops));
        if total > limits::MAX_EXPANDED_OPS {
            self.diags
                .push(super::budget::over_limit(call.span, total, "this graph"));
            self.failed = true;
            return false;
        }
        let header = super::budget::header_items(call.block, call.args);
        let items = self
            .info
            .items
            .saturating_add(count.saturating_mul(per.items.saturating_add(header)));
        if items > limits::MAX_EXPANDED_ITEMS {
            self.diags
                .push(super::budget::too_many_items(call.span, items));
            self.failed = true;
            return false;
        }
        true
    }

    /// Emits instance `i` of a checked instantiation, whose first input is `threaded` (the
    /// previous instance's output) after the first instance of a repeat. Returns the
    /// instance's output, or `None` when a limit stopped the expansion.
    fn emit_instance(
        &mut self,
        sig: &Signature<'_, 'x, 's>,
        scope: &Scope<'s>,
        dtype: &mut Option<Ident<'s>>,
        depth: usize,
        i: u64,
        threaded: Option<&'s str>,
    ) -> Option<&'s str> {
        let (call, block) = (sig.call, sig.call.block);
        let (mut inner, path, out_name) = self.instance_scope(sig, scope, i, threaded);
        let instance = self.info.instances.len();
        self.info.instances.push(Instance {
            path: path.to_string(),
            block: block.name.name.to_string(),
            call: call.span,
            index: call.count.map(|_| i),
            parent: scope.instance,
            block_span: sig.bs(block.span),
            ops: self.ops..self.ops,
            output: out_name.to_string(),
        });
        // The block starts from the default dtype, as a graph does.
        let reset = Ident {
            name: "f32",
            span: scope.span(call.name.span),
        };
        self.dtype(reset, call.span);
        self.header_params(sig, scope, &mut inner);
        if !self.body(sig, scope, &inner, i, instance, depth) {
            return None;
        }
        // Back to the caller's dtype for what follows the instance.
        let restore = dtype.unwrap_or(Ident {
            name: "f32",
            span: scope.span(call.name.span),
        });
        self.dtype(restore, call.span);
        self.info.instances[instance].ops.end = self.ops;
        Some(out_name)
    }

    /// The scope of instance `i`, with its path and output name: names get the path as
    /// prefix, the inputs are bound to the caller's tensors (the first to `threaded` after
    /// the first instance of a repeat), and the output to the caller's output name (in a
    /// repeat, only the last instance's; the others' keep their own).
    fn instance_scope(
        &self,
        sig: &Signature<'_, '_, 's>,
        scope: &Scope<'s>,
        i: u64,
        threaded: Option<&'s str>,
    ) -> (Scope<'s>, &'s str, &'s str) {
        let call = sig.call;
        let (inputs, output, tensors) = (&sig.inputs, sig.output, &sig.tensors);
        let count = call.count.map_or(1, |(n, _)| n);
        let base = sig.base;
        let path = match call.count {
            Some(_) => self.alloc(&format!("{base}.{i}")),
            None => base,
        };
        let prefix = self.alloc(&format!("{path}."));
        let mut inner = Scope {
            prefix,
            bound: HashMap::new(),
            instance: Some(self.info.instances.len()),
            shift: sig.shift,
            made: Default::default(),
            values: Vec::new(),
        };
        for (k, (input, ..)) in inputs.iter().enumerate() {
            let arg = match (k, threaded) {
                (0, Some(prev)) => prev,
                _ => self.name(scope, tensors[k].name.name),
            };
            inner.bound.insert(input.name, arg);
        }
        let last = i + 1 == count;
        let out_name = if last {
            self.name(scope, call.output.name)
        } else {
            self.alloc(&format!("{prefix}{}", output.name))
        };
        inner.bound.insert(output.name, out_name);
        (inner, path, out_name)
    }

    /// Emits an instance's integer header params (the call's value, else the default), and
    /// puts the others' values in its scope.
    fn header_params(
        &mut self,
        sig: &Signature<'_, 'x, 's>,
        scope: &Scope<'s>,
        inner: &mut Scope<'s>,
    ) {
        let (call, block) = (sig.call, sig.call.block);
        let types = &sig.types;
        for (p, &t) in block.params.iter().zip(types) {
            let given = call.args.iter().find(|a| {
                a.attr_name()
                    .is_some_and(|n| n.name == p.name.name && !matches!(a, Arg::ListAttr { .. }))
            });
            if let Some(a) = given {
                let int_param = |n| self.env.contains_key(scope.prefixed(self.arena, n));
                match super::typed::given(t, a, &scope.values, &int_param) {
                    Ok(Some(v)) => inner.values.push((p.name.name, v)),
                    Ok(None) => {
                        if let Arg::Attr { name, value } = a {
                            let name_ident = self.param(inner, &p.name);
                            let span = scope.span(name.span.to(value.span()));
                            self.header_param(name_ident, value, scope, span);
                        }
                    }
                    // Reported by `check_params`.
                    Err(_) => {}
                }
                continue;
            }
            match (t, &p.default) {
                (ParamType::Int, Some(d)) => {
                    let name = self.param(inner, &p.name);
                    self.header_param(name, d, inner, sig.bs(p.name.span.to(d.span())));
                }
                _ => {
                    if let Some(v) = super::typed::default_value(p, t, &inner.values) {
                        inner.values.push((p.name.name, v));
                    }
                }
            }
        }
        self.out.set_values(inner.instance, &inner.values);
    }

    /// Emits the block's statements into instance `instance` (the call's `i`th), with a
    /// [`Binding`] for each input in place of its declaration; the block's `output` statement
    /// is the instance's result, not a graph output. `false` when a limit stopped it.
    fn body(
        &mut self,
        sig: &Signature<'_, 'x, 's>,
        scope: &Scope<'s>,
        inner: &Scope<'s>,
        i: u64,
        instance: usize,
        depth: usize,
    ) -> bool {
        let (call, block, tensors) = (sig.call, sig.call.block, &sig.tensors);
        let mut block_dtype = None;
        let mut current_dtype: Option<Dtype> = Some(Dtype::F32);
        let mut input_k = 0;
        for st in block.stmts.iter() {
            if self.failed {
                return false;
            }
            match &st.kind {
                StmtKind::Decl {
                    external: ExternalKind::Input,
                    name,
                    ty,
                } => {
                    let tensor = inner.bound.get(name.name).copied().unwrap_or(name.name);
                    // The first input of a later instance of a repeat is the threaded
                    // output: the repeat itself is the argument.
                    let argument = match (input_k, i) {
                        (0, 1..) => call.span,
                        (k, _) => tensors.get(k).map_or(call.span, |t| scope.span(t.span)),
                    };
                    input_k += 1;
                    self.info.items = self
                        .info
                        .items
                        .saturating_add(1 + super::budget::type_items(ty));
                    let renamed = self.ty(inner, ty);
                    let mut ignore = Vec::new();
                    let shape: Option<Vec<u64>> = renamed
                        .dims
                        .iter()
                        .map(|d| {
                            self.value(d, &mut ignore)
                                .and_then(|v| u64::try_from(v).ok())
                        })
                        .collect();
                    let dtype = match &renamed.dtype {
                        Some(d) => Dtype::from_name(d.name),
                        None => current_dtype,
                    };
                    self.info.bindings.push(Binding {
                        tensor: tensor.into(),
                        shape,
                        dtype,
                        declared: sig.bs(st.span),
                        argument,
                        instance,
                        input: name.name.to_string(),
                        written: written_type(ty),
                        kind: if input_k == 1 && i > 0 {
                            BindingKind::Threaded
                        } else {
                            BindingKind::Argument
                        },
                    });
                }
                // The block's output is the instance's result, not a graph output.
                StmtKind::Output(_) => {}
                StmtKind::Dtype(d) => {
                    let name = match super::typed::lookup(&inner.values, d.name) {
                        Some(super::typed::Typed::Dtype(v)) => v,
                        _ => d.name,
                    };
                    current_dtype = Dtype::from_name(name);
                    self.statement(st, inner, &mut block_dtype, depth + 1);
                }
                _ => self.statement(st, inner, &mut block_dtype, depth + 1),
            }
        }
        true
    }

    /// Whether instance `at` or one of its parents is an instance of `block`.
    fn recursive(&self, at: usize, block: &str) -> bool {
        let mut cur = Some(at);
        while let Some(i) = cur {
            let inst = &self.info.instances[i];
            if inst.block == block {
                return true;
            }
            cur = inst.parent;
        }
        false
    }
}

/// A block input's type as written (`bf16[S, H / 2]`), for messages: every nested chain in
/// parentheses.
fn written_type(ty: &TypeAst<'_>) -> String {
    fn expr(e: &Expr<'_>, nested: bool) -> String {
        match e {
            Expr::Int { value, .. } => value.map_or_else(|| "?".to_string(), |v| v.to_string()),
            Expr::Name(id) => id.name.to_string(),
            Expr::Bool { value, .. } => value.to_string(),
            Expr::Neg {
                negations, operand, ..
            } => format!("{}{}", "-".repeat(*negations), expr(operand, true)),
            Expr::Chain { first, rest, .. } => {
                let mut s = expr(first, true);
                for (op, _, rhs) in rest {
                    // By the operator's name, so that an operator added to the language
                    // still prints.
                    let name = format!("{op:?}");
                    let sym = match name.as_str() {
                        "Add" => "+",
                        "Sub" => "-",
                        "Mul" => "*",
                        "Div" => "/",
                        "Rem" | "Mod" => "%",
                        "FloorDiv" => "div",
                        other => other,
                    };
                    s += &format!(" {sym} {}", expr(rhs, true));
                }
                if nested { format!("({s})") } else { s }
            }
        }
    }
    let dims: Vec<String> = ty.dims.iter().map(|d| expr(d, false)).collect();
    format!("{}[{}]", ty.dtype.map_or("", |d| d.name), dims.join(", "))
}
