//! Emitting a checked graph as code for another framework: `fgraph emit TARGET FILE`. One
//! row per target in [`TARGETS`] (name, what it writes, the function that writes it); a new
//! target (`onnx`) is a module beside [`torch`] and one row here.
//!
//! An emitter takes the graph `analyze` reports (blocks and repeats expanded, `--set`
//! applied, every shape and dtype inferred and checked) and returns the text; the command
//! line writes it. What a target cannot express is an [`EmitError`] naming the op, never a
//! silent approximation: what is approximate is said in the text itself.

pub mod torch;

use crate::diagnostics::Span;
use crate::graph::Graph;

/// What an emitter is given: the checked graph, and where its ops are written.
pub struct Input<'a> {
    pub graph: &'a Graph,
    /// The file the graph was read from, as messages name it.
    pub file: &'a str,
    /// `--set` overrides the graph was checked under, as `NAME=VALUE`.
    pub overrides: Vec<String>,
    /// Where a span is written: `(file, 1-based line)` (an op of an imported block is in the
    /// imported file).
    pub place: &'a dyn Fn(Span) -> (String, usize),
}

/// Something the target cannot express.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// The op it is about, when there is one.
    pub op: Option<String>,
    pub message: String,
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.op {
            Some(op) => write!(f, "op `{op}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for EmitError {}

/// One target of `fgraph emit`.
#[derive(Debug)]
pub struct Target {
    /// The name on the command line: `fgraph emit torch`.
    pub name: &'static str,
    /// What it writes, for `--help` and messages.
    pub about: &'static str,
    /// The file extension of what it writes.
    pub extension: &'static str,
    pub emit: fn(&Input<'_>) -> Result<String, EmitError>,
}

/// Every target, one row each.
pub const TARGETS: &[Target] = &[Target {
    name: "torch",
    about: "a self-contained PyTorch module (Python) equivalent to the graph",
    extension: "py",
    emit: torch::emit,
}];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Emits graph `graph` of `file` (checked clean) for target `target`.
pub fn emit_graph(
    target: &Target,
    file: &crate::analysis::FileReport,
    graph: &Graph,
    overrides: &crate::sema::Overrides,
) -> Result<String, EmitError> {
    let place = |s: Span| {
        let (f, line) = file.place(s);
        (f.to_string(), line)
    };
    let input = Input {
        graph,
        file: &file.source.name,
        overrides: overrides.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        place: &place,
    };
    (target.emit)(&input)
}
