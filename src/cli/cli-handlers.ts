// Loading a `--handlers` module, for `serve` (which serves them) and `gaps` (which names the custom operations a
// handlers file leaves without one).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CustomHandler } from '../runtime/runtime-context.js';

/** TypeScript handler files: loaded through tsx (below), on every supported Node, with or without its type stripping. */
export const TYPESCRIPT = /\.(?:ts|mts|cts)$/;

/**
 * Loads a handlers module. A TypeScript file goes through tsx's documented `tsImport` (scoped to this one import:
 * no loader is registered for the rest of the process); esbuild's parse errors become "file:line:col: message".
 */
async function importHandlers(file: string): Promise<Record<string, unknown> | string> {
  const url = pathToFileURL(resolve(file)).href;
  if (!TYPESCRIPT.test(file)) {
    try {
      return (await import(url)) as Record<string, unknown>;
    } catch (err) {
      return `cannot load handlers from ${file}: ${(err as Error).message.split('\n')[0]}`;
    }
  }
  const { tsImport } = await import('tsx/esm/api');
  try {
    return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  } catch (err) {
    const message = (err as Error).message;
    // esbuild: "Transform failed with N error(s):\n/abs/h.ts:2:22: ERROR: Unexpected \"=\"" (one line per error)
    const errors = [...message.matchAll(/^(.*?):(\d+):(\d+): ERROR: (.*)$/gm)];
    if (message.startsWith('Transform failed') && errors.length > 0) {
      const lines = errors.map(([, , line, column, text]) => `  ${file}:${line}:${column}: ${text}`);
      return `cannot load handlers from ${file}: TypeScript syntax error${errors.length > 1 ? 's' : ''}\n${lines.join('\n')}`;
    }
    return `cannot load handlers from ${file}: ${message.split('\n')[0]}`;
  }
}

/** Loads custom-operation handlers from a module exporting `handlers` (or a default object) of functions. */
export async function loadHandlers(file: string): Promise<Record<string, CustomHandler> | string> {
  const mod = await importHandlers(file);
  if (typeof mod === 'string') return mod;
  const found = (mod.handlers ?? mod.default) as Record<string, unknown> | undefined;
  if (!found || typeof found !== 'object') return `${file} exports no \`handlers\` object (or default export) of functions`;
  const bad = Object.entries(found)
    .filter(([, v]) => typeof v !== 'function')
    .map(([k]) => k);
  if (bad.length > 0) return `handlers ${bad.join(', ')} in ${file} are not functions`;
  return found as Record<string, CustomHandler>;
}
