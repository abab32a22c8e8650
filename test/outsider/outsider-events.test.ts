// Outsider finding on event payloads, pinned with `it.fails`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { openStream } from '../events/helpers.js';
import { startService, type Running } from '../runtime/helpers.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Device:
    fields:
      id: { type: uuid, readOnly: true }
      serial: { type: string }
      location: { type: string, optional: true }
endpoints:
  operations:
    createDevice: { method: POST, path: /devices, action: create, resource: Device, auth: none }
    getDevice: { method: GET, path: "/devices/{id}", action: read, resource: Device, auth: none }
    updateDevice: { method: PATCH, path: "/devices/{id}", action: update, resource: Device, auth: none }
authentication:
  default: none
events:
  delivery:
    stream: { path: /stream, heartbeat: 10s }
  kinds:
    device.changed: { resource: Device, on: [update], payload: { fields: { serial: { type: string } } } }
${PLAIN_ERRORS}limits:
  body_size: 16KiB
`;

let s: Running;
beforeAll(async () => {
  const c = compileSpecText(SPEC);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  s = await startService(c.model!);
});
afterAll(() => s.close());

describe('outsider: a declared payload of fields', () => {
  // docs/events.md: "`data.object` is the declared payload: … just the payload's declared fields" — and it is; but
  // `data.previous` carries the previous values of every changed field, here `location`, which the declared payload
  // `{ fields: { serial } }` leaves out (seen on a telemetry spec: previous held model, firmware, location, meta).
  // src/runtime/service/runtime-actions.ts:156-165 (emit) cuts `object` to the payload but sets `previous` as given
  // (built at :384-386 from every changed field).
  // Expected: `previous` holds only fields of the declared payload.
  it('data.previous holds only fields of the declared payload', async () => {
    const c = await s.call('POST', '/devices', { serial: 'A1', location: 'Lab 1' });
    expect(c.status).toBe(201);
    const stream = await openStream(`${s.url}/stream`);
    const u = await s.call('PATCH', `/devices/${c.body.id as string}`, { location: 'Lab 2' });
    expect(u.status).toBe(200);
    const [e] = await stream.waitFor(1);
    stream.close();
    const data = (JSON.parse(e!.data) as { data: { object: Record<string, unknown>; previous?: Record<string, unknown> } }).data;
    expect(Object.keys(data.object)).toEqual(['serial']);
    expect(Object.keys(data.previous ?? {}).filter((k) => k !== 'serial')).toEqual([]);
  });
});

describe('outsider: an event kind nobody may receive', () => {
  // docs/events.md "Who receives what": an event is shown only to whoever could read its object. With no read or
  // list operation on Device and delivery by stream only, no reader may ever see device.changed: the service writes each event to the outbox
  // (the stream's "after N" moves on) and delivers it to nobody, and `check` says nothing (src/check/check-rules.ts
  // has `undeclared-event-emission` for a kind nothing emits, no rule for a kind nobody can receive).
  // Expected: a warning naming the kind.
  it('check warns about an event kind no reader can see', () => {
    const text = SPEC.replace(/ {4}getDevice:.*\n/, '');
    expect(text).not.toContain('getDevice');
    const c = compileSpecText(text);
    expect(c.diagnostics.filter((d) => d.severity !== 'info' && d.message.includes('device.changed'))).not.toEqual([]);
  });
});
