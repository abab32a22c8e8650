// `--only`/`--skip` accept every check by its name (issue 25 item 5): CHECK_NAMES, which the CLI validates them
// against, must list every check the tester can report. Before, twelve of them (errors.malformed-id,
// endpoints.list-edges, the judge's checks…) were refused as "matches no part, check or operation".

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { CHECK_NAMES } from '../../src/tester/tester-run.js';
import { runCli } from '../cli/cli-helpers.js';
import { ORDERS } from './helpers.js';

const SRC = fileURLToPath(new URL('../../src/tester/', import.meta.url));

it('every check name the tester reports is in CHECK_NAMES', () => {
  const used = new Set<string>();
  for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
    for (const m of readFileSync(`${SRC}${file}`, 'utf8').matchAll(
      /'((?:purpose|resources|states|endpoints|authentication|events|errors|limits|versioning)\.[a-z-]+)'/g,
    ))
      used.add(m[1]!);
  }
  expect(used.size).toBeGreaterThan(30);
  expect([...used].filter((n) => !(CHECK_NAMES as readonly string[]).includes(n)).sort()).toEqual([]);
});

it('--only errors.malformed-id is a check name, not a usage error', async () => {
  // Nothing listens on port 9: the run ends "cannot reach" (exit 2) after the names were accepted.
  const r = await runCli([
    'test',
    ORDERS,
    '--base-url',
    'http://127.0.0.1:9',
    '--only',
    'errors.malformed-id,endpoints.method-not-allowed,limits.header-size',
    '--no-progress',
  ]);
  expect(r.stderr).not.toMatch(/matches no part, check or operation/);
  expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9: connection refused/);
});
