import { getRequestSchema, getResourceSchema, type SchemaView } from '../model/model-schemas.js';
import { getResource } from '../model/model-lookup.js';
import type { ServiceModel } from '../model/model-types.js';
import { diagnose, NameAllocator, type ExportResult, type JsonObject } from './export-shared.js';

// JSON Schema (draft 2020-12) for every resource: the response view and the create, replace and update request
// views of the operations the spec has, and the body of each operation that takes its own subset or an open object, the same schemas the runtime validates with (model-schemas.ts), with descriptions, defaults and examples.
// Each schema stands alone (a reference field is written as the schema of the identifier it holds).

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The views exported per resource, with the suffix of their names (`Order`, `OrderCreate`, …). */
export const JSON_SCHEMA_VIEWS: readonly { view: SchemaView; suffix: string; title: string }[] = [
  { view: 'response', suffix: '', title: 'as the service returns it' },
  { view: 'create', suffix: 'Create', title: 'the body of a create request' },
  { view: 'replace', suffix: 'Replace', title: 'the body of a replace request' },
  { view: 'update', suffix: 'Update', title: 'the body of an update request (every field optional)' },
];

export interface JsonSchemaFile {
  /** The schema's name: the resource name plus the view's suffix, or an operation's request (`SignUpRequest`). */
  name: string;
  resource: string;
  view: SchemaView;
  /** The operation whose request body this is, where its body is not the resource's view (`request_fields`, `unknown_fields: ignore`). */
  operation?: string;
  schema: JsonObject;
}

export interface JsonSchemaExport extends ExportResult {
  /** The same schemas one by one, each a complete document. */
  files: JsonSchemaFile[];
}

/** One document with every schema under `$defs`, and the schemas one by one. */
export function exportJsonSchemas(model: ServiceModel): JsonSchemaExport {
  const names = new NameAllocator();
  const files: JsonSchemaFile[] = [];
  // A request view only where an operation takes that body: no OrderReplace for a spec with no replace of Order.
  const served = new Set((model.endpoints?.operations ?? []).map((o) => `${o.resource ?? ''} ${o.action}`));
  for (const r of model.resources) {
    for (const v of JSON_SCHEMA_VIEWS) {
      if (v.view !== 'response' && !served.has(`${r.name} ${v.view}`)) continue;
      const name = names.allocate(`${r.name}${v.suffix}`);
      const s = getResourceSchema(model, r, v.view, { annotations: true }) as JsonObject;
      const { description, ...rest } = s;
      const schema: JsonObject = { $schema: JSON_SCHEMA_DIALECT, title: `${r.name}: ${v.title}` };
      if (description !== undefined) schema.description = description;
      Object.assign(schema, rest);
      files.push({ name, resource: r.name, view: v.view, schema });
    }
  }
  // An operation whose body is not its resource's view (request_fields, unknown_fields: ignore): its own schema, the
  // one the runtime validates that operation's requests with, named as the OpenAPI export names it.
  for (const o of model.endpoints?.operations ?? []) {
    if ((o.action !== 'create' && o.action !== 'replace' && o.action !== 'update') || typeof o.resource !== 'string') continue;
    const r = getResource(model, o.resource);
    if (!r) continue;
    const own = getRequestSchema(model, r, o, o.action, { annotations: true }) as JsonObject;
    if (JSON.stringify(own) === JSON.stringify(getResourceSchema(model, r, o.action, { annotations: true }))) continue;
    const name = names.allocate(`${o.id.charAt(0).toUpperCase()}${o.id.slice(1)}Request`);
    const { description, ...rest } = own;
    const schema: JsonObject = { $schema: JSON_SCHEMA_DIALECT, title: `${r.name}: the body of a ${o.id} request` };
    if (description !== undefined) schema.description = description;
    Object.assign(schema, rest);
    files.push({ name, resource: r.name, view: o.action, operation: o.id, schema });
  }
  const document: JsonObject = {
    $schema: JSON_SCHEMA_DIALECT,
    title: `${model.purpose?.name ?? 'Service'} resources`,
    description:
      'One schema per resource and view, under $defs: the resource as returned, the bodies of the create, replace and update requests its operations take, and the body of each operation taking its own subset of fields or unknown members (OperationRequest).',
    $defs: Object.fromEntries(
      files.map((f) => {
        const { $schema: _dialect, ...rest } = f.schema;
        return [f.name, rest];
      }),
    ),
  };
  const diagnostics =
    model.resources.length === 0
      ? [
          diagnose(
            model,
            'export-not-shown',
            { item: 'resources', target: 'JSON Schema', consequence: '$defs is empty' },
            model.present.resources ? '/resources' : undefined,
          ),
        ]
      : [];
  return { document, files, diagnostics };
}
