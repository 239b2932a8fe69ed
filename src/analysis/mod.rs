//! The analysis of one file, as data: the settings of a run ([`Options`]), a checked graph
//! with its plan and traffic ([`Analysis`]), and everything found in a file ([`FileReport`]).
//! `pipeline` makes them ([`check_file`]); `lints` holds the checks that need a whole graph
//! and its traffic; [`assertions`] checks the file's fusion assertions against the plan. Reports, the CLI and the language server read these types.

pub mod assertions;
mod lints;
mod pipeline;
pub mod state;

pub use crate::units::fmt_bytes;
pub use lints::search_budget;
pub use pipeline::{check_file, check_file_inspecting, check_file_owned};

use crate::diagnostics::{Code, Diagnostic, SourceFile, Span};
use crate::fusion::{FusionOptions, FusionPlan};
use crate::graph::Graph;
use crate::sema::Overrides;
use crate::syntax::expand::Instance;
use crate::traffic::TrafficReport;

/// Settings that apply to every file of a run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--set NAME=INT`.
    pub overrides: Overrides,
    /// `--allow CODE`: warnings silenced everywhere.
    pub allow: Vec<Code>,
    /// How to fuse: `--fuser`, `--policy`, `--flash-attention` and the other strategy flags
    /// (`fusion::strategy`); SPEC §2 exactly by default.
    pub fusion: FusionOptions,
    /// Where imports are found: `fgraph.toml`'s library folders, and the file system.
    pub imports: crate::imports::library::ImportOptions,
    /// `fgraph.toml`'s `[large-intermediate]`: the least size a tensor needs for the warning.
    pub large_intermediate: LargeIntermediate,
}

/// `[large-intermediate]` of `fgraph.toml` (issue 28): besides being larger than every input
/// and weight (SPEC §5), an intermediate must reach these for `large-intermediate` to warn.
/// Zero (the default) adds nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LargeIntermediate {
    /// `min-bytes`: at least this many bytes.
    pub min_bytes: u64,
    /// `min-weight-percent`: at least this percentage of the graph's weight bytes (caches
    /// that `update` writes into are not weights).
    pub min_weight_percent: u64,
}

/// A graph that checked clean, with its fusion plan and traffic.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub graph: Graph,
    pub plan: FusionPlan,
    pub traffic: TrafficReport,
    /// The options the plan was made under.
    pub fusion: FusionOptions,
    /// The graph's `parallel` sections applied (issue 25): `graph` is then one GPU's, and
    /// this says of which group, and what the whole group holds.
    pub parallel: Option<std::sync::Arc<crate::parallel::Parallel>>,
}

#[derive(Clone, Debug)]
pub struct GraphReport {
    pub name: String,
    /// The graph's name in the source.
    pub span: Span,
    /// From `graph` to its closing brace.
    pub full_span: Span,
    /// Its params' names, in order.
    pub params: Vec<String>,
    /// `None` when the graph has errors.
    pub analysis: Option<Analysis>,
    /// When the graph has errors: its ops as written (empty otherwise).
    pub written_ops: Vec<crate::sema::OpSummary>,
    /// The block instances the graph was expanded from, outermost first (empty for a graph
    /// without instantiations).
    pub instances: Vec<Instance>,
    /// The warnings silenced at the graph's name (by `--allow`, the configuration, or an
    /// allow comment before `graph`): the report's own warnings, which point there (a
    /// `--compare` strategy whose plan search stopped), honour them too.
    pub allowed: Vec<Code>,
}

/// Everything fgraph found in one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub source: SourceFile,
    pub graphs: Vec<GraphReport>,
    /// Sorted by position then code, allowed warnings removed.
    pub diagnostics: Vec<Diagnostic>,
    /// The files it imports, transitively, each placed after it in the span space (an op of
    /// an imported block has a span there: [`FileReport::place`] names its file and line).
    pub imports: Vec<crate::imports::Imported>,
}

impl FileReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Where a span of the file's span space is: `(file name, 1-based line)`, in the file
    /// itself or in the imported file it falls in.
    pub fn place(&self, span: Span) -> (&str, usize) {
        let main = self.source.text.len();
        let k = self.imports.partition_point(|f| f.base <= span.start);
        match (span.start > main && k > 0).then(|| &self.imports[k - 1]) {
            Some(f) => {
                let at = span.start.saturating_sub(f.base);
                (
                    &f.source.name,
                    f.source.lines().line_col(&f.source.text, at).0,
                )
            }
            None => (
                &self.source.name,
                self.source
                    .lines()
                    .line_col(&self.source.text, span.start)
                    .0,
            ),
        }
    }
}
