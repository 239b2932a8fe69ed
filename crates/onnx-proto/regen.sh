#!/usr/bin/env bash
# Regenerates src/onnx.rs from proto/onnx.proto with prost-build (the prost version of this
# crate's Cargo.toml) and protox (a protobuf compiler in Rust: no protoc needed).
#
#   crates/onnx-proto/regen.sh            # from anywhere; needs cargo and crates.io
#
# To update the schema, copy onnx/onnx.proto of the ONNX release wanted (its Python wheel
# ships it as onnx/onnx.proto) over proto/onnx.proto, run this script, and commit both.
# The generator is built in a temporary folder, deleted afterwards.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"
cat > "$tmp/Cargo.toml" <<'TOML'
[package]
name = "onnx-proto-regen"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
prost-build = "=0.14.6"
protox = "0.10"
TOML
cat > "$tmp/src/main.rs" <<'RS'
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (proto_dir, out_dir) = (&args[1], &args[2]);
    let fds = protox::compile([format!("{proto_dir}/onnx.proto")], [proto_dir])
        .expect("compile onnx.proto");
    let mut cfg = prost_build::Config::new();
    cfg.out_dir(out_dir);
    cfg.compile_fds(fds).expect("generate the Rust code");
}
RS
out="$tmp/out"
mkdir -p "$out"
cargo run --quiet --release --manifest-path "$tmp/Cargo.toml" --target-dir "$tmp/target" -- \
    "$here/proto" "$out"
cp "$out/onnx.rs" "$here/src/onnx.rs"
echo "wrote $here/src/onnx.rs"
