//! One PyTorch call per fgraph op. [`Emitter::op`] is an exhaustive match over
//! [`OpKind`]: a kind added later does not compile until it is written here. Each arm
//! returns the call and the dtype PyTorch gives it (the module converts it where fgraph's
//! differs), with a note wherever the call is not exactly the op (an extra kernel, a
//! placeholder, a mask PyTorch applies differently). The functions of `elementwise` and
//! `reduction` are in `funcs`, what calls are made of in `args`.

use super::args::{
    Arg, axis, dim_text, err, ints_or_list, number_attr, py_int_or_tuple, slice_expr,
};
use super::dtypes::{is_float, is_fp8, result_type, storage, torch_name};
use super::{Emitter, Stmt, normalize, py_shape};
use crate::emit::EmitError;
use crate::graph::{OpId, OpNode};
use crate::ops::funcs;
use crate::types::{Dtype, OpKind};
use std::fmt::Write;

impl Emitter<'_> {
    /// The statement of op `o`.
    pub(super) fn op(&mut self, o: OpId) -> Result<Stmt, EmitError> {
        let g = self.g;
        let op = g.op(o);
        let out = g.tensor(op.output);
        let mut notes = Vec::new();
        let mut stmt = match op.kind {
            OpKind::Elementwise => {
                match op
                    .func
                    .as_deref()
                    .and_then(|f| funcs::find(OpKind::Elementwise, f))
                {
                    Some(f) => self.elementwise(op, f, &mut notes)?,
                    None => self.opaque(op, &mut notes)?,
                }
            }
            OpKind::Reduction => {
                match op
                    .func
                    .as_deref()
                    .and_then(|f| funcs::find(OpKind::Reduction, f))
                {
                    Some(f) => self.reduction(op, f, &mut notes)?,
                    None => self.opaque(op, &mut notes)?,
                }
            }
            OpKind::Matmul => {
                let a = self.input(op, 0)?;
                let a = self.computed(a, &mut notes);
                let b = self.input(op, 1)?;
                let b = self.computed(b, &mut notes);
                let b = self.converted(b, a.dtype, "torch.matmul takes one dtype", &mut notes);
                let (ra, rb) = (
                    g.use_shape(&op.inputs[0]).len(),
                    g.use_shape(&op.inputs[1]).len(),
                );
                if a.dtype == Dtype::I8 && (ra, rb) == (2, 2) {
                    // Two int8 matrices: their i32 accumulator (CUDA's `torch.matmul` has no
                    // int8 kernel).
                    let rows = g.use_shape(&op.inputs[0])[0];
                    let mut call = super::families::int_mm(&a.expr, &b.expr, rows, &mut notes);
                    if op.inputs.len() > 2 {
                        let bias = self.input(op, 2)?;
                        call = format!("({call} + {})", bias.expr);
                    }
                    Stmt::call(call, Dtype::I32)
                } else if op.inputs.len() > 2 {
                    // nn.Linear's call: the weight as `F.linear` takes it ([N, K], a view)
                    // and the bias in cuBLASLt's epilogue.
                    let bias = self.input(op, 2)?;
                    let bias = self.computed(bias, &mut notes);
                    let bias =
                        self.converted(bias, a.dtype, "F.linear takes one dtype", &mut notes);
                    let simple = |e: &str| {
                        e.chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'))
                    };
                    // A weight read `.T` is `F.linear`'s [N, K] as it is.
                    let w = match b.expr.strip_suffix(".transpose(-2, -1)") {
                        Some(inner) if simple(inner) => inner.to_string(),
                        _ if simple(&b.expr) => format!("{}.mT", b.expr),
                        _ => format!("({}).mT", b.expr),
                    };
                    Stmt::call(
                        format!("torch.nn.functional.linear({}, {w}, {})", a.expr, bias.expr),
                        a.dtype,
                    )
                } else {
                    Stmt::call(format!("torch.matmul({}, {})", a.expr, b.expr), a.dtype)
                }
            }
            OpKind::Reshape => {
                // A view when the strides allow it (a contiguous tensor), else a copy: as
                // PyTorch's eager `reshape` decides.
                let x = self.input(op, 0)?;
                let dims = size_args(&out.shape);
                Stmt::call(format!("{}.reshape({dims})", x.expr), x.dtype)
            }
            OpKind::Slice => {
                let x = self.input(op, 0)?;
                let r = x.shape.len();
                let a = axis(op, r, 0);
                let dim = x.shape.get(a).copied().unwrap_or(1) as i64;
                let start = op.int_attr("start").unwrap_or(0);
                let end = op.int_attr("end").unwrap_or(dim);
                let step = op.int_attr("step").unwrap_or(1);
                let range = if step == 1 {
                    format!("{start}:{end}")
                } else {
                    format!("{start}:{end}:{step}")
                };
                Stmt::call(slice_expr(&x.expr, a, r, &range), x.dtype)
            }
            OpKind::Concat => {
                let args: Vec<Arg> = op.inputs.iter().map(|u| self.arg(u)).collect();
                let a = dim_text(op, 0);
                let dtype = result_type(&args.iter().map(Arg::operand).collect::<Vec<_>>());
                let list: Vec<&str> = args.iter().map(|a| a.expr.as_str()).collect();
                Stmt::call(format!("torch.cat([{}], dim={a})", list.join(", ")), dtype)
            }
            OpKind::Permute => {
                let x = self.input(op, 0)?;
                let dims = op.list_attr("dims").unwrap_or_default();
                let dims: Vec<String> = dims
                    .iter()
                    .map(|&d| normalize(d, x.shape.len()).unwrap_or(0).to_string())
                    .collect();
                Stmt::call(format!("{}.permute({})", x.expr, dims.join(", ")), x.dtype)
            }
            OpKind::Expand => {
                let x = self.input(op, 0)?;
                let dims = size_args(&out.shape);
                Stmt::call(format!("{}.expand({dims})", x.expr), x.dtype)
            }
            OpKind::Gather => {
                let table = self.input(op, 0)?;
                let ids = self.input(op, 1)?;
                let ids = self.ids(ids, "indexing", &mut notes);
                let r = table.shape.len();
                let a = axis(op, r, 0);
                let call = if ids.shape.len() == 1 {
                    format!(
                        "torch.index_select({}, {}, {})",
                        table.expr,
                        dim_text(op, 0),
                        ids.expr
                    )
                } else {
                    slice_expr(&table.expr, a, r, &ids.expr)
                };
                Stmt::call(call, table.dtype)
            }
            OpKind::Update => {
                // In place: the rows written, one copy kernel; the output is the buffer.
                let cache = self.input(op, 0)?;
                let new = self.input(op, 1)?;
                let r = cache.shape.len();
                let a = axis(op, r, 0);
                let start = op.int_attr("start").unwrap_or(0);
                let rows = new.shape.get(a).copied().unwrap_or(1) as i64;
                let target = slice_expr(&cache.expr, a, r, &format!("{start}:{}", start + rows));
                if storage(new.dtype) != storage(cache.dtype) {
                    notes.push(format!(
                        "the new rows are converted to the cache's {} by the copy itself",
                        torch_name(cache.dtype)
                    ));
                }
                self.late_readers(o, &mut notes);
                let mut s = Stmt::call(cache.expr.clone(), cache.dtype);
                s.pre.push(format!("{target} = {}", new.expr));
                s
            }
            OpKind::Conv => self.conv(op, &mut notes)?,
            OpKind::Topk => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let k = op.int_attr("k").unwrap_or(1);
                let largest = if op.int_attr("largest") == Some(0) {
                    ", largest=False"
                } else {
                    ""
                };
                let call = format!("torch.topk({}, {k}, dim={a}{largest})", x.expr);
                // The indices of the same call feed the `topk_indices` ops that read it.
                let readers: Vec<OpId> = g
                    .consumers(op.output)
                    .iter()
                    .copied()
                    .filter(|&c| g.op(c).kind == OpKind::TopkIndices)
                    .collect();
                match readers.iter().map(|c| self.position[c.index()]).max() {
                    None => Stmt::call(format!("{call}.values"), x.dtype),
                    Some(last) => {
                        let name = self.namer.internal("_topk_", &g.tensor(op.output).name);
                        self.topk_results.insert(op.output, name.clone());
                        let mut s = Stmt::call(format!("{name}.values"), x.dtype);
                        s.pre.push(format!("{name} = {call}"));
                        s.release = Some((last, name));
                        s
                    }
                }
            }
            OpKind::TopkIndices => {
                let values = op
                    .inputs
                    .first()
                    .ok_or_else(|| err(op, "topk_indices takes the values of a topk op"))?;
                let Some(result) = self.topk_results.get(&values.tensor) else {
                    return Err(err(
                        op,
                        format!(
                            "`{}` is not the output of a `topk` op, so no torch.topk call holds \
                             its indices",
                            g.tensor(values.tensor).name
                        ),
                    ));
                };
                notes.push("no kernel of its own: the indices of torch.topk above".into());
                Stmt::call(format!("{result}.indices"), Dtype::I64)
            }
            OpKind::Sort => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let desc = if op.int_attr("descending") == Some(1) {
                    ", descending=True"
                } else {
                    ""
                };
                Stmt::call(
                    format!("torch.sort({}, dim={a}{desc}).values", x.expr),
                    x.dtype,
                )
            }
            OpKind::Argsort => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let desc = if op.int_attr("descending") == Some(1) {
                    ", descending=True"
                } else {
                    ""
                };
                Stmt::call(
                    format!("torch.argsort({}, dim={a}{desc})", x.expr),
                    Dtype::I64,
                )
            }
            OpKind::IndexAdd => {
                let dest = self.input(op, 0)?;
                let ids = self.input(op, 1)?;
                let ids = self.ids(ids, "index_add", &mut notes);
                let src = self.input(op, 2)?;
                let src = self.converted(
                    src,
                    dest.dtype,
                    "index_add takes rows of the destination's dtype",
                    &mut notes,
                );
                let a = dim_text(op, 0);
                if self.late_readers(o, &mut Vec::new()) {
                    // Another op reads the destination after this one: keep it intact.
                    notes.push(format!(
                        "+1 copy: `{}` is read after this op, so the sum is made out of place \
                         (torch.index_add copies the whole destination; fgraph counts the rows \
                         touched)",
                        dest.expr
                    ));
                    Stmt::call(
                        format!(
                            "torch.index_add({}, {a}, {}, {})",
                            dest.expr, ids.expr, src.expr
                        ),
                        dest.dtype,
                    )
                } else {
                    notes.push(format!(
                        "in place: `{}` is updated (only the rows touched are read and written, \
                         as fgraph counts them)",
                        dest.expr
                    ));
                    Stmt::call(
                        format!("{}.index_add_({a}, {}, {})", dest.expr, ids.expr, src.expr),
                        dest.dtype,
                    )
                }
            }
            OpKind::Cumsum => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let default = if is_float(x.dtype) {
                    x.dtype
                } else {
                    Dtype::I64
                };
                if storage(default) != storage(out.dtype) && !is_fp8(out.dtype) {
                    Stmt::call(
                        format!(
                            "torch.cumsum({}, dim={a}, dtype={})",
                            x.expr,
                            torch_name(out.dtype)
                        ),
                        out.dtype,
                    )
                } else {
                    Stmt::call(format!("torch.cumsum({}, dim={a})", x.expr), default)
                }
            }
            OpKind::OneHot => {
                let ids = self.input(op, 0)?;
                let ids = self.converted(ids, Dtype::I64, "F.one_hot takes int64 ids", &mut notes);
                let classes = op.int_attr("classes").unwrap_or(1);
                Stmt::call(format!("F.one_hot({}, {classes})", ids.expr), Dtype::I64)
            }
            OpKind::Roll => {
                let x = self.input(op, 0)?;
                let shifts = ints_or_list(op, "shifts").unwrap_or_default();
                let call = match ints_or_list(op, "dims") {
                    Some(dims) => {
                        let dims: Vec<i64> = dims
                            .iter()
                            .map(|&d| normalize(d, x.shape.len()).unwrap_or(0) as i64)
                            .collect();
                        format!(
                            "torch.roll({}, shifts={}, dims={})",
                            x.expr,
                            py_int_or_tuple(&shifts),
                            py_int_or_tuple(&dims)
                        )
                    }
                    None => format!(
                        "torch.roll({}, shifts={})",
                        x.expr,
                        py_int_or_tuple(&shifts)
                    ),
                };
                Stmt::call(call, x.dtype)
            }
            OpKind::MaxPool | OpKind::AvgPool => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let n = x.shape.len().saturating_sub(2).clamp(1, 3);
                let x = self.channels_last_arg(op, x, &mut notes);
                let which = if op.kind == OpKind::MaxPool {
                    "max"
                } else {
                    "avg"
                };
                let mut call = format!(
                    "F.{which}_pool{n}d({}, kernel_size={}",
                    x.expr,
                    py_int_or_tuple(&ints_or_list(op, "kernel").unwrap_or(vec![1]))
                );
                for name in ["stride", "padding"] {
                    if let Some(v) = ints_or_list(op, name) {
                        let _ = write!(call, ", {name}={}", py_int_or_tuple(&v));
                    }
                }
                call.push(')');
                Stmt::call(call, x.dtype)
            }
            OpKind::GlobalAvgPool | OpKind::GlobalMaxPool => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let n = x.shape.len().saturating_sub(2).clamp(1, 3);
                let x = self.channels_last_arg(op, x, &mut notes);
                let which = if op.kind == OpKind::GlobalMaxPool {
                    "max"
                } else {
                    "avg"
                };
                Stmt::call(
                    format!("F.adaptive_{which}_pool{n}d({}, 1)", x.expr),
                    x.dtype,
                )
            }
            OpKind::Attention => self.attention(op, &mut notes)?,
            OpKind::SelectiveScan => self.selective_scan(op, &mut notes)?,
            OpKind::AssociativeScan => self.associative_scan(op, &mut notes)?,
            OpKind::ScaledMm => self.scaled_mm(op, &mut notes)?,
            OpKind::QuantMm => self.quant_mm(op, &mut notes)?,
            OpKind::AllReduce
            | OpKind::AllGather
            | OpKind::ReduceScatter
            | OpKind::AllToAll
            | OpKind::Broadcast
            | OpKind::Send
            | OpKind::Recv => self.collective(op, &mut notes)?,
        };
        stmt.notes.splice(0..0, notes);
        Ok(stmt)
    }

    fn conv(&mut self, op: &OpNode, notes: &mut Vec<String>) -> Result<Stmt, EmitError> {
        let x = self.input(op, 0)?;
        let x = self.computed(x, notes);
        let w = self.input(op, 1)?;
        let w = self.computed(w, notes);
        let w = self.converted(w, x.dtype, "a convolution takes one dtype", notes);
        let n = x.shape.len().saturating_sub(2);
        if !(1..=3).contains(&n) {
            return Err(err(
                op,
                format!(
                    "a convolution of rank {} (PyTorch has 1-, 2- and 3-D ones)",
                    x.shape.len()
                ),
            ));
        }
        let x = self.channels_last_arg(op, x, notes);
        let w = self.channels_last_arg(op, w, notes);
        let mut call = format!("F.conv{n}d({}, {}", x.expr, w.expr);
        for name in ["stride", "padding", "dilation"] {
            if let Some(v) = ints_or_list(op, name) {
                let _ = write!(call, ", {name}={}", py_int_or_tuple(&v));
            }
        }
        if let Some(gr) = op.int_attr("groups") {
            let _ = write!(call, ", groups={gr}");
        }
        call.push(')');
        Ok(Stmt::call(call, x.dtype))
    }

    fn attention(&mut self, op: &OpNode, notes: &mut Vec<String>) -> Result<Stmt, EmitError> {
        let q = self.input(op, 0)?;
        let q = self.computed(q, notes);
        let k = self.input(op, 1)?;
        let k = self.computed(k, notes);
        let v = self.input(op, 2)?;
        let v = self.computed(v, notes);
        let k = self.converted(k, q.dtype, "SDPA takes one dtype", notes);
        let v = self.converted(v, q.dtype, "SDPA takes one dtype", notes);
        let (rq, rk) = (q.shape.len(), k.shape.len());
        if rq < 2 || rk < 2 {
            return Err(err(op, "attention needs q, k and v of rank 2 or more"));
        }
        let heads = |s: &[u64]| if s.len() >= 3 { s[s.len() - 3] } else { 1 };
        let (sq, sk) = (q.shape[rq - 2], k.shape[rk - 2]);
        let (hq, hkv) = (heads(&q.shape), heads(&k.shape));
        // Rank 2 and 3 become [1, H, S, D] (views), as SDPA's fused kernels take them.
        let lift = 4usize.saturating_sub(rq.max(rk).max(v.shape.len()));
        let up = |a: &Arg| {
            let pad = 4usize.saturating_sub(a.shape.len()).min(lift);
            match pad {
                0 => a.expr.clone(),
                p => format!("{}[{}]", a.expr, vec!["None"; p].join(", ")),
            }
        };
        // Rank 5 and up ([B, KV heads, group, S, D], as `fgraph import hf` writes grouped-query
        // attention): SDPA's fused kernels take 4-D tensors, so the heads are merged into one
        // dimension (views where they are adjacent in memory) and split again after.
        let merged = crate::ops::attention::merged_heads(&q.shape, &k.shape, &v.shape);
        let mut call = match merged {
            Some(m) => {
                let four = |a: &Arg, h: u64| {
                    let r = a.shape.len();
                    format!(
                        "{}.reshape({}, {h}, {}, {})",
                        a.expr,
                        a.shape[0],
                        a.shape[r - 2],
                        a.shape[r - 1]
                    )
                };
                format!(
                    "F.scaled_dot_product_attention({}, {}, {}",
                    four(&q, m.0),
                    four(&k, m.1),
                    four(&v, m.1)
                )
            }
            None => format!(
                "F.scaled_dot_product_attention({}, {}, {}",
                up(&q),
                up(&k),
                up(&v)
            ),
        };
        let causal = op.int_attr("causal") == Some(1);
        let mut remark = None;
        let window = op.int_attr("window");
        if causal {
            let all_seen = sq <= 1 && window.is_none_or(|w| w as u64 >= sk);
            if all_seen {
                remark = Some("# causal with one query: it sees every key (no mask)");
            } else if sq == sk && window.is_none() {
                call.push_str(", is_causal=True");
            } else {
                let mask = self.mask(op, (sq, sk), window, true);
                let _ = write!(call, ", attn_mask={mask}");
                notes.push(match window {
                    Some(w) => format!(
                        "approximate: PyTorch's SDPA has no sliding window: the window of {w} \
                         keys is a boolean mask, which gives the same result but runs SDPA's \
                         memory-efficient (or math) kernel over every (query, key) pair, not \
                         FlashAttention's band"
                    ),
                    None => "approximate: the causal mask aligned to the last key (fgraph's and \
                             FlashAttention's rule; PyTorch's is_causal aligns it to the first) \
                             is a boolean mask: SDPA runs its memory-efficient kernel, not \
                             FlashAttention"
                        .into(),
                });
            }
        }
        if op.inputs.len() > 3 {
            // The mask, SDPA's `attn_mask`: lifted to 4-D as q is, or, where the heads merge,
            // its head dims merged too (a view where they are all 1).
            let m = self.input(op, 3)?;
            let m = self.computed(m, notes);
            let expr = match merged {
                Some((h, _)) => {
                    let r = m.shape.len();
                    let (b, sq, sk) = (q.shape[0], q.shape[rq - 2], k.shape[rk - 2]);
                    let ones = |d: &[u64]| d.iter().all(|&d| d == 1);
                    let lead = if r == rq && ones(&m.shape[1..r - 2]) {
                        Some(m.shape[0])
                    } else if r >= 2 && ones(&m.shape[..r - 2]) {
                        Some(1)
                    } else {
                        None
                    };
                    if let Some(lead) = lead {
                        format!(
                            "{}.reshape({lead}, 1, {}, {})",
                            m.expr,
                            m.shape[r - 2],
                            m.shape[r - 1]
                        )
                    } else {
                        let mut scores = q.shape[..rq - 1].to_vec();
                        scores.push(sk);
                        let dims: Vec<String> = scores.iter().map(u64::to_string).collect();
                        format!(
                            "{}.expand({}).reshape({b}, {h}, {sq}, {sk})",
                            m.expr,
                            dims.join(", ")
                        )
                    }
                }
                None => up(&m),
            };
            let _ = write!(call, ", attn_mask={expr}");
        }
        if let Some(s) = number_attr(op, "scale") {
            let _ = write!(call, ", scale={s}");
        }
        if merged.map_or(hq != hkv, |(a, b)| a != b) {
            call.push_str(", enable_gqa=True");
        }
        call.push(')');
        if lift > 0 {
            let _ = write!(call, "[{}]", vec!["0"; lift].join(", "));
        }
        if merged.is_some() {
            let mut out = q.shape[..rq - 1].to_vec();
            out.push(v.shape[v.shape.len() - 1]);
            let dims: Vec<String> = out.iter().map(u64::to_string).collect();
            let _ = write!(call, ".reshape({})", dims.join(", "));
        } else if rq.max(rk) > 4 {
            notes.push(
                "approximate: SDPA's fused kernels take 4-D [B, H, S, D] tensors; this rank runs \
                 its math fallback"
                    .into(),
            );
        }
        let mut stmt = Stmt::call(call, q.dtype);
        stmt.pre.extend(remark.map(String::from));
        Ok(stmt)
    }

    /// A function the registry does not list (cost stated with `flops = N`), or the seed's
    /// form with no function: its output is allocated, not computed.
    pub(super) fn opaque(
        &mut self,
        op: &OpNode,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let x = self.input(op, 0)?;
        let out = self.g.tensor(op.output);
        notes.push(match &op.func {
            Some(f) => format!(
                "placeholder: opaque function `{}.{f}` has no PyTorch equivalent; its output \
                 is allocated (torch.empty), not computed, and launches no kernel",
                op.kind
            ),
            None => format!(
                "placeholder: `{}` names no function (the seed's form), so there is no PyTorch \
                 call for it; its output is allocated (torch.empty), not computed",
                op.kind
            ),
        });
        Ok(Stmt::call(
            format!(
                "torch.empty({}, dtype={}, device={}.device)",
                py_shape(&out.shape),
                torch_name(out.dtype),
                x.expr
            ),
            out.dtype,
        ))
    }
}

/// A shape as the arguments of `reshape`/`expand`: `2, 3` (`()` for a scalar).
fn size_args(shape: &[u64]) -> String {
    if shape.is_empty() {
        return "()".to_string();
    }
    shape
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
