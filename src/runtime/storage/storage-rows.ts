// Row shapes of the credential, outbox, webhook and delivery tables and the records made from them: the same
// columns on SQLite and PostgreSQL.
import {
  getEndpointAccess,
  type ClaimedDelivery,
  type CredentialRecord,
  type DeliveryRecord,
  type OutboxEntry,
  type WebhookAccess,
  type WebhookEndpointRecord,
  type WebhookSecret,
} from './storage-types.js';

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

/** The credential table's columns in `credentialValues`' order, for an INSERT on either engine. */
export const CREDENTIAL_COLUMNS = 'id, kind, lookup, hash, subject, scopes, created_at, revoked_at';

/** A credential's row values, in `CREDENTIAL_COLUMNS` order. */
export function credentialValues(r: CredentialRecord): unknown[] {
  return [r.id, r.kind, r.lookup, r.hash, r.subject, JSON.stringify(r.scopes), r.createdAt, r.revokedAt ?? null];
}

export function toCredential(r: CredentialRow): CredentialRecord {
  const out: CredentialRecord = {
    id: r.id,
    kind: r.kind,
    lookup: r.lookup,
    hash: r.hash,
    subject: r.subject,
    scopes: JSON.parse(r.scopes) as string[],
    createdAt: r.created_at,
  };
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
  const out: WebhookEndpointRecord = {
    id: r.id,
    url: r.url,
    kinds: r.kinds === null ? null : (JSON.parse(r.kinds) as string[]),
    secrets: JSON.parse(r.secrets) as WebhookSecret[],
    createdAt: r.created_at,
    afterSeq: r.after_seq,
  };
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
  const out: DeliveryRecord = {
    seq: r.seq,
    endpointId: r.endpoint,
    eventId: r.event_id,
    eventType: r.event_type,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_at,
    updatedAt: r.updated_at,
  };
  if (r.last_status !== null) out.lastStatus = r.last_status;
  if (r.last_error !== null) out.lastError = r.last_error;
  if (r.delivered_at !== null) out.deliveredAt = r.delivered_at;
  return out;
}

/** The webhook table's columns in `webhookValues`' order, for an INSERT on either engine. */
export const WEBHOOK_COLUMNS = 'id, url, kinds, description, subject, access, secrets, created_at, disabled_at, disabled_reason, after_seq';

/** An endpoint's row values, in `WEBHOOK_COLUMNS` order. */
export function webhookValues(r: Omit<WebhookEndpointRecord, 'afterSeq'>, afterSeq: number): unknown[] {
  return [
    r.id,
    r.url,
    r.kinds === null ? null : JSON.stringify(r.kinds),
    r.description ?? null,
    r.subject ?? null,
    r.access ? JSON.stringify(r.access) : null,
    JSON.stringify(r.secrets),
    r.createdAt,
    r.disabledAt ?? null,
    r.disabledReason ?? null,
    afterSeq,
  ];
}

/** A claimed delivery with its event and endpoint, read by one join (`ClaimRow`); leased until `nextAt`. */
export function toClaimedDelivery(r: ClaimRow, nextAt: number): ClaimedDelivery {
  const event: OutboxEntry = { seq: r.seq, id: r.event_id, type: r.event_type, timestamp: r.o_timestamp, data: JSON.parse(r.o_data) };
  if (r.o_version !== null) event.version = r.o_version;
  const endpoint = toEndpoint({
    id: r.w_id,
    url: r.w_url,
    kinds: r.w_kinds,
    description: r.w_description,
    subject: r.w_subject,
    access: r.w_access,
    secrets: r.w_secrets,
    created_at: r.w_created_at,
    disabled_at: null,
    disabled_reason: null,
    after_seq: r.w_after_seq,
  });
  return { delivery: toDelivery({ ...r, next_at: nextAt }), event, endpoint, dueAt: Number(r.next_at) };
}

/** An enabled endpoint as the fan-out reads it: the kinds it wants, where it starts, and who registered it. */
export interface FanOutEndpoint {
  id: string;
  kinds: ReadonlySet<string> | null;
  afterSeq: number;
  access: WebhookAccess | undefined;
}

export function toFanOutEndpoint(e: Pick<WebhookRow, 'id' | 'kinds' | 'after_seq' | 'subject' | 'access'>): FanOutEndpoint {
  return { id: e.id, kinds: e.kinds === null ? null : new Set(JSON.parse(e.kinds) as string[]), afterSeq: e.after_seq, access: toAccess(e) };
}
