import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderSchemaTree } from '../../src/render/render-console-schema.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

// A write-only field shows as such in the document's field table and in the console's schema of the answer.
const SPEC = `
servicespec: 1
resources:
  User:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      password: { type: string, writeOnly: true, minLength: 8 }
endpoints:
  operations:
    addUser: { method: POST, path: /users, action: create, resource: User }
authentication:
  default: none
`;

describe('a write-only field in the document and the console', () => {
  it('is marked write-only', () => {
    const c = compileSpecText(SPEC);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const row = renderMarkdown(c.model!)
      .split('\n')
      .find((l) => l.startsWith('| `password`') || l.includes('`password`'));
    expect(row).toContain('write-only');
    expect(row).not.toContain('read-only');
    const doc = exportOpenApi(c.model!).document as { components: { schemas: Record<string, Record<string, unknown>> } };
    const tree = renderSchemaTree(doc as unknown as Record<string, unknown>, doc.components.schemas.User, 'User');
    expect(tree).toMatch(/password[\s\S]*write-only/);
  });
});

describe('a write-only field in the AsyncAPI export', () => {
  it('is no property of an event payload', async () => {
    const { exportAsyncApi } = await import('../../src/export/export-asyncapi.js');
    const c = compileSpecText(`${SPEC}events:\n  kinds:\n    user.added: { resource: User, on: [create], payload: { resource: User } }\n`);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const doc = exportAsyncApi(c.model!).document as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    expect(Object.keys(doc.components.schemas.User!.properties)).toEqual(['id', 'name']);
  });
});
