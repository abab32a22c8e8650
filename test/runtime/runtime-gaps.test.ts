// Nothing invented (issue 12 items 5 and 6): what the spec leaves out is either a format default, named by `gaps`,
// or a runtime gap that `serve` refuses without --allow-gaps and logs, with the built-in it uses, with it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { initSkeleton } from '../../src/cli/cli-init.js';
import { DEFAULT_RETRY_JITTER } from '../../src/model/model-defaults.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { EVENTS_BUILT_IN } from '../../src/runtime/events/events-options.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { callJson } from '../support/http.js';
import { runCli } from '../cli/cli-helpers.js';
import { checkedModel } from '../support/specs.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-gaps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let dbs = 0;

const model = checkedModel;

/** Every statement serving needs, shown; each test takes one out. */
const FULL = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      text: { type: string }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
    listNotes: { method: GET, path: /notes, action: list, resource: Note, auth: none }
errors:
  body: problem
  codes:
    e400: { status: 400, title: Bad request, when: [malformed_request, unsupported_version] }
    e404: { status: 404, title: Not found, when: [missing_resource, route_not_found] }
    e405: { status: 405, title: Method not allowed, when: [method_not_allowed] }
    e413: { status: 413, title: Too large, when: [body_too_large] }
    e431: { status: 431, title: Headers too large, when: [headers_too_large] }
    e415: { status: 415, title: Not JSON, when: [unsupported_media_type] }
    e422: { status: 422, title: Invalid, when: [validation] }
    e500: { status: 500, title: Server error, when: [internal] }
limits:
  body_size: 1KiB
  page_size: { default: 10, max: 50, over_max: reject }
versioning:
  current: "2"
  placement: { header: Api-Version }
  default: current
`;

function without(text: string, line: string, replacement = ''): string {
  expect(FULL).toContain(line);
  return text.replace(line, replacement);
}

async function startError(m: CheckedModel): Promise<string[]> {
  try {
    const app = await createService(m, { storage: createSqliteStorage({ path: join(dir, `${dbs++}.db`) }) });
    await app.close();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceStartError);
    return [...(err as ServiceStartError).problems];
  }
  throw new Error('the service started');
}

/** Starts with --allow-gaps and returns the service's URL, the warnings it logged, and a closer. */
async function startAllowingGaps(m: CheckedModel) {
  const logged: { gap?: string; builtIn?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') logged.push(JSON.parse(line) as { gap?: string; builtIn?: string });
      done();
    },
  });
  const app = await createService(m, { storage: createSqliteStorage({ path: join(dir, `${dbs++}.db`) }), allowGaps: true, logger: { level: 'warn', stream } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, gaps: () => logged.filter((l) => l.gap !== undefined), close: () => app.close() };
}

describe('a spec that shows everything serving needs', () => {
  it('has no runtime gap and serves without --allow-gaps', async () => {
    const m = model(FULL);
    expect(getRuntimeGaps(m)).toEqual([]);
    const app = await createService(m, { storage: createSqliteStorage({ path: join(dir, `${dbs++}.db`) }) });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect((await callJson(url, 'POST', '/notes', { text: 'public, because the spec says auth: none' })).status).toBe(201);
    } finally {
      await app.close();
    }
  });
});

describe('authentication not shown (item 5)', () => {
  const spec = without(without(FULL, ', resource: Note, auth: none }', ', resource: Note }'), ', resource: Note, auth: none }', ', resource: Note }');

  it('is refused without --allow-gaps, naming each operation', async () => {
    expect(await startError(model(spec))).toEqual([
      'authentication requirement of operation createNote, operation listNotes: not shown (with --allow-gaps the runtime would serve them without a credential, as if they declared `auth: none`)',
    ]);
  });

  it('with --allow-gaps, serves without a credential and logs the gap with the built-in used', async () => {
    const s = await startAllowingGaps(model(spec));
    try {
      expect((await callJson(s.url, 'POST', '/notes', { text: 'x' })).status).toBe(201);
      expect(s.gaps()).toEqual([
        expect.objectContaining({
          gap: 'authentication requirement of operation createNote, operation listNotes: not shown',
          builtIn: 'serve them without a credential, as if they declared `auth: none`',
        }),
      ]);
    } finally {
      await s.close();
    }
  });

  it('authentication.default: none says "public" for every operation', async () => {
    const m = model(`${spec}authentication:\n  default: none\n`);
    expect(getRuntimeGaps(m)).toEqual([]);
  });

  it('an event stream with no requirement is a gap too', () => {
    const m = model(`${FULL}events:\n  delivery:\n    stream: { path: /events }\n  kinds:\n    note.created: { payload: { resource: Note }, on: [create] }\n`);
    expect(getRuntimeGaps(m).map((g) => g.item)).toContain('authentication requirement of the event stream: not shown');
  });
});

describe('other values filled in silently before (item 6)', () => {
  it('the version used when a request names none', async () => {
    const m = model(without(FULL, '  default: current\n'));
    expect(await startError(m)).toEqual([
      'default version (versioning.default): not shown (with --allow-gaps the runtime would serve the current version (2) to requests that name none)',
    ]);
    const report = getGapReport(m).parts.find((p) => p.part === 'versioning')!;
    expect(report.missing).toContainEqual({ item: 'default version selection' });
  });

  it('a version in the path is always named: no default needed', () => {
    const m = model(without(without(FULL, '  default: current\n'), 'placement: { header: Api-Version }', 'placement: { path: "/v{version}" }'));
    expect(getRuntimeGaps(m)).toEqual([]);
  });

  it('the answer to a page size over the maximum', async () => {
    const m = model(without(FULL, ', over_max: reject'));
    expect(await startError(m)).toEqual([
      'answer to a page size over the maximum (page_size.over_max): not shown (with --allow-gaps the runtime would refuse it as validation)',
    ]);
    expect(getGapReport(m).parts.find((p) => p.part === 'limits')!.missing).toContainEqual({ item: 'page sizes', where: 'answer over the maximum' });
  });

  it('the error body shape', async () => {
    const m = model(without(FULL, '  body: problem\n'));
    expect(await startError(m)).toEqual([
      'error body shape: not shown (with --allow-gaps the runtime would answer errors as RFC 9457 problem details (application/problem+json))',
    ]);
  });

  it('the whole errors part: every condition and the body are named', async () => {
    const m = model(FULL.replace(/errors:[\s\S]*?limits:/, 'limits:'));
    const problems = await startError(m);
    expect(problems).toContain(
      'error body shape: not shown (with --allow-gaps the runtime would answer errors as RFC 9457 problem details (application/problem+json))',
    );
    expect(problems).toContain('error code for condition validation: not shown (with --allow-gaps the runtime would answer 422 with code "validation")');
  });

  it('format defaults are named by `gaps` as defaults, not gaps: idempotency header and operations, retry jitter, error titles', () => {
    const m = model(
      `${FULL.replace('    e500: { status: 500, title: Server error,', '    e500: { status: 500,').replace('endpoints:\n', 'endpoints:\n  idempotency: { retention: 1h }\n')}authentication:\n  default: none\nevents:\n  delivery:\n    webhook: { signing: standard-webhooks, retries: [1s], timeout: 5s }\n  kinds:\n    note.created: { payload: { resource: Note }, on: [create] }\n`,
    );
    const report = getGapReport(m);
    const part = (name: string) => report.parts.find((p) => p.part === name)!;
    expect(part('endpoints').defaults).toEqual([
      { item: 'idempotency key header', value: 'Idempotency-Key' },
      { item: 'idempotency', where: 'operations createNote', value: 'a repeated idempotency key gets the first answer (every POST, PUT, PATCH and DELETE)' },
    ]);
    expect(part('events').defaults).toEqual([{ item: 'retry jitter', where: 'webhook delivery', value: 'each retry delay spread at random within ±20 %' }]);
    expect(part('errors').defaults).toEqual([{ item: 'title', where: 'codes e500', value: "the reason phrase of the code's HTTP status" }]);
    expect(part('errors').missing.every((g) => g.item === 'error code')).toBe(true);
    expect(formatGapReport(report)).toContain('  - idempotency key header: format default, Idempotency-Key\n');
    // The runtime uses the very values the format defines.
    expect(EVENTS_BUILT_IN.jitter).toBe(DEFAULT_RETRY_JITTER);
    // Defaults are the format's: none of them stops the service.
    expect(getRuntimeGaps(m).map((g) => g.item)).not.toContainEqual(expect.stringMatching(/idempotency key header|jitter|title/));
  });
});

describe("init's empty skeleton", () => {
  it('is not served as if it were a service', async () => {
    const problems = await startError(model(initSkeleton('./schema.json')));
    expect(problems).toEqual([
      'operations: not shown (with --allow-gaps the runtime would serve no operation: answer every request 404 route_not_found)',
      'error body shape: not shown (with --allow-gaps the runtime would answer errors as RFC 9457 problem details (application/problem+json))',
    ]);
  });

  it('`servicespec serve` on examples/empty.yaml exits 1 listing the gaps', async () => {
    const r = await runCli(['serve', 'examples/empty.yaml', '--db', 'sqlite::memory:', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  - operations: not shown');
    expect(r.stderr).toContain('pass --allow-gaps');
  }, 30_000);
});
