//! Shape inference: the output of each op (in topological order) from its arguments' shapes
//! after views, by the shape rule of its kind (`shape`, `ops`); checked against a declared
//! shape, which reshape, expand and reductions must give. Every output, inferred or declared,
//! of every kind, then passes the limits here: rank and dimensions (`limit-exceeded`), bytes
//! (`size-overflow`). Then its dtype (declared, else the first input's; a `gather`'s indices
//! must be integers, an `update`'s rows should have the buffer's dtype), and its FLOPs, counted
//! by the cost model's own rule (`crate::ops::flops`): an op, or a graph in all, whose FLOPs
//! do not fit 64 bits is `size-overflow`, so the cost model never saturates.

use super::ops::{Reduced, Unknowable};
use super::{Sema, TensorDraft, UseDraft, fmt_shape, op_stmt, ops, shape, use_name, use_range};
use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Span};
use crate::limits;
use crate::syntax::ast::OpStmt;
use crate::types::{Dtype, OpKind};
use std::borrow::Cow;

/// Arguments of one op as the shape diagnostics name them: `qkv_heads[…].T`.
struct ArgsOf<'x, 's> {
    uses: &'x [UseDraft],
    /// Index of `uses[0]` in the flat list.
    base: usize,
    tensors: &'x [TensorDraft<'s>],
    unresolved: &'x [(usize, &'s str)],
}

impl shape::ArgNames for ArgsOf<'_, '_> {
    fn name(&self, k: usize) -> String {
        let u = &self.uses[k];
        let mut s = use_name(self.base + k, u, self.tensors, self.unresolved).to_string();
        if u.index().is_some() {
            s += "[…]";
        }
        if u.transpose {
            s += ".T";
        }
        s
    }
    fn span(&self, k: usize) -> Span {
        self.uses[k].span
    }
}

/// The FLOPs of a graph's ops, summed as they are inferred ([`Sema::infer`]'s answers).
#[derive(Default)]
pub(super) struct FlopTotal {
    sum: u64,
    /// An op's count did not fit (reported at the op), or the sum did not.
    op_overflowed: bool,
    sum_overflowed: bool,
}

impl FlopTotal {
    /// Adds one op's answer: its FLOPs, or `None` when they did not fit 64 bits.
    pub(super) fn add(&mut self, flops: Option<u64>) {
        match flops.map(|f| self.sum.checked_add(f)) {
            Some(Some(s)) => self.sum = s,
            Some(None) => self.sum_overflowed = true,
            None => self.op_overflowed = true,
        }
    }
}

impl<'a, 's> Sema<'a, 's> {
    /// Reports a graph whose ops' FLOPs each fit 64 bits but whose sum does not.
    pub(super) fn flop_total(&mut self, total: FlopTotal) {
        if total.sum_overflowed && !total.op_overflowed {
            self.diags.push(
                Diagnostic::new(
                    Code::SizeOverflow,
                    format!(
                        "the FLOPs of graph `{}` overflow 64 bits in all",
                        self.ast.name().name
                    ),
                )
                .at(self.ast.name().span, "more than 2^64 - 1 FLOPs in all")
                .help("every op's count fits but their sum does not: check the dimensions"),
            );
        }
    }

    /// Infers and checks the output of op `o`; its inputs have been inferred already. Returns
    /// the op's FLOPs (0 where they are unknown after an error), or `None` when they do not fit
    /// 64 bits (reported).
    pub(super) fn infer(&mut self, o: usize) -> Option<u64> {
        if self.ops[o].poisoned {
            return Some(0);
        }
        let Some(kind) = self.ops[o].kind else {
            return Some(0);
        };
        // The statement is read only to report something: a large graph's syntax tree is
        // long out of cache by now.
        let (ast, at) = (self.ast, self.ops[o].stmt);
        let stmt = move || op_stmt(ast, at);
        // Each op is inferred once: its declared shape can be moved out.
        let declared = self.ops[o].declared_shape.take();
        let ty_span = || stmt().ty.as_ref().map_or(stmt().output.span, |t| t.span);
        // Argument shapes borrow the tensors: this block ends before the output is stored.
        let (out, first_dtype, flops) = {
            let range = use_range(&self.ops, o);
            let uses = &self.uses[range.clone()];
            let (tensors, diags) = (&self.tensors, &mut self.diags);
            let names = ArgsOf {
                uses,
                base: range.start,
                tensors,
                unresolved: &self.unresolved,
            };
            // Argument shapes after views, borrowed where no view changes them; `None` where an
            // input is unknown.
            let arg = |k: usize, diags: &mut Vec<Diagnostic>| {
                let u = &uses[k];
                let t = &tensors[u.tensor()?.index()];
                let s = t.shape.as_deref()?;
                shape::view(
                    s,
                    u.index().flatten(),
                    u.transpose,
                    t.name.name,
                    u.span,
                    diags,
                )
            };
            let mut small: [Option<Cow<'_, [u64]>>; 2] = [None, None];
            let many: Vec<Option<Cow<'_, [u64]>>>;
            let args: &[Option<Cow<'_, [u64]>>] = if uses.len() <= small.len() {
                for (k, slot) in small.iter_mut().enumerate().take(uses.len()) {
                    *slot = arg(k, diags);
                }
                &small[..uses.len()]
            } else {
                many = (0..uses.len()).map(|k| arg(k, diags)).collect();
                &many
            };
            let written = stmt();
            let op_attrs = ops::Attrs {
                kind,
                ints: &self.ops[o].attrs,
                extra: self.ops[o].extra.as_deref(),
                stmt: &written,
            };
            let per_element = op_attrs.flops(diags);
            // A reduction's shape comes from its function, unless the file is its only source.
            let reduced = (kind == OpKind::Reduction).then(|| {
                op_attrs.reduction(args.first().and_then(|a| a.as_deref()), &names, diags)
            });
            // A norm's weight and bias apply along its input: each must broadcast to the
            // input's shape without changing it (`[H]` for `[S, H]`, not `[S]`).
            // A group norm's are per channel (`[C]` of `[N, C, …]`).
            let shape_rule = (kind == OpKind::Reduction)
                .then(|| written.func)
                .flatten()
                .and_then(|f| crate::ops::funcs::find(OpKind::Reduction, f.name))
                .map(|f| f.shape);
            if matches!(reduced, Some(Reduced::Inferred { .. }))
                && let Some(Some(first)) = args.first()
            {
                let per_channel = shape_rule == Some(crate::ops::funcs::FuncShape::Groups);
                for (k, a) in args.iter().enumerate().skip(1) {
                    let Some(s) = a.as_deref() else { continue };
                    let fits = if per_channel {
                        first.get(1).is_some_and(|&c| s == [c])
                    } else {
                        shape::broadcast2(first, s).as_deref() == Some(&first[..])
                    };
                    if !fits {
                        diags.push(
                            Diagnostic::new(
                                Code::ShapeMismatch,
                                format!(
                                    "`{}` {} does not apply along `{}` {}",
                                    shape::ArgNames::name(&names, k),
                                    fmt_shape(s),
                                    shape::ArgNames::name(&names, 0),
                                    fmt_shape(first)
                                ),
                            )
                            .at(
                                shape::ArgNames::span(&names, k),
                                "does not broadcast to the input",
                            )
                            .help(if per_channel {
                                format!(
                                    "a group norm's weight and bias have one value per \
                                     channel: `{}`",
                                    fmt_shape(first.get(1..2).unwrap_or(&[]))
                                )
                            } else {
                                format!(
                                    "a norm's weight and bias have the shape of the dims it \
                                     normalises, the last ones of its input: `{}` for \
                                     `axis = -1`",
                                    fmt_shape(&first[first.len().saturating_sub(1)..])
                                )
                            }),
                        );
                    }
                }
            }
            // Why the shape must be declared: `None` for a kind that infers it.
            let unknowable = match (kind, &reduced) {
                (_, Some(Reduced::Declared(why))) => Some(Some(*why)),
                (OpKind::Reshape | OpKind::Expand, _) => Some(None),
                // A recv takes no tensor: its output is declared (issue 25).
                (OpKind::Recv, _) => Some(None),
                _ => None,
            };
            // A second shape a declaration may take (a reduced axis kept as 1), and what the
            // op does, for a mismatch's message.
            let mut alt: Option<Vec<u64>> = None;
            let mut what: Option<(String, String)> = None;
            // `Some(shape)`: inferred; `None` where the kind infers: unknown because of an
            // earlier error.
            let inferred: Option<Vec<u64>> = match kind {
                OpKind::Elementwise => shape::broadcast_all(args, &names, diags).flatten(),
                OpKind::Matmul => shape::matmul(args, &names, diags).flatten(),
                OpKind::Reduction => match reduced {
                    Some(Reduced::Inferred {
                        forms,
                        what: w,
                        hint,
                    }) => {
                        let mut forms = forms.into_iter();
                        what = Some((w, hint));
                        let first = forms.next();
                        alt = forms.next();
                        first
                    }
                    _ => None,
                },
                OpKind::Reshape | OpKind::Expand => None,
                OpKind::Conv => super::conv::infer(args, &op_attrs, &names, diags),
                k if super::pool::is_pool(k) => super::pool::infer(args, &op_attrs, &names, diags),
                OpKind::Attention => super::attention::infer(args, &op_attrs, &names, diags),
                OpKind::ScaledMm => super::quant::infer_scaled(args, &names, diags),
                OpKind::QuantMm => {
                    let w = uses.get(1).and_then(|u| u.tensor());
                    let w_dtype = w.and_then(|t| tensors[t.index()].dtype);
                    super::quant::infer_quant(args, &op_attrs, w_dtype, &names, diags)
                }
                _ => ops::infer(args, &op_attrs, &names, diags),
            };
            let out = match declared {
                // The declared dims had errors of their own.
                Some(None) => None,
                None => match unknowable {
                    None => inferred,
                    Some(why) => {
                        diags.push(missing_shape(kind, why, &stmt()));
                        None
                    }
                },
                Some(Some(decl)) => match inferred {
                    Some(inf) if inf != decl && alt.as_ref() != Some(&decl) => {
                        diags.push(shape_mismatch(
                            kind,
                            &decl,
                            (&inf, alt.as_deref()),
                            what,
                            &stmt(),
                            ty_span(),
                        ));
                        None
                    }
                    _ if kind == OpKind::Reshape => {
                        shape::reshape(args, decl, &names, ty_span(), diags)
                    }
                    _ if kind == OpKind::Expand => {
                        ops::expand(args, decl, &names, ty_span(), diags)
                    }
                    _ => Some(decl),
                },
            };
            // The limits every output passes, whatever its kind.
            let out = out.filter(|s| within_limits(s, kind, &stmt, diags));
            // FLOPs by the cost model's rule, from the arguments as read; unknown after an error.
            let flops = match (&out, per_element, args.first()) {
                (Some(s), Ok(per_element), Some(Some(first))) => Some(crate::ops::flops(
                    kind,
                    &crate::ops::FlopArgs {
                        out: s,
                        first: Some((first, false)),
                        second: args.get(1).and_then(|a| a.as_deref()),
                        func: self.ops[o].func,
                        third: args.get(2).and_then(|a| a.as_deref()),
                        ints: &self.ops[o].attrs,
                        extra: self.ops[o].extra.as_deref(),
                        inputs: uses.len(),
                    },
                    per_element,
                )),
                _ => None,
            };
            // dtype: the declared one, else the first tensor input's.
            let first_dtype = uses
                .first()
                .and_then(|u| u.tensor())
                .and_then(|t| tensors[t.index()].dtype);
            (out, first_dtype, flops)
        };
        let dtype = match self.ops[o].declared_dtype {
            Some(d) => d,
            // Indices are PyTorch's int64 unless declared.
            None if matches!(kind, OpKind::TopkIndices | OpKind::Argsort) => Some(Dtype::I64),
            // `torch._scaled_mm`'s `out_dtype` defaults to bf16; two i8 matrices multiply
            // into their i32 accumulator (`torch._int_mm`).
            None if kind == OpKind::ScaledMm => Some(Dtype::Bf16),
            None if kind == OpKind::Matmul
                && first_dtype == Some(Dtype::I8)
                && self.arg_dtype(o, 1).map(|d| d.0) == Some(Dtype::I8) =>
            {
                Some(Dtype::I32)
            }
            None => first_dtype,
        };
        match kind {
            OpKind::Elementwise => self.dtype_mismatch(o),
            OpKind::Gather => self.gather_indices(o),
            OpKind::Update => self.update_rows(o),
            OpKind::TopkIndices | OpKind::Argsort | OpKind::IndexAdd | OpKind::OneHot => {
                self.routing_dtypes(o, kind, dtype)
            }
            OpKind::SelectiveScan => self.selective_scan_dtypes(o),
            OpKind::AssociativeScan => self.dtype_mismatch(o),
            OpKind::ScaledMm | OpKind::QuantMm => self.quant_dtypes(o, kind),
            OpKind::Attention => self.attention_mask(o),
            OpKind::Matmul => self.matmul_bias(o),
            _ => {}
        }
        let output = self.ops[o].output;
        let bytes = self.size(out.as_deref(), dtype, || (stmt().output, ty_span()));
        let out = out
            .filter(|_| bytes.is_some())
            .map(|s| self.intern.shape(s));
        let t = &mut self.tensors[output.index()];
        (t.shape, t.dtype, t.bytes) = (out, dtype, bytes);
        // A count is only asked of an output whose size fits (else `size-overflow` is said).
        match flops {
            Some((Some(n), _)) => Some(n),
            Some((None, _)) if bytes.is_some() => {
                self.diags.push(flop_overflow(kind, &stmt()));
                None
            }
            _ => Some(0),
        }
    }

    /// The dtypes of op `o`'s tensor arguments `k` (by position), with their names and places;
    /// `None` where unknown.
    fn arg_dtype(&self, o: usize, k: usize) -> Option<(Dtype, &'s str, Span)> {
        let u = self.uses.get(use_range(&self.ops, o).nth(k)?)?;
        let t = &self.tensors[u.tensor()?.index()];
        Some((t.dtype?, t.name.name, u.span))
    }

    /// An attention's mask (argument 3) is boolean (true: attend) or of the queries' dtype,
    /// added to the scores, as SDPA's `attn_mask`: `invalid-dtype` otherwise.
    fn attention_mask(&mut self, o: usize) {
        let (Some((m, name, at)), Some((q, qname, qat))) =
            (self.arg_dtype(o, 3), self.arg_dtype(o, 0))
        else {
            return;
        };
        if m == Dtype::Bool || m == q {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::InvalidDtype,
                format!(
                    "the mask `{name}` of attention `{}` is {m}: SDPA takes a bool mask or one of \
                     the queries' dtype, {q}",
                    self.ops[o].name
                ),
            )
            .at(at, format!("`{name}` is {m}"))
            .with(qat, format!("`{qname}` is {q}"))
            .help(format!(
                "declare the mask `bool` (true where a query sees a key) or {q} (added to the \
                 scores: 0 or a large negative number)"
            )),
        );
    }

    /// A matmul's bias (argument 2) has the first operand's dtype: cuBLAS adds it in the
    /// epilogue at the output's type (`F.linear` refuses another).
    fn matmul_bias(&mut self, o: usize) {
        let (Some((d, name, at)), Some((x, xname, xat))) =
            (self.arg_dtype(o, 2), self.arg_dtype(o, 0))
        else {
            return;
        };
        if d == x {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::InvalidDtype,
                format!(
                    "the bias `{name}` of matmul `{}` is {d}, not {x} as `{xname}`",
                    self.ops[o].name
                ),
            )
            .at(at, format!("`{name}` is {d}"))
            .with(xat, format!("`{xname}` is {x}"))
            .help(format!(
                "declare the bias {x}: cuBLAS adds it to the product in its epilogue, at the \
                 operands' dtype (`F.linear` refuses a bias of another)"
            )),
        );
    }

    /// A gather's indices (argument 1) must be integers: `invalid-dtype` otherwise.
    fn gather_indices(&mut self, o: usize) {
        let Some((d, name, at)) = self.arg_dtype(o, 1) else {
            return;
        };
        if is_index_dtype(d) {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::InvalidDtype,
                format!(
                    "the indices `{name}` of gather `{}` are {d}, not integers",
                    self.ops[o].name
                ),
            )
            .at(at, format!("`{name}` is {d}"))
            .help(format!(
                "declare the indices with an integer dtype, as PyTorch needs: `{name}: i32[..]` \
                 or `i64` (also {})",
                INDEX_DTYPES[2..]
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        );
    }

    /// An update's rows (argument 1) of another dtype than its buffer (argument 0) are
    /// converted to the buffer's: the warning `dtype-mismatch`, as for elementwise inputs.
    fn update_rows(&mut self, o: usize) {
        let (Some((cache, cname, cspan)), Some((new, nname, nspan))) =
            (self.arg_dtype(o, 0), self.arg_dtype(o, 1))
        else {
            return;
        };
        if cache == new {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::DtypeMismatch,
                format!(
                    "update `{}` writes {new} rows into the {cache} buffer `{cname}`",
                    self.ops[o].name
                ),
            )
            .at(nspan, format!("`{nname}` is {new}"))
            .with(cspan, format!("`{cname}` is {cache}"))
            .help(format!(
                "the rows are converted to {cache} and written at {} bytes an element; declare \
                 them {cache}, convert them with an explicit op, or allow `dtype-mismatch` if the \
                 conversion is meant (an 8-bit KV cache)",
                cache.bytes()
            )),
        );
    }
}

impl Sema<'_, '_> {
    /// The low-precision GEMMs' dtype rules (issue 23 item 6, `super::quant::dtypes`).
    fn quant_dtypes(&mut self, o: usize, kind: OpKind) {
        let args: Vec<super::quant::ArgDtype<'_>> = (0..use_range(&self.ops, o).len())
            .map(|k| self.arg_dtype(o, k))
            .collect();
        let out = self.ops[o].declared_dtype.flatten().map(|d| {
            let stmt = op_stmt(self.ast, self.ops[o].stmt);
            (d, stmt.ty.as_ref().map_or(stmt.output.span, |t| t.span))
        });
        super::quant::dtypes(kind, self.ops[o].name, &args, out, &mut self.diags);
    }

    /// The routing kinds' dtype rules (issue 23): ids read (`index_add`'s argument 1,
    /// `one_hot`'s argument 0) and indices produced (`topk_indices`, `argsort`, of dtype
    /// `out`) are integers; a `topk_indices` names the values of a `topk` op.
    fn routing_dtypes(&mut self, o: usize, kind: OpKind, out: Option<Dtype>) {
        let op = self.ops[o].name;
        let read = match kind {
            OpKind::IndexAdd => Some(1),
            OpKind::OneHot => Some(0),
            _ => None,
        };
        if let Some(k) = read
            && let Some((d, name, at)) = self.arg_dtype(o, k)
            && !is_index_dtype(d)
        {
            self.diags.push(
                Diagnostic::new(
                    Code::InvalidDtype,
                    format!("the ids `{name}` of {kind} `{op}` are {d}, not integers"),
                )
                .at(at, format!("`{name}` is {d}"))
                .help(format!(
                    "declare the ids with an integer dtype, as PyTorch needs: `{name}: i32[..]` \
                     or `i64`"
                )),
            );
        }
        if matches!(kind, OpKind::TopkIndices | OpKind::Argsort)
            && let Some(d) = out.filter(|d| !is_index_dtype(*d))
        {
            let stmt = op_stmt(self.ast, self.ops[o].stmt);
            let at = stmt.ty.as_ref().map_or(stmt.output.span, |t| t.span);
            self.diags.push(
                Diagnostic::new(
                    Code::InvalidDtype,
                    format!("{kind} `{op}` produces indices, declared {d}"),
                )
                .at(at, format!("declared {d}"))
                .help(format!(
                    "indices are integers: declare `{}: i32[..]` or `i64[..]` (PyTorch's, the \
                     default)",
                    stmt.output.name
                )),
            );
        }
        if kind == OpKind::TopkIndices {
            self.topk_pair(o);
        }
    }

    /// A `topk_indices` names the values output of a `topk` op, with no view: the pair is
    /// one kernel, priced once.
    fn topk_pair(&mut self, o: usize) {
        let Some(u) = self.uses.get(use_range(&self.ops, o).start) else {
            return;
        };
        let (span, viewed) = (u.span, u.index().is_some() || u.transpose);
        let Some(t) = u.tensor() else { return };
        let t = &self.tensors[t.index()];
        let name = t.name.name;
        let producer = match t.origin {
            crate::graph::Origin::Produced(p) => self.ops.get(p.index()).and_then(|p| p.kind),
            _ => None,
        };
        if producer == Some(OpKind::Topk) && !viewed {
            return;
        }
        let why = match producer {
            _ if viewed && producer == Some(OpKind::Topk) => {
                format!("`{name}` is read through a view")
            }
            Some(k) => format!("`{name}` is the output of a {k} op"),
            None => format!("`{name}` is an input"),
        };
        self.diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "topk_indices `{}` must name the values of a topk op: {why}",
                    self.ops[o].name
                ),
            )
            .at(span, why.clone())
            .help(
                "`torch.topk` gives values and indices from one kernel; fgraph writes them as \
                 `topk(x, k = K) -> v` then `topk_indices(v) -> ids: i32[..]`, the second \
                 naming the first's output as it is",
            ),
        );
    }
}

/// The integer dtypes a gather takes as indices, the usual ones first.
const INDEX_DTYPES: &[Dtype] = &[Dtype::I32, Dtype::I64, Dtype::I16, Dtype::I8, Dtype::U8];

fn is_index_dtype(d: Dtype) -> bool {
    INDEX_DTYPES.contains(&d)
}

/// Whether the output `shape` of an op of `kind` is within the rank and dimension limits
/// (`limit-exceeded` otherwise). Declared shapes were checked as they were evaluated; an
/// inferred one (a gather adds its indices' rank, a concat sums a dimension) is checked here,
/// so that no kind can produce a tensor past them.
fn within_limits<'s, R: std::ops::Deref<Target = OpStmt<'s>>>(
    shape: &[u64],
    kind: OpKind,
    stmt: &impl Fn() -> R,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if shape.len() > limits::MAX_RANK {
        let stmt = stmt();
        diags.push(
            Diagnostic::new(
                Code::LimitExceeded,
                format!(
                    "the output `{}` of {kind} `{}` has rank {}, above the limit of {}",
                    stmt.output.name,
                    stmt.name.name,
                    shape.len(),
                    limits::MAX_RANK
                ),
            )
            .at(stmt.output.span, format!("rank {}", shape.len()))
            .with(
                stmt.kind.span,
                format!("{kind} produces {} dimensions", shape.len()),
            )
            .help("no tensor may have more than 16 dimensions: reshape the inputs to fewer"),
        );
        return false;
    }
    if let Some((i, &d)) = shape
        .iter()
        .enumerate()
        .find(|&(_, &d)| d > limits::MAX_DIM)
    {
        let stmt = stmt();
        diags.push(
            Diagnostic::new(
                Code::LimitExceeded,
                format!(
                    "dimension {i} of the output `{}` of {kind} `{}` is {d}, above the limit of \
                     2^48 ({})",
                    stmt.output.name,
                    stmt.name.name,
                    limits::MAX_DIM
                ),
            )
            .at(stmt.output.span, format!("dimension {i} is {d}"))
            .with(
                stmt.kind.span,
                format!("{kind} produces {}", fmt_shape(shape)),
            )
            .help("dimensions are at most 2^48; no real tensor comes near it"),
        );
        return false;
    }
    true
}

/// An op whose FLOPs do not fit 64 bits.
fn flop_overflow(kind: OpKind, stmt: &OpStmt<'_>) -> Diagnostic {
    Diagnostic::new(
        Code::SizeOverflow,
        format!("the FLOPs of {kind} `{}` overflow 64 bits", stmt.name.name),
    )
    .at(stmt.kind.span, "more than 2^64 - 1 FLOPs")
    .help("check the dimensions, the params they use and any `flops =` attribute")
}

/// An op whose output shape cannot be inferred, declared without one: a reshape or an
/// expand (`why` is `None`), a reduction of no function or of an opaque one.
fn missing_shape(kind: OpKind, why: Option<Unknowable>, stmt: &OpStmt<'_>) -> Diagnostic {
    let out = stmt.output.name;
    let help = match (why, stmt.func) {
        (Some(Unknowable::Opaque), Some(f)) => format!(
            "`{kind}.{}` is an opaque function: fgraph knows its cost (`flops`) from the file but \
             not what it computes, so its output shape cannot be inferred: write `-> {out}: [..]`",
            f.name
        ),
        (Some(Unknowable::NoFunction), _) => format!(
            "`{kind}(..)` names no function, so its output shape cannot be inferred: write \
             `-> {out}: [..]`, or name the function (`{kind}.sum(.., axis = -1)`), whose output \
             shape fgraph infers"
        ),
        _ => format!("{kind} output shapes cannot be inferred: write `-> {out}: [..]`"),
    };
    Diagnostic::new(
        Code::MissingShape,
        format!(
            "the output of {kind} `{}` needs a declared shape",
            stmt.name.name
        ),
    )
    .at(stmt.output.span, "no shape given")
    .help(help)
}

/// A declared output shape `decl` that is not the inferred one, `inf` (or `alt`, a second
/// form a declaration may take: a reduced axis kept as 1), with the fix that declares `inf` in
/// the type at `ty_span`; `what` says what the op does and where else to look, where that
/// helps.
fn shape_mismatch(
    kind: OpKind,
    decl: &[u64],
    (inf, alt): (&[u64], Option<&[u64]>),
    what: Option<(String, String)>,
    stmt: &OpStmt<'_>,
    ty_span: Span,
) -> Diagnostic {
    let dtype = stmt
        .ty
        .as_ref()
        .and_then(|t| t.dtype)
        .map_or("", |d| d.name);
    let out = stmt.output.name;
    let (inferred, declare) = match alt {
        Some(alt) => (
            format!(
                "either inferred shape, {} or {}",
                fmt_shape(inf),
                fmt_shape(alt)
            ),
            format!(
                "declare `{out}: {dtype}{}` (or `{dtype}{}`) or leave the shape out",
                fmt_shape(inf),
                fmt_shape(alt)
            ),
        ),
        None => (
            format!("the inferred shape {}", fmt_shape(inf)),
            format!(
                "declare `{out}: {dtype}{}` or leave the shape out",
                fmt_shape(inf)
            ),
        ),
    };
    let (what, help) = match what {
        Some((what, hint)) => (what, format!("{declare}; {hint}")),
        None => (format!("{kind} produces {}", fmt_shape(inf)), declare),
    };
    Diagnostic::new(
        Code::ShapeMismatch,
        format!(
            "declared shape {} of `{out}` does not match {inferred}",
            fmt_shape(decl),
        ),
    )
    .at(ty_span, format!("declared {}", fmt_shape(decl)))
    .with(stmt.kind.span, what)
    .help(help)
    .fix(Fix::replace(
        format!("declare the inferred shape {}", fmt_shape(inf)),
        Applicability::NeedsReview,
        ty_span,
        format!("{dtype}{}", fmt_shape(inf)),
    ))
}
