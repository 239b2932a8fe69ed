//! Python names for fgraph's tensors: each name sanitised to an identifier (`layers.0.q` →
//! `layers_0_q`), kept clear of Python's keywords and of what the module itself uses
//! (`torch`, `F`, `math`, `self`), a weight also of `torch.nn.Module`'s attributes (`to`,
//! `training`, …), and collisions resolved deterministically: the first name to ask keeps
//! it, later ones get `_2`, `_3`, … in the order they ask.

use std::collections::{HashMap, HashSet};

/// Python's keywords (3.12): none can name a variable.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The names the emitted module's `forward` reads besides its tensors.
const MODULE: &[&str] = &["torch", "F", "math", "self"];

/// `torch.nn.Module`'s public attributes (PyTorch 2.x): a weight is an attribute of the
/// module, so it cannot take one of these names (`register_parameter` refuses them).
const MODULE_ATTRS: &[&str] = &[
    "T_destination",
    "add_module",
    "apply",
    "bfloat16",
    "buffers",
    "call_super_init",
    "children",
    "compile",
    "cpu",
    "cuda",
    "double",
    "dump_patches",
    "eval",
    "extra_repr",
    "float",
    "forward",
    "get_buffer",
    "get_extra_state",
    "get_parameter",
    "get_submodule",
    "half",
    "ipu",
    "load_state_dict",
    "modules",
    "mtia",
    "named_buffers",
    "named_children",
    "named_modules",
    "named_parameters",
    "parameters",
    "register_backward_hook",
    "register_buffer",
    "register_forward_hook",
    "register_forward_pre_hook",
    "register_full_backward_hook",
    "register_full_backward_pre_hook",
    "register_load_state_dict_post_hook",
    "register_load_state_dict_pre_hook",
    "register_module",
    "register_parameter",
    "register_state_dict_post_hook",
    "register_state_dict_pre_hook",
    "requires_grad_",
    "set_extra_state",
    "set_submodule",
    "share_memory",
    "state_dict",
    "to",
    "to_empty",
    "train",
    "training",
    "type",
    "xpu",
    "zero_grad",
];

/// A Python identifier for `name`: ASCII letters, digits and `_` kept, every other character
/// `_`; a leading digit (or nothing at all) gets a `t` before it, a leading `__` (which
/// Python mangles inside a class) a `t` too.
pub fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with("__") {
        s.insert(0, 't');
    }
    s
}

/// What a name is for: a weight is an attribute of the module as well as a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A local variable of `forward` (an input or an op's output).
    Local,
    /// An attribute of the module (a weight, or a buffer the module makes).
    Attribute,
}

/// The names given so far, one namespace for the whole module.
#[derive(Default)]
pub struct Namer {
    taken: HashSet<String>,
    /// The next suffix to try for each base that was already taken, so that many names
    /// sanitised to one base take linear time.
    next: HashMap<String, u64>,
}

impl Namer {
    /// A free identifier for `name`: sanitised, kept clear of reserved names, then unique.
    pub fn claim(&mut self, name: &str, role: Role) -> String {
        let mut base = sanitize(name);
        if role == Role::Attribute && (base.starts_with('_') || MODULE_ATTRS.contains(&&*base)) {
            base.insert_str(0, if base.starts_with('_') { "w" } else { "w_" });
        }
        if KEYWORDS.contains(&&*base) || MODULE.contains(&&*base) {
            base.push('_');
        }
        if self.taken.insert(base.clone()) {
            return base;
        }
        let k = self.next.entry(base.clone()).or_insert(2);
        loop {
            let candidate = format!("{base}_{k}");
            *k += 1;
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
    }

    /// A name for something the module makes itself (a mask, a constant): `prefix` and
    /// `name` sanitised, unique like the others.
    pub fn internal(&mut self, prefix: &str, name: &str) -> String {
        self.claim(&format!("{prefix}{}", sanitize(name)), Role::Local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_identifiers() {
        assert_eq!(sanitize("layers.0.q_proj"), "layers_0_q_proj");
        assert_eq!(sanitize("x"), "x");
        assert_eq!(sanitize("0abc"), "t0abc");
        assert_eq!(sanitize(""), "t");
        assert_eq!(sanitize("__init__"), "t__init__");
        assert_eq!(sanitize("k-cache·2"), "k_cache_2");
    }

    #[test]
    fn reserved_names_and_collisions_are_resolved_in_order() {
        let mut n = Namer::default();
        assert_eq!(n.claim("a.b", Role::Local), "a_b");
        assert_eq!(n.claim("a_b", Role::Local), "a_b_2");
        assert_eq!(n.claim("a-b", Role::Local), "a_b_3");
        assert_eq!(n.claim("a_b_2", Role::Local), "a_b_2_2");
        assert_eq!(n.claim("torch", Role::Local), "torch_");
        assert_eq!(n.claim("lambda", Role::Local), "lambda_");
        assert_eq!(n.claim("self", Role::Local), "self_");
        assert_eq!(n.claim("F", Role::Local), "F_");
        // A weight is an attribute: not one of Module's, nor private.
        assert_eq!(n.claim("training", Role::Attribute), "w_training");
        assert_eq!(n.claim("to", Role::Attribute), "w_to");
        assert_eq!(n.claim("_x", Role::Attribute), "w_x");
        assert_eq!(n.claim("to", Role::Local), "to");
        assert_eq!(n.internal("_mask_", "p"), "_mask_p");
        assert_eq!(n.internal("_mask_", "p"), "_mask_p_2");
    }

    #[test]
    fn many_collisions_take_linear_time() {
        let mut n = Namer::default();
        for _ in 0..20_000 {
            n.claim("a.b", Role::Local);
        }
        assert_eq!(n.claim("a.b", Role::Local), "a_b_20001");
    }
}
