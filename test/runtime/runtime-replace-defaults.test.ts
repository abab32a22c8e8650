// A replace (PUT) that leaves out a field with a declared default: the field takes the default, as on create,
// and the OpenAPI export's replace request schema says the same (not required, with its default).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { createBasicUser } from '../../src/runtime/auth/auth-credentials.js';
import { basic, EXAMPLES, startAuthService, type AuthServer } from '../auth/helpers.js';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

let s: Running;
let projectId: string;

beforeAll(async () => {
  s = await startService(loadModel(TICKETS), { allowGaps: false, handlers: { estimate: () => ({ points: 1 }) } });
  const p = await s.call('POST', '/projects', { slug: 'put-defaults', name: 'Put defaults' });
  expect(p.status).toBe(201);
  projectId = p.body.id;
});
afterAll(() => s.close());

describe('replace leaving out a defaulted field', () => {
  it('gives the field its declared default and clears the optional fields left out', async () => {
    const created = await s.call('POST', '/tickets', { project: projectId, title: 'Broken', reporter: 'ann@example.com', priority: 'high', points: 3 });
    expect(created.status).toBe(201);
    const replaced = await s.call('PUT', `/tickets/${created.body.id}`, { project: projectId, title: 'Replaced' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ title: 'Replaced', priority: 'normal', reporter: 'ann@example.com', status: 'open' });
    expect(replaced.body).not.toHaveProperty('points');
    const back = await s.call('GET', `/tickets/${created.body.id}`);
    expect(back.body).toEqual(replaced.body);
  });

  it('still refuses a replace leaving out a required field with no default, naming it', async () => {
    const created = await s.call('POST', '/tickets', { project: projectId, title: 'Broken', reporter: 'ann@example.com' });
    const r = await s.call('PUT', `/tickets/${created.body.id}`, { project: projectId });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.errors).toEqual([{ pointer: '/title', message: 'is required' }]);
  });

  it('the OpenAPI replace request schema shows the default and does not require the field', () => {
    type Schema = { $ref?: string; properties: Record<string, { default?: unknown }>; required?: string[] };
    const doc = exportOpenApi(loadModel(TICKETS)).document as {
      paths: Record<string, { put: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
      components: { schemas: Record<string, Schema> };
    };
    let schema = doc.paths['/tickets/{id}']!.put.requestBody.content['application/json']!.schema;
    if (schema.$ref !== undefined) schema = doc.components.schemas[schema.$ref.split('/').pop()!]!;
    expect(schema.properties.priority?.default).toBe('normal');
    expect(schema.required ?? []).not.toContain('priority');
    expect(schema.required).toContain('title');
  });
});

describe('examples/library.yaml replaceMember', () => {
  let lib: AuthServer;
  beforeAll(async () => {
    lib = await startAuthService({
      spec: join(EXAMPLES, 'library.yaml'),
      handlers: { bookAvailability: () => ({ book: '00000000-0000-4000-8000-000000000000', copies_available: 0, next_due: null }) },
    });
    await createBasicUser(lib.storage, lib.model, { username: 'frontdesk', password: 'open sesame 42', scopes: ['members:read', 'members:write'] });
  });
  afterAll(() => lib.close());

  it('a member replaced without active is active again (its default)', async () => {
    const headers = basic('frontdesk', 'open sesame 42');
    const created = await lib.call('POST', '/v2/members', {
      body: { card_number: '2001004217', full_name: 'Elizabeth Bennet', email: 'e.bennet@example.org', active: false },
      headers,
    });
    expect(created.status).toBe(201);
    expect(created.body.active).toBe(false);
    const replaced = await lib.call('PUT', `/v2/members/${created.body.id}`, { body: { full_name: 'Elizabeth Darcy', email: 'e.darcy@example.org' }, headers });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ card_number: '2001004217', full_name: 'Elizabeth Darcy', active: true });
  });
});
