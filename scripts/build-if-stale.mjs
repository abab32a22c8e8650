#!/usr/bin/env node
// `npm start`'s prestart: build only when dist/ is missing or older than its sources, so a warm start skips tsc.
// Stale means: some src/**/*.ts has no dist/**/*.js, or is newer than it, or the build config is newer than dist/.

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function staleReason() {
  const config = Math.max(...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => mtime(join(root, f)) ?? 0));
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const source = join(entry.parentPath, entry.name);
    const rel = relative(join(root, 'src'), source);
    const built = mtime(join(root, 'dist', rel.replace(/\.ts$/, '.js')));
    if (built === undefined) return `dist/ has no build of src/${rel}`;
    if (mtime(source) > built) return `src/${rel} changed since the last build`;
    if (config > built) return 'the build configuration changed since the last build';
  }
  return undefined;
}

const reason = staleReason();
if (reason !== undefined) {
  process.stderr.write(`building: ${reason}\n`);
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(r.status ?? 1);
}
