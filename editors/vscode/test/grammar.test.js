// Tokenizes fgraph's shipped `.fgraph` files with the extension's TextMate grammar, through
// vscode-textmate and vscode-oniguruma (the engine VS Code itself runs), and checks that
// keywords, graph/block/op names, kinds, functions, tensors, params, dtypes, numbers,
// operators and comments get their scopes. Run by .ci/run: `npm test` in editors/vscode.
'use strict';

const fs = require('fs');
const path = require('path');
const assert = require('assert');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.resolve(__dirname, '..', '..', '..');
const grammarPath = path.join(__dirname, '..', 'syntaxes', 'fgraph.tmLanguage.json');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.fgraph') return null;
      const text = fs.readFileSync(grammarPath, 'utf8');
      return vsctm.parseRawGrammar(text, grammarPath);
    },
  });
  return registry.loadGrammar('source.fgraph');
}

/** Every token of `text` as { line, start, text, scopes }. */
function tokenize(grammar, text) {
  const out = [];
  let stack = vsctm.INITIAL;
  text.split(/\r?\n/).forEach((line, n) => {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      out.push({ line: n, start: t.startIndex, text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    }
    stack = r.ruleStack;
  });
  return out;
}

/** The innermost scope of the token whose text is `word`, the `nth` such token. */
function scopeOf(tokens, word, nth = 0) {
  const found = tokens.filter((t) => t.text.trim() === word);
  assert.ok(found.length > nth, `no token \`${word}\` (#${nth})`);
  const scopes = found[nth].scopes;
  return scopes[scopes.length - 1];
}

function shippedFiles() {
  const files = [];
  for (const dir of ['examples', 'examples/lib', 'std', 'validation', 'benches']) {
    const d = path.join(root, dir);
    if (!fs.existsSync(d)) continue;
    for (const f of fs.readdirSync(d)) {
      if (f.endsWith('.fgraph')) files.push(path.join(d, f));
    }
  }
  return files;
}

const KEYWORD = /^(graph|block|import|param|dtype|input|weight|output|op|repeat|assert)$/;
const DTYPES = ['f64', 'f32', 'tf32', 'bf16', 'f16', 'fp8', 'f8e4m3', 'f8e5m2', 'i64', 'i32', 'i16', 'i8', 'u8', 'bool'];

async function main() {
  const grammar = await loadGrammar();

  // A small file, token by token.
  const small = [
    'import "lib/x.fgraph" // a comment',
    'block mlp(S, H = 64, D = bf16) {',
    '  dtype D',
    '  input x: [S, H]',
    '  weight w: f16[H, H * 2]',
    '  op up = matmul(x, w.T) -> u',
    '  op act = elementwise.gelu(u, eps = 1e-5) -> y: [S, H]',
    '  output y',
    '}',
    'graph g {',
    '  param B = 2 div 1',
    '  repeat 2 layers = mlp(t, S = B) -> r',
    '  assert not materialized(u)',
    '  assert traffic < 300 MB',
    '}',
  ].join('\n');
  const t = tokenize(grammar, small);
  const want = [
    ['import', 'keyword.control.import.fgraph'],
    ['"lib/x.fgraph"', 'string.quoted.double.fgraph'],
    ['// a comment', 'comment.line.double-slash.fgraph'],
    ['block', 'keyword.control.block.fgraph'],
    ['mlp', 'entity.name.type.class.fgraph'],
    ['S', 'variable.parameter.fgraph'],
    ['64', 'constant.numeric.fgraph'],
    ['bf16', 'support.type.dtype.fgraph'],
    ['dtype', 'keyword.control.dtype.fgraph'],
    ['input', 'keyword.control.declaration.fgraph'],
    ['x', 'variable.other.readwrite.fgraph'],
    ['f16', 'support.type.dtype.fgraph'],
    ['op', 'keyword.control.op.fgraph'],
    ['up', 'entity.name.function.fgraph'],
    ['matmul', 'entity.name.type.kind.fgraph'],
    ['.T', 'keyword.operator.transpose.fgraph'],
    ['->', 'keyword.operator.arrow.fgraph'],
    ['u', 'variable.other.readwrite.fgraph'],
    ['elementwise', 'entity.name.type.kind.fgraph'],
    ['gelu', 'entity.name.function.member.fgraph'],
    ['eps', 'variable.other.property.fgraph'],
    ['1e-5', 'constant.numeric.fgraph'],
    ['output', 'keyword.control.output.fgraph'],
    ['graph', 'keyword.control.graph.fgraph'],
    ['g', 'entity.name.namespace.fgraph'],
    ['param', 'keyword.control.param.fgraph'],
    ['B', 'variable.parameter.fgraph'],
    ['div', 'keyword.operator.div.fgraph'],
    ['repeat', 'keyword.control.repeat.fgraph'],
    ['layers', 'entity.name.function.fgraph'],
    ['assert', 'keyword.control.assert.fgraph'],
    ['not', 'keyword.control.not.fgraph'],
    ['materialized', 'support.function.predicate.fgraph'],
    ['traffic', 'support.function.measure.fgraph'],
    ['<', 'keyword.operator.comparison.fgraph'],
    ['MB', 'constant.other.unit.fgraph'],
  ];
  for (const [word, scope] of want) {
    assert.strictEqual(scopeOf(t, word), scope, `\`${word}\``);
  }
  assert.strictEqual(scopeOf(t, 'mlp', 1), 'entity.name.type.class.fgraph'); // a repeat's block
  assert.strictEqual(scopeOf(t, 'H', 3), 'variable.parameter.fgraph'); // in `[H, H * 2]`
  assert.strictEqual(scopeOf(t, 'S', 3), 'variable.other.property.fgraph'); // `S = B`: named as an attribute
  assert.strictEqual(scopeOf(t, 't'), 'variable.other.readwrite.fgraph');

  // Every shipped file: statement keywords, op heads, dtypes and comments.
  const files = shippedFiles();
  assert.ok(files.length >= 30, `${files.length} files`);
  let checked = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const tokens = tokenize(grammar, text);
    const lines = text.split(/\r?\n/);
    const where = (tok) => `${path.relative(root, file)}:${tok.line + 1}: \`${tok.text}\` has ${tok.scopes.join(' ')}`;
    for (const tok of tokens) {
      const inner = tok.scopes[tok.scopes.length - 1];
      const word = tok.text.trim();
      const commented = tok.scopes.some((s) => s.startsWith('comment.'));
      // A statement's first word.
      const first = lines[tok.line].trimStart().startsWith(word + ' ') &&
        lines[tok.line].indexOf(word) === lines[tok.line].length - lines[tok.line].trimStart().length;
      if (!commented && first && KEYWORD.test(word)) {
        assert.ok(inner.startsWith('keyword.control.'), where(tok));
        checked++;
      }
      if (!commented && DTYPES.includes(word)) {
        assert.strictEqual(inner, 'support.type.dtype.fgraph', where(tok));
        checked++;
      }
    }
    for (const [n, line] of lines.entries()) {
      const code = line.split('//')[0];
      const m = /^\s*op\s+(\w+)\s*=\s*(\w+)(?:\.(\w+))?\s*\(/d.exec(code);
      if (m) {
        const on = tokens.filter((tok) => tok.line === n);
        const scope = (g) => on.find((tok) => tok.start === m.indices[g][0] && tok.text === m[g]).scopes.slice(-1)[0];
        assert.strictEqual(scope(1), 'entity.name.function.fgraph', `${file}:${n + 1}`);
        assert.strictEqual(scope(2), 'entity.name.type.kind.fgraph', `${file}:${n + 1}`);
        if (m[3]) assert.strictEqual(scope(3), 'entity.name.function.member.fgraph', `${file}:${n + 1}`);
        checked++;
      }
      if (line.includes('//')) {
        const c = tokens.find((tok) => tok.line === n && tok.text.startsWith('//'));
        assert.ok(c && c.scopes.includes('comment.line.double-slash.fgraph'), `${file}:${n + 1}: comment`);
      }
    }
  }
  console.log(`fgraph TextMate grammar: ${want.length + 4} tokens of a small file and ${checked} in ${files.length} shipped files have their scopes`);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
