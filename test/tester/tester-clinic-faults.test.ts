// An outside sweep, kept: fixtures/clinic.openapi.yaml (OpenAPI 3.1: practitioners whose email the document keeps
// unique in its prose and a 409, appointments with a PUT replace and a PATCH partial update, bearer tokens, lists
// paged by page/per_page as bare arrays with X-Total-Count and a Link header, problem+json errors) imported as
// `servicespec import openapi` makes it, nothing edited, and the tester run against fixtures/clinic-server.cjs
// (node:http, written from the document alone, in its own process) with faults planted one at a time.
// Before: the faithful server failed every seed (the run's sample address sent to two creates: 409), a replace
// keeping what it was not sent got through on most seeds, and page=0 (answered 500) or a 422 where the lists declare
// 400 were never asked.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';

const DOC = fileURLToPath(new URL('./fixtures/clinic.openapi.yaml', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/clinic-server.cjs', import.meta.url));
const TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJmcm9udC1kZXNrIiwicm9sZSI6InN0YWZmIn0.aF3kq9vP2xW8tLmZ0cRbYd7nE1sUoJ4gHiKpQwTzXyA';
const OTHER = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwYXRpZW50LWFwcCIsInJvbGUiOiJzdGFmZiJ9.Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';

async function startClinic(fault: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, FAULT: fault, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /listening on (127\.0\.0\.1:)(\d+)/.exec(out);
      if (m) resolve(`http://${m[1]}${m[2]}`);
    });
    child.once('exit', (code) => reject(new Error(`clinic-server exited (${code}): ${out}`)));
  });
  return { url, child };
}

let model: CheckedModel;
beforeAll(async () => {
  const r = await importOpenApiFile(DOC);
  if (!r.compiled?.checked) throw new Error(`clinic.openapi.yaml does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
  model = r.compiled.checked;
});

async function failedChecks(fault: string, seed: number, only?: string[]): Promise<string[]> {
  const { url, child } = await startClinic(fault);
  try {
    const report = await testService(model, {
      baseUrl: url,
      seed,
      ...(only ? { only } : {}),
      credentials: { bearer: TOKEN },
      other: { bearer: OTHER },
    });
    return report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`);
  } finally {
    child.kill();
  }
}

describe('the Clinic bookings service, by hand from an OpenAPI 3.1 document', () => {
  it.each([1, 2])(
    'the faithful server passes on seed %i',
    async (seed) => {
      expect(await failedChecks('', seed)).toEqual([]);
    },
    60_000,
  );

  it.each([
    ['put-keeps', 3, 'endpoints.valid-requests replaceAppointment'],
    ['put-keeps', 8, 'endpoints.valid-requests replaceAppointment'],
    ['page-zero-500', 1, 'endpoints.list-edges listAppointments'],
    ['query-422', 1, 'endpoints.list-edges listAppointments'],
  ])(
    '%s is caught on seed %i (%s)',
    async (fault, seed, check) => {
      const failed = await failedChecks(fault, seed);
      expect(failed.map((f) => f.split(':')[0])).toContain(check);
    },
    60_000,
  );
});
