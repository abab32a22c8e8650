// The library API of servicespec, front end: load → validate → build → check, and the model every other part reads.
//
//   compileSpecFile(path) → { model, diagnostics };  then getGapReport(model), getRoutes(model), ...
//
// The rest is in subpaths, each loading only what it needs (package.json `exports`): `servicespec/render`,
// `servicespec/diff`, `servicespec/export`, `servicespec/import`, `servicespec/runtime`, `servicespec/webhooks`,
// `servicespec/tester`, `servicespec/cli`, and the format's JSON Schema as `servicespec/schema.json`. Every export is
// named on purpose (no `export *`): these files are the complete list of what the package promises.

// Loading, with source positions.
export { loadSpecFile, loadSpecText, loadSpecBytes, MAX_SPEC_BYTES, MAX_SPEC_DEPTH } from './spec/spec-loader.js';
export type { LoadedSpec, LoadOptions, SourceMap, SourceEntry } from './spec/spec-loader.js';

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
export { getVersionModel } from './model/model-served-versions.js';
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
  CheckedModel,
} from './model/model-types.js';

// Routes and JSON Schemas derived from the model (what the runtime and the exporters serve).
export { getRoutes, getErrorCodes, RESERVED_PREFIX } from './model/model-routes.js';
export type { Route, OperationRoute, TokenRoute, StreamRoute, WebhooksRoute, WebhooksAction, QueryParam } from './model/model-routes.js';
export { getResourceSchema, getFieldSchema, getShapeSchema, getTransitionSchema } from './model/model-schemas.js';
export type { JsonSchema, SchemaView, SchemaOptions } from './model/model-schemas.js';

// Checking: semantic rules, the gap report, diagnostics.
export { checkModel } from './check/check-rules.js';
export { getGapReport, formatGapReport } from './check/check-gaps.js';
export type { GapReport, PartGaps, GapItem, DefaultItem, PartStatus } from './check/check-gaps.js';
export { DIAGNOSTICS, hasErrors } from './diagnostics/diagnostics-catalogue.js';
export type { Diagnostic, DiagnosticCode, DiagnosticLocation, Severity, SourcePosition } from './diagnostics/diagnostics-catalogue.js';
export { formatDiagnostics } from './diagnostics/diagnostics-format.js';
export type { OutputFormat } from './diagnostics/diagnostics-format.js';

// The whole front end in one call.
export { compileSpecFile, compileSpecText, compileSpecBytes } from './program.js';
export type { CompiledSpec } from './program.js';
