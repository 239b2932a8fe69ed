//! The function registry: every function name whose meaning fgraph knows (`gelu`, `softmax`,
//! `rmsnorm`), with its FLOPs per element, its cost family, whether TorchInductor treats its
//! use of a 16-bit input as pointwise, and how it is written in PyTorch.
//!
//! **The case rule, decided once:** names match case-insensitively everywhere
//! (`reduction.Softmax` is a softmax). Every pass asks this module ([`lookup`], [`family`],
//! [`is`]); none compares a function name itself.
//!
//! A function the registry does not list counts [`UNKNOWN_FLOPS`] per element and has the
//! family of its kind; a name ending in `norm` (`groupnorm`, `batchnorm`) is a norm.

/// The hardware model's cost family of a row-wise function (`cost::hwmodel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncFamily {
    /// Priced as its op kind's family (elementwise or reduction).
    Plain,
    /// A softmax: row max, exp, sum, divide.
    Softmax,
    /// A normalization over rows (LayerNorm, RMSNorm, …).
    Norm,
}

/// One function.
#[derive(Clone, Copy, Debug)]
pub struct FuncSpec {
    /// The canonical (lowercase) name.
    pub name: &'static str,
    /// FLOPs per element (`docs/cost-model.md` gives the sources); `None`: not counted by
    /// the table ([`UNKNOWN_FLOPS`] then).
    pub flops: Option<u64>,
    pub family: FuncFamily,
    /// TorchInductor decomposes it into ops whose first use of a 16-bit input is a pointwise
    /// upcast to f32 (docs/VALIDATION.md §15): LayerNorm and softmax, not RMSNorm (one fused
    /// op, `_fused_rms_norm`, in PyTorch 2.11).
    pub inductor_pointwise_16bit: bool,
    /// The PyTorch expression it stands for (`x` is the first input).
    pub torch: &'static str,
}

const fn f(name: &'static str, flops: u64, torch: &'static str) -> FuncSpec {
    FuncSpec {
        name,
        flops: Some(flops),
        family: FuncFamily::Plain,
        inductor_pointwise_16bit: false,
        torch,
    }
}

/// Every function fgraph knows, in one table.
pub const FUNCS: &[FuncSpec] = &[
    f("add", 1, "torch.add"),
    f("sub", 1, "torch.sub"),
    f("mul", 1, "torch.mul"),
    f("div", 1, "torch.div"),
    f("neg", 1, "torch.neg"),
    f("relu", 1, "torch.relu"),
    f("gelu", 8, "torch.nn.functional.gelu"),
    f("silu", 4, "torch.nn.functional.silu"),
    FuncSpec {
        family: FuncFamily::Softmax,
        inductor_pointwise_16bit: true,
        ..f("softmax", 5, "torch.softmax")
    },
    FuncSpec {
        family: FuncFamily::Norm,
        inductor_pointwise_16bit: true,
        ..f("layernorm", 8, "torch.nn.functional.layer_norm")
    },
    f("sum", 1, "torch.sum"),
    f("mean", 1, "torch.mean"),
    FuncSpec {
        flops: None,
        family: FuncFamily::Plain,
        inductor_pointwise_16bit: true,
        ..f("log_softmax", 0, "torch.log_softmax")
    },
    FuncSpec {
        flops: None,
        family: FuncFamily::Norm,
        ..f("rmsnorm", 0, "torch.nn.functional.rms_norm")
    },
];

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

/// The registry's entry for `name`, matched case-insensitively.
pub fn lookup(name: &str) -> Option<&'static FuncSpec> {
    if name.len() > LONGEST {
        return None;
    }
    FUNCS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
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
    fn names_are_canonical_and_unique() {
        for (i, s) in FUNCS.iter().enumerate() {
            assert_eq!(s.name, s.name.to_lowercase());
            assert!(FUNCS[..i].iter().all(|t| t.name != s.name), "{}", s.name);
        }
    }

    fn capitalised(s: &str) -> String {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    }
}
