; Highlights for fgraph's `.fgraph` files. Capture names are those of Neovim (0.10+) and
; nvim-treesitter; Helix and Zed read the common ones (@keyword, @function, @type, @variable,
; @property, @number, @string, @comment, @operator, @punctuation.*).
; tests/tree_sitter.rs compiles this query against the grammar.

(comment) @comment @spell

[
  "graph"
  "block"
  "param"
  "dtype"
  "input"
  "weight"
  "output"
  "op"
  "repeat"
  "assert"
  "not"
  "parallel"
] @keyword

"import" @keyword.import

(path) @string.special.path

; Names and what they are.
(graph name: (identifier) @module)
(block name: (identifier) @type.definition)
(block_parameter name: (identifier) @variable.parameter)
(param name: (identifier) @variable.parameter)
(dtype name: (identifier) @type.builtin)
(type dtype: (identifier) @type.builtin)
(declaration name: (identifier) @variable)
(output tensor: (identifier) @variable)

; `op NAME = KIND.FUNCTION(..) -> OUTPUT`: KIND is an op kind or a block.
(op name: (identifier) @function)
(op kind: (identifier) @type)
(op function: (identifier) @function.method.call)
(op output: (identifier) @variable)

(repeat name: (identifier) @function)
(repeat block: (identifier) @type)
(repeat output: (identifier) @variable)

; `parallel KIND GROUP = SIZE { ROLE weights  SETTING = value }` (issue 25).
(parallel kind: (identifier) @type.builtin)
(parallel group: (identifier) @constant)
(parallel_item role: (identifier) @keyword.modifier)
(parallel_item weight: (identifier) @variable)
(parallel_item setting: (identifier) @property)

(tensor_argument name: (identifier) @variable)
(attribute name: (identifier) @property)

(predicate name: (identifier) @function.builtin)
(predicate argument: (identifier) @variable)
(comparison measure: (identifier) @function.builtin)
(unit) @constant.builtin

; Names in integer expressions are params, but for a dtype as a block param's value
; (`D = bf16`).
((name) @variable.parameter
  (#not-match? @variable.parameter "^(f64|f32|tf32|bf16|f16|fp8|f8e4m3|f8e5m2|i64|i32|i16|i8|u8|bool)$"))
((name) @type.builtin
  (#match? @type.builtin "^(f64|f32|tf32|bf16|f16|fp8|f8e4m3|f8e5m2|i64|i32|i16|i8|u8|bool)$"))

; Literals and operators.
(integer) @number
(number) @number
(float) @number.float
(boolean) @boolean

(transpose) @operator
[
  "->"
  "="
  "+"
  "-"
  "*"
  "/"
  "%"
  "<="
  ">="
  "=="
  "<"
  ">"
] @operator
"div" @keyword.operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ":"] @punctuation.delimiter
"." @punctuation.delimiter
