//! fgraph: a compiler and linter for `.fgraph` GPU computation graphs.
//!
//! The pipeline is a chain of modules, each returning data: [`syntax`] (pest grammar →
//! spanned AST, blocks expanded), [`sema`] (names, params, shapes, DAG → [`Graph`]), [`ops`]
//! (what each op kind and function means: the registries every later stage asks),
//! [`fusion`] (kernel groups and boundary reasons), [`traffic`] (HBM bytes), [`cost`] (FLOPs,
//! roofline time on a GPU, the hardware model), [`analysis`] (the pipeline for one file,
//! [`check_file`]), [`report`] (the report of one graph, assembled once, and its renderers:
//! text, JSON, pictures, the roofline), [`diagnostics`] (one model, one dispatcher over its
//! renderers). The seed's functions ([`build_graph`], [`find_fusion_groups`],
//! [`estimate_memory_traffic`], [`analyze_transformer_block`]) work without the DSL.
//! [`importers`] turn other formats (a Hugging Face `config.json`, an ONNX model) into
//! `.fgraph` source.
//! Nothing here prints but [`cli`] and [`lsp`], which are handed their I/O.

pub mod analysis;
mod api;
pub mod cli;
pub mod config;
pub mod cost;
pub mod diagnostics;
pub mod emit;
pub mod explain;
pub mod fix;
pub mod format;
pub mod fsio;
pub mod fusion;
pub mod graph;
pub mod importers;
pub mod imports;
pub mod limits;
pub mod lsp;
pub mod ops;
pub mod parallel;
pub mod perf;
pub mod report;
pub mod runtime;
pub mod sema;
pub mod syntax;
pub mod traffic;
pub mod transformer;
pub mod types;
pub mod units;

// The public `fgraph::assertions` path of earlier releases.
pub use analysis::assertions;
pub use analysis::{Analysis, FileReport, GraphReport, Options, check_file, check_file_owned};
pub use api::import_hf;
pub use api::import_onnx;
pub use api::{
    External, GraphError, Op, build_graph, build_graph_with_outputs, estimate_memory_traffic,
};
pub use cost::{CostReport, Hardware, KernelCost, LaunchMode};
pub use diagnostics::{Code, Diagnostic, Severity};
pub use fusion::{
    AttentionPattern, Boundary, FusionGroup, FusionOptions, FusionPlan, Reason, find_fusion_groups,
    find_fusion_groups_with,
};
pub use graph::{Graph, OpId, TensorId};
pub use syntax::ast::ExternalKind;
pub use traffic::{Traffic, TrafficReport};
pub use transformer::{TransformerAnalysis, analyze_transformer_block};
pub use types::{Dtype, OpKind};
