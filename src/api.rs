//! The seed's data model (`Op`) and functions (`build_graph`, `estimate_memory_traffic`) for
//! Rust users who build graphs without the DSL. Graphs built
//! here go through the same semantic pass as `.fgraph` files. [`import_hf`]: a Hugging Face
//! config as `.fgraph` source; [`import_onnx`]: an ONNX model's graph as `.fgraph` source.

use crate::diagnostics::{Diagnostic, Span};
use crate::graph::Graph;
use crate::sema::{Overrides, check_graph};
use crate::syntax::ast::{
    Arg, Expr, ExternalKind, GraphAst, Ident, OpStmt, Stmt, StmtKind, TensorArg, TypeAst,
};
use crate::types::{Dtype, OpKind};

/// One operation: `Op(name, op_type, inputs, output, shape, bytes_per_element)` of the seed.
/// Inputs are tensor names, optionally with a view as in the DSL: `"qkv_heads[1].T"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    pub name: String,
    pub op_type: OpKind,
    /// The function (`add`, `gelu`, `softmax`), for display only.
    pub func: Option<String>,
    pub inputs: Vec<String>,
    pub output: String,
    pub shape: Vec<u64>,
    pub bytes_per_element: u64,
    /// The element type; by default the one of `bytes_per_element`'s width
    /// (8 f64, 4 f32, 2 f16, 1 fp8).
    pub dtype: Option<Dtype>,
    /// Integer attributes (`axis = -1`), as the DSL's `NAME = expr`.
    pub attrs: Vec<(String, i64)>,
    /// List attributes (`dims = [0, 2, 1, 3]`).
    pub list_attrs: Vec<(String, Vec<i64>)>,
    /// Name attributes (`group = tp`, issue 25): an identifier as written.
    pub name_attrs: Vec<(String, String)>,
}

impl Op {
    pub fn new(
        name: &str,
        op_type: OpKind,
        inputs: &[&str],
        output: &str,
        shape: &[u64],
        bytes_per_element: u64,
    ) -> Op {
        Op {
            name: name.to_string(),
            op_type,
            func: None,
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            output: output.to_string(),
            shape: shape.to_vec(),
            bytes_per_element,
            dtype: None,
            attrs: Vec::new(),
            list_attrs: Vec::new(),
            name_attrs: Vec::new(),
        }
    }
    /// Adds an integer attribute: `.attr("axis", -1)`.
    pub fn attr(mut self, name: &str, value: i64) -> Op {
        self.attrs.push((name.to_string(), value));
        self
    }
    /// Adds a list attribute: `.list_attr("dims", &[0, 2, 1, 3])`.
    pub fn list_attr(mut self, name: &str, values: &[i64]) -> Op {
        self.list_attrs.push((name.to_string(), values.to_vec()));
        self
    }
    /// Adds a name attribute: `.name_attr("group", "tp")` (a collective's group, issue 25).
    pub fn name_attr(mut self, name: &str, value: &str) -> Op {
        self.name_attrs.push((name.to_string(), value.to_string()));
        self
    }
    pub fn func(mut self, func: &str) -> Op {
        self.func = Some(func.to_string());
        self
    }
    pub fn dtype(mut self, dtype: Dtype) -> Op {
        self.bytes_per_element = dtype.bytes();
        self.dtype = Some(dtype);
        self
    }
}

/// A tensor no op produces (an activation or a weight), with the shape the seed's `Op` cannot
/// carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct External {
    pub name: String,
    pub kind: ExternalKind,
    pub shape: Vec<u64>,
    pub bytes_per_element: u64,
    pub dtype: Option<Dtype>,
}

impl External {
    pub fn input(name: &str, shape: &[u64], bytes_per_element: u64) -> External {
        External {
            name: name.to_string(),
            kind: ExternalKind::Input,
            shape: shape.to_vec(),
            bytes_per_element,
            dtype: None,
        }
    }
    pub fn weight(name: &str, shape: &[u64], bytes_per_element: u64) -> External {
        External {
            kind: ExternalKind::Weight,
            ..External::input(name, shape, bytes_per_element)
        }
    }
    pub fn dtype(mut self, dtype: Dtype) -> External {
        self.bytes_per_element = dtype.bytes();
        self.dtype = Some(dtype);
        self
    }
}

/// Why a graph could not be built: every problem found, as diagnostics without spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError {
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let msgs: Vec<String> = self
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        f.write_str(&msgs.join("; "))
    }
}
impl std::error::Error for GraphError {}

fn ident(name: &str) -> Ident<'_> {
    Ident {
        name,
        span: Span::default(),
    }
}

fn dims(shape: &[u64]) -> Vec<Expr<'static>> {
    shape
        .iter()
        .map(|&d| Expr::Int {
            value: i64::try_from(d).ok(),
            span: Span::default(),
        })
        .collect()
}

/// `"t[2].T"` → (`"t"`, `Some(2)`, `true`). Malformed text is taken as a name, which then
/// fails to resolve with a diagnostic.
fn parse_use(s: &str) -> (&str, Option<Option<i64>>, bool) {
    let (rest, transpose) = match s.strip_suffix(".T") {
        Some(r) => (r, true),
        None => (s, false),
    };
    if let Some(open) = rest.find('[')
        && let Some(inner) = rest[open + 1..].strip_suffix(']')
    {
        return (&rest[..open], Some(inner.trim().parse().ok()), transpose);
    }
    (rest, None, transpose)
}

// A diagnostic is 128 bytes with its fixes; this error is rare and not on a hot path.
#[allow(clippy::result_large_err)]
fn width_dtype(dtype: Option<Dtype>, bytes: u64, what: &str) -> Result<Dtype, Diagnostic> {
    match dtype {
        Some(d) if d.bytes() == bytes => Ok(d),
        None => Dtype::for_width(bytes).ok_or(()),
        Some(_) => Err(()),
    }
    .map_err(|()| {
        Diagnostic::new(
            crate::diagnostics::Code::UnknownDtype,
            format!("{what}: no element type is {bytes} bytes wide (use 1, 2, 4 or 8)"),
        )
    })
}

/// The seed's `build_graph`: checks the ops (names, shapes, dtypes, cycles) and returns the
/// DAG with producers, consumers and a topological order. Graph outputs are the produced
/// tensors no op consumes.
///
/// ```
/// use fgraph::{Op, OpKind, External, build_graph};
/// let ops = vec![
///     Op::new("mm", OpKind::Matmul, &["x", "w"], "y", &[8, 32], 2),
///     Op::new("act", OpKind::Elementwise, &["y"], "z", &[8, 32], 2).func("gelu"),
/// ];
/// let ext = [External::input("x", &[8, 16], 2), External::weight("w", &[16, 32], 2)];
/// let g = build_graph(&ops, &ext).unwrap();
/// let mm = g.producer(g.ops[1].inputs[0].tensor).unwrap();
/// assert_eq!(g.op(mm).name, "mm");
/// assert_eq!(g.successors(mm).len(), 1);
/// ```
pub fn build_graph(ops: &[Op], externals: &[External]) -> Result<Graph, GraphError> {
    build_graph_with_outputs(ops, externals, None)
}

/// [`build_graph`] with explicit graph outputs (the DSL's `output` statement).
pub fn build_graph_with_outputs(
    ops: &[Op],
    externals: &[External],
    outputs: Option<&[&str]>,
) -> Result<Graph, GraphError> {
    let mut errors = Vec::new();
    let mut stmts = Vec::new();
    let stmt = |kind| Stmt {
        kind,
        span: Span::default(),
    };
    for e in externals {
        match width_dtype(e.dtype, e.bytes_per_element, &e.name) {
            Ok(d) => stmts.push(stmt(StmtKind::Decl {
                external: e.kind,
                name: ident(&e.name),
                ty: Box::new(TypeAst {
                    dtype: Some(ident(d.as_str())),
                    dims: dims(&e.shape),
                    span: Span::default(),
                }),
            })),
            Err(d) => errors.push(d),
        }
    }
    for op in ops {
        let dtype = match width_dtype(op.dtype, op.bytes_per_element, &op.name) {
            Ok(d) => d,
            Err(d) => {
                errors.push(d);
                continue;
            }
        };
        // `Expr::Int` is a literal, never negative: `-v` is written as a negation of `v`.
        let int_expr = |v: i64| {
            let lit = |value| Expr::Int {
                value,
                span: Span::default(),
            };
            if v >= 0 {
                lit(Some(v))
            } else {
                Expr::Neg {
                    negations: 1,
                    operand: Box::new(lit(v.checked_neg())),
                    span: Span::default(),
                }
            }
        };
        let attrs = op.attrs.iter().map(|(name, v)| Arg::Attr {
            name: ident(name),
            value: int_expr(*v),
        });
        let lists = op.list_attrs.iter().map(|(name, vs)| Arg::ListAttr {
            name: ident(name),
            items: vs.iter().map(|&v| int_expr(v)).collect(),
            span: Span::default(),
        });
        let args = op
            .inputs
            .iter()
            .map(|s| {
                let (name, index, transpose) = parse_use(s);
                Arg::Tensor(TensorArg {
                    name: ident(name),
                    index: index.map(|i| {
                        Box::new(Expr::Int {
                            value: i,
                            span: Span::default(),
                        })
                    }),
                    transpose,
                    span: Span::default(),
                })
            })
            .chain(attrs)
            .chain(lists)
            .chain(op.name_attrs.iter().map(|(name, v)| Arg::Attr {
                name: ident(name),
                value: Expr::Name(ident(v)),
            }))
            .collect();
        stmts.push(stmt(StmtKind::Op(OpStmt {
            name: ident(&op.name),
            kind: ident(op.op_type.as_str()),
            func: op.func.as_deref().map(ident),
            args,
            output: ident(&op.output),
            ty: Some(Box::new(TypeAst {
                dtype: Some(ident(dtype.as_str())),
                dims: dims(&op.shape),
                span: Span::default(),
            })),
        })));
    }
    if let Some(outs) = outputs {
        stmts.push(stmt(StmtKind::Output(
            outs.iter().map(|o| ident(o)).collect(),
        )));
    }
    let ast = GraphAst {
        name: ident("graph"),
        stmts: stmts.into(),
        span: Span::default(),
    };
    let checked = check_graph(ast, &Overrides::new());
    let mut diagnostics: Vec<Diagnostic> = errors;
    diagnostics.extend(checked.diagnostics.into_iter().filter(Diagnostic::is_error));
    match checked.graph {
        Some(g) if diagnostics.is_empty() => Ok(g),
        _ => {
            // Spans point into no source here: keep the messages and help only.
            for d in &mut diagnostics {
                d.primary = None;
                d.secondary.clear();
            }
            Err(GraphError { diagnostics })
        }
    }
}

/// The seed's `estimate_memory_traffic`: every op alone (`fused = false`) or the default
/// grouping (`fused = true`, with `saved_by_fusion` against the unfused total).
///
/// ```
/// use fgraph::{Op, OpKind, External, build_graph, estimate_memory_traffic};
/// let ops = vec![
///     Op::new("scale", OpKind::Elementwise, &["x"], "y", &[1024], 4),
///     Op::new("relu", OpKind::Elementwise, &["y"], "z", &[1024], 4),
/// ];
/// let g = build_graph(&ops, &[External::input("x", &[1024], 4)]).unwrap();
/// let unfused = estimate_memory_traffic(&g, false).unwrap();
/// let fused = estimate_memory_traffic(&g, true).unwrap();
/// assert_eq!(unfused.total, 4 * 4096);
/// assert_eq!(fused.total, 2 * 4096);
/// assert_eq!(fused.saved_by_fusion, 2 * 4096);
/// ```
pub fn estimate_memory_traffic(
    g: &Graph,
    fused: bool,
) -> Result<crate::traffic::Traffic, crate::traffic::Overflow> {
    if fused {
        Ok(crate::traffic::compare(g, &crate::fusion::find_fusion_groups(g))?.fused)
    } else {
        crate::traffic::unfused_traffic(g)
    }
}

/// A Hugging Face `config.json` (its bytes) as `.fgraph` source, with what the importer found
/// (`fgraph import hf`; [`crate::importers::hf`]): the text is `None` when the config has
/// errors, and each warning names a field the graph does not reflect.
///
/// ```
/// use fgraph::importers::hf::Options;
/// let config = br#"{"model_type": "gpt2", "vocab_size": 50257, "n_embd": 768,
///     "n_layer": 12, "n_head": 12, "n_positions": 1024}"#;
/// let imported = fgraph::import_hf(config, &Options { seq: Some(128), ..Options::default() });
/// assert!(imported.notes.is_empty());
/// let text = imported.text.unwrap();
/// assert!(text.contains("repeat L layers = decoder("));
/// let report = fgraph::check_file("gpt2.fgraph", text.as_bytes(), &fgraph::Options::default());
/// assert!(report.diagnostics.is_empty());
/// ```
pub fn import_hf(
    config: &[u8],
    opts: &crate::importers::hf::Options,
) -> crate::importers::hf::Imported {
    crate::importers::hf::import(config, opts)
}

/// `fgraph import onnx` as a function (issue 27): the bytes of an ONNX model (its external
/// data never read) as `.fgraph` source, with what was unmapped, folded and repeated
/// ([`crate::importers::onnx`]).
pub fn import_onnx(
    bytes: &[u8],
    opts: &crate::importers::onnx::Options,
) -> Result<crate::importers::onnx::Imported, crate::importers::onnx::ImportError> {
    crate::importers::onnx::import(bytes, opts)
}
