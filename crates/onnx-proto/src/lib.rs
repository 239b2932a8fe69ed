//! The messages of ONNX's `onnx.proto` (vendored in `proto/`, Apache-2.0, see
//! `proto/LICENSE`) as `prost` types. `src/onnx.rs` is generated ahead of time by
//! `regen.sh` beside this crate's `Cargo.toml` and committed, so building needs no `protoc`
//! and no build script. Only fgraph's ONNX importer uses it (`src/importers/onnx/`).

#![allow(clippy::all, clippy::pedantic, missing_docs, rustdoc::all)]

/// The `onnx` protobuf package.
pub mod onnx {
    include!("onnx.rs");
}

pub use prost;
pub use prost::Message;
