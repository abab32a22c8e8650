// An update sent to see a change take effect sends each field another value than the object holds. It was drawn
// freely, so on some seeds it sent the values the object already held (a boolean, an enum of two), and a service
// ignoring the update (answering and keeping the object as it was) passed endpoints.valid-requests. A field with no
// other value (an enum of one) is sent as it is, and a change cannot show on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: uuid, readOnly: true }
      done: { type: boolean }
      priority: { type: enum, values: [low, high] }
      kind: { type: enum, values: [chore] }
endpoints:
  operations:
    createTask: { method: POST, path: /tasks, action: create, resource: Task }
    getTask: { method: GET, path: '/tasks/{id}', action: read, resource: Task }
    updateTask: { method: PATCH, path: '/tasks/{id}', action: update, resource: Task }
authentication:
  default: none
${PLAIN_ERRORS}`;

const VALID: Record<string, (v: unknown) => boolean> = {
  done: (v) => typeof v === 'boolean',
  priority: (v) => v === 'low' || v === 'high',
  kind: (v) => v === 'chore',
};

/** `ignores`: an update is answered 200 with the task as it was, and nothing is stored. */
function start(ignores: boolean): Promise<HandServer> {
  const tasks = new Map<string, Record<string, unknown>>();
  const valid = (b: Record<string, unknown>) => Object.entries(b).every(([k, v]) => VALID[k]?.(v) === true);
  return startHandServer((req, reply) => {
    const one = /^\/tasks\/([^/?]+)$/.exec(req.url);
    const t = one ? tasks.get(decodeURIComponent(one[1]!)) : undefined;
    if (req.method === 'GET' && one) return t ? reply.json(200, t) : reply.problem(404, 'not_found');
    if (req.method === 'PATCH' && one) {
      if (!t) return reply.problem(404, 'not_found');
      const b = readJson(req);
      if (!isObject(b) || !valid(b)) return reply.problem(422, 'invalid');
      if (!ignores) Object.assign(t, b);
      return reply.json(200, t);
    }
    if (req.method !== 'POST' || req.url !== '/tasks') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || !valid(b) || Object.keys(VALID).some((k) => !(k in b))) return reply.problem(422, 'invalid');
    const made = { id: crypto.randomUUID(), ...b };
    tasks.set(made.id, made);
    reply.json(201, made, 'application/json', { location: `/tasks/${made.id}` });
  });
}

describe('an update sends other values than the object holds', () => {
  let faithful: HandServer;
  let ignoring: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    ignoring = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    ignoring?.close();
  });
  const outcome = async (url: string, seed: number) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed, runs: 1, only: ['updateTask'] })).results.find(
      (r) => r.check === 'endpoints.valid-requests' && r.target === 'updateTask',
    )?.outcome;

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: a faithful service passes; one ignoring the update fails', async (seed) => {
    expect(await outcome(faithful.url, seed)).toBe('passed');
    expect(await outcome(ignoring.url, seed)).toBe('failed');
  });
});
