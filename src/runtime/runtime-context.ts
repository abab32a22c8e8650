import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthRequirement, ServiceModel } from '../model/model-types.js';
import type { Condition } from '../spec/spec-types.js';
import type { CursorCodec } from './runtime-cursor.js';
import type { Deadline } from './runtime-deadline.js';
import type { ErrorResponder } from './runtime-errors.js';
import type { CredentialRecord, Storage, StorageTx, SyncWriter } from './storage/storage-types.js';

/** A route's handler as the runtime registers it with Fastify. */
export type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** Who is calling, once a credential has been checked. */
export interface Principal {
  subject: string;
  scopes: readonly string[];
  scheme: string;
  /** The stored credential it was checked against (API keys, Basic users), so later work can see it revoked. */
  credential?: { kind: CredentialRecord['kind']; lookup: string };
}

/**
 * Checks a request's credential against a requirement; throws (or rejects with) a ServiceError when it fails.
 * It may answer synchronously when it needs nothing asynchronous (a cached key, say): the runtime then goes on
 * in the same turn.
 */
export interface Authenticator {
  authenticate(request: FastifyRequest, requirement: AuthRequirement & { kind: 'required' }): Principal | Promise<Principal>;
}

/** What a custom operation's handler receives. */
export interface HandlerContext {
  body: unknown;
  params: Readonly<Record<string, string>>;
  /** The query as sent, with each declared parameter (operation.query) read as its type, or its default. */
  query: Readonly<Record<string, unknown>>;
  /** The declared request headers (operation.headers), by their declared name, typed. */
  headers: Readonly<Record<string, unknown>>;
  principal?: Principal;
  /** The version the request asked for (or the default), when the spec is versioned. */
  version?: string;
  storage: Storage;
  log: FastifyBaseLogger;
  /**
   * Aborted when the declared time-out passes (for fetch, timers). The handler's `storage.transaction` is bounded
   * by the time-out whether or not it is passed the signal.
   */
  signal?: AbortSignal;
  /**
   * Ends the request with a declared error: the code the spec declares for a condition (`ctx.fail('missing_resource')`),
   * or one of the operation's own error codes by name (`ctx.fail('not_found')`, its `errors:`), answered with that
   * code's status in the declared error body. Any other name is the handler's fault, answered `internal`.
   */
  fail(condition: Condition | (string & {}), detail?: string): never;
  /**
   * Sets a header of the success answer (a list is joined with `, `). The operation's `response_headers` are checked
   * against their declaration: one required and not set, or set to a value it refuses, makes the answer `internal`.
   */
  header(name: string, value: string | number | boolean | readonly (string | number | boolean)[]): void;
}

/** A custom operation: returns the response body (validated against the declared response shape). */
export type CustomHandler = (ctx: HandlerContext) => unknown | Promise<unknown>;

export interface RuntimeContext {
  model: ServiceModel;
  storage: Storage;
  errors: ErrorResponder;
  cursors: CursorCodec;
  now: () => Date;
  authenticator?: Authenticator;
  handlers: Readonly<Record<string, CustomHandler>>;
}

/**
 * A keyed write (create, update, replace, delete, transition) whose key is claimed, and whose answer is kept, in the
 * change's own transaction (limits/limits-idempotency.ts): one commit for claim, change and answer.
 */
export interface KeyedChange {
  /**
   * The transaction's last statement: claims the key with the answer (status, the replayed headers, the body as
   * sent), or throws what the key holds (answered by `answer`), and the transaction rolls back. The transaction
   * holds the writer from its start, so claiming last is claiming first, with one write fewer.
   */
  keep(tx: StorageTx, status: number, headers: Readonly<Record<string, string>>, body: string): Promise<void>;
  /**
   * Where given, the transaction's first statement: claims the key before the change (PostgreSQL, whose
   * transactions do not hold one writer: a concurrent request with the key waits here, then finds its answer).
   */
  open?(tx: StorageTx): Promise<void>;
  /** `keep` in a transaction run in this turn (`SyncWriter.transaction`). */
  keepNow(writer: SyncWriter, status: number, headers: Readonly<Record<string, string>>, body: string): void;
  /** Answers from what the key held (a replay; or throws the conflict or in-progress error); undefined when `err` is anything else. */
  answer(err: unknown, request: FastifyRequest, reply: FastifyReply): unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the Idempotency-Key step where the action claims the key in its own transaction. */
    keyedChange?: KeyedChange;
    principal?: Principal;
    specVersion?: string;
    /** Fields a replace leaves as stored: the request's older version does not have them. */
    keepFields?: readonly string[];
    /** Passed when the declared time-out passes; work in progress rolls back. */
    deadline?: Deadline;
  }
}
