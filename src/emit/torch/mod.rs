//! `fgraph emit torch`: a checked graph as a self-contained PyTorch module.
//!
//! The module imports `torch` (and `torch.nn.functional as F`), holds the graph's metadata
//! (`INPUTS`, `WEIGHTS`, `OUTPUTS`: names, shapes, dtypes; `NOTES`: what is approximate, op
//! by op), a `class Graph(torch.nn.Module)` whose `__init__` makes every weight (seeded
//! random tensors of the declared shapes and dtypes on a `device`) and whose `forward` takes
//! the inputs in declaration order and runs each op as one PyTorch call, in the graph's order,
//! assigned to a variable named after the op's output tensor, under a comment naming the
//! fgraph op and where it is written; `make_inputs` and a `main` that runs it once.
//!
//! | module | owns |
//! |---|---|
//! | here | the module's text: header, metadata, `__init__`, `forward` with its comments and `del`s, `main` |
//! | `ops` | one PyTorch call per op kind (an exhaustive match) |
//! | `funcs` | the calls of `elementwise` and `reduction` functions |
//! | `args` | what calls are made of: arguments, operands, conversions, buffers, literals |
//! | `names` | Python identifiers for tensor names |
//! | `dtypes` | PyTorch's dtypes and type promotion |
//!
//! Everything is linear in the graph: one pass to name, one to find last uses and integer
//! ranges, one to write, into one `String`.

mod args;
mod dtypes;
mod families;
mod funcs;
pub mod names;
mod ops;

use super::{EmitError, Input};
use crate::graph::{Graph, OpId, Origin, TensorId};
use crate::types::{Dtype, OpKind};
use dtypes::{is_float, is_int, storage, torch_name};
use names::{Namer, Role};
use std::collections::HashMap;
use std::fmt::Write;

/// Emits `input.graph` as a PyTorch module.
pub fn emit(input: &Input<'_>) -> Result<String, EmitError> {
    let mut e = Emitter::new(input.graph);
    let forward = e.forward(input)?;
    Ok(e.module(input, &forward))
}

/// Integer tensors with no index use are drawn from `[0, DEFAULT_HIGH)`.
const DEFAULT_HIGH: u64 = 16;

/// The emitter's state for one graph.
pub(super) struct Emitter<'g> {
    g: &'g Graph,
    namer: Namer,
    /// The Python name of each tensor (a weight's is its attribute's).
    names: Vec<String>,
    /// Lines `__init__` adds after the weights: the buffers ops need (masks, constants).
    init: String,
    /// What is approximate, by op: `(op name, note)`, in the graph's order.
    notes: Vec<(String, String)>,
    /// A `topk`'s values tensor → the variable holding its `torch.topk` result, when a
    /// `topk_indices` reads it.
    topk_results: HashMap<TensorId, String>,
    /// The position of each op in the graph's order.
    position: Vec<usize>,
    /// Weights written in place (`update`, `index_add`): buffers, not parameters.
    mutated: Vec<bool>,
    /// Inputs and weights read by a channels-last conv or pool: made channels-last.
    channels_last: Vec<bool>,
    /// A weight read as a conv's filter: its fan-in is all but its first dim.
    conv_weight: Vec<bool>,
    /// Exclusive upper bound of each integer tensor's values, from the ops that index with it.
    high: Vec<Option<u64>>,
    /// Float tensors that must not be negative (a batch norm's variance, and what it is
    /// reshaped or sliced from): drawn as absolute values.
    positive: Vec<bool>,
    /// Whether a matmul, conv or attention reads a `tf32` tensor (`f32` ones too).
    tf32: bool,
    f32_matmul: bool,
}

impl<'g> Emitter<'g> {
    fn new(g: &'g Graph) -> Self {
        let mut namer = Namer::default();
        let names = g
            .tensors
            .iter()
            .map(|t| {
                let role = match t.origin {
                    Origin::Weight => Role::Attribute,
                    _ => Role::Local,
                };
                namer.claim(&t.name, role)
            })
            .collect();
        let mut position = vec![0; g.ops.len()];
        for (p, &o) in g.topo.iter().enumerate() {
            position[o.index()] = p;
        }
        let n = g.tensors.len();
        let mut e = Emitter {
            g,
            namer,
            names,
            init: String::new(),
            notes: Vec::new(),
            topk_results: HashMap::new(),
            position,
            mutated: vec![false; n],
            channels_last: vec![false; n],
            conv_weight: vec![false; n],
            high: vec![None; n],
            positive: vec![false; n],
            tf32: false,
            f32_matmul: false,
        };
        e.survey();
        e
    }

    /// One pass over the ops for what `__init__` and the inputs need to know.
    fn survey(&mut self) {
        let g = self.g;
        // A tensor every conv and pool reading it wants channels-last is made so; one read
        // both ways stays contiguous (each channels-last op then converts it).
        let mut contiguous = vec![false; g.tensors.len()];
        for op in &g.ops {
            let first = op.inputs.first().map(|u| g.tensor(u.tensor).dtype);
            match op.kind {
                OpKind::Update | OpKind::IndexAdd => {
                    if let Some(u) = op.inputs.first() {
                        self.mutated[u.tensor.index()] = true;
                    }
                }
                OpKind::Conv
                | OpKind::MaxPool
                | OpKind::AvgPool
                | OpKind::GlobalAvgPool
                | OpKind::GlobalMaxPool => {
                    let cl = op.int_attr("channels_last") == Some(1);
                    for (k, u) in op.inputs.iter().enumerate() {
                        let rank = g.use_shape(u).len();
                        if cl && u.index.is_none() && !u.transpose && (rank == 4 || rank == 5) {
                            self.channels_last[u.tensor.index()] = true;
                        } else if !cl {
                            contiguous[u.tensor.index()] = true;
                        }
                        if op.kind == OpKind::Conv && k == 1 {
                            self.conv_weight[u.tensor.index()] = true;
                        }
                    }
                }
                _ => {}
            }
            if matches!(op.kind, OpKind::Matmul | OpKind::Conv | OpKind::Attention) {
                match first {
                    Some(Dtype::Tf32) => self.tf32 = true,
                    Some(Dtype::F32) => self.f32_matmul = true,
                    _ => {}
                }
            }
        }
        for (cl, &c) in self.channels_last.iter_mut().zip(&contiguous) {
            *cl &= !c;
        }
        // Integer ranges: consumers before producers, so that a bound found at a `gather`
        // reaches the input its ids were reshaped or sliced from.
        for &o in g.topo.iter().rev() {
            let op = g.op(o);
            let out = self.high[op.output.index()];
            let positive = self.positive[op.output.index()];
            if op.kind == OpKind::Elementwise
                && op
                    .func
                    .as_deref()
                    .is_some_and(|f| crate::ops::funcs::is(f, "batchnorm"))
                && let Some(var) = operand(op, 2)
            {
                self.positive[var.index()] = true;
            }
            let keeps_values = match op.kind {
                OpKind::Reshape
                | OpKind::Slice
                | OpKind::Permute
                | OpKind::Expand
                | OpKind::Roll
                | OpKind::Concat
                | OpKind::Update
                | OpKind::Sort
                | OpKind::Topk
                | OpKind::Gather => true,
                OpKind::Elementwise => op.func.as_deref().is_some_and(|f| {
                    crate::ops::funcs::is(f, "cast") || crate::ops::funcs::is(f, "copy")
                }),
                _ => false,
            };
            if positive && keeps_values {
                let n = if op.kind == OpKind::Gather {
                    1
                } else {
                    op.inputs.len()
                };
                for u in &op.inputs[..n] {
                    self.positive[u.tensor.index()] = true;
                }
            }
            let size = |k: usize, axis: i64| -> Option<u64> {
                let s = g.use_shape(op.inputs.get(k)?);
                let a = normalize(axis, s.len())?;
                s.get(a).copied()
            };
            let mut bound = |t: TensorId, b: Option<u64>| {
                if let Some(b) = b {
                    let h = &mut self.high[t.index()];
                    *h = Some(h.map_or(b, |h| h.min(b)));
                }
            };
            match op.kind {
                OpKind::Gather => {
                    if let Some(ids) = op.inputs.get(1) {
                        bound(ids.tensor, size(0, op.int_attr("axis").unwrap_or(0)));
                    }
                    if let Some(t) = op.inputs.first() {
                        bound(t.tensor, out);
                    }
                }
                OpKind::IndexAdd => {
                    if let Some(ids) = op.inputs.get(1) {
                        bound(ids.tensor, size(0, op.int_attr("axis").unwrap_or(0)));
                    }
                }
                OpKind::OneHot => {
                    if let Some(ids) = op.inputs.first() {
                        bound(ids.tensor, op.int_attr("classes").map(|c| c as u64));
                    }
                }
                // What keeps values passes the bound on to its inputs.
                OpKind::Reshape
                | OpKind::Slice
                | OpKind::Permute
                | OpKind::Expand
                | OpKind::Roll
                | OpKind::Concat
                | OpKind::Update
                | OpKind::Sort
                | OpKind::Topk => {
                    for u in &op.inputs {
                        bound(u.tensor, out);
                    }
                }
                OpKind::Elementwise
                    if op.func.as_deref().is_some_and(|f| {
                        crate::ops::funcs::is(f, "cast") || crate::ops::funcs::is(f, "copy")
                    }) =>
                {
                    for u in &op.inputs {
                        bound(u.tensor, out);
                    }
                }
                _ => {}
            }
        }
    }

    /// The Python expression of tensor `t`: a local, or `self.NAME` for a weight.
    fn expr(&self, t: TensorId) -> String {
        match self.g.tensor(t).origin {
            Origin::Weight => format!("self.{}", self.names[t.index()]),
            _ => self.names[t.index()].clone(),
        }
    }

    /// `forward`'s body: every op in the graph's order, each tensor deleted after its last
    /// use (so that eager PyTorch frees it as a module written by hand would).
    fn forward(&mut self, input: &Input<'_>) -> Result<String, EmitError> {
        let g = self.g;
        let n = g.topo.len();
        // Produced tensors that are not outputs are deleted after their last reader (or
        // at once when nothing reads them).
        let mut last: Vec<Option<usize>> = vec![None; g.tensors.len()];
        for (p, &o) in g.topo.iter().enumerate() {
            for u in &g.op(o).inputs {
                last[u.tensor.index()] = Some(p);
            }
        }
        let mut dels: Vec<Vec<TensorId>> = vec![Vec::new(); n];
        for (i, t) in g.tensors.iter().enumerate() {
            let id = TensorId(i as u32);
            if let Origin::Produced(o) = t.origin
                && !g.is_output(id)
            {
                let at = last[i].unwrap_or(self.position[o.index()]);
                dels[at].push(id);
            }
        }
        let mut body = String::with_capacity(g.ops.len() * 160);
        let mut extra_dels: Vec<Vec<String>> = vec![Vec::new(); n];
        for (p, &o) in g.topo.iter().enumerate() {
            let op = g.op(o);
            let (file, line) = (input.place)(op.span);
            let _ = writeln!(
                body,
                "        # op {} = {}  [{}:{line}]",
                op.name,
                written(g, o),
                clean(&file)
            );
            let stmt = self.op(o)?;
            let out = g.tensor(op.output);
            let mut rhs = stmt.rhs;
            let mut notes = stmt.notes;
            if storage(stmt.dtype) != storage(out.dtype) {
                if !stmt.atom {
                    rhs = format!("({rhs})");
                }
                let _ = write!(rhs, ".to({})", torch_name(out.dtype));
                notes.push(format!(
                    "+1 kernel: PyTorch's result is {}; converted to {} as fgraph declares it",
                    torch_name(stmt.dtype),
                    torch_name(out.dtype)
                ));
            }
            for note in notes {
                let _ = writeln!(body, "        # note: {}", clean(&note));
                self.notes.push((op.name.to_string(), note));
            }
            for line in &stmt.pre {
                let _ = writeln!(body, "        {line}");
            }
            let _ = writeln!(body, "        {} = {rhs}", self.names[op.output.index()]);
            if let Some((at, name)) = stmt.release {
                extra_dels[at].push(name);
            }
            let mut gone: Vec<&str> = dels[p]
                .iter()
                .map(|t| self.names[t.index()].as_str())
                .collect();
            gone.extend(extra_dels[p].iter().map(String::as_str));
            if !gone.is_empty() {
                let _ = writeln!(body, "        del {}", gone.join(", "));
            }
        }
        let outs: Vec<String> = g.outputs.iter().map(|&t| self.expr(t)).collect();
        match outs.len() {
            0 => body.push_str("        return ()\n"),
            1 => {
                let _ = writeln!(body, "        return {}", outs[0]);
            }
            _ => {
                let _ = writeln!(body, "        return ({})", outs.join(", "));
            }
        }
        Ok(body)
    }

    /// The whole module around `forward`'s body.
    fn module(&self, input: &Input<'_>, forward: &str) -> String {
        let g = self.g;
        let mut m = String::with_capacity(forward.len() + g.tensors.len() * 200 + 4096);
        let sets = if input.overrides.is_empty() {
            String::new()
        } else {
            format!(" with --set {}", input.overrides.join(" --set "))
        };
        let _ = write!(
            m,
            "# Generated by `fgraph emit torch` from {}, graph `{}`{}.\n\
             # {}, each one PyTorch call named after its output tensor, in the graph's order;\n\
             # each is under a comment naming the fgraph op and where it is written. NOTES lists\n\
             # what is approximate (extra kernels, placeholders). Needs PyTorch 2.5 or later.\n\
             \"\"\"The graph `{}` as a PyTorch module: `Graph(device)`, `make_inputs(device)`.\"\"\"\n\n\
             import math\n\n\
             import torch\n\
             import torch.nn.functional as F\n\n",
            clean(input.file),
            clean(&g.name),
            clean(&sets),
            match g.ops.len() {
                1 => "1 op".to_string(),
                n => format!("{n} ops"),
            },
            clean(&g.name).replace(['\\', '"'], "_"),
        );
        if self.tf32 {
            m.push_str(
                "# The graph's tf32 matmuls: TF32 is PyTorch's global float32 matmul precision",
            );
            if self.f32_matmul {
                m.push_str(
                    ";\n# its float32 matmuls run in TF32 too (approximate: fgraph prices them as f32)",
                );
            }
            m.push_str(".\ntorch.backends.cuda.matmul.allow_tf32 = True\ntorch.backends.cudnn.allow_tf32 = True\n\n");
        }
        // Metadata.
        let ids_of = |o: Origin| -> Vec<usize> {
            (0..g.tensors.len())
                .filter(|&i| {
                    matches!(
                        (g.tensors[i].origin, o),
                        (Origin::Input, Origin::Input) | (Origin::Weight, Origin::Weight)
                    )
                })
                .collect()
        };
        let (inputs, weights) = (ids_of(Origin::Input), ids_of(Origin::Weight));
        m.push_str(
            "# The inputs of forward(), in order: how make_inputs() draws them.\nINPUTS = [\n",
        );
        for &i in &inputs {
            let _ = writeln!(m, "    {},", self.spec(i));
        }
        m.push_str("]\n# The weights: attributes of Graph, drawn in this order from its seed.\nWEIGHTS = [\n");
        for &i in &weights {
            let _ = writeln!(m, "    {},", self.spec(i));
        }
        m.push_str("]\n# What forward() returns, in order.\nOUTPUTS = [\n");
        for &t in &g.outputs {
            let tensor = g.tensor(t);
            let _ = writeln!(
                m,
                "    {{\"name\": {}, \"fgraph\": {}, \"shape\": {}, \"dtype\": {}, \"fgraph_dtype\": \"{}\"}},",
                py_str(&self.expr(t)),
                py_str(&tensor.name),
                py_shape(&tensor.shape),
                torch_name(tensor.dtype),
                tensor.dtype
            );
        }
        m.push_str(
            "]\n# (op, note): where the module is not one PyTorch call per op, or not exact.\nNOTES = [\n",
        );
        for (op, note) in &self.notes {
            let _ = writeln!(m, "    ({}, {}),", py_str(op), py_str(note));
        }
        m.push_str("]\n\n\n");
        m.push_str(HELPERS);
        // The module.
        let _ = write!(
            m,
            "\n\nclass Graph(torch.nn.Module):\n    \
             \"\"\"The fgraph graph, op by op; weights are seeded random tensors.\"\"\"\n\n    \
             def __init__(self, device=\"cpu\", seed=0):\n        \
             super().__init__()\n        \
             gen = torch.Generator(device=device).manual_seed(seed)\n"
        );
        for &i in &weights {
            let t = &g.tensors[i];
            let args = self.random_args(i);
            let line = if self.mutated[i] {
                format!(
                    "self.register_buffer({}, _random({args}))",
                    py_str(&self.names[i])
                )
            } else {
                format!("self.{} = _weight(_random({args}))", self.names[i])
            };
            let _ = writeln!(m, "        {line}  # {} {}", clean(&t.name), type_text(t));
        }
        m.push_str(&self.init);
        let params: Vec<&str> = inputs.iter().map(|&i| self.names[i].as_str()).collect();
        let _ = writeln!(m, "\n    def forward(self{}):", {
            let mut s = String::new();
            for p in &params {
                s.push_str(", ");
                s.push_str(p);
            }
            s
        });
        m.push_str(forward);
        m.push_str(MAIN);
        m
    }

    /// An `INPUTS` or `WEIGHTS` entry.
    fn spec(&self, i: usize) -> String {
        let t = &self.g.tensors[i];
        let mut s = format!(
            "{{\"name\": {}, \"fgraph\": {}, \"shape\": {}, \"dtype\": {}, \"fgraph_dtype\": \"{}\"",
            py_str(&self.names[i]),
            py_str(&t.name),
            py_shape(&t.shape),
            torch_name(t.dtype),
            t.dtype
        );
        if is_int(t.dtype) {
            let _ = write!(s, ", \"low\": 0, \"high\": {}", self.int_high(i));
        } else if is_float(t.dtype) {
            let _ = write!(s, ", \"std\": {}", py_float(self.std(i)));
            if self.positive[i] {
                s.push_str(", \"positive\": True");
            }
        }
        if self.channels_last[i] {
            s.push_str(", \"channels_last\": True");
        }
        s.push('}');
        s
    }

    /// The arguments of `_random` for tensor `i`.
    fn random_args(&self, i: usize) -> String {
        let t = &self.g.tensors[i];
        let mut s = format!(
            "{}, {}, device, gen",
            py_shape(&t.shape),
            torch_name(t.dtype)
        );
        if is_int(t.dtype) {
            let _ = write!(s, ", high={}", self.int_high(i));
        } else if is_float(t.dtype) && self.std(i) != 1.0 {
            let _ = write!(s, ", std={}", py_float(self.std(i)));
        }
        if is_float(t.dtype) && self.positive[i] {
            s.push_str(", positive=True");
        }
        if self.channels_last[i] {
            s.push_str(", channels_last=True");
        }
        s
    }

    /// Integers are drawn from `[0, high)`: below the size every index use allows.
    fn int_high(&self, i: usize) -> u64 {
        let t = &self.g.tensors[i];
        self.high[i]
            .unwrap_or(DEFAULT_HIGH)
            .min(dtypes::int_max(t.dtype).saturating_add(1))
            .max(1)
    }

    /// Weights of rank 2 or more are scaled by 1/sqrt(fan-in), so that activations stay in
    /// range through deep graphs; others are standard normal.
    fn std(&self, i: usize) -> f64 {
        let t = &self.g.tensors[i];
        if t.origin != Origin::Weight || t.shape.len() < 2 {
            return 1.0;
        }
        let numel: f64 = t.shape.iter().map(|&d| d as f64).product();
        let per = if self.conv_weight[i] {
            t.shape[0]
        } else {
            t.shape[t.shape.len() - 1]
        } as f64;
        let fan_in = (numel / per).max(1.0);
        1.0 / fan_in.sqrt()
    }
}

/// The statement of one op (`ops` makes it).
pub(super) struct Stmt {
    /// Lines before the assignment (an `update`'s slice assignment).
    pre: Vec<String>,
    /// The op's PyTorch call.
    rhs: String,
    /// `rhs` is a primary expression (takes `.to(..)` without parentheses).
    atom: bool,
    /// The dtype PyTorch gives `rhs` (converted to the output's when they differ).
    dtype: Dtype,
    notes: Vec<String>,
    /// A helper variable to delete after the op at this position.
    release: Option<(usize, String)>,
}

impl Stmt {
    fn call(rhs: String, dtype: Dtype) -> Self {
        Stmt {
            pre: Vec::new(),
            rhs,
            atom: true,
            dtype,
            notes: Vec::new(),
            release: None,
        }
    }
}

/// The tensor at positional operand `k` of `op` (scalar constants count), if it is one.
fn operand(op: &crate::graph::OpNode, k: usize) -> Option<TensorId> {
    let scalars = op.scalars();
    if scalars.iter().any(|&(at, _)| at == k) {
        return None;
    }
    let before = scalars.iter().filter(|&&(at, _)| at < k).count();
    op.inputs.get(k - before).map(|u| u.tensor)
}

/// An op as written, without its name: `matmul(xn, wq, axis = -1) -> q`.
fn written(g: &Graph, o: OpId) -> String {
    let op = g.op(o);
    let mut args = g.written_inputs(op);
    // Booleans are held as 1 and 0: written back as `true` and `false`.
    let func = op
        .func
        .as_deref()
        .and_then(|f| crate::ops::funcs::find(op.kind, f));
    let specs = crate::ops::spec(op.kind)
        .attrs
        .iter()
        .chain(func.map_or(&[][..], |f| f.attrs));
    let bools: Vec<&str> = specs
        .filter(|a| a.ty == crate::ops::funcs::AttrType::Bool)
        .map(|a| a.name)
        .collect();
    for (name, v) in op.attrs.iter() {
        match (bools.contains(&name.as_str()), v) {
            (true, 1) => args.push(format!("{name} = true")),
            (true, 0) => args.push(format!("{name} = false")),
            _ => args.push(format!("{name} = {v}")),
        }
    }
    if let Some(extra) = &op.extra {
        for (name, v) in &extra.attrs {
            args.push(match v {
                crate::graph::AttrValue::Float { text, .. } => format!("{name} = {text}"),
                crate::graph::AttrValue::List(l) => format!(
                    "{name} = [{}]",
                    l.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                ),
            });
        }
    }
    format!(
        "{}({}) -> {}",
        op.kind_func(),
        args.join(", "),
        g.tensor(op.output).name
    )
}

/// `t: [..]` as declared: dtype and shape.
fn type_text(t: &crate::graph::Tensor) -> String {
    format!("{}{}", t.dtype, crate::units::fmt_shape(&t.shape))
}

/// Text fit for a one-line comment: control characters become spaces.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A Python string literal.
pub(super) fn py_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A shape as a Python tuple: `(2, 3)`, `(4,)`, `()`.
pub(super) fn py_shape(s: &[u64]) -> String {
    match s {
        [] => "()".into(),
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// A float for Python, to 6 significant digits.
fn py_float(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{v:.1}")
    } else {
        format!("{v:.6e}")
            .parse::<f64>()
            .map_or_else(|_| format!("{v}"), |x| format!("{x}"))
    }
}

/// An axis counted from the end when negative, as an index into a shape of `rank`.
pub(super) fn normalize(axis: i64, rank: usize) -> Option<usize> {
    let a = if axis < 0 {
        axis.checked_add(rank as i64)?
    } else {
        axis
    };
    (0..rank as i64).contains(&a).then_some(a as usize)
}

/// The Python the module's ops use: tensors, masks and constants made on the device, and
/// the ops PyTorch has no single call for (scans, weight-only GEMMs: `families`).
const HELPERS: &str = r#"def _random(shape, dtype, device, gen, std=1.0, high=2, channels_last=False, positive=False):
    """A seeded random tensor: normal floats times `std` (their absolute values if
    `positive`), integers in [0, high), bools."""
    if dtype == torch.bool:
        t = torch.rand(shape, device=device, generator=gen) < 0.5
    elif dtype.is_floating_point:
        make = dtype if dtype.itemsize > 1 else torch.float32  # no randn in fp8
        t = torch.randn(shape, dtype=make, device=device, generator=gen)
        if positive:
            t.abs_()
        if std != 1.0:
            t.mul_(std)
        t = t.to(dtype)
    else:
        t = torch.randint(0, high, shape, dtype=dtype, device=device, generator=gen)
    if channels_last:
        fmt = torch.channels_last if t.dim() == 4 else torch.channels_last_3d
        t = t.contiguous(memory_format=fmt)
    return t


def _weight(t):
    """A weight: a parameter that needs no gradient."""
    return torch.nn.Parameter(t, requires_grad=False)


def _hidden(sq, sk, window, device):
    """True where query i may not see key j: j > i + sk - sq (the causal mask aligned to the
    last key, as fgraph and FlashAttention align it), or, with a window, j <= i + sk - sq - window.
    """
    i = torch.arange(sq, device=device)[:, None] + (sk - sq)
    j = torch.arange(sk, device=device)[None, :]
    hidden = j > i
    if window is not None:
        hidden |= j <= i - window
    return hidden


def _selective_scan(u, delta, A, B, C, D=None, z=None, delta_bias=None, softplus=False):
    """Mamba's selective scan: mamba_ssm's fused kernel when it is installed, else its
    reference (selective_scan_ref: a Python loop over L, many kernels)."""
    try:
        from mamba_ssm.ops.selective_scan_interface import selective_scan_fn
        return selective_scan_fn(u, delta, A, B, C, D, z, delta_bias, delta_softplus=softplus)
    except ImportError:
        pass
    dt = delta.float()
    if delta_bias is not None:
        dt = dt + delta_bias[..., None].float()
    if softplus:
        dt = F.softplus(dt)
    Bf, Cf = B.float(), C.float()
    if Bf.dim() == 4:  # [batch, groups, N, L]: each group serves dim / groups channels
        rep = u.shape[1] // Bf.shape[1]
        Bf = Bf.repeat_interleave(rep, dim=1)
        Cf = Cf.repeat_interleave(rep, dim=1)
        dBu = torch.einsum("bdl,bdnl,bdl->bdln", dt, Bf, u.float())
    else:
        dBu = torch.einsum("bdl,bnl,bdl->bdln", dt, Bf, u.float())
    dA = torch.exp(torch.einsum("bdl,dn->bdln", dt, A.float()))
    h = torch.zeros(u.shape[0], u.shape[1], A.shape[1], device=u.device)
    ys = []
    for i in range(u.shape[2]):
        h = dA[:, :, i] * h + dBu[:, :, i]
        c = Cf[:, :, :, i] if Cf.dim() == 4 else Cf[:, None, :, i]
        ys.append((h * c).sum(-1))
    y = torch.stack(ys, dim=2)
    if D is not None:
        y = y + u.float() * D[:, None].float()
    if z is not None:
        y = y * F.silu(z.float())
    return y.to(u.dtype)


def _linear_scan(a, b, dim):
    """h_t = a_t * h_{t-1} + b_t along `dim` (a loop; torch.compile's associative_scan is
    the fused form)."""
    a, b = a.movedim(dim, 0), b.movedim(dim, 0)
    h = torch.empty_like(b)
    h[0] = b[0]
    for t in range(1, b.shape[0]):
        h[t] = a[t] * h[t - 1] + b[t]
    return h.movedim(0, dim)


def _dequant(w, scales, zeros, bits, group, k):
    """Packed integer weights [K / p, N] (p per element of w's dtype, low bits first along K)
    to scales' dtype, [K, N]: (q - zero) * scale per group of rows (zero 2^(bits-1) when
    none is given)."""
    if bits == 8:
        q = w.to(torch.int32)
    else:
        if w.dtype == torch.int32:
            w = w.contiguous().view(torch.uint8).reshape(w.shape[0], w.shape[1], 4)
            w = w.permute(0, 2, 1).reshape(-1, w.shape[1])
        w = w.view(torch.uint8).to(torch.int32)
        q = torch.stack([w & 15, w >> 4], dim=1).reshape(-1, w.shape[-1])
    q = q[:k]
    s = scales.repeat_interleave(group, dim=0)[:k]
    zp = zeros.repeat_interleave(group, dim=0)[:k] if zeros is not None else 2 ** (bits - 1)
    return ((q - zp) * s).to(scales.dtype)


def make_inputs(device="cpu", seed=1):
    """Random inputs of the declared shapes and dtypes, in forward()'s order."""
    gen = torch.Generator(device=device).manual_seed(seed)
    return [
        _random(s["shape"], s["dtype"], device, gen, std=s.get("std", 1.0),
                high=s.get("high", 2), channels_last=s.get("channels_last", False),
                positive=s.get("positive", False))
        for s in INPUTS
    ]
"#;

/// `main`: build, run once, print the outputs' shapes.
const MAIN: &str = r#"

def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Graph(device=device)
    inputs = make_inputs(device)
    with torch.inference_mode():
        outputs = model(*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    ok = True
    for spec, out in zip(OUTPUTS, outputs):
        shape = tuple(out.shape)
        same = shape == spec["shape"] and out.dtype == spec["dtype"]
        ok = ok and same
        print(f"{spec['fgraph']}: {list(shape)} {out.dtype}" + ("" if same else "  (declared: "
              f"{list(spec['shape'])} {spec['dtype']})"))
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
"#;
