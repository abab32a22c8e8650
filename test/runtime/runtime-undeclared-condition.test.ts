// serve --allow-gaps answers a condition the spec declares no error code for (a named gap) with a built-in answer,
// and marks every such answer with a Servicespec-Undeclared-Condition header naming the condition, so the contract
// tester tells it from a service's own answer without guessing (docs/format.md, "Errors"). A declared condition's
// answer, and one the operation's own code gives (an imported 400), carry none. Fastify's answers and the raw ones
// Node's http server writes (no Host) alike; the fast and plain paths alike (SERVICESPEC_FAST_PATHS=off).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDECLARED_CONDITION_HEADER } from '../../src/model/model-response-headers.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { callJson, sendRaw } from '../support/http.js';
import { checkedModel } from '../support/specs.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-undeclared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// malformed_request and unsupported_media_type are declared by no code; createNote lists only the 422, bulkNote a 400
// of its own (answered with that code where no code declares malformed_request: getOperationRefusalCode).
const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, maxLength: 20 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none, errors: [invalid] }
    readNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }
    replaceNote: { method: PUT, path: "/notes/{id}", action: replace, resource: Note, auth: none, errors: [bad_request] }
errors:
  body:
    fields:
      status: { type: integer }
      title: { type: string }
      detail: { type: string, optional: true }
  codes:
    invalid: { status: 422, title: Invalid, when: [validation] }
    not_found: { status: 404, title: Not found, when: [missing_resource, route_not_found] }
    bad_request: { status: 400, title: Bad request }
limits:
  body_size: 1KiB
`;

describe('the Servicespec-Undeclared-Condition header', () => {
  let url = '';
  let close: () => Promise<unknown> = async () => undefined;
  beforeAll(async () => {
    const app = await createService(checkedModel(SPEC), { storage: createSqliteStorage({ path: join(dir, 'notes.db') }), allowGaps: true });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  });
  afterAll(() => close());

  it('marks the built-in answer to a condition no code declares, naming it', async () => {
    const malformed = await callJson(url, 'POST', '/notes', '{"title": ');
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get(UNDECLARED_CONDITION_HEADER)).toBe('malformed_request');
    // The declared body has no code field: the header is all that names the condition.
    expect(malformed.body).not.toHaveProperty('code');
    const media = await callJson(url, 'POST', '/notes', 'x', { 'content-type': 'text/plain' });
    expect(media.status).toBe(415);
    expect(media.headers.get(UNDECLARED_CONDITION_HEADER)).toBe('unsupported_media_type');
  });

  it("is absent from a declared condition's answer and from a success", async () => {
    const invalid = await callJson(url, 'POST', '/notes', { title: 'x'.repeat(21) });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.has(UNDECLARED_CONDITION_HEADER)).toBe(false);
    const missing = await callJson(url, 'GET', '/notes/999');
    expect(missing.status).toBe(404);
    expect(missing.headers.has(UNDECLARED_CONDITION_HEADER)).toBe(false);
    const created = await callJson(url, 'POST', '/notes', { title: 'x' });
    expect(created.status).toBe(201);
    expect(created.headers.has(UNDECLARED_CONDITION_HEADER)).toBe(false);
  });

  it("is absent where the operation's own code answers the undeclared condition (a declared code's answer)", async () => {
    const created = await callJson(url, 'POST', '/notes', { title: 'y' });
    const own = await callJson(url, 'PUT', `/notes/${String(created.body.id)}`, '{"title": ');
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ status: 400, title: 'Bad request' });
    expect(own.headers.has(UNDECLARED_CONDITION_HEADER)).toBe(false);
  });

  it("marks the raw answers Node's http server gives too (no Host header)", async () => {
    const [answer] = await sendRaw(Number(new URL(url).port), 'GET /notes/1 HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer!.status).toBe(400);
    expect(answer!.headers[UNDECLARED_CONDITION_HEADER.toLowerCase()]).toBe('malformed_request');
  });
});
