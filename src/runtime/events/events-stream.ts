// The event stream: server-sent events read from the outbox. Each event is sent as
//
//   id: <outbox seq>
//   event: <kind>
//   data: <the envelope as JSON, or the payload itself for a kind whose body is raw>
//
// A client resumes with `Last-Event-ID` (or `?after=` where it cannot set headers): the stream continues strictly
// after that position, from the outbox, so across reconnects there is no gap and no duplicate. Without either it
// starts at the newest event. Only events the reader may see are sent (runtime-access.ts); the others are passed
// over, so resuming after the last id sent reads them again and passes over them again. `?kinds=a,b` keeps only
// those kinds. A comment line is sent whenever nothing else was sent for the declared heartbeat interval (none when
// the spec declares none).

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StreamRoute } from '../../model/model-routes.js';
import type { ServiceModel } from '../../model/model-types.js';
import type { CredentialRef, EventAccess } from '../runtime-access.js';
import type { RouteHandler } from '../runtime-context.js';
import { ServiceError, type InvalidField } from '../runtime-errors.js';
import type { EventStorage } from '../storage/storage-types.js';
import type { OutboxHub } from './events-hub.js';
import { createEventBody } from './events-payload.js';

const BATCH = 200;
/** Without a heartbeat, how long a stream waits before it checks the outbox again by itself. */
const IDLE_RECHECK_MS = 5_000;

export interface StreamDeps {
  model: ServiceModel;
  storage: EventStorage;
  hub: OutboxHub;
  /** Which events a reader may see (runtime-access.ts): those whose object it could read. */
  access: EventAccess;
  /** Whether the reader's stored credential is still valid; a stream whose credential is revoked ends. */
  credentialCurrent: (ref: CredentialRef) => boolean | Promise<boolean>;
  /** The declared heartbeat interval; none is sent when the spec declares none. */
  heartbeatMs?: number;
  /** Every open stream, so the service can end them when it closes. */
  open: Set<{ end(): void }>;
}

function parsePosition(raw: string, name: string, where: 'header' | 'query', invalid: InvalidField[]): number | undefined {
  if (!/^(0|[1-9][0-9]{0,15})$/.test(raw.trim())) {
    invalid.push(
      where === 'header'
        ? { parameter: name, in: 'header', message: 'must be the id of an event of this stream' }
        : { parameter: name, in: 'query', message: 'must be the id of an event of this stream' },
    );
    return undefined;
  }
  return Number(raw.trim());
}

export function createStreamHandler(route: StreamRoute, deps: StreamDeps): RouteHandler {
  const kindNames = new Set((deps.model.events?.kinds ?? []).map((k) => k.name));
  const eventBody = createEventBody(deps.model);
  const versionQuery = deps.model.versioning?.placement?.kind === 'query' ? deps.model.versioning.placement.name : undefined;
  const known = new Set(['kinds', 'after', ...(versionQuery !== undefined ? [versionQuery] : [])]);
  void route;

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, unknown>;
    const invalid: InvalidField[] = [];
    for (const name of Object.keys(query)) {
      if (!known.has(name)) invalid.push({ parameter: name, in: 'query', message: 'is not a parameter of the event stream' });
      else if (typeof query[name] !== 'string') invalid.push({ parameter: name, in: 'query', message: 'must be given once' });
    }
    let kinds: string[] | undefined;
    if (typeof query.kinds === 'string') {
      kinds = query.kinds
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== '');
      for (const k of kinds) {
        const why = kindNames.has(k) ? deps.access.whyNever(request.principal, k) : `${k} is not an event kind of this service`;
        if (why !== undefined) invalid.push({ parameter: 'kinds', in: 'query', message: why });
      }
      if (kinds.length === 0) kinds = undefined;
    }
    const header = request.headers['last-event-id'];
    let after: number | undefined;
    if (typeof header === 'string' && header.trim() !== '') after = parsePosition(header, 'Last-Event-ID', 'header', invalid);
    else if (typeof query.after === 'string') after = parsePosition(query.after, 'after', 'query', invalid);
    const last = await deps.storage.lastOutboxSeq();
    if (after !== undefined && after > last)
      invalid.push({
        parameter: typeof header === 'string' && header.trim() !== '' ? 'Last-Event-ID' : 'after',
        in: typeof header === 'string' && header.trim() !== '' ? 'header' : 'query',
        message: 'names no event of this stream',
      });
    if (invalid.length > 0) throw new ServiceError('validation', 'the stream request is not valid', invalid);

    let cursor = after ?? last;
    const principal = request.principal;
    const res = reply.raw;
    const abort = new AbortController();
    const entry = { end: () => abort.abort() };
    reply.hijack();
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform', // what a stream carries depends on the credential (docs/auth.md)
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    if (request.method === 'HEAD') {
      res.end();
      return reply;
    }
    res.on('close', () => abort.abort());
    deps.open.add(entry);

    const write = async (text: string): Promise<void> => {
      if (abort.signal.aborted) return;
      if (res.write(text)) return;
      await new Promise<void>((done) => {
        const finish = () => {
          res.off('drain', finish);
          abort.signal.removeEventListener('abort', finish);
          done();
        };
        res.on('drain', finish);
        abort.signal.addEventListener('abort', finish, { once: true });
      });
    };

    // The pump runs after the handler returns, so the route's time-out does not apply to the stream's life.
    void (async () => {
      let lastWrite = Date.now();
      try {
        await write(`retry: 1000\n: stream of ${kinds ? kinds.join(', ') : 'every kind'} after ${cursor}\n\n`);
        while (!abort.signal.aborted) {
          const seen = deps.hub.lastSeq;
          const batch = await deps.storage.readOutbox(cursor, BATCH, kinds);
          if (batch.length > 0 && principal?.credential && !(await deps.credentialCurrent(principal.credential))) break;
          for (const e of batch) {
            if (abort.signal.aborted) break;
            // An event the reader may not see is passed over: the next visible event's id still resumes after it.
            if (deps.access.sees(principal, e.type, e.data)) {
              await write(`id: ${e.seq}\nevent: ${e.type}\ndata: ${eventBody(e)}\n\n`);
              lastWrite = Date.now();
            }
            cursor = e.seq;
          }
          if (abort.signal.aborted) break;
          if (batch.length === BATCH) continue;
          // Everything committed up to `seen` has been read; with a kinds filter, skip over the rest.
          if (seen > cursor) cursor = seen;
          if (deps.heartbeatMs === undefined) {
            await deps.hub.waitBeyond(cursor, IDLE_RECHECK_MS, abort.signal);
            continue;
          }
          if (Date.now() - lastWrite >= deps.heartbeatMs) {
            await write(': heartbeat\n\n');
            lastWrite = Date.now();
          }
          await deps.hub.waitBeyond(cursor, deps.heartbeatMs - (Date.now() - lastWrite), abort.signal);
        }
      } catch (err) {
        request.log.error({ err }, 'event stream failed');
      } finally {
        deps.open.delete(entry);
        if (!res.writableEnded) res.end();
      }
    })();
    return reply;
  };
}
