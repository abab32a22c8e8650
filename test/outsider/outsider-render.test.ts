// Outsider findings on the nine-part document, pinned with `it.fails`.
import { describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const SPEC = `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      subject: { type: string }
endpoints:
  idempotency: { retention: 1h }
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, auth: none }
    updateTicket: { method: PATCH, path: "/tickets/{id}", action: update, resource: Ticket, auth: none }
`;

describe('outsider: the Idempotency section', () => {
  const model = compileSpecText(SPEC).model!;

  it('control: the gap report gives the format defaults', () => {
    const g = formatGapReport(getGapReport(model));
    expect(g).toContain('idempotency key header: format default, Idempotency-Key');
    expect(g).toContain('createTicket');
  });

  // src/render/render-markdown.ts:325-332 reads `e.idempotency?.header` and `o.idempotent === true` instead of
  // getIdempotencyHeader / isIdempotentOperation (src/model/model-defaults.ts, model-routes.ts), so the document says
  // "Key header: not shown" and "Idempotent operations: none" while the service replays POST and PATCH on
  // Idempotency-Key (docs/format.md, "Defaults the format defines"). Expected: the header and the operations named,
  // as format defaults.
  it('names the format-default header and the idempotent operations', () => {
    const md = renderMarkdown(model);
    const section = md.slice(md.indexOf('### Idempotency'), md.indexOf('## Authentication'));
    expect(section).toContain('Idempotency-Key');
    expect(section).not.toContain('Idempotent operations: none');
    expect(section).toContain('createTicket');
  });
});
