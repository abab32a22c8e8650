// A resource's `renamedFrom` (docs/format.md): its previous name, for `servicespec migrate` (rename_table,
// test/storage/storage-migrate-rename.test.ts). check refuses two resources renamed from one name and a name that is
// no resource name; one the spec still has is no rename (ignored, as a field's renamedFrom naming a field it has).
// The exports carry it as they carry a field's: in the extension, which import reads back; nothing clients see.
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { getResourceRenames } from '../../src/model/model-lookup.js';
import { compileSpecText } from '../../src/program.js';

const spec = (todo: string, extra = '') => `servicespec: 1
purpose: { name: T, summary: T. }
resources:
  Todo:${todo}
    fields:
      id: { type: string, readOnly: true }
      title: { type: string }
${extra}`;

const diagnostics = (text: string) => compileSpecText(text, 'todos.yaml').diagnostics.map((d) => [d.severity, d.code, d.message, d.pointer, d.line]);

describe("a resource's renamedFrom", () => {
  it('names a resource the spec no longer has: no diagnostic, carried into the model and its renames', () => {
    const c = compileSpecText(spec('\n    renamedFrom: Task'), 'todos.yaml');
    expect(c.diagnostics).toEqual([]);
    expect(c.model!.resources[0]!.renamedFrom).toEqual(['Task']);
    expect([...getResourceRenames(c.model!)]).toEqual([['Task', 'Todo']]);
  });

  it('lists earlier names, each a rename of the one resource (a rename in each of several versions)', () => {
    const c = compileSpecText(spec('\n    renamedFrom: [Task, Item]'), 'todos.yaml');
    expect(c.diagnostics).toEqual([]);
    expect(c.model!.resources[0]!.renamedFrom).toEqual(['Task', 'Item']);
    expect([...getResourceRenames(c.model!)]).toEqual([
      ['Task', 'Todo'],
      ['Item', 'Todo'],
    ]);
    // A second resource claiming a name of the list is refused, as with one name.
    const text = spec('\n    renamedFrom: [Task, Item]', '  Other:\n    renamedFrom: [Card, Item]\n    fields:\n      id: { type: string, readOnly: true }\n');
    expect(diagnostics(text).map((d) => [d[1], d[2], d[3]])).toEqual([
      [
        'resource-renamed-from-twice',
        'resources Todo and Other are both renamedFrom `Item`: the stored objects of Item can move to one resource only',
        '/resources/Other/renamedFrom',
      ],
    ]);
  });

  it('refuses two resources renamed from one name (resource-renamed-from-twice), at the second', () => {
    const text = spec('\n    renamedFrom: Task', '  Item:\n    renamedFrom: Task\n    fields:\n      id: { type: string, readOnly: true }\n');
    expect(diagnostics(text)).toEqual([
      [
        'error',
        'resource-renamed-from-twice',
        'resources Todo and Item are both renamedFrom `Task`: the stored objects of Task can move to one resource only',
        '/resources/Item/renamedFrom',
        10,
      ],
    ]);
  });

  it('is no rename while the spec still has a resource of that name (ignored, as a field renamedFrom is)', () => {
    // Two resources naming one the spec has are not refused either: neither is a rename.
    const text = spec(
      '\n    renamedFrom: Item',
      '  Item:\n    fields:\n      id: { type: string, readOnly: true }\n  Other:\n    renamedFrom: Item\n    fields:\n      id: { type: string, readOnly: true }\n',
    );
    const c = compileSpecText(text, 'todos.yaml');
    expect(c.diagnostics).toEqual([]);
    expect([...getResourceRenames(c.model!)]).toEqual([]);
    expect([...getResourceRenames(compileSpecText(spec('\n    renamedFrom: Todo')).model!)]).toEqual([]);
  });

  it('refuses a name that is no resource name, and a value that is no string (invalid-value, wrong-type)', () => {
    expect(diagnostics(spec('\n    renamedFrom: "9 tasks"')).map((d) => [d[1], d[3]])).toEqual([['invalid-value', '/resources/Todo/renamedFrom']]);
    expect(diagnostics(spec('\n    renamedFrom: ""')).map((d) => [d[1], d[3]])).toEqual([['invalid-value', '/resources/Todo/renamedFrom']]);
    expect(diagnostics(spec('\n    renamedFrom: 7')).map((d) => [d[1], d[3]])).toEqual([['wrong-type', '/resources/Todo/renamedFrom']]);
    expect(diagnostics(spec('\n    renamedFrom: []')).map((d) => [d[1], d[3]])).toEqual([['invalid-value', '/resources/Todo/renamedFrom']]);
    expect(diagnostics(spec('\n    renamedFrom: [Task, "9 tasks"]')).map((d) => [d[1], d[3]])).toEqual([['invalid-value', '/resources/Todo/renamedFrom/1']]);
    expect(diagnostics(spec('\n    renamedFrom: [Task, Task]')).map((d) => [d[1], d[3]])).toEqual([['invalid-value', '/resources/Todo/renamedFrom']]);
  });

  it('changes no schema clients see; the export carries it in x-servicespec-resource, and import reads it back', async () => {
    const ops = `endpoints:
  operations:
    listTodos: { method: GET, path: /todos, action: list, resource: Todo }
    readTodo: { method: GET, path: '/todos/{id}', action: read, resource: Todo }
`;
    const renamed = compileSpecText(spec('\n    renamedFrom: Task', ops)).model!;
    const plain = compileSpecText(spec('', ops)).model!;
    const a = exportOpenApi(renamed).document as { components: { schemas: Record<string, Record<string, unknown>> } };
    const b = exportOpenApi(plain).document as { components: { schemas: Record<string, Record<string, unknown>> } };
    expect(a.components.schemas.Todo!['x-servicespec-resource']).toEqual({ identifier: 'id', renamedFrom: 'Task' });
    const strip = (d: typeof a) => JSON.stringify(d, (k, v: unknown) => (k === 'renamedFrom' ? undefined : v));
    expect(strip(a)).toBe(strip(b));
    // As a spec says it: `renamedFrom`, as a field's (not in the resource keys' snake_case).
    expect(modelToSpec(renamed).resources?.Todo).toMatchObject({ renamedFrom: 'Task' });
    const back = await importOpenApiDocument(exportOpenApi(renamed).document, 'todos.json');
    expect(back.document?.resources?.Todo?.renamedFrom).toBe('Task');
    expect(back.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Several earlier names go out and come back as the list they are.
    const listed = compileSpecText(spec('\n    renamedFrom: [Task, Item]', ops)).model!;
    expect(modelToSpec(listed).resources?.Todo).toMatchObject({ renamedFrom: ['Task', 'Item'] });
    const again = await importOpenApiDocument(exportOpenApi(listed).document, 'todos.json');
    expect(again.document?.resources?.Todo?.renamedFrom).toEqual(['Task', 'Item']);
    expect(again.compiled?.model?.resources.find((r) => r.name === 'Todo')?.renamedFrom).toEqual(['Task', 'Item']);
  });

  it('refuses two fields renamed from one name (field-renamed-from-twice), as two resources are', () => {
    const text = spec('').replace(
      '      title: { type: string }\n',
      '      title: { type: string, renamedFrom: [name, label] }\n      heading: { type: string, renamedFrom: label }\n',
    );
    expect(diagnostics(text).map((d) => [d[1], d[2], d[3]])).toEqual([
      [
        'field-renamed-from-twice',
        'fields title and heading of Todo are both renamedFrom `label`: the stored values of label can move to one field only',
        '/resources/Todo/fields/heading/renamedFrom',
      ],
    ]);
  });
});
