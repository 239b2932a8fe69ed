//! Importers: models described in another format turned into `.fgraph` source. Each returns
//! the text and its diagnostics as data; the CLI (`fgraph import`) renders them.
//! [`hf`]: a Hugging Face `config.json`; [`onnx`]: an ONNX model's graph.

pub mod hf;
pub mod onnx;
