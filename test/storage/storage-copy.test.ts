// `servicespec db copy` (issue 28): a populated deployment — resources, API keys, users, OAuth clients, webhook
// endpoints, events, idempotency records, cursor and signing keys — served from the source over real HTTP, copied
// SQLite → PostgreSQL and back, then served from each target: the same key, user, client, token, cursor and
// idempotency key work there, and every row of every table reads back unaltered. Then each bad input by its code,
// with nothing changed.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { copyStorage } from '../../src/runtime/storage/storage-copy.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { runCli, STACK_LINE } from '../cli/cli-helpers.js';
import { openStream } from '../events/helpers.js';
import { callJson } from '../support/http.js';
import { dropTestSchemas, getPostgresSkipReason, getTestSchemaUrl, POSTGRES_URL } from '../support/postgres.js';

// The runtime's driver for this Node (better-sqlite3 12 aborts at exit on Node 24).
const Database = loadSqliteDriver();

const dir = mkdtempSync(join(tmpdir(), 'servicespec-copy-'));
const pgSkip = await getPostgresSkipReason();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!pgSkip) await dropTestSchemas();
});

const SPEC = `servicespec: 1
purpose:
  name: Copied tickets
  summary: Tickets, tags and their events, copied between databases.
resources:
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 120 }
      points: { type: number, optional: true }
      urgent: { type: boolean, optional: true }
      note: { type: string, optional: true, nullable: true }
      meta: { type: object, optional: true, fields: { a: { type: integer }, b: { type: string, optional: true } } }
      status: { type: state }
      created_at: { type: datetime, readOnly: true, generated: create_time }
  Tag:
    fields:
      id: { type: integer, readOnly: true }
      label: { type: string }
      ticket: { type: ref, to: Ticket }
states:
  Ticket:
    field: status
    initial: open
    states: { open: {}, done: { terminal: true } }
    transitions:
      finish: { from: open, to: done, emits: ticket.finished }
endpoints:
  base_url: "{base_url}"
  idempotency: { header: Idempotency-Key, retention: 1h }
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, idempotent: true, auth: { scopes: ["tickets:write"] } }
    getTicket: { method: GET, path: "/tickets/{id}", action: read, resource: Ticket }
    listTickets: { method: GET, path: /tickets, action: list, resource: Ticket }
    finishTicket: { method: POST, path: "/tickets/{id}/finish", action: transition, resource: Ticket, transition: finish, auth: { scopes: ["tickets:write"] } }
    createTag: { method: POST, path: /tags, action: create, resource: Tag, auth: { scopes: ["tickets:write"] } }
    listTags: { method: GET, path: /tags, action: list, resource: Tag }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-API-Key }
    staff: { type: basic }
    machine:
      type: oauth2_client_credentials
      token: jwt
      algorithms: [ES256]
      issuer: https://tickets.test/
      audience: tickets
      token_path: /oauth/token
      lifetime: 15m
  scopes:
    "tickets:read": Read tickets.
    "tickets:write": Write tickets.
    "webhooks:manage": Register webhook endpoints.
  default: { schemes: [key, staff, machine], scopes: ["tickets:read"] }
events:
  delivery:
    webhook: { signing: standard-webhooks, retries: [100ms], timeout: 500ms, path: /webhooks, scopes: ["webhooks:manage"] }
    stream: { path: /events, heartbeat: 200ms }
  kinds:
    ticket.created: { payload: { resource: Ticket }, on: [create] }
    ticket.finished: { payload: { resource: Ticket } }
errors:
  body: problem
  codes:
    invalid_request: { status: 422, when: [validation, reference_not_found] }
    malformed_request: { status: 400, when: [malformed_request] }
    unauthenticated: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
    forbidden: { status: 403, when: [missing_scope] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    invalid_transition: { status: 409, when: [illegal_transition] }
    internal: { status: 500, when: [internal] }
limits:
  page_size: { default: 2, max: 10 }
`;
const specFile = join(dir, 'tickets.yaml');
writeFileSync(specFile, SPEC);
const model = compileSpecText(SPEC).checked!;

let n = 0;
const sqliteUrl = () => `sqlite:${join(dir, `db-${n++}.db`)}`;

function open(url: string): Storage {
  return url.startsWith('sqlite:') ? createSqliteStorage({ path: url.slice('sqlite:'.length) }) : createPostgresStorage({ url });
}

async function withStorage<T>(url: string, fn: (s: Storage) => Promise<T>): Promise<T> {
  const s = open(url);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Every table's rows, each as an object by column name, sorted: what a database holds, engine aside. */
async function dump(url: string): Promise<Record<string, unknown[]>> {
  return withStorage(url, (s) =>
    s.readForCopy!(async (reader) => {
      const out: Record<string, unknown[]> = {};
      for (const t of await reader.tables()) {
        const rows: string[] = [];
        for await (const batch of reader.rows(t, 1000))
          for (const r of batch) rows.push(JSON.stringify(Object.fromEntries(t.columns.map((c, i) => [c.name, r[i]]))));
        out[t.name] = rows.sort().map((r) => JSON.parse(r) as unknown);
      }
      return out;
    }),
  );
}

/** The spec served from `url` over real HTTP until `fn` is done. */
async function serving<T>(
  url: string,
  fn: (
    call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ReturnType<typeof callJson>,
    storage: Storage,
    base: string,
  ) => Promise<T>,
): Promise<T> {
  const storage = open(url);
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const app = await createService(model, { storage, authenticator, allowGaps: true });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return await fn((method, path, body, headers) => callJson(base, method, path, body, headers), storage, base);
  } finally {
    await app.close();
    await storage.close().catch(() => undefined);
  }
}

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

async function copy(from: string, to: string, spec = specFile) {
  return runCli(['db', 'copy', spec, '--from', from, '--to', to]);
}

describe.skipIf(pgSkip !== undefined)('db copy of a served deployment, over real HTTP', { timeout: 120_000 }, () => {
  it('SQLite → PostgreSQL → SQLite: the same key, user, client, token, list cursor, event-stream position and idempotency key work, and every row reads back unaltered', async () => {
    const source = sqliteUrl();
    const key = (
      await runCli(['keys', 'create', specFile, '--db', source, '--create', '--subject', 'alice', '--scopes', 'tickets:read,tickets:write'])
    ).stdout.trim();
    expect(key).toMatch(/^\S+$/);
    expect(
      (await runCli(['users', 'create', specFile, 'bob', '--db', source, '--scopes', 'tickets:read', '--password-stdin'], { input: 'bob-password-1234' })).code,
    ).toBe(0);
    const client = JSON.parse((await runCli(['clients', 'create', specFile, '--db', source, '--scopes', 'tickets:read', '--format', 'json'])).stdout) as {
      clientId: string;
      clientSecret: string;
    };
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(
      (
        await runCli([
          'webhooks',
          'add',
          specFile,
          '--db',
          source,
          '--url',
          'http://127.0.0.1:9/hook',
          '--allow-webhook-target',
          '127.0.0.0/8',
          '--secret',
          secret,
        ])
      ).code,
    ).toBe(0);
    const auth = { 'x-api-key': key };

    /** The events after position 2 on the stream, as a client resuming with Last-Event-ID: 2 reads them. */
    const resumed = async (base: string) => {
      const stream = await openStream(`${base}/events`, { ...auth, 'last-event-id': '2' });
      try {
        expect(stream.status).toBe(200);
        return (await stream.waitFor(3)).slice(0, 3);
      } finally {
        stream.close();
      }
    };
    const seen = await serving(source, async (call, storage, base) => {
      const created = [];
      created.push((await call('POST', '/tickets', { title: 'one', points: 1.25, urgent: true, meta: { a: 1, b: 'é"\\' } }, auth)).body);
      created.push((await call('POST', '/tickets', { title: 'two', note: null, urgent: false }, auth)).body);
      created.push((await call('POST', '/tickets', { title: 'three', note: 'x' }, { ...auth, 'idempotency-key': 'k-1' })).body);
      created.push((await call('POST', '/tickets', { title: 'four' }, auth)).body);
      expect((await call('POST', `/tickets/${created[0].id}/finish`, undefined, auth)).status).toBe(200);
      const tag = await call('POST', '/tags', { label: 'red', ticket: created[1].id }, auth);
      expect(tag.body.id).toBe(1);
      const page1 = await call('GET', '/tickets', undefined, auth);
      expect(page1.body.items).toHaveLength(2);
      const cursor = page1.body.next_cursor as string;
      const page2 = await call('GET', `/tickets?cursor=${encodeURIComponent(cursor)}`, undefined, auth);
      const issued = await call('POST', '/oauth/token', 'grant_type=client_credentials', {
        'content-type': 'application/x-www-form-urlencoded',
        ...basic(client.clientId, client.clientSecret),
      });
      expect(issued.status).toBe(200);
      // The events are queued for the endpoint (its attempts fail: nothing listens there) before the copy.
      for (let i = 0; i < 200 && (await storage.listDeliveries({})).length < 5; i++) await new Promise((done) => setTimeout(done, 25));
      expect(await storage.listDeliveries({})).toHaveLength(5);
      const events = await resumed(base);
      expect(events.map((e) => e.id)).toEqual(['3', '4', '5']);
      return { cursor, page2: page2.body, third: created[2], accessToken: issued.body.access_token as string, events };
    });

    // SQLite → PostgreSQL.
    const onPg = getTestSchemaUrl();
    const r = await copy(source, onPg);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Copied \d+ rows from sqlite:.* to postgres:.* in one transaction/);
    for (const table of [
      'Ticket',
      'Tag',
      '_servicespec_credentials',
      '_servicespec_webhooks',
      '_servicespec_deliveries',
      '_servicespec_outbox',
      '_servicespec_records',
      '_servicespec_meta',
    ])
      expect(r.stdout).toMatch(new RegExp(`\\n  ${table}: [1-9]`));
    const before = await dump(source);
    expect(await dump(onPg)).toEqual(before);
    expect(Object.keys(before).sort()).toEqual(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('  '))
        .map((l) => l.trim().split(':')[0])
        .sort(),
    );

    const works = async (url: string, tagId: number) =>
      serving(url, async (call, _storage, base) => {
        // The stream resumes where the source's did: the same events, ids and payloads.
        expect(await resumed(base)).toEqual(seen.events);
        // The page after the cursor the source gave, with the key the source issued (a ticket made on the first
        // target comes after it, so only its cursor differs on the second).
        const page2 = (await call('GET', `/tickets?cursor=${encodeURIComponent(seen.cursor)}`, undefined, auth)).body;
        expect(page2.items).toEqual(seen.page2.items);
        expect(page2.items).toHaveLength(2);
        expect((await call('GET', '/tickets', undefined, basic('bob', 'bob-password-1234'))).status).toBe(200);
        expect((await call('GET', '/tickets', undefined, basic('bob', 'wrong-password'))).status).toBe(401);
        // A token the source signed verifies (the signing key came along), and the client's secret still gets one.
        expect((await call('GET', '/tickets', undefined, { authorization: `Bearer ${seen.accessToken}` })).status).toBe(200);
        const issued = await call('POST', '/oauth/token', 'grant_type=client_credentials', {
          'content-type': 'application/x-www-form-urlencoded',
          ...basic(client.clientId, client.clientSecret),
        });
        expect(issued.status).toBe(200);
        // The idempotency key's first answer is answered again, not a second ticket.
        const again = await call('POST', '/tickets', { title: 'three', note: 'x' }, { ...auth, 'idempotency-key': 'k-1' });
        expect(again.body.id).toBe(seen.third.id);
        // The integer key continues after the copied rows.
        expect((await call('POST', '/tags', { label: 'blue', ticket: seen.third.id }, auth)).body.id).toBe(tagId);
        expect((await call('POST', '/tickets', { title: 'later' }, auth)).status).toBe(201);
      });
    await works(onPg, 2);
    await withStorage(onPg, async (s) => {
      const endpoints = await s.listWebhookEndpoints();
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]!.secrets[0]!.secret).toBe(secret);
      // Positions continue after the copied ones.
      const events = await s.readEvents(0, 100);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    });

    // PostgreSQL → SQLite.
    const back = sqliteUrl();
    const r2 = await copy(onPg, back);
    expect(r2.stderr).toBe('');
    expect(r2.code).toBe(0);
    expect(await dump(back)).toEqual(await dump(onPg));
    await works(back, 3);
  });
});

describe.skipIf(pgSkip !== undefined)('db copy keeps server-assigned keys moving forward', { timeout: 60_000 }, () => {
  it('a key deleted in the source is not issued again by the target (SQLite → PostgreSQL → SQLite)', async () => {
    const source = sqliteUrl();
    await withStorage(source, async (s) => {
      expect((await s.migrate(getStoragePlan(model))).ok).toBe(true);
      await s.transaction(async (tx) => {
        await tx.insert('Ticket', { id: '00000000-0000-4000-8000-000000000001', title: 't', status: 'open', created_at: '2026-06-01T00:00:00Z' });
        for (let i = 0; i < 5; i++) await tx.insert('Tag', { label: `l${i}`, ticket: '00000000-0000-4000-8000-000000000001' });
        await tx.delete('Tag', 5);
        await tx.delete('Tag', 4);
      });
    });
    const next = async (url: string) =>
      withStorage(url, async (s) => {
        expect((await s.migrate(getStoragePlan(model))).ok).toBe(true);
        const row = await s.transaction((tx) => tx.insert('Tag', { label: 'new', ticket: '00000000-0000-4000-8000-000000000001' }));
        await s.transaction((tx) => tx.delete('Tag', row.id));
        return row.id;
      });
    const onPg = getTestSchemaUrl();
    expect((await copy(source, onPg)).code).toBe(0);
    const back = sqliteUrl();
    expect((await copy(onPg, back)).code).toBe(0);
    expect(await next(onPg)).toBe(6);
    const again = sqliteUrl();
    expect((await copy(onPg, again)).code).toBe(0);
    expect(await next(back)).toBe(6);
    expect(await next(again)).toBe(7);
  });
});

describe('copyStorage, the library function', () => {
  it('copies between two in-memory SQLite storages (reads queue behind the writer there), counts per table', async () => {
    const from = createSqliteStorage({ path: ':memory:' });
    const to = createSqliteStorage({ path: ':memory:' });
    try {
      expect((await from.migrate(getStoragePlan(model))).ok).toBe(true);
      await from.transaction(async (tx) => {
        await tx.insert('Ticket', {
          id: '00000000-0000-4000-8000-000000000009',
          title: 't',
          urgent: false,
          meta: { a: 1 },
          status: 'open',
          created_at: '2026-06-01T00:00:00Z',
        });
        await tx.insert('Tag', { label: 'x', ticket: '00000000-0000-4000-8000-000000000009' });
        await tx.appendEvent({ id: 'e1', type: 'ticket.created', timestamp: '2026-06-01T00:00:00Z', data: { id: 't' } });
      });
      const out = await copyStorage(from, to, { model, from: 'a', to: 'b' });
      expect(out).toMatchObject({ ok: true });
      const rows = Object.fromEntries((out as { tables: { name: string; rows: number }[] }).tables.map((t) => [t.name, t.rows]));
      expect(rows).toMatchObject({ Ticket: 1, Tag: 1, _servicespec_outbox: 1, _servicespec_meta: 1 });
      expect(await to.read((tx) => tx.get('Ticket', '00000000-0000-4000-8000-000000000009'))).toMatchObject({ urgent: false, meta: { a: 1 } });
      // A second copy into the same storage is refused: it is no longer empty.
      expect(await copyStorage(from, to, { model, from: 'a', to: 'b' })).toMatchObject({ ok: false, code: 'copy-target-not-empty' });
    } finally {
      await from.close();
      await to.close();
    }
  });
});

/** Sets a META key straight in the database (what a newer servicespec would have written). */
async function setMeta(url: string, key: string, value: string): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    db.prepare('INSERT INTO _servicespec_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    db.close();
    return;
  }
  const schema = new URL(url).searchParams.get('schema')!;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`INSERT INTO "${schema}"._servicespec_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
      key,
      value,
    ]);
  } finally {
    await client.end();
  }
}

/** A source served once, holding one ticket. */
async function seeded(url = sqliteUrl()): Promise<string> {
  const key = (await runCli(['keys', 'create', specFile, '--db', url, '--create', '--subject', 'alice', '--scopes', 'tickets:write'])).stdout.trim();
  await serving(url, async (call) => {
    expect((await call('POST', '/tickets', { title: 'one' }, { 'x-api-key': key })).status).toBe(201);
  });
  return url;
}

/** One line on stderr with the code, exit 1, no stack trace. */
function expectRefusal(r: { code: number | null; stdout: string; stderr: string }, code: string): void {
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(new RegExp(`^servicespec db copy: ${code}: [^\\n]+\\n$`));
  expect(r.stderr).not.toMatch(STACK_LINE);
}

describe('db copy refuses bad input, changing nothing', { timeout: 120_000 }, () => {
  it('an unreachable source or target: copy-unreachable, no target file made', async () => {
    const missing = join(dir, 'missing.db');
    const target = join(dir, `t-${n++}.db`);
    const r = await copy(`sqlite:${missing}`, `sqlite:${target}`);
    expectRefusal(r, 'copy-unreachable');
    expect(r.stderr).toContain('no such database file');
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(target)).toBe(false);
    const source = await seeded();
    const before = await dump(source);
    const r2 = await copy(source, 'postgres://postgres@127.0.0.1:1/nothing');
    expectRefusal(r2, 'copy-unreachable');
    expect(await dump(source)).toEqual(before);
  });

  it('a spec with errors: copy-spec-invalid, neither database opened', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'servicespec: 1\nresources:\n  Ticket:\n    fields:\n      id: { type: nope }\n');
    const target = join(dir, `t-${n++}.db`);
    expectRefusal(await copy(sqliteUrl(), `sqlite:${target}`, bad), 'copy-spec-invalid');
    expect(existsSync(target)).toBe(false);
  });

  it('a target that is not empty: copy-target-not-empty, its rows as they were', async () => {
    const source = await seeded();
    const target = await seeded();
    const before = await dump(target);
    const r = await copy(source, target);
    expectRefusal(r, 'copy-target-not-empty');
    expect(r.stderr).toContain('1 row in Ticket');
    expect(await dump(target)).toEqual(before);
  });

  it('a source or target migrated by a newer servicespec: copy-newer-database', async () => {
    const source = await seeded();
    await setMeta(source, 'storage_format', '99');
    const target = join(dir, `t-${n++}.db`);
    const r = await copy(source, `sqlite:${target}`);
    expectRefusal(r, 'copy-newer-database');
    expect(r.stderr).toContain('storage format 99');
    expect(existsSync(target)).toBe(false);
    // A target that holds nothing but a newer format's record.
    const source2 = await seeded();
    const empty = sqliteUrl();
    await withStorage(empty, async () => undefined);
    await setMeta(empty, 'storage_format', '7');
    const before = await dump(empty);
    expectRefusal(await copy(source2, empty), 'copy-newer-database');
    expect(await dump(empty)).toEqual(before);
  });

  it('a source not migrated to the spec: copy-source-not-migrated, naming the migrate command', async () => {
    const source = await seeded();
    const v2 = join(dir, 'tickets-v2.yaml');
    writeFileSync(
      v2,
      SPEC.replace(
        '      title: { type: string, minLength: 1, maxLength: 120 }\n',
        '      title: { type: string, minLength: 1, maxLength: 120 }\n      priority: { type: integer, default: 3 }\n',
      ),
    );
    const target = join(dir, `t-${n++}.db`);
    const r = await copy(source, `sqlite:${target}`, v2);
    expectRefusal(r, 'copy-source-not-migrated');
    expect(r.stderr).toContain(`servicespec migrate ${v2} --db ${source} --apply`);
    expect(existsSync(target)).toBe(false);
    if (pgSkip !== undefined) return;
    // A PostgreSQL target is not even opened: no schema is made in it.
    const onPg = getTestSchemaUrl();
    expectRefusal(await copy(source, onPg, v2), 'copy-source-not-migrated');
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      expect((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [new URL(onPg).searchParams.get('schema')])).rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('the same database twice: copy-same-database', async () => {
    const source = await seeded();
    expectRefusal(await copy(source, source), 'copy-same-database');
  });

  it('a table the target has no counterpart for (a table added to one storage only) fails the copy, and nothing is left', async () => {
    const source = await seeded();
    const db = new Database(source.slice('sqlite:'.length));
    db.exec('CREATE TABLE _servicespec_future (x TEXT) STRICT');
    db.exec("INSERT INTO _servicespec_future VALUES ('kept')");
    db.close();
    const target = join(dir, `t-${n++}.db`);
    const r = await copy(source, `sqlite:${target}`);
    expectRefusal(r, 'copy-failed');
    expect(r.stderr).toContain('table _servicespec_future has no counterpart in the target');
    expect(existsSync(target)).toBe(false);
  });

  it("tables that are not servicespec's (another application's, in the same database) are neither copied nor counted", async () => {
    const source = await seeded();
    const db = new Database(source.slice('sqlite:'.length));
    db.exec("CREATE TABLE audit_log (x TEXT); INSERT INTO audit_log VALUES ('theirs')");
    db.close();
    const target = sqliteUrl();
    await withStorage(target, async () => undefined);
    const other = new Database(target.slice('sqlite:'.length));
    other.exec("CREATE TABLE audit_log (x TEXT); INSERT INTO audit_log VALUES ('also theirs')");
    other.close();
    const r = await copy(source, target);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('audit_log');
    expect((await dump(target)).audit_log).toEqual([{ x: 'also theirs' }]);
  });

  it.skipIf(pgSkip !== undefined)('a row the target refuses midway rolls the whole copy back: the PostgreSQL target is as empty as before', async () => {
    const source = await seeded();
    // PostgreSQL text cannot hold NUL; SQLite's can: the copy fails on that row, after others were written.
    const db = new Database(source.slice('sqlite:'.length));
    db.exec("UPDATE Ticket SET title = 'a' || char(0) || 'b'");
    db.close();
    const target = getTestSchemaUrl();
    const r = await copy(source, target);
    expectRefusal(r, 'copy-failed');
    expect(r.stderr).toContain('rolled back');
    const left = await dump(target);
    expect(Object.values(left).every((rows) => rows.length === 0)).toBe(true);
    expect(Object.keys(left)).not.toContain('Ticket');
    // The same target takes a good copy afterwards.
    const good = await seeded();
    expect((await copy(good, target)).code).toBe(0);
  });
});
