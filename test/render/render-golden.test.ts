import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecFile } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

// Golden files: the rendered document and the gap report of every example and every fixture case.
// A missing or different golden file fails; they are (re)written only with SERVICESPEC_UPDATE_GOLDEN=1.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'test/fixtures');
const UPDATE = process.env.SERVICESPEC_UPDATE_GOLDEN === '1';

interface GoldenCase {
  name: string;
  spec: string;
  /** Where doc.md and gaps.txt live. */
  dir: string;
}

const exampleCases: GoldenCase[] = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({ name: `examples/${f}`, spec: join(root, 'examples', f), dir: join(fixtures, 'examples', basename(f, '.yaml')) }));

const fixtureCases: GoldenCase[] = readdirSync(fixtures, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(fixtures, d.name, 'service.yaml')))
  .map((d) => d.name)
  .sort()
  .map((name) => ({ name: `fixture ${name}`, spec: join(fixtures, name, 'service.yaml'), dir: join(fixtures, name) }));

function matchGolden(path: string, actual: string): void {
  const shown = relative(root, path);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`golden file ${shown} is missing; record it with SERVICESPEC_UPDATE_GOLDEN=1 and review the diff`);
  expect(actual, `${shown} differs; if the change is intended, re-record with SERVICESPEC_UPDATE_GOLDEN=1`).toBe(readFileSync(path, 'utf8'));
}

describe('golden documents and gap reports', () => {
  it('has the examples and at least three fixture cases to check', () => {
    expect(exampleCases.map((c) => c.name)).toEqual(expect.arrayContaining(['examples/empty.yaml', 'examples/orders.yaml', 'examples/library.yaml']));
    expect(fixtureCases.map((c) => c.name)).toEqual(
      expect.arrayContaining(['fixture partly-shown-auth', 'fixture states-only', 'fixture declared-error-body']),
    );
  });

  it.each([...exampleCases, ...fixtureCases])('$name', ({ spec, dir }) => {
    const compiled = compileSpecFile(spec);
    expect(compiled.model, compiled.diagnostics.map((d) => `${d.code}: ${d.message}`).join('\n')).toBeDefined();
    const model = compiled.model!;
    matchGolden(join(dir, 'doc.md'), renderMarkdown(model));
    matchGolden(join(dir, 'gaps.txt'), formatGapReport(getGapReport(model)));
  });

  it('keeps no golden folder for an example that no longer exists', () => {
    const dir = join(fixtures, 'examples');
    const recorded = existsSync(dir) ? readdirSync(dir).sort() : [];
    expect(recorded).toEqual(exampleCases.map((c) => basename(c.dir)));
  });
});
