// A resource made only by an upsert (PUT /patients/{id}, `upsert: true`, no create): the run makes its objects by a
// PUT to a fresh identifier in the field's own form, checks that such a PUT answers 201 and a read shows the object
// and a second PUT answers 200, and does not expect 404 from it. Before, no Patient could be made (13 checks not
// run) and a service answering 404 to every new identifier passed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel } from '../support/specs.js';
import { UPSERT_SPEC } from '../support/upsert-spec.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const failures = (report: Awaited<ReturnType<typeof testService>>) => report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}`);

/**
 * The patients service by hand: `no-upsert` answers 404 to a PUT of an identifier it does not hold (a plain replace);
 * `always-201` creates it, but answers 201 to a PUT replacing an existing patient too.
 */
function startHandWritten(mode: 'no-upsert' | 'always-201'): Promise<{ url: string; server: Server }> {
  const patients = new Map<string, Record<string, unknown>>([['P999999', { id: 'P999999', name: 'Seed', ward: 'general' }]]);
  const problem = (res: ServerResponse, status: number, title: string) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title, status }));
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/patients' && req.method === 'GET') return send(res, 200, { items: [...patients.values()], next_cursor: null });
      const one = /^\/patients\/([^/]+)$/.exec(url.pathname);
      if (!one) return problem(res, 404, 'not_found');
      const id = decodeURIComponent(one[1]!);
      const held = patients.get(id);
      if (req.method === 'GET') return held ? send(res, 200, held) : problem(res, 404, 'not_found');
      if (req.method === 'DELETE') return held ? (patients.delete(id), send(res, 204, undefined)) : problem(res, 404, 'not_found');
      if (req.method !== 'PUT') return problem(res, 405, 'not_allowed');
      if (!held && mode === 'no-upsert') return problem(res, 404, 'not_found');
      let b: Record<string, unknown>;
      try {
        b = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return problem(res, 400, 'bad_body');
      }
      if (typeof b.name !== 'string' || b.name.length === 0) return problem(res, 422, 'invalid');
      const replaced = { id, name: b.name, ward: typeof b.ward === 'string' ? b.ward : 'general' };
      patients.set(id, replaced);
      return send(res, held && mode === 'no-upsert' ? 200 : 201, replaced);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('upsert in the tester', () => {
  let served: OrdersServer;
  let plain: { url: string; server: Server };
  let always201: { url: string; server: Server };
  beforeAll(async () => {
    served = await startSpecText('patients.yaml', UPSERT_SPEC());
    plain = await startHandWritten('no-upsert');
    always201 = await startHandWritten('always-201');
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    plain?.server.close();
    always201?.server.close();
  });

  it('the served spec passes: Patients made by PUT, the upsert checked, no missing-object 404 expected of it', async () => {
    const r = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1 });
    expect(failures(r)).toEqual([]);
    expect(r.results.find((x) => x.target === 'putPatient: a PUT to a new identifier creates it (upsert)')?.outcome).toBe('passed');
    // Objects made: the read, the replace and the delete are run, not skipped for want of a Patient.
    for (const target of ['getPatient', 'putPatient', 'deletePatient'])
      expect(
        r.results.filter((x) => x.target === target && x.check === 'endpoints.valid-requests').map((x) => x.outcome),
        target,
      ).toEqual(['passed']);
    expect(r.results.some((x) => x.reason?.includes('no create operation for Patient'))).toBe(false);
  }, 240_000);

  it('a service answering 404 to a PUT of a new identifier fails', async () => {
    const r = await testService(checkedModel(UPSERT_SPEC()), { baseUrl: plain.url, seed: 1, only: ['endpoints.valid-requests'] });
    expect(failures(r)).toContain('endpoints.valid-requests putPatient: a PUT to a new identifier creates it (upsert)');
  }, 120_000);

  it('a service answering 201 to a PUT that replaces an existing patient fails (201 says it made one)', async () => {
    const r = await testService(checkedModel(UPSERT_SPEC()), { baseUrl: always201.url, seed: 1, only: ['endpoints.valid-requests'] });
    expect(failures(r)).toContain('endpoints.valid-requests putPatient: a PUT to a new identifier creates it (upsert)');
    expect(failures(r)).toContain('endpoints.valid-requests putPatient');
  }, 120_000);
});
