// Callbacks (docs/format.md, "Callbacks"): what the runtime could not serve is refused by check, each with its code
// and the pointer of the place in the spec.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

function spec(callbacks: string, action = 'create'): string {
  return `servicespec: 1
resources:
  Order:
    fields:
      id: { type: uuid, readOnly: true }
      total: { type: integer }
      callback_url: { type: uri, optional: true }
      note: { type: string, optional: true }
      status: { type: state }
  Other:
    fields:
      id: { type: uuid, readOnly: true }
states:
  Order:
    initial: open
    transitions:
      pay: { from: open, to: paid, emits: order.paid }
endpoints:
  operations:
    createOrder: { method: POST, path: /orders, action: ${action}, resource: Order${action === 'create' ? '' : ', handler: h'}, callbacks: ${callbacks} }
    getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order }
authentication:
  default: none
events:
  delivery:
    webhook: { signing: standard-webhooks, retries: [1s], timeout: 1s }
  kinds:
    order.created: { payload: { resource: Order }, on: [create] }
    order.paid: { payload: { resource: Order } }
    order.summary: { payload: { fields: { total: { type: integer } } }, resource: Order, on: [update] }
    other.created: { payload: { resource: Other }, on: [create] }
${CATCH_ALL_ERRORS}`;
}

function found(text: string): { code: string; pointer: string | undefined; message: string }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.code.startsWith('callback-'))
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));
}

const AT = '/endpoints/operations/createOrder/callbacks/onPaid';

describe('callbacks', () => {
  it('a callback on a create naming a uri field and a kind about the object is accepted, and kept in the model', () => {
    const c = compileSpecText(spec('{ onPaid: { url: callback_url, events: [order.paid], description: Paid. } }'));
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(found(spec('{ onPaid: { url: callback_url, events: [order.paid] } }'))).toEqual([]);
    const op = c.model!.endpoints!.operations.find((o) => o.id === 'createOrder')!;
    expect(op.callbacks).toEqual([{ name: 'onPaid', pointer: AT, description: 'Paid.', url: 'callback_url', events: ['order.paid'] }]);
  });

  it.each([
    ['{ onPaid: { url: callbak_url, events: [order.paid] } }', 'callback-url-invalid', `${AT}/url`, 'callback_url'],
    ['{ onPaid: { url: note, events: [order.paid] } }', 'callback-url-invalid', `${AT}/url`, 'type string'],
    ['{ onPaid: { url: callback_url, events: [order.payd] } }', 'callback-event-unknown', `${AT}/events/0`, 'order.paid'],
    ['{ onPaid: { url: callback_url, events: [order.paid, other.created] } }', 'callback-event-unmatched', `${AT}/events/1`, 'resource Other'],
    ['{ onPaid: { url: callback_url, events: [order.summary] } }', 'callback-event-unmatched', `${AT}/events/0`, 'identifier'],
    ['{ onPaid: { url: callback_url, events: [order.created] } }', 'callback-event-never', `${AT}/events/0`, 'never reaches'],
  ])('%s is %s', (callbacks, code, pointer, words) => {
    const d = found(spec(callbacks));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([[code, pointer]]);
    expect(d[0]!.message).toContain(words);
  });

  it('a read-only url field is callback-url-invalid', () => {
    const d = found(
      spec('{ onPaid: { url: callback_url, events: [order.paid] } }').replace(
        'callback_url: { type: uri, optional: true }',
        'callback_url: { type: uri, optional: true, readOnly: true }',
      ),
    );
    expect(d.map((x) => x.code)).toEqual(['callback-url-invalid']);
  });

  it('callbacks on another action are callback-action-invalid', () => {
    const d = found(spec('{ onPaid: { url: callback_url, events: [order.paid] } }', 'custom'));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['callback-action-invalid', AT]]);
  });

  it('a callback without url or events, or with an unknown key, is refused by the schema', () => {
    const codes = (t: string) =>
      compileSpecText(t)
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => d.code);
    expect(codes(spec('{ onPaid: { events: [order.paid] } }'))).toContain('missing-key');
    expect(codes(spec('{ onPaid: { url: callback_url, events: [order.paid], method: get } }'))).toContain('unknown-key');
  });

  it('without events.delivery.webhook, the signing, retries and time-out callbacks go out under are gaps (gaps and serve)', () => {
    const text = spec('{ onPaid: { url: callback_url, events: [order.paid] } }').replace(
      '  delivery:\n    webhook: { signing: standard-webhooks, retries: [1s], timeout: 1s }\n',
      '',
    );
    expect(text).not.toContain('retries');
    const model = compileSpecText(text).model!;
    const report = formatGapReport(getGapReport(model));
    for (const item of ['webhook signing', 'retry schedule', 'delivery time-out']) expect(report).toContain(`${item} (callback delivery): not shown`);
    expect(getRuntimeGaps(model).map((g) => g.item)).toEqual(
      expect.arrayContaining(['webhook signing: not shown', 'webhook retry schedule: not shown', 'webhook delivery time-out: not shown']),
    );
    const declared = compileSpecText(spec('{ onPaid: { url: callback_url, events: [order.paid] } }')).model!;
    expect(formatGapReport(getGapReport(declared))).not.toContain('callback delivery');
  });
});
