//! Values the declarations need: params in statement order (with `--set` overrides, and
//! "used before its definition" / "refers to itself"), shape dims within the limits, dtypes
//! by name, and byte sizes that must fit in 64 bits.

use super::{FastMap, ParamInfo, Sema, duplicate, expr, fmt_shape, rename_fix};
use crate::diagnostics::{Code, Diagnostic, Span, did_you_mean};
use crate::limits;
use crate::syntax::ast::{Ident, StmtKind, TypeAst};
use crate::syntax::body::Form;
use crate::types::Dtype;
use expr::Lookup;

impl<'a, 's> Sema<'a, 's> {
    /// Evaluates the params in statement order. Each statement is read twice, one at a time
    /// (an expanded graph's are made again each time, not held).
    pub(super) fn params(&mut self) {
        let ast = self.ast;
        // Names and positions first, so that a use before the definition can point at it.
        let mut defined_at: FastMap<&'s str, (usize, Span)> = FastMap::default();
        for (i, st) in ast.select(&[Form::Param]) {
            if let StmtKind::Param { name, .. } = &st.kind {
                defined_at.entry(name.name).or_insert((i, name.span));
            }
        }
        for (i, st) in ast.select(&[Form::Param]) {
            let StmtKind::Param { name, value } = &st.kind else {
                continue;
            };
            if let Some(first) = self.params.get(name.name) {
                let d = duplicate("param", name, first.span);
                self.diags.push(d);
                continue;
            }
            // An overridden param takes the `--set` value; its own expression is not evaluated.
            let v = match self.overrides.get(name.name) {
                Some(&o) => Some(o),
                None => {
                    let params = &self.params;
                    let lookup = |n: &str| match params.get(n) {
                        Some(p) => p.value.map_or(Lookup::Poisoned, Lookup::Value),
                        None => match defined_at.get(n) {
                            Some(&(j, _)) if j == i => Lookup::SelfRef,
                            Some(&(j, span)) if j > i => Lookup::Later(span),
                            _ => Lookup::Unknown,
                        },
                    };
                    let names = &self.param_order;
                    let suggest =
                        |n: &str| did_you_mean(n, names.iter().copied()).map(str::to_string);
                    expr::eval(value, &lookup, &suggest, &mut self.diags)
                }
            };
            self.params.insert(
                name.name,
                ParamInfo {
                    value: v,
                    span: name.span,
                },
            );
            self.param_order.push(name.name);
        }
    }

    /// Evaluates a shape or index expression, where every param of the graph is visible.
    pub(super) fn eval(&mut self, e: &crate::syntax::ast::Expr<'s>) -> Option<i64> {
        let params = &self.params;
        let lookup = |n: &str| match params.get(n) {
            Some(p) => p.value.map_or(Lookup::Poisoned, Lookup::Value),
            None => Lookup::Unknown,
        };
        let names = &self.param_order;
        let suggest = |n: &str| did_you_mean(n, names.iter().copied()).map(str::to_string);
        expr::eval(e, &lookup, &suggest, &mut self.diags)
    }

    pub(super) fn dims(&mut self, ty: &TypeAst<'s>) -> Option<Vec<u64>> {
        if ty.dims.len() > limits::MAX_RANK {
            self.diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    format!(
                        "rank {} exceeds the limit of {}",
                        ty.dims.len(),
                        limits::MAX_RANK
                    ),
                )
                .at(ty.span, "too many dimensions"),
            );
            return None;
        }
        let mut ok = true;
        let mut out = Vec::with_capacity(ty.dims.len());
        for d in &ty.dims {
            match self.eval(d) {
                Some(v) if v >= 1 && v as u64 > limits::MAX_DIM => {
                    ok = false;
                    self.diags.push(
                        Diagnostic::new(
                            Code::LimitExceeded,
                            format!(
                                "dimension {v} exceeds the limit of 2^48 ({})",
                                limits::MAX_DIM
                            ),
                        )
                        .at(d.span(), "too large")
                        .help("dimensions are at most 2^48; no real tensor comes near it"),
                    );
                }
                Some(v) if v >= 1 => out.push(v as u64),
                Some(v) => {
                    ok = false;
                    self.diags.push(
                        Diagnostic::new(
                            Code::InvalidShape,
                            format!("dimension must be at least 1, found {v}"),
                        )
                        .at(d.span(), format!("evaluates to {v}"))
                        .help("every dimension of a tensor is a positive integer"),
                    );
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    pub(super) fn dtype(&mut self, id: &Ident<'s>) -> Option<Dtype> {
        if let Some(d) = Dtype::from_name(id.name) {
            return Some(d);
        }
        let names: Vec<&str> = Dtype::ALL.iter().map(|d| d.as_str()).collect();
        let mut help = format!("expected one of {}", names.join(", "));
        let suggestion = did_you_mean(id.name, names.iter().copied());
        if let Some(s) = suggestion {
            help = format!("did you mean `{s}`? ({help})");
        }
        let mut d = Diagnostic::new(Code::UnknownDtype, format!("unknown dtype `{}`", id.name))
            .at(id.span, "not a dtype")
            .help(help);
        if let Some(s) = suggestion {
            d = d.fix(rename_fix(id, s));
        }
        self.diags.push(d);
        None
    }

    /// `name_at` gives the tensor's name and the place to report an overflow at; it is called
    /// only then (for an op, it reads the statement, which is out of cache by now).
    pub(super) fn size(
        &mut self,
        shape: Option<&[u64]>,
        dtype: Option<Dtype>,
        name_at: impl FnOnce() -> (Ident<'s>, Span),
    ) -> Option<u64> {
        let (shape, dtype) = (shape?, dtype?);
        let bytes = shape
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .and_then(|n| n.checked_mul(dtype.bytes()));
        if bytes.is_none() {
            let (name, at) = name_at();
            self.diags.push(
                Diagnostic::new(
                    Code::SizeOverflow,
                    format!(
                        "size of `{}` ({dtype}{}) overflows 64 bits",
                        name.name,
                        fmt_shape(shape)
                    ),
                )
                .at(at, "more than 2^64 bytes")
                .help("check the dimensions and the params they use"),
            );
        }
        bytes
    }
}
