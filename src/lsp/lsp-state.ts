// One open document: its text, its compile (made when first asked for, once per version), its YAML outline and
// name sites (made when a feature first asks), and the last good compile, which an unparseable edit keeps.

import { fileURLToPath } from 'node:url';
import type { CompiledSpec } from '../program.js';
import { MAX_SPEC_BYTES } from '../spec/spec-loader.js';
import { compileForEditor, lineStarts, toLspDiagnostics, type LspDiagnostic } from './lsp-diagnostics.js';
import { getNameSites, type NameSite } from './lsp-names.js';
import { createYamlOutline, type YamlOutline } from './lsp-yaml.js';

export interface EditorState {
  readonly uri: string;
  readonly text: string;
  readonly version: number;
  update(text: string, version: number): void;
  compiled(): CompiledSpec;
  diagnostics(): LspDiagnostic[];
  /** The latest compile that built a model (this version's, or an earlier one when this one does not). */
  lastGood(): CompiledSpec | undefined;
  outline(): YamlOutline;
  /** The outline of the text as it is now, or of the last text whose YAML could be read, when this one's cannot. */
  sites(): NameSite[];
  lineStarts(): number[];
}

/** The file name diagnostics carry: the path for a file: URI, the URI itself otherwise. */
export function getFileOfUri(uri: string): string {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
}

export function createEditorState(uri: string): EditorState {
  const file = getFileOfUri(uri);
  let text = '';
  let version = -1;
  let compiled: CompiledSpec | undefined;
  let good: CompiledSpec | undefined;
  let outline: YamlOutline | undefined;
  let sites: NameSite[] | undefined;
  let starts: number[] | undefined;
  const state: EditorState = {
    uri,
    get text() {
      return text;
    },
    get version() {
      return version;
    },
    update(newText, newVersion) {
      if (newText === text && newVersion === version) return;
      text = newText;
      version = newVersion;
      compiled = undefined;
      outline = undefined;
      sites = undefined;
      starts = undefined;
    },
    compiled() {
      if (compiled === undefined) {
        compiled = compileForEditor(text, file);
        if (compiled.model !== undefined) good = compiled;
      }
      return compiled;
    },
    diagnostics() {
      return toLspDiagnostics(state.compiled(), text);
    },
    lastGood() {
      state.compiled();
      return good;
    },
    outline() {
      // A text the loader refuses as too large (file-too-large) is not parsed here either: an empty outline.
      outline ??= text.length > MAX_SPEC_BYTES ? { entries: new Map(), ordered: [], data: undefined } : createYamlOutline(text);
      return outline;
    },
    sites() {
      sites ??= getNameSites(state.outline());
      return sites;
    },
    lineStarts() {
      starts ??= lineStarts(text);
      return starts;
    },
  };
  return state;
}
