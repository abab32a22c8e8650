// A real LSP client over stdio, as VS Code's (vscode-languageclient is built on vscode-languageserver-protocol):
// starts `servicespec lsp --stdio` as a child process and speaks JSON-RPC to it.

import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
  type Position,
  type PublishDiagnosticsParams,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { CLI, ROOT } from '../cli/cli-helpers.js';

const TSX = pathToFileURL(`${ROOT}/node_modules/tsx/dist/loader.mjs`).href;

export interface LspClient {
  connection: ProtocolConnection;
  child: ChildProcess;
  capabilities: InitializeResult['capabilities'];
  stderr(): string;
  open(uri: string, text: string): Promise<Diagnostic[]>;
  /** Replaces the whole text (version + 1); resolves with the diagnostics published for that version. */
  change(uri: string, text: string): Promise<Diagnostic[]>;
  /** The diagnostics for a version, once published. */
  diagnosticsFor(uri: string, version: number): Promise<Diagnostic[]>;
  close(): Promise<number | null>;
}

export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}

export async function startLspClient(extraArgs: string[] = []): Promise<LspClient> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'lsp', '--stdio', ...extraArgs], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => void (stderr += b.toString()));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published = new Map<string, PublishDiagnosticsParams[]>();
  const waiting: { uri: string; version: number; resolve: (d: Diagnostic[]) => void }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const list = published.get(p.uri) ?? [];
    list.push(p);
    published.set(p.uri, list);
    for (const w of waiting.filter((x) => x.uri === p.uri && x.version === p.version)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(p.diagnostics);
    }
  });
  connection.listen();
  const init = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: uriOf(ROOT), capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  const versions = new Map<string, number>();
  const client: LspClient = {
    connection,
    child,
    capabilities: init.capabilities,
    stderr: () => stderr,
    diagnosticsFor(uri, version) {
      const done = published.get(uri)?.find((p) => p.version === version);
      if (done) return Promise.resolve(done.diagnostics);
      return new Promise((resolve) => waiting.push({ uri, version, resolve }));
    },
    async open(uri, text) {
      versions.set(uri, 1);
      const d = client.diagnosticsFor(uri, 1);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text } });
      return d;
    },
    async change(uri, text) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      const d = client.diagnosticsFor(uri, version);
      await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
      return d;
    },
    async close() {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
  return client;
}

/** The position of the n-th occurrence of `needle` in the text (plus `shift` characters). */
export function positionOf(text: string, needle: string, shift = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${needle} not found`);
  }
  at += shift;
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  return { line, character: at - (before.lastIndexOf('\n') + 1) };
}

export function offsetOf(text: string, p: Position): number {
  const lines = text.split('\n');
  return lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offsetOf(out, e.range.start)) + e.newText + out.slice(offsetOf(out, e.range.end));
  return out;
}
