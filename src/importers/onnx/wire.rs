//! The first read of an ONNX file: a walk over its protobuf wire format that keeps only the
//! fields the importer uses (the graph's nodes, attributes, value types, and the dims and
//! dtypes of its initializers), drops every weight's payload (raw bytes, float data, external
//! data entries) and every subgraph, and counts what it keeps against [`Bounds`] before
//! anything is decoded. Its output is a well-formed, much smaller protobuf that `prost`
//! decodes into `onnx_proto` messages. Any byte string is answered: a malformed one is a
//! [`WireError`] naming the byte offset, never a panic, and nothing is allocated past the
//! bounds. The walk knows the message types by field number (onnx.proto): its depth is fixed.

use std::fmt;

/// How much of an ONNX file's structure is kept (`crate::limits`).
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub nodes: usize,
    pub initializers: usize,
    /// Every message kept (nodes, attributes, tensors, value infos, dims, ...).
    pub messages: usize,
    /// Bytes kept in all (names, attribute values, dims, small constants).
    pub bytes: usize,
    /// A tensor's data is kept when it holds at most this many bytes (a shape or a scalar
    /// constant); a larger one is a weight, whose data is dropped.
    pub tensor_data: usize,
    /// Bytes of tensor data kept in all; past it, every further tensor's data is dropped.
    pub all_tensor_data: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        use crate::limits::*;
        Bounds {
            nodes: MAX_ONNX_NODES,
            initializers: MAX_ONNX_INITIALIZERS,
            messages: MAX_ONNX_MESSAGES,
            bytes: MAX_ONNX_STRUCTURE_BYTES,
            tensor_data: MAX_ONNX_CONSTANT_BYTES,
            all_tensor_data: MAX_ONNX_ALL_CONSTANT_BYTES,
        }
    }
}

/// Why the file's bytes are not an ONNX model the importer can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Not well-formed protobuf: what is wrong and at which byte.
    Malformed { at: usize, what: &'static str },
    /// More of something than [`Bounds`] allows.
    TooMany { what: &'static str, limit: usize },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Malformed { at, what } => {
                write!(f, "not a valid ONNX protobuf: {what} at byte {at}")
            }
            WireError::TooMany { what, limit } => {
                write!(
                    f,
                    "the model has more {what} than fgraph reads (at most {limit})"
                )
            }
        }
    }
}

/// The message types the walk knows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Msg {
    Model,
    Opset,
    Graph,
    Node,
    Attr,
    Tensor,
    ValueInfo,
    Type,
    TypeTensor,
    Shape,
    Dim,
}

/// What the walk does with one field of a message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    /// Copied as it is (a scalar, a string, packed numbers).
    Keep,
    /// A nested message, walked in turn.
    Sub(Msg),
    /// A tensor's data: kept only when small.
    Data,
    /// Dropped.
    Drop,
}

/// The fields kept of each message (field numbers of onnx.proto).
fn field(msg: Msg, number: u64) -> Field {
    use Field::*;
    match (msg, number) {
        // ModelProto: ir_version, producer_name, producer_version, graph, opset_import.
        (Msg::Model, 1..=3) => Keep,
        (Msg::Model, 7) => Sub(Msg::Graph),
        (Msg::Model, 8) => Sub(Msg::Opset),
        (Msg::Opset, 1 | 2) => Keep,
        // GraphProto: node, name, initializer, input, output, value_info.
        (Msg::Graph, 1) => Sub(Msg::Node),
        (Msg::Graph, 2) => Keep,
        (Msg::Graph, 5) => Sub(Msg::Tensor),
        (Msg::Graph, 11..=13) => Sub(Msg::ValueInfo),
        // NodeProto: input, output, name, op_type, attribute, domain.
        (Msg::Node, 1..=4 | 7) => Keep,
        (Msg::Node, 5) => Sub(Msg::Attr),
        // AttributeProto: name, f, i, s, t, floats, ints, strings, type (not g, graphs).
        (Msg::Attr, 1..=4 | 7..=9 | 20) => Keep,
        (Msg::Attr, 5) => Sub(Msg::Tensor),
        // TensorProto: dims, data_type, name, data_location; the data when small.
        (Msg::Tensor, 1 | 2 | 8 | 14) => Keep,
        (Msg::Tensor, 4..=7 | 9..=11) => Data,
        (Msg::ValueInfo, 1) => Keep,
        (Msg::ValueInfo, 2) => Sub(Msg::Type),
        (Msg::Type, 1) => Sub(Msg::TypeTensor),
        (Msg::TypeTensor, 1) => Keep,
        (Msg::TypeTensor, 2) => Sub(Msg::Shape),
        (Msg::Shape, 1) => Sub(Msg::Dim),
        (Msg::Dim, 1 | 2) => Keep,
        _ => Drop,
    }
}

/// The walk's state: the input, the counts so far and the bounds.
struct Walk<'b> {
    bytes: &'b [u8],
    bounds: Bounds,
    nodes: usize,
    initializers: usize,
    messages: usize,
    kept: usize,
    tensor_data: usize,
}

/// The fields of `bytes` (an ONNX `ModelProto`) that the importer reads, as protobuf bytes
/// of the same message, or why it cannot be read.
pub fn filter(bytes: &[u8], bounds: Bounds) -> Result<Vec<u8>, WireError> {
    let mut w = Walk {
        bytes,
        bounds,
        nodes: 0,
        initializers: 0,
        messages: 0,
        kept: 0,
        tensor_data: 0,
    };
    let mut out = Vec::new();
    w.message(Msg::Model, 0, bytes.len(), &mut out)?;
    Ok(out)
}

fn malformed(at: usize, what: &'static str) -> WireError {
    WireError::Malformed { at, what }
}

/// A varint at `*pos`, which moves past it.
fn varint(bytes: &[u8], pos: &mut usize, end: usize) -> Result<u64, WireError> {
    let start = *pos;
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        if *pos >= end {
            return Err(malformed(
                start,
                "a number runs past the end of its message",
            ));
        }
        let b = bytes[*pos];
        *pos += 1;
        value |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(malformed(start, "a number longer than 10 bytes"))
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

impl Walk<'_> {
    /// Walks the message of type `msg` in `bytes[start..end]`, appending its kept fields.
    fn message(
        &mut self,
        msg: Msg,
        start: usize,
        end: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), WireError> {
        self.count(msg)?;
        // A tensor's data goes aside, kept only if it stays small.
        let mut data: Option<Vec<u8>> = (msg == Msg::Tensor).then(Vec::new);
        let mut pos = start;
        while pos < end {
            let at = pos;
            let key = varint(self.bytes, &mut pos, end)?;
            let (number, wire) = (key >> 3, key & 7);
            if number == 0 {
                return Err(malformed(at, "a field numbered 0"));
            }
            let value_start = pos;
            match wire {
                0 => {
                    varint(self.bytes, &mut pos, end)?;
                }
                1 => pos = self.skip(pos, 8, end)?,
                5 => pos = self.skip(pos, 4, end)?,
                2 => {
                    let len = varint(self.bytes, &mut pos, end)?;
                    let len = usize::try_from(len).unwrap_or(usize::MAX);
                    let body = pos;
                    pos = self.skip(pos, len, end)?;
                    if let Field::Sub(sub) = field(msg, number) {
                        let mut inner = Vec::new();
                        self.message(sub, body, pos, &mut inner)?;
                        // Its fields were counted inside; here only its key and length.
                        self.keep(10)?;
                        put_varint(out, key);
                        put_varint(out, inner.len() as u64);
                        out.extend_from_slice(&inner);
                        continue;
                    }
                }
                _ => return Err(malformed(at, "a field of an unknown wire type")),
            }
            match field(msg, number) {
                Field::Keep => {
                    self.keep(pos - at)?;
                    out.extend_from_slice(&self.bytes[at..pos]);
                }
                Field::Data => {
                    if let Some(d) = data.as_mut() {
                        if d.len() + (pos - at) <= self.bounds.tensor_data {
                            d.extend_from_slice(&self.bytes[at..pos]);
                        } else {
                            data = None;
                        }
                    }
                }
                Field::Sub(_) => {
                    return Err(malformed(
                        value_start,
                        "a message field that is not a message",
                    ));
                }
                Field::Drop => {}
            }
        }
        if let Some(d) = data
            && self.tensor_data + d.len() <= self.bounds.all_tensor_data
        {
            self.tensor_data += d.len();
            self.keep(d.len())?;
            out.extend_from_slice(&d);
        }
        Ok(())
    }

    /// `pos + n`, if within `end`.
    fn skip(&self, pos: usize, n: usize, end: usize) -> Result<usize, WireError> {
        match pos.checked_add(n) {
            Some(p) if p <= end => Ok(p),
            _ => Err(malformed(pos, "a field runs past the end of its message")),
        }
    }

    fn count(&mut self, msg: Msg) -> Result<(), WireError> {
        let b = self.bounds;
        self.messages += 1;
        if self.messages > b.messages {
            return Err(WireError::TooMany {
                what: "protobuf messages",
                limit: b.messages,
            });
        }
        match msg {
            Msg::Node => {
                self.nodes += 1;
                if self.nodes > b.nodes {
                    return Err(WireError::TooMany {
                        what: "nodes",
                        limit: b.nodes,
                    });
                }
            }
            Msg::Tensor => {
                self.initializers += 1;
                if self.initializers > b.initializers {
                    return Err(WireError::TooMany {
                        what: "tensors (initializers and constants)",
                        limit: b.initializers,
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn keep(&mut self, n: usize) -> Result<(), WireError> {
        self.kept = self.kept.saturating_add(n);
        if self.kept > self.bounds.bytes {
            return Err(WireError::TooMany {
                what: "bytes of graph structure",
                limit: self.bounds.bytes,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_proto::Message;
    use onnx_proto::onnx::{GraphProto, ModelProto, NodeProto, TensorProto};

    fn model() -> ModelProto {
        let weight = TensorProto {
            name: Some("w".into()),
            dims: vec![4, 4],
            data_type: Some(1),
            raw_data: Some(vec![7; 64]),
            ..Default::default()
        };
        let shape = TensorProto {
            name: Some("s".into()),
            dims: vec![2],
            data_type: Some(7),
            int64_data: vec![-1, 4],
            ..Default::default()
        };
        let node = NodeProto {
            op_type: Some("MatMul".into()),
            input: vec!["x".into(), "w".into()],
            output: vec!["y".into()],
            doc_string: Some("dropped".into()),
            ..Default::default()
        };
        ModelProto {
            ir_version: Some(8),
            graph: Some(GraphProto {
                node: vec![node],
                initializer: vec![weight, shape],
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn small() -> Bounds {
        Bounds {
            tensor_data: 32,
            ..Bounds::default()
        }
    }

    #[test]
    fn keeps_the_structure_and_drops_weight_data() {
        let bytes = model().encode_to_vec();
        let kept = filter(&bytes, small()).expect("filter");
        let m = ModelProto::decode(&kept[..]).expect("decode");
        let g = m.graph.expect("graph");
        assert_eq!(g.node[0].op_type.as_deref(), Some("MatMul"));
        assert_eq!(g.node[0].doc_string, None);
        assert_eq!(g.initializer[0].dims, vec![4, 4]);
        assert_eq!(g.initializer[0].raw_data, None, "64 bytes > 32: dropped");
        assert_eq!(g.initializer[1].int64_data, vec![-1, 4], "small: kept");
    }

    #[test]
    fn counts_are_bounded() {
        let bytes = model().encode_to_vec();
        let b = Bounds {
            nodes: 0,
            ..small()
        };
        assert!(matches!(
            filter(&bytes, b),
            Err(WireError::TooMany { what: "nodes", .. })
        ));
    }

    #[test]
    fn truncated_and_garbage_bytes_are_errors_not_panics() {
        let bytes = model().encode_to_vec();
        for n in 0..bytes.len() {
            // Every prefix either filters or is an error; a filtered one decodes or errors.
            if let Ok(kept) = filter(&bytes[..n], small()) {
                let _ = ModelProto::decode(&kept[..]);
            }
        }
        // A simple deterministic generator: no dependency, the same bytes on every run.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in 0..2000 {
            let mut junk = Vec::with_capacity(len % 300);
            for _ in 0..len % 300 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                junk.push(x as u8);
            }
            if let Ok(kept) = filter(&junk, small()) {
                let _ = ModelProto::decode(&kept[..]);
            }
        }
        assert!(filter(&[0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f], small()).is_err());
        assert!(filter(&[0x0b], small()).is_err(), "a group is refused");
        assert!(filter(&[0x00], small()).is_err(), "field 0");
    }
}
