// Loads extension.js with stand-ins for the `vscode` and `vscode-languageclient` modules
// (which only exist inside VS Code) and checks that activating it starts `fgraph lsp` for
// `.fgraph` documents, with the configured path and arguments; and that package.json's
// contributions point at files that exist. Run by `npm test`.
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const Module = require('module');

const settings = { 'server.path': '', 'server.extraArgs': [], analysisTimeout: null };
const started = [];
const commands = {};
let configListener;

const vscode = {
  workspace: {
    getConfiguration: (section) => {
      assert.strictEqual(section, 'fgraph');
      return { get: (key) => settings[key] };
    },
    createFileSystemWatcher: (glob) => ({ glob }),
    onDidChangeConfiguration: (f) => {
      configListener = f;
      return { dispose() {} };
    },
  },
  window: { showErrorMessage: (m) => { throw new Error(`unexpected error message: ${m}`); } },
  commands: {
    registerCommand: (name, f) => {
      commands[name] = f;
      return { dispose() {} };
    },
  },
};

class LanguageClient {
  constructor(id, name, server, client) {
    Object.assign(this, { id, name, server, client, running: false });
    started.push(this);
  }
  async start() { this.running = true; }
  async stop() { this.running = false; }
}

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return { LanguageClient };
  return load.call(this, request, parent, isMain);
};

async function main() {
  const ext = require('../extension.js');
  const context = { subscriptions: [] };
  await ext.activate(context);
  assert.strictEqual(started.length, 1);
  const c = started[0];
  assert.deepStrictEqual(c.server, { command: 'fgraph', args: ['lsp'] });
  assert.ok(c.running);
  assert.deepStrictEqual(c.client.documentSelector.map((d) => d.language), ['fgraph', 'fgraph']);
  assert.strictEqual(c.client.synchronize.fileEvents.glob, '**/fgraph.toml');
  assert.deepStrictEqual(c.client.initializationOptions, {});

  // A changed setting restarts the server with it.
  settings['server.path'] = '/opt/fgraph/bin/fgraph';
  settings['server.extraArgs'] = ['--config', '/p/fgraph.toml'];
  settings.analysisTimeout = 5;
  configListener({ affectsConfiguration: (s) => s === 'fgraph.server' });
  await new Promise((r) => setTimeout(r, 10));
  assert.strictEqual(started.length, 2);
  assert.ok(!c.running, 'the old client is stopped');
  assert.deepStrictEqual(started[1].server, {
    command: '/opt/fgraph/bin/fgraph',
    args: ['lsp', '--config', '/p/fgraph.toml'],
  });
  assert.deepStrictEqual(started[1].client.initializationOptions, { analysisTimeout: 5 });
  await commands['fgraph.restartServer']();
  assert.strictEqual(started.length, 3);
  await ext.deactivate();
  assert.ok(!started[2].running);

  // package.json's contributions name files that exist.
  const dir = path.join(__dirname, '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  assert.ok(fs.existsSync(path.join(dir, pkg.main)));
  for (const l of pkg.contributes.languages) assert.ok(fs.existsSync(path.join(dir, l.configuration)));
  for (const g of pkg.contributes.grammars) assert.ok(fs.existsSync(path.join(dir, g.path)));
  JSON.parse(fs.readFileSync(path.join(dir, 'language-configuration.json'), 'utf8'));
  console.log('fgraph extension: starts `fgraph lsp`, restarts on a changed setting, contributions exist');
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
