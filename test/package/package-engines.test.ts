// README's "Node support" names every runtime dependency whose declared Node range leaves out the floor this
// package declares (package.json engines, 20.19): an npm EBADENGINE warning a user sees is explained there.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/cli-helpers.js';

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

/** Whether a Node range admits 20.19.0 (the forms runtime dependencies use: >=N[.N], ^N || …, N.x || …). */
function admitsFloor(range: string): boolean {
  return range.split('||').some((part) => {
    const p = part.trim();
    if (p === '*' || p === '') return true;
    const ge = /^>=\s*v?(\d+)(?:\.(\d+))?/.exec(p);
    if (ge) return Number(ge[1]) < 20 || (Number(ge[1]) === 20 && Number(ge[2] ?? 0) <= 19);
    const same = /^(?:\^|~)?v?20(?:\.x|\.(\d+))?/.exec(p);
    if (same) return same[1] === undefined || Number(same[1]) <= 19;
    return false;
  });
}

describe('Node support', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Node support'), readme.indexOf('## Documentation'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

  it('declares the floor the README states', () => {
    expect(own.engines.node).toBe('>=20.19.0');
    expect(readme).toContain('Node.js 20.19 or later');
  });

  it('names every runtime dependency that declares a Node newer than the floor', () => {
    const above = Object.entries(lock.packages)
      .filter(
        ([path, e]) =>
          path !== '' && e.dev !== true && e.optional !== true && e.engines && !Array.isArray(e.engines) && e.engines.node && !admitsFloor(e.engines.node),
      )
      .map(([path, e]) => `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${e.version}`);
    expect(above).toEqual(['@scalar/helpers@0.18.0', '@scalar/openapi-types@0.9.9', '@scalar/openapi-upgrader@0.4.9', 'cookie@2.0.2']);
    for (const name of above) expect(section).toContain(`**${name}**`);
  });

  it('cookie 2, the one above, loads here as light-my-request loads it (require of an ES module)', () => {
    const fromFastify = createRequire(createRequire(join(ROOT, 'package.json')).resolve('fastify'));
    const fromLmr = createRequire(fromFastify.resolve('light-my-request'));
    const cookie = fromLmr('cookie') as { stringifySetCookie: (c: { name: string; value: string }) => string };
    expect(cookie.stringifySetCookie({ name: 'a', value: 'b' })).toBe('a=b');
  });

  it('servicespec never calls fastify inject() at run time (so the service does not load cookie)', () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => /\.inject\(/.test(readFileSync(join(ROOT, 'src', f), 'utf8')))).toEqual([]);
  });
});
