// Emission: each kind fires on what the spec says, in the change's own transaction, with a payload that matches
// its declared shape; a payload that does not match fails the change (no change without its event).

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { EVENTS_SPEC, startEventService, type EventService } from './helpers.js';

const running: EventService[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

function variant(edit: (text: string) => string): ServiceModel {
  const c = compileSpecText(edit(readFileSync(EVENTS_SPEC, 'utf8')));
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

async function start(model?: ServiceModel): Promise<EventService> {
  const s = await startEventService(model ? { model } : {});
  running.push(s);
  return s;
}

describe('event emission', () => {
  it('fires each kind on its declared trigger, with the envelope the issue names', async () => {
    const s = await start(variant((t) => `${t}versioning:\n  scheme: integer\n  current: 3\n  placement: { header: Api-Version }\n  default: current\n`));
    const t = (await s.call('POST', '/tickets', { title: 'one' })).body;
    await s.call('PATCH', `/tickets/${t.id}`, { title: 'two' });
    await s.call('POST', `/tickets/${t.id}/start`);
    await s.call('POST', `/tickets/${t.id}/stop`);
    await s.call('POST', `/tickets/${t.id}/finish`);
    await s.call('POST', `/tickets/${t.id}/start`); // refused: finished is terminal, so no event
    await s.call('DELETE', `/tickets/${t.id}`);
    const events = await s.storage.readOutbox(0, 100);
    expect(events.map((e) => e.type)).toEqual(['ticket.created', 'ticket.updated', 'ticket.started', 'ticket.stopped', 'ticket.finished', 'ticket.deleted']);
    for (const e of events) {
      expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Date.parse(e.timestamp)).not.toBeNaN();
      expect(e.version).toBe('3');
    }
    expect(events[1]!.data).toEqual({ object: { ...t, title: 'two' }, previous: { title: 'one' } });
    expect(events[4]!.data).toMatchObject({ object: { status: 'done' }, previous: { status: 'open' } });
    // A declared field payload carries exactly its fields.
    expect(events[5]!.data).toEqual({ object: { id: t.id, title: 'two' } });
  });

  it('rolls the change back when its payload does not match the declared shape', async () => {
    const model = variant((t) =>
      t.replace(
        'ticket.deleted: { payload: { fields: { id: { type: uuid }, title: { type: string } } }',
        'ticket.deleted: { payload: { fields: { id: { type: uuid }, reason: { type: string } } }',
      ),
    );
    const s = await start(model);
    const t = (await s.call('POST', '/tickets', { title: 'stays' })).body;
    const before = await s.storage.lastOutboxSeq();
    const res = await s.call('DELETE', `/tickets/${t.id}`);
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('internal');
    expect((await s.call('GET', `/tickets/${t.id}`)).status).toBe(200);
    expect(await s.storage.lastOutboxSeq()).toBe(before);
  });

  it('writes no event for a change that fails', async () => {
    const s = await start();
    const before = await s.storage.lastOutboxSeq();
    expect((await s.call('POST', '/tickets', { title: '' })).status).toBe(422);
    expect((await s.call('POST', '/tickets/00000000-0000-7000-8000-000000000000/start')).status).toBe(404);
    expect(await s.storage.lastOutboxSeq()).toBe(before);
  });
});
