// `servicespec/export`: OpenAPI 3.1/3.0, AsyncAPI 3, JSON Schema, a typed TypeScript client, and the model back
// as a spec document.

export { exportOpenApi } from './export-openapi.js';
export type { OpenApiExportOptions, OpenApiVersion } from './export-openapi.js';
export { exportAsyncApi } from './export-asyncapi.js';
export { exportJsonSchemas } from './export-json-schema.js';
export type { JsonSchemaExport, JsonSchemaFile } from './export-json-schema.js';
export { generateClient } from './export-client.js';
export type { ClientExport } from './export-client.js';
export { serializeDocument } from './export-shared.js';
export type { ExportResult, DocumentFormat } from './export-shared.js';
export { modelToSpec } from './model-to-spec.js';
