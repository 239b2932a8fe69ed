//! The importer's state ([`Imp`]) over one ONNX graph: its inputs and initializers as values,
//! the ops emitted, the named dynamic dimensions, the unmapped operators and the problems
//! that stop an import; the helpers the folding (`fold`) and the mapping (`ops`) share. The
//! walk itself, node by node, is `super::walk_graph`.

use super::model::{self, EOp, Kind, Val};
use super::sym::Poly;
use onnx_proto::onnx::{GraphProto, NodeProto, TensorProto, ValueInfoProto};
use std::collections::{BTreeMap, HashMap};

/// The importer's state.
pub struct Imp<'m> {
    pub nodes: &'m [NodeProto],
    pub vals: Vec<Val>,
    pub by_name: HashMap<String, usize>,
    pub ops: Vec<EOp>,
    /// The named dynamic dimensions, by variable id.
    pub dims: Vec<String>,
    pub dim_ids: HashMap<String, u32>,
    /// Operators with no fgraph counterpart: name → count.
    pub unmapped: BTreeMap<String, usize>,
    /// What stops the import from giving a correct graph.
    pub problems: Vec<String>,
    /// Nodes folded away (shape arithmetic, constants, identities).
    pub folded: usize,
    /// Readers of each ONNX name among the nodes (and graph outputs).
    pub uses: HashMap<String, usize>,
    /// The value types the file states (`value_info`), for values the walk cannot infer.
    pub infos: HashMap<&'m str, &'m ValueInfoProto>,
    /// `IsNaN` nodes read only by a `Where` that keeps its input where it is not NaN (the
    /// guard after a masked softmax): folded away with that `Where`.
    pub nan_guards: Vec<bool>,
    /// The outputs of those `IsNaN` nodes.
    pub guard_outputs: std::collections::HashSet<String>,
    pub graph_outputs: Vec<usize>,
    /// The model's version of the default operator set (rules that changed, such as
    /// `Softmax`'s axis, follow it).
    pub opset: i64,
}

impl<'m> Imp<'m> {
    pub fn new(g: &'m GraphProto) -> Imp<'m> {
        let mut imp = Imp {
            nodes: &g.node,
            vals: Vec::new(),
            by_name: HashMap::new(),
            ops: Vec::new(),
            dims: Vec::new(),
            dim_ids: HashMap::new(),
            unmapped: BTreeMap::new(),
            problems: Vec::new(),
            folded: 0,
            uses: HashMap::new(),
            infos: HashMap::new(),
            nan_guards: vec![false; g.node.len()],
            guard_outputs: Default::default(),
            graph_outputs: Vec::new(),
            opset: 21,
        };
        for vi in g.value_info.iter().chain(&g.output).chain(&g.input) {
            if let Some(n) = vi.name.as_deref() {
                imp.infos.insert(n, vi);
            }
        }
        for n in &g.node {
            for i in &n.input {
                *imp.uses.entry(i.clone()).or_insert(0) += 1;
            }
        }
        for o in &g.output {
            *imp.uses
                .entry(o.name.clone().unwrap_or_default())
                .or_insert(0) += 1;
        }
        imp.find_nan_guards();
        for t in &g.initializer {
            imp.initializer(t);
        }
        for vi in &g.input {
            let name = vi.name.clone().unwrap_or_default();
            if !imp.by_name.contains_key(&name) {
                imp.graph_input(vi, &name);
            }
        }
        imp
    }

    pub fn add_val(&mut self, v: Val) -> usize {
        self.vals.push(v);
        self.vals.len() - 1
    }

    pub fn dim_var(&mut self, name: &str) -> Poly {
        if let Some(&id) = self.dim_ids.get(name) {
            return Poly::var(id);
        }
        let id = self.dims.len() as u32;
        self.dims.push(name.to_string());
        self.dim_ids.insert(name.to_string(), id);
        Poly::var(id)
    }

    fn initializer(&mut self, t: &TensorProto) {
        let name = t.name.clone().unwrap_or_default();
        let code = t.data_type.unwrap_or(0);
        let shape: Vec<Poly> = t.dims.iter().map(|&d| Poly::constant(d)).collect();
        // Integers (shape values) and scalars are constants when the file holds their data;
        // any other tensor is a weight, whatever the file holds.
        let integer = matches!(code, 2 | 3 | 5 | 6 | 7 | 9);
        let kind = match model::tensor_elements(t) {
            Some(v) if integer || v.len() == 1 => Kind::Const(v),
            _ => Kind::Weight,
        };
        if t.dims.iter().any(|&d| d < 0) {
            self.problems
                .push(format!("initializer `{name}` has a negative dimension"));
        }
        let id = self.add_val(Val {
            name: name.clone(),
            dtype: model::dtype(code),
            onnx_dtype: code,
            shape: Some(shape),
            kind,
            declared: None,
        });
        self.by_name.insert(name, id);
    }

    fn graph_input(&mut self, vi: &ValueInfoProto, name: &str) {
        let tt = vi
            .r#type
            .as_ref()
            .and_then(|t| t.value.as_ref())
            .and_then(|v| match v {
                onnx_proto::onnx::type_proto::Value::TensorType(t) => Some(t),
                _ => None,
            });
        let Some(tt) = tt else {
            self.problems
                .push(format!("graph input `{name}` is not a tensor"));
            return;
        };
        if tt.shape.is_none() {
            self.problems.push(format!(
                "graph input `{name}` has no shape (give it one, or run \
                 onnx.shape_inference.infer_shapes)"
            ));
        }
        let code = tt.elem_type.unwrap_or(0);
        let mut shape = Vec::new();
        if let Some(s) = &tt.shape {
            for (k, d) in s.dim.iter().enumerate() {
                use onnx_proto::onnx::tensor_shape_proto::dimension::Value as D;
                let p = match &d.value {
                    Some(D::DimValue(v)) if *v > 0 => Poly::constant(*v),
                    Some(D::DimParam(p)) if !p.is_empty() => self.dim_var(p),
                    _ => self.dim_var(&format!("{name}_dim{k}")),
                };
                shape.push(p);
            }
        }
        let id = self.add_val(Val {
            name: name.to_string(),
            dtype: model::dtype(code),
            onnx_dtype: code,
            shape: Some(shape),
            kind: Kind::Input,
            declared: None,
        });
        self.by_name.insert(name.to_string(), id);
    }

    /// The shape `value_info` states for `name`, when each dim is a number, a named dynamic
    /// dimension, or a sum or product of them (`seq + 1`, `seq*batch`).
    pub fn info_shape(&mut self, name: &str) -> Option<(Vec<Poly>, i32)> {
        let vi = *self.infos.get(name)?;
        let tt = match vi.r#type.as_ref()?.value.as_ref()? {
            onnx_proto::onnx::type_proto::Value::TensorType(t) => t,
            _ => return None,
        };
        let mut shape = Vec::new();
        for d in &tt.shape.as_ref()?.dim {
            use onnx_proto::onnx::tensor_shape_proto::dimension::Value as D;
            shape.push(match &d.value {
                Some(D::DimValue(v)) if *v > 0 => Poly::constant(*v),
                Some(D::DimParam(p)) => match self.dim_ids.get(p.as_str()) {
                    Some(&id) => Poly::var(id),
                    None => self.parse_dim(p)?,
                },
                _ => return None,
            });
        }
        Some((shape, tt.elem_type.unwrap_or(0)))
    }

    /// `a + b*c - 1` over known dynamic dimensions and integers; no parentheses.
    fn parse_dim(&mut self, s: &str) -> Option<Poly> {
        let mut total = Poly::constant(0);
        let mut sign = 1;
        let mut term = Poly::constant(1);
        let mut expect_operand = true;
        let mut rest = s.trim();
        while !rest.is_empty() {
            let c = rest.chars().next()?;
            if c.is_whitespace() {
                rest = rest.trim_start();
                continue;
            }
            if expect_operand {
                let end = rest
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .unwrap_or(rest.len());
                let tok = &rest[..end];
                if tok.is_empty() {
                    return None;
                }
                let v = if tok.bytes().all(|b| b.is_ascii_digit()) {
                    Poly::constant(tok.parse().ok()?)
                } else {
                    Poly::var(*self.dim_ids.get(tok)?)
                };
                term = term.mul(&v)?;
                rest = &rest[end..];
                expect_operand = false;
            } else {
                match c {
                    '*' => {}
                    '+' | '-' => {
                        total = total.add(&term.mul(&Poly::constant(sign))?)?;
                        term = Poly::constant(1);
                        sign = if c == '-' { -1 } else { 1 };
                    }
                    _ => return None,
                }
                rest = &rest[1..];
                expect_operand = true;
            }
        }
        if expect_operand {
            return None;
        }
        total.add(&term.mul(&Poly::constant(sign))?)
    }

    fn find_nan_guards(&mut self) {
        let mut producer: HashMap<&str, usize> = HashMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            for o in &n.output {
                producer.insert(o, i);
            }
        }
        for n in self.nodes {
            if n.op_type.as_deref() != Some("Where") || n.input.len() != 3 {
                continue;
            }
            let Some(&p) = producer.get(n.input[0].as_str()) else {
                continue;
            };
            let isnan = &self.nodes[p];
            if isnan.op_type.as_deref() == Some("IsNaN")
                && isnan.input.first() == n.input.get(2)
                && self.uses.get(&n.input[0]) == Some(&1)
            {
                self.nan_guards[p] = true;
                self.guard_outputs.insert(n.input[0].clone());
            }
        }
    }

    /// Input `k` of node `node`: `None` when absent (an empty name or past the end).
    pub fn input(&mut self, node: &NodeProto, k: usize) -> Option<usize> {
        let name = node.input.get(k)?;
        if name.is_empty() {
            return None;
        }
        match self.by_name.get(name) {
            Some(&id) => Some(id),
            None => {
                self.problems.push(format!(
                    "`{}` reads `{name}`, which no node produces",
                    node_label(node)
                ));
                None
            }
        }
    }

    /// Names output `k` of `node` as value `id`.
    pub fn bind(&mut self, node: &NodeProto, k: usize, id: usize) {
        if let Some(name) = node.output.get(k)
            && !name.is_empty()
        {
            self.by_name.insert(name.clone(), id);
        }
    }

    /// A new value for output `k` of `node`.
    pub fn output(
        &mut self,
        node: &NodeProto,
        k: usize,
        dtype: i32,
        shape: Option<Vec<Poly>>,
        kind: Kind,
    ) -> usize {
        let name = node.output.get(k).cloned().unwrap_or_default();
        let id = self.add_val(Val {
            name,
            dtype: model::dtype(dtype),
            onnx_dtype: dtype,
            shape,
            kind,
            declared: None,
        });
        self.bind(node, k, id);
        id
    }

    /// Records an operator fgraph has no counterpart for and emits it as an opaque op with
    /// the output type the file states, or records a problem when it states none.
    pub fn unmapped(&mut self, i: usize, why: Option<&str>) {
        let node = &self.nodes[i];
        let op = op_name(node);
        *self.unmapped.entry(op.clone()).or_insert(0) += 1;
        let mut args = Vec::new();
        for k in 0..node.input.len() {
            if let Some(id) = self.input(node, k)
                && !matches!(self.vals[id].kind, Kind::Const(_))
            {
                args.push(model::Arg::T(id));
            }
        }
        for k in 0..node.output.len().max(1) {
            let name = node.output.get(k).cloned().unwrap_or_default();
            let Some((shape, code)) = self.info_shape(&name) else {
                // Later readers see an unknown shape and add nothing to this problem.
                self.output(node, k, 0, None, Kind::Tensor);
                self.problems.push(format!(
                    "`{}` ({op}{}) has no counterpart in fgraph and the file does not state \
                     the shape of its output `{name}`",
                    node_label(node),
                    why.map(|w| format!(": {w}")).unwrap_or_default()
                ));
                continue;
            };
            let out = self.output(node, k, code, Some(shape), Kind::Tensor);
            if args.is_empty() {
                // Nothing to read: the value stands for an input of the graph.
                self.vals[out].kind = Kind::Static;
                continue;
            }
            let func: String = op
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            self.ops.push(EOp {
                node: i,
                kind: format!("reduction.onnx_{func}"),
                args: args.clone(),
                attrs: vec![("flops", model::Attr::I(1))],
                out,
                dtype: true,
            });
        }
    }
}

/// `Domain::OpType`, or `OpType` for the default domain.
pub fn op_name(node: &NodeProto) -> String {
    let op = model::shown(node.op_type.as_deref().unwrap_or("?"), 64);
    match node.domain.as_deref() {
        None | Some("") | Some("ai.onnx") => op,
        Some(d) => format!("{}::{op}", model::shown(d, 64)),
    }
}

/// A node as messages name it: its name, or its type and first output.
pub fn node_label(node: &NodeProto) -> String {
    match node.name.as_deref() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!(
            "{} -> {}",
            node.op_type.as_deref().unwrap_or("?"),
            node.output.first().map_or("?", String::as_str)
        ),
    }
}
