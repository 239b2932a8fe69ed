//! The owned, spanned syntax tree. Names borrow from the source; nothing here is a pest type.

use crate::diagnostics::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident<'s> {
    pub name: &'s str,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct File<'s> {
    pub graphs: Vec<GraphAst<'s>>,
    /// `block NAME(params) { ... }`: reusable pieces of graph, instantiated by graphs.
    pub blocks: Vec<BlockAst<'s>>,
    /// `import "path"`, in source order.
    pub imports: Vec<ImportAst<'s>>,
    /// `// fgraph: allow(CODE)` comments with the span of what they silence.
    pub allows: Vec<Allow>,
    /// Every code named in an allow comment, with its place, attached to a statement or not
    /// (so that a misspelt code can be reported).
    pub allow_codes: Vec<(String, Span)>,
}

/// A silenced warning code and the span (statement or whole graph) it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allow {
    pub code: String,
    pub scope: Span,
}

#[derive(Debug)]
pub struct GraphAst<'s> {
    pub name: Ident<'s>,
    pub stmts: Stmts<'s>,
    pub span: Span,
}

/// A block: a graph with parameters that other graphs (and blocks) instantiate. Its body is
/// a graph's: params, dtypes, inputs (bound to the instantiation's tensor arguments), weights
/// (one set per instance), ops, nested instantiations and one output.
#[derive(Debug)]
pub struct BlockAst<'s> {
    pub name: Ident<'s>,
    pub params: Vec<BlockParam<'s>>,
    pub stmts: Stmts<'s>,
    /// From `block` to its closing brace.
    pub span: Span,
}

/// A parameter of a block's header: `S` (required), `NH = 32` (with a default), `D = bf16` (a
/// dtype: the default names one), `eps = 1e-5` (a float) or `causal = true` (a boolean).
#[derive(Debug)]
pub struct BlockParam<'s> {
    pub name: Ident<'s>,
    /// An integer expression, a dtype's name, or a boolean ([`Expr::Bool`]).
    pub default: Option<Expr<'s>>,
    /// A float default (`eps = 1e-5`); `default` is then `None`.
    pub float: Option<Literal<'s>>,
}

impl BlockParam<'_> {
    /// Whether every instantiation must give it (it has no default).
    pub fn required(&self) -> bool {
        self.default.is_none() && self.float.is_none()
    }
}

/// `import "path"`: the blocks of another file.
#[derive(Debug)]
pub struct ImportAst<'s> {
    /// The path as written, without its quotes.
    pub path: &'s str,
    /// The whole statement.
    pub span: Span,
    /// The quoted path.
    pub path_span: Span,
}

/// A graph's statements in source order, kept in the pieces the parser made them in: a
/// parallel parse splices its pieces without copying them (50 ms at 1M statements).
#[derive(Default)]
pub struct Stmts<'s> {
    pieces: Vec<Vec<Stmt<'s>>>,
    len: usize,
}

impl<'s> Stmts<'s> {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Stmt<'s>> {
        self.pieces.iter().flatten()
    }
    pub fn get(&self, mut i: usize) -> Option<&Stmt<'s>> {
        for piece in &self.pieces {
            if i < piece.len() {
                return piece.get(i);
            }
            i -= piece.len();
        }
        None
    }
    pub fn first(&self) -> Option<&Stmt<'s>> {
        self.get(0)
    }
    pub fn push(&mut self, stmt: Stmt<'s>) {
        match self.pieces.last_mut() {
            Some(piece) => piece.push(stmt),
            None => self.pieces.push(vec![stmt]),
        }
        self.len += 1;
    }
    /// Moves `other`'s statements after these, without copying them.
    pub fn append(&mut self, other: Stmts<'s>) {
        self.len += other.len;
        self.pieces
            .extend(other.pieces.into_iter().filter(|p| !p.is_empty()));
    }
}

impl<'s> From<Vec<Stmt<'s>>> for Stmts<'s> {
    fn from(stmts: Vec<Stmt<'s>>) -> Self {
        Stmts {
            len: stmts.len(),
            pieces: vec![stmts],
        }
    }
}

impl<'s> std::ops::Index<usize> for Stmts<'s> {
    type Output = Stmt<'s>;
    fn index(&self, i: usize) -> &Stmt<'s> {
        match self.get(i) {
            Some(s) => s,
            None => panic!("statement {i} of {}", self.len),
        }
    }
}

impl<'a, 's> IntoIterator for &'a Stmts<'s> {
    type Item = &'a Stmt<'s>;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Vec<Stmt<'s>>>>;
    fn into_iter(self) -> Self::IntoIter {
        self.pieces.iter().flatten()
    }
}

/// Printed as one list, however it is split.
impl std::fmt::Debug for Stmts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[derive(Debug)]
pub struct Stmt<'s> {
    pub kind: StmtKind<'s>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalKind {
    Input,
    Weight,
}

impl ExternalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ExternalKind::Input => "input",
            ExternalKind::Weight => "weight",
        }
    }
}

#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // ops are inline on purpose, see below
pub enum StmtKind<'s> {
    // Rare parts are boxed: statements are kept for a whole graph, and `Stmt` is as large
    // as its largest variant. Ops are the common statement and are stored inline, with up
    // to two arguments, so that parsing one allocates nothing (a box per op costs an
    // allocation and its header).
    Param {
        name: Ident<'s>,
        value: Box<Expr<'s>>,
    },
    Dtype(Ident<'s>),
    Decl {
        external: ExternalKind,
        name: Ident<'s>,
        ty: Box<TypeAst<'s>>,
    },
    Output(Vec<Ident<'s>>),
    Op(OpStmt<'s>),
    /// `repeat N name = block(args) -> out`.
    Repeat(Box<RepeatStmt<'s>>),
    /// `assert fused(a, b)`, `assert kernels <= 9`: a fact about the fusion plan, checked by
    /// [`crate::analysis::assertions`].
    Assert(Box<AssertStmt<'s>>),
    /// `parallel tensor tp = 8 { column wq  row wo }`: how the graph is sharded over a group
    /// of GPUs (issue 25, `crate::parallel`).
    Parallel(Box<ParallelStmt<'s>>),
}

/// `parallel KIND GROUP = SIZE { ROLE name, name  SETTING = value }`: a group of GPUs and what
/// is divided over it. Kinds, roles and settings are kept as written and checked by
/// `crate::parallel`, as kinds and dtypes are checked after parsing.
#[derive(Debug)]
pub struct ParallelStmt<'s> {
    /// `tensor`, `expert` or `pipeline`.
    pub kind: Ident<'s>,
    /// The group's name: the `group =` of the collectives it inserts.
    pub group: Ident<'s>,
    pub size: Expr<'s>,
    pub items: Vec<ParallelItem<'s>>,
}

/// One item of a `parallel` section.
#[derive(Debug)]
pub enum ParallelItem<'s> {
    /// `column wq, wk`: a role and the weights (or, for `layers`, the repeat) it covers.
    Role {
        role: Ident<'s>,
        names: Vec<Ident<'s>>,
    },
    /// `stage = 1`.
    Setting { name: Ident<'s>, value: Expr<'s> },
}

/// `assert PREDICATE(names)`, `assert not PREDICATE(names)` or `assert MEASURE CMP VALUE
/// [UNIT]`. Predicate, measure and unit are kept as written and checked by
/// [`crate::analysis::assertions`], as kinds and dtypes are checked after parsing.
#[derive(Debug)]
pub struct AssertStmt<'s> {
    pub kind: AssertKind<'s>,
    /// Set by block expansion: the index of the instance (in `Expansion::instances`) whose
    /// block holds the assertion; `None` for a graph's own.
    pub instance: Option<usize>,
}

#[derive(Debug)]
pub enum AssertKind<'s> {
    /// `fused(a, b)`, `not materialized(t)`.
    Predicate {
        /// The span of `not`, when negated.
        not: Option<Span>,
        name: Ident<'s>,
        args: Vec<Ident<'s>>,
        /// The names as written in the source: in an instance of a block, `args` are renamed
        /// to the instance's names (`layers.3.proj`), and messages quote these.
        written: Vec<&'s str>,
    },
    /// `kernels <= 9`, `traffic < 300 MB`.
    Compare {
        measure: Ident<'s>,
        op: CmpOp,
        op_span: Span,
        value: Expr<'s>,
        unit: Option<Ident<'s>>,
    },
}

/// The comparison of an assertion's measure with its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Le,
    Lt,
    Eq,
    Ge,
    Gt,
}

impl CmpOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Eq => "==",
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
        }
    }
    pub fn from_symbol(s: &str) -> Option<CmpOp> {
        Some(match s {
            "<=" => CmpOp::Le,
            "<" => CmpOp::Lt,
            "==" => CmpOp::Eq,
            ">=" => CmpOp::Ge,
            ">" => CmpOp::Gt,
            _ => return None,
        })
    }
    /// Whether `actual OP bound` holds.
    pub fn holds<T: Ord>(self, actual: T, bound: T) -> bool {
        match self {
            CmpOp::Le => actual <= bound,
            CmpOp::Lt => actual < bound,
            CmpOp::Eq => actual == bound,
            CmpOp::Ge => actual >= bound,
            CmpOp::Gt => actual > bound,
        }
    }
}

/// `repeat COUNT name = BLOCK(args) -> output`: COUNT instances of BLOCK, named `name.0` to
/// `name.{COUNT-1}`, each one's output threaded into the next one's first tensor argument.
#[derive(Debug)]
pub struct RepeatStmt<'s> {
    pub count: Expr<'s>,
    pub name: Ident<'s>,
    pub block: Ident<'s>,
    pub args: Vec<Arg<'s>>,
    pub output: Ident<'s>,
}

#[derive(Debug)]
pub struct OpStmt<'s> {
    pub name: Ident<'s>,
    pub kind: Ident<'s>,
    pub func: Option<Ident<'s>>,
    /// Up to two arguments are stored in the statement itself (no allocation each).
    pub args: smallvec::SmallVec<[Arg<'s>; 2]>,
    pub output: Ident<'s>,
    pub ty: Option<Box<TypeAst<'s>>>,
}

#[derive(Debug)]
pub enum Arg<'s> {
    Attr {
        name: Ident<'s>,
        value: Expr<'s>,
    },
    Tensor(TensorArg<'s>),
    /// A numeric literal in a tensor's place (`elementwise.mul(x, 0.125)`): a scalar
    /// constant, not a tensor.
    Scalar(Literal<'s>),
    /// An attribute with a fractional or exponent value: `eps = 1e-5`.
    FloatAttr {
        name: Ident<'s>,
        value: Literal<'s>,
    },
    /// An attribute whose value is a list of integer expressions: `dims = [0, 2, 1, 3]`.
    ListAttr {
        name: Ident<'s>,
        items: Vec<Expr<'s>>,
        span: Span,
    },
}

impl<'s> Arg<'s> {
    /// The attribute's name, for the three attribute forms.
    pub fn attr_name(&self) -> Option<&Ident<'s>> {
        match self {
            Arg::Attr { name, .. } | Arg::FloatAttr { name, .. } | Arg::ListAttr { name, .. } => {
                Some(name)
            }
            Arg::Tensor(_) | Arg::Scalar(_) => None,
        }
    }
}

/// A numeric literal kept as written (`1e-5`, `-1.5`, `2`): printed back exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Literal<'s> {
    pub text: &'s str,
    pub span: Span,
}

#[derive(Debug)]
pub struct TensorArg<'s> {
    pub name: Ident<'s>,
    pub index: Option<Box<Expr<'s>>>,
    pub transpose: bool,
    pub span: Span,
}

#[derive(Debug)]
pub struct TypeAst<'s> {
    pub dtype: Option<Ident<'s>>,
    pub dims: Vec<Expr<'s>>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `/`: exact division (a remainder is `inexact-division`).
    Div,
    /// `%`: the remainder of floor division, with the divisor's sign (Python's `%`).
    Rem,
    /// `div`: floor division, rounding toward negative infinity (Python's `//`).
    FloorDiv,
}

/// Integer expressions. Operator chains are flat lists, evaluated left to right, so the depth
/// of the tree is bounded by parentheses alone (and those by the nesting limit).
#[derive(Debug)]
pub enum Expr<'s> {
    /// `None` when the literal does not fit in an i64.
    Int {
        value: Option<i64>,
        span: Span,
    },
    Name(Ident<'s>),
    /// `negations` leading minus signs applied to `operand`.
    Neg {
        negations: usize,
        operand: Box<Expr<'s>>,
        span: Span,
    },
    Chain {
        first: Box<Expr<'s>>,
        rest: Vec<(BinOp, Span, Expr<'s>)>,
        span: Span,
    },
    /// `true` or `false`, only as the whole value of an attribute (`causal = true`): an op
    /// stores it as 1 or 0; anywhere an integer is needed it is an error.
    Bool {
        value: bool,
        span: Span,
    },
}

impl Expr<'_> {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int { span, .. }
            | Expr::Neg { span, .. }
            | Expr::Chain { span, .. }
            | Expr::Bool { span, .. } => *span,
            Expr::Name(id) => id.span,
        }
    }
}
