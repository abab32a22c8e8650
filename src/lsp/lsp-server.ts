// `servicespec lsp`: a Language Server Protocol server over two streams (standard input and output, from the CLI).
// One process per editor. Every diagnostic comes from the compile `check` runs (lsp-diagnostics.ts); the
// editor features read the text's YAML and the last good compile (lsp-features.ts).

import type { Readable, Writable } from 'node:stream';
import {
  CodeActionKind,
  createConnection,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createEditorState, type EditorState } from './lsp-state.js';
import { getCodeActions, type CodeAction } from './lsp-actions.js';
import { getCompletions, getDefinition, getDocumentSymbols, getHover, getReferences, getRename, prepareRename, RenameRefused } from './lsp-features.js';
import type { LspDiagnostic } from './lsp-diagnostics.js';

export interface LspServerOptions {
  input: Readable;
  output: Writable;
  /** How long after the last change the document is checked again (ms). */
  debounceMs?: number;
}

/** The default wait after a keystroke: short next to the 300 ms budget for diagnostics after an edit. */
export const DEBOUNCE_MS = 40;

/** Starts the server on the streams; resolves when the client exits (or the streams close). */
export function startLspServer(options: LspServerOptions): Promise<void> {
  const connection: Connection = createConnection(options.input, options.output);
  const documents = new TextDocuments(TextDocument);
  const states = new Map<string, EditorState>();
  const timers = new Map<string, NodeJS.Timeout>();
  const debounceMs = options.debounceMs ?? DEBOUNCE_MS;

  const stateOf = (uri: string): EditorState | undefined => {
    const doc = documents.get(uri);
    if (doc === undefined) return undefined;
    let state = states.get(uri);
    if (state === undefined) {
      state = createEditorState(uri);
      states.set(uri, state);
    }
    state.update(doc.getText(), doc.version);
    return state;
  };

  const publish = (uri: string): void => {
    timers.delete(uri);
    const state = stateOf(uri);
    if (state === undefined) return;
    const doc = documents.get(uri)!;
    try {
      void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: state.diagnostics() });
    } catch (err) {
      // Outside a request nothing would catch it, and the process would end: the editor's log gets one line.
      connection.console.error(`servicespec: internal error checking ${uri}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  connection.onInitialize((): InitializeResult => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: [':', ' ', '[', ',', '-'] },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentSymbolProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'servicespec' },
  }));

  documents.onDidOpen((e) => publish(e.document.uri));
  documents.onDidChangeContent((e) => {
    const uri = e.document.uri;
    clearTimeout(timers.get(uri));
    timers.set(
      uri,
      setTimeout(() => publish(uri), debounceMs),
    );
  });
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    states.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  // Each request reads the document as it is now (a change still waiting for its debounce is compiled first).
  const guard =
    <P extends { textDocument: { uri: string } }, R>(fn: (state: EditorState, params: P) => R, none: R) =>
    (params: P): R => {
      const state = stateOf(params.textDocument.uri);
      return state === undefined ? none : fn(state, params);
    };
  connection.onCompletion(guard((s, p) => getCompletions(s, p.position), []));
  connection.onHover(guard((s, p) => getHover(s, p.position), null));
  connection.onDefinition(guard((s, p) => getDefinition(s, p.position), null));
  connection.onReferences(guard((s, p) => getReferences(s, p.position, p.context.includeDeclaration), null));
  connection.onPrepareRename(guard((s, p) => prepareRename(s, p.position), null));
  connection.onRenameRequest(
    guard((s, p) => {
      try {
        return getRename(s, p.position, p.newName);
      } catch (err) {
        // A refused rename is an answer the editor shows, not a failure of the server.
        if (err instanceof RenameRefused) return new ResponseError(LSPErrorCodes.RequestFailed, err.message);
        throw err;
      }
    }, null),
  );
  connection.onDocumentSymbol(guard((s) => getDocumentSymbols(s), []));
  connection.onCodeAction(guard((s, p): CodeAction[] => getCodeActions(s, p.range, p.context.diagnostics as LspDiagnostic[]), []));

  documents.listen(connection);
  connection.listen();
  return new Promise((resolve) => {
    connection.onExit(() => resolve());
    options.input.on('close', () => resolve());
    options.input.on('end', () => resolve());
  });
}
