// `servicespec/runtime`: a spec served on a real database — the service, its storage, rate-limit stores,
// authentication and credentials, webhook endpoints and deliveries. Drivers load when used: better-sqlite3 with a
// SQLite storage, pg with a PostgreSQL one, ioredis with a Redis rate-limit store.

export { createService, servicespecPlugin, ServiceStartError } from './runtime-service.js';
export type { ServiceOptions, PluginOptions } from './runtime-service.js';
// What createService, servicespecPlugin and createAuthenticator take: `CompiledSpec.checked`.
export type { CheckedModel } from '../../model/model-types.js';
export type { Authenticator, CustomHandler, HandlerContext, Principal } from '../runtime-context.js';
export { ServiceError } from '../runtime-errors.js';
export type { InvalidField } from '../runtime-errors.js';
export { getRuntimeGaps } from './runtime-gaps.js';
export type { RuntimeGap } from '../runtime-built-in.js';
export { getLoggerOptions } from '../runtime-logging.js';
export type { CorsOptions } from '../runtime-cors.js';
export type { TracingOption } from '../runtime-tracing.js';

// Storage.
export { createSqliteStorage } from '../storage/storage-sqlite.js';
export type { SqliteOptions } from '../storage/storage-sqlite.js';
export { createPostgresStorage } from '../storage/storage-postgres.js';
export type { PostgresOptions } from '../storage/storage-postgres.js';
export { StorageConstraintError } from '../storage/storage-types.js';
// db copy (issue 28): every table of one storage into an empty one (SQLite ↔ PostgreSQL), all or nothing.
export { copyStorage } from '../storage/storage-copy.js';
export type { CopyOptions, CopyOutcome, CopiedTable } from '../storage/storage-copy.js';
export type { Storage, StorageTx, Row, ListQuery, StoredEvent, OutboxEntry, CredentialRecord, MigrationResult } from '../storage/storage-types.js';
export type { ResourceStorage, CredentialStorage, EventStorage, RecordStorage, SettingStorage, StorageChange } from '../storage/storage-types.js';

// Rate-limit stores.
export { createMemoryStore, createRedisStore, RateLimitStoreUnavailable } from '../limits/limits-store.js';
export type { RateLimitStore, Decision, RedisStoreOptions } from '../limits/limits-store.js';

// Authentication and credentials.
export {
  AuthConfigError,
  createAuthenticator,
  createApiKey,
  createBasicUser,
  createClient,
  CredentialError,
  listApiKeys,
  listBasicUsers,
  listClients,
  revokeApiKey,
  revokeBasicUser,
  revokeClient,
  KeyConfigError,
} from '../auth/index.js';
export type {
  AuthOptions,
  ServiceAuthenticator,
  TokenIssuer,
  CredentialSummary,
  IssuedApiKey,
  IssuedClient,
  IssuedUser,
  JwtKeyOptions,
} from '../auth/index.js';

// Events: webhook endpoints and deliveries (signing and verifying: also `servicespec/webhooks`).
export {
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  isWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
  WebhookVerificationError,
  TargetPolicyError,
  UnsafeTargetError,
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  removeWebhookEndpoint,
  replayWebhookDeliveries,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
} from '../events/index.js';
export type {
  HeaderSource,
  VerifyOptions,
  WebhookHeaders,
  WebhookOptions,
  TargetPolicy,
  AddWebhookInput,
  WebhookContext,
  WebhookEndpointSummary,
} from '../events/index.js';
