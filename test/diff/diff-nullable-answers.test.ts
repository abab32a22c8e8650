import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { compileSpecText } from '../../src/program.js';

// `nullable: answers` is nullable in responses and not in requests: diff reads each side apart, check says where it
// says no more than `true`, the document says which.
const spec = (customer: string, extra = '') =>
  compileSpecText(`servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      customer: { type: string, ${customer} }
${extra}endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    getPayment: { method: GET, path: '/payments/{id}', action: read, resource: Payment }
authentication: { default: none }
`);

describe('nullable: answers', () => {
  it('diff: true → answers takes null from requests (breaking), answers → true gives it back; false → answers adds null to responses', () => {
    const codes = (a: string, b: string) => compareModels(spec(a).model!, spec(b).model!).map((c) => [c.code, c.impact]);
    expect(codes('nullable: true', 'nullable: answers')).toEqual([['request-field-became-not-nullable', 'breaking']]);
    expect(codes('nullable: answers', 'nullable: true')).toEqual([['request-field-became-nullable', 'non-breaking']]);
    expect(codes('nullable: false', 'nullable: answers').map(([c]) => c)).toEqual(['response-field-became-nullable']);
    expect(codes('nullable: answers', 'nullable: answers')).toEqual([]);
  });

  it('check: on a read-only field it says no more than true (nullable-answers-unused, at the key)', () => {
    const c = spec('optional: true', '      paid_at: { type: datetime, readOnly: true, optional: true, nullable: answers }\n');
    const d = c.diagnostics.filter((x) => x.code === 'nullable-answers-unused');
    expect(d.map((x) => [x.pointer, x.message])).toEqual([
      [
        '/resources/Payment/fields/paid_at/nullable',
        'Payment.paid_at: `nullable: answers` says no more than `nullable: true` on a field that is read-only (no request sends it)',
      ],
    ]);
    expect(spec('nullable: answers').diagnostics.filter((x) => x.code === 'nullable-answers-unused')).toEqual([]);
  });

  it('the document says null is in answers only', () => {
    expect(renderMarkdown(spec('nullable: answers').model!)).toContain('nullable in answers (requests may not send null)');
  });
});
