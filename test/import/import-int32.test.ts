// `format: int32` is a range (OpenAPI's data types: signed 32 bits), and on `type: number` it says an integer too. The
// import kept neither: Ideal Postcodes' `daily: { count: { type: number, format: int32, minimum: 0 } }` was served as
// any number, the tester sent a count past 2^31 that the service stored, and Prism, built from the original document,
// flagged the served licensee ("must match format int32"). Kept as the bounds the format states, within the schema's
// own; an envelope's members (a total the runtime writes) stay unbounded, as before.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = { $ref: '#/components/schemas/Licensee' };
const DOC = {
  openapi: '3.0.3',
  info: { title: 'licensees', version: '1' },
  paths: {
    '/licensees': {
      post: { operationId: 'createLicensee', requestBody: { required: true, ...json(ref) }, responses: { '201': { description: 'made', ...json(ref) } } },
    },
    '/licensees/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getLicensee', responses: { '200': { description: 'it', ...json(ref) } } },
    },
  },
  components: {
    schemas: {
      Licensee: {
        type: 'object',
        required: ['id', 'count', 'score', 'small'],
        properties: {
          id: { type: 'string', readOnly: true },
          count: { type: 'number', format: 'int32', minimum: 0 },
          score: { type: 'integer', format: 'int32' },
          small: { type: 'integer', format: 'int32', maximum: 10, exclusiveMaximum: true },
          big: { type: 'integer', format: 'int64' },
        },
      },
    },
  },
};

describe('format int32 and int64 on imported numbers', () => {
  it('int32 is kept as its range within the schema bounds; int32 and int64 make a number an integer', async () => {
    const r = await importOpenApiDocument(DOC, 'licensees.json');
    const fields = r.document!.resources!.Licensee!.fields!;
    expect(fields.count).toMatchObject({ type: 'integer', minimum: 0, maximum: 2147483647 });
    expect(fields.score).toMatchObject({ type: 'integer', minimum: -2147483648, maximum: 2147483647 });
    expect(fields.small).toMatchObject({ type: 'integer', minimum: -2147483648, exclusiveMaximum: 10 });
    expect(fields.small).not.toHaveProperty('maximum');
    expect(fields.big).toMatchObject({ type: 'integer' });
    expect(fields.big).not.toHaveProperty('maximum');
  });

  it('served, a count past 2^31 or a fraction is refused as the original refuses it, and the tester passes', async () => {
    const r = await importOpenApiDocument(DOC, 'licensees.json');
    const c = compileSpecText(r.text!);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startService(c.checked!);
    try {
      const post = (body: unknown) =>
        fetch(`${s.url}/licensees`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post({ count: 2147483647, score: -2147483648, small: 9 })).status).toBe(201);
      expect((await post({ count: 2147483648, score: 0, small: 0 })).status).toBe(422);
      expect((await post({ count: 1.5, score: 0, small: 0 })).status).toBe(422);
      expect((await post({ count: 0, score: -2147483649, small: 0 })).status).toBe(422);
      const t = await testService(c.checked!, { baseUrl: s.url, seed: 1, runs: 3 });
      expect(t.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);
});
