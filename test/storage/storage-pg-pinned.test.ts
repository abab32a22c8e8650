// node-postgres is pinned to one version (package.json, no range) and used only through its documented API; the
// storage conformance suite (storage-conformance.test.ts, run on PostgreSQL in CI) is the test an upgrade must pass.
// This keeps the pin honest: a range, or an installed pg that is not the pinned one, fails here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
};

describe('node-postgres is pinned', () => {
  it('package.json names one exact version, the lock file and node_modules hold it', () => {
    const pinned = pkg.dependencies.pg;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages['']!.dependencies!.pg).toBe(pinned);
    expect(lock.packages['node_modules/pg']!.version).toBe(pinned);
    expect((require('pg/package.json') as { version: string }).version).toBe(pinned);
  });
});
