// A union's client type: a TypeScript union of its variants, each tagged by a literal, so `switch (x.kind)` narrows.
import { describe, expect, it } from 'vitest';
import { schemaToTs } from '../../src/export/export-client.js';
import { getResourceSchema } from '../../src/model/model-schemas.js';
import { compileSpecText } from '../../src/program.js';
import { UNION_SPEC } from '../support/unions.js';

describe('client types of unions', () => {
  it('writes a tagged union field as a union of object types, each with its literal tag', () => {
    const m = compileSpecText(UNION_SPEC).model!;
    const s = getResourceSchema(m, m.resources[0]!, 'response') as { properties: Record<string, unknown> };
    const ts = schemaToTs(s.properties.method).replace(/\s+/g, ' ');
    expect(ts).toContain('kind: "card"');
    expect(ts).toContain('kind: "bank"');
    expect(ts).toContain(' | ');
  });
});
