import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Test files run in shared worker processes (isolate: false): each file importing the whole of src/ afresh took about
// a fifth of the suite's time (the full suite 547 s isolated, 471 s shared, 2 workers on 2 cores). A file that mocks
// a module (vi.mock, vi.doMock) needs a module graph of its own and runs isolated; it is found, not listed.
const MOCKING = /\bvi\.(mock|doMock)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

const isolated = testFiles('test').filter((f) => MOCKING.test(readFileSync(f, 'utf8')));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: isolated, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated.length > 0 ? isolated : ['test/no-such-file'], isolate: true } },
    ],
  },
});
