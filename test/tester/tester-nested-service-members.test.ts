// A read-only, required member nested in a field a client sends (PagerDuty's REST document: `services[].id` in the
// references an incident holds, `assignee.id`): a client cannot write it (read-only members are left out of requests)
// and serve stores the object as sent, so its answers lacked a member every answer must hold, and no gap said so.
// Now a named gap, as a top-level `source: service` field is: `gaps` names it by its path, serve refuses it without
// --allow-gaps, and with the flag names it in Servicespec-Unset-Fields (`assignee.id, services[].id`), which the
// tester reads as the spec's gap (reported not run). A hand-written service saying nothing is held to it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { getServiceSetMembers } from '../../src/model/model-schemas.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { testService } from '../../src/tester/tester-run.js';
import { callJson } from '../support/http.js';
import { openStream } from '../events/helpers.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Incident:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 40 }
      assignee:
        type: object
        optional: true
        fields:
          id: { type: string, readOnly: true }
          summary: { type: string, maxLength: 20, optional: true }
      services:
        type: array
        maxItems: 3
        items:
          type: object
          fields:
            id: { type: string, readOnly: true }
            type: { type: enum, values: [service_reference] }
            html_url: { type: uri, readOnly: true, optional: true }
endpoints:
  operations:
    createIncident: { method: POST, path: /incidents, action: create, resource: Incident }
    getIncident: { method: GET, path: '/incidents/{id}', action: read, resource: Incident }
authentication:
  default: none
${PLAIN_ERRORS}`;

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual ?? ''}`);

/** The incidents service by hand: `faithful` gives every reference its id; `no-ids` stores them as sent, saying nothing. */
function startHandWritten(mode: 'faithful' | 'no-ids'): Promise<{ url: string; server: Server }> {
  const incidents = new Map<string, Record<string, unknown>>();
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const problem = (res: ServerResponse, status: number, code: string) => send(res, status, { type: 'about:blank', title: code, status, code });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/incidents' && req.method === 'POST') {
        let b: Record<string, unknown>;
        try {
          b = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return problem(res, 400, 'bad_body');
        }
        if (typeof b !== 'object' || b === null || Array.isArray(b)) return problem(res, 422, 'invalid');
        const id = () => (mode === 'faithful' ? { id: randomUUID().slice(0, 8) } : {});
        const incident: Record<string, unknown> = { id: randomUUID(), ...b };
        if (Array.isArray(b.services)) incident.services = (b.services as Record<string, unknown>[]).map((s) => ({ ...id(), ...s }));
        if (b.assignee && typeof b.assignee === 'object') incident.assignee = { ...id(), ...(b.assignee as object) };
        incidents.set(incident.id as string, incident);
        return send(res, 201, incident, { location: `/incidents/${String(incident.id)}` });
      }
      const one = /^\/incidents\/([^/]+)$/.exec(url.pathname);
      if (!one || req.method !== 'GET') return problem(res, 404, 'not_found');
      const held = incidents.get(decodeURIComponent(one[1]!));
      return held ? send(res, 200, held) : problem(res, 404, 'not_found');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('read-only required members nested in a field a client sends', () => {
  let served: OrdersServer;
  let faithful: { url: string; server: Server };
  let faulty: { url: string; server: Server };
  beforeAll(async () => {
    served = await startSpecText('incidents.yaml', SPEC);
    faithful = await startHandWritten('faithful');
    faulty = await startHandWritten('no-ids');
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    faithful?.server.close();
    faulty?.server.close();
  });

  it('are named gaps: gaps names each by its path, serve refuses them without --allow-gaps', async () => {
    const model = checkedModel(SPEC);
    expect(getServiceSetMembers(model.resources[0]!)).toEqual(['assignee.id', 'services[].id']);
    const resources = getGapReport(model).parts.find((p) => p.part === 'resources')!;
    expect(resources.missing.filter((g) => g.item === 'value of a read-only member the service sets')).toEqual([
      { item: 'value of a read-only member the service sets', where: 'Incident.assignee.id' },
      { item: 'value of a read-only member the service sets', where: 'Incident.services[].id' },
    ]);
    expect(formatGapReport(getGapReport(model))).toContain('Incident.services[].id');
    expect(
      getRuntimeGaps(model)
        .filter((g) => g.part === 'resources')
        .map((g) => g.item),
    ).toEqual([
      'value of a read-only member the service sets (Incident.assignee.id): not shown',
      'value of a read-only member the service sets (Incident.services[].id): not shown',
    ]);
    const error = await createService(model, { storage: createSqliteStorage({ path: ':memory:' }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceStartError);
    expect(String((error as Error).message)).toContain('Incident.services[].id');
  });

  it('serve --allow-gaps answers without them and names them in Servicespec-Unset-Fields', async () => {
    const made = await callJson(served.url, 'POST', '/incidents', { title: 'a', assignee: { summary: 'x' }, services: [{ type: 'service_reference' }] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ assignee: { summary: 'x' }, services: [{ type: 'service_reference' }] });
    expect(made.headers.get('servicespec-unset-fields')).toBe('assignee.id, services[].id');
    const read = await callJson(served.url, 'GET', `/incidents/${String((made.body as { id: string }).id)}`);
    expect(read.headers.get('servicespec-unset-fields')).toBe('assignee.id, services[].id');
  });

  it("serve's own check of an event's payload does not require them (it stores the object as sent)", async () => {
    const text = SPEC.replace(
      'authentication:\n',
      'events:\n  delivery:\n    stream: { path: /events, heartbeat: 10s }\n  kinds:\n    incident.added: { payload: { resource: Incident }, on: [create] }\nauthentication:\n',
    );
    const e = await startService(checkedModel(text));
    try {
      const stream = await openStream(`${e.url}/events`);
      const made = await e.call('POST', '/incidents', { title: 'a', services: [{ type: 'service_reference' }] });
      expect(made.status).toBe(201);
      const [event] = await stream.waitFor(1);
      stream.close();
      const body = JSON.parse(event!.data) as { data: { object: Record<string, unknown> } };
      expect(body.data.object.services).toEqual([{ type: 'service_reference' }]);
    } finally {
      await e.close();
    }
  });

  const only = ['endpoints.valid-requests', 'resources.response-shape'];

  it('the tester does not hold their absence against serve: reported not run, naming them', async () => {
    for (const seed of [1, 2]) {
      const r = await testService(served.model, { baseUrl: served.url, ...served.options, seed, only });
      expect(failures(r)).toEqual([]);
      const skipped = r.results.find((x) => x.check === 'resources.response-shape' && x.outcome === 'skipped');
      expect(skipped?.target).toMatch(/^Incident: (assignee\.id, services\[\]\.id|services\[\]\.id, assignee\.id|services\[\]\.id)$/);
      expect(skipped?.notRun).toBe(true);
    }
  }, 120_000);

  it('holds a hand-written service to them: one giving each reference its id passes, one saying nothing fails', async () => {
    const good = await testService(checkedModel(SPEC), { baseUrl: faithful.url, seed: 1, only });
    expect(failures(good)).toEqual([]);
    expect(good.results.find((x) => x.check === 'resources.response-shape' && x.target === 'Incident')?.outcome).toBe('passed');
    const bad = await testService(checkedModel(SPEC), { baseUrl: faulty.url, seed: 1, only });
    expect(failures(bad).some((f) => f.startsWith('resources.response-shape Incident') && f.includes("'id'"))).toBe(true);
  }, 120_000);
});
