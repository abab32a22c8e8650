// An outside sweep, kept: a Tickets service written by hand (fixtures/tickets-server.mjs, node:http, in its own
// process) from its own OpenAPI 3.0.3 document (fixtures/tickets.openapi.yaml: an API key, integer ids, tickets
// under events, a oneOf payment, Link paging, errors { code, message, details }), imported as
// `servicespec import openapi` makes it, nothing edited. The server runs with SEAT_UNIQUE=0 (its one ticket per seat,
// stated in prose only, off) and CREATE_NULL_PAYMENT=1 (the import makes the create's payment nullable). Before:
// - an error body without its required `code` passed every check (only undeclared members were looked for);
// - a create and an update storing a read-only `status` the client sent got through: where the request is closed
//   (unknown_fields: refuse) the tester sent `status: "x"`, which the fault refused as no status;
// - with ERR_EXTRA=1 (a request_id in every error body, which the document's open Error schema allows) every error
//   answer failed as 'error body fields request_id are not declared' (import now writes answer_members: open).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/tickets-server.mjs', import.meta.url));
const DOC = fileURLToPath(new URL('./fixtures/tickets.openapi.yaml', import.meta.url));

async function startTickets(fault: string, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: '0', FAULT: fault, SEAT_UNIQUE: '0', CREATE_NULL_PAYMENT: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`tickets-server exited (${code}): ${out}`)));
  });
  return { url, child };
}

async function run(fault: string, seed: number, env: Record<string, string> = {}) {
  const r = await importOpenApiFile(DOC);
  const model: CheckedModel = r.compiled!.checked!;
  const { url, child } = await startTickets(fault, env);
  try {
    return await testService(model, { baseUrl: url, seed, credentials: { headers: { 'X-Api-Key': 'test-key' } } });
  } finally {
    child.kill();
  }
}

const failed = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`);

describe('the Tickets service, by hand from an OpenAPI 3.0.3 document', () => {
  it('the faithful server passes every check on seed 1', async () => {
    expect(failed(await run('', 1))).toEqual([]);
  }, 120_000);

  it('error bodies carrying a member the open Error schema allows (request_id) pass', async () => {
    expect(failed(await run('', 1, { ERR_EXTRA: '1' }))).toEqual([]);
  }, 120_000);

  it('error_no_code (error bodies without their required code) is caught by errors.declared-codes', async () => {
    const f = failed(await run('error_no_code', 1));
    expect(f.some((x) => x.startsWith('errors.declared-codes') && x.includes("must have required property 'code'"))).toBe(true);
  }, 120_000);

  it('status_writable (a read-only status the client sends stored) is caught by endpoints.invalid-requests, on create and update', async () => {
    const f = failed(await run('status_writable', 1)).map((x) => x.split(':')[0]);
    expect(f).toEqual(expect.arrayContaining(['endpoints.invalid-requests reserveTicket', 'endpoints.invalid-requests updateTicket']));
  }, 120_000);
});
