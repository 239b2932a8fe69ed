//! fgraph: a compiler and linter for `.fgraph` GPU computation graphs.
//!
//! The pipeline is a chain of modules, each returning data: [`syntax`] (pest grammar →
//! spanned AST), [`sema`] (names, params, shapes, DAG → [`Graph`]), [`fusion`] (kernel
//! groups and boundary reasons), [`traffic`] (HBM bytes), [`diagnostics`] (one model, many
//! renderers), [`cost`] (FLOPs, roofline time on a GPU), [`report`] (the report of one
//! graph, and its renderers: text, JSON, pictures, the roofline).
//! [`check_file`] runs all of it on a file but the cost model, which needs a GPU; the seed's functions
//! ([`build_graph`], [`find_fusion_groups`], [`estimate_memory_traffic`],
//! [`analyze_transformer_block`]) work without the DSL. Nothing here prints.

pub mod analysis;
mod api;
pub mod cli;
pub mod config;
pub mod cost;
pub mod diagnostics;
pub mod explain;
pub mod fix;
pub mod format;
pub mod fsio;
pub mod fusion;
pub mod graph;
pub mod imports;
pub mod limits;
pub mod lsp;
pub mod ops;
pub mod perf;
pub mod report;
pub mod sema;
pub mod syntax;
pub mod traffic;
pub mod transformer;
pub mod types;
pub mod units;

// `crate::assertions` (still used by `cli.rs` and `lsp/index.rs`) and the public
// `fgraph::assertions` stay paths to `analysis::assertions`.
pub use analysis::assertions;
pub use analysis::{Analysis, FileReport, GraphReport, Options, check_file, check_file_owned};
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
