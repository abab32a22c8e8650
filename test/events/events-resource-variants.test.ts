// Events of a resource of several shapes (docs/format.md, "Resources of several shapes"; "6. events"): a kind whose
// payload is the resource carries each object as its variant answers it (the shared fields, the tag and that
// variant's own fields only), a change's `previous` names only what changed, and the AsyncAPI export's payload is
// the variants' union, which @asyncapi/parser reads.
import { Parser } from '@asyncapi/parser';
import { afterEach, describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { compileSpecText } from '../../src/program.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';
import { startEventService, type EventService } from './helpers.js';

const EVENTS = `events:
  kinds:
    pet.created: { payload: { resource: Pet }, on: [create] }
    pet.updated: { payload: { resource: Pet }, on: [update] }
    pet.deleted: { payload: { resource: Pet }, on: [delete] }
`;

// The events helper makes API keys of these scopes; the pets' operations take no credential.
const AUTH = `authentication:
  schemes:
    key: { type: api_key, in: header, name: X-API-Key }
  scopes:
    "tickets:read": Read.
    "webhooks:manage": Register webhook endpoints.
  default: none
`;

function model(): ServiceModel {
  const c = compileSpecText(PET_VARIANTS_SPEC.replace('authentication:\n  default: none\n', `${EVENTS}${AUTH}`));
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

const running: EventService[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

describe('events of a resource of several shapes', () => {
  it("carry each object as its variant answers it, and a change's previous values only", async () => {
    const s = await startEventService({ model: model() });
    running.push(s);
    const cat = await s.call('POST', '/pets', { kind: 'cat', name: 'Tom', indoor: true });
    expect(cat.status).toBe(201);
    const dog = await s.call('POST', '/pets', { kind: 'Dog', name: 'Rex', breed: 'collie' });
    expect(dog.status).toBe(201);
    const changed = await s.call('PATCH', `/pets/${dog.body.id as string}`, { breed: 'beagle' });
    expect(changed.status).toBe(200);
    expect((await s.call('DELETE', `/pets/${cat.body.id as string}`)).status).toBe(204);
    const events = await s.storage.readOutbox(0, 100);
    expect(events.map((e) => e.type)).toEqual(['pet.created', 'pet.created', 'pet.updated', 'pet.deleted']);
    expect(events[0]!.data).toEqual({ object: cat.body });
    expect(Object.keys((events[0]!.data as { object: object }).object).sort()).toEqual(['id', 'indoor', 'kind', 'name']);
    expect(events[1]!.data).toEqual({ object: dog.body });
    expect(events[2]!.data).toEqual({ object: changed.body, previous: { breed: 'collie' } });
    expect(events[3]!.data).toEqual({ object: cat.body });
  });

  it('export the payload as the union of the variants, which @asyncapi/parser reads', async () => {
    const doc = exportAsyncApi(model()).document;
    const { diagnostics } = await new Parser().parse(JSON.stringify(doc));
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(JSON.stringify(doc)).toMatch(/"oneOf"/);
  });
});
