// The items of a list of values (tags): a service that checks the list but not its items (a tag past its maxLength
// stored), or that drops a repeated item where the list is uniqueItems (accepting what it must refuse), is caught by
// endpoints.invalid-requests. Before, the tester sent no broken item of a list of scalars, and a repeated item of an
// empty list drawn as [null, null], refused for the nulls (an outside sweep's labels-dupes escaped that way).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { startProxy, type ProxyRequest } from './mutant-proxy.js';

const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 40 }
      tags:
        type: array
        uniqueItems: true
        maxItems: 5
        items: { type: string, minLength: 1, maxLength: 10 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
`;

/** The create's body with its tags edited before the service sees it: what a lax service stores. */
const editTags = (edit: (tags: unknown[]) => unknown[]) => (r: ProxyRequest) => {
  if (r.method !== 'POST') return r;
  try {
    const b = JSON.parse(r.body.toString('utf8')) as { tags?: unknown };
    if (!Array.isArray(b.tags)) return r;
    return { ...r, body: Buffer.from(JSON.stringify({ ...b, tags: edit(b.tags) })) };
  } catch {
    return r;
  }
};

const failures = (report: Awaited<ReturnType<typeof testService>>) => report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}`);

let s: Running;
beforeAll(async () => {
  s = await startService(checkedModel(SPEC));
});
afterAll(() => s.close());

describe('broken items of a list of values', () => {
  it('a service storing an item past its maxLength (cut to fit) is caught; the faithful one passes', async () => {
    const lax = await startProxy(s.url, { request: editTags((tags) => tags.map((t) => (typeof t === 'string' ? t.slice(0, 10) : t))) });
    try {
      for (const seed of [1, 2, 3]) {
        expect(failures(await testService(checkedModel(SPEC), { baseUrl: s.url, seed, only: ['endpoints'] }))).toEqual([]);
        expect(failures(await testService(checkedModel(SPEC), { baseUrl: lax.url, seed, only: ['endpoints'] }))).toContain(
          'endpoints.invalid-requests createNote: tags[0] longer than maxLength 10',
        );
      }
    } finally {
      await lax.close();
    }
  }, 90_000);

  it('a service dropping a repeated item of a uniqueItems list is caught on every seed', async () => {
    const lax = await startProxy(s.url, { request: editTags((tags) => [...new Set(tags)]) });
    try {
      for (const seed of [1, 2, 3, 4, 5])
        expect(failures(await testService(checkedModel(SPEC), { baseUrl: lax.url, seed, only: ['endpoints'] }))).toContain(
          'endpoints.invalid-requests createNote: tags with a repeated item (uniqueItems)',
        );
    } finally {
      await lax.close();
    }
  }, 90_000);
});

describe('near misses of a pattern', () => {
  const CODED = SPEC.replace(
    '      text: { type: string, maxLength: 40 }',
    () => "      text: { type: string, maxLength: 40 }\n      code: { type: string, pattern: '^[A-Z]{2}[0-9]$' }",
  );
  const editCode = (edit: (code: string) => string) => (r: ProxyRequest) => {
    if (r.method !== 'POST') return r;
    try {
      const b = JSON.parse(r.body.toString('utf8')) as { code?: unknown };
      return typeof b.code === 'string' ? { ...r, body: Buffer.from(JSON.stringify({ ...b, code: edit(b.code) })) } : r;
    } catch {
      return r;
    }
  };

  it('a service matching without case, or without anchors, is caught; the faithful one passes', async () => {
    const coded = await startService(checkedModel(CODED));
    // What the service stores of a code it matched loosely: upper-cased, or its first three characters.
    const noCase = await startProxy(coded.url, { request: editCode((c) => c.toUpperCase()) });
    const noAnchor = await startProxy(coded.url, { request: editCode((c) => (/[A-Z]{2}[0-9]/.test(c) ? /[A-Z]{2}[0-9]/.exec(c)![0] : c)) });
    try {
      for (const seed of [1, 2]) {
        expect(failures(await testService(checkedModel(CODED), { baseUrl: coded.url, seed, only: ['endpoints'] }))).toEqual([]);
        expect(failures(await testService(checkedModel(CODED), { baseUrl: noCase.url, seed, only: ['endpoints'] }))).toContain(
          'endpoints.invalid-requests createNote: code not matching pattern ^[A-Z]{2}[0-9]$ (its case swapped)',
        );
        expect(failures(await testService(checkedModel(CODED), { baseUrl: noAnchor.url, seed, only: ['endpoints'] }))).toContain(
          'endpoints.invalid-requests createNote: code not matching pattern ^[A-Z]{2}[0-9]$ (one character more)',
        );
      }
    } finally {
      await noCase.close();
      await noAnchor.close();
      await coded.close();
    }
  }, 90_000);
});
