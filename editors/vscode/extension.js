// Starts `servicespec lsp --stdio` for the workspace's servicespec files: the project's own servicespec
// (node_modules/.bin) when there is one, else the one on the PATH, else the command in `servicespec.path`.
'use strict';

const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function serverCommand() {
  const configured = vscode.workspace.getConfiguration('servicespec').get('path');
  if (configured) return configured;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const local = join(folder.uri.fsPath, 'node_modules', '.bin', process.platform === 'win32' ? 'servicespec.cmd' : 'servicespec');
    if (existsSync(local)) return local;
  }
  return 'servicespec';
}

/** A servicespec file says so in its first lines (`servicespec: 1`); other YAML is not ours. */
function isServicespec(document) {
  if (document.uri.scheme !== 'file') return false;
  try {
    return /^servicespec\s*:/m.test(readFileSync(document.uri.fsPath, 'utf8').slice(0, 4096));
  } catch {
    return false;
  }
}

function activate(context) {
  const command = serverCommand();
  const files = vscode.workspace.getConfiguration('servicespec').get('files') ?? ['**/*.yaml', '**/*.yml'];
  client = new LanguageClient(
    'servicespec',
    'servicespec',
    { command, args: ['lsp', '--stdio'], transport: TransportKind.stdio },
    {
      documentSelector: files.map((pattern) => ({ scheme: 'file', language: 'yaml', pattern })),
      middleware: {
        // Only files that are servicespecs get the server's diagnostics and features.
        didOpen: (document, next) => (isServicespec(document) ? next(document) : undefined),
      },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
