// The library API of servicespec. Everything the CLI does is available here; every export is named on purpose
// (no `export *`), so this file is the complete list of what the package promises.
//
//   load → validate → build → check:   compileSpecFile(path) → { model, diagnostics }
//   then read the model:                getGapReport(model), renderMarkdown(model), getRoutes(model), ...

// Loading, with source positions.
export { loadSpecFile, loadSpecText, loadSpecBytes, MAX_SPEC_BYTES, MAX_SPEC_DEPTH } from './spec/spec-loader.js';
export type { LoadedSpec, SourceMap, SourceEntry } from './spec/spec-loader.js';

// Structural validation against the format's JSON Schema (also shipped as `servicespec/schema.json`).
export { validateSpec, getSpecSchema } from './spec/spec-validate.js';

// The format as written.
export { PART_NAMES, FIELD_TYPES, ACTIONS, HTTP_METHODS, CONDITIONS } from './spec/spec-types.js';
export type {
  PartName,
  FieldType,
  Action,
  HttpMethod,
  Condition,
  SpecDocument,
  PurposeSpec,
  FieldConstraints,
  FieldSpec,
  ResourceSpec,
  StateSpec,
  TransitionSpec,
  StateMachineSpec,
  ShapeSpec,
  OperationAuthSpec,
  OperationSpec,
  EndpointsSpec,
  SchemeType,
  SchemeSpec,
  AuthenticationSpec,
  EventTrigger,
  EventKindSpec,
  EventsSpec,
  ErrorCodeSpec,
  ErrorsSpec,
  RateLimitSpec,
  LimitsSpec,
  VersionPlacement,
  VersionChangeSpec,
  SupportedVersionSpec,
  VersioningSpec,
} from './spec/spec-types.js';

// The model every consumer reads.
export { buildModel } from './model/model-builder.js';
export { getResource, getStateMachine, getField } from './model/model-lookup.js';
export type {
  Duration,
  Size,
  FieldModel,
  ResourceModel,
  StateModel,
  TransitionModel,
  StateMachineModel,
  ShapeModel,
  AuthRequirement,
  OperationModel,
  EndpointsModel,
  SchemeModel,
  AuthenticationModel,
  EventTriggerModel,
  EventKindModel,
  EventsModel,
  ErrorCodeModel,
  ErrorBodyModel,
  ErrorsModel,
  RateLimitModel,
  LimitsModel,
  VersionPlacementModel,
  VersionChangeModel,
  SupportedVersionModel,
  VersioningModel,
  PurposeModel,
  ServiceModel,
} from './model/model-types.js';

// Routes and JSON Schemas derived from the model (what the runtime and the exporters serve).
export { getRoutes, getErrorCodes, getUndeclaredConditions, getProducibleConditions, isIdempotentOperation } from './model/model-routes.js';
export type { Route, OperationRoute, TokenRoute, StreamRoute, QueryParam } from './model/model-routes.js';
export { getResourceSchema, getFieldSchema, getShapeSchema, getTransitionSchema } from './model/model-schemas.js';
export type { JsonSchema, SchemaView, SchemaOptions } from './model/model-schemas.js';

// Checking: semantic rules, the gap report, diagnostics.
export { checkModel } from './check/check-rules.js';
export { getGapReport, formatGapReport, formatDefaultItem } from './check/check-gaps.js';
export type { GapReport, PartGaps, GapItem, DefaultItem, PartStatus } from './check/check-gaps.js';
export { DIAGNOSTICS, createDiagnostic, hasErrors } from './diagnostics/diagnostics-catalogue.js';
export type { Diagnostic, DiagnosticCode, DiagnosticLocation, Severity, SourcePosition } from './diagnostics/diagnostics-catalogue.js';
export { formatDiagnostics } from './diagnostics/diagnostics-format.js';
export type { OutputFormat } from './diagnostics/diagnostics-format.js';

// The whole front end in one call.
export { compileSpecFile, compileSpecText, compileSpecBytes } from './program.js';
export type { CompiledSpec } from './program.js';

// Diff: every change between two specs, classified breaking / needs-review / non-breaking.
export { diffSpecs, diffModels, readDiffInput, sortChanges } from './diff/diff-run.js';
export type { DiffReport, DiffSummary, DiffOutcome } from './diff/diff-run.js';
export { formatDiff, formatSummary } from './diff/diff-format.js';
export type { DiffFormat } from './diff/diff-format.js';
export { DIFF_RULES, IMPACTS, isDiffRuleCode } from './diff/diff-catalogue.js';
export type { Change, ChangeLocation, DiffRuleCode, Impact } from './diff/diff-catalogue.js';
export { getVersionModel } from './model/model-served-versions.js';

// The nine-part document.
export { renderMarkdown } from './render/render-markdown.js';
export { renderHtml } from './render/render-html.js';

// The runtime: a spec served on a real database.
export { createService, servicespecPlugin, getServerOptions, ServiceStartError } from './runtime/service/runtime-service.js';
export type { ServiceOptions, PluginOptions } from './runtime/service/runtime-service.js';
export type { Authenticator, CustomHandler, HandlerContext, Principal } from './runtime/runtime-context.js';
export { ServiceError, FALLBACK_STATUS } from './runtime/runtime-errors.js';
export type { InvalidField } from './runtime/runtime-errors.js';
export { getRuntimeGaps } from './runtime/service/runtime-gaps.js';
export { BUILT_IN } from './runtime/runtime-built-in.js';
export type { RuntimeGap } from './runtime/runtime-built-in.js';
export { getLoggerOptions, redactUrl } from './runtime/runtime-logging.js';
export { getCorsRequestHeaders, registerCors, type CorsOptions } from './runtime/runtime-cors.js';
export { createSqliteStorage, SqliteStorage } from './runtime/storage/storage-sqlite.js';
export type { SqliteOptions } from './runtime/storage/storage-sqlite.js';
export { createPostgresStorage, PostgresStorage } from './runtime/storage/storage-postgres.js';
export type { PostgresOptions } from './runtime/storage/storage-postgres.js';
export { getStoragePlan } from './runtime/storage/storage-plan.js';
export { StorageConstraintError } from './runtime/storage/storage-types.js';
export type { Storage, StorageTx, StoragePlan, Row, ListQuery, StoredEvent, OutboxEntry, CredentialRecord, MigrationResult } from './runtime/storage/storage-types.js';
export type { ResourceStorage, CredentialStorage, EventStorage, RecordStorage, SettingStorage, StorageChange } from './runtime/storage/storage-types.js';

// Limits: rate-limit stores and the GCRA step.
export { createMemoryStore, createRedisStore, gcra, RateLimitStoreUnavailable } from './runtime/limits/limits-store.js';
export type { RateLimitStore, Decision, RedisStoreOptions } from './runtime/limits/limits-store.js';

// Authentication and credentials.
export {
  AUTH_BUILT_IN,
  AuthConfigError,
  createAuthenticator,
  isServiceAuthenticator,
  checkScopes,
  createApiKey,
  createBasicUser,
  createClient,
  CredentialError,
  listApiKeys,
  listBasicUsers,
  listClients,
  parseApiKey,
  revokeApiKey,
  revokeBasicUser,
  revokeClient,
  verifyApiKey,
  verifyBasicUser,
  verifyClientSecret,
  KeyConfigError,
  SUPPORTED_ALGORITHMS,
} from './runtime/auth/index.js';
export type { AuthOptions, ServiceAuthenticator, TokenIssuer, CredentialSummary, IssuedApiKey, IssuedClient, IssuedUser, JwtKeyOptions } from './runtime/auth/index.js';

// Events: signing and verifying webhooks (Standard Webhooks), endpoints and deliveries, target policy.
export {
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  isWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
  WebhookVerificationError,
  EVENTS_BUILT_IN,
  getEventRuntimeGaps,
  checkAddress,
  checkTarget,
  parseTargetPolicy,
  TargetPolicyError,
  UnsafeTargetError,
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  removeWebhookEndpoint,
  replayWebhookDeliveries,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  EventPayloadError,
  envelopeJson,
} from './runtime/events/index.js';
export type { HeaderSource, VerifyOptions, WebhookHeaders, WebhookOptions, Lookup, TargetPolicy, AddWebhookInput, WebhookContext, WebhookEndpointSummary } from './runtime/events/index.js';
export type { WebhooksRoute, WebhooksAction } from './model/model-routes.js';
// docs console (issue 17): the service's own routes under /_servicespec, and the console page.
export { getServiceRoutes, isReservedPath, RESERVED_PREFIX, SERVICE_PATHS } from './model/model-routes.js';
export type { ServiceRoute, ServicePathName } from './model/model-routes.js';
export { renderConsole } from './render/render-console.js';
export type { ConsoleOptions } from './render/render-console.js';

// Interop: OpenAPI 3.1/3.0, AsyncAPI 3, JSON Schema, a typed TypeScript client, and OpenAPI import.
export { exportOpenApi } from './export/export-openapi.js';
export { NOT_SHOWN } from './model/model-defaults.js';
export type { OpenApiExportOptions, OpenApiVersion } from './export/export-openapi.js';
export { exportAsyncApi } from './export/export-asyncapi.js';
export { exportJsonSchemas } from './export/export-json-schema.js';
export type { JsonSchemaExport, JsonSchemaFile } from './export/export-json-schema.js';
export { generateClient } from './export/export-client.js';
export type { ClientExport } from './export/export-client.js';
export { serializeDocument } from './export/export-shared.js';
export type { ExportResult, DocumentFormat } from './export/export-shared.js';
export { modelToSpec } from './export/model-to-spec.js';
export { importOpenApiFile, importOpenApiDocument, specToYaml } from './import/import-openapi.js';
export type { ImportResult, ImportOptions } from './import/import-openapi.js';

// The contract tester (issue 13): holds a running implementation to the spec.
export { testService, DEFAULT_MAX_REQUESTS, DEFAULT_TIME_LIMIT_MS } from './tester/tester-run.js';
export { formatReportText, formatReportJunit } from './tester/tester-report.js';
export type { TestOptions, TestReport, CheckResult, Failure, PartSummary, SubjectCredentials, Progress } from './tester/tester-types.js';
