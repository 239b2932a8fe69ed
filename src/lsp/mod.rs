//! `fgraph lsp`: a language server over stdio (LSP 3.17, full-document sync).
//!
//! From the wire inwards:
//! - `transport`: `Content-Length` frames on stdin/stdout, batching and the panic guard
//!   ([`run_stdio`], [`serve`]);
//! - `server`: the protocol state machine, with no I/O ([`Server`]), which tests, the fuzz
//!   target and the benchmark drive directly;
//! - `work`: where its slow jobs run (analyses, configuration checks, formatting): inline,
//!   or on worker threads off the message loop, at most two at once;
//! - `convert`: fgraph's spans, diagnostics, fixes and symbols as protocol values;
//! - [`ide`]: what an editor shows about a file (hovers, inlay hints, renames, code actions),
//!   over `index`, the names of a file and where they occur;
//! - [`semantic`]: semantic tokens, what each word of a file is, for editors to colour;
//! - [`document`]: an open document's text and positions.

mod convert;
pub mod document;
pub mod ide;
mod index;
mod parallel;
pub mod semantic;
mod server;
mod transport;
mod work;

pub use server::{DEFAULT_BUDGET, Finished, Output, Server};
pub use transport::{run_stdio, serve};
