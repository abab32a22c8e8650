// The tester on another spec than orders.yaml: the runtime's tickets fixture (header versioning, and once with the
// version in the media type; no auth, no rate limits). Every check passes or is skipped with a reason.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const TICKETS = new URL('../runtime/fixtures/tickets.yaml', import.meta.url).pathname;
const HANDLERS = new URL('../runtime/fixtures/tickets-handlers.mjs', import.meta.url).href;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(TICKETS, HANDLERS);
});
afterAll(async () => {
  await s?.close();
});

it('tickets.yaml: every check passes or is skipped with a reason', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 11, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
  // Found by this tester once: a PUT leaving out a field with a default was refused as breaking a constraint.
  expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'replaceTicket')?.outcome).toBe('passed');
  expect(report.results.filter((r) => r.outcome === 'skipped').every((r) => (r.reason ?? '').length > 0)).toBe(true);
  // The random walks, and each reachable state with every transition tried in it.
  expect(report.parts.find((p) => p.part === 'states')!.passed).toBe(1 + report.results.filter((r) => r.check === 'states.pairs').length);
  expect(report.statePairs.tried).toBe(report.statePairs.total);
  expect(report.statePairs.total).toBeGreaterThan(0);
}, 60_000);

it('a transition that requires a reference is sent an identifier of a real object, not a placeholder', async () => {
  const helpdesk = await startSpec(new URL('./fixtures/helpdesk.yaml', import.meta.url).pathname);
  try {
    const report = await testService(helpdesk.model, { baseUrl: helpdesk.url, ...helpdesk.options, seed: 3, runs: 5 });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    // Before: start was sent {"assignee":{"$ref":"Agent"}} and the service's correct 422 was reported as a failure.
    expect(failed.map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
    expect(report.results.find((r) => r.check === 'states.sequences' && r.target.startsWith('Ticket'))?.outcome).toBe('passed');
  } finally {
    await helpdesk.close();
  }
}, 60_000);

it("runs against a service that keeps earlier runs' objects: values for unique fields with a pattern do not repeat (the same seed twice)", async () => {
  const helpdesk = await startSpec(new URL('./fixtures/helpdesk.yaml', import.meta.url).pathname);
  try {
    for (let run = 0; run < 2; run++) {
      const report = await testService(helpdesk.model, { baseUrl: helpdesk.url, ...helpdesk.options, seed: 3, runs: 5 });
      // Before: the second run sent the first run's Agent handles and reported the service's correct 409 as failures.
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [run, r.check, r.target, r.failure?.actual])).toEqual([]);
    }
  } finally {
    await helpdesk.close();
  }
}, 60_000);

it('fields, filters and parameters named after Object.prototype members (constructor, toString): no false failures', async () => {
  const cars = await startSpec(new URL('../runtime/fixtures/proto-names.yaml', import.meta.url).pathname);
  try {
    const report = await testService(cars.model, { baseUrl: cars.url, ...cars.options, seed: 2, runs: 5 });
    // Before: the tester's response check read the prototype's constructor ("/constructor must be string").
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
    expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'listCars')?.outcome).toBe('passed');
  } finally {
    await cars.close();
  }
}, 60_000);

it('tickets.yaml with its version in the media type (default: required): every request names it, every check passes or is skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-media-'));
  const file = join(dir, 'tickets-media.yaml');
  const text = readFileSync(TICKETS, 'utf8')
    .replace('placement: { header: Api-Version }', 'placement: { media_type: "application/vnd.tickets.v{version}+json" }')
    .replace('  default: current\n', '  default: required\n');
  expect(text).toContain('vnd.tickets');
  expect(text).toContain('default: required');
  writeFileSync(file, text);
  const media = await startSpec(file, HANDLERS);
  try {
    const report = await testService(media.model, { baseUrl: media.url, ...media.options, seed: 11, runs: 5 });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
    // Before: the versioning part was skipped ("not exercised by the tester yet").
    const outcome = (check: string) => report.results.filter((r) => r.check === check).map((r) => [r.target.split(' ')[0], r.outcome]);
    // Each version's read, the older one's list, and a read naming no version (refused: default required).
    expect(outcome('versioning.served')).toEqual([
      ['2', 'passed'],
      ['1', 'passed'],
      ['1', 'passed'],
      ['no', 'passed'],
    ]);
    expect(outcome('versioning.request-shape')).toEqual([['1', 'passed']]);
    // A read and a create naming a version not served.
    expect(outcome('versioning.unsupported').map(([, o]) => o)).toEqual(['passed', 'passed']);
    expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(20);
  } finally {
    await media.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
