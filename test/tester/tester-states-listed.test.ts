// States only a list can show (issue 25 item 1: "reach every reachable state by the shortest legal path from a
// create (or from the states a list can show)"). The service below archives tickets itself (its spec has an
// archive transition); the spec the tester holds it to has no operation that archives, so `archived` is reached by
// no legal path from a create. Tickets the service archived are shown by the list, and the tester walks on from
// them: in `archived` it tries every transition, and an illegal one answered as done is caught.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { json, startProxy } from './mutant-proxy.js';

const spec = (archive: boolean): string => `servicespec: 1
purpose:
  name: Archive
  summary: Tickets the service archives itself.
resources:
  Ticket:
    plural: tickets
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 40 }
      status: { type: state }
states:
  Ticket:
    field: status
    initial: open
    terminal: [closed]
    transitions:
      close: { from: open, to: closed }
      restore: { from: archived, to: open }
${archive ? '      archive: { from: open, to: archived }\n' : ''}endpoints:
  base_url: "{base_url}"
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket }
    getTicket: { method: GET, path: "/tickets/{id}", action: read, resource: Ticket }
    listTickets: { method: GET, path: /tickets, action: list, resource: Ticket }
    closeTicket: { method: POST, path: "/tickets/{id}/close", action: transition, resource: Ticket, transition: close }
    restoreTicket: { method: POST, path: "/tickets/{id}/restore", action: transition, resource: Ticket, transition: restore }
${archive ? '    archiveTicket: { method: POST, path: "/tickets/{id}/archive", action: transition, resource: Ticket, transition: archive }\n' : ''}authentication:
  schemes:
    key: { type: api_key, in: header, name: X-API-Key }
  default: { schemes: [key] }
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    unreadable: { status: 400, when: [malformed_request] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    state: { status: 409, when: [illegal_transition] }
    no_key: { status: 401, when: [missing_credential, invalid_credential] }
`;

const dir = mkdtempSync(join(tmpdir(), 'servicespec-states-listed-'));
let s: OrdersServer;
let model: ServiceModel;

beforeAll(async () => {
  writeFileSync(join(dir, 'served.yaml'), spec(true));
  writeFileSync(join(dir, 'held.yaml'), spec(false));
  s = await startSpec(join(dir, 'served.yaml'));
  const held = compileSpecFile(join(dir, 'held.yaml'));
  expect(held.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  model = held.model!;
  // The service archives two tickets (here through its own operation, which the held spec does not show).
  const headers = { 'content-type': 'application/json', 'x-api-key': s.keys.alice };
  for (let i = 0; i < 2; i++) {
    const made = (await (await fetch(`${s.url}/tickets`, { method: 'POST', headers, body: JSON.stringify({ title: `archived ${i}` }) })).json()) as {
      id: string;
    };
    expect((await fetch(`${s.url}/tickets/${made.id}/archive`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
  }
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a state no create reaches is walked from the objects a list shows in it: every transition tried there', async () => {
  const report = await testService(model, { baseUrl: s.url, ...s.options, seed: 1, only: ['states.pairs'] });
  expect(report.results.map((r) => [r.target, r.outcome, r.reason])).toEqual([
    ['Ticket in open', 'passed', undefined],
    ['Ticket in closed (terminal)', 'passed', undefined],
    ['Ticket in archived, shown by a list', 'passed', undefined],
  ]);
  // open, closed and archived, each with both transitions of the machine the spec serves.
  expect(report.statePairs).toEqual({ tried: 6, total: 6 });
  expect(report.verdict).toBe('passed');
});

it('mutant: close allowed out of archived (the object read back, 200) is caught only from the listed object', async () => {
  const proxy = await startProxy(s.url, {
    async response(r, req, send) {
      const m = /^\/tickets\/([^/?]+)\/close$/.exec(req.path);
      if (!m || r.status !== 409) return r;
      const read = await send({ ...req, method: 'GET', path: `/tickets/${m[1]}`, body: Buffer.alloc(0) });
      return json(read)?.status === 'archived' ? { ...read, status: 200 } : r;
    },
  });
  try {
    const report = await testService(model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['states.pairs'] });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.target)).toEqual(['Ticket in archived, shown by a list']);
    expect(failed[0]!.failure!.expected).toMatch(/^state \(409\): close is not allowed from archived \(only from open\)/);
    expect(failed[0]!.failure!.curl).toMatch(/^# Ticket \S+ in archived, as a list showed it:\ncurl .*\/tickets\?limit=\d+'/);
  } finally {
    await proxy.close();
  }
});
