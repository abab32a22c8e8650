import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { checkedModel } from '../support/specs.js';
import { UNKNOWN_SPEC } from '../support/unknown-fields-spec.js';

// `unknown_fields: ignore` exports the request view open (`NoteCreateOpen`); the closed view it is made from is
// kept only where an operation refuses unknown members. Before, it stayed unreferenced, which Redocly's
// no-unused-components rule warns of.

type Json = Record<string, unknown>;

/** The component schemas nothing in the document refers to (the components' own members included). */
function unreferenced(doc: Json): string[] {
  const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
  const refs = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string') refs.add(x.replace('#/components/schemas/', ''));
        else visit(x);
      }
  };
  visit(doc);
  return Object.keys(schemas).filter((n) => !refs.has(n));
}

describe('open request views (unknown_fields: ignore) in the OpenAPI export', () => {
  for (const version of ['3.1', '3.0'] as const) {
    it(`leaves no closed view unreferenced (${version})`, () => {
      const doc = exportOpenApi(checkedModel(UNKNOWN_SPEC), { openapi: version }).document as Json;
      const names = Object.keys((doc.components as { schemas: Json }).schemas);
      expect(names).toEqual(expect.arrayContaining(['NoteCreateOpen', 'NoteReplaceOpen']));
      expect(names).not.toContain('NoteCreate');
      expect(names).not.toContain('NoteReplace');
      expect(unreferenced(doc)).toEqual([]);
    });
  }

  it('keeps the closed view where another operation refuses unknown members', () => {
    const spec = UNKNOWN_SPEC.replace(
      "    readNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }",
      "    readNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }\n    createStrictNote: { method: POST, path: /strict-notes, action: create, resource: Note }",
    );
    const doc = exportOpenApi(checkedModel(spec)).document as { paths: Record<string, Json>; components: { schemas: Json } };
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['NoteCreate', 'NoteCreateOpen']));
    expect(JSON.stringify(doc.paths['/strict-notes'])).toContain('#/components/schemas/NoteCreate"');
    expect(JSON.stringify(doc.paths['/notes'])).toContain('#/components/schemas/NoteCreateOpen"');
  });
});
