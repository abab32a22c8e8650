// An integer identifier with a maximum: the server counts from 1, so after `maximum` creates none is left. That is
// the service's own limit, answered as `internal` (the client's request was valid), never as the client's
// validation error; reads of the objects made go on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Seat:
    fields:
      id: { type: integer, readOnly: true, maximum: 2 }
      row: { type: string }
endpoints:
  operations:
    addSeat: { method: POST, path: /seats, action: create, resource: Seat }
    getSeat: { method: GET, path: "/seats/{id}", action: read, resource: Seat }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation] }
    broken: { status: 500, when: [internal] }
`;

describe('an integer identifier with a maximum, used up', () => {
  let s: Running;
  beforeAll(async () => {
    const c = compileSpecText(SPEC, 'seats.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.model!);
  });
  afterAll(async () => s?.close());

  it("answers internal (500, the declared code) past the maximum, not the client's validation error", async () => {
    expect((await s.call('POST', '/seats', { row: 'A' })).body).toEqual({ id: 1, row: 'A' });
    expect((await s.call('POST', '/seats', { row: 'B' })).body).toEqual({ id: 2, row: 'B' });
    const third = await s.call('POST', '/seats', { row: 'C' });
    expect(third.status).toBe(500);
    expect(third.body.code).toBe('broken');
    expect((await s.call('POST', '/seats', { row: 7 })).body.code).toBe('invalid');
    expect((await s.call('GET', '/seats/2')).body).toEqual({ id: 2, row: 'B' });
  });
});
