// `npm start`'s prestart (scripts/build-if-stale.mjs): builds when dist/ is missing or older than src/, skips otherwise.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './cli-helpers.js';

const dir = tempDir();
afterAll(() => dir.remove());

// A package whose `build` compiles src/**/*.ts to dist/**/*.js by copying, and counts its runs.
const BUILD = `const fs = require('node:fs');
fs.appendFileSync('builds.log', 'built\\n');
for (const f of fs.readdirSync('src', { recursive: true })) if (f.endsWith('.ts')) {
  fs.mkdirSync(require('node:path').dirname('dist/' + f), { recursive: true });
  fs.writeFileSync('dist/' + f.replace(/\\.ts$/, '.js'), fs.readFileSync('src/' + f));
}`;

function prestart(): { status: number | null; stderr: string; builds: number } {
  const r = spawnSync(process.execPath, [join(dir.path, 'scripts', 'build-if-stale.mjs')], { cwd: dir.path, encoding: 'utf8' });
  const log = join(dir.path, 'builds.log');
  return { status: r.status, stderr: r.stderr, builds: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0 };
}

describe('npm start builds only when dist/ is stale', { timeout: 60_000 }, () => {
  it('builds a fresh checkout, skips a current one, rebuilds after an edit or a deleted output', () => {
    mkdirSync(join(dir.path, 'scripts'));
    mkdirSync(join(dir.path, 'src', 'cli'), { recursive: true });
    copyFileSync(join(ROOT, 'scripts', 'build-if-stale.mjs'), join(dir.path, 'scripts', 'build-if-stale.mjs'));
    writeFileSync(join(dir.path, 'build.cjs'), BUILD);
    writeFileSync(join(dir.path, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { build: 'node build.cjs' } }));
    writeFileSync(join(dir.path, 'tsconfig.json'), '{}');
    writeFileSync(join(dir.path, 'tsconfig.build.json'), '{}');
    const past = new Date(Date.now() - 60_000);
    for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) utimesSync(join(dir.path, f), past, past);
    writeFileSync(join(dir.path, 'src', 'cli', 'main.ts'), 'export {};\n');
    writeFileSync(join(dir.path, 'src', 'index.ts'), 'export {};\n');
    for (const f of ['cli/main.ts', 'index.ts']) utimesSync(join(dir.path, 'src', f), past, past);

    expect(prestart()).toMatchObject({ status: 0, builds: 1, stderr: expect.stringMatching(/^building: dist\/ has no build of src\//) });
    expect(prestart()).toMatchObject({ status: 0, builds: 1, stderr: '' });

    // An edit after the build: the source is newer than its output.
    const built = new Date(past.getTime() + 10_000);
    for (const f of ['cli/main.js', 'index.js']) utimesSync(join(dir.path, 'dist', f), built, built);
    const edited = new Date(past.getTime() + 20_000);
    utimesSync(join(dir.path, 'src', 'cli', 'main.ts'), edited, edited);
    expect(prestart()).toMatchObject({ status: 0, builds: 2, stderr: `building: src/cli/main.ts changed since the last build\n` });
    expect(prestart()).toMatchObject({ builds: 2 });

    rmSync(join(dir.path, 'dist', 'index.js'));
    expect(prestart()).toMatchObject({ builds: 3, stderr: 'building: dist/ has no build of src/index.ts\n' });
  });

  it('package.json runs it before start', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prestart).toBe('node scripts/build-if-stale.mjs');
  });
});
