//! The built-in transformer block (SPEC §4): exactly 14 ops with fixed names.

use crate::api::{External, GraphError, Op, build_graph};
use crate::diagnostics::{Code, Diagnostic};
use crate::fusion::{FusionPlan, find_fusion_groups};
use crate::graph::Graph;
use crate::traffic::{Traffic, TrafficReport, compare};
use crate::types::{Dtype, OpKind};

/// The seed's return value of `analyze_transformer_block`, plus the graph and plan behind it.
#[derive(Clone, Debug)]
pub struct TransformerAnalysis {
    pub ops: Vec<Op>,
    pub fusion_groups: Vec<Vec<String>>,
    pub unfused_traffic: Traffic,
    pub fused_traffic: Traffic,
    pub savings_pct: f64,
    pub graph: Graph,
    pub plan: FusionPlan,
    pub traffic: TrafficReport,
}

/// Block dimensions, validated: `head_dim = hidden / heads` exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockDims {
    pub seq_len: u64,
    pub hidden_dim: u64,
    pub num_heads: u64,
    pub head_dim: u64,
}

impl BlockDims {
    pub fn new(
        seq_len: u64,
        hidden_dim: u64,
        num_heads: u64,
    ) -> Result<BlockDims, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        for (flag, v) in [
            ("--seq-len", seq_len),
            ("--hidden-dim", hidden_dim),
            ("--num-heads", num_heads),
        ] {
            if v == 0 {
                errors.push(
                    Diagnostic::new(
                        Code::InvalidShape,
                        format!("{flag} must be at least 1, found 0"),
                    )
                    .help("every dimension of a tensor is a positive integer"),
                );
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        if !hidden_dim.is_multiple_of(num_heads) {
            return Err(vec![
                Diagnostic::new(
                    Code::InexactDivision,
                    format!(
                        "--hidden-dim {hidden_dim} is not divisible by --num-heads {num_heads} (remainder {})",
                        hidden_dim % num_heads
                    ),
                )
                .help("the head dimension is hidden-dim / num-heads; pick a number of heads that divides it"),
            ]);
        }
        let overflow = || {
            vec![
                Diagnostic::new(
                    Code::SizeOverflow,
                    "the block's dimensions overflow 64 bits",
                )
                .help("use smaller --seq-len or --hidden-dim"),
            ]
        };
        // Every dimension the block uses must fit in an i64 (the DSL's integers).
        for v in [seq_len, hidden_dim.checked_mul(4).ok_or_else(overflow)?] {
            if i64::try_from(v).is_err() {
                return Err(overflow());
            }
        }
        Ok(BlockDims {
            seq_len,
            hidden_dim,
            num_heads,
            head_dim: hidden_dim / num_heads,
        })
    }
}

/// The 14 ops and their external tensors.
pub fn block_ops(d: BlockDims, dtype: Dtype) -> (Vec<Op>, Vec<External>) {
    let (s, h, nh, hd) = (d.seq_len, d.hidden_dim, d.num_heads, d.head_dim);
    let b = dtype.bytes();
    let op = |name: &str, kind, func: Option<&str>, inputs: &[&str], out: &str, shape: &[u64]| {
        let mut o = Op::new(name, kind, inputs, out, shape, b).dtype(dtype);
        o.func = func.map(str::to_string);
        o
    };
    use OpKind::*;
    let ops = vec![
        op(
            "qkv_proj",
            Matmul,
            None,
            &["x", "w_qkv"],
            "qkv",
            &[s, 3 * h],
        ),
        op(
            "split_heads",
            Reshape,
            None,
            &["qkv"],
            "qkv_heads",
            &[3, nh, s, hd],
        ),
        op(
            "attn_scores",
            Matmul,
            None,
            &["qkv_heads[0]", "qkv_heads[1].T"],
            "scores",
            &[nh, s, s],
        ),
        op(
            "softmax",
            Reduction,
            Some("softmax"),
            &["scores"],
            "probs",
            &[nh, s, s],
        ),
        op(
            "attn_output",
            Matmul,
            None,
            &["probs", "qkv_heads[2]"],
            "attn",
            &[nh, s, hd],
        ),
        op(
            "concat_heads",
            Reshape,
            None,
            &["attn"],
            "attn_cat",
            &[s, h],
        ),
        op(
            "out_proj",
            Matmul,
            None,
            &["attn_cat", "w_o"],
            "proj",
            &[s, h],
        ),
        op(
            "residual1",
            Elementwise,
            Some("add"),
            &["proj", "x"],
            "res1",
            &[s, h],
        ),
        op(
            "layernorm1",
            Reduction,
            Some("layernorm"),
            &["res1", "ln1_gamma", "ln1_beta"],
            "ln1",
            &[s, h],
        ),
        op("ffn_up", Matmul, None, &["ln1", "w_up"], "up", &[s, 4 * h]),
        op(
            "gelu",
            Elementwise,
            Some("gelu"),
            &["up"],
            "act",
            &[s, 4 * h],
        ),
        op(
            "ffn_down",
            Matmul,
            None,
            &["act", "w_down"],
            "down",
            &[s, h],
        ),
        op(
            "residual2",
            Elementwise,
            Some("add"),
            &["down", "ln1"],
            "res2",
            &[s, h],
        ),
        op(
            "layernorm2",
            Reduction,
            Some("layernorm"),
            &["res2", "ln2_gamma", "ln2_beta"],
            "out",
            &[s, h],
        ),
    ];
    let ext = |name: &str, shape: &[u64], weight: bool| {
        let e = if weight {
            External::weight(name, shape, b)
        } else {
            External::input(name, shape, b)
        };
        e.dtype(dtype)
    };
    let externals = vec![
        ext("x", &[s, h], false),
        ext("w_qkv", &[h, 3 * h], true),
        ext("w_o", &[h, h], true),
        ext("ln1_gamma", &[h], true),
        ext("ln1_beta", &[h], true),
        ext("w_up", &[h, 4 * h], true),
        ext("w_down", &[4 * h, h], true),
        ext("ln2_gamma", &[h], true),
        ext("ln2_beta", &[h], true),
    ];
    (ops, externals)
}

/// The seed's `analyze_transformer_block(seq_len, hidden_dim, num_heads, dtype_bytes)`.
///
/// ```
/// let r = fgraph::analyze_transformer_block(2048, 4096, 32, 2).unwrap();
/// assert_eq!(r.ops.len(), 14);
/// assert_eq!(r.fusion_groups[0], ["qkv_proj", "split_heads"]);
/// assert!(r.fused_traffic.total < r.unfused_traffic.total);
/// ```
pub fn analyze_transformer_block(
    seq_len: u64,
    hidden_dim: u64,
    num_heads: u64,
    dtype_bytes: u64,
) -> Result<TransformerAnalysis, GraphError> {
    let dtype = Dtype::for_width(dtype_bytes).ok_or_else(|| GraphError {
        diagnostics: vec![Diagnostic::new(
            Code::UnknownDtype,
            format!("no element type is {dtype_bytes} bytes wide (use 1, 2, 4 or 8)"),
        )],
    })?;
    analyze_block(seq_len, hidden_dim, num_heads, dtype)
}

/// [`analyze_transformer_block`] with a named dtype (`bf16` rather than "2 bytes").
pub fn analyze_block(
    seq_len: u64,
    hidden_dim: u64,
    num_heads: u64,
    dtype: Dtype,
) -> Result<TransformerAnalysis, GraphError> {
    let dims = BlockDims::new(seq_len, hidden_dim, num_heads)
        .map_err(|diagnostics| GraphError { diagnostics })?;
    let (ops, externals) = block_ops(dims, dtype);
    let graph = build_graph(&ops, &externals)?;
    let plan = find_fusion_groups(&graph);
    let traffic = compare(&graph, &plan).map_err(|_| GraphError {
        diagnostics: vec![Diagnostic::new(
            Code::SizeOverflow,
            "the block's HBM traffic overflows 64 bits",
        )],
    })?;
    let fusion_groups = plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops
                .iter()
                .map(|&o| graph.op(o).name.to_string())
                .collect()
        })
        .collect();
    Ok(TransformerAnalysis {
        ops,
        fusion_groups,
        unfused_traffic: traffic.unfused,
        fused_traffic: traffic.fused,
        savings_pct: traffic.savings_pct,
        graph,
        plan,
        traffic,
    })
}

/// The block as `.fgraph` source; analysing it gives the numbers of [`analyze_block`].
pub fn emit(d: BlockDims, dtype: Dtype) -> String {
    format!(
        "// The transformer block of SPEC §4: seq {s}, hidden {h}, {nh} heads, {dtype}.
// Generated by `fgraph transformer --seq-len {s} --hidden-dim {h} --num-heads {nh} --dtype {dtype} --emit`.
graph transformer_block {{
  param S = {s}
  param H = {h}
  param NH = {nh}
  param HD = H / NH
  dtype {dtype}

  input x: [S, H]
  weight w_qkv: [H, 3 * H]
  weight w_o: [H, H]
  weight ln1_gamma: [H]
  weight ln1_beta: [H]
  weight w_up: [H, 4 * H]
  weight w_down: [4 * H, H]
  weight ln2_gamma: [H]
  weight ln2_beta: [H]

  op qkv_proj = matmul(x, w_qkv) -> qkv: [S, 3 * H]
  op split_heads = reshape(qkv) -> qkv_heads: [3, NH, S, HD]
  op attn_scores = matmul(qkv_heads[0], qkv_heads[1].T) -> scores: [NH, S, S]
  op softmax = reduction.softmax(scores, axis = -1) -> probs: [NH, S, S]
  op attn_output = matmul(probs, qkv_heads[2]) -> attn: [NH, S, HD]
  op concat_heads = reshape(attn) -> attn_cat: [S, H]
  op out_proj = matmul(attn_cat, w_o) -> proj: [S, H]
  op residual1 = elementwise.add(proj, x) -> res1: [S, H]
  op layernorm1 = reduction.layernorm(res1, ln1_gamma, ln1_beta, axis = -1) -> ln1: [S, H]
  op ffn_up = matmul(ln1, w_up) -> up: [S, 4 * H]
  op gelu = elementwise.gelu(up) -> act: [S, 4 * H]
  op ffn_down = matmul(act, w_down) -> down: [S, H]
  op residual2 = elementwise.add(down, ln1) -> res2: [S, H]
  op layernorm2 = reduction.layernorm(res2, ln2_gamma, ln2_beta, axis = -1) -> out: [S, H]
  output out
}}
",
        s = d.seq_len,
        h = d.hidden_dim,
        nh = d.num_heads,
    )
}
