//! The mapping of ONNX operators onto fgraph ops: one table ([`map`]'s match) from operator
//! name to the ops it becomes, each with its output shape computed here (so that `reshape`
//! and `expand` can declare theirs); the data-movement operators are in `movement`, the
//! normalisations and reductions in `reduce`.
//! Operators of no row, or used in a way fgraph cannot write (a negative slice step,
//! asymmetric padding), go to [`Imp::unmapped`], which counts them by name.

use super::model::{self, Arg, Attr, EOp, Kind, Num};
use super::shapes;
use super::sym::Poly;
use super::walk::Imp;
use onnx_proto::onnx::NodeProto;

/// Unary operators and their fgraph function.
const UNARY: &[(&str, &str)] = &[
    ("Relu", "relu"),
    ("Sigmoid", "sigmoid"),
    ("Tanh", "tanh"),
    ("Erf", "erf"),
    ("Exp", "exp"),
    ("Log", "log"),
    ("Sqrt", "sqrt"),
    ("Reciprocal", "reciprocal"),
    ("Neg", "neg"),
    ("Abs", "abs"),
    ("Sin", "sin"),
    ("Cos", "cos"),
    ("Softplus", "softplus"),
    ("Not", "logical_not"),
    ("IsNaN", "isnan"),
    ("IsInf", "isinf"),
    ("Gelu", "gelu"),
    ("FastGelu", "gelu"),
    ("BiasGelu", "gelu"),
    ("QuickGelu", "gelu"),
];

/// Binary (or n-ary) operators and their fgraph function.
const BINARY: &[(&str, &str)] = &[
    ("Add", "add"),
    ("Sub", "sub"),
    ("Mul", "mul"),
    ("Div", "div"),
    ("Pow", "pow"),
    ("Max", "max"),
    ("Min", "min"),
    ("Sum", "add"),
    ("Equal", "eq"),
    ("Less", "lt"),
    ("LessOrEqual", "le"),
    ("Greater", "gt"),
    ("GreaterOrEqual", "ge"),
    ("And", "logical_and"),
    ("Or", "logical_or"),
    ("Where", "where"),
];

/// Reductions and their fgraph function.
const REDUCE: &[(&str, &str)] = &[
    ("ReduceMean", "mean"),
    ("ReduceSum", "sum"),
    ("ReduceMax", "max"),
    ("ReduceMin", "min"),
    ("ReduceProd", "prod"),
    ("ReduceLogSumExp", "logsumexp"),
];

/// Maps node `i` onto fgraph ops, or reports it unmapped.
pub fn map(imp: &mut Imp<'_>, i: usize) {
    let node = &imp.nodes[i];
    let op = node.op_type.as_deref().unwrap_or("");
    let domain = node.domain.as_deref().unwrap_or("");
    let standard = matches!(domain, "" | "ai.onnx" | "com.microsoft");
    let ins: Vec<Option<usize>> = (0..node.input.len()).map(|k| imp.input(node, k)).collect();
    // An input of unknown shape comes from an earlier problem (propagate it, say nothing
    // more), or was computed from shapes in a way the walk cannot follow (say so).
    for &id in ins.iter().flatten() {
        let v = &imp.vals[id];
        if v.shape.is_none() && v.kind == Kind::Static {
            let p = format!(
                "`{}` reads `{}`, computed from shapes in a way fgraph cannot follow, and the \
                 file does not state its shape",
                super::walk::node_label(node),
                v.name
            );
            imp.problems.push(p);
        }
    }
    if ins.iter().flatten().any(|&id| imp.vals[id].shape.is_none()) {
        for k in 0..node.output.len() {
            imp.output(node, k, 0, None, Kind::Tensor);
        }
        return;
    }
    let mut m = Mapper { imp, i, node };
    let done = if !standard {
        Err(None)
    } else {
        match op {
            "Identity" | "Dropout" => m.alias(ins[0]),
            "Cast" => m.cast(ins[0]),
            "MatMul" => m.matmul(&ins),
            "Gemm" => m.gemm(&ins),
            "Conv" => m.conv(&ins),
            "LayerNormalization" => m.norm(&ins, "layernorm"),
            "SimplifiedLayerNormalization" | "RMSNormalization" => m.norm(&ins, "rmsnorm"),
            "Softmax" | "LogSoftmax" => m.softmax(ins[0], op == "LogSoftmax"),
            "Reshape" | "Flatten" | "Squeeze" | "Unsqueeze" => m.reshape(&ins, op),
            "Transpose" => m.transpose(ins[0]),
            "Slice" => m.slice(&ins),
            "Split" => m.split(&ins),
            "Concat" => m.concat(&ins),
            "Gather" => m.gather(&ins),
            "Expand" => m.expand(&ins),
            "MaxPool" | "AveragePool" => m.pool(ins[0], op == "MaxPool"),
            "GlobalAveragePool" => m.unary_kind(ins[0], "global_avg_pool"),
            "GlobalMaxPool" => m.unary_kind(ins[0], "global_max_pool"),
            "BatchNormalization" => m.batchnorm(&ins),
            "InstanceNormalization" | "GroupNormalization" => m.group_norm(&ins, op),
            "Clip" => m.clip(&ins),
            "CumSum" => m.cumsum(&ins),
            "ArgMax" | "ArgMin" => m.argmax(ins[0], op == "ArgMax"),
            _ => {
                if let Some((_, f)) = UNARY.iter().find(|(o, _)| *o == op) {
                    m.elementwise(&ins[..1], f)
                } else if let Some((_, f)) = BINARY.iter().find(|(o, _)| *o == op) {
                    m.elementwise(&ins, f)
                } else if let Some((_, f)) = REDUCE.iter().find(|(o, _)| *o == op) {
                    m.reduce(&ins, f)
                } else {
                    Err(None)
                }
            }
        }
    };
    let why = match done {
        Ok(()) => return,
        Err(why) => why,
    };
    imp.unmapped(i, why);
}

pub(super) type Done = Result<(), Option<&'static str>>;

pub(super) struct Mapper<'a, 'm> {
    pub(super) imp: &'a mut Imp<'m>,
    pub(super) i: usize,
    pub(super) node: &'m NodeProto,
}

impl Mapper<'_, '_> {
    pub(super) fn shape(&self, id: usize) -> Vec<Poly> {
        self.imp.vals[id].shape.clone().unwrap_or_default()
    }
    pub(super) fn dtype(&self, id: usize) -> i32 {
        self.imp.vals[id].onnx_dtype
    }
    pub(super) fn ai(&self, name: &str) -> Option<i64> {
        model::attr_i(self.node, name)
    }
    pub(super) fn aints(&self, name: &str) -> Option<Vec<i64>> {
        model::attr_ints(self.node, name).map(<[i64]>::to_vec)
    }
    /// The integer elements of an optional constant input.
    pub(super) fn const_ints(
        &self,
        id: Option<usize>,
    ) -> Result<Option<Vec<i64>>, Option<&'static str>> {
        match id {
            None => Ok(None),
            Some(id) => self.imp.vals[id].ints().map(Some).ok_or(Some(
                "an input that must be constant is computed at run time",
            )),
        }
    }

    pub(super) fn alias(&mut self, x: Option<usize>) -> Done {
        let x = x.ok_or(None)?;
        self.imp.bind(self.node, 0, x);
        self.imp.folded += 1;
        Ok(())
    }

    /// Emits `kind(args)` producing output 0 with `shape`.
    pub(super) fn emit(
        &mut self,
        kind: &str,
        args: Vec<Arg>,
        attrs: Vec<(&'static str, Attr)>,
        dtype: i32,
        shape: Vec<Poly>,
        write_dtype: bool,
    ) -> usize {
        self.emit_k(0, kind, args, attrs, dtype, shape, write_dtype)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_k(
        &mut self,
        k: usize,
        kind: &str,
        args: Vec<Arg>,
        attrs: Vec<(&'static str, Attr)>,
        dtype: i32,
        shape: Vec<Poly>,
        write_dtype: bool,
    ) -> usize {
        let out = self
            .imp
            .output(self.node, k, dtype, Some(shape), Kind::Tensor);
        self.imp.ops.push(EOp {
            node: self.i,
            kind: kind.to_string(),
            args,
            attrs,
            out,
            dtype: write_dtype,
        });
        out
    }

    /// A new intermediate tensor (a step of an op that becomes several).
    pub(super) fn emit_tmp(
        &mut self,
        suffix: &str,
        kind: &str,
        args: Vec<Arg>,
        attrs: Vec<(&'static str, Attr)>,
        dtype: i32,
        shape: Vec<Poly>,
    ) -> usize {
        let base = self.node.output.first().cloned().unwrap_or_default();
        let out = self.imp.add_val(model::Val {
            name: format!("{base}_{suffix}"),
            dtype: model::dtype(dtype),
            onnx_dtype: dtype,
            shape: Some(shape),
            kind: Kind::Tensor,
            declared: None,
        });
        self.imp.ops.push(EOp {
            node: self.i,
            kind: kind.to_string(),
            args,
            attrs,
            out,
            dtype: false,
        });
        out
    }

    /// An operand: a scalar constant as a literal, anything else as a tensor.
    pub(super) fn operand(&self, id: usize) -> Arg {
        let v = &self.imp.vals[id];
        if let Some(n) = v.scalar() {
            let single = v.onnx_dtype != 11;
            let lit = match n {
                Num::I(p) => p.as_const().map(|c| {
                    if matches!(v.onnx_dtype, 1 | 10 | 11 | 16) {
                        format!("{c}.0")
                    } else {
                        c.to_string()
                    }
                }),
                Num::F(f) => model::float_literal(*f, single),
            };
            if let Some(l) = lit {
                return Arg::Lit(l);
            }
        }
        Arg::T(id)
    }

    fn cast(&mut self, x: Option<usize>) -> Done {
        let x = x.ok_or(None)?;
        let to = self.ai("to").unwrap_or(1) as i32;
        if model::dtype(to) == self.imp.vals[x].dtype {
            return self.alias(Some(x));
        }
        let s = self.shape(x);
        self.emit("elementwise.cast", vec![Arg::T(x)], vec![], to, s, true);
        Ok(())
    }

    fn elementwise(&mut self, ins: &[Option<usize>], f: &str) -> Done {
        let ids: Vec<usize> = ins.iter().copied().collect::<Option<_>>().ok_or(None)?;
        let shapes: Vec<Vec<Poly>> = ids.iter().map(|&id| self.shape(id)).collect();
        let refs: Vec<&[Poly]> = shapes.iter().map(Vec::as_slice).collect();
        let shape = shapes::broadcast(&refs).ok_or(Some("shapes that do not broadcast"))?;
        let args: Vec<Arg> = ids.iter().map(|&id| self.operand(id)).collect();
        if !args.iter().any(|a| matches!(a, Arg::T(_))) {
            return Err(Some("no tensor operand"));
        }
        // The dtype of the first tensor operand (a literal takes the tensor's).
        let first = |from: usize| {
            ids.iter()
                .zip(&args)
                .skip(from)
                .find(|(_, a)| matches!(a, Arg::T(_)))
                .map_or(ids[from], |(&id, _)| id)
        };
        let (dtype, write) = match f {
            "eq" | "lt" | "le" | "gt" | "ge" | "logical_and" | "logical_or" | "logical_not"
            | "isnan" | "isinf" => (9, true),
            "where" => (self.dtype(first(1)), false),
            _ => (self.dtype(first(0)), false),
        };
        // `Gelu`'s `approximate` (none or tanh) is one function to fgraph.
        self.emit(
            &format!("elementwise.{f}"),
            args,
            vec![],
            dtype,
            shape,
            write,
        );
        Ok(())
    }

    fn unary_kind(&mut self, x: Option<usize>, kind: &str) -> Done {
        let x = x.ok_or(None)?;
        let mut s = self.shape(x);
        if s.len() < 3 {
            return Err(Some("a rank below 3"));
        }
        for d in &mut s[2..] {
            *d = Poly::constant(1);
        }
        let dt = self.dtype(x);
        self.emit(kind, vec![Arg::T(x)], vec![], dt, s, false);
        Ok(())
    }

    fn matmul(&mut self, ins: &[Option<usize>]) -> Done {
        let (a, b) = (
            ins[0].ok_or(None)?,
            ins.get(1).copied().flatten().ok_or(None)?,
        );
        let (sa, sb) = (self.shape(a), self.shape(b));
        if sa.len() < 2 || sb.len() < 2 {
            return Err(Some("an operand of rank 1"));
        }
        let shape = matmul_shape(&sa, &sb, false, false)?;
        let dt = self.dtype(a);
        self.emit(
            "matmul",
            vec![Arg::T(a), Arg::T(b)],
            vec![],
            dt,
            shape,
            false,
        );
        Ok(())
    }

    fn gemm(&mut self, ins: &[Option<usize>]) -> Done {
        let (a, b) = (
            ins[0].ok_or(None)?,
            ins.get(1).copied().flatten().ok_or(None)?,
        );
        let (ta, tb) = (self.ai("transA") == Some(1), self.ai("transB") == Some(1));
        let shape = matmul_shape(&self.shape(a), &self.shape(b), ta, tb)?;
        let (alpha, beta) = (
            model::attr_f(self.node, "alpha").unwrap_or(1.0),
            model::attr_f(self.node, "beta").unwrap_or(1.0),
        );
        if beta != 1.0 {
            return Err(Some("beta other than 1"));
        }
        let arg = |id, t| if t { Arg::Tt(id) } else { Arg::T(id) };
        let dt = self.dtype(a);
        let c = ins.get(2).copied().flatten();
        let mm_args = vec![arg(a, ta), arg(b, tb)];
        // `Gemm(A, B, C)` with a bias `C` [N] of A's dtype is `nn.Linear` exported:
        // `matmul(a, b, c)`, the bias in the GEMM's epilogue as PyTorch runs it.
        if alpha == 1.0
            && let Some(cid) = c
            && matches!(self.operand(cid), Arg::T(_))
            && self.dtype(cid) == dt
            && self.shape(cid).len() == 1
            && self.shape(cid).first() == shape.last()
        {
            let mut args = mm_args;
            args.push(Arg::T(cid));
            self.emit("matmul", args, vec![], dt, shape, false);
            return Ok(());
        }
        if c.is_none() && alpha == 1.0 {
            self.emit("matmul", mm_args, vec![], dt, shape, false);
            return Ok(());
        }
        let mut cur = self.emit_tmp("mm", "matmul", mm_args, vec![], dt, shape.clone());
        // `alpha · A·B`: a product with the literal.
        if alpha != 1.0 {
            let lit = model::float_literal(f64::from(alpha), true).ok_or(None)?;
            let args = vec![Arg::T(cur), Arg::Lit(lit)];
            if c.is_none() {
                self.emit("elementwise.mul", args, vec![], dt, shape, false);
                return Ok(());
            }
            cur = self.emit_tmp("alpha", "elementwise.mul", args, vec![], dt, shape.clone());
        }
        if let Some(c) = c {
            let c = self.operand(c);
            self.emit(
                "elementwise.add",
                vec![Arg::T(cur), c],
                vec![],
                dt,
                shape,
                false,
            );
        }
        Ok(())
    }

    fn conv(&mut self, ins: &[Option<usize>]) -> Done {
        let (x, w) = (
            ins[0].ok_or(None)?,
            ins.get(1).copied().flatten().ok_or(None)?,
        );
        let (sx, sw) = (self.shape(x), self.shape(w));
        let nsp = sx
            .len()
            .checked_sub(2)
            .filter(|n| (1..=3).contains(n))
            .ok_or(Some("a rank other than 3 to 5"))?;
        if sw.len() != sx.len() {
            return Err(Some("a weight of another rank"));
        }
        let kernel: Vec<i64> = sw[2..]
            .iter()
            .map(Poly::as_const)
            .collect::<Option<_>>()
            .ok_or(None)?;
        let strides = self.aints("strides").unwrap_or_else(|| vec![1; nsp]);
        let dil = self.aints("dilations").unwrap_or_else(|| vec![1; nsp]);
        if strides.len() != nsp || dil.len() != nsp {
            return Err(Some("strides or dilations of the wrong length"));
        }
        let pads = self.pads(nsp, &kernel, &strides, &dil, &sx)?;
        let group = self.ai("group").unwrap_or(1);
        let mut out = vec![sx[0].clone(), sw[0].clone()];
        for k in 0..nsp {
            out.push(
                shapes::window(
                    &sx[2 + k],
                    kernel[k],
                    strides[k],
                    pads[k].saturating_mul(2),
                    dil[k],
                )
                .ok_or(None)?,
            );
        }
        let mut attrs = vec![];
        if strides.iter().any(|&s| s != 1) {
            attrs.push(("stride", Attr::Is(strides)));
        }
        if pads.iter().any(|&p| p != 0) {
            attrs.push(("padding", Attr::Is(pads)));
        }
        if dil.iter().any(|&d| d != 1) {
            attrs.push(("dilation", Attr::Is(dil)));
        }
        if group != 1 {
            attrs.push(("groups", Attr::I(group)));
        }
        let dt = self.dtype(x);
        // A bias of known zeros (an exporter's placeholder) adds nothing.
        let b = ins.get(2).copied().flatten().filter(|&b| {
            !self.imp.vals[b]
                .consts()
                .is_some_and(|v| v.iter().all(|n| n.float() == Some(0.0)))
        });
        let Some(b) = b else {
            self.emit("conv", vec![Arg::T(x), Arg::T(w)], attrs, dt, out, false);
            return Ok(());
        };
        let y = self.emit_tmp(
            "conv",
            "conv",
            vec![Arg::T(x), Arg::T(w)],
            attrs,
            dt,
            out.clone(),
        );
        let b = self.channel(b, nsp)?;
        self.emit(
            "elementwise.add",
            vec![Arg::T(y), Arg::T(b)],
            vec![],
            dt,
            out,
            false,
        );
        Ok(())
    }

    /// Symmetric padding per spatial dim (ONNX's `pads` or `auto_pad`).
    fn pads(
        &self,
        nsp: usize,
        kernel: &[i64],
        strides: &[i64],
        dil: &[i64],
        sx: &[Poly],
    ) -> Result<Vec<i64>, Option<&'static str>> {
        let auto = model::attr_s(self.node, "auto_pad").unwrap_or_default();
        if auto.starts_with("SAME") {
            let mut p = Vec::new();
            for k in 0..nsp {
                if strides[k] != 1 {
                    return Err(Some("auto_pad SAME with a stride"));
                }
                let total = kernel[k]
                    .checked_sub(1)
                    .and_then(|m| m.checked_mul(dil[k]))
                    .ok_or(None)?;
                if total % 2 != 0 {
                    return Err(Some("asymmetric padding"));
                }
                let _ = &sx;
                p.push(total / 2);
            }
            return Ok(p);
        }
        let pads = self.aints("pads").unwrap_or_else(|| vec![0; 2 * nsp]);
        if pads.len() != 2 * nsp {
            return Err(Some("pads of the wrong length"));
        }
        if (0..nsp).any(|k| pads[k] != pads[k + nsp]) {
            return Err(Some("asymmetric padding"));
        }
        Ok(pads[..nsp].to_vec())
    }

    /// A per-channel operand `[C]` shaped `[C, 1, ..]` to broadcast over `[N, C, *spatial]`:
    /// a weight read by this op alone is declared so; anything else is reshaped.
    pub(super) fn channel(&mut self, id: usize, nsp: usize) -> Result<usize, Option<&'static str>> {
        let s = self.shape(id);
        if s.len() != 1 {
            return Err(Some("a per-channel operand that is not 1-D"));
        }
        let mut shape = vec![s[0].clone()];
        shape.extend(std::iter::repeat_n(Poly::constant(1), nsp));
        let v = &self.imp.vals[id];
        let single = self.imp.uses.get(&v.name) == Some(&1);
        if v.kind == Kind::Weight && single {
            self.imp.vals[id].declared = Some(shape);
            return Ok(id);
        }
        let dt = self.dtype(id);
        Ok(self.emit_tmp("c", "reshape", vec![Arg::T(id)], vec![], dt, shape))
    }

    fn pool(&mut self, x: Option<usize>, max: bool) -> Done {
        let x = x.ok_or(None)?;
        let sx = self.shape(x);
        let kernel = self.aints("kernel_shape").ok_or(None)?;
        let nsp = kernel.len();
        if sx.len() != nsp + 2 {
            return Err(None);
        }
        if self.ai("ceil_mode") == Some(1) {
            return Err(Some("ceil_mode"));
        }
        let dil = self.aints("dilations").unwrap_or_else(|| vec![1; nsp]);
        if dil.iter().any(|&d| d != 1) {
            return Err(Some("a dilated pool"));
        }
        let strides = self.aints("strides").unwrap_or_else(|| vec![1; nsp]);
        if strides.len() != nsp || dil.len() != nsp {
            return Err(Some("strides or dilations of the wrong length"));
        }
        let pads = self.pads(nsp, &kernel, &strides, &dil, &sx)?;
        let mut shape = sx[..2].to_vec();
        for k in 0..nsp {
            shape.push(
                shapes::window(
                    &sx[2 + k],
                    kernel[k],
                    strides[k],
                    pads[k].saturating_mul(2),
                    1,
                )
                .ok_or(None)?,
            );
        }
        let mut attrs = vec![("kernel", Attr::Is(kernel)), ("stride", Attr::Is(strides))];
        if pads.iter().any(|&p| p != 0) {
            attrs.push(("padding", Attr::Is(pads)));
        }
        let dt = self.dtype(x);
        let kind = if max { "max_pool" } else { "avg_pool" };
        self.emit(kind, vec![Arg::T(x)], attrs, dt, shape, false);
        Ok(())
    }
}

/// `[.., M, K] x [.., K, N]`, each operand possibly read transposed.
fn matmul_shape(
    a: &[Poly],
    b: &[Poly],
    ta: bool,
    tb: bool,
) -> Result<Vec<Poly>, Option<&'static str>> {
    if a.len() < 2 || b.len() < 2 {
        return Err(Some("an operand of rank 1"));
    }
    let (ra, rb) = (a.len(), b.len());
    let (m, k1) = if ta {
        (&a[ra - 1], &a[ra - 2])
    } else {
        (&a[ra - 2], &a[ra - 1])
    };
    let (k2, n) = if tb {
        (&b[rb - 1], &b[rb - 2])
    } else {
        (&b[rb - 2], &b[rb - 1])
    };
    if k1 != k2 {
        return Err(Some("inner dimensions that differ"));
    }
    let mut out = shapes::broadcast(&[&a[..ra - 2], &b[..rb - 2]])
        .ok_or(Some("batch dimensions that do not broadcast"))?;
    out.push(m.clone());
    out.push(n.clone());
    Ok(out)
}
