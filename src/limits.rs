//! Hard limits on input, each enforced with a `limit-exceeded` diagnostic (docs/language.md);
//! and the work bound of a plan search, past which the plan keeps what it found and the
//! warning `search-budget` says so.

/// Largest file fgraph reads.
pub const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;
/// Deepest nesting of `(` and `[`.
pub const MAX_NESTING: usize = 64;
/// Longest identifier, in bytes (identifiers are ASCII).
pub const MAX_IDENT_LEN: usize = 256;
/// Highest tensor rank.
pub const MAX_RANK: usize = 16;
/// Most statements in one graph. Keeps op and tensor indices within `u32`.
pub const MAX_STATEMENTS: usize = 1 << 24;
/// Largest value of one dimension (2^48): far above any real tensor, and low enough that
/// FLOP counts such as `2·M·N·K` stay exact in the cost model's arithmetic.
pub const MAX_DIM: u64 = 1 << 48;
/// Most files one file's imports may bring in, transitively.
pub const MAX_IMPORT_FILES: usize = 4096;
/// Most bytes one file's imports may add up to, transitively.
pub const MAX_IMPORT_BYTES: usize = MAX_FILE_BYTES;
/// Most ops one graph may have once its blocks are expanded (2^21): counted from the block
/// tree before anything is expanded, so a million-op model checks and nothing larger is built.
pub const MAX_EXPANDED_OPS: u64 = 1 << 21;
/// Most items one graph may hold once its blocks are expanded (2^25): arguments, list
/// items, expression terms and type dimensions of its statements, one per statement and per
/// bound input (`syntax::expand::budget::items`). Counted with the ops before anything is
/// expanded, so that an op holding a thousand arguments, repeated within the ops budget,
/// cannot fill memory. A 2^21-op model of Llama layers holds 17.5
/// million (docs/ROBUSTNESS.md, "Expansion budget").
pub const MAX_EXPANDED_ITEMS: u64 = 1 << 25;
/// Most diagnostics one file reports. Past it the rest are counted in one `limit-exceeded`
/// (a garbage file of a million undefined names would otherwise take gigabytes to report),
/// and an op's undefined arguments stop being recorded once a graph has this many.
pub const MAX_DIAGNOSTICS: usize = 10_000;
/// Units of work one plan search may spend on the checks whose cost grows faster than the
/// graph (`fusion::work`: one unit per op or edge a check looks at, one per merge tried):
/// this many, plus [`PLAN_WORK_PER_OP`] per op of the graph, at most [`MAX_PLAN_WORK`]
/// ([`plan_work_bound`]). About 0.1 s of checks per 10 million units on a 2023 laptop core.
pub const PLAN_WORK_BASE: u64 = 1 << 24;
/// Units of plan-search work each op of the graph adds to [`PLAN_WORK_BASE`].
pub const PLAN_WORK_PER_OP: u64 = 1 << 13;
/// Most units of work one plan search may spend, whatever the graph's size (2^29).
pub const MAX_PLAN_WORK: u64 = 1 << 29;

/// The work bound of one plan search on a graph of `ops` ops.
pub fn plan_work_bound(ops: usize) -> u64 {
    PLAN_WORK_PER_OP
        .saturating_mul(ops as u64)
        .saturating_add(PLAN_WORK_BASE)
        .min(MAX_PLAN_WORK)
}

/// Most fixes of one file verified by checking the file again with the fix applied
/// (`crate::fix::verify`): past it, a safe fix is offered as needing review ("not verified
/// (limit)"). `check --fix` checks again at most twice this many times over all its rounds.
/// A file with more errors than this is not verified at all (each check of it is slow).
pub const MAX_FIX_VERIFICATIONS: usize = 64;

/// Re-checks of a file one `analyze --max-param NAME` search makes (issue 28,
/// `crate::report::memory::max_param`): doubling then halving over 64-bit values needs at
/// most 126; past this many the search keeps the largest value found to fit and says so.
pub const MAX_CAPACITY_PROBES: usize = 64;

/// Bytes read of an `analyze --baseline OLD.json` report (issue 28): a larger file is refused
/// before it is parsed.
pub const MAX_BASELINE_BYTES: usize = 64 * 1024 * 1024;
/// Largest file whose safe fixes are verified, in bytes; a larger file's safe fixes are
/// offered as needing review.
pub const MAX_VERIFIED_FILE_BYTES: usize = 1024 * 1024;
/// Most ops a file's graphs may have in all (expanded) for its safe fixes to be verified:
/// each verification checks the whole file again.
pub const MAX_VERIFIED_OPS: usize = 20_000;

/// Largest Hugging Face `config.json` that `fgraph import hf` reads (published ones are
/// under 10 KB; a bigger file is an error, read no further).
pub const MAX_CONFIG_BYTES: usize = 4 * 1024 * 1024;

// `fgraph import onnx` (src/importers/onnx/): what is kept of a model's structure, counted
// before anything is decoded. The file itself is read whole, so it is at most
// [`MAX_FILE_BYTES`]; weights stored outside it (external data) are never opened.

/// Most nodes of an ONNX graph.
pub const MAX_ONNX_NODES: usize = 1 << 20;
/// Most tensors (initializers and constant attributes) of an ONNX graph.
pub const MAX_ONNX_INITIALIZERS: usize = 1 << 20;
/// Most protobuf messages kept of an ONNX file (nodes, attributes, tensors, value types,
/// dims): each becomes a few hundred bytes once decoded.
pub const MAX_ONNX_MESSAGES: usize = 1 << 21;
/// Most bytes of structure kept of an ONNX file (names, attributes, dims, small constants).
pub const MAX_ONNX_STRUCTURE_BYTES: usize = 64 * 1024 * 1024;
/// An ONNX tensor's data is read when it holds at most this many bytes (a shape or a scalar
/// constant); a larger one is a weight, whose data is never read.
pub const MAX_ONNX_CONSTANT_BYTES: usize = 4096;
/// Most bytes of ONNX tensor data read in all.
pub const MAX_ONNX_ALL_CONSTANT_BYTES: usize = 16 * 1024 * 1024;
/// Most dimensions of one ONNX tensor whose values the importer computes (shape arithmetic).
pub const MAX_ONNX_FOLDED_ELEMENTS: usize = 1024;
