// `servicespec keys|clients|users` (the real command, in-process) against the service's database, while the service runs.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../cli/cli-helpers.js';
import { bearer, basic, NOTES, startAuthService, type AuthServer } from './helpers.js';

/** The real `servicespec` command, run in this process (cli-run.ts). */
function cli(args: readonly string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli(args, { input });
}

let s: AuthServer;
let db: string;

beforeAll(async () => {
  s = await startAuthService();
  db = `sqlite:${s.dbPath}`;
});
afterAll(() => s.close());

const SLOW = { timeout: 60_000 };

describe('servicespec keys', SLOW, () => {
  it('create prints the key once; the running service accepts it; revoke takes effect on the next request', async () => {
    const created = await cli([
      'keys',
      'create',
      NOTES,
      '--db',
      db,
      '--subject',
      'alice',
      '--scopes',
      'notes:read, notes:write',
      '--scheme',
      'key',
      '--format',
      'json',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const key = JSON.parse(created.stdout) as { id: string; key: string; subject: string; scopes: string[] };
    expect(key).toMatchObject({ subject: 'alice', scopes: ['notes:read', 'notes:write'] });
    expect((await s.call('GET', '/whoami/key', { headers: { 'x-notes-key': key.key } })).body).toMatchObject({ subject: 'alice', scheme: 'key' });

    const listed = await cli(['keys', 'list', NOTES, '--db', db]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ID\\s+SUBJECT\\s+SCOPES\\s+CREATED\\s+REVOKED\\n${key.id}\\s+alice\\s+notes:read,notes:write\\s+\\S+\\s+-\\n$`));
    expect(listed.stdout).not.toContain(key.key.slice(-43));

    const revoked = await cli(['keys', 'revoke', NOTES, key.id, '--db', db]);
    expect(revoked).toMatchObject({ code: 0, stdout: `API key ${key.id} revoked; requests that present it are refused from now on\n` });
    const r = await s.call('GET', '/whoami/key', { headers: { 'x-notes-key': key.key } });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: 'invalid_credential' });
    expect((await cli(['keys', 'list', NOTES, '--db', db, '--format', 'json'])).stdout).toContain('"revokedAt"');
  });

  it('text output shows the key and says it is shown once', async () => {
    const r = await cli(['keys', 'create', NOTES, '--db', db, '--subject', 'bob', '--scheme', 'qkey']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^nk_[0-9A-Za-z]{12}_[A-Za-z0-9_-]{43}\n$/);
    expect(r.stderr).toMatch(
      /^API key [0-9A-Za-z]{12} for subject bob \(scheme qkey; scopes: none\)\nKeep the key now: it is shown only this once, and only its hash is stored\.\n$/,
    );
  });

  it('bad input: unknown scope or scheme (2), missing subject (2), unknown key id (1), broken spec (1), in-memory db (2)', async () => {
    expect(await cli(['keys', 'create', NOTES, '--db', db, '--subject', 'a', '--scopes', 'nope', '--scheme', 'key'])).toMatchObject({
      code: 2,
      stderr: 'servicespec keys create: unknown scope nope; the spec declares notes:read, notes:write, admin\n',
    });
    expect((await cli(['keys', 'create', NOTES, '--db', db, '--subject', 'a'])).stderr).toMatch(/several api_key schemes \(key, qkey\); name one/);
    expect((await cli(['keys', 'create', NOTES, '--db', db])).code).toBe(2);
    expect(await cli(['keys', 'revoke', NOTES, 'NoSuchKey000', '--db', db])).toMatchObject({
      code: 1,
      stderr: 'servicespec keys revoke: no API key with id NoSuchKey000\n',
    });
    const broken = await cli(['keys', 'list', join(ROOT, 'package.json'), '--db', db]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).not.toMatch(/^\s+at\s/m);
    expect((await cli(['keys', 'list', NOTES, '--db', 'sqlite::memory:'])).code).toBe(2);
    expect((await cli(['keys', 'list', NOTES, '--db', 'mysql://x'])).code).toBe(2);
  });
});

describe('servicespec clients', SLOW, () => {
  it('create, get a token with it, list, revoke', async () => {
    const created = await cli(['clients', 'create', NOTES, '--db', db, '--subject', 'payments', '--scopes', 'notes:read']);
    expect(created.code).toBe(0);
    const id = /client_id:\s+(\S+)/.exec(created.stdout)![1]!;
    const secret = /client_secret:\s+(\S+)/.exec(created.stdout)![1]!;
    expect(created.stdout).toContain('Tokens: POST /oauth/token with grant_type=client_credentials');
    const res = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(id, secret) },
      body: 'grant_type=client_credentials',
    });
    const token = ((await res.json()) as { access_token: string }).access_token;
    expect((await s.call('GET', '/whoami/machine', { headers: bearer(token) })).body).toMatchObject({ subject: 'payments', scopes: ['notes:read'] });
    expect((await cli(['clients', 'list', NOTES, '--db', db])).stdout).toMatch(new RegExp(`${id}\\s+payments\\s+notes:read`));
    expect((await cli(['clients', 'revoke', NOTES, id, '--db', db])).code).toBe(0);
    expect((await cli(['clients', 'revoke', NOTES, 'nobody', '--db', db])).code).toBe(1);
  });
});

describe('servicespec users', SLOW, () => {
  it('create with a password from stdin, sign in with Basic, revoke', async () => {
    expect((await cli(['users', 'create', NOTES, 'gina', '--db', db, '--scopes', 'notes:read', '--password-stdin'], 'a good passphrase\n')).code).toBe(0);
    expect((await s.call('GET', '/whoami/basic', { headers: basic('gina', 'a good passphrase') })).body).toMatchObject({ subject: 'gina', scheme: 'staff' });
    const generated = await cli(['users', 'create', NOTES, 'hal', '--db', db, '--format', 'json']);
    const password = (JSON.parse(generated.stdout) as { password: string }).password;
    expect((await s.call('GET', '/whoami/basic', { headers: basic('hal', password) })).status).toBe(200);
    expect((await cli(['users', 'revoke', NOTES, 'gina', '--db', db])).code).toBe(0);
    expect((await s.call('GET', '/whoami/basic', { headers: basic('gina', 'a good passphrase') })).body.code).toBe('invalid_credential');
    expect((await cli(['users', 'list', NOTES, '--db', db])).stdout).toMatch(/gina\s+gina\s+notes:read\s+\S+\s+\d{4}-/);
  });
});
