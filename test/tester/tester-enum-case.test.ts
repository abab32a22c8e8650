// Enum values are compared exactly. A service comparing them case-insensitively (or lowercasing what it is sent)
// takes `"PENDING"` for `[pending, paid]`; endpoints.invalid-requests sent only a value no case of which is declared
// (`__not_a_declared_value__`), and the fault escaped (an outside review's invoices service). Each enum field, and each
// list of enum values, is now also sent a declared value in another case, where that is no declared value itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMutations } from '../../src/tester/tester-arbitraries.js';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Invoice:
    fields:
      id: { type: uuid, readOnly: true }
      status: { type: enum, values: [pending, paid] }
      channels: { type: array, items: { type: enum, values: [email, sms] }, maxItems: 2, optional: true }
      size: { type: enum, values: [S, s, M] , optional: true }
endpoints:
  operations:
    createInvoice: { method: POST, path: /invoices, action: create, resource: Invoice }
    getInvoice: { method: GET, path: '/invoices/{id}', action: read, resource: Invoice }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

type Mode = 'faithful' | 'status-any-case' | 'channels-any-case';

function start(mode: Mode): Promise<HandServer> {
  const invoices = new Map<string, Record<string, unknown>>();
  // The fault planted: one field's values compared case-insensitively, the value stored lowercased.
  const oneOf = (values: string[], v: unknown, loose: boolean) => typeof v === 'string' && (loose ? values.includes(v.toLowerCase()) : values.includes(v));
  return startHandServer((req, reply) => {
    const one = /^\/invoices\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const n = invoices.get(decodeURIComponent(one[1]!));
      return n ? reply.json(200, n) : reply.problem(404, 'not_found');
    }
    if (req.method !== 'POST' || req.url !== '/invoices') return reply.problem(404, 'not_found');
    const b = readJson(req);
    const channels = isObject(b) ? b.channels : undefined;
    const valid =
      isObject(b) &&
      Object.keys(b).every((k) => ['status', 'channels', 'size'].includes(k)) &&
      oneOf(['pending', 'paid'], b.status, mode === 'status-any-case') &&
      (b.size === undefined || oneOf(['S', 's', 'M'], b.size, false)) &&
      (channels === undefined ||
        (Array.isArray(channels) && channels.length <= 2 && channels.every((c) => oneOf(['email', 'sms'], c, mode === 'channels-any-case'))));
    if (!valid) return reply.problem(422, 'invalid');
    const made: Record<string, unknown> = { id: crypto.randomUUID(), ...b, status: (b.status as string).toLowerCase() };
    if (Array.isArray(channels)) made.channels = channels.map((c) => (c as string).toLowerCase());
    invoices.set(made.id as string, made);
    reply.json(201, made, 'application/json', { location: `/invoices/${made.id as string}` });
  });
}

describe('enum values compared case-insensitively', () => {
  const servers: Partial<Record<Mode, HandServer>> = {};
  beforeAll(async () => {
    for (const mode of ['faithful', 'status-any-case', 'channels-any-case'] as const) servers[mode] = await start(mode);
  });
  afterAll(() => {
    for (const s of Object.values(servers)) s.close();
  });
  const failed = async (mode: Mode, seed: number) =>
    (await testService(checkedModel(SPEC), { baseUrl: servers[mode]!.url, seed, only: ['endpoints.invalid-requests'] })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check} ${r.target}`);

  it.each([1, 2])('seed %i: a faithful service passes; one taking an enum value in another case fails', async (seed) => {
    expect(await failed('faithful', seed)).toEqual([]);
    expect(await failed('status-any-case', seed)).toEqual([
      'endpoints.invalid-requests createInvoice: status "PENDING", "pending" in another case (not one of its values)',
    ]);
    expect(await failed('channels-any-case', seed)).toEqual([
      'endpoints.invalid-requests createInvoice: channels[0] "EMAIL", "email" in another case (not one of its values)',
    ]);
  });

  it('a variant that is itself a declared value is not sent', () => {
    const model = checkedModel(SPEC);
    const invoice = model.resources.find((r) => r.name === 'Invoice')!;
    const sizes = getMutations(model, invoice.fields, invoice, 'create').filter((m) => m.label.startsWith('size "'));
    // `S` and `s` are both declared: the first variant that is not is `m` (M lowercased).
    expect(sizes.map((m) => m.label)).toEqual(['size "m", "M" in another case (not one of its values)']);
  });
});
