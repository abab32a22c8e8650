// The README's install section, done as a new user would: `npm pack` this checkout, install the tarball into an
// empty project, run `npx servicespec check` there. Offline-safe: the temporary project gets a lockfile made from
// this checkout's own (its non-development entries), so `npm ci` needs only tarballs already in npm's cache, which
// installing this checkout put there; `--prefer-offline` reaches the registry only for what the cache lacks.

import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/cli-helpers.js';

const exec = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dir = mkdtempSync(join(tmpdir(), 'servicespec-install-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  [key: string]: unknown;
}

/** The lockfile a project depending only on the tarball would get: the tarball plus this checkout's runtime tree. */
function getConsumerLock(tarball: string): unknown {
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, unknown> = {
    '': { name: 'fresh-project', version: '1.0.0', dependencies: { servicespec: `file:${tarball}` } },
    'node_modules/servicespec': {
      version: own.version,
      resolved: `file:${tarball}`,
      license: own.license,
      dependencies: own.dependencies,
      optionalDependencies: own.optionalDependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.devOptional === true) continue;
    packages[path] = entry;
  }
  return { name: 'fresh-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

describe('install from a tarball into a fresh project', () => {
  it("is the README's install section, whose commands this test runs", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Install in your own project'), readme.indexOf('## A five-minute tour'));
    expect(section).toContain('npm pack\n');
    expect(section).toContain('npm install /path/to/servicespec-');
    expect(section).toContain('npx servicespec check my-service.yaml');
  });

  it('packs, installs into an empty folder, and runs npx servicespec check there', async () => {
    // --ignore-scripts: dist/ is built already (the prepare script would rebuild it) and `check` needs no native module.
    const { stdout } = await exec(NPM, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, timeout: 60_000 });
    const tarball = stdout.trim().split('\n').at(-1)!;
    expect(tarball).toMatch(/^servicespec-.*\.tgz$/);
    const project = join(dir, 'project');
    await exec('mkdir', [project]);
    copyFileSync(join(dir, tarball), join(project, tarball));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'fresh-project', version: '1.0.0', private: true, dependencies: { servicespec: `file:${tarball}` } }),
    );
    writeFileSync(join(project, 'package-lock.json'), JSON.stringify(getConsumerLock(tarball)));
    const env = { ...process.env, NO_COLOR: '1', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
    await exec(NPM, ['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: project, env, timeout: 120_000 });
    expect(readdirSync(join(project, 'node_modules', 'servicespec', 'dist', 'cli'))).toContain('cli-main.js');
    // A spec of the user's own, outside the package: the installed package's schema and dist/ do the work.
    copyFileSync(join(ROOT, 'examples', 'orders.yaml'), join(project, 'orders.yaml'));
    const check = await exec('npx', ['--offline', '--no-install', 'servicespec', 'check', 'orders.yaml'], { cwd: project, env, timeout: 60_000 });
    expect(check.stdout).toContain('orders.yaml: no problems found');
    const version = await exec('npx', ['--offline', '--no-install', 'servicespec', '--version'], { cwd: project, env, timeout: 60_000 });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  }, 240_000);
});
