// One source for each format fact: the defaults in model-defaults.ts and the list names in model-routes.ts are
// the only places these values are written in src/; everything else imports them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/model/model-builder.js';
import { DEFAULT_IDEMPOTENCY_HEADER, getIdempotencyHeader } from '../../src/model/model-defaults.js';
import type { SpecDocument } from '../../src/spec/spec-types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Files of src/ that write `literal` as a string literal of code (single quotes or backticks; "x" is prose), comments left out. */
function filesWriting(literal: string): string[] {
  const quoted = new RegExp(`(['\`])${literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`);
  return sources(join(ROOT, 'src'))
    .filter((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .some((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && quoted.test(line)),
    )
    .map((f) => relative(ROOT, f).split('\\').join('/'));
}

describe('format facts are written once', () => {
  // client-runtime.ts opens with stand-ins for an example service (so it compiles and is tested on its own); they
  // are not copied into a generated client, which gets the spec's values from export-client.ts.
  const STAND_INS = 'src/export/client-runtime.ts';
  it.each([
    ['Idempotency-Key', 'src/model/model-defaults.ts', [STAND_INS]],
    ['not shown', 'src/model/model-defaults.ts', []],
    ['next_cursor', 'src/model/model-defaults.ts', []],
  ])('%s: only in %s', (literal, home, standIns) => {
    expect(filesWriting(literal).filter((f) => !standIns.includes(f))).toEqual([home]);
  });

  it('the idempotency header is the spec’s, else the format default', () => {
    const doc = (header?: string): SpecDocument =>
      ({ format: 'servicespec/1', endpoints: { idempotency: header === undefined ? {} : { header } } }) as unknown as SpecDocument;
    expect(getIdempotencyHeader(buildModel(doc()))).toBe(DEFAULT_IDEMPOTENCY_HEADER);
    expect(getIdempotencyHeader(buildModel(doc('X-Request-Key')))).toBe('X-Request-Key');
  });
});
