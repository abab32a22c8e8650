// A list of union values (Cal.com's event type `locations`: in_person | phone | video, tagged by `type`) has each
// variant's own members broken under its tag, and a number bound with a step is passed by one step. Before, no probe
// reached a variant's member (a phone pattern or a video provider enum left unchecked escaped), and `length: 5–720
// in fives` was probed with 4 and 721, which a service checking the step alone refuses too (a booking sweep).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, startHandServer, takeObject, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  EventType:
    fields:
      id: { type: uuid, readOnly: true }
      length: { type: integer, minimum: 5, maximum: 720, multipleOf: 5 }
      locations:
        type: array
        maxItems: 3
        items:
          type: union
          discriminator: type
          variants:
            phone: { fields: { number: { type: string, pattern: '^\\+[1-9][0-9]{6,14}$' } } }
            video: { fields: { provider: { type: enum, values: [zoom, meet] } } }
endpoints:
  operations:
    createEventType: { method: POST, path: /event-types, action: create, resource: EventType, errors: [invalid] }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Fault = 'none' | 'length_range' | 'phone_pattern' | 'video_enum';

function start(fault: Fault): Promise<HandServer> {
  return startHandServer((req, reply) => {
    if (req.method !== 'POST' || req.url !== '/event-types') return reply.problem(404, 'not_found');
    const b = takeObject(req, reply);
    if (!b) return;
    const { length, locations, ...rest } = b;
    if (Object.keys(rest).length > 0) return reply.problem(422, 'invalid');
    if (typeof length !== 'number' || !Number.isInteger(length) || length % 5 !== 0) return reply.problem(422, 'invalid');
    if (fault !== 'length_range' && (length < 5 || length > 720)) return reply.problem(422, 'invalid');
    if (!Array.isArray(locations) || locations.length > 3) return reply.problem(422, 'invalid');
    for (const l of locations) {
      if (!isObject(l)) return reply.problem(422, 'invalid');
      const { type, ...members } = l;
      const keys = Object.keys(members).join(',');
      if (type === 'phone') {
        if (keys !== 'number' || typeof members.number !== 'string') return reply.problem(422, 'invalid');
        if (fault !== 'phone_pattern' && !/^\+[1-9][0-9]{6,14}$/.test(members.number)) return reply.problem(422, 'invalid');
      } else if (type === 'video') {
        if (keys !== 'provider' || typeof members.provider !== 'string') return reply.problem(422, 'invalid');
        if (fault !== 'video_enum' && !['zoom', 'meet'].includes(members.provider)) return reply.problem(422, 'invalid');
      } else return reply.problem(422, 'invalid');
    }
    const e = { id: crypto.randomUUID(), length, locations };
    reply.json(201, e, 'application/json', { location: `/event-types/${e.id}` });
  });
}

describe("a list of unions' members and a stepped bound", () => {
  const servers = new Map<Fault, HandServer>();
  beforeAll(async () => {
    for (const f of ['none', 'length_range', 'phone_pattern', 'video_enum'] as const) servers.set(f, await start(f));
  });
  afterAll(() => {
    for (const s of servers.values()) s.close();
  });
  const failed = async (f: Fault) => {
    const r = await testService(checkedModel(SPEC), {
      baseUrl: servers.get(f)!.url,
      seed: 1,
      only: ['endpoints.invalid-requests', 'endpoints.valid-requests'],
    });
    return r.results.filter((x) => x.outcome === 'failed').map((x) => x.target);
  };

  it('a faithful service passes', async () => {
    expect(await failed('none')).toEqual([]);
  }, 60_000);

  it('each planted fault is caught', async () => {
    expect(await failed('length_range')).toEqual(['createEventType: length below minimum 5', 'createEventType: length above maximum 720']);
    expect((await failed('phone_pattern')).some((t) => t.startsWith('createEventType: locations[0] (variant phone) number not matching pattern'))).toBe(true);
    // An enum not checked takes a value of none, and a declared one in another case.
    expect(await failed('video_enum')).toEqual([
      'createEventType: locations[0] (variant video) provider not one of zoom, meet',
      'createEventType: locations[0] (variant video) provider "ZOOM", "zoom" in another case (not one of its values)',
    ]);
  }, 60_000);
});
