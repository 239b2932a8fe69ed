//! `fgraph import onnx`: an ONNX model's graph as `.fgraph` source. The library half: bytes
//! in, text and a report out ([`import`]); the CLI (`crate::cli::import_onnx`) reads the file
//! and writes the text.
//!
//! The file is read without its weights ([`wire`]: payloads dropped, external data never
//! opened, every count bounded before decoding), decoded with `prost` (`onnx_proto`), then
//! walked node by node ([`walk`]): shape arithmetic and constants are folded ([`fold`]), the
//! standard operators mapped onto fgraph ops ([`ops`], [`movement`], [`reduce`]) with
//! symbolic shapes ([`sym`], [`shapes`]: named dynamic dimensions become params), masks built
//! from positions read as a causal softmax ([`mask`]), known patterns rewritten as one op
//! ([`patterns`]: RMSNorm, GELU), repeated layers found ([`repeat`]) and the result written
//! ([`emit`]). Operators fgraph has no counterpart for are emitted as
//! opaque ops and counted by name in [`Imported::unmapped`].

mod emit;
mod fold;
mod mask;
mod model;
mod movement;
mod ops;
mod patterns;
mod reduce;
mod repeat;
mod shapes;
mod sym;
mod walk;
pub mod wire;

use onnx_proto::Message;
use onnx_proto::onnx::ModelProto;
use std::fmt;

/// How to import.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The name the header gives the source (the file's path as the user wrote it).
    pub source: String,
    /// The graph's name (default: the ONNX graph's name, else `model`).
    pub name: Option<String>,
    /// Values of the named dynamic dimensions (default 1 each).
    pub dims: Vec<(String, i64)>,
    /// Write repeated layers as a block and a `repeat` (default on in the CLI).
    pub repeat: bool,
}

/// An imported model.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The `.fgraph` source.
    pub text: String,
    /// Operators with no fgraph counterpart, by name, with how many nodes use each
    /// (emitted as opaque ops with the output types the file states).
    pub unmapped: Vec<(String, usize)>,
    /// ONNX nodes, fgraph ops emitted, nodes folded away.
    pub nodes: usize,
    pub ops: usize,
    pub folded: usize,
    /// Elements of the weights declared (the initializers whose data was not read).
    pub weight_elements: u64,
    /// The params the named dynamic dimensions became (identifiers: the name, or the name
    /// made one), in order.
    pub dims: Vec<String>,
    /// Layers written as a `repeat`: instances and ops per instance.
    pub layers: Option<(usize, usize)>,
}

/// Why a model cannot be imported.
#[derive(Clone, Debug)]
pub enum ImportError {
    Wire(wire::WireError),
    /// Well-formed protobuf, but not an ONNX model prost can decode.
    Decode(String),
    NoGraph,
    /// What the importer cannot write correctly: every one found.
    Problems(Vec<String>),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Wire(e) => write!(f, "{e}"),
            ImportError::Decode(e) => write!(f, "not an ONNX model: {e}"),
            ImportError::NoGraph => f.write_str("the ONNX model holds no graph"),
            ImportError::Problems(p) => {
                write!(
                    f,
                    "the ONNX graph cannot be imported ({} problems):",
                    p.len()
                )?;
                // Names of the file, shown safely; the first hundred problems.
                for p in p.iter().take(100) {
                    write!(f, "\n  - {}", model::shown(p, 400))?;
                }
                if p.len() > 100 {
                    write!(f, "\n  ... and {} more", p.len() - 100)?;
                }
                Ok(())
            }
        }
    }
}

/// Imports the ONNX model in `bytes` (the whole file; its external data is never read).
pub fn import(bytes: &[u8], opts: &Options) -> Result<Imported, ImportError> {
    let kept = wire::filter(bytes, wire::Bounds::default()).map_err(ImportError::Wire)?;
    let model = ModelProto::decode(&kept[..]).map_err(|e| ImportError::Decode(e.to_string()))?;
    let g = model.graph.as_ref().ok_or(ImportError::NoGraph)?;
    let mut imp = walk::Imp::new(g);
    imp.opset = opset(&model);
    walk_graph(&mut imp, g);
    check_dtypes(&mut imp);
    if !imp.problems.is_empty() {
        let mut p = std::mem::take(&mut imp.problems);
        p.dedup();
        return Err(ImportError::Problems(p));
    }
    let name = opts
        .name
        .clone()
        .or_else(|| g.name.clone().filter(|n| !n.is_empty()))
        .unwrap_or_else(|| "model".into());
    let opset = Some(imp.opset);
    let producer = model::shown(
        format!(
            "{} {}",
            model.producer_name.as_deref().unwrap_or(""),
            model.producer_version.as_deref().unwrap_or("")
        )
        .trim(),
        80,
    );
    let header = emit::Header {
        source: &opts.source,
        producer,
        opset,
    };
    mask::fold_masks(&mut imp);
    patterns::rewrite(&mut imp);
    repeat::hoist_invariant(&mut imp);
    let layers = if opts.repeat {
        repeat::find(&imp)
    } else {
        None
    };
    let text = emit::render(&imp, &name, &opts.dims, &header, layers.as_ref());
    let layers = layers.map(|l| (l.count, l.len));
    let read = emit::read_values(&imp);
    let weight_elements = imp
        .vals
        .iter()
        .enumerate()
        .filter(|(id, v)| read.contains(id) && v.kind == model::Kind::Weight)
        .map(|(_, v)| {
            v.shape
                .as_deref()
                .and_then(shapes::numel)
                .and_then(|p| p.as_const())
                .map_or(0, |n| n.max(0) as u64)
        })
        .fold(0u64, u64::saturating_add);
    Ok(Imported {
        text,
        unmapped: imp.unmapped.iter().map(|(k, n)| (k.clone(), *n)).collect(),
        nodes: imp.nodes.len(),
        ops: imp.ops.len(),
        folded: imp.folded,
        weight_elements,
        dims: emit::param_names(&imp),
        layers,
    })
}

/// Walks every node in order (folded, or mapped onto ops), then the graph's outputs.
fn walk_graph(imp: &mut walk::Imp<'_>, g: &onnx_proto::onnx::GraphProto) {
    for i in 0..imp.nodes.len() {
        let node = &imp.nodes[i];
        if imp.nan_guards[i] {
            imp.folded += 1;
            continue;
        }
        // The `Where` of a NaN guard: its input where it is not NaN.
        if node.op_type.as_deref() == Some("Where")
            && node
                .input
                .first()
                .is_some_and(|n| imp.guard_outputs.contains(n))
            && let Some(x) = imp.input(node, 2)
        {
            imp.bind(node, 0, x);
            imp.folded += 1;
            continue;
        }
        if fold::fold(imp, i) {
            imp.folded += 1;
            continue;
        }
        ops::map(imp, i);
    }
    for o in &g.output {
        let name = o.name.as_deref().unwrap_or("");
        match imp.by_name.get(name) {
            Some(&id) => imp.graph_outputs.push(id),
            None => imp
                .problems
                .push(format!("graph output `{name}` is produced by no node")),
        }
    }
}

/// The version of the default operator set the model imports (21, the latest the mapping
/// knows, when it names none).
fn opset(model: &ModelProto) -> i64 {
    model
        .opset_import
        .iter()
        .find(|o| matches!(o.domain.as_deref(), None | Some("") | Some("ai.onnx")))
        .and_then(|o| o.version)
        .unwrap_or(21)
}

/// Every value the output declares or computes has a dtype fgraph knows.
fn check_dtypes(imp: &mut walk::Imp<'_>) {
    let read = emit::read_values(imp);
    let mut bad = Vec::new();
    for (id, v) in imp.vals.iter().enumerate() {
        let used = read.contains(&id) || imp.ops.iter().any(|o| o.out == id);
        // A value of unknown shape comes from a problem already reported.
        if used && v.dtype.is_none() && v.shape.is_some() {
            bad.push(format!(
                "`{}` has element type {}, which fgraph lacks",
                v.name,
                model::onnx_dtype_name(v.onnx_dtype)
            ));
        }
    }
    imp.problems.extend(bad);
}
