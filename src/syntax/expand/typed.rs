//! Block header params of every type: integers (`S`, `H = 4096`), floats (`eps = 1e-5`, given
//! to an attribute in the body: `eps = eps`), booleans (`causal = true`, given to an attribute
//! in the same way) and dtypes (`D = bf16`, written where a dtype is: `dtype D`,
//! `input x: D[S, H]`). A param's type is its default's; a required param's is how the body
//! uses it (a dtype where a dtype is written, an integer in an expression, else a value for
//! attributes: an integer, a float or a boolean as given, which the attribute then checks
//! like one written there). A param used where another type
//! belongs is a `bad-block` error at the use, and the block is not expanded (its
//! instantiations say nothing more); an instantiation giving a value of the wrong type is
//! `bad-instance` at the argument ([`Typed::given`]).
//!
//! Integer params become `param` statements of each instance, as they always have; the
//! others are substituted where they are used ([`Values`], read by the renaming).

use crate::diagnostics::{Code, Diagnostic, Span};
use crate::syntax::ast::*;
use crate::types::{Dtype, OpKind};

/// The type of a block's header param.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ParamType {
    Int,
    Float,
    Dtype,
    /// `true` or `false`.
    Bool,
    /// Required and used only as attributes' values: an integer, a float or a boolean, as
    /// given.
    Number,
}

impl ParamType {
    fn noun(self) -> &'static str {
        match self {
            ParamType::Int => "an integer param",
            ParamType::Float => "a float param",
            ParamType::Dtype => "a dtype param",
            ParamType::Bool => "a boolean param",
            ParamType::Number => "a number param",
        }
    }
}

/// A non-integer param's value in one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Typed<'s> {
    /// A dtype's name (`bf16`).
    Dtype(&'s str),
    /// A float's text (`1e-5`).
    Float(&'s str),
    /// `true` or `false`.
    Bool(bool),
}

impl Typed<'_> {
    /// What the value is, for messages: "`c`, a boolean" names the param or value `what`.
    fn found(self, what: &str) -> String {
        match self {
            Typed::Dtype(_) => format!("`{what}`, a dtype"),
            Typed::Float(_) => format!("`{what}`, a float"),
            Typed::Bool(_) => format!("`{what}`, a boolean"),
        }
    }
}

/// The non-integer params of one instance (or of a block checked on its own), by name: a few,
/// so a list.
pub(crate) type Values<'s> = Vec<(&'s str, Typed<'s>)>;

pub(super) fn lookup<'s>(values: &Values<'s>, name: &str) -> Option<Typed<'s>> {
    values.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// Where a body uses a name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// In an integer expression.
    Int,
    /// Where a dtype is written.
    Dtype,
    /// As the whole value of an op's attribute (`eps = eps`).
    Attr,
    /// As the whole value of an instantiation's param (passed on).
    Pass,
}

/// Every use of a name in a block: header defaults and body.
fn uses<'s>(block: &BlockAst<'s>) -> Vec<(&'s str, Use, Span)> {
    let mut out = Vec::new();
    fn expr<'s>(e: &Expr<'s>, out: &mut Vec<(&'s str, Use, Span)>) {
        match e {
            Expr::Int { .. } | Expr::Bool { .. } => {}
            Expr::Name(id) => out.push((id.name, Use::Int, id.span)),
            Expr::Neg { operand, .. } => expr(operand, out),
            Expr::Chain { first, rest, .. } => {
                expr(first, out);
                for (_, _, e) in rest {
                    expr(e, out);
                }
            }
        }
    }
    fn ty<'s>(t: &TypeAst<'s>, out: &mut Vec<(&'s str, Use, Span)>) {
        if let Some(d) = &t.dtype {
            out.push((d.name, Use::Dtype, d.span));
        }
        for d in &t.dims {
            expr(d, out);
        }
    }
    fn args<'a, 's: 'a>(
        args: impl IntoIterator<Item = &'a Arg<'s>>,
        whole: Use,
        out: &mut Vec<(&'s str, Use, Span)>,
    ) {
        for a in args {
            match a {
                Arg::Attr {
                    value: Expr::Name(id),
                    ..
                } => out.push((id.name, whole, id.span)),
                Arg::Attr { value, .. } => expr(value, out),
                Arg::Tensor(t) => {
                    if let Some(i) = &t.index {
                        expr(i, out);
                    }
                }
                Arg::ListAttr { items, .. } => items.iter().for_each(|e| expr(e, out)),
                Arg::Scalar(_) | Arg::FloatAttr { .. } => {}
            }
        }
    }
    for p in &block.params {
        if let Some(d) = &p.default
            && !matches!(d, Expr::Name(id) if Dtype::from_name(id.name).is_some())
        {
            // A default naming an earlier param takes its type.
            match d {
                Expr::Name(id) => out.push((id.name, Use::Pass, id.span)),
                _ => expr(d, &mut out),
            }
        }
    }
    for st in block.stmts.iter() {
        match &st.kind {
            StmtKind::Param { value, .. } => expr(value, &mut out),
            StmtKind::Dtype(d) => out.push((d.name, Use::Dtype, d.span)),
            StmtKind::Decl { ty: t, .. } => ty(t, &mut out),
            StmtKind::Op(op) => {
                let instance = op.func.is_none() && OpKind::from_name(op.kind.name).is_none();
                // A name attribute (`group = tp`, issue 25) uses no param.
                let kept: Vec<&Arg<'s>> = op
                    .args
                    .iter()
                    .filter(|a| {
                        !a.attr_name()
                            .is_some_and(|n| crate::ops::is_name_attr(op.kind.name, n.name))
                    })
                    .collect();
                args(kept, if instance { Use::Pass } else { Use::Attr }, &mut out);
                if let Some(t) = &op.ty {
                    ty(t, &mut out);
                }
            }
            StmtKind::Repeat(r) => {
                expr(&r.count, &mut out);
                args(&r.args, Use::Pass, &mut out);
            }
            StmtKind::Assert(a) => {
                if let AssertKind::Compare { value, .. } = &a.kind {
                    expr(value, &mut out);
                }
            }
            StmtKind::Output(_) => {}
            StmtKind::Parallel(p) => {
                expr(&p.size, &mut out);
                for i in &p.items {
                    if let ParallelItem::Setting { value, .. } = i {
                        expr(value, &mut out);
                    }
                }
            }
        }
    }
    out
}

/// The types of a block's header params, in order, and the uses that do not fit them
/// (reported by [`check`]).
pub(super) fn param_types(block: &BlockAst<'_>) -> (Vec<ParamType>, Vec<(usize, Span, String)>) {
    let uses = uses(block);
    let mut types: Vec<ParamType> = Vec::with_capacity(block.params.len());
    for p in &block.params {
        let t = match (&p.default, &p.float) {
            (_, Some(_)) => ParamType::Float,
            (Some(Expr::Name(id)), None) if Dtype::from_name(id.name).is_some() => ParamType::Dtype,
            (Some(Expr::Bool { .. }), None) => ParamType::Bool,
            (Some(Expr::Name(id)), None) => {
                // An earlier param's name: its type.
                match block.params.iter().position(|q| q.name.name == id.name) {
                    Some(k) if k < types.len() => types[k],
                    _ => ParamType::Int,
                }
            }
            (Some(_), None) => ParamType::Int,
            (None, None) => {
                let used = |u: Use| uses.iter().any(|(n, w, _)| *n == p.name.name && *w == u);
                if used(Use::Dtype) {
                    ParamType::Dtype
                } else if used(Use::Int) {
                    ParamType::Int
                } else {
                    ParamType::Number
                }
            }
        };
        types.push(t);
    }
    let mut bad = Vec::new();
    for (k, p) in block.params.iter().enumerate() {
        let t = types[k];
        let misuse = uses.iter().find(|(n, u, _)| {
            *n == p.name.name
                && matches!(
                    (t, u),
                    (ParamType::Dtype, Use::Int | Use::Attr)
                        | (
                            ParamType::Int | ParamType::Float | ParamType::Bool | ParamType::Number,
                            Use::Dtype
                        )
                        | (
                            ParamType::Float | ParamType::Bool | ParamType::Number,
                            Use::Int
                        )
                )
        });
        if let Some(&(name, u, at)) = misuse {
            let why = match u {
                Use::Int => format!(
                    "`{name}` is {}, used here in an integer expression",
                    t.noun()
                ),
                Use::Dtype => format!("`{name}` is {}, used here as a dtype", t.noun()),
                Use::Attr => format!(
                    "`{name}` is {}, used here as an attribute's value",
                    t.noun()
                ),
                Use::Pass => format!("`{name}` is {}", t.noun()),
            };
            bad.push((k, at, why));
        }
    }
    (types, bad)
}

/// Reports the uses of a block's header params that do not fit their types (`bad-block`),
/// with the block's spans shifted by `shift`. `false` when it reported any.
pub(super) fn check(block: &BlockAst<'_>, shift: usize, diags: &mut Vec<Diagnostic>) -> bool {
    let (types, bad) = param_types(block);
    let sh = |s: Span| Span::new(s.start + shift, s.end + shift);
    for (k, at, why) in &bad {
        let p = &block.params[*k];
        let help = match types[*k] {
            ParamType::Dtype => format!(
                "a dtype param is written where a dtype is: `dtype {0}`, `input x: {0}[...]`",
                p.name.name
            ),
            ParamType::Float | ParamType::Number => format!(
                "a float param is given whole to an op's attribute: `eps = {}`",
                p.name.name
            ),
            ParamType::Bool => format!(
                "a boolean param is only given whole to an op's attribute: `causal = {}`",
                p.name.name
            ),
            ParamType::Int => format!(
                "an integer param is used in expressions; make `{}` a dtype param with a \
                 dtype default (`{} = bf16`)",
                p.name.name, p.name.name
            ),
        };
        diags.push(
            Diagnostic::new(
                Code::BadBlock,
                format!(
                    "param `{}` of block `{}` is used as another type",
                    p.name.name, block.name.name
                ),
            )
            .at(sh(*at), why.clone())
            .with(sh(p.name.span), "declared here")
            .help(help),
        );
    }
    bad.is_empty()
}

/// The value an instantiation gives a param of type `want`, written `arg` in the caller, whose
/// own non-integer params are `caller` and whose integer params are those `int_param` says:
/// `Ok(None)` for an integer (a `param` statement), `Ok(Some(..))` for a substituted value,
/// `Err(what it is)` when it does not fit.
pub(super) fn given<'s>(
    want: ParamType,
    arg: &Arg<'s>,
    caller: &Values<'s>,
    int_param: &dyn Fn(&'s str) -> bool,
) -> Result<Option<Typed<'s>>, String> {
    let passed = |id: &Ident<'s>| lookup(caller, id.name);
    match (want, arg) {
        // A boolean: a boolean param's value, or a value for attributes; nothing else.
        (
            ParamType::Bool | ParamType::Number,
            Arg::Attr {
                value: Expr::Bool { value, .. },
                ..
            },
        ) => Ok(Some(Typed::Bool(*value))),
        (
            _,
            Arg::Attr {
                value: Expr::Bool { value, .. },
                ..
            },
        ) => Err(format!("`{value}`, a boolean")),
        (
            ParamType::Dtype,
            Arg::Attr {
                value: Expr::Name(id),
                ..
            },
        ) => match passed(id) {
            Some(Typed::Dtype(d)) => Ok(Some(Typed::Dtype(d))),
            Some(other) => Err(other.found(id.name)),
            None => match Dtype::from_name(id.name) {
                Some(d) => Ok(Some(Typed::Dtype(d.as_str()))),
                None => Err(format!("`{}`, which is not a dtype", id.name)),
            },
        },
        (ParamType::Dtype | ParamType::Bool, Arg::FloatAttr { value, .. }) => {
            Err(format!("`{}`, a float", value.text))
        }
        (ParamType::Dtype, _) => Err("an integer".to_string()),
        (
            _,
            Arg::Attr {
                value: Expr::Name(id),
                ..
            },
        ) if passed(id).is_some() => match (want, passed(id)) {
            (ParamType::Float | ParamType::Number, Some(Typed::Float(f))) => {
                Ok(Some(Typed::Float(f)))
            }
            (ParamType::Bool | ParamType::Number, Some(Typed::Bool(b))) => Ok(Some(Typed::Bool(b))),
            (_, Some(other)) => Err(other.found(id.name)),
            (_, None) => Ok(None),
        },
        (
            _,
            Arg::Attr {
                value: Expr::Name(id),
                ..
            },
        ) if Dtype::from_name(id.name).is_some() => Err(format!("`{}`, a dtype", id.name)),
        (
            ParamType::Bool,
            Arg::Attr {
                value: Expr::Name(id),
                ..
            },
        ) if !int_param(id.name) => {
            // No param of the caller's (a required param of a block checked on its own has
            // no value): a `param` statement, which says so where the name is undefined.
            Ok(None)
        }
        (ParamType::Bool, Arg::Attr { value, .. }) => Err(match value {
            Expr::Int { value: Some(v), .. } => format!("`{v}`, an integer"),
            Expr::Name(id) => format!("`{}`, an integer", id.name),
            _ => "an integer".to_string(),
        }),
        (ParamType::Bool, _) => Err("an integer".to_string()),
        (ParamType::Float | ParamType::Number, Arg::FloatAttr { value, .. }) => {
            Ok(Some(Typed::Float(value.text)))
        }
        (ParamType::Int, Arg::FloatAttr { value, .. }) => Err(format!("`{}`, a float", value.text)),
        // An integer expression: a `param` statement (a float param takes an integer too).
        _ => Ok(None),
    }
}

/// What a param of type `want` named `name` takes, and an example of it, for the message
/// about `arg`, a value that does not fit.
pub(super) fn wanted(want: ParamType, name: &str, arg: &Arg<'_>) -> (&'static str, String) {
    match (want, arg) {
        // `true` as an integer is 1.
        (
            ParamType::Int,
            Arg::Attr {
                value: Expr::Bool { value, .. },
                ..
            },
        ) => ("an integer", format!("`{name} = {}`", u8::from(*value))),
        (ParamType::Int, _) => ("an integer", format!("`{name} = 2048`")),
        (ParamType::Float, _) => ("a float", format!("`{name} = 1e-5`")),
        (ParamType::Number, _) => ("a number or a boolean", format!("`{name} = 1e-5`")),
        (ParamType::Dtype, _) => ("a dtype", format!("`{name} = bf16`")),
        (ParamType::Bool, _) => ("a boolean", format!("`{name} = true` or `{name} = false`")),
    }
}

/// The value of a non-integer param from its default, in an instance whose earlier params'
/// values are `values` (`None` for an integer param, or a default that has none).
pub(super) fn default_value<'s>(
    p: &BlockParam<'s>,
    t: ParamType,
    values: &Values<'s>,
) -> Option<Typed<'s>> {
    match (t, &p.default, &p.float) {
        (ParamType::Float | ParamType::Number, _, Some(f)) => Some(Typed::Float(f.text)),
        (ParamType::Bool, Some(Expr::Bool { value, .. }), _) => Some(Typed::Bool(*value)),
        (ParamType::Int, ..) => None,
        (_, Some(Expr::Name(id)), _) => lookup(values, id.name).or_else(|| {
            Dtype::from_name(id.name)
                .filter(|_| t == ParamType::Dtype)
                .map(|d| Typed::Dtype(d.as_str()))
        }),
        _ => None,
    }
}
