// Every spec under examples/ and test/fixtures, in-process (the stdio tests cover the protocol): each declared name's
// references lead back to it, hover answers on it, and renaming it (every reference in the file) leaves the
// checker's findings as they were — the same codes on the same lines.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCompletions, getDefinition, getHover, getReferences, getRename, RenameRefused } from '../../src/lsp/lsp-features.js';
import { createEditorState } from '../../src/lsp/lsp-state.js';
import { getPosition } from '../../src/lsp/lsp-text.js';
import { compileSpecText } from '../../src/program.js';
import { ROOT } from '../cli/cli-helpers.js';
import { applyEdits } from './lsp-client.js';

function specsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return specsUnder(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const SPECS = [...specsUnder(join(ROOT, 'examples')), ...specsUnder(join(ROOT, 'test', 'fixtures'))].filter((p) =>
  /^servicespec: 1$/m.test(readFileSync(p, 'utf8')),
);

/** A fresh name in the style of its kind, so no name-style warning appears or goes away. */
const FRESH: Record<string, string> = {
  resource: 'ZzRenamed',
  field: 'zz_renamed',
  state: 'zz_renamed',
  transition: 'zz_renamed',
  scheme: 'zz_renamed',
  scope: 'zz:renamed',
  'error code': 'zz_renamed',
  event: 'zz.renamed',
  operation: 'zzRenamed',
  shape: 'ZzRenamedShape',
};

const findings = (text: string): string[] =>
  compileSpecText(text)
    // A fresh name may fix an imported spec's name-style warning; every other finding must stay. A field renamed is a
    // wire name changed: named examples are data, still in the old name, and check says so (example-invalid).
    .diagnostics.filter((d) => d.code !== 'name-style' && d.code !== 'example-invalid')
    .map((d) => `${d.line ?? 0} ${d.code}`)
    .sort();

describe('every declared name in every spec', { timeout: 300_000 }, () => {
  it(`definition, references, hover and rename (${SPECS.length} specs)`, () => {
    expect(SPECS.length).toBeGreaterThan(8);
    let renamed = 0;
    for (const path of SPECS) {
      const text = readFileSync(path, 'utf8');
      const state = createEditorState('file:///sweep.yaml');
      state.update(text, 1);
      const before = findings(text);
      const declarations = state.sites().filter((s) => s.declaration);
      // Renaming one of each kind per spec keeps the sweep short; references and definitions are checked for all.
      const renamedKinds = new Set<string>();
      for (const decl of declarations) {
        const where = `${relative(ROOT, path)} ${decl.kind} ${decl.name}`;
        const position = getPosition(state, decl.span.start);
        const refs = getReferences(state, position, true)!;
        expect(refs.length, where).toBeGreaterThan(0);
        for (const r of refs) expect(getDefinition(state, r.range.start)?.range.start, where).toEqual(position);
        expect(getHover(state, position), where).not.toBeNull();
        if (renamedKinds.has(decl.kind) || state.sites().some((s) => s.kind === decl.kind && s.name === FRESH[decl.kind])) continue;
        renamedKinds.add(decl.kind);
        if (decl.kind === 'field' && decl.name === 'id') {
          // The identifier by its name alone: nothing in the text refers to it, so the rename is refused.
          const resource = state.outline().data as { resources?: Record<string, { identifier?: string }> };
          if (resource.resources?.[decl.owner!]?.identifier === undefined) {
            expect(() => getRename(state, position, 'zz_renamed'), where).toThrow(RenameRefused);
            continue;
          }
        }
        const edit = getRename(state, position, FRESH[decl.kind]!)!;
        const after = applyEdits(text, edit.changes[state.uri]!);
        expect(findings(after), where).toEqual(before);
        renamed++;
      }
      // Completion answers on every line without failing.
      const lines = text.split('\n');
      for (let line = 0; line < lines.length; line += 7) expect(Array.isArray(getCompletions(state, { line, character: lines[line]!.length }))).toBe(true);
    }
    expect(renamed).toBeGreaterThan(30);
  });
});
