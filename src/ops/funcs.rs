//! The function registry: every function name whose meaning fgraph knows (`gelu`, `softmax`,
//! `rmsnorm`), with its FLOPs per element, its cost family, whether TorchInductor treats its
//! use of a 16-bit input as pointwise, and how it is written in PyTorch.
//!
//! **The case rule, decided once:** names match case-insensitively everywhere
//! (`reduction.Softmax` is a softmax). Every pass asks this module ([`lookup`], [`family`],
//! [`is`]); none compares a function name itself.
//!
//! Each row also says what the semantic pass checks (issue 22): the kind the function belongs
//! to, how many operands it takes, its attributes with their types and ranges, and where its
//! output shape comes from ([`FuncShape`]).
//!
//! A function the registry does not list counts [`UNKNOWN_FLOPS`] per element and has the
//! family of its kind; a name ending in `norm` (`groupnorm`, `batchnorm`) is a norm.

use crate::types::OpKind;

/// The hardware model's cost family of a row-wise function (`cost::hwmodel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncFamily {
    /// Priced as its op kind's family (elementwise or reduction).
    Plain,
    /// A softmax: row max, exp, sum, divide.
    Softmax,
    /// A normalization over rows (LayerNorm, RMSNorm, …).
    Norm,
    /// A group norm as PyTorch runs it: per-group moments (a block per group of a sample),
    /// the fused scale and shift, and an elementwise apply that reads the input again.
    GroupNorm,
}

/// Where a function's output shape comes from (`sema` infers it and compares a declared one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncShape {
    /// The broadcast of the tensor arguments (numpy rules): every elementwise function.
    Broadcast,
    /// The first argument's shape: a row-wise reduction that keeps it (softmax, norms).
    Same,
    /// The first argument's shape with the `axis` dimensions (every one without `axis`, as in
    /// `torch.sum(x)`) reduced: dropped, or kept as 1 with `keepdim = 1`. Without `keepdim`,
    /// a declared shape may take either form.
    Reduce,
    /// The first argument's shape with the `axis` dimension replaced by `k` (top-k).
    TopK,
    /// The first argument's shape, `[N, C, *]` with C split into `groups` equal groups
    /// (group norm).
    Groups,
}

/// The type and range of an attribute's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AttrType {
    /// An integer expression from `min` to `max`.
    Int { min: i64, max: i64 },
    /// An axis of the first argument (negative counts from the end).
    Axis,
    /// An axis, or a list of axes, of the first argument.
    Axes,
    /// A number (a float literal or an integer expression) in the open-closed range given:
    /// `min < v <= max`, or `min <= v` when `min_inclusive`.
    Float {
        min: f64,
        max: f64,
        min_inclusive: bool,
    },
    /// `0` or `1` (`true`/`false` where the language has them).
    Bool,
    /// A bare identifier (issue 25): `group = tp`, `algorithm = ring`. Any name when `values`
    /// is empty, else one of `values`. The identifier is the value as written: it is never a
    /// param (a param of the same name does not change it) and block expansion does not
    /// rename it ([`crate::ops::is_name_attr`]).
    Name { values: &'static [&'static str] },
}

/// One attribute a function (or an op kind) takes.
#[derive(Clone, Copy, Debug)]
pub struct AttrSpec {
    pub name: &'static str,
    pub ty: AttrType,
    /// The op cannot do without it.
    pub required: bool,
    /// What it means, for messages and the manual.
    pub doc: &'static str,
}

/// How many operands a function takes: tensors and scalar constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operands {
    pub min: usize,
    pub max: usize,
}

impl Operands {
    /// The count as the manual writes it: "1", "2", "1 to 3", "2 or more".
    pub fn text(self) -> String {
        match (self.min, self.max) {
            (a, b) if a == b => format!("{a}"),
            (a, usize::MAX) => format!("{a} or more"),
            (a, b) if b == a + 1 => format!("{a} or {b}"),
            (a, b) => format!("{a} to {b}"),
        }
    }
}

/// One function.
#[derive(Clone, Copy, Debug)]
pub struct FuncSpec {
    /// The canonical (lowercase) name.
    pub name: &'static str,
    /// The op kind it belongs to (`elementwise` or `reduction`): the same name may be a
    /// function of both (`max`).
    pub kind: OpKind,
    /// How many operands it takes: tensors and scalar constants (`mul(x, 0.125)`).
    pub operands: Operands,
    /// The attributes it takes besides `flops`, which every op may have.
    pub attrs: &'static [AttrSpec],
    pub shape: FuncShape,
    /// FLOPs per element (`docs/cost-model.md` gives the sources); `None`: not counted by
    /// the table ([`UNKNOWN_FLOPS`] then).
    pub flops: Option<u64>,
    pub family: FuncFamily,
    /// TorchInductor decomposes it into ops whose first use of a 16-bit input is a pointwise
    /// upcast to f32 (docs/VALIDATION.md §15): LayerNorm, softmax and RMSNorm (PyTorch 2.11's
    /// `_fused_rms_norm` too, by the post-grad passes: a residual add read by one and by the
    /// next add stays out of `addmm`, VALIDATION.md §53).
    pub inductor_pointwise_16bit: bool,
    /// The PyTorch expression it stands for (`x` is the first input).
    pub torch: &'static str,
}

/// An optional attribute.
pub(crate) const fn attr(name: &'static str, ty: AttrType, doc: &'static str) -> AttrSpec {
    AttrSpec {
        name,
        ty,
        required: false,
        doc,
    }
}

const AXIS: AttrSpec = attr(
    "axis",
    AttrType::Axis,
    "the axis the rows run along (default -1)",
);
const AXES: AttrSpec = attr(
    "axis",
    AttrType::Axes,
    "the axis or list of axes reduced (default: every axis)",
);
const KEEPDIM: AttrSpec = attr(
    "keepdim",
    AttrType::Bool,
    "`true` keeps each reduced axis as a dimension of 1",
);
/// A softmax's causal mask (the attention pattern's; the attention op uses the same name).
pub const CAUSAL: AttrSpec = attr(
    "causal",
    AttrType::Bool,
    "`true`: query i sees key j only when j <= i + S_k - S_q (the causal mask, aligned to \
     the last key); a FlashAttention kernel skips the masked (query, key) pairs",
);
/// A softmax's sliding window, with `causal = true`.
pub const WINDOW: AttrSpec = attr(
    "window",
    AttrType::Int {
        min: 1,
        max: i64::MAX,
    },
    "with `causal = true`, each query sees at most the W most recent keys, its own position \
     included (a sliding window)",
);
const EPS: AttrSpec = attr(
    "eps",
    AttrType::Float {
        min: 0.0,
        max: 1.0,
        min_inclusive: true,
    },
    "the small constant added to the variance (0 to 1)",
);
const K: AttrSpec = AttrSpec {
    required: true,
    ..attr(
        "k",
        AttrType::Int {
            min: 1,
            max: i64::MAX,
        },
        "how many of the largest values are kept along `axis`",
    )
};
/// A norm's axes: one, or a list of the trailing axes (PyTorch's `normalized_shape`).
const NORM_AXES: AttrSpec = attr(
    "axis",
    AttrType::Axes,
    "the axis the rows run along (default -1), or a list of the last axes normalised \
     together (`axis = [-2, -1]`, PyTorch's `normalized_shape` of two dims)",
);
const GROUPS: AttrSpec = AttrSpec {
    required: true,
    ..attr(
        "groups",
        AttrType::Int {
            min: 1,
            max: i64::MAX,
        },
        "how many equal groups the channels (dim 1) are split into; it divides C",
    )
};
const ROWWISE: &[AttrSpec] = &[AXIS];
const SOFTMAX: &[AttrSpec] = &[AXIS, CAUSAL, WINDOW];
const NORM: &[AttrSpec] = &[NORM_AXES, EPS];
const GROUP_NORM: &[AttrSpec] = &[GROUPS, EPS];
const BATCHNORM: &[AttrSpec] = &[EPS];
const REDUCE: &[AttrSpec] = &[AXES, KEEPDIM];

const fn f(name: &'static str, flops: u64, torch: &'static str) -> FuncSpec {
    FuncSpec {
        name,
        kind: OpKind::Elementwise,
        operands: Operands { min: 1, max: 1 },
        attrs: &[],
        shape: FuncShape::Broadcast,
        flops: Some(flops),
        family: FuncFamily::Plain,
        inductor_pointwise_16bit: false,
        torch,
    }
}

/// An elementwise function of `n` operands.
const fn ew(name: &'static str, n: usize, flops: u64, torch: &'static str) -> FuncSpec {
    FuncSpec {
        operands: Operands { min: n, max: n },
        ..f(name, flops, torch)
    }
}

/// A reduction that reduces `axis` (sum, mean, max, …).
const fn red(name: &'static str, flops: u64, torch: &'static str) -> FuncSpec {
    FuncSpec {
        kind: OpKind::Reduction,
        attrs: REDUCE,
        shape: FuncShape::Reduce,
        ..f(name, flops, torch)
    }
}

/// A row-wise reduction that keeps its input's shape (softmax, norms).
const fn rowwise(
    name: &'static str,
    operands: Operands,
    attrs: &'static [AttrSpec],
    flops: Option<u64>,
    family: FuncFamily,
    torch: &'static str,
) -> FuncSpec {
    FuncSpec {
        kind: OpKind::Reduction,
        operands,
        attrs,
        shape: FuncShape::Same,
        flops,
        family,
        ..f(name, 0, torch)
    }
}

const ONE: Operands = Operands { min: 1, max: 1 };
const TWO_OR_MORE: Operands = Operands {
    min: 2,
    max: usize::MAX,
};

/// Every function fgraph knows, in one table: a function of an op kind that is not here is
/// an error (`unknown-function`), unless the op states its cost (`flops = N`), which makes it
/// an opaque function. FLOPs of functions added with the strict registry (issue 22) that were
/// counted as unknown before keep that count (1 per element), so no number changed.
pub const FUNCS: &[FuncSpec] = &[
    // Elementwise: the output is the broadcast of the tensor arguments.
    FuncSpec {
        operands: TWO_OR_MORE,
        ..f("add", 1, "torch.add")
    },
    ew("sub", 2, 1, "torch.sub"),
    FuncSpec {
        operands: TWO_OR_MORE,
        ..f("mul", 1, "torch.mul")
    },
    ew("div", 2, 1, "torch.div"),
    ew("neg", 1, 1, "torch.neg"),
    ew("relu", 1, 1, "torch.relu"),
    ew("gelu", 1, 8, "torch.nn.functional.gelu"),
    ew("silu", 1, 4, "torch.nn.functional.silu"),
    ew("exp", 1, 1, "torch.exp"),
    ew("log", 1, 1, "torch.log"),
    ew("sqrt", 1, 1, "torch.sqrt"),
    ew("rsqrt", 1, 1, "torch.rsqrt"),
    ew("sigmoid", 1, 1, "torch.sigmoid"),
    ew("tanh", 1, 1, "torch.tanh"),
    ew("abs", 1, 1, "torch.abs"),
    ew("square", 1, 1, "torch.square"),
    ew("reciprocal", 1, 1, "torch.reciprocal"),
    ew("sin", 1, 1, "torch.sin"),
    ew("cos", 1, 1, "torch.cos"),
    ew("erf", 1, 1, "torch.erf"),
    ew("softplus", 1, 1, "torch.nn.functional.softplus"),
    ew("cast", 1, 1, "x.to"),
    ew("copy", 1, 1, "x.clone"),
    ew("fill", 1, 1, "torch.full_like"),
    ew("isneginf", 1, 1, "torch.isneginf"),
    ew("isinf", 1, 1, "torch.isinf"),
    ew("isnan", 1, 1, "torch.isnan"),
    ew("logical_not", 1, 1, "torch.logical_not"),
    ew("pow", 2, 1, "torch.pow"),
    FuncSpec {
        operands: TWO_OR_MORE,
        ..f("min", 1, "torch.minimum")
    },
    FuncSpec {
        operands: TWO_OR_MORE,
        ..f("max", 1, "torch.maximum")
    },
    ew("eq", 2, 1, "torch.eq"),
    ew("ne", 2, 1, "torch.ne"),
    ew("lt", 2, 1, "torch.lt"),
    ew("le", 2, 1, "torch.le"),
    ew("gt", 2, 1, "torch.gt"),
    ew("ge", 2, 1, "torch.ge"),
    ew("logical_and", 2, 1, "torch.logical_and"),
    ew("logical_or", 2, 1, "torch.logical_or"),
    ew("where", 3, 1, "torch.where"),
    ew("fma", 3, 1, "torch.addcmul"),
    // Batch norm in inference form: `(x - mean) · rsqrt(var + eps) · weight + bias`, the
    // per-channel operands `[C, 1, 1]` broadcast over `[N, C, H, W]` (a conv's epilogue).
    // Its family is `Norm`, as an opaque `reduction.batchnorm` had before (a name ending in
    // `norm`); an elementwise op's family is never asked.
    FuncSpec {
        operands: Operands { min: 3, max: 5 },
        attrs: BATCHNORM,
        family: FuncFamily::Norm,
        ..f("batchnorm", 4, "torch.nn.functional.batch_norm")
    },
    // Row-wise reductions: the output has the first input's shape.
    FuncSpec {
        inductor_pointwise_16bit: true,
        ..rowwise(
            "softmax",
            ONE,
            SOFTMAX,
            Some(5),
            FuncFamily::Softmax,
            "torch.softmax",
        )
    },
    FuncSpec {
        inductor_pointwise_16bit: true,
        ..rowwise(
            "log_softmax",
            ONE,
            ROWWISE,
            None,
            FuncFamily::Plain,
            "torch.log_softmax",
        )
    },
    FuncSpec {
        inductor_pointwise_16bit: true,
        ..rowwise(
            "layernorm",
            Operands { min: 1, max: 3 },
            NORM,
            Some(8),
            FuncFamily::Norm,
            "torch.nn.functional.layer_norm",
        )
    },
    FuncSpec {
        inductor_pointwise_16bit: true,
        ..rowwise(
            "rmsnorm",
            Operands { min: 1, max: 2 },
            NORM,
            None,
            FuncFamily::Norm,
            "torch.nn.functional.rms_norm",
        )
    },
    FuncSpec {
        shape: FuncShape::Groups,
        ..rowwise(
            "group_norm",
            Operands { min: 1, max: 3 },
            GROUP_NORM,
            Some(8),
            FuncFamily::GroupNorm,
            "torch.nn.functional.group_norm",
        )
    },
    // Reductions over `axis`.
    red("sum", 1, "torch.sum"),
    red("mean", 1, "torch.mean"),
    red("max", 1, "torch.amax"),
    red("min", 1, "torch.amin"),
    red("prod", 1, "torch.prod"),
    red("logsumexp", 1, "torch.logsumexp"),
    red("all", 1, "torch.all"),
    red("any", 1, "torch.any"),
    red("argmax", 1, "torch.argmax"),
    red("argmin", 1, "torch.argmin"),
    FuncSpec {
        attrs: &[AXIS, K],
        shape: FuncShape::TopK,
        ..red("topk", 1, "torch.topk")
    },
    // The combines of `associative_scan` (issue 23, `crate::ops::scan`): an inclusive scan
    // along `axis`, the output of the first argument's shape; FLOPs per element are the
    // sequential work (one combine per element).
    scan("add", ONE, 1, "torch.cumsum"),
    scan("mul", ONE, 1, "torch.cumprod"),
    scan("max", ONE, 1, "torch.cummax"),
    scan("min", ONE, 1, "torch.cummin"),
    scan(
        "linear",
        Operands { min: 2, max: 2 },
        2,
        "h_t = a_t * h_(t-1) + b_t",
    ),
];

/// A combine of `associative_scan` taking `operands` tensors.
const fn scan(name: &'static str, operands: Operands, flops: u64, torch: &'static str) -> FuncSpec {
    FuncSpec {
        kind: OpKind::AssociativeScan,
        operands,
        attrs: ROWWISE,
        shape: FuncShape::Same,
        ..f(name, flops, torch)
    }
}

/// FLOPs per element of a function the table does not count.
pub const UNKNOWN_FLOPS: u64 = 1;

/// The longest name in [`FUNCS`]: longer names skip the scan.
const LONGEST: usize = {
    let (mut i, mut n) = (0, 0);
    while i < FUNCS.len() {
        if FUNCS[i].name.len() > n {
            n = FUNCS[i].name.len();
        }
        i += 1;
    }
    n
};

/// The registry's entry for `name`, matched case-insensitively: the first of any kind (a
/// name that is a function of two kinds, such as `max`, means the same to the cost model in
/// both).
pub fn lookup(name: &str) -> Option<&'static FuncSpec> {
    if name.len() > LONGEST {
        return None;
    }
    FUNCS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The registry's entry for function `name` of `kind`, matched case-insensitively.
pub fn find(kind: OpKind, name: &str) -> Option<&'static FuncSpec> {
    if name.len() > LONGEST {
        return None;
    }
    FUNCS
        .iter()
        .find(|s| s.kind == kind && s.name.eq_ignore_ascii_case(name))
}

/// The functions of `kind`, in the table's order.
pub fn of_kind(kind: OpKind) -> impl Iterator<Item = &'static FuncSpec> {
    FUNCS.iter().filter(move |s| s.kind == kind)
}

/// FLOPs per element for a function name: the table's entry, or `None`.
pub fn flops_per_element(name: &str) -> Option<u64> {
    lookup(name).and_then(|s| s.flops)
}

/// The cost family of a function name; a name the table does not list that ends in `norm`
/// (any case) is a norm.
pub fn family(name: &str) -> FuncFamily {
    match lookup(name) {
        Some(s) => s.family,
        None if ends_with_ignore_case(name, "norm") => FuncFamily::Norm,
        None => FuncFamily::Plain,
    }
}

/// Whether op `op` applies an *opaque* function: one of an `elementwise`, `reduction` or
/// `associative_scan` op that the registry does not list, accepted because the op states its
/// cost (`flops = N`).
pub fn is_opaque(op: &crate::graph::OpNode) -> bool {
    matches!(
        op.kind,
        OpKind::Elementwise | OpKind::Reduction | OpKind::AssociativeScan
    ) && op
        .func
        .as_deref()
        .is_some_and(|f| find(op.kind, f).is_none())
}

/// The opaque functions of `g` ([`is_opaque`]), each once, as `kind.name`, in op order.
pub fn opaque_in(g: &crate::graph::Graph) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    g.ops
        .iter()
        .filter(|o| is_opaque(o))
        .map(|o| format!("{}.{}", o.kind, o.func.as_deref().unwrap_or_default()))
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

/// Whether `name` names the function `canonical` (the registry's case rule).
pub fn is(name: &str, canonical: &str) -> bool {
    name.eq_ignore_ascii_case(canonical)
}

/// Whether TorchInductor treats the function's use of a 16-bit input as pointwise.
pub fn inductor_pointwise_16bit(name: &str) -> bool {
    lookup(name).is_some_and(|s| s.inductor_pointwise_16bit)
}

fn ends_with_ignore_case(s: &str, suffix: &str) -> bool {
    s.len() >= suffix.len()
        && s.is_char_boundary(s.len() - suffix.len())
        && s[s.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The case rule: every question the passes ask gives the same answer for any spelling.
    #[test]
    fn every_question_ignores_case() {
        for s in FUNCS {
            for name in [
                s.name.to_string(),
                s.name.to_uppercase(),
                capitalised(s.name),
            ] {
                assert_eq!(flops_per_element(&name), s.flops, "{name}");
                assert_eq!(family(&name), s.family, "{name}");
                assert_eq!(inductor_pointwise_16bit(&name), s.inductor_pointwise_16bit);
                assert!(is(&name, s.name));
            }
        }
        assert_eq!(family("GroupNorm"), FuncFamily::Norm);
        assert_eq!(family("frobnicate"), FuncFamily::Plain);
        assert_eq!(flops_per_element("frobnicate"), None);
    }

    #[test]
    fn names_are_canonical_and_unique_per_kind() {
        for (i, s) in FUNCS.iter().enumerate() {
            assert_eq!(s.name, s.name.to_lowercase());
            assert!(
                FUNCS[..i]
                    .iter()
                    .all(|t| t.name != s.name || t.kind != s.kind),
                "{}",
                s.name
            );
            assert!(matches!(
                s.kind,
                OpKind::Elementwise | OpKind::Reduction | OpKind::AssociativeScan
            ));
            assert!(s.operands.min >= 1 && s.operands.min <= s.operands.max);
            assert_eq!(
                s.shape == FuncShape::Broadcast,
                s.kind == OpKind::Elementwise,
                "{}",
                s.name
            );
            assert_eq!(
                find(s.kind, &s.name.to_uppercase()).map(|f| f.name),
                Some(s.name)
            );
        }
        // A name of two kinds means the same to the cost model in both.
        for s in FUNCS {
            let l = lookup(s.name).expect("listed");
            assert_eq!((l.flops, l.family), (s.flops, s.family), "{}", s.name);
        }
        assert_eq!(find(OpKind::Elementwise, "softmax").map(|f| f.name), None);
        assert_eq!(Operands { min: 1, max: 3 }.text(), "1 to 3");
        assert_eq!(TWO_OR_MORE.text(), "2 or more");
    }

    /// `fgraph explain unknown-function` lists every function of the registry.
    #[test]
    fn the_explain_text_lists_every_function() {
        let text = include_str!("../explain/unknown-function.md");
        for s in FUNCS {
            let row = text
                .lines()
                .find(|l| {
                    l.starts_with(&format!("| `{}` |", s.kind))
                        && l.contains(&format!("`{}`", s.name))
                })
                .unwrap_or_else(|| panic!("{}.{} is not listed", s.kind, s.name));
            assert!(row.contains(&s.operands.text()), "{}: {row}", s.name);
            for a in s.attrs {
                assert!(row.contains(&format!("`{}`", a.name)), "{}: {row}", s.name);
            }
        }
    }

    fn capitalised(s: &str) -> String {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    }
}
