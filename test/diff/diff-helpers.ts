import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compileSpecText } from '../../src/program.js';
import { diffSpecs, type DiffReport } from '../../src/diff/diff-run.js';

export const ROOT = join(import.meta.dirname, '..', '..');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any;

const LIBRARY = readFileSync(join(ROOT, 'examples', 'library.yaml'), 'utf8');

/** A fresh copy of examples/library.yaml as plain data. */
export function library(): Doc {
  return parse(LIBRARY) as Doc;
}

export type Edit = (d: Doc) => void;

/** Diffs two edits of the library example; throws (a test failure) when either side does not compile. */
export function diffEdits(oldEdit: Edit | undefined, newEdit: Edit | undefined, today = '2026-06-01'): DiffReport {
  const o = library();
  oldEdit?.(o);
  const n = library();
  newEdit?.(n);
  const outcome = diffSpecs(compileSpecText(JSON.stringify(o), 'old.yaml'), compileSpecText(JSON.stringify(n), 'new.yaml'), { today });
  if (!outcome.ok) throw new Error(`does not compile: ${outcome.diagnostics.map((d) => `${d.file}: ${d.code} ${d.message}`).join('; ')}`);
  return outcome.report;
}
