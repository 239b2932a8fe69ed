//! The speed tricks' seam: every size threshold at which fgraph changes *how* it computes (on
//! a second thread, in parallel chunks), never *what*, in one table, and the helper that
//! runs two pieces of work at once (`parallel::alongside`). Each was measured
//! (docs/PERFORMANCE.md gives the figures and the commands); none changes an output, which
//! the tests check by running both sides of each threshold.
//!
//! | constant | where | what happens above it |
//! |---|---|---|
//! | [`PARALLEL_PARSE_BYTES`] | `syntax::parser` | files of at least this many bytes are parsed in chunks of at least this size, on up to 8 threads |
//! | [`PARALLEL_NAMES`] | `sema::declare` | the name tables are built on a second thread |
//! | [`PARALLEL_BUILD`] | `sema::build` | the graph's ops and tensors are built on two threads |
//! | [`DROP_ON_THREAD`] | `sema` | the syntax tree is freed on a second thread |
//! | [`PARALLEL_TRAFFIC`] | `analysis::pipeline` | the unfused traffic is summed while the plan is found |
//! | [`PARALLEL_COST`] | the report's assembly | the cost model runs while the JSON head is written |
//! | [`MAIN_STACK_BYTES`] | `main.rs` | the stack of the thread the CLI runs on |

pub(crate) mod parallel;

pub(crate) use parallel::alongside;

/// Files smaller than this are parsed on one thread: below it, starting threads costs more
/// than it saves.
pub const PARALLEL_PARSE_BYTES: usize = 1 << 20;
/// Ops above which the name tables are built on a second thread.
pub const PARALLEL_NAMES: usize = 50_000;
/// Ops above which the graph is built on two threads.
pub const PARALLEL_BUILD: usize = 50_000;
/// Statements above which a syntax tree is freed on another thread while the graph is built
/// (freeing 200,000 statements takes ~20 ms, about as long as building the graph).
pub const DROP_ON_THREAD: usize = 50_000;
/// Ops above which the unfused traffic is summed on a second thread.
pub const PARALLEL_TRAFFIC: usize = 20_000;
/// Ops above which the cost model runs on a second thread while the report's head is
/// written.
pub const PARALLEL_COST: usize = 20_000;
/// The CLI's stack: the pipeline is iterative and bounds nesting, but a generous stack costs
/// only address space and keeps any deep-but-legal input far from the edge.
pub const MAIN_STACK_BYTES: usize = 256 * 1024 * 1024;
