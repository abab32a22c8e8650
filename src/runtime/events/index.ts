// Events: the public API (for src/index.ts). Receivers need `verifyWebhook`; operators and embedders the rest.

export {
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  isWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
  WebhookVerificationError,
} from './events-signing.js';
export type { HeaderSource, VerifyOptions, WebhookHeaders } from './events-signing.js';
export { EVENTS_BUILT_IN, getEventRuntimeGaps, type WebhookOptions } from './events-options.js';
export { checkAddress, checkTarget, parseTargetPolicy, TargetPolicyError, UnsafeTargetError, type Lookup, type TargetPolicy } from './events-targets.js';
export {
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  removeWebhookEndpoint,
  replayWebhookDeliveries,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  type AddWebhookInput,
  type WebhookContext,
  type WebhookEndpointSummary,
} from './events-webhooks.js';
export { EventPayloadError } from './events-payload.js';
export { envelopeJson } from './events-payload.js';
