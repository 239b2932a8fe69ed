//! Structure-aware, for blocks and repeats: the input is an arbitrary description of a file of
//! up to six blocks and two graphs, rendered to `.fgraph` text. Blocks have header params
//! with and without defaults (literals, 64-bit edges, expressions of earlier params), one or
//! two inputs, weights, elementwise ops and matmuls, body params, and instantiations (`op c =
//! bK(..)` and `repeat COUNT r = bK(..)`) of any block: earlier ones (nesting), later ones,
//! themselves and each other (recursion, cycles), or none (no such block). Instantiations pass
//! the callee's params or leave them to their defaults, pass params through (`H0 = H0`,
//! `H0 = (Q1 * 3)`), give the wrong number of tensors, a view, an unknown param; repeat counts
//! run from 0 to `i64::MAX` (negative, and over the budget of 2^21 expanded ops alone or only
//! once nested or once a param is passed); outputs are missing, doubled, an input or unknown;
//! graphs have params that `--set` overrides.
//!
//! Besides rendering, the generator counts the ops each graph would expand to, as the budget
//! of docs/language.md §13 means them: every instantiation of a known block counts its
//! instances with their real param values (a param passed, else its default, else unknown, and
//! an unknown count counts once), an instantiation inside an instance of its own block counts
//! nothing (it is not expanded), an `op` of an unknown kind counts one. Then:
//!
//! - a graph over the budget must get `limit-exceeded` and expand nothing (its report lists
//!   no op but those written in the graph itself), so the run stays within libFuzzer's
//!   `-timeout` and `-rss_limit_mb`;
//! - a file whose graphs and blocks all count within the budget must get no budget error
//!   (these two where the count is unambiguous: no block instantiates itself, directly or
//!   through others, and none is named like an op kind or like another block);
//! - a file within the limits but large (a graph or block of more than [`CAP_OPS`] ops or
//!   [`CAP_STMTS`] statements once expanded) is not checked at all: expanding it is slow by
//!   design, not a bug;
//! - everything else goes through `common::exercise` (the invariants of
//!   docs/ROBUSTNESS.md), and the rendering must parse and survive the `fmt` round trip with
//!   the same diagnostics.

#![no_main]

mod common;

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;
use std::fmt::Write as _;

const MAX_BLOCKS: usize = 6;
const MAX_HEADER: usize = 3;
const MAX_BODY: usize = 8;
const MAX_GRAPHS: usize = 2;
const BUDGET: u64 = fgraph::limits::MAX_EXPANDED_OPS;
/// Files within the budget but over this many expanded ops are skipped (slow by design).
const CAP_OPS: u64 = 3000;
/// Likewise for statements: instances that fail make no ops but statements, up to the limit.
const CAP_STMTS: u64 = 20_000;
const MAX_STMTS: u64 = 1 << 24;
/// Files over this many ops are checked but not analysed.
const CAP_ANALYSE: u64 = 100;

/// A list of at most `N` items, its length read first.
fn up_to<'a, const N: usize, T: Arbitrary<'a>>(
    u: &mut Unstructured<'a>,
) -> arbitrary::Result<Vec<T>> {
    let n = u.int_in_range(0..=N)?;
    (0..n).map(|_| u.arbitrary()).collect()
}

#[derive(Arbitrary, Debug)]
struct FileDesc {
    #[arbitrary(with = up_to::<MAX_BLOCKS, _>)]
    blocks: Vec<BlockDesc>,
    /// At least one graph.
    graph: GraphDesc,
    #[arbitrary(with = up_to::<{ MAX_GRAPHS - 1 }, _>)]
    graphs: Vec<GraphDesc>,
    /// `--set G{i % 2}=value`.
    #[arbitrary(with = up_to::<2, _>)]
    sets: Vec<(u8, Val)>,
}

#[derive(Arbitrary, Debug)]
struct BlockDesc {
    /// From 252 on, the block is named `matmul` (an op kind); 248 to 251, like block 0.
    name: u8,
    /// Header params `H0, H1, …`, each with a default or required.
    #[arbitrary(with = up_to::<MAX_HEADER, _>)]
    params: Vec<Option<Val>>,
    /// Odd: a second input.
    inputs: u8,
    /// From 128 on (and with a header param), the inputs' first dim is a header param.
    dim: u8,
    #[arbitrary(with = up_to::<MAX_BODY, _>)]
    body: Vec<BodyStmt>,
    /// Below 224 the latest tensor an op or instance produced; else none, two, an input or an
    /// unknown name.
    output: u8,
}

#[derive(Arbitrary, Debug)]
struct GraphDesc {
    /// Graph params `G0, G1, …`.
    #[arbitrary(with = up_to::<2, _>)]
    params: Vec<Val>,
    #[arbitrary(with = up_to::<MAX_BODY, _>)]
    body: Vec<BodyStmt>,
    /// Below 240 `output` the latest tensor, else no output.
    output: u8,
}

/// An integer expression, by `sel`: below 100 a small number (1 to 5, or 0 when `a` is
/// 255); 100 to 149 one of [`BIG`]; 150 to 199 a param in scope; 200 to 219 `(P * k)`; 220
/// to 239 `(P + k)`; 240 to 249 a negative number; from 250 on a param that does not exist.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Val {
    sel: u8,
    a: u8,
    b: u8,
}

const BIG: &[i64] = &[
    64,
    1000,
    1 << 20,
    (1 << 21) - 1,
    1 << 21,
    (1 << 21) + 1,
    3_000_000,
    1 << 24,
    (1 << 24) + 1,
    1 << 31,
    1 << 32,
    1 << 40,
    1 << 62,
    i64::MAX,
];

#[derive(Arbitrary, Debug)]
enum BodyStmt {
    /// `relu` of a tensor (below 160 the latest).
    Relu(u8),
    /// `add` of two tensors.
    Add(u8, u8),
    /// A `[4, 4]` weight and a matmul by it.
    Matmul(u8),
    /// `weight w: [D, 4]`.
    Weight,
    /// A body param.
    Param(Val),
    /// `op c = bK(..) -> t`.
    Call(CallDesc),
    /// `repeat COUNT r = bK(..) -> t`.
    Repeat(Val, CallDesc),
}

#[derive(Arbitrary, Debug)]
struct CallDesc {
    /// Which block: in block `i > 0`, below 240 an earlier one (nesting), else any (itself
    /// or a later one too: recursion); from 250 on, no such block.
    block: u8,
    /// The first tensor argument (below 160, the latest tensor).
    arg: u8,
    /// Below 224 as many tensors as the block has inputs; 224 to 239 one more; 240 to 247
    /// one fewer; from 248 on, the first is a view `t[0]`.
    arity: u8,
    /// For each header param of the callee: below 24 left out, 24 to 127 the caller's first
    /// dim (so that shapes fit), else the value.
    pass: [(u8, Val); MAX_HEADER],
    /// From 240 on, an unknown param `ZZ = 1` too.
    extra: u8,
}

/// An integer expression in the model: how the generator knows what a count or a param is.
#[derive(Clone, Debug)]
enum Expr {
    Lit(i64),
    Ref(String),
    Mul(String, i64),
    Add(String, i64),
}

type Env = HashMap<String, Option<i64>>;

impl Expr {
    /// As `sema::expr::eval` gives it: `None` for an unknown or valueless param and on
    /// overflow.
    fn eval(&self, env: &Env) -> Option<i64> {
        let get = |n: &str| env.get(n).copied().flatten();
        match self {
            Expr::Lit(v) => Some(*v),
            Expr::Ref(n) => get(n),
            Expr::Mul(n, k) => get(n)?.checked_mul(*k),
            Expr::Add(n, k) => get(n)?.checked_add(*k),
        }
    }
}

/// A statement of a body, as the model counts it.
#[derive(Debug)]
enum MStmt {
    Op,
    Param(String, Expr),
    /// An instantiation: the callee (an index into the blocks, `None` for no such block), the
    /// count (`None` for `op c = ..`), the params passed.
    Call {
        callee: Option<usize>,
        count: Option<Expr>,
        attrs: Vec<(String, Expr)>,
    },
}

#[derive(Debug, Default)]
struct MBlock {
    header: Vec<(String, Option<Expr>)>,
    stmts: Vec<MStmt>,
    /// Statements an instance emits besides its instances' (as the budget counts them).
    emitted: u64,
}

/// Expanded ops, instances and statements (saturating).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Count {
    ops: u64,
    instances: u64,
    stmts: u64,
}

impl Count {
    fn add(self, o: Count) -> Count {
        Count {
            ops: self.ops.saturating_add(o.ops),
            instances: self.instances.saturating_add(o.instances),
            stmts: self.stmts.saturating_add(o.stmts),
        }
    }
    fn times(self, n: u64) -> Count {
        Count {
            ops: self.ops.saturating_mul(n),
            instances: self.instances.saturating_mul(n),
            stmts: self.stmts.saturating_mul(n),
        }
    }
}

struct Model<'m> {
    blocks: &'m [MBlock],
    /// Memo by (block, header values) for call trees without recursion.
    memo: HashMap<(usize, Vec<Option<i64>>), Count>,
    steps: u64,
}

impl Model<'_> {
    /// What one body makes, its params starting as `env`, inside instances of `path`.
    fn body(&mut self, stmts: &[MStmt], mut env: Env, path: &mut Vec<usize>) -> (Count, bool) {
        let mut total = Count::default();
        let mut cut = false;
        for st in stmts {
            self.steps += 1;
            match st {
                MStmt::Op => total.ops = total.ops.saturating_add(1),
                MStmt::Param(name, e) => {
                    let v = e.eval(&env);
                    env.entry(name.clone()).or_insert(v);
                }
                MStmt::Call {
                    callee,
                    count,
                    attrs,
                } => {
                    let Some(b) = *callee else {
                        // `op c = nope(..)` is an op of an unknown kind; a repeat of no block
                        // makes nothing.
                        if count.is_none() {
                            total.ops = total.ops.saturating_add(1);
                        }
                        continue;
                    };
                    let n = match count {
                        None => 1,
                        Some(e) => e.eval(&env).map_or(1, |n| u64::try_from(n).unwrap_or(0)),
                    };
                    if path.contains(&b) {
                        // Inside an instance of itself: not expanded.
                        cut = true;
                        continue;
                    }
                    if n == 0 || self.steps > 1_000_000 {
                        continue;
                    }
                    let values: Vec<(String, Option<i64>)> = attrs
                        .iter()
                        .map(|(k, e)| (k.clone(), e.eval(&env)))
                        .collect();
                    let (c, c_cut) = self.block(b, &values, path);
                    cut |= c_cut;
                    total = total.add(c.times(n));
                }
            }
        }
        (total, cut)
    }

    /// What one instance of block `b` makes, with the params `given`.
    fn block(
        &mut self,
        b: usize,
        given: &[(String, Option<i64>)],
        path: &mut Vec<usize>,
    ) -> (Count, bool) {
        let blocks = self.blocks;
        let block = &blocks[b];
        let mut env = Env::new();
        for (name, default) in &block.header {
            let v = match given.iter().find(|(k, _)| k == name) {
                Some((_, v)) => *v,
                None => default.as_ref().and_then(|d| d.eval(&env)),
            };
            env.insert(name.clone(), v);
        }
        let key = (
            b,
            block.header.iter().map(|(n, _)| env[n]).collect::<Vec<_>>(),
        );
        if let Some(&c) = self.memo.get(&key) {
            return (c, false);
        }
        path.push(b);
        let (mut c, cut) = self.body(&block.stmts, env, path);
        path.pop();
        c.instances = c.instances.saturating_add(1);
        c.stmts = c.stmts.saturating_add(block.emitted);
        // A count that met an instance of an enclosing block depends on the path.
        if !cut {
            self.memo.insert(key, c);
        }
        (c, cut)
    }
}

/// Whether some block instantiates itself, directly or through others. Where one does, the
/// count of an instance depends on the instances around it in ways the model does not follow
/// exactly (a count memoised in one place may be cut in another), so the budget is not
/// compared with it.
fn cyclic(blocks: &[MBlock]) -> bool {
    fn reaches(blocks: &[MBlock], from: usize, to: usize, seen: &mut Vec<bool>) -> bool {
        blocks[from].stmts.iter().any(|st| match st {
            MStmt::Call {
                callee: Some(c), ..
            } => {
                *c == to
                    || (!seen[*c] && {
                        seen[*c] = true;
                        reaches(blocks, *c, to, seen)
                    })
            }
            _ => false,
        })
    }
    (0..blocks.len()).any(|b| reaches(blocks, b, b, &mut vec![false; blocks.len()]))
}

/// The number `v` stands for where only a number will do (`--set`), and where it is one.
fn literal(v: Val) -> i64 {
    match v.sel {
        0..=99 if v.a == 255 => 0,
        0..=99 => i64::from(1 + v.a % 5),
        100..=239 => BIG[usize::from(v.a) % BIG.len()],
        _ => -i64::from(1 + v.a % 3),
    }
}

/// One rendered body (a block's or a graph's): its text, tensors and params.
struct Body<'d> {
    out: String,
    /// Tensors in order; the last is the latest.
    tensors: Vec<String>,
    /// Params in scope, by name.
    params: Vec<String>,
    /// The first dim of every tensor (`4` or a header param).
    dim: String,
    n: usize,
    model: Vec<MStmt>,
    blocks: &'d [BlockInfo],
    /// The block this body is (`None` for a graph).
    own: Option<usize>,
    /// The latest tensor an op or instance produced.
    produced: Option<String>,
    /// Statements written but inputs, outputs and instantiations.
    emitted: usize,
}

/// What a caller needs to know of a block.
struct BlockInfo {
    name: String,
    params: usize,
    inputs: usize,
}

impl Body<'_> {
    fn val(&self, v: Val) -> (String, Expr) {
        let param = |i: u8| -> Option<String> {
            (!self.params.is_empty())
                .then(|| self.params[usize::from(i) % self.params.len()].clone())
        };
        let lit = |n: i64| (n.to_string(), Expr::Lit(n));
        let (a, b) = (v.a, v.b);
        match v.sel {
            0..=99 => lit(literal(v)),
            100..=149 => lit(literal(v)),
            150..=199 => match param(a) {
                Some(p) => (p.clone(), Expr::Ref(p)),
                None => lit(i64::from(1 + a % 4)),
            },
            200..=219 => {
                let k = i64::from(1 + b % 4);
                match param(a) {
                    Some(p) => (format!("({p} * {k})"), Expr::Mul(p, k)),
                    None => lit(k),
                }
            }
            220..=239 => {
                let k = i64::from(b % 4);
                match param(a) {
                    Some(p) => (format!("({p} + {k})"), Expr::Add(p, k)),
                    None => lit(k),
                }
            }
            240..=249 => {
                let n = i64::from(1 + a % 3);
                (format!("-{n}"), Expr::Lit(-n))
            }
            _ => ("ZZ".to_string(), Expr::Ref("ZZ".to_string())),
        }
    }

    fn tensor(&self, i: u8) -> String {
        if i < 160 {
            self.tensors.last().expect("an input").clone()
        } else {
            self.tensors[usize::from(i) % self.tensors.len()].clone()
        }
    }

    fn stmt(&mut self, st: &BodyStmt) {
        let k = self.n;
        self.n += 1;
        let t = format!("t{k}");
        match st {
            BodyStmt::Relu(a) => {
                self.emitted += 1;
                let a = self.tensor(*a);
                let _ = writeln!(self.out, "  op o{k} = elementwise.relu({a}) -> {t}");
                self.model.push(MStmt::Op);
            }
            BodyStmt::Add(a, b) => {
                self.emitted += 1;
                let (a, b) = (self.tensor(*a), self.tensor(*b));
                let _ = writeln!(self.out, "  op o{k} = elementwise.add({a}, {b}) -> {t}");
                self.model.push(MStmt::Op);
            }
            BodyStmt::Matmul(a) => {
                self.emitted += 2;
                let a = self.tensor(*a);
                let _ = writeln!(self.out, "  weight m{k}: [4, 4]");
                let _ = writeln!(self.out, "  op o{k} = matmul({a}, m{k}) -> {t}");
                self.model.push(MStmt::Op);
            }
            BodyStmt::Weight => {
                self.emitted += 1;
                let _ = writeln!(self.out, "  weight w{k}: [{}, 4]", self.dim);
                self.tensors.push(format!("w{k}"));
                return;
            }
            BodyStmt::Param(v) => {
                self.emitted += 1;
                let (text, e) = self.val(*v);
                let name = format!("Q{k}");
                let _ = writeln!(self.out, "  param {name} = {text}");
                self.model.push(MStmt::Param(name.clone(), e));
                self.params.push(name);
                return;
            }
            BodyStmt::Call(c) => {
                let call = self.call(c);
                if matches!(self.model.last(), Some(MStmt::Call { callee: None, .. })) {
                    // An op of an unknown kind.
                    self.emitted += 1;
                }
                let _ = writeln!(self.out, "  op c{k} = {call} -> {t}");
            }
            BodyStmt::Repeat(n, c) => {
                let (count, e) = self.val(*n);
                let call = self.call(c);
                if let Some(MStmt::Call { count, .. }) = self.model.last_mut() {
                    *count = Some(e);
                }
                let _ = writeln!(self.out, "  repeat {count} r{k} = {call} -> {t}");
            }
        }
        self.produced = Some(t.clone());
        self.tensors.push(t);
    }

    /// `bK(args, params)`; pushes its model statement.
    fn call(&mut self, c: &CallDesc) -> String {
        let blocks = self.blocks;
        let callee = match (c.block, self.own) {
            (250.., _) => None,
            (0..240, Some(i)) if i > 0 => Some(usize::from(c.block) % i),
            _ if blocks.is_empty() => None,
            _ => Some(usize::from(c.block) % blocks.len()),
        };
        let (name, inputs, params) = match callee {
            Some(b) => (blocks[b].name.as_str(), blocks[b].inputs, blocks[b].params),
            None => ("nope", 1, 0),
        };
        let n = match c.arity {
            0..=223 => inputs,
            224..=239 => inputs + 1,
            240..=247 => inputs.saturating_sub(1),
            _ => inputs,
        };
        let mut args: Vec<String> = (0..n)
            .map(|i| {
                if i == 0 {
                    self.tensor(c.arg)
                } else {
                    self.tensors[0].clone()
                }
            })
            .collect();
        if c.arity >= 248
            && let Some(a) = args.first_mut()
        {
            a.push_str("[0]");
        }
        let mut attrs = Vec::new();
        for (j, (sel, v)) in c.pass.iter().enumerate().take(params) {
            let name = format!("H{j}");
            let (text, e) = match sel {
                0..=23 => continue,
                24..=127 => {
                    let d = self.dim.clone();
                    let e = if d == "4" {
                        Expr::Lit(4)
                    } else {
                        Expr::Ref(d.clone())
                    };
                    (d, e)
                }
                _ => self.val(*v),
            };
            args.push(format!("{name} = {text}"));
            attrs.push((name, e));
        }
        if c.extra >= 240 {
            args.push("ZZ = 1".to_string());
        }
        self.model.push(MStmt::Call {
            callee,
            count: None,
            attrs,
        });
        format!("{name}({})", args.join(", "))
    }
}

/// Blocks' names and signatures, and whether the model is exact for them (no block named
/// like an op kind or like another block).
fn infos(file: &FileDesc) -> (Vec<BlockInfo>, bool) {
    let mut exact = true;
    let infos = file
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let name = match b.name {
                252.. => {
                    exact = false;
                    "matmul".to_string()
                }
                248..=251 if i > 0 => {
                    exact = false;
                    "b0".to_string()
                }
                _ => format!("b{i}"),
            };
            BlockInfo {
                name,
                params: b.params.len(),
                inputs: 1 + usize::from(b.inputs & 1),
            }
        })
        .collect();
    (infos, exact)
}

fn render_block(
    i: usize,
    b: &BlockDesc,
    info: &BlockInfo,
    blocks: &[BlockInfo],
) -> (String, MBlock) {
    let mut body = Body {
        out: String::new(),
        tensors: Vec::new(),
        params: Vec::new(),
        dim: "4".to_string(),
        n: 0,
        model: Vec::new(),
        blocks,
        own: Some(i),
        produced: None,
        emitted: 0,
    };
    let mut header = Vec::new();
    let mut mheader = Vec::new();
    for (j, default) in b.params.iter().enumerate() {
        let name = format!("H{j}");
        match default {
            Some(v) => {
                let (text, e) = body.val(*v);
                header.push(format!("{name} = {text}"));
                mheader.push((name.clone(), Some(e)));
            }
            None => {
                header.push(name.clone());
                mheader.push((name.clone(), None));
            }
        }
        body.params.push(name);
    }
    if b.dim >= 128 && !b.params.is_empty() {
        body.dim = format!("H{}", usize::from(b.dim) % b.params.len());
    }
    let _ = writeln!(body.out, "block {}({}) {{", info.name, header.join(", "));
    for i in 0..info.inputs {
        let _ = writeln!(body.out, "  input x{i}: [{}, 4]", body.dim);
        body.tensors.push(format!("x{i}"));
    }
    for st in &b.body {
        body.stmt(st);
    }
    let latest = body.produced.clone().unwrap_or_else(|| "x0".to_string());
    match b.output {
        0..=223 => {
            let _ = writeln!(body.out, "  output {latest}");
        }
        224..=231 => {}
        232..=239 => {
            let _ = writeln!(body.out, "  output {latest}, x0");
        }
        240..=247 => {
            let _ = writeln!(body.out, "  output x0");
        }
        _ => {
            let _ = writeln!(body.out, "  output nope");
        }
    }
    body.out.push_str("}\n\n");
    (
        body.out,
        MBlock {
            emitted: (body.emitted + b.params.len() + 2) as u64,
            header: mheader,
            stmts: body.model,
        },
    )
}

/// A graph's text, its model, and its params with the values `--set` gives them.
fn render_graph(
    i: usize,
    g: &GraphDesc,
    blocks: &[BlockInfo],
    sets: &HashMap<String, i64>,
) -> (String, Vec<MStmt>) {
    let mut body = Body {
        out: String::new(),
        tensors: vec!["x0".to_string()],
        params: Vec::new(),
        dim: "4".to_string(),
        n: 0,
        model: Vec::new(),
        blocks,
        own: None,
        produced: None,
        emitted: 0,
    };
    let _ = writeln!(body.out, "graph g{i} {{");
    for (j, v) in g.params.iter().enumerate() {
        let name = format!("G{j}");
        let (text, e) = body.val(*v);
        let _ = writeln!(body.out, "  param {name} = {text}");
        let e = sets.get(&name).map_or(e, |&o| Expr::Lit(o));
        body.model.push(MStmt::Param(name.clone(), e));
        body.params.push(name);
    }
    let _ = writeln!(body.out, "  input x0: [4, 4]");
    for st in &g.body {
        body.stmt(st);
    }
    if g.output < 240 {
        let latest = body.tensors.last().expect("x0").clone();
        let _ = writeln!(body.out, "  output {latest}");
    }
    body.out.push_str("}\n\n");
    (body.out, body.model)
}

fn is_budget_error(d: &fgraph::Diagnostic) -> bool {
    d.code == fgraph::Code::LimitExceeded && d.message.contains(" ops, over the limit")
}

fuzz_target!(|file: FileDesc| {
    let (infos, exact) = infos(&file);
    let mut src = String::new();
    let mut mblocks = Vec::new();
    for (i, (b, info)) in file.blocks.iter().zip(&infos).enumerate() {
        let (text, m) = render_block(i, b, info, &infos);
        src.push_str(&text);
        mblocks.push(m);
    }
    let mut opts = fgraph::Options::default();
    let mut sets = HashMap::new();
    for (i, v) in &file.sets {
        let value = literal(*v);
        let name = format!("G{}", i % 2);
        opts.overrides.insert(name.clone(), value);
        sets.insert(name, value);
    }
    let mut graphs = Vec::new();
    for (i, g) in std::iter::once(&file.graph).chain(&file.graphs).enumerate() {
        let (text, m) = render_graph(i, g, &infos, &sets);
        src.push_str(&text);
        graphs.push(m);
    }

    // The model: what each graph, and each block on its own (with its defaults), expands to.
    let mut model = Model {
        blocks: &mblocks,
        memo: HashMap::new(),
        steps: 0,
    };
    let per_graph: Vec<Count> = graphs
        .iter()
        .map(|g| model.body(g, Env::new(), &mut Vec::new()).0)
        .collect();
    let standalone: Vec<Count> = mblocks
        .iter()
        .map(|b| {
            let mut env = Env::new();
            for (name, default) in &b.header {
                let v = default.as_ref().and_then(|d| d.eval(&env));
                env.insert(name.clone(), v);
            }
            model.body(&b.stmts, env, &mut Vec::new()).0
        })
        .collect();
    // The ops written in each graph itself (an `op` of no known block counts as one).
    let literal_ops: Vec<usize> = graphs
        .iter()
        .map(|g| {
            g.iter()
                .filter(|st| {
                    matches!(
                        st,
                        MStmt::Op
                            | MStmt::Call {
                                callee: None,
                                count: None,
                                ..
                            }
                    )
                })
                .count()
        })
        .collect();
    let all = per_graph.iter().chain(&standalone);
    let within = all.clone().all(|c| c.ops <= BUDGET);
    // Within the limits but large: slow by design, skipped.
    let large = all.clone().any(|c| {
        (c.ops <= BUDGET && c.ops > CAP_OPS) || (c.stmts <= MAX_STMTS && c.stmts > CAP_STMTS)
    });
    if std::env::var_os("FGRAPH_FUZZ_PRINT").is_some() {
        eprintln!("// fuzz-options: {}\n{src}", {
            let mut s: Vec<String> = sets.iter().map(|(k, v)| format!("set {k}={v}")).collect();
            s.sort();
            s.join(", ")
        });
        eprintln!(
            "-- graphs {per_graph:?}, blocks {standalone:?}, exact {exact}, cyclic {}, large \
             {large}",
            cyclic(&mblocks)
        );
    }
    if large || model.steps > 1_000_000 {
        return;
    }

    let report = fgraph::check_file("blocks.fgraph", src.as_bytes(), &opts);
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.code != fgraph::Code::SyntaxError),
        "rendered source does not parse:\n{src}\n{:#?}",
        report.diagnostics
    );
    if exact && !cyclic(&mblocks) {
        for ((g, c), written) in report.graphs.iter().zip(&per_graph).zip(&literal_ops) {
            if c.ops > BUDGET {
                // Over the budget: reported, and nothing expanded.
                assert!(
                    report.diagnostics.iter().any(is_budget_error),
                    "graph {} makes {} ops, and no budget error:\n{src}\n{:#?}",
                    g.name,
                    c.ops,
                    report.diagnostics
                );
                assert!(
                    g.written_ops.len() <= *written,
                    "graph {} is over the budget ({} ops) but {} ops were expanded:\n{src}",
                    g.name,
                    c.ops,
                    g.written_ops.len()
                );
            }
        }
        if within {
            assert!(
                !report.diagnostics.iter().any(is_budget_error),
                "every graph and block is within the budget ({per_graph:?}, {standalone:?}), \
                 yet:\n{src}\n{:#?}",
                report.diagnostics
            );
        }
    }
    if !within {
        return;
    }
    let ops: u64 = per_graph.iter().map(|c| c.ops).sum();
    if ops <= CAP_ANALYSE {
        common::exercise(&report, None);
    } else {
        common::render_diagnostics(&report, false);
    }
    // `fmt` keeps every diagnostic.
    let formatted = fgraph::format::format_source(&src).expect("rendered source formats");
    let again = fgraph::check_file("blocks.fgraph", formatted.as_bytes(), &opts);
    let codes = |r: &fgraph::FileReport| {
        let mut c: Vec<&str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
        c.sort_unstable();
        c
    };
    assert_eq!(
        codes(&report),
        codes(&again),
        "fmt changed the diagnostics:\n{src}\n{formatted}"
    );
});
