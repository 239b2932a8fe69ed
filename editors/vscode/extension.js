// The fgraph extension: the `.fgraph` language (its TextMate grammar and editing rules, in
// package.json) and a language client that starts `fgraph lsp` for it. Everything the editor
// shows beyond colours (diagnostics, hovers, inlay hints, fixes, rename, formatting, semantic
// tokens) comes from that server.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** The server's command line and initialization options, from the settings. */
function serverSettings() {
  const cfg = vscode.workspace.getConfiguration('fgraph');
  const command = cfg.get('server.path') || 'fgraph';
  const extra = cfg.get('server.extraArgs') || [];
  const timeout = cfg.get('analysisTimeout');
  const initializationOptions = {};
  if (typeof timeout === 'number') {
    initializationOptions.analysisTimeout = timeout;
  }
  return { command, args: ['lsp', ...extra], initializationOptions };
}

async function start() {
  const { command, args, initializationOptions } = serverSettings();
  client = new LanguageClient(
    'fgraph',
    'fgraph',
    { command, args },
    {
      documentSelector: [
        { scheme: 'file', language: 'fgraph' },
        { scheme: 'untitled', language: 'fgraph' },
      ],
      // Saving an fgraph.toml re-checks the open graphs.
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher('**/fgraph.toml'),
      },
      initializationOptions,
    },
  );
  try {
    await client.start();
  } catch (e) {
    vscode.window.showErrorMessage(
      `fgraph: could not start \`${command} lsp\` (${e && e.message ? e.message : e}). ` +
        'Install fgraph or set "fgraph.server.path".',
    );
  }
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    try {
      await old.stop();
    } catch (_) {
      // A server that never started has nothing to stop.
    }
  }
  await start();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('fgraph.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('fgraph.server') || e.affectsConfiguration('fgraph.analysisTimeout')) {
        restart();
      }
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
