//! Finding the layers: a run of emitted ops that repeats op for op, written as one `block`
//! and a `repeat`. Each op gets a structural key (kind, attributes, output shape and dtype,
//! and per argument: a value produced by an op, a weight of some shape, a given value, or a
//! literal); a period `L` whose keys repeat at least twice back to back is a candidate, the
//! longest coverage first. A candidate is kept only when it verifies exactly: the same op at
//! each place of every instance, each instance reading its own weights (of the same shapes,
//! read nowhere else), values made outside the run (the same in every instance), and one
//! value of the previous instance, the carry, which is each instance's only value read
//! outside it and has the shape and dtype of the first instance's input, as `repeat` needs.
//! The search is bounded in work ([`MAX_WORK`]); past it, or with no candidate, the graph is
//! written flat. Before it, [`hoist_invariant`] moves the ops that read no graph input (tables
//! every layer reads) ahead of the others.

use super::model::{Arg, EOp, Kind, Layers};
use super::walk::Imp;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// Key comparisons the period search may spend.
const MAX_WORK: usize = 1 << 26;
/// Candidates verified at most.
const MAX_CANDIDATES: usize = 32;

/// Moves the ops that read no graph input, directly or not (RoPE's tables, position
/// embeddings: computed once, read by every layer), before all others, in their order. Each
/// reads only ops of its own kind, so the order stays topological; a layer then reads such a
/// table as a value made outside the run, as every other layer does.
pub fn hoist_invariant(imp: &mut Imp<'_>) {
    let mut varies: HashSet<usize> = imp
        .vals
        .iter()
        .enumerate()
        .filter(|(_, v)| v.kind == Kind::Input)
        .map(|(i, _)| i)
        .collect();
    let mut invariant = Vec::new();
    let mut rest = Vec::new();
    for op in std::mem::take(&mut imp.ops) {
        let reads_input = op.args.iter().any(|a| match a {
            Arg::T(v) | Arg::Tt(v) => varies.contains(v),
            Arg::Lit(_) => false,
        });
        if reads_input {
            varies.insert(op.out);
            rest.push(op);
        } else {
            invariant.push(op);
        }
    }
    invariant.extend(rest);
    imp.ops = invariant;
}

/// The layers of the walked graph, if its ops repeat.
pub fn find(imp: &Imp<'_>) -> Option<Layers> {
    let ops = &imp.ops;
    let n = ops.len();
    let keys: Vec<u64> = ops.iter().map(|o| key(imp, o)).collect();
    let mut cands: Vec<(usize, usize, usize, usize)> = Vec::new(); // (coverage, L, r0, r1)
    let mut work = 0usize;
    for l in 1..=n / 2 {
        work += n - l;
        if work > MAX_WORK {
            break;
        }
        let mut i = 0;
        while i + l < n {
            if keys[i] != keys[i + l] {
                i += 1;
                continue;
            }
            let r0 = i;
            while i + l < n && keys[i] == keys[i + l] {
                i += 1;
            }
            let span = i - r0 + l;
            if span >= 2 * l {
                cands.push((span / l * l, l, r0, i));
            }
        }
    }
    cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let producer: HashMap<usize, usize> = ops.iter().enumerate().map(|(i, o)| (o.out, i)).collect();
    let mut readers: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, o) in ops.iter().enumerate() {
        for a in &o.args {
            if let Arg::T(v) | Arg::Tt(v) = a {
                readers.entry(*v).or_default().push(i);
            }
        }
    }
    let ctx = Ctx {
        imp,
        producer,
        readers,
    };
    for &(_, l, r0, r1) in cands.iter().take(MAX_CANDIDATES) {
        let end = r1 + l;
        // Of the phases that verify, the one whose instances' weights are named alike
        // (`h.0.attn.w` and `h.1.attn.w`): a post-norm model's layers could also start at
        // the previous layer's norm.
        let mut best: Option<(usize, Layers)> = None;
        for a in r0..=(r0 + l).min(end.saturating_sub(2 * l)) {
            let k = (end - a) / l;
            if k < 2 {
                break;
            }
            if let Some(found) = ctx.verify(a, l, k) {
                let score = found.aligned;
                if best
                    .as_ref()
                    .is_none_or(|(s, b)| score > *s && found.count >= b.count)
                {
                    best = Some((score, found));
                }
            }
        }
        if let Some((_, found)) = best {
            return Some(found);
        }
    }
    None
}

fn key(imp: &Imp<'_>, o: &EOp) -> u64 {
    let mut h = DefaultHasher::new();
    o.kind.hash(&mut h);
    format!("{:?}", o.attrs).hash(&mut h);
    o.dtype.hash(&mut h);
    let v = &imp.vals[o.out];
    format!("{:?}{:?}", v.shape, v.dtype).hash(&mut h);
    for a in &o.args {
        match a {
            Arg::T(id) | Arg::Tt(id) => {
                matches!(a, Arg::Tt(_)).hash(&mut h);
                let v = &imp.vals[*id];
                match v.kind {
                    Kind::Tensor => 0u8.hash(&mut h),
                    Kind::Weight | Kind::Const(_) => {
                        1u8.hash(&mut h);
                        format!("{:?}{:?}{:?}", v.shape, v.declared, v.dtype).hash(&mut h);
                    }
                    Kind::Input | Kind::Static => {
                        2u8.hash(&mut h);
                        id.hash(&mut h);
                    }
                }
            }
            Arg::Lit(s) => s.hash(&mut h),
        }
    }
    h.finish()
}

struct Ctx<'a, 'm> {
    imp: &'a Imp<'m>,
    producer: HashMap<usize, usize>,
    readers: HashMap<usize, Vec<usize>>,
}

impl Ctx<'_, '_> {
    fn verify(&self, a: usize, l: usize, k: usize) -> Option<Layers> {
        let ops = &self.imp.ops;
        let vals = &self.imp.vals;
        let seg_of = |i: usize| (i >= a && i < a + k * l).then(|| (i - a) / l);
        let mut carry_in: Option<usize> = None;
        let mut out_rel: Option<usize> = None;
        let mut shared: Vec<usize> = Vec::new();
        // Per instance: its weight for each of the first instance's.
        let mut wmap: Vec<HashMap<usize, usize>> = vec![HashMap::new(); k];
        let mut wtaken: Vec<HashSet<usize>> = vec![HashSet::new(); k];
        for p in 0..l {
            let o0 = &ops[a + p];
            for j in 1..k {
                let oj = &ops[a + j * l + p];
                let (v0, vj) = (&vals[o0.out], &vals[oj.out]);
                if o0.kind != oj.kind
                    || o0.attrs != oj.attrs
                    || o0.dtype != oj.dtype
                    || v0.shape != vj.shape
                    || v0.dtype != vj.dtype
                    || o0.args.len() != oj.args.len()
                {
                    return None;
                }
                for (x0, xj) in o0.args.iter().zip(&oj.args) {
                    let (w0, wj) = match (x0, xj) {
                        (Arg::Lit(s), Arg::Lit(t)) if s == t => continue,
                        (Arg::T(x), Arg::T(y)) | (Arg::Tt(x), Arg::Tt(y)) => (*x, *y),
                        _ => return None,
                    };
                    let p0 = self.producer.get(&w0).copied();
                    let pj = self.producer.get(&wj).copied();
                    if let Some(q) = p0.filter(|&q| seg_of(q) == Some(0)) {
                        // Made inside the first instance: at the same place in this one.
                        if pj != Some(q + j * l) {
                            return None;
                        }
                    } else if let Some(q) = pj.filter(|&q| seg_of(q) == Some(j - 1)) {
                        // The previous instance's output: the carry.
                        let rel = q - (a + (j - 1) * l);
                        if *out_rel.get_or_insert(rel) != rel || *carry_in.get_or_insert(w0) != w0 {
                            return None;
                        }
                        if p0.is_some_and(|q| seg_of(q).is_some()) {
                            return None;
                        }
                    } else if w0 == wj {
                        // The same value in every instance, made outside the run.
                        if p0.is_some_and(|q| seg_of(q).is_some()) {
                            return None;
                        }
                        if !shared.contains(&w0) && Some(w0) != carry_in {
                            shared.push(w0);
                        }
                    } else {
                        // Each instance's own weight, of the same shape.
                        let (a0, aj) = (&vals[w0], &vals[wj]);
                        let weight = |v: &super::model::Val| v.kind == Kind::Weight;
                        if !weight(a0)
                            || !weight(aj)
                            || a0.shape != aj.shape
                            || a0.declared != aj.declared
                            || a0.dtype != aj.dtype
                        {
                            return None;
                        }
                        match wmap[j].get(&w0) {
                            Some(&m) if m != wj => return None,
                            Some(_) => {}
                            None => {
                                if !wtaken[j].insert(wj) {
                                    return None;
                                }
                                wmap[j].insert(w0, wj);
                            }
                        }
                    }
                }
            }
        }
        let (carry_in, out_rel) = (carry_in?, out_rel?);
        // The carry has the shape and dtype of the output.
        let y0 = ops[a + out_rel].out;
        if vals[carry_in].shape != vals[y0].shape || vals[carry_in].dtype != vals[y0].dtype {
            return None;
        }
        if shared.contains(&carry_in) {
            shared.retain(|&s| s != carry_in);
        }
        // Each instance's weights are read by it alone; its values only by itself, but for
        // its output, read by the next instance (or after the run, for the last).
        let mut inside: HashSet<usize> = HashSet::new();
        for (w0, _) in wmap[1].iter() {
            for (j, m) in wmap.iter().enumerate() {
                let w = if j == 0 { *w0 } else { *m.get(w0)? };
                let readers = self.readers.get(&w)?;
                if readers.iter().any(|&r| seg_of(r) != Some(j))
                    || self.imp.graph_outputs.contains(&w)
                {
                    return None;
                }
                inside.insert(w);
            }
        }
        for j in 0..k {
            for p in 0..l {
                let i = a + j * l + p;
                let v = ops[i].out;
                inside.insert(v);
                let is_out = p == out_rel;
                let last = j + 1 == k;
                for &r in self.readers.get(&v).map_or(&[][..], Vec::as_slice) {
                    let ok = match seg_of(r) {
                        Some(s) if s == j => true,
                        Some(s) => is_out && s == j + 1,
                        None => is_out && last && r >= a + k * l,
                    };
                    if !ok {
                        return None;
                    }
                }
                if self.imp.graph_outputs.contains(&v) && !(is_out && last) {
                    return None;
                }
            }
        }
        // The block's own weights, named by what their names share across instances.
        let mut weights: Vec<(usize, String)> = Vec::new();
        let mut order: Vec<usize> = Vec::new();
        for p in 0..l {
            for x in &ops[a + p].args {
                if let Arg::T(v) | Arg::Tt(v) = x
                    && wmap[1].contains_key(v)
                    && !order.contains(v)
                {
                    order.push(*v);
                }
            }
        }
        let mut prefixes: HashMap<String, usize> = HashMap::new();
        let mut aligned = 0;
        for w0 in order {
            let w1 = wmap[1][&w0];
            let (name, pre, one_token) = strip(&vals[w0].name, &vals[w1].name);
            if let Some(p) = pre {
                *prefixes.entry(p).or_insert(0) += 1;
            }
            aligned += usize::from(one_token);
            weights.push((w0, name));
        }
        let prefix = prefixes
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(p, _)| p);
        let name = prefix
            // An identifier, and not a keyword or an op kind.
            .filter(|p| {
                p.len() <= 64
                    && p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                    && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && ![
                        "graph", "param", "dtype", "input", "weight", "output", "op", "block",
                        "import", "repeat", "assert",
                    ]
                    .contains(&p.as_str())
                    && crate::types::OpKind::from_name(p).is_none()
            })
            .unwrap_or_else(|| "layer".into());
        let mut dims: Vec<u32> = Vec::new();
        let mut note = |p: &super::sym::Poly| {
            for d in p.vars() {
                if !dims.contains(&d) {
                    dims.push(d);
                }
            }
        };
        for p in 0..l {
            let o = &ops[a + p];
            for v in std::iter::once(o.out).chain(o.args.iter().filter_map(|x| match x {
                Arg::T(v) | Arg::Tt(v) => Some(*v),
                Arg::Lit(_) => None,
            })) {
                for d in vals[v].shape.iter().flatten() {
                    note(d);
                }
            }
            for (_, at) in &o.attrs {
                if let super::model::Attr::P(p) = at {
                    note(p);
                }
            }
        }
        dims.sort_unstable();
        Some(Layers {
            start: a,
            len: l,
            count: k,
            name,
            carry_in,
            out_rel,
            shared,
            weights,
            inside,
            dims,
            aligned,
        })
    }
}

/// The part of two instances' weight names after where they differ (`h.0.attn.w` and
/// `h.1.attn.w` give `attn_w`), the last part before it (`h`: the block's name), and whether
/// they differ in one part only (the layer's number).
fn strip(a: &str, b: &str) -> (String, Option<String>, bool) {
    let ta: Vec<&str> = a.split(['.', '/', ':']).collect();
    let tb: Vec<&str> = b.split(['.', '/', ':']).collect();
    let pre = ta.iter().zip(&tb).take_while(|(x, y)| x == y).count();
    let suf = ta
        .iter()
        .rev()
        .zip(tb.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
        .min(ta.len() - pre.min(ta.len()));
    let rest = ta[ta.len() - suf..].join("_");
    let name = if rest.is_empty() { a.to_string() } else { rest };
    let prefix = pre.checked_sub(1).map(|i| ta[i].to_string());
    let one = ta.len() == tb.len() && pre + suf + 1 == ta.len();
    (name, prefix, one)
}
