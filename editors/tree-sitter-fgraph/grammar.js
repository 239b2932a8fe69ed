/**
 * @file Tree-sitter grammar for fgraph's `.fgraph` GPU graph files.
 *
 * Kept in step with the pest grammar, grammar/fgraph.pest (the language fgraph itself
 * parses): tests/tree_sitter.rs parses every shipped `.fgraph` file and every fixture that
 * fgraph parses, and checks that this grammar finds no error in them. Where the pest grammar
 * leans on lowering (reserved words as names, non-ASCII names, parenthesis depth), this
 * grammar is more lenient: a file fgraph rejects for those reasons may parse here.
 *
 * Regenerate src/ after an edit, in this folder: `tree-sitter generate --abi 14` with
 * tree-sitter CLI 0.27.1; see README.md.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const PREC = {
  additive: 1,
  multiplicative: 2,
  unary: 3,
};

/** `rule` once, then `, rule` any number of times. */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

module.exports = grammar({
  name: 'fgraph',

  // pest's WHITESPACE: space, \t to \r, and `//` comments.
  extras: $ => [/[ \t\n\x0B\f\r]/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat(choice($.graph, $.block, $.import)),

    comment: _ => token(seq('//', /[^\n]*/)),

    // ---- top level ---------------------------------------------------------------------
    import: $ => seq('import', field('path', $.path)),
    // No line break, no `"` and no `//` inside (every `//` starts a comment).
    path: _ => token(/"([^"\n\/]|\/[^"\n\/])*\/?"/),

    graph: $ => seq('graph', field('name', $.identifier), $.body),

    block: $ => seq(
      'block',
      field('name', $.identifier),
      optional(field('parameters', $.block_parameters)),
      $.body,
    ),
    block_parameters: $ => seq('(', optional(commaSep1($.block_parameter)), ')'),
    block_parameter: $ => seq(
      field('name', $.identifier),
      optional(seq('=', field('default', choice($.float, $.boolean, $._expression)))),
    ),

    body: $ => seq('{', repeat($._statement), '}'),

    // ---- statements ---------------------------------------------------------------------
    _statement: $ => choice(
      $.op,
      $.param,
      $.dtype,
      $.declaration,
      $.output,
      $.repeat,
      $.assert,
      $.parallel,
    ),

    param: $ => seq('param', field('name', $.identifier), '=', field('value', $._expression)),

    dtype: $ => seq('dtype', field('name', $.identifier)),

    declaration: $ => seq(
      field('external', choice('input', 'weight')),
      field('name', $.identifier),
      ':',
      field('type', $.type),
    ),

    output: $ => seq('output', commaSep1(field('tensor', $.identifier))),

    op: $ => seq(
      'op',
      field('name', $.identifier),
      '=',
      field('kind', $.identifier),
      optional(seq('.', field('function', $.identifier))),
      field('arguments', $.arguments),
      '->',
      field('output', $.identifier),
      optional(seq(':', field('type', $.type))),
    ),

    // `repeat 32 layers = decoder(h, S = S) -> out`
    repeat: $ => seq(
      'repeat',
      field('count', $._expression),
      field('name', $.identifier),
      '=',
      field('block', $.identifier),
      field('arguments', $.arguments),
      '->',
      field('output', $.identifier),
    ),

    // `parallel tensor tp = 8 { column wq, wk  row wo  stage = 1 }` (issue 25)
    parallel: $ => seq(
      'parallel',
      field('kind', $.identifier),
      field('group', $.identifier),
      '=',
      field('size', $._expression),
      '{',
      repeat($.parallel_item),
      '}',
    ),
    parallel_item: $ => choice(
      seq(field('setting', $.identifier), '=', field('value', $._expression)),
      seq(field('role', $.identifier), commaSep1(field('weight', $.identifier))),
    ),

    // `assert fused(a, b)`, `assert not materialized(t)`, `assert traffic < 300 MB`
    assert: $ => seq('assert', choice($.predicate, $.comparison)),
    predicate: $ => seq(
      optional('not'),
      field('name', $.identifier),
      '(',
      commaSep1(field('argument', $.identifier)),
      ')',
    ),
    comparison: $ => seq(
      field('measure', $.identifier),
      field('operator', choice('<=', '>=', '==', '<', '>')),
      field('value', $._expression),
      optional(field('unit', $.unit)),
    ),
    unit: _ => choice('KiB', 'MiB', 'GiB', 'TiB', 'KB', 'MB', 'GB', 'TB', 'B'),

    // ---- arguments and types ------------------------------------------------------------
    arguments: $ => seq('(', optional(commaSep1($._argument)), ')'),
    _argument: $ => choice($.number, $.attribute, $.tensor_argument),
    // `axis = -1`, `eps = 1e-5`, `dims = [0, 2, 1]`, `causal = true`
    attribute: $ => seq(
      field('name', $.identifier),
      '=',
      field('value', choice($.float, $.list, $.boolean, $._expression)),
    ),
    // `t`, `t[0]`, `k.T`
    tensor_argument: $ => seq(
      field('name', $.identifier),
      optional(seq('[', field('index', $._expression), ']')),
      optional(field('transpose', $.transpose)),
    ),
    transpose: _ => '.T',
    list: $ => seq('[', optional(commaSep1($._expression)), ']'),

    // `f16[4, S]`, `[S, H]`
    type: $ => seq(
      optional(field('dtype', $.identifier)),
      '[',
      optional(commaSep1(field('dimension', $._expression))),
      ']',
    ),

    // ---- integer expressions --------------------------------------------------------------
    _expression: $ => choice(
      $.integer,
      alias($.identifier, $.name),
      $.parenthesized_expression,
      $.unary_expression,
      $.binary_expression,
    ),
    parenthesized_expression: $ => seq('(', $._expression, ')'),
    unary_expression: $ => prec(PREC.unary, seq('-', field('operand', $._expression))),
    binary_expression: $ => choice(
      ...[['+', PREC.additive], ['-', PREC.additive],
        ['*', PREC.multiplicative], ['/', PREC.multiplicative],
        ['%', PREC.multiplicative], ['div', PREC.multiplicative]].map(([op, p]) =>
        prec.left(/** @type {number} */ (p), seq(
          field('left', $._expression),
          field('operator', /** @type {string} */ (op)),
          field('right', $._expression),
        ))),
    ),

    // ---- tokens -----------------------------------------------------------------------------
    identifier: _ => /[_\p{XID_Start}]\p{XID_Continue}*/,
    integer: _ => /[0-9]+/,
    // A scalar argument: `2`, `-1.5`, `0.125`, `1e-5`.
    number: _ => /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/,
    // A float attribute value has a fraction or an exponent.
    float: _ => /-?[0-9]+(\.[0-9]+([eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)/,
    boolean: _ => choice('true', 'false'),
  },
});
