import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckedModel } from '../../src/model/model-types.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { startChildServer } from './child-server.js';
import { checkedModel } from '../support/specs.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = checkedModel;

const base = (fields: string, extra = '') => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
${fields}
${extra}
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
authentication:
  default: none
errors:
  body: problem
  codes:
    e400: { status: 400, when: [malformed_request] }
    e404: { status: 404, when: [missing_resource, route_not_found] }
    e405: { status: 405, when: [method_not_allowed] }
    e413: { status: 413, when: [body_too_large] }
    e431: { status: 431, when: [headers_too_large] }
    e415: { status: 415, when: [unsupported_media_type] }
    e422: { status: 422, when: [validation] }
    e500: { status: 500, when: [internal] }
limits:
  body_size: 1KiB
`;

async function start(m: CheckedModel, db: string, allowGaps = false) {
  return createService(m, { storage: createSqliteStorage({ path: db }), allowGaps });
}

async function startError(m: CheckedModel, db: string, allowGaps = false): Promise<ServiceStartError> {
  try {
    const app = await start(m, db, allowGaps);
    await app.close();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceStartError);
    return err as ServiceStartError;
  }
  throw new Error('the service started');
}

describe('startup', () => {
  it('refuses gaps it would have to fill, naming each, unless allowed', async () => {
    const m = model(`servicespec: 1
resources:
  Note: { fields: { id: { type: integer, readOnly: true }, text: { type: string } } }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
`);
    const err = await startError(m, join(dir, 'gaps.db'));
    expect(err.problems.join('\n')).toContain('error code for condition route_not_found: not shown');
    expect(err.problems.join('\n')).toContain('default page size: not shown');
    const app = await start(m, join(dir, 'gaps.db'), true);
    await app.close();
  });

  it('refuses a custom operation with no handler', async () => {
    const m = model(
      `${base('      text: { type: string }')}`.replace(
        '    getNote:',
        '    ping: { method: GET, path: /ping, action: custom, handler: ping, response: { fields: { ok: { type: boolean } } } }\n    getNote:',
      ),
    );
    const err = await startError(m, join(dir, 'custom.db'));
    expect(err.problems).toEqual([
      'handler ping of custom operation ping: not given; pass it with --handlers FILE (with --allow-gaps the runtime would answer it 501 with code "not_implemented")',
    ]);
  });

  it('migrates additive changes and refuses destructive ones, naming each', async () => {
    const db = join(dir, 'migrate.db');
    const v1 = model(base('      text: { type: string }\n      old: { type: string, optional: true }'));
    let app = await start(v1, db);
    const created = await app.inject({ method: 'POST', url: '/notes', payload: { text: 'kept', old: 'x' } });
    expect(created.statusCode).toBe(201);
    await app.close();

    // A new optional field and a new resource: applied, the data kept.
    const v2 = model(
      base(
        '      text: { type: string }\n      old: { type: string, optional: true }\n      tag: { type: string, optional: true, maxLength: 5 }',
        '  Other: { fields: { id: { type: uuid, readOnly: true } } }',
      ),
    );
    app = await start(v2, db);
    const read = await app.inject({ method: 'GET', url: `/notes/${created.json().id}` });
    expect(read.json()).toEqual({ id: 1, text: 'kept', old: 'x' });
    const tagged = await app.inject({ method: 'POST', url: '/notes', payload: { text: 'new', tag: 'abc' } });
    expect(tagged.statusCode).toBe(201);
    await app.close();

    // A removed field, a changed type and a new required field: refused, each named.
    const v3 = model(
      base(
        '      text: { type: integer }\n      tag: { type: string, optional: true, maxLength: 5 }\n      must: { type: string }',
        '  Other: { fields: { id: { type: uuid, readOnly: true } } }',
      ),
    );
    const err = await startError(v3, db);
    expect(err.problems.join('\n')).toContain('field Note.old was removed');
    expect(err.problems.join('\n')).toContain('field Note.text changed type from text to integer');
    expect(err.problems.join('\n')).toContain('new field Note.must is required');

    // The refused start changed nothing.
    app = await start(v2, db);
    expect((await app.inject({ method: 'GET', url: `/notes/${created.json().id}` })).json().text).toBe('kept');
    await app.close();
  });

  it('rebuilds a table whose constraints changed, and refuses when rows break the new ones', async () => {
    const db = join(dir, 'rebuild.db');
    const loose = model(base('      text: { type: string, maxLength: 10 }'));
    let app = await start(loose, db);
    await app.inject({ method: 'POST', url: '/notes', payload: { text: 'eight ch' } });
    await app.close();
    const tighter = model(base('      text: { type: string, maxLength: 5 }'));
    const err = await startError(tighter, db);
    expect(err.problems.join('\n')).toContain('existing rows do not satisfy the changed constraints of Note');
    const looser = model(base('      text: { type: string, maxLength: 50 }'));
    app = await start(looser, db);
    expect((await app.inject({ method: 'GET', url: '/notes/1' })).json().text).toBe('eight ch');
    await app.close();
  });

  it("starts with two paths of one shape naming their parameter apart (vercel's GET /v13/deployments/{idOrUrl}, DELETE …/{id}), refusing the rest once", async () => {
    const m = model(
      base('      text: { type: string }').replace(
        '    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }',
        '    getNote: { method: GET, path: "/notes/{idOrText}", action: read, resource: Note, bind: { idOrText: id } }\n' +
          '    deleteNote: { method: DELETE, path: "/notes/{id}", action: delete, resource: Note }',
      ),
    );
    // It stopped at start: "Method 'DELETE' already declared for route '/notes/:id'" (the first path's refusals).
    const app = await start(m, join(dir, 'one-shape.db'));
    try {
      const id = (await app.inject({ method: 'POST', url: '/notes', payload: { text: 'a' } })).json().id as number;
      expect((await app.inject({ method: 'GET', url: `/notes/${id}` })).statusCode).toBe(200);
      expect((await app.inject({ method: 'DELETE', url: `/notes/${id}` })).statusCode).toBeLessThan(300);
      const put = await app.inject({ method: 'PUT', url: `/notes/${id}`, payload: {} });
      expect(put.statusCode).toBe(405);
      expect(put.headers.allow).toBe('DELETE, GET, HEAD');
    } finally {
      await app.close();
    }
  });

  it('serve refuses a spec with errors and prints them, exit 1', async () => {
    const { writeFileSync } = await import('node:fs');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'servicespec: 1\nresources: { Note: { fields: { id: { type: integr } } } }\n');
    await expect(startChildServer([bad, '--db', 'sqlite::memory:'], 20_000)).rejects.toThrow(/exited with 1[\s\S]*invalid-value/);
  });
});
