// Owned resources over real HTTP: another subject's objects are invisible (Note: owner_access hidden, the
// format's default) or forbidden (Vault: owner_access forbidden), whatever the operation, filter or cursor.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { bearer, claims, HS_SECRET, signHs, startAuthService, type AuthServer, type CallResult } from './helpers.js';

let s: AuthServer;
let alice: Record<string, string>;
let bob: Record<string, string>;
let bobJwt: Record<string, string>;

beforeAll(async () => {
  s = await startAuthService({ auth: { jwt: { secret: HS_SECRET } } });
  const scopes = ['notes:read', 'notes:write'];
  alice = { 'x-notes-key': (await createApiKey(s.storage, s.model, { subject: 'alice', scopes, scheme: 'key' })).key };
  bob = { 'x-notes-key': (await createApiKey(s.storage, s.model, { subject: 'bob', scopes, scheme: 'key' })).key };
  // Bob again, through a bearer token: the subject is what binds ownership, not the scheme.
  bobJwt = bearer(await signHs(claims(s.clock, { sub: 'bob', iss: 'https://issuer.test/', aud: 'notes' }, 3000)));
});
afterAll(() => s.close());

interface Kind {
  resource: 'Note' | 'Vault';
  path: string;
  create: Record<string, unknown>;
  change: Record<string, unknown>;
  transition: string;
  ownerField: string;
  filterField: string;
  /** How another subject's object is answered. */
  other: { status: number; code: string };
}

const NOTE: Kind = {
  resource: 'Note',
  path: '/notes',
  create: { title: 'alice private', tag: 'secret-a' },
  change: { title: 'changed' },
  transition: 'publish',
  ownerField: 'owner',
  filterField: 'tag',
  other: { status: 404, code: 'not_found' },
};
const VAULT: Kind = {
  resource: 'Vault',
  path: '/vaults',
  create: { label: 'alice vault' },
  change: { label: 'changed' },
  transition: 'lock',
  ownerField: 'keeper',
  filterField: 'label',
  other: { status: 403, code: 'not_owner' },
};

async function make(kind: Kind, who: Record<string, string>, body: Record<string, unknown> = kind.create): Promise<Record<string, unknown>> {
  const r = await s.call('POST', kind.path, { body, headers: who });
  expect(r.status).toBe(201);
  return r.body as Record<string, unknown>;
}

describe('the owner field is set by the server', () => {
  it('create records the caller as owner; a client-sent owner is refused', async () => {
    const n = await make(NOTE, alice);
    expect(n.owner).toBe('alice');
    const v = await make(VAULT, bob, { label: 'b' });
    expect(v.keeper).toBe('bob');
    const forged = await s.call('POST', '/notes', { body: { title: 'x', owner: 'bob' }, headers: alice });
    expect(forged.status).toBe(422);
    expect(forged.body.code).toBe('invalid_request');
  });

  it('update and replace cannot move an object to another owner', async () => {
    const n = await make(NOTE, alice);
    for (const method of ['PATCH', 'PUT']) {
      const r = await s.call(method, `/notes/${n.id as string}`, { body: { title: 'y', owner: 'bob' }, headers: alice });
      expect(r.status).toBe(422);
    }
    expect((await s.call('GET', `/notes/${n.id as string}`, { headers: alice })).body.owner).toBe('alice');
    expect((await s.call('GET', `/notes/${n.id as string}`, { headers: bob })).status).toBe(404);
  });

  it('the same subject through another scheme owns the same objects', async () => {
    const v = await make(VAULT, bob, { label: 'mine' });
    expect((await s.call('GET', `/vaults/${v.id as string}`, { headers: bobJwt })).status).toBe(200);
  });
});

describe("user B and user A's objects", () => {
  for (const kind of [NOTE, VAULT]) {
    describe(kind.resource, () => {
      it(`reading: ${kind.other.status} ${kind.other.code}`, async () => {
        const a = await make(kind, alice);
        for (const who of [bob, bobJwt]) {
          const r = await s.call('GET', `${kind.path}/${a.id as string}`, { headers: who });
          expect({ status: r.status, code: r.body.code }).toEqual(kind.other);
          expect(r.text).not.toContain('alice');
        }
      });

      it("listing and filtering return only B's own objects, whatever the filter says", async () => {
        const a = await make(kind, alice);
        const b = await make(kind, bob, { ...kind.create, ...(kind === NOTE ? { tag: 'secret-a' } : { label: 'alice vault' }) });
        const queries = [
          '',
          `?${kind.ownerField}=alice`,
          `?${kind.filterField}=${encodeURIComponent(String(kind.create[kind.filterField]))}`,
          `?${kind.ownerField}=bob`,
        ];
        for (const q of queries) {
          const r = await s.call('GET', `${kind.path}${q}`, { headers: bob });
          expect(r.status).toBe(200);
          const items = r.body.items as Record<string, unknown>[];
          expect(items.every((i) => i[kind.ownerField] === 'bob')).toBe(true);
          expect(items.some((i) => i.id === a.id)).toBe(false);
          expect(items.some((i) => i.id === b.id)).toBe(true);
        }
      });

      it("a cursor from A's listing does not page through A's objects for B", async () => {
        await make(kind, alice);
        await make(kind, alice);
        const page = await s.call('GET', `${kind.path}?limit=1`, { headers: alice });
        const cursor = page.body.next_cursor as string;
        expect(cursor).toBeTruthy();
        const r = await s.call('GET', `${kind.path}?limit=1&cursor=${encodeURIComponent(cursor)}`, { headers: bob });
        expect(r.status).toBe(422);
        expect(r.text).not.toContain('alice');
      });

      it("updating, replacing, deleting and transitioning: refused, and A's object is unchanged", async () => {
        const a = await make(kind, alice);
        const id = a.id as string;
        const attempts: [string, string, unknown][] = [
          ['PATCH', `${kind.path}/${id}`, kind.change],
          ['PUT', `${kind.path}/${id}`, kind.change],
          ['DELETE', `${kind.path}/${id}`, undefined],
          ['POST', `${kind.path}/${id}/${kind.transition}`, undefined],
        ];
        for (const [method, path, body] of attempts) {
          const r = await s.call(method, path, { body, headers: bob });
          expect({ method, status: r.status, code: r.body?.code }).toEqual({ method, ...kind.other });
        }
        expect((await s.call('GET', `${kind.path}/${id}`, { headers: alice })).body).toEqual(a);
      });
    });
  }
});

describe('matrix: resource × operation × owner / other subject / anonymous', () => {
  it('counts 0 cross-subject successes (and every owner attempt succeeds)', async () => {
    const operations = ['read', 'list', 'filter', 'update', 'replace', 'delete', 'transition'] as const;
    const callers = { owner: alice, 'other (key)': bob, 'other (jwt)': bobJwt, anonymous: {} } as const;
    let crossSuccesses = 0;
    let ownerSuccesses = 0;
    let cells = 0;
    const report: string[] = [];
    for (const kind of [NOTE, VAULT]) {
      for (const op of operations) {
        for (const [caller, headers] of Object.entries(callers)) {
          cells++;
          const a = await make(kind, alice);
          const id = a.id as string;
          let r: CallResult;
          switch (op) {
            case 'read':
              r = await s.call('GET', `${kind.path}/${id}`, { headers });
              break;
            case 'list':
              r = await s.call('GET', kind.path, { headers });
              break;
            case 'filter':
              r = await s.call('GET', `${kind.path}?${kind.ownerField}=alice`, { headers });
              break;
            case 'update':
              r = await s.call('PATCH', `${kind.path}/${id}`, { body: kind.change, headers });
              break;
            case 'replace':
              r = await s.call('PUT', `${kind.path}/${id}`, { body: kind.change, headers });
              break;
            case 'delete':
              r = await s.call('DELETE', `${kind.path}/${id}`, { headers });
              break;
            case 'transition':
              r = await s.call('POST', `${kind.path}/${id}/${kind.transition}`, { headers });
              break;
          }
          const ok = r.status >= 200 && r.status < 300;
          // A success for someone else: any 2xx on the object, or a listing that shows it, or a change to it.
          const sawIt = op === 'list' || op === 'filter' ? ok && (r.body.items as { id: string }[]).some((i) => i.id === id) : ok;
          const after = await s.call('GET', `${kind.path}/${id}`, { headers: alice });
          const changed = after.status !== 200 || JSON.stringify(after.body) !== JSON.stringify(a);
          if (caller === 'owner') {
            if (sawIt) ownerSuccesses++;
            continue;
          }
          const expected =
            caller === 'anonymous'
              ? { status: 401, code: 'missing_credential' }
              : op === 'list' || op === 'filter'
                ? { status: 200, code: undefined }
                : kind.other;
          expect({ cell: `${kind.resource} ${op} ${caller}`, status: r.status, code: r.body?.code }).toEqual({
            cell: `${kind.resource} ${op} ${caller}`,
            ...expected,
          });
          if (sawIt || changed) {
            crossSuccesses++;
            report.push(`${kind.resource} ${op} by ${caller}: ${r.status}`);
          }
        }
      }
    }
    expect(cells).toBe(2 * 7 * 4);
    expect(report).toEqual([]);
    expect(crossSuccesses).toBe(0);
    expect(ownerSuccesses).toBe(2 * 7);
  });
});
