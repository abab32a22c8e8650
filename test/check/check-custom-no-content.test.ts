// A custom operation answering 204 (an imported `DELETE /bookings/{uid}/attendees/{id}`) has no body to declare: no
// custom-needs-shape warning and no gap for its response. Before, both were reported (a booking sweep), and
// `serve` refused the spec without --allow-gaps for a contract the document states in full.
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { isNoContentStatus } from '../../src/model/model-defaults.js';
import { compileSpecText } from '../../src/program.js';

const SPEC = (status: string) => `servicespec: 1
endpoints:
  operations:
    removeAttendee:
      method: POST
      path: /attendees/remove
      action: custom
      handler: removeAttendee
      request: none
      ${status}
authentication:
  default: none
`;

const said = (text: string) => {
  const c = compileSpecText(text);
  const gaps = getGapReport(c.model!)
    .parts.flatMap((p) => p.missing)
    .filter((g) => JSON.stringify(g).includes('response payload shape'));
  return [c.diagnostics.filter((d) => d.code === 'custom-needs-shape').length, gaps.length];
};

describe('a custom operation answering no content', () => {
  it('needs no response shape at 204 or 205; at 200 it is still said', () => {
    expect(said(SPEC('status: 204'))).toEqual([0, 0]);
    expect(said(SPEC('status: 205'))).toEqual([0, 0]);
    expect(said(SPEC(''))).toEqual([1, 1]);
    expect([204, 205, 200, 304].map(isNoContentStatus)).toEqual([true, true, false, false]);
  });
});
