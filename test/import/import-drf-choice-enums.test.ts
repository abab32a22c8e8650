// drf-spectacular writes a model field with choices, blank=True and null=True as a choice of enums:
// `nullable: true, oneOf: [CategoryEnum, BlankEnum, NullEnum]` (BlankEnum `enum: ['']`, NullEnum `enum: [null]`).
// Before, it was imported as `type: json` (`import-approximated`: "a choice of schemas other than objects"): any value
// taken, an object drawn as a valid body, and a value outside the choices never refused. It is the enum of the
// choices with '' among them, nullable.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';

const doc = (category: unknown) => ({
  openapi: '3.0.3',
  info: { title: 'Helpdesk', version: '1.0.0' },
  paths: {
    '/api/tickets/{id}/': {
      get: {
        operationId: 'tickets_retrieve',
        parameters: [{ in: 'path', name: 'id', schema: { type: 'integer' }, required: true }],
        responses: { '200': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Ticket' } } } } },
      },
    },
  },
  components: {
    schemas: {
      BlankEnum: { enum: [''] },
      NullEnum: { enum: [null] },
      CategoryEnum: { enum: ['billing', 'technical'], type: 'string', description: '* `billing` - Billing\n* `technical` - Technical' },
      Ticket: {
        type: 'object',
        properties: { id: { type: 'integer', readOnly: true }, category: category },
        required: ['id'],
      },
    },
  },
});

describe("drf-spectacular's BlankEnum and NullEnum choices", () => {
  it('oneOf [CategoryEnum, BlankEnum, NullEnum] is an enum of the choices and "", nullable, nothing said', async () => {
    const r = await importOpenApiDocument(
      doc({
        nullable: true,
        oneOf: [{ $ref: '#/components/schemas/CategoryEnum' }, { $ref: '#/components/schemas/BlankEnum' }, { $ref: '#/components/schemas/NullEnum' }],
      }),
      'helpdesk.yaml',
    );
    expect(r.document!.resources!.Ticket!.fields!.category).toMatchObject({ type: 'enum', values: ['billing', 'technical', ''], nullable: true });
    expect(r.diagnostics.filter((d) => d.message.includes('category'))).toEqual([]);
    const c = compileSpecText(r.text!);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('oneOf [CategoryEnum, BlankEnum] (blank=True alone) is not nullable', async () => {
    const r = await importOpenApiDocument(
      doc({ oneOf: [{ $ref: '#/components/schemas/CategoryEnum' }, { $ref: '#/components/schemas/BlankEnum' }] }),
      'helpdesk.yaml',
    );
    const f = r.document!.resources!.Ticket!.fields!.category as { type: string; values: unknown[]; nullable?: boolean };
    expect(f).toMatchObject({ type: 'enum', values: ['billing', 'technical', ''] });
    expect(f.nullable).toBeUndefined();
  });

  it('a choice of an enum and a schema of another kind stays json, said', async () => {
    const r = await importOpenApiDocument(doc({ oneOf: [{ $ref: '#/components/schemas/CategoryEnum' }, { type: 'integer' }] }), 'helpdesk.yaml');
    expect(r.document!.resources!.Ticket!.fields!.category).toMatchObject({ type: 'json' });
    expect(r.diagnostics.find((d) => d.message.includes('category'))?.code).toBe('import-approximated');
  });
});
