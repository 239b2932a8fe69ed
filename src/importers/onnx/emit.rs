//! Writes the walked graph as `.fgraph` source: a header comment (where it came from, what
//! was folded, what is unmapped), one `param` per named dynamic dimension, the `input` and
//! `weight` declarations, the ops (every output shape declared, so that the file checks what
//! the importer computed), and the outputs; with a `block` and a `repeat` when
//! [`super::repeat`] found the layers. ONNX names become identifiers ([`Names`]).

use super::model::{Arg, Attr, EOp, Kind, Layers, Val};
use super::walk::Imp;
use crate::types::Dtype;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Unique identifiers for ONNX names, in one namespace.
#[derive(Default)]
pub struct Names {
    taken: HashSet<String>,
}

const RESERVED: &[&str] = &[
    "graph", "param", "dtype", "input", "weight", "output", "op", "block", "import", "repeat",
];

impl Names {
    /// An identifier for `name`, not given before.
    pub fn fresh(&mut self, name: &str) -> String {
        let mut s: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let s0 = s.trim_matches('_').to_string();
        s = if s0.is_empty() { "t".into() } else { s0 };
        if s.starts_with(|c: char| c.is_ascii_digit()) {
            s.insert_str(0, "t_");
        }
        if RESERVED.contains(&s.as_str()) {
            s.push('_');
        }
        s.truncate(200);
        let mut out = s.clone();
        let mut k = 2;
        while !self.taken.insert(out.clone()) {
            out = format!("{s}_{k}");
            k += 1;
        }
        out
    }
}

/// The params the named dynamic dimensions become: identifiers, each its own.
pub fn param_names(imp: &Imp<'_>) -> Vec<String> {
    let mut params = Names::default();
    imp.dims.iter().map(|d| params.fresh(d)).collect()
}

/// What the header says of the model.
pub struct Header<'a> {
    pub source: &'a str,
    pub producer: String,
    pub opset: Option<i64>,
}

/// The `.fgraph` text of the walked graph.
pub fn render(
    imp: &Imp<'_>,
    graph_name: &str,
    dims: &[(String, i64)],
    header: &Header<'_>,
    layers: Option<&Layers>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Imported by `fgraph import onnx` from {}",
        super::model::shown(header.source, 200)
    );
    let _ = writeln!(
        out,
        "// (producer: {}{}); weights by shape only.",
        if header.producer.is_empty() {
            "unknown"
        } else {
            &header.producer
        },
        header
            .opset
            .map(|o| format!(", opset {o}"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "// {} ONNX nodes: {} fgraph ops, {} folded (shape arithmetic, constants, identities, masks, patterns).",
        imp.nodes.len(),
        imp.ops.len(),
        imp.folded
    );
    if !imp.unmapped.is_empty() {
        let list: Vec<String> = imp
            .unmapped
            .iter()
            .map(|(k, n)| format!("{k} x{n}"))
            .collect();
        let _ = writeln!(
            out,
            "// Unmapped operators (opaque ops, 1 FLOP per element): {}.",
            list.join(", ")
        );
    }
    let mut names = Names::default();
    let gname = names.fresh(graph_name);
    let dim_names = param_names(imp);
    let _ = writeln!(out, "graph {gname} {{");
    for (k, d) in imp.dims.iter().enumerate() {
        let v = dims
            .iter()
            .find(|(n, _)| n == d || *n == dim_names[k])
            .map_or(1, |(_, v)| *v);
        let _ = writeln!(
            out,
            "  param {} = {v} // dynamic dimension `{}`",
            dim_names[k],
            super::model::shown(d, 80)
        );
    }
    let default = default_dtype(imp);
    let _ = writeln!(out, "  dtype {}", default.as_str());

    // Tensor names: declarations first, then op outputs, in order.
    let read = read_values(imp);
    let mut tnames: HashMap<usize, String> = HashMap::new();
    let mut tn = Names::default();
    let in_block: HashSet<usize> = layers.map(|l| l.inside.clone()).unwrap_or_default();
    for (id, v) in imp.vals.iter().enumerate() {
        if !read.contains(&id) || in_block.contains(&id) {
            continue;
        }
        let decl = match v.kind {
            Kind::Input => "input",
            Kind::Weight => "weight",
            // Known values (a constant of more than one element, or one the language cannot
            // write, such as -inf) and values computed from shapes: inputs, not parameters.
            Kind::Const(_) | Kind::Static => "input",
            Kind::Tensor => continue,
        };
        let name = tn.fresh(&v.name);
        let ty = ty(v, v.declared.as_ref(), &dim_names, v.dtype != Some(default));
        let note = match v.kind {
            Kind::Static => " // computed from shapes only in the ONNX graph",
            Kind::Const(_) => " // a constant of the ONNX graph",
            _ => "",
        };
        let _ = writeln!(out, "  {decl} {name}: {ty}{note}");
        tnames.insert(id, name);
    }
    let mut opnames = Names::default();
    let (before, after) = match layers {
        Some(l) => (l.start, l.start + l.len * l.count),
        None => (imp.ops.len(), imp.ops.len()),
    };
    for op in &imp.ops[..before] {
        write_op(
            &mut out,
            "  ",
            imp,
            op,
            &mut opnames,
            &mut tn,
            &mut tnames,
            &dim_names,
        );
    }
    if let Some(l) = layers {
        let block = render_block(imp, l, default, &dim_names);
        let last = l.last_out(&imp.ops);
        let carry_out = tn.fresh(&imp.vals[last].name);
        let args: Vec<String> = std::iter::once(l.carry_in)
            .chain(l.shared.iter().copied())
            .map(|id| tnames.get(&id).cloned().unwrap_or_else(|| "?".into()))
            .chain(
                l.dims
                    .iter()
                    .map(|&d| format!("{0} = {0}", dim_names[d as usize])),
            )
            .collect();
        let rname = opnames.fresh(&l.name);
        let _ = writeln!(
            out,
            "  repeat {} {rname} = {}({}) -> {carry_out}",
            l.count,
            l.name,
            args.join(", ")
        );
        tnames.insert(last, carry_out);
        for op in &imp.ops[after..] {
            write_op(
                &mut out,
                "  ",
                imp,
                op,
                &mut opnames,
                &mut tn,
                &mut tnames,
                &dim_names,
            );
        }
        let outs: Vec<String> = imp
            .graph_outputs
            .iter()
            .filter_map(|id| tnames.get(id).cloned())
            .collect();
        if !outs.is_empty() {
            let _ = writeln!(out, "  output {}", outs.join(", "));
        }
        out.push_str("}\n");
        // The block goes before the graph.
        let head_end = out.find("\ngraph ").map_or(0, |i| i + 1);
        let mut text = out[..head_end].to_string();
        text.push_str(&block);
        text.push('\n');
        text.push_str(&out[head_end..]);
        return text;
    }
    let outs: Vec<String> = imp
        .graph_outputs
        .iter()
        .filter_map(|id| tnames.get(id).cloned())
        .collect();
    if !outs.is_empty() {
        let _ = writeln!(out, "  output {}", outs.join(", "));
    }
    out.push_str("}\n");
    out
}

/// The block of one instance of `l`: its dims as header params, the carry and the shared
/// values as inputs, its own weights, its ops, and its output.
fn render_block(imp: &Imp<'_>, l: &Layers, default: Dtype, dims: &[String]) -> String {
    let mut out = String::new();
    let header: Vec<&str> = l.dims.iter().map(|&d| dims[d as usize].as_str()).collect();
    let _ = writeln!(
        out,
        "// One layer ({} ops), repeated {} times below.",
        l.len, l.count
    );
    let _ = writeln!(out, "block {}({}) {{", l.name, header.join(", "));
    let _ = writeln!(out, "  dtype {}", default.as_str());
    let mut tn = Names::default();
    let mut tnames: HashMap<usize, String> = HashMap::new();
    for &id in std::iter::once(&l.carry_in).chain(&l.shared) {
        let v = &imp.vals[id];
        let name = tn.fresh(&v.name);
        let t = ty(v, v.declared.as_ref(), dims, v.dtype != Some(default));
        let _ = writeln!(out, "  input {name}: {t}");
        tnames.insert(id, name);
    }
    for (id, wname) in &l.weights {
        let v = &imp.vals[*id];
        let name = tn.fresh(wname);
        let t = ty(v, v.declared.as_ref(), dims, v.dtype != Some(default));
        let _ = writeln!(out, "  weight {name}: {t}");
        tnames.insert(*id, name);
    }
    let mut opnames = Names::default();
    for op in &imp.ops[l.start..l.start + l.len] {
        write_op(
            &mut out,
            "  ",
            imp,
            op,
            &mut opnames,
            &mut tn,
            &mut tnames,
            dims,
        );
    }
    let y = imp.ops[l.start + l.out_rel].out;
    let _ = writeln!(
        out,
        "  output {}",
        tnames.get(&y).map_or("?", String::as_str)
    );
    out.push_str("}\n");
    out
}

/// Values read by an emitted op or named as a graph output.
pub fn read_values(imp: &Imp<'_>) -> HashSet<usize> {
    let mut read: HashSet<usize> = imp.graph_outputs.iter().copied().collect();
    for op in &imp.ops {
        for a in &op.args {
            if let Arg::T(id) | Arg::Tt(id) = a {
                read.insert(*id);
            }
        }
    }
    read
}

/// The dtype most weights have (f32 when there are none).
fn default_dtype(imp: &Imp<'_>) -> Dtype {
    let mut count: HashMap<Dtype, usize> = HashMap::new();
    for v in &imp.vals {
        if v.kind == Kind::Weight
            && let Some(d) = v.dtype
        {
            *count.entry(d).or_insert(0) += 1;
        }
    }
    count
        .into_iter()
        .max_by_key(|&(d, n)| (n, d == Dtype::F32))
        .map_or(Dtype::F32, |(d, _)| d)
}

/// A value's type: `[d, ..]`, its dtype written first when `write_dtype`.
pub fn ty(
    v: &Val,
    shape: Option<&Vec<super::sym::Poly>>,
    dims: &[String],
    write_dtype: bool,
) -> String {
    let shape = shape.or(v.shape.as_ref());
    let ds: Vec<String> = shape
        .map(|s| s.iter().map(|d| d.render(dims)).collect())
        .unwrap_or_default();
    let dt = if write_dtype {
        v.dtype.unwrap_or(Dtype::F32).as_str()
    } else {
        ""
    };
    format!("{dt}[{}]", ds.join(", "))
}

/// One `op` line.
#[allow(clippy::too_many_arguments)]
pub fn write_op(
    out: &mut String,
    indent: &str,
    imp: &Imp<'_>,
    op: &EOp,
    opnames: &mut Names,
    tn: &mut Names,
    tnames: &mut HashMap<usize, String>,
    dims: &[String],
) {
    let node = &imp.nodes[op.node];
    let v = &imp.vals[op.out];
    let oname = tn.fresh(&v.name);
    let opname = match node.name.as_deref() {
        Some(n)
            if !n.is_empty()
                && op.out
                    == imp
                        .by_name
                        .get(node.output.first().map_or("", String::as_str))
                        .copied()
                        .unwrap_or(usize::MAX) =>
        {
            opnames.fresh(n)
        }
        _ => opnames.fresh(&oname),
    };
    let mut args: Vec<String> = op
        .args
        .iter()
        .map(|a| match a {
            Arg::T(id) => tnames.get(id).cloned().unwrap_or_else(|| "?".into()),
            Arg::Tt(id) => format!("{}.T", tnames.get(id).map_or("?", String::as_str)),
            Arg::Lit(l) => l.clone(),
        })
        .collect();
    for (k, a) in &op.attrs {
        args.push(format!("{k} = {}", attr(a, dims)));
    }
    let ty = ty(v, None, dims, op.dtype);
    let _ = writeln!(
        out,
        "{indent}op {opname} = {}({}) -> {oname}: {ty}",
        op.kind,
        args.join(", ")
    );
    tnames.insert(op.out, oname);
}

fn attr(a: &Attr, dims: &[String]) -> String {
    match a {
        Attr::I(i) => i.to_string(),
        Attr::P(p) => p.render(dims),
        Attr::Is(v) => format!(
            "[{}]",
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
        Attr::F(f) => f.clone(),
        Attr::B(b) => b.to_string(),
    }
}
