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
mod python;

use python::{HELPERS, MAIN};

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
                crate::graph::AttrValue::Name(n) => format!("{name} = {n}"),
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
