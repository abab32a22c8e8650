import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
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

// Found from this file's folder, whatever the working directory; named relative to it, as `include` reads them.
const root = fileURLToPath(new URL('.', import.meta.url));
// Test files this run leaves out, comma-separated paths from the repository's root (.ci/run: the `// ci: alone` files,
// run after the rest on their own). The command line's --exclude does not reach the projects below, whose own
// `exclude` replaces it.
const left = (process.env.SERVICESPEC_TEST_EXCLUDE ?? '')
  .split(',')
  .map((f) => f.trim())
  .filter((f) => f !== '');
const isolated = testFiles(join(root, 'test'))
  .filter((f) => MOCKING.test(readFileSync(f, 'utf8')))
  .map((f) => relative(root, f))
  .filter((f) => !left.includes(f));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...isolated, ...left], isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated.length > 0 ? isolated : ['test/no-such-file'], isolate: true } },
    ],
  },
});
