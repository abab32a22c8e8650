// Response envelopes in diff: any change to the wrapping of an operation's answers is breaking (envelope-changed);
// words alone (a description) are no change, and an envelope moved from the operation to endpoints is the same one.
import { expect, it } from 'vitest';
import { diffEdits as diffAll } from './diff-helpers.js';

const diffEdits: typeof diffAll = (...args) => {
  const r = diffAll(...args);
  return { ...r, changes: r.changes.filter((c) => c.code !== 'current-version-not-advanced') };
};

type Doc = { endpoints: { envelope?: unknown; operations: Record<string, Record<string, unknown>> } };
const envelope = (meta: Record<string, unknown>) => ({ data: 'data', fields: { meta: { type: 'object', fields: meta } }, status: 'meta.status' });
const own = (meta: Record<string, unknown>) => (d: Doc) => {
  d.endpoints.operations.getBook!.envelope = envelope(meta);
};

it('a changed envelope is breaking; a description alone is not a change; the same envelope moved to endpoints is none', () => {
  const old = own({ status: { type: 'integer' } });
  const changed = diffEdits(old, own({ status: { type: 'integer' }, id: { type: 'string', optional: true } })).changes;
  expect(changed.map((c) => [c.code, c.impact, c.subject])).toEqual([['envelope-changed', 'breaking', 'getBook']]);
  expect(diffEdits(old, own({ status: { type: 'integer', description: 'the status' } })).changes).toEqual([]);
  const moved = (d: Doc) => {
    d.endpoints.envelope = envelope({ status: { type: 'integer' } });
    for (const [id, o] of Object.entries(d.endpoints.operations))
      if (id !== 'getBook' && ['read', 'list', 'create', 'update', 'replace', 'transition'].includes(String(o.action))) o.envelope = 'none';
  };
  expect(diffEdits(old, moved).changes.map((c) => c.code)).toEqual([]);
  expect(diffEdits(old, () => undefined).changes.map((c) => c.code)).toEqual(['envelope-changed']);
});

it('a request envelope added, renamed or removed is breaking (request-envelope-changed); the same one is no change', () => {
  const wrap = (data: string) => (d: Doc) => {
    d.endpoints.operations.createBook!.request_envelope = { data };
  };
  const codes = (old: (d: Doc) => void, next: (d: Doc) => void) => diffEdits(old, next).changes.map((c) => [c.code, c.impact, c.subject]);
  expect(codes(() => undefined, wrap('book'))).toEqual([['request-envelope-changed', 'breaking', 'createBook']]);
  expect(codes(wrap('book'), wrap('item')).map((c) => c[0])).toEqual(['request-envelope-changed']);
  expect(codes(wrap('book'), () => undefined).map((c) => c[0])).toEqual(['request-envelope-changed']);
  expect(codes(wrap('book'), wrap('book'))).toEqual([]);
});

it("a page's address moved from one envelope value to another (next_link to previous_link) is breaking", () => {
  const meta = { status: { type: 'integer' }, link: { type: 'uri', nullable: true, optional: true } };
  const linked = (source: string) => (d: Doc) => {
    d.endpoints.operations.getBook!.envelope = { ...envelope(meta), [source]: 'meta.link' };
  };
  expect(diffEdits(linked('next_link'), linked('next_link')).changes).toEqual([]);
  expect(diffEdits(linked('next_link'), linked('previous_link')).changes.map((c) => [c.code, c.impact])).toEqual([['envelope-changed', 'breaking']]);
});
