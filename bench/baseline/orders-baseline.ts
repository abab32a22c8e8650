// The hand-written baseline for bench/runtime-bench.ts: the same three Orders endpoints as
// examples/orders.yaml serves (create, read by id, list a page), written directly with Fastify and
// better-sqlite3, with the same durability (WAL, synchronous=FULL by default) and the same answers: status,
// headers (X-Request-Id, Service-Version and its Vary, Cache-Control where a credential was checked, Location,
// X-Content-Type-Options), bodies and problem+json errors. It does the same work per request: the API-key check
// (key id lookup + SHA-256 + constant-time compare), the Service-Version check, JSON Schema validation of the
// create body (the served schema, no coercion, no removal), the identifier's format, the page parameters, signed
// cursors bound to the owner, the declared time-out checked before a write commits, the declared concurrency
// limit (requests in flight), and Idempotency-Key (claim,
// change and stored answer in one transaction). test/bench/bench-baseline.test.ts keeps the two answering alike.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';

const Database = loadSqliteDriver();
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface BaselineOptions {
  /** SQLite's synchronous setting (default full, as servicespec's default). */
  synchronous?: 'full' | 'normal';
  /** No API key checked, and an Order has no owner (as the served spec without credentials). */
  open?: boolean;
}

// What examples/orders.yaml declares for these operations.
const VERSION = '2026-11-01';
const TIMEOUT_MS = 5_000;
const CONCURRENCY = 256;
const PAGE_DEFAULT = 20;
const PAGE_MAX = 100;
const RETENTION_MS = 24 * 3600_000;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
const JSON_TYPE = 'application/json; charset=utf-8';
const ERRORS = {
  validation: [422, 'invalid_request', 'The request is not valid'],
  malformed: [400, 'malformed_request', 'The request body could not be read'],
  media: [415, 'unsupported_media_type', 'The request body is not JSON'],
  missing: [404, 'not_found', 'Not found'],
  credential: [401, 'unauthenticated', 'A valid credential is required'],
  scope: [403, 'forbidden', 'Not allowed'],
  timeout: [503, 'timeout', 'The request took too long'],
  reference: [422, 'reference_not_found', 'A referenced object does not exist'],
  version: [400, 'unsupported_version', 'The requested version is not served'],
  tooLarge: [413, 'payload_too_large', 'The request body is too large'],
  keyConflict: [422, 'idempotency_conflict', 'The idempotency key was already used with a different request'],
  busy: [429, 'rate_limited', 'Too many requests'],
  internal: [500, 'internal', 'Internal error'],
} as const;
type ErrorName = keyof typeof ERRORS;

class Refusal extends Error {
  constructor(
    readonly kind: ErrorName,
    readonly detail: string,
    readonly errors?: unknown[],
  ) {
    super(detail);
  }
}

export async function startBaseline(
  dbPath: string,
  options: BaselineOptions = {},
): Promise<{ url: string; key: string; customerId: string; app: FastifyInstance; close: () => Promise<void> }> {
  const open = options.open === true;
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE IF NOT EXISTS keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL, subject TEXT NOT NULL, scopes TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, customer TEXT NOT NULL REFERENCES customers(id), items TEXT NOT NULL CHECK (json_valid(items)),
  amount INTEGER NOT NULL CHECK (amount >= 1), currency TEXT NOT NULL, weight_kg REAL CHECK (weight_kg > 0), shipping_address TEXT NOT NULL CHECK (json_valid(shipping_address)),
  note TEXT CHECK (length(note) <= 500), status TEXT NOT NULL, tracking_number TEXT CHECK (length(tracking_number) <= 64), tracking_number_absent INTEGER,${open ? '' : ' owner TEXT NOT NULL,'} created_at TEXT NOT NULL, updated_at TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS idempotency (scope TEXT NOT NULL, key TEXT NOT NULL, answer TEXT NOT NULL, expires_at TEXT NOT NULL, PRIMARY KEY (scope, key)) STRICT, WITHOUT ROWID;`);
  const keyId = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  db.prepare('INSERT INTO keys VALUES (?, ?, ?, ?)').run(
    keyId,
    createHash('sha256').update(secret).digest('hex'),
    'bench',
    JSON.stringify(['orders:read', 'orders:write']),
  );
  const customerId = uuidv7();
  db.prepare('INSERT INTO customers VALUES (?, ?, ?, ?)').run(customerId, 'Bench', `bench-${customerId}@example.com`, new Date().toISOString());
  const cursorSecret = randomBytes(32);

  const findKey = db.prepare('SELECT hash, subject, scopes FROM keys WHERE id = ?');
  const columns = `id, customer, items, amount, currency, weight_kg, shipping_address, note, status, tracking_number, tracking_number_absent,${open ? '' : ' owner,'} created_at, updated_at`;
  const insert = db.prepare(
    `INSERT INTO orders (${columns}) VALUES (${columns
      .split(',')
      .map(() => '?')
      .join(', ')}) RETURNING *`,
  );
  const byId = db.prepare('SELECT * FROM orders WHERE id = ?');
  const pageAll = db.prepare('SELECT * FROM orders WHERE id > ? ORDER BY id LIMIT ?');
  const pageOwn = open ? pageAll : db.prepare('SELECT * FROM orders WHERE owner = ? AND id > ? ORDER BY id LIMIT ?');
  const findAnswer = db.prepare('SELECT answer FROM idempotency WHERE scope = ? AND key = ? AND expires_at > ?');
  const keepAnswer = db.prepare(
    'INSERT INTO idempotency (scope, key, answer, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET answer = excluded.answer, expires_at = excluded.expires_at',
  );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');

  /**
   * The caller (undefined when open), or a refusal; headers every answer carries are set first. `all`: the
   * credential may act on every owner's orders (the spec's owner_override_scopes).
   */
  const authenticate = (req: FastifyRequest, reply: FastifyReply, scope: string): { subject: string; all: boolean } | undefined => {
    reply.header('x-request-id', req.id);
    const version = req.headers['service-version'];
    if (version !== undefined && version !== '' && version !== VERSION)
      throw new Refusal('version', `version ${String(version).slice(0, 64)} is not served; served: ${VERSION}`);
    reply.header('service-version', VERSION);
    reply.header('vary', 'Service-Version');
    if (open) return undefined;
    reply.header('cache-control', 'no-store');
    const header = req.headers['x-api-key'];
    const m = typeof header === 'string' ? /^sk_([0-9a-f]{12})_(.+)$/.exec(header) : null;
    if (!m) throw new Refusal('credential', 'no valid API key');
    const row = findKey.get(m[1]) as { hash: string; subject: string; scopes: string } | undefined;
    const given = Buffer.from(createHash('sha256').update(m[2]!).digest('hex'));
    if (!row || !timingSafeEqual(given, Buffer.from(row.hash))) throw new Refusal('credential', 'no valid API key');
    const scopes = JSON.parse(row.scopes) as string[];
    if (!scopes.includes(scope)) throw new Refusal('scope', `the credential lacks the scope ${scope}`);
    return { subject: row.subject, all: scopes.includes('orders:all') };
  };
  const present = (r: Record<string, unknown>): Record<string, unknown> => ({
    id: r.id,
    customer: r.customer,
    items: JSON.parse(r.items as string),
    amount: r.amount,
    currency: r.currency,
    ...(r.weight_kg !== null ? { weight_kg: r.weight_kg } : {}),
    shipping_address: JSON.parse(r.shipping_address as string),
    ...(r.note !== null ? { note: r.note } : {}),
    status: r.status,
    // As served: optional and nullable, so left out when never given, null when given as null.
    ...(r.tracking_number !== null || r.tracking_number_absent !== 1 ? { tracking_number: r.tracking_number } : {}),
    ...(open ? {} : { owner: r.owner }),
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
  const problem = (req: FastifyRequest, reply: FastifyReply, name: ErrorName, detail: string, errors?: unknown[]) => {
    const [status, code, title] = ERRORS[name];
    reply.header('x-request-id', req.id);
    if (status === 401) reply.header('www-authenticate', 'ApiKey realm="Orders", header="X-API-Key", Bearer realm="Orders"');
    return reply
      .code(status)
      .type('application/problem+json; charset=utf-8')
      .send({ title, status, code, detail, instance: req.url.split('?')[0], ...(errors ? { errors } : {}) });
  };
  const sign = (data: string) => createHmac('sha256', cursorSecret).update(data).digest('base64url').slice(0, 22);
  const encodeCursor = (id: string, owner: string) => {
    const data = Buffer.from(JSON.stringify({ p: { id }, q: owner })).toString('base64url');
    return `${data}.${sign(data)}`;
  };
  const decodeCursor = (cursor: string, owner: string): string | undefined => {
    const dot = cursor.indexOf('.');
    if (cursor.length > 2048 || dot <= 0) return undefined;
    const mac = Buffer.from(cursor.slice(dot + 1));
    const expected = Buffer.from(sign(cursor.slice(0, dot)));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
    try {
      const p = JSON.parse(Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8')) as { p: { id: string }; q: string };
      return p.q === owner ? p.p.id : undefined;
    } catch {
      return undefined;
    }
  };

  const app = Fastify({
    logger: false,
    bodyLimit: 64 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    },
  });
  app.server.prependListener('request', (_req, res) => res.setHeader('x-content-type-options', 'nosniff'));
  // limits.concurrency: requests in flight beyond it are refused (429, Retry-After: 1).
  let inFlight = 0;
  const release = () => inFlight--;
  app.addHook('onRequest', (req, reply, done) => {
    if (inFlight >= CONCURRENCY) {
      reply.header('retry-after', '1');
      return done(new Refusal('busy', `more than ${CONCURRENCY} requests are in flight`));
    }
    inFlight++;
    reply.raw.on('close', release);
    done();
  });
  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, req, reply) => {
    if (err instanceof Refusal) return problem(req, reply, err.kind, err.detail, err.errors);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return problem(req, reply, 'media', 'send the body as application/json');
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return problem(req, reply, 'tooLarge', 'the body is larger than 65536 bytes');
    if (err.statusCode !== undefined && err.statusCode < 500) return problem(req, reply, 'malformed', 'the request body could not be read');
    return problem(req, reply, 'internal', 'an unexpected error occurred');
  });

  const address = {
    type: 'object',
    additionalProperties: false,
    required: ['line1', 'city', 'postal_code', 'country'],
    properties: {
      line1: { type: 'string', minLength: 1, maxLength: 200 },
      line2: { type: 'string', maxLength: 200 },
      city: { type: 'string', minLength: 1, maxLength: 100 },
      postal_code: { type: 'string', minLength: 1, maxLength: 20 },
      country: { type: 'string', pattern: '^[A-Z]{2}$' },
    },
  };
  const item = {
    type: 'object',
    additionalProperties: false,
    required: ['sku', 'quantity', 'unit_price'],
    properties: {
      sku: { type: 'string', pattern: '^[A-Z0-9-]{4,32}$' },
      quantity: { type: 'integer', minimum: 1, maximum: 999 },
      unit_price: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    },
  };
  const orderBody = {
    type: 'object',
    additionalProperties: false,
    required: ['customer', 'items', 'amount', 'currency', 'shipping_address'],
    properties: {
      customer: { type: 'string', format: 'uuid' },
      items: { type: 'array', minItems: 1, maxItems: 100, items: item },
      amount: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      weight_kg: { type: 'number', exclusiveMinimum: 0 },
      shipping_address: address,
      note: { type: 'string', maxLength: 500 },
      tracking_number: { type: ['string', 'null'], maxLength: 64 },
    },
  };

  /** The INSERT, mapped to the declared errors; throws past the time-out. */
  const insertOrder = (b: Record<string, unknown>, owner: string | undefined, deadline: number): Record<string, unknown> => {
    if (performance.now() >= deadline) throw new Refusal('timeout', 'the request ran past its time-out');
    const now = new Date().toISOString();
    const values = [
      uuidv7(),
      b.customer,
      JSON.stringify(b.items),
      b.amount,
      b.currency,
      b.weight_kg ?? null,
      JSON.stringify(b.shipping_address),
      b.note ?? null,
      'pending',
      b.tracking_number ?? null,
      b.tracking_number === undefined ? 1 : null,
    ];
    if (!open) values.push(owner);
    try {
      // all(), not get(): a RETURNING statement reset before it is done ends its autocommit without SQLite's
      // automatic checkpoint, and the WAL would grow without bound.
      return (insert.all(...values, now, now) as Record<string, unknown>[])[0]!;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new Refusal('reference', 'a referenced object does not exist');
      throw err;
    }
  };
  // As served: every error listed, no coercion, no removal of unknown fields, no defaults inserted.
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
  addFormats(ajv);
  const validate = ajv.compile(orderBody);
  app.post('/orders', (req, reply) => {
    // The credential first, then the body, as served.
    const caller = authenticate(req, reply, 'orders:write');
    const subject = caller?.subject;
    const b = req.body as Record<string, unknown>;
    if (b === undefined) throw new Refusal('malformed', 'a JSON body is required');
    if (!validate(b))
      throw new Refusal(
        'validation',
        'the request body is not valid',
        validate.errors!.map((e) =>
          e.keyword === 'additionalProperties'
            ? { pointer: `${e.instancePath}/${String(e.params.additionalProperty)}`, message: `unknown field ${String(e.params.additionalProperty)}` }
            : { pointer: e.instancePath, message: e.message },
        ),
      );
    const deadline = performance.now() + TIMEOUT_MS;
    const rawKey = req.headers['idempotency-key'];
    if (rawKey === undefined) {
      const row = insertOrder(b, subject, deadline);
      return reply
        .code(201)
        .header('location', `/orders/${row.id as string}`)
        .send(present(row));
    }
    // Idempotency-Key: a stored answer is replayed; otherwise the change and its answer commit together.
    const key = Array.isArray(rawKey) ? rawKey[0]! : rawKey;
    if (!KEY_RE.test(key))
      throw new Refusal('validation', 'the idempotency-key header must be 1 to 255 visible ASCII characters', [
        { parameter: 'idempotency-key', in: 'header', message: 'is not a valid key' },
      ]);
    const scope = open ? '-' : `key:${subject!}`;
    const fingerprint = createHash('sha256')
      .update(`POST ${req.url}\n${canonicalJson(b)}`)
      .digest('base64url');
    const now = new Date();
    const replay = (text: string) => {
      const stored = JSON.parse(text) as { fingerprint: string; status: number; location: string; body: string };
      if (stored.fingerprint !== fingerprint) throw new Refusal('keyConflict', 'the idempotency-key was already used with a different request');
      return reply.code(stored.status).header('location', stored.location).header('idempotent-replayed', 'true').type(JSON_TYPE).send(stored.body);
    };
    // One transaction: the lookup, the change and the answer (another process may hold the key).
    begin.run();
    try {
      const held = findAnswer.get(scope, key, now.toISOString()) as { answer: string } | undefined;
      if (held) {
        rollback.run();
        return replay(held.answer);
      }
      const row = insertOrder(b, subject, deadline);
      const location = `/orders/${row.id as string}`;
      const text = JSON.stringify(present(row));
      keepAnswer.run(scope, key, JSON.stringify({ fingerprint, status: 201, location, body: text }), new Date(now.getTime() + RETENTION_MS).toISOString());
      commit.run();
      return reply.code(201).header('location', location).type(JSON_TYPE).send(text);
    } catch (err) {
      if (db.inTransaction) rollback.run();
      throw err;
    }
  });
  app.get('/orders/:id', (req, reply) => {
    const caller = authenticate(req, reply, 'orders:read');
    const id = (req.params as { id: string }).id;
    if (!UUID_RE.test(id)) return problem(req, reply, 'missing', 'no Order with that identifier');
    const row = byId.get(id.toLowerCase()) as Record<string, unknown> | undefined;
    if (!row) return problem(req, reply, 'missing', 'no Order with that identifier');
    if (caller && !caller.all && row.owner !== caller.subject) return problem(req, reply, 'scope', 'this Order belongs to another subject');
    return reply.send(present(row));
  });
  app.get('/orders', (req, reply) => {
    const caller = authenticate(req, reply, 'orders:read');
    // The cursor is bound to the query: here, whose orders it pages through.
    const owner = caller && !caller.all ? caller.subject : undefined;
    const q = req.query as Record<string, unknown>;
    const invalid: { parameter: string; in: 'query'; message: string }[] = [];
    for (const name of Object.keys(q))
      if (name !== 'limit' && name !== 'cursor') invalid.push({ parameter: name, in: 'query', message: 'is not a parameter of this operation' });
    let limit = PAGE_DEFAULT;
    if (q.limit !== undefined) {
      const n = Number(q.limit);
      if (typeof q.limit !== 'string' || !/^[0-9]+$/.test(q.limit) || n < 1)
        invalid.push({ parameter: 'limit', in: 'query', message: 'must be a positive integer' });
      else if (n > PAGE_MAX) invalid.push({ parameter: 'limit', in: 'query', message: `must be at most ${PAGE_MAX}` });
      else limit = n;
    }
    let after = '';
    if (q.cursor !== undefined) {
      const id = typeof q.cursor === 'string' ? decodeCursor(q.cursor, owner ?? '') : undefined;
      if (id === undefined) invalid.push({ parameter: 'cursor', in: 'query', message: 'is not a cursor this service issued for this query' });
      else after = id;
    }
    if (invalid.length > 0) return problem(req, reply, 'validation', 'the query is not valid', invalid);
    const rows = (owner === undefined ? pageAll.all(after, limit + 1) : pageOwn.all(owner, after, limit + 1)) as Record<string, unknown>[];
    const items = (rows.length > limit ? rows.slice(0, limit) : rows).map(present);
    return reply.send({ items, next_cursor: rows.length > limit ? encodeCursor(items.at(-1)!.id as string, owner ?? '') : null });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    key: `sk_${keyId}_${secret}`,
    customerId,
    app,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

/** JSON with every object's keys in code-unit order (a body sent with its keys reordered is one request). */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}
