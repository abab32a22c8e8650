// `servicespec/import`: an OpenAPI 3.0/3.1 document read into a spec.

export { importOpenApiFile, importOpenApiDocument, specToYaml } from './import-openapi.js';
export type { ImportResult, ImportOptions } from './import-openapi.js';
