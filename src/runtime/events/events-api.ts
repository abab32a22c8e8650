// `servicespec/webhooks`: signing and verifying webhooks (Standard Webhooks), for receivers; loads no server.

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
