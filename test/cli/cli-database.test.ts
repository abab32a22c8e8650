// The database path: commands that manage a running service refuse a database that does not exist (never creating
// one or its folders) unless --create is given; the default is beside the spec file, wherever the command runs.

import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLES, freePort, runCli, startCli, tempDir } from './cli-helpers.js';

const ORDERS = EXAMPLES[2]!;
const dir = tempDir();
afterAll(() => dir.remove());

describe('database path', { timeout: 180_000 }, () => {
  it('keys create from another folder with no --db refuses a missing database: exit 1, a clear message, nothing created', async () => {
    const spec = join(dir.path, 'spec', 'orders.yaml');
    mkdirSync(join(dir.path, 'spec'));
    copyFileSync(ORDERS, spec);
    const elsewhere = join(dir.path, 'elsewhere');
    mkdirSync(elsewhere);
    const r = await runCli(['keys', 'create', spec, '--subject', 'alice', '--scopes', 'orders:read'], { cwd: elsewhere });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `servicespec keys create: no database at ${join(dir.path, 'spec', 'data', 'orders.db')}; these commands manage an existing service's database. ` +
        'Name it with --db (the one `serve` uses), or pass --create to start a new one\n',
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(join(dir.path, 'spec'))).toEqual(['orders.yaml']);
  });

  it('keys list --db with a typo creates no folder and no database', async () => {
    const typo = join(dir.path, 'dta', 'nested', 'orders.db');
    for (const args of [
      ['keys', 'list'],
      ['users', 'list'],
      ['clients', 'list'],
      ['webhooks', 'list'],
    ]) {
      const r = await runCli([...args, ORDERS, '--db', `sqlite:${typo}`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no database at ${typo}`);
      expect(existsSync(join(dir.path, 'dta'))).toBe(false);
    }
  });

  it('--create starts a new database; keys create prints the key alone on stdout', async () => {
    const db = join(dir.path, 'new', 'orders.db');
    const r = await runCli(['keys', 'create', ORDERS, '--db', `sqlite:${db}`, '--create', '--subject', 'alice', '--scopes', 'orders:read']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\S+\n$/);
    expect(r.stderr).toMatch(/^API key \S+ for subject alice \(scheme \S+; scopes: orders:read\)\nKeep the key now/);
    expect(existsSync(db)).toBe(true);
    // The database exists now: no --create needed.
    const listed = await runCli(['keys', 'list', ORDERS, '--db', `sqlite:${db}`]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('alice');
  });

  it('serve creates its default database beside the spec and takes PORT and HOST from the environment', async () => {
    const spec = join(dir.path, 'served', 'orders.yaml');
    mkdirSync(join(dir.path, 'served'));
    copyFileSync(ORDERS, spec);
    const port = await freePort();
    const served = startCli(['serve', spec, '--allow-gaps', '--log', 'silent', '--handlers', join(EXAMPLES[2]!, '..', 'orders-handlers.js')], {
      cwd: dir.path,
      env: { PORT: String(port), HOST: '127.0.0.1' },
    });
    try {
      await served.waitFor(
        new RegExp(
          `serving .* at http://127\\.0\\.0\\.1:${port} \\(database sqlite:${join(dir.path, 'served', 'data', 'orders.db').replace(/[.\\/]/g, '\\$&')}\\)`,
        ),
      );
      expect((await fetch(`http://127.0.0.1:${port}/orders`)).status).toBe(401);
    } finally {
      await served.stop();
    }
    // --port beats PORT.
    const other = await freePort();
    const again = startCli(
      ['serve', spec, '--allow-gaps', '--log', 'silent', '--port', String(other), '--handlers', join(EXAMPLES[2]!, '..', 'orders-handlers.js')],
      { env: { PORT: String(port) } },
    );
    try {
      await again.waitFor(new RegExp(`at http://127\\.0\\.0\\.1:${other} `));
    } finally {
      await again.stop();
    }
  });
});
