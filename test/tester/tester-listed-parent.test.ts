// A parent the run cannot make (a catalogue's books: listed and read, never created through the API) is taken from
// the service's own list, so the objects under it can be made and checked. Before, the tester filled the parent's
// path parameter with a reference placeholder, sent as `/books/[object Object]/holds`: every check of the holds
// failed with the service's 404 for a book that does not exist (an outside sweep's library: 29 false failures).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Book:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 80 }
  Hold:
    fields:
      id: { type: uuid, readOnly: true }
      book_id: { type: ref, to: Book, readOnly: true }
      branch: { type: enum, values: [central, north] }
endpoints:
  operations:
    listBooks: { method: GET, path: /books, action: list, resource: Book }
    getBook: { method: GET, path: '/books/{id}', action: read, resource: Book }
    placeHold: { method: POST, path: '/books/{bookId}/holds', action: create, resource: Hold, bind: { bookId: book_id } }
    listHolds: { method: GET, path: '/books/{bookId}/holds', action: list, resource: Hold, bind: { bookId: book_id } }
    getHold: { method: GET, path: '/books/{bookId}/holds/{id}', action: read, resource: Hold, bind: { bookId: book_id, id: id } }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found, reference_not_found] }
`;

let s: Running;
beforeAll(async () => {
  s = await startService(checkedModel(SPEC));
  // The catalogue, as the service holds it: no operation makes a Book.
  await s.storage.transaction(async (tx) => {
    for (const title of ['Dune', 'Emma']) await tx.insert('Book', { id: randomUUID(), title });
  });
});
afterAll(() => s.close());

describe('a parent the run cannot make', () => {
  it("is one the service lists: the holds under it are made and checked, and no path says '[object Object]'", async () => {
    const report = await testService(checkedModel(SPEC), { baseUrl: s.url, seed: 1, only: ['endpoints'] });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual.slice(0, 100)}`)).toEqual([]);
    const passed = report.results.filter((r) => r.outcome === 'passed').map((r) => `${r.check} ${r.target}`);
    expect(passed).toEqual(expect.arrayContaining(['endpoints.valid-requests placeHold', 'endpoints.valid-requests listHolds']));
  }, 60_000);
});
