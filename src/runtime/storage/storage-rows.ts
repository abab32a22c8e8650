// Row shapes of the credential, outbox, webhook and delivery tables and the records made from them: the same
// columns on SQLite and PostgreSQL.
import { getEndpointAccess, type CredentialRecord, type DeliveryRecord, type OutboxEntry, type WebhookAccess, type WebhookEndpointRecord, type WebhookSecret } from './storage-types.js';

export interface CredentialRow {
  id: string;
  kind: CredentialRecord['kind'];
  lookup: string;
  hash: string;
  subject: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export function toCredential(r: CredentialRow): CredentialRecord {
  const out: CredentialRecord = { id: r.id, kind: r.kind, lookup: r.lookup, hash: r.hash, subject: r.subject, scopes: JSON.parse(r.scopes) as string[], createdAt: r.created_at };
  if (r.revoked_at !== null) out.revokedAt = r.revoked_at;
  return out;
}

export interface OutboxRow {
  seq: number;
  id: string;
  type: string;
  timestamp: string;
  version: string | null;
  data: string;
}

export function toOutboxEntry(r: OutboxRow): OutboxEntry {
  const e: OutboxEntry = { seq: r.seq, id: r.id, type: r.type, timestamp: r.timestamp, data: JSON.parse(r.data) };
  if (r.version !== null) e.version = r.version;
  return e;
}

export interface WebhookRow {
  id: string;
  url: string;
  kinds: string | null;
  description: string | null;
  subject: string | null;
  access: string | null;
  secrets: string;
  created_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  after_seq: number;
}

export function toEndpoint(r: WebhookRow): WebhookEndpointRecord {
  const out: WebhookEndpointRecord = { id: r.id, url: r.url, kinds: r.kinds === null ? null : (JSON.parse(r.kinds) as string[]), secrets: JSON.parse(r.secrets) as WebhookSecret[], createdAt: r.created_at, afterSeq: r.after_seq };
  if (r.description !== null) out.description = r.description;
  if (r.subject !== null) out.subject = r.subject;
  const access = toAccess(r);
  if (access) out.access = access;
  if (r.disabled_at !== null) out.disabledAt = r.disabled_at;
  if (r.disabled_reason !== null) out.disabledReason = r.disabled_reason;
  return out;
}

export function toAccess(r: Pick<WebhookRow, 'subject' | 'access'>): WebhookAccess | undefined {
  return getEndpointAccess({ subject: r.subject, access: r.access === null ? null : (JSON.parse(r.access) as WebhookAccess) });
}

export interface DeliveryRow {
  seq: number;
  endpoint: string;
  event_id: string;
  event_type: string;
  status: DeliveryRecord['status'];
  attempts: number;
  next_at: number;
  last_status: number | null;
  last_error: string | null;
  updated_at: string;
  delivered_at: string | null;
}

export interface ClaimRow extends DeliveryRow {
  o_timestamp: string;
  o_version: string | null;
  o_data: string;
  w_id: string;
  w_url: string;
  w_kinds: string | null;
  w_description: string | null;
  w_subject: string | null;
  w_access: string | null;
  w_secrets: string;
  w_created_at: string;
  w_after_seq: number;
}

export function toDelivery(r: DeliveryRow): DeliveryRecord {
  const out: DeliveryRecord = { seq: r.seq, endpointId: r.endpoint, eventId: r.event_id, eventType: r.event_type, status: r.status, attempts: r.attempts, nextAttemptAt: r.next_at, updatedAt: r.updated_at };
  if (r.last_status !== null) out.lastStatus = r.last_status;
  if (r.last_error !== null) out.lastError = r.last_error;
  if (r.delivered_at !== null) out.deliveredAt = r.delivered_at;
  return out;
}
