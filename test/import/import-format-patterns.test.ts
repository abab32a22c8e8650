// String formats with no field type of their own that a pattern says exactly (ipv4, hostname) are imported as that
// pattern, said with import-approximated: served, an address that is none is refused, and the tester draws only
// addresses. Before, `format: ipv4` became a plain string, the tester sent any text, and an IoT sweep's faithful
// server (refusing it, as its document says) failed every create.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { objectArbitrary } from '../../src/tester/tester-arbitraries.js';
import { startService } from '../runtime/helpers.js';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Fleet', version: '1' },
  paths: {
    '/devices': {
      post: {
        operationId: 'createDevice',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Device' } } } },
        responses: {
          '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Device' } } } },
          '422': { description: 'invalid', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Device: {
        type: 'object',
        required: ['id', 'ip', 'host'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          ip: { type: 'string', format: 'ipv4' },
          host: { type: 'string', format: 'hostname', maxLength: 253 },
          own: { type: 'string', format: 'ipv4', pattern: '^10\\.' },
        },
      },
    },
  },
};

describe('format ipv4 and hostname', () => {
  it('import as a string with the pattern that says the format, said', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'fleet.json');
    const model = r.compiled!.model!;
    const fields = Object.fromEntries(model.resources[0]!.fields.map((f) => [f.name, f]));
    expect(fields.ip!.type).toBe('string');
    expect(new RegExp(fields.ip!.pattern!, 'u').test('192.168.0.1')).toBe(true);
    expect(new RegExp(fields.ip!.pattern!, 'u').test('300.1.1.1')).toBe(false);
    expect(new RegExp(fields.host!.pattern!, 'u').test('api.example.com')).toBe(true);
    expect(new RegExp(fields.host!.pattern!, 'u').test('-bad-.example')).toBe(false);
    // A pattern of the document's own is kept as it is.
    expect(fields.own!.pattern).toBe('^10\\.');
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('the pattern says it exactly'));
    expect(said).toHaveLength(2);
    const drawn = fc.sample(objectArbitrary(model, model.resources[0]!.fields, model.resources[0]!, 'create', true), { seed: 3, numRuns: 30 });
    for (const b of drawn as { ip: string; host: string }[]) {
      expect(b.ip).toMatch(/^\d{1,3}(\.\d{1,3}){3}$/);
      expect(new RegExp(fields.host!.pattern!, 'u').test(b.host)).toBe(true);
    }
  });

  it('served, an address that is none is refused', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'fleet.json');
    const s = await startService(r.compiled!.model!);
    try {
      expect((await s.call('POST', '/devices', { ip: '10.0.0.7', host: 'edge-7.example.com' })).status).toBe(201);
      expect((await s.call('POST', '/devices', { ip: 'not-an-address', host: 'edge-7.example.com' })).status).toBe(422);
      expect((await s.call('POST', '/devices', { ip: '10.0.0.7', host: 'no spaces allowed' })).status).toBe(422);
    } finally {
      await s.close();
    }
  }, 60_000);
});
