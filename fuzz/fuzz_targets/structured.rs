//! Structure-aware: the input is an arbitrary description of a graph file (params, dtype
//! statements, inputs and weights drawn from a small pool of shapes, ops of the four kinds with
//! one to three tensor arguments, views, attributes, outputs, allow comments, `--set`,
//! `--flash-attention` and a hardware file), rendered to `.fgraph` text.
//!
//! The renderer tracks the shape of every tensor as text, so that most ops get operands that
//! fit (an elementwise op's other operands have its first operand's shape or a suffix of it, a
//! matmul's second operand is one whose rows match, reductions and reshapes declare a shape
//! that is right for their input). Most files therefore check clean and the fuzzer spends its
//! time in ordering, fusion, the FlashAttention pass, traffic and the cost model. One op in
//! sixteen is rendered without that care ("chaos": any tensor, earlier or later, any count,
//! any view), and rare selector values give bad params, dims and names, so the error paths
//! are reached too. Fusion assertions on the graph's ops and tensors hold or fail against the
//! plan of the options drawn.
//!
//! Asserts, besides `common::exercise`'s invariants: the rendering always parses, and `fmt`
//! keeps every diagnostic and every traffic figure.

#![no_main]

mod common;

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;

const MAX_GRAPHS: usize = 2;
const MAX_PARAMS: usize = 4;
const MAX_STMTS: usize = 24;
const MAX_RANK: usize = 4;

/// A list of at most `N` items, its length read first (the derived `Vec` stops at each item
/// with probability 1/2, which keeps graphs tiny).
fn up_to<'a, const N: usize, T: Arbitrary<'a>>(
    u: &mut Unstructured<'a>,
) -> arbitrary::Result<Vec<T>> {
    let n = u.int_in_range(0..=N)?;
    (0..n).map(|_| u.arbitrary()).collect()
}

#[derive(Arbitrary, Debug)]
struct FileDesc {
    /// `--set` pairs: (param index, value).
    #[arbitrary(with = up_to::<2, _>)]
    sets: Vec<(u8, i8)>,
    allow: Option<Warn>,
    /// `--flash-attention`.
    flash: bool,
    /// A GPU described in a hardware file, costed besides the presets.
    hardware: Option<HwDesc>,
    /// A block `blk(S, N = 4)` the graphs' `repeat` statements instantiate (by `% 4`: a matmul
    /// and a relu, an exp, a nested instance of another block, or no `output`).
    block: Option<u8>,
    #[arbitrary(with = up_to::<MAX_GRAPHS, _>)]
    graphs: Vec<GraphDesc>,
}

/// A `--hardware-file`: figures from ordinary to extreme; the file is rejected unless each is
/// positive and finite in base units.
#[derive(Arbitrary, Debug)]
struct HwDesc {
    peak_f16: Figure,
    peak_f32: Figure,
    bandwidth: Figure,
    launch_graph: Option<Figure>,
    launch_eager: Option<Figure>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Figure {
    /// 1..=1000.
    Plain(u16),
    Tiny,
    Huge,
    Zero,
    Negative,
    Any(f64),
}

impl Figure {
    fn value(self) -> f64 {
        match self {
            Figure::Plain(v) => f64::from(1 + v % 1000),
            Figure::Tiny => 1e-300,
            Figure::Huge => 1e300,
            Figure::Zero => 0.0,
            Figure::Negative => -1.0,
            Figure::Any(v) => v,
        }
    }
}

impl HwDesc {
    fn hardware(&self) -> Option<fgraph::Hardware> {
        let mut file = serde_json::json!({
            "name": "fuzz-gpu",
            "peak_tflops_f16": self.peak_f16.value(),
            "peak_tflops_f32": self.peak_f32.value(),
            "bandwidth_tb_s": self.bandwidth.value(),
        });
        if let Some(f) = self.launch_graph {
            file["launch_graph_us"] = f.value().into();
        }
        if let Some(f) = self.launch_eager {
            file["launch_eager_us"] = f.value().into();
        }
        fgraph::Hardware::from_json(&file.to_string()).ok()
    }
}

#[derive(Arbitrary, Debug)]
struct GraphDesc {
    /// `g{name % 3}`: equal names give duplicate-definition.
    name: u8,
    /// `// fgraph: allow(...)` before `graph`.
    allow: Option<Warn>,
    #[arbitrary(with = up_to::<MAX_PARAMS, _>)]
    params: Vec<Expr>,
    /// The shapes inputs and weights take, so that operands often agree. Every graph starts
    /// with `input x: <pool[0]>`.
    pool: [Shape; 4],
    #[arbitrary(with = up_to::<MAX_STMTS, _>)]
    stmts: Vec<Stmt>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Warn {
    UnusedTensor,
    DtypeMismatch,
    LargeIntermediate,
    InvalidAllow,
    /// Not a code: `invalid-allow` in a comment (and no `--allow`).
    Bogus,
}

#[derive(Arbitrary, Debug)]
struct Expr {
    first: Term,
    #[arbitrary(with = up_to::<3, _>)]
    rest: Vec<(BinOp, Term)>,
}

/// `+` and `*` mostly; `-` and `/` (which may give a dim below 1 or an inexact division) one
/// time in four.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct BinOp(u8);

/// By `sel`: a small number; a param in scope; `(P * n)`; a negative number; an edge of 64-bit
/// arithmetic or an unknown param.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Term {
    sel: u8,
    a: u8,
    b: u8,
}

#[derive(Arbitrary, Debug)]
struct Shape {
    /// Below 64, the shape names a dtype.
    has_dtype: u8,
    dtype: DtypeSel,
    #[arbitrary(with = up_to::<MAX_RANK, _>)]
    dims: Vec<Dim>,
}

/// By `sel`: 1, 2, 4 or 8; a param; `P * n`; `P / n`; a bad dim (0, negative, huge, unknown).
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Dim {
    sel: u8,
    a: u8,
    b: u8,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum DtypeSel {
    F64,
    F32,
    Tf32,
    Bf16,
    F16,
    Fp8,
    F8e4m3,
    F8e5m2,
    I64,
    I32,
    I16,
    I8,
    U8,
    Bool,
    /// Not a dtype: unknown-dtype.
    Bogus,
}

#[derive(Arbitrary, Debug)]
enum Stmt {
    Dtype(DtypeSel),
    External {
        weight: bool,
        shape: u8,
    },
    External2 {
        weight: bool,
        shape: u8,
    },
    Op(OpDesc),
    Op2(OpDesc),
    Op3(OpDesc),
    Op4(OpDesc),
    /// Up to four earlier tensors.
    Output([u8; 4], u8),
    /// Attention on earlier tensors: `matmul(q, k.T)`, optional elementwise ops, a softmax,
    /// optional elementwise ops, `matmul(p, v)`: the pattern `--flash-attention` fuses.
    Attention(AttentionDesc),
    Allow(Warn),
    /// `repeat (count % 5) rK = blk(<an earlier tensor>, S = 1 + s % 8) -> tN`: a count of 0,
    /// a missing block and a tensor of the wrong shape are error paths.
    Repeat {
        count: u8,
        arg: u8,
        s: u8,
    },
    /// A fusion assertion (`form % 6`: `fused`, `unfused`, `materialized`, `not
    /// materialized`, `kernels CMP n`, `traffic CMP n UNIT`) on ops and tensors of the graph;
    /// a name of 255 is unknown, and two equal names are named twice.
    Assert {
        form: u8,
        a: u8,
        b: u8,
        bound: u8,
    },
}

#[derive(Arbitrary, Debug)]
struct AttentionDesc {
    q: u8,
    k: u8,
    v: u8,
    /// Elementwise ops before and after the softmax (`% 3` of each).
    pre: u8,
    post: u8,
    /// Below 224 `axis = -1`; else another axis (not fusable) or none; from 248 on, the
    /// attention op instead of the pattern.
    axis: u8,
}

#[derive(Arbitrary, Debug)]
struct OpDesc {
    kind: KindSel,
    func: FuncSel,
    args: [Arg; 3],
    /// Elementwise and reduction ops take 1 + `nargs % 3` tensors.
    nargs: u8,
    #[arbitrary(with = up_to::<2, _>)]
    attrs: Vec<(AttrName, i8)>,
    /// Which output shape a reduction or reshape declares (see `render_op`); whether other
    /// kinds declare theirs.
    out: u8,
    /// Below 4: the output reuses an existing tensor name (produced twice, or declared and
    /// produced), and the op reuses an op name.
    rename: u8,
    /// From 240 on: rendered without care for shapes or order.
    chaos: u8,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum KindSel {
    Elementwise,
    Elementwise2,
    Reduction,
    Matmul,
    Matmul2,
    Reshape,
    Conv,
    /// `max_pool(x, kernel = 1)` (issue 23): the first operand's shape, a reduction-class op.
    Pool,
    /// `associative_scan.add(x)` or `associative_scan.linear(x, x)` (issue 23): the first
    /// operand's shape, a reduction-class op.
    Scan,
    /// `scaled_mm(a, b, s, s)` and `quant_mm(x, w, s)` (issue 23 item 6) on earlier tensors:
    /// mostly dtype and shape errors, the output shape left to inference.
    ScaledMm,
    QuantMm,
    /// `all_reduce(x, group = tp, size = 2)`, `broadcast(x, group = dp, size = 4, stride =
    /// 8)` (issue 25): a collective of the first operand's shape, a kernel of its own.
    Collective,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum FuncSel {
    None,
    Add,
    Mul,
    Relu,
    Gelu,
    Exp,
    Softmax,
    Softmax2,
    Sum,
    Layernorm,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
struct Arg {
    /// Which tensor, among the candidates the kind allows (for a first operand, below 128 the
    /// latest).
    tensor: u8,
    /// From 240 on, the view `[view % 2]` (in chaos, from 200 on, `[view % 3]`).
    view: u8,
    /// From 224 on, `.T` (in chaos, from 160 on).
    transpose: u8,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum AttrName {
    Axis,
    Keepdim,
    Eps,
}

impl AttentionDesc {
    /// Tensors the block produces.
    fn tensors(&self) -> usize {
        3 + usize::from(self.pre % 3) + usize::from(self.post % 3)
    }
}

impl Warn {
    fn code(self) -> &'static str {
        match self {
            Warn::UnusedTensor => "unused-tensor",
            Warn::DtypeMismatch => "dtype-mismatch",
            Warn::LargeIntermediate => "large-intermediate",
            Warn::InvalidAllow => "invalid-allow",
            Warn::Bogus => "no-such-code",
        }
    }
}

impl BinOp {
    fn sym(self) -> &'static str {
        match self.0 {
            0..=95 => "+",
            96..=191 => "*",
            192..=223 => "-",
            _ => "/",
        }
    }
}

impl DtypeSel {
    fn name(self) -> &'static str {
        match self {
            DtypeSel::F64 => "f64",
            DtypeSel::F32 => "f32",
            DtypeSel::Tf32 => "tf32",
            DtypeSel::Bf16 => "bf16",
            DtypeSel::F16 => "f16",
            DtypeSel::Fp8 => "fp8",
            DtypeSel::F8e4m3 => "f8e4m3",
            DtypeSel::F8e5m2 => "f8e5m2",
            DtypeSel::I64 => "i64",
            DtypeSel::I32 => "i32",
            DtypeSel::I16 => "i16",
            DtypeSel::I8 => "i8",
            DtypeSel::U8 => "u8",
            DtypeSel::Bool => "bool",
            DtypeSel::Bogus => "f17",
        }
    }
}

const EDGES: &[&str] = &[
    "9223372036854775807",
    "4611686018427387904",
    "4294967296",
    "281474976710656",
    "281474976710657",
    "99999999999999999999",
    "0",
];

/// A tensor as the renderer knows it: its name and, unless an op was rendered in chaos, its
/// shape as the dims' source text.
#[derive(Clone)]
struct Known {
    name: String,
    shape: Option<Vec<String>>,
}

/// Params in scope: the first `scope` of `total`, named `P0`….
struct Params {
    scope: usize,
    total: usize,
}

impl Params {
    fn name(&self, i: u8) -> String {
        if i >= 250 {
            // Unknown, or later than the expression that uses it.
            format!("P{}", self.total + usize::from(i & 1))
        } else if self.scope == 0 {
            format!("{}", 1 + i % 8)
        } else {
            format!("P{}", usize::from(i) % self.scope)
        }
    }

    fn term(&self, t: Term) -> String {
        match t.sel {
            0..=127 => format!("{}", 1 + t.a % 8),
            128..=207 => self.name(t.a),
            208..=223 => format!("({} * {})", self.name(t.a), 1 + t.b % 4),
            224..=239 => format!("-{}", t.a % 5),
            _ => EDGES[usize::from(t.a) % EDGES.len()].to_string(),
        }
    }

    fn expr(&self, e: &Expr) -> String {
        let mut s = self.term(e.first);
        for (op, t) in &e.rest {
            let _ = write!(s, " {} {}", op.sym(), self.term(*t));
        }
        s
    }

    fn dim(&self, d: Dim) -> String {
        match d.sel {
            0..=127 => format!("{}", 1u32 << (d.a % 4)),
            128..=207 => self.name(d.a),
            208..=231 => format!("{} * {}", self.name(d.a), 1 + d.b % 4),
            232..=247 => format!("{} / {}", self.name(d.a), 1 + d.b % 2),
            _ => match d.b % 4 {
                0 => "0".to_string(),
                1 => format!("-{}", 1 + d.a % 4),
                2 => EDGES[usize::from(d.a) % EDGES.len()].to_string(),
                _ => format!("Q{}", d.a % 2),
            },
        }
    }
}

fn dims_text(dims: &[String]) -> String {
    format!("[{}]", dims.join(", "))
}

/// The shape after a view: `[i]` drops the leading dim, `.T` swaps the last two.
fn view_shape(shape: &[String], index: bool, transpose: bool) -> Option<Vec<String>> {
    let mut s = shape.to_vec();
    if index {
        if s.is_empty() {
            return None;
        }
        s.remove(0);
    }
    if transpose {
        let n = s.len();
        if n < 2 {
            return None;
        }
        s.swap(n - 1, n - 2);
    }
    Some(s)
}

fn is_suffix(small: &[String], big: &[String]) -> bool {
    small.len() <= big.len() && big[big.len() - small.len()..] == *small
}

struct GraphRender {
    out: String,
    pool: Vec<(Option<DtypeSel>, Vec<String>)>,
    /// Every tensor of the graph in statement order (names known up front, so chaos ops can
    /// name later tensors); shapes filled in as statements are rendered.
    tensors: Vec<Known>,
    /// How many of `tensors` earlier statements declared or produced.
    seen: usize,
    ops: usize,
}

impl GraphRender {
    /// `assert ...` of `Stmt::Assert`.
    fn assertion(&mut self, form: u8, a: u8, b: u8, bound: u8) {
        let op = |i: u8| {
            if i == 255 || self.ops == 0 {
                "nope".to_string()
            } else {
                format!("o{}", usize::from(i) % self.ops)
            }
        };
        let cmp = ["<=", "<", "==", ">=", ">"][usize::from(b) % 5];
        let unit = [
            "", " B", " KB", " MB", " GB", " TB", " KiB", " MiB", " GiB", " TiB",
        ][usize::from(a) % 10];
        let text = match form % 6 {
            0 => format!("fused({}, {})", op(a), op(b)),
            1 => format!("unfused({}, {})", op(a), op(b)),
            2 => format!("materialized({})", self.any_tensor(a)),
            3 => format!(
                "not materialized({}, {})",
                self.any_tensor(a),
                self.any_tensor(b)
            ),
            4 => format!("kernels {cmp} {}", bound % 16),
            _ => format!("traffic {cmp} {bound}{unit}"),
        };
        let _ = writeln!(self.out, "  assert {text}");
    }

    fn any_tensor(&self, i: u8) -> String {
        if i == 255 {
            "nope".to_string()
        } else {
            self.tensors[usize::from(i) % self.tensors.len()]
                .name
                .clone()
        }
    }

    /// Earlier tensors whose shape `fits` allows, as (name, shape).
    fn earlier(&self, fits: impl Fn(&[String]) -> bool) -> Vec<(String, Vec<String>)> {
        self.tensors[..self.seen]
            .iter()
            .filter_map(|t| {
                let s = t.shape.as_ref()?;
                fits(s).then(|| (t.name.clone(), s.clone()))
            })
            .collect()
    }

    fn external(&mut self, weight: bool, shape: u8) {
        let (dtype, dims) = self.pool[usize::from(shape) % self.pool.len()].clone();
        let kw = if weight { "weight" } else { "input" };
        let name = self.tensors[self.seen].name.clone();
        let ty = dtype.map_or(String::new(), |d| d.name().to_string());
        let _ = writeln!(self.out, "  {kw} {name}: {ty}{}", dims_text(&dims));
        self.tensors[self.seen].shape = Some(dims);
        self.seen += 1;
    }

    fn op(&mut self, op: &OpDesc) {
        let (kind, default_func) = match op.kind {
            KindSel::Elementwise | KindSel::Elementwise2 => ("elementwise", "add"),
            KindSel::Reduction => ("reduction", "softmax"),
            KindSel::Matmul | KindSel::Matmul2 => ("matmul", ""),
            KindSel::Reshape => ("reshape", ""),
            KindSel::Conv => ("conv", ""),
            KindSel::Pool => ("max_pool", ""),
            KindSel::Scan => ("associative_scan", "add"),
            KindSel::ScaledMm => ("scaled_mm", ""),
            KindSel::QuantMm => ("quant_mm", ""),
            KindSel::Collective if op.out % 2 == 0 => ("all_reduce", ""),
            KindSel::Collective => ("broadcast", ""),
        };
        let func = match op.func {
            FuncSel::None => default_func,
            FuncSel::Add => "add",
            FuncSel::Mul => "mul",
            FuncSel::Relu => "relu",
            FuncSel::Gelu => "gelu",
            FuncSel::Exp => "exp",
            FuncSel::Softmax | FuncSel::Softmax2 => "softmax",
            FuncSel::Sum => "sum",
            FuncSel::Layernorm => "layernorm",
        };
        // A scan's combine: `add`, or `linear` of a pair (a `mul` selection).
        let func = match (op.kind, op.func) {
            (KindSel::Scan, FuncSel::Mul) => "linear",
            (KindSel::Scan, _) => "add",
            _ => func,
        };
        let name = if op.rename < 4 && self.ops > 0 {
            format!("o{}", usize::from(op.rename) % self.ops)
        } else {
            format!("o{}", self.ops)
        };
        self.ops += 1;
        let head = if matches!(
            kind,
            "matmul"
                | "reshape"
                | "conv"
                | "max_pool"
                | "scaled_mm"
                | "quant_mm"
                | "all_reduce"
                | "broadcast"
        ) {
            format!("{name} = {kind}")
        } else {
            format!("{name} = {kind}.{func}")
        };
        let (args, shape) = if op.chaos >= 240 || self.seen == 0 {
            (self.chaos_args(op), None)
        } else {
            match op.kind {
                KindSel::Matmul | KindSel::Matmul2 => self.matmul_args(op),
                KindSel::Reshape => self.reshape_args(op),
                KindSel::Conv => self.conv_args(op),
                KindSel::Reduction => self.reduction_args(op),
                KindSel::Elementwise | KindSel::Elementwise2 => self.elementwise_args(op),
                KindSel::Pool => self.pool_args(op),
                KindSel::Scan => self.scan_args(op, func == "linear"),
                KindSel::ScaledMm | KindSel::QuantMm => self.low_precision_args(op),
                KindSel::Collective => self.collective_args(op),
            }
        };
        let mut line = format!("  op {head}({}", args.join(", "));
        // Each attribute once: a repeated one is a `duplicate-definition` error, which would
        // keep the graph from the fusion pass this target is for.
        let mut given: Vec<&str> = Vec::new();
        for (attr, v) in &op.attrs {
            let key = match attr {
                AttrName::Axis => "axis",
                AttrName::Keepdim => "keepdim",
                AttrName::Eps => "eps",
            };
            if !given.contains(&key) {
                given.push(key);
                let _ = write!(line, ", {key} = {v}");
            }
        }
        line.push_str(") -> ");
        if op.rename < 4 {
            line.push_str(&self.any_tensor(op.rename));
        } else {
            let t = &mut self.tensors[self.seen];
            line.push_str(&t.name);
            if let Some((declare, s)) = &shape {
                if *declare {
                    let _ = write!(line, ": {}", dims_text(s));
                }
            }
            t.shape = shape.map(|(_, s)| s);
            self.seen += 1;
        }
        let _ = writeln!(self.out, "{line}");
    }

    /// Renders an attention block; without an earlier tensor of rank ≥ 2, Q is `x`, and the
    /// block may not check.
    fn attention(&mut self, a: &AttentionDesc) {
        let ranked = self.earlier(|s| s.len() >= 2);
        let (q, shape) = if ranked.is_empty() {
            let x = &self.tensors[0];
            (x.name.clone(), x.shape.clone().unwrap_or_default())
        } else {
            ranked[usize::from(a.q) % ranked.len()].clone()
        };
        let same = self.earlier(|s| s == shape.as_slice());
        let pick = |i: u8| {
            if same.is_empty() {
                q.clone()
            } else {
                same[usize::from(i) % same.len()].0.clone()
            }
        };
        let (k, v) = (pick(a.k), pick(a.v));
        let n = shape.len();
        let mut scores = shape.clone();
        if n >= 2 {
            scores[n - 1] = shape[n - 2].clone();
        }
        let emit = |r: &mut Self, body: String, declare: Option<&[String]>| -> String {
            let name = r.tensors[r.seen].name.clone();
            r.tensors[r.seen].shape = None;
            r.seen += 1;
            let op = r.ops;
            r.ops += 1;
            let ty = declare.map_or(String::new(), |s| format!(": {}", dims_text(s)));
            let _ = writeln!(r.out, "  op o{op} = {body} -> {name}{ty}");
            name
        };
        if a.axis >= 248 {
            // The attention op (issue 23) in place of the pattern, its mask from `pre` and
            // `post`, then elementwise ops for the block's other tensors.
            let mask = match (a.pre % 3, a.post % 4) {
                (0, _) => String::new(),
                (1, _) => ", causal = true".to_string(),
                (_, w) => format!(", causal = true, window = {}, scale = 0.125", 1 + w),
            };
            let mut t = emit(self, format!("attention({q}, {k}, {v}{mask})"), None);
            for _ in 1..a.tensors() {
                let last = self.seen;
                t = emit(self, format!("elementwise.relu({t})"), None);
                self.tensors[last].shape = Some(shape.clone());
            }
            let _ = t;
            return;
        }
        let mut t = emit(self, format!("matmul({q}, {k}.T)"), None);
        for i in 0..a.pre % 3 {
            let f = ["mul", "add", "exp"][usize::from(i)];
            t = emit(self, format!("elementwise.{f}({t}, {t})"), None);
        }
        let axis = match a.axis {
            0..=223 => ", axis = -1".to_string(),
            224..=239 => format!(", axis = {}", a.axis % 3),
            _ => String::new(),
        };
        t = emit(self, format!("reduction.softmax({t}{axis})"), Some(&scores));
        for i in 0..a.post % 3 {
            let f = ["relu", "mul"][usize::from(i) % 2];
            t = emit(self, format!("elementwise.{f}({t})"), None);
        }
        let last = self.seen;
        emit(self, format!("matmul({t}, {v})"), None);
        // The output has Q's shape; the intermediates are not tracked (nothing else should
        // read them, or the pattern does not fuse).
        self.tensors[last].shape = Some(shape);
    }

    /// Any tensor, earlier or later, any number of them, any view.
    fn chaos_args(&self, op: &OpDesc) -> Vec<String> {
        let n = 1 + usize::from(op.nargs) % 3;
        op.args[..n]
            .iter()
            .map(|a| {
                let mut s = self.any_tensor(a.tensor);
                if a.view >= 200 {
                    let _ = write!(s, "[{}]", a.view % 3);
                }
                if a.transpose >= 160 {
                    s.push_str(".T");
                }
                s
            })
            .collect()
    }

    /// An earlier tensor (below 128, the latest, so that ops form chains as in real graphs),
    /// maybe viewed; its name as written and its shape.
    fn first_arg(&self, a: Arg) -> (String, Vec<String>) {
        let all = self.earlier(|_| true);
        let k = if a.tensor < 128 {
            all.len() - 1
        } else {
            usize::from(a.tensor) % all.len()
        };
        let (mut name, shape) = all[k].clone();
        let (index, transpose) = (a.view >= 240, a.transpose >= 224);
        match view_shape(&shape, index, transpose) {
            Some(s) => {
                if index {
                    let _ = write!(name, "[{}]", a.view % 2);
                }
                if transpose {
                    name.push_str(".T");
                }
                (name, s)
            }
            None => (name, shape),
        }
    }

    /// Declares the output when `out` says so (for kinds whose output is inferred).
    fn maybe(&self, op: &OpDesc, shape: Vec<String>) -> Option<(bool, Vec<String>)> {
        Some((op.out < 32, shape))
    }

    /// Operands of the first one's shape, a suffix of it, or scalars.
    fn elementwise_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, shape) = self.first_arg(op.args[0]);
        let mut args = vec![first];
        let others = self.earlier(|s| is_suffix(s, &shape));
        for a in &op.args[1..1 + usize::from(op.nargs) % 3] {
            // `others` holds at least the first operand's tensor unless it was viewed.
            if others.is_empty() {
                args.push(args[0].clone());
            } else {
                args.push(others[usize::from(a.tensor) % others.len()].0.clone());
            }
        }
        (args, self.maybe(op, shape))
    }

    /// `[..., M, K] x [..., K, N]`: a second operand whose rows match, transposed or not.
    fn matmul_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, a) = self.first_arg(op.args[0]);
        if a.len() < 2 {
            // A matmul of rank < 2: shape-mismatch, on purpose.
            let second = self.first_arg(op.args[1]).0;
            return (vec![first, second], None);
        }
        let n = a.len();
        let mut cands: Vec<(String, Vec<String>)> = Vec::new();
        for (name, s) in self.earlier(|s| s.len() == n) {
            if s[..n - 2] != a[..n - 2] {
                continue;
            }
            if s[n - 2] == a[n - 1] {
                cands.push((name.clone(), s.clone()));
            }
            if s[n - 1] == a[n - 1] {
                let mut t = s.clone();
                t.swap(n - 1, n - 2);
                cands.push((format!("{name}.T"), t));
            }
        }
        if cands.is_empty() {
            let second = self.first_arg(op.args[1]).0;
            return (vec![first, second], None);
        }
        let (second, b) = cands[usize::from(op.args[1].tensor) % cands.len()].clone();
        let mut out = a[..n - 1].to_vec();
        out.push(b[n - 1].clone());
        (vec![first, second], self.maybe(op, out))
    }

    /// `conv(x, w)`: a weight of `x`'s rank whose dim 1 is `x`'s channels where there is one
    /// (its other dims are whatever that tensor has, so the kernel may not fit: a
    /// `shape-mismatch` then); the output shape is left to inference.
    fn conv_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, a) = self.first_arg(op.args[0]);
        let cands: Vec<String> = self
            .earlier(|s| s.len() == a.len() && s.len() >= 2 && a.len() >= 2 && s[1] == a[1])
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        let second = if cands.is_empty() {
            self.first_arg(op.args[1]).0
        } else {
            cands[usize::from(op.args[1].tensor) % cands.len()].clone()
        };
        let mut args = vec![first, second];
        if op.out % 2 == 0 {
            args.push("padding = 1".to_string());
        }
        (args, None)
    }

    /// One operand; declares its shape, its element count as one dim, or a leading 1.
    fn reshape_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, shape) = self.first_arg(op.args[0]);
        let out = match op.out % 4 {
            0 => shape,
            1 => vec![if shape.is_empty() {
                "1".to_string()
            } else {
                shape
                    .iter()
                    .map(|d| format!("({d})"))
                    .collect::<Vec<_>>()
                    .join(" * ")
            }],
            2 if shape.len() < MAX_RANK => {
                let mut s = vec!["1".to_string()];
                s.extend(shape);
                s
            }
            _ => self.pool[usize::from(op.out) % self.pool.len()].1.clone(),
        };
        (vec![first], Some((op.out < 252, out)))
    }

    /// A low-precision GEMM's tensors (issue 23 item 6): the first operand, then earlier
    /// tensors as the other arguments (`scaled_mm`'s scales are the third twice); the output
    /// shape is left to inference.
    fn low_precision_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, _) = self.first_arg(op.args[0]);
        let mut args = vec![
            first,
            self.first_arg(op.args[1]).0,
            self.first_arg(op.args[2]).0,
        ];
        if matches!(op.kind, KindSel::ScaledMm) {
            args.push(args[2].clone());
        } else if op.out % 2 == 0 {
            args.push("group_size = 128".to_string());
        }
        (args, None)
    }

    /// One operand pooled with a window of 1 (its shape kept; an input of rank other than 3
    /// to 5 is `shape-mismatch`).
    fn pool_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, shape) = self.first_arg(op.args[0]);
        (vec![first, "kernel = 1".to_string()], Some((false, shape)))
    }

    /// A collective's operand and its group (issue 25); the output has its shape.
    fn collective_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, shape) = self.first_arg(op.args[0]);
        let group = if op.out % 2 == 0 {
            "group = tp, size = 2"
        } else {
            "group = dp, size = 4, stride = 8"
        };
        (
            vec![first, group.to_string()],
            Some((op.out % 4 < 2, shape)),
        )
    }

    /// An associative scan's operand (twice for `linear`); the output has its shape.
    fn scan_args(&self, op: &OpDesc, pair: bool) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (first, shape) = self.first_arg(op.args[0]);
        let args = if pair {
            vec![first.clone(), first]
        } else {
            vec![first]
        };
        (args, Some((op.out % 2 == 0, shape)))
    }

    /// A first operand and extras of a suffix of its shape (`layernorm(x, gamma, beta)`);
    /// declares the same shape, the last dim dropped, or the last dim 1.
    fn reduction_args(&self, op: &OpDesc) -> (Vec<String>, Option<(bool, Vec<String>)>) {
        let (mut args, _) = self.elementwise_args(op);
        let shape = self.first_arg(op.args[0]).1;
        let out = match op.out % 8 {
            0..=4 => shape,
            5 => shape[..shape.len().saturating_sub(1)].to_vec(),
            6 if !shape.is_empty() => {
                let mut s = shape;
                let n = s.len();
                s[n - 1] = "1".to_string();
                s
            }
            _ => self.pool[usize::from(op.out) % self.pool.len()].1.clone(),
        };
        if matches!(op.func, FuncSel::Softmax | FuncSel::Softmax2) {
            args.truncate(1);
        }
        (args, Some((op.out < 252, out)))
    }
}

fn render_graph(g: &GraphDesc, src: &mut String) {
    let total = g.params.len();
    let mut params = Params { scope: 0, total };
    let mut out = String::new();
    if let Some(w) = g.allow {
        let _ = writeln!(out, "// fgraph: allow({})", w.code());
    }
    let _ = writeln!(out, "graph g{} {{", g.name % 3);
    for (i, e) in g.params.iter().enumerate() {
        // A param may use earlier params only.
        params.scope = i;
        let _ = writeln!(out, "  param P{i} = {}", params.expr(e));
    }
    params.scope = total;
    let pool = g
        .pool
        .iter()
        .map(|s| {
            let dtype = (s.has_dtype < 64).then_some(s.dtype);
            (dtype, s.dims.iter().map(|&d| params.dim(d)).collect())
        })
        .collect();
    // Names of every tensor up front: `x` (the implicit first input), `x0`… for inputs and
    // weights, `t0`… for op outputs.
    let mut tensors = vec![Known {
        name: "x".to_string(),
        shape: None,
    }];
    let (mut nx, mut nt) = (0, 0);
    for s in &g.stmts {
        let name = match s {
            Stmt::External { .. } | Stmt::External2 { .. } => {
                nx += 1;
                format!("x{}", nx - 1)
            }
            Stmt::Op(op) | Stmt::Op2(op) | Stmt::Op3(op) | Stmt::Op4(op) if op.rename >= 4 => {
                nt += 1;
                format!("t{}", nt - 1)
            }
            Stmt::Repeat { .. } => {
                nt += 1;
                format!("t{}", nt - 1)
            }
            Stmt::Attention(a) => {
                for _ in 0..a.tensors() {
                    tensors.push(Known {
                        name: format!("t{nt}"),
                        shape: None,
                    });
                    nt += 1;
                }
                continue;
            }
            _ => continue,
        };
        tensors.push(Known { name, shape: None });
    }
    let mut r = GraphRender {
        out,
        pool,
        tensors,
        seen: 0,
        ops: 0,
    };
    r.external(false, 0);
    for s in &g.stmts {
        match s {
            Stmt::Dtype(d) => {
                let _ = writeln!(r.out, "  dtype {}", d.name());
            }
            Stmt::External { weight, shape } | Stmt::External2 { weight, shape } => {
                r.external(*weight, *shape)
            }
            Stmt::Op(op) | Stmt::Op2(op) | Stmt::Op3(op) | Stmt::Op4(op) => r.op(op),
            Stmt::Attention(a) => r.attention(a),
            Stmt::Output(list, n) => {
                let names: Vec<String> = list[..1 + usize::from(*n) % 4]
                    .iter()
                    .map(|&i| {
                        if i == 255 {
                            "nope".to_string()
                        } else {
                            r.tensors[usize::from(i) % r.seen].name.clone()
                        }
                    })
                    .collect();
                let _ = writeln!(r.out, "  output {}", names.join(", "));
            }
            Stmt::Allow(w) => {
                let _ = writeln!(r.out, "  // fgraph: allow({})", w.code());
            }
            Stmt::Assert { form, a, b, bound } => r.assertion(*form, *a, *b, *bound),
            Stmt::Repeat { count, arg, s } => {
                let input = if r.seen == 0 {
                    "x".to_string()
                } else {
                    r.tensors[usize::from(*arg) % r.seen].name.clone()
                };
                let out = r.tensors[r.seen].name.clone();
                let k = r.ops;
                r.ops += 1;
                let _ = writeln!(
                    r.out,
                    "  repeat {} r{k} = blk({input}, S = {}) -> {out}",
                    count % 5,
                    1 + s % 8
                );
                r.seen += 1;
            }
        }
    }
    r.out.push_str("}\n");
    src.push_str(&r.out);
}

/// The block of `FileDesc::block`.
fn render_block(sel: u8, src: &mut String) {
    src.push_str(match sel % 4 {
        0 => "block blk(S, N = 4) {\n  input x: [S, N]\n  weight w: [N, N]\n  op m = matmul(x, w) -> y\n  op r = elementwise.relu(y) -> z\n  output z\n}\n\n",
        1 => "block blk(S, N = 4) {\n  input x: [S, N]\n  op e = elementwise.exp(x, 0.5) -> z\n  output z\n}\n\n",
        2 => "block inner(S) {\n  input x: [S, 4]\n  weight b: [4]\n  op a = elementwise.add(x, b) -> y\n  output y\n}\n\nblock blk(S) {\n  input x: [S, 4]\n  op i = inner(x, S = S) -> y\n  op p = permute(y, dims = [0, 1]) -> z\n  output z\n}\n\n",
        _ => "block blk(S) {\n  input x: [S, 4]\n  op r = elementwise.relu(x) -> z\n}\n\n",
    });
}

fn render(file: &FileDesc) -> String {
    let mut src = String::new();
    if let Some(sel) = file.block {
        render_block(sel, &mut src);
    }
    for g in &file.graphs {
        render_graph(g, &mut src);
    }
    if src.is_empty() {
        src.push_str("graph g0 {\n}\n");
    }
    src
}

fuzz_target!(|desc: FileDesc| {
    let src = render(&desc);
    let mut opts = fgraph::Options {
        fusion: fgraph::FusionOptions {
            flash_attention: desc.flash,
            ..Default::default()
        },
        ..Default::default()
    };
    for (i, v) in &desc.sets {
        opts.overrides
            .insert(format!("P{}", usize::from(*i) % MAX_PARAMS), i64::from(*v));
    }
    if let Some(code) = desc.allow.and_then(|w| fgraph::Code::from_name(w.code())) {
        opts.allow.push(code);
    }
    let report = fgraph::check_file("structured.fgraph", src.as_bytes(), &opts);
    // The renderer writes only what the grammar accepts.
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.code != fgraph::Code::SyntaxError),
        "rendered source does not parse:\n{src}\n{:#?}",
        report.diagnostics
    );
    let hw = desc.hardware.as_ref().and_then(HwDesc::hardware);
    let analysed = common::exercise(&report, hw.as_ref());
    // `fmt` keeps every diagnostic and every traffic figure.
    let formatted = fgraph::format::format_source(&src).expect("rendered source formats");
    let again = fgraph::check_file("structured.fgraph", formatted.as_bytes(), &opts);
    let codes = |r: &fgraph::FileReport| {
        let mut c: Vec<&str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
        c.sort_unstable();
        c
    };
    assert_eq!(
        codes(&report),
        codes(&again),
        "fmt changed the diagnostics:\n{src}\n{formatted}"
    );
    for (a, b) in report.graphs.iter().zip(&again.graphs) {
        let (ta, tb) = (
            a.analysis
                .as_ref()
                .map(|x| (x.traffic.unfused, x.traffic.fused)),
            b.analysis
                .as_ref()
                .map(|x| (x.traffic.unfused, x.traffic.fused)),
        );
        assert_eq!(ta, tb, "fmt changed the traffic:\n{src}\n{formatted}");
    }
    if std::env::var_os("FGRAPH_FUZZ_PRINT").is_some() {
        let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
        let (ops, groups, flash) = report
            .graphs
            .iter()
            .filter_map(|g| g.analysis.as_ref())
            .fold((0, 0, 0), |(o, k, f), a| {
                (
                    o + a.graph.ops.len(),
                    k + a.plan.groups.len(),
                    f + a.plan.flash.len(),
                )
            });
        // The options in the form tests/fuzz_regressions.rs reads, then the file.
        let mut line: Vec<String> = opts
            .overrides
            .iter()
            .map(|(k, v)| format!("set {k}={v}"))
            .collect();
        line.extend(opts.allow.iter().map(|c| format!("allow {c}")));
        if opts.fusion.flash_attention {
            line.push("flash".to_string());
        }
        eprintln!("// fuzz-options: {}\n{src}", line.join(", "));
        eprintln!(
            "-- {analysed} analysed, {ops} ops in {groups} kernels, {flash} flash; {codes:?}"
        );
    }
});
