//! Element types and the names of op kinds (their meaning is the op registry, `crate::ops`).

use serde::Serialize;

macro_rules! dtypes {
    ($( $v:ident = $name:literal, $bytes:literal; )*) => {
        /// An element type. Its width decides tensor sizes (SPEC §1).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        pub enum Dtype { $($v,)* }
        impl Dtype {
            pub const ALL: &'static [Dtype] = &[$(Dtype::$v,)*];
            pub fn as_str(self) -> &'static str { match self { $(Dtype::$v => $name,)* } }
            pub fn bytes(self) -> u64 { match self { $(Dtype::$v => $bytes,)* } }
            pub fn from_name(name: &str) -> Option<Dtype> {
                match name { $($name => Some(Dtype::$v),)* _ => None }
            }
        }
    };
}

dtypes! {
    F64 = "f64", 8;
    F32 = "f32", 4;
    Tf32 = "tf32", 4;
    Bf16 = "bf16", 2;
    F16 = "f16", 2;
    Fp8 = "fp8", 1;
    F8e4m3 = "f8e4m3", 1;
    F8e5m2 = "f8e5m2", 1;
    I64 = "i64", 8;
    I32 = "i32", 4;
    I16 = "i16", 2;
    I8 = "i8", 1;
    U8 = "u8", 1;
    Bool = "bool", 1;
}

impl Dtype {
    /// The dtype fgraph uses for a bare byte width (the seed's `bytes_per_element`).
    pub fn for_width(bytes: u64) -> Option<Dtype> {
        match bytes {
            8 => Some(Dtype::F64),
            4 => Some(Dtype::F32),
            2 => Some(Dtype::F16),
            1 => Some(Dtype::Fp8),
            _ => None,
        }
    }
}

impl std::fmt::Display for Dtype {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An op's kind, as written before the dot (`elementwise.add`). What a kind means (fusion
/// class, FLOPs, bytes, arity) is its row in the op registry, `crate::ops::spec`.
///
/// The last six are data movement (0 FLOPs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpKind {
    Elementwise,
    Reduction,
    Matmul,
    Reshape,
    /// `slice(x, axis = a, start = s, end = e, step = 1)`: one range of one axis.
    Slice,
    /// `concat(a, b, …, axis = a)`: tensors joined along one axis.
    Concat,
    /// `permute(x, dims = [..])`: the axes reordered.
    Permute,
    /// `expand(x) -> y: [..]`: broadcast to a larger, declared shape.
    Expand,
    /// `gather(table, ids, axis = 0)`: rows of `table` picked by `ids`.
    Gather,
    /// `update(cache, new, axis = a, start = s)`: `new` written into `cache` in place.
    Update,
    /// `conv(x, w, stride = s, padding = p, dilation = d, groups = g)`: a 1-, 2- or 3-D
    /// convolution in PyTorch's layout (issue 23).
    Conv,
    // Routing and indexing (issue 23, `crate::ops::routing`).
    /// `topk(x, k = K, axis = -1)`: the K largest values along an axis.
    Topk,
    /// `topk_indices(values)`: the indices of the `topk` op that produced `values`.
    #[serde(rename = "topk_indices")]
    TopkIndices,
    /// `sort(x, axis = -1, descending = false)`: the values sorted along an axis.
    Sort,
    /// `argsort(x, axis = -1, descending = false)`: the indices that sort an axis.
    Argsort,
    /// `index_add(dest, ids, src, axis = 0)`: `src`'s rows added into the rows `ids` of `dest`.
    #[serde(rename = "index_add")]
    IndexAdd,
    /// `cumsum(x, axis = -1)`: the running sum along an axis.
    Cumsum,
    /// `one_hot(ids, classes = C)`: `[.., C]`, 1 at each id.
    #[serde(rename = "one_hot")]
    OneHot,
    /// `roll(x, shifts = [..], dims = [..])`: a circular shift along axes.
    Roll,
    // Pooling (issue 23): `[N, C, *spatial]`, 1 to 3 spatial dims (`crate::ops::pool`).
    /// `max_pool(x, kernel = k, stride = s, padding = p)`: the maximum of each window.
    MaxPool,
    /// `avg_pool(x, kernel = k, stride = s, padding = p)`: the mean of each window.
    AvgPool,
    /// `global_avg_pool(x)`: the mean over every spatial position, `[N, C, 1, ..]`.
    GlobalAvgPool,
    /// `global_max_pool(x)`: the maximum over every spatial position, `[N, C, 1, ..]`.
    GlobalMaxPool,
    /// `attention(q, k, v, causal = true, window = W, scale = s)` or `attention(q, k, v,
    /// mask)`: a FlashAttention kernel (PyTorch's `scaled_dot_product_attention`,
    /// grouped-query heads without a copy, a mask as its `attn_mask`).
    Attention,
    // Scans (issue 23, `crate::ops::scan`).
    /// `selective_scan(u, delta, A, B, C, D, z, delta_bias, delta_softplus = true)`: Mamba's
    /// fused selective scan (`mamba_ssm`'s `selective_scan_fn`).
    #[serde(rename = "selective_scan")]
    SelectiveScan,
    /// `associative_scan.add(x, axis = -1)`: an inclusive scan along one axis with a named
    /// combine (`associative_scan.linear(a, b)`: the recurrence `h = a*h + b`).
    #[serde(rename = "associative_scan")]
    AssociativeScan,
    // Low-precision GEMMs (issue 23 item 6, `crate::ops::quant`).
    /// `scaled_mm(a, b, scale_a, scale_b, bias)`: an FP8 (or INT8) GEMM with per-tensor or
    /// rowwise f32 scales, `torch._scaled_mm`.
    #[serde(rename = "scaled_mm")]
    ScaledMm,
    /// `quant_mm(x, w, scales, zeros, bits = 4, group_size = G)`: a weight-only quantised
    /// GEMM (w4a16, w8a16) on packed integer weights with group scales.
    #[serde(rename = "quant_mm")]
    QuantMm,
    // Collectives (issue 25, `crate::ops::collective`): each over a named group of GPUs.
    /// `all_reduce(x, group = tp, size = 8)`: every member's `x` summed, on every member.
    #[serde(rename = "all_reduce")]
    AllReduce,
    /// `all_gather(x, group = tp, size = 8, axis = 0)`: the members' shards joined along `axis`.
    #[serde(rename = "all_gather")]
    AllGather,
    /// `reduce_scatter(x, group = tp, size = 8, axis = 0)`: the sum, split along `axis`.
    #[serde(rename = "reduce_scatter")]
    ReduceScatter,
    /// `all_to_all(x, group = ep, size = 8)`: each member's `x` split and exchanged.
    #[serde(rename = "all_to_all")]
    AllToAll,
    /// `broadcast(x, group = dp, size = 8, root = 0)`: the root's `x` on every member.
    Broadcast,
    /// `send(x, group = pp, size = 2, peer = 1)`: `x` to another pipeline stage.
    Send,
    /// `recv(group = pp, size = 2, peer = 0) -> x: [..]`: a tensor from another stage.
    Recv,
}

impl OpKind {
    pub const ALL: &'static [OpKind] = &[
        OpKind::Elementwise,
        OpKind::Reduction,
        OpKind::Matmul,
        OpKind::Reshape,
        OpKind::Slice,
        OpKind::Concat,
        OpKind::Permute,
        OpKind::Expand,
        OpKind::Gather,
        OpKind::Update,
        OpKind::Conv,
        OpKind::Topk,
        OpKind::TopkIndices,
        OpKind::Sort,
        OpKind::Argsort,
        OpKind::IndexAdd,
        OpKind::Cumsum,
        OpKind::OneHot,
        OpKind::Roll,
        OpKind::MaxPool,
        OpKind::AvgPool,
        OpKind::GlobalAvgPool,
        OpKind::GlobalMaxPool,
        OpKind::Attention,
        OpKind::SelectiveScan,
        OpKind::AssociativeScan,
        OpKind::ScaledMm,
        OpKind::QuantMm,
        OpKind::AllReduce,
        OpKind::AllGather,
        OpKind::ReduceScatter,
        OpKind::AllToAll,
        OpKind::Broadcast,
        OpKind::Send,
        OpKind::Recv,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            OpKind::Elementwise => "elementwise",
            OpKind::Reduction => "reduction",
            OpKind::Matmul => "matmul",
            OpKind::Reshape => "reshape",
            OpKind::Slice => "slice",
            OpKind::Concat => "concat",
            OpKind::Permute => "permute",
            OpKind::Expand => "expand",
            OpKind::Gather => "gather",
            OpKind::Update => "update",
            OpKind::Conv => "conv",
            OpKind::Topk => "topk",
            OpKind::TopkIndices => "topk_indices",
            OpKind::Sort => "sort",
            OpKind::Argsort => "argsort",
            OpKind::IndexAdd => "index_add",
            OpKind::Cumsum => "cumsum",
            OpKind::OneHot => "one_hot",
            OpKind::Roll => "roll",
            OpKind::MaxPool => "max_pool",
            OpKind::AvgPool => "avg_pool",
            OpKind::GlobalAvgPool => "global_avg_pool",
            OpKind::GlobalMaxPool => "global_max_pool",
            OpKind::Attention => "attention",
            OpKind::SelectiveScan => "selective_scan",
            OpKind::AssociativeScan => "associative_scan",
            OpKind::ScaledMm => "scaled_mm",
            OpKind::QuantMm => "quant_mm",
            OpKind::AllReduce => "all_reduce",
            OpKind::AllGather => "all_gather",
            OpKind::ReduceScatter => "reduce_scatter",
            OpKind::AllToAll => "all_to_all",
            OpKind::Broadcast => "broadcast",
            OpKind::Send => "send",
            OpKind::Recv => "recv",
        }
    }
    pub fn from_name(name: &str) -> Option<OpKind> {
        OpKind::ALL.iter().copied().find(|k| k.as_str() == name)
    }

    /// One of the seed's four kinds (SPEC §1), which `ALL` lists first.
    pub fn is_seed(self) -> bool {
        matches!(
            self,
            OpKind::Elementwise | OpKind::Reduction | OpKind::Matmul | OpKind::Reshape
        )
    }
}

impl std::fmt::Display for OpKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
