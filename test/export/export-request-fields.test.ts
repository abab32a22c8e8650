// `request_fields` in the exports: the OpenAPI request body of that operation is its own component listing only the
// subset (carried back by x-servicespec-view and x-servicespec-operation), the client's body type likewise, and the
// nine-part document says it.
import { describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  User:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      email: { type: email }
      password: { type: string, writeOnly: true }
      tier: { type: string, default: free }
endpoints:
  operations:
    signUp: { method: POST, path: /users, action: create, resource: User, request_fields: [name, email, password] }
    getUser: { method: GET, path: "/users/{id}", action: read, resource: User }
    renameUser: { method: PATCH, path: "/users/{id}", action: update, resource: User, request_fields: [name] }
    editUser: { method: PUT, path: "/users/{id}", action: replace, resource: User }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Doc = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> }; 'x-servicespec-operation'?: Record<string, unknown> }>
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[]; 'x-servicespec-view'?: unknown }> };
};

describe('request_fields exported', () => {
  const model = compileSpecText(SPEC).model!;
  const doc = exportOpenApi(model).document as unknown as Doc;
  const bodyOf = (path: string, method: string) => doc.paths[path]![method]!.requestBody!.content['application/json']!.schema.$ref!;

  it('gives the operation its own request component with the subset only', () => {
    expect(bodyOf('/users', 'post')).toBe('#/components/schemas/SignUpRequest');
    const s = doc.components.schemas.SignUpRequest!;
    expect(Object.keys(s.properties!)).toEqual(['name', 'email', 'password']);
    expect(s.required).toEqual(['name', 'email', 'password']);
    expect(s['x-servicespec-view']).toEqual({ resource: 'User', view: 'create', operation: 'signUp' });
    const patch = doc.components.schemas[bodyOf('/users/{id}', 'patch').split('/').pop()!]!;
    expect(Object.keys(patch.properties!)).toEqual(['name']);
    expect(patch.required).toBeUndefined();
    expect(doc.paths['/users']!.post!['x-servicespec-operation']).toMatchObject({ request_fields: ['name', 'email', 'password'] });
    // An operation without request_fields keeps the resource's view.
    expect(bodyOf('/users/{id}', 'put')).toBe('#/components/schemas/UserReplace');
    expect(Object.keys(doc.components.schemas.UserReplace!.properties!)).toEqual(['name', 'email', 'password', 'tier']);
  });

  it('comes back through import as the same request_fields', async () => {
    const r = await importOpenApiDocument(structuredClone(doc) as unknown, 'users.json');
    const ops = r.document!.endpoints!.operations!;
    expect(ops.signUp!.request_fields).toEqual(['name', 'email', 'password']);
    expect(ops.renameUser!.request_fields).toEqual(['name']);
    expect(ops.editUser!.request_fields).toBeUndefined();
    expect(Object.keys(r.document!.resources!)).toEqual(['User']);
  });

  it("types the client's body by the subset", () => {
    const { code } = generateClient(model);
    expect(code).toMatch(/export interface SignUpRequest \{[^}]*name: string;[^}]*email: string;[^}]*password: string;\s*\}/);
    expect(code).not.toMatch(/export interface SignUpRequest \{[^}]*tier/);
    expect(code).toMatch(/export interface RenameUserRequest \{\s*(\/\*\*[^]*?\*\/\s*)?name\?: string;\s*\}/);
  });

  it("shows the console's request body tree and example with the subset only", () => {
    const html = renderConsole(model);
    const tree = /Request body<\/span> <span class="type">object <em>SignUpRequest<\/em><\/span><\/summary><ul>(.*?)<\/ul>/s.exec(html)![1]!;
    expect([...tree.matchAll(/data-field="([^"]+)"/g)].map((m) => m[1])).toEqual(['name', 'email', 'password']);
  });

  it('says it in the document', () => {
    expect(renderMarkdown(model)).toContain('Request: only the `User` fields `name`, `email`, `password` (`request_fields`); any other field is refused.');
  });
});
