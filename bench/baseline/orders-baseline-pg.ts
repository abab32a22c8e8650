// The hand-written PostgreSQL baseline for bench/postgres-bench.ts: the three Orders endpoints of
// bench/baseline/orders-baseline.ts (create, read by id, list a page), written directly with Fastify and a `pg`
// Pool (named prepared statements), with the same API-key check (key id lookup + SHA-256 + constant-time compare)
// and JSON Schema validation of the create body. The server's default durability (synchronous_commit = on).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { parsePostgresUrl } from '../../src/runtime/storage/storage-postgres.js';

/**
 * `outbox`: each create also appends its event (the created order) to an outbox table, in one transaction. Each row
 * carries its transaction's id (xid8), indexed with the identity: a reader can then follow the table without skipping a
 * late commit (rows below pg_snapshot_xmin(pg_current_snapshot()), in (xid, seq) order), so the baseline pays for an
 * outbox its readers could use. It rings no doorbell: its readers would poll.
 */
export async function startBaselinePg(
  url: string,
  options: { outbox?: boolean } = {},
): Promise<{ url: string; key: string; customerId: string; close: () => Promise<void> }> {
  const { connectionString, schema } = parsePostgresUrl(url);
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  if (schema !== undefined) await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await admin.end();
  const pool = new pg.Pool({ connectionString, ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}) });
  await pool.query(`CREATE TABLE IF NOT EXISTS keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL, subject TEXT NOT NULL, scopes TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS orders (id TEXT COLLATE "C" PRIMARY KEY, customer TEXT NOT NULL REFERENCES customers(id), items JSON NOT NULL,
  amount BIGINT NOT NULL CHECK (amount >= 1), currency TEXT NOT NULL, shipping_address JSON NOT NULL,
  note TEXT, status TEXT NOT NULL, tracking_number TEXT, owner TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, xid xid8 NOT NULL DEFAULT pg_current_xact_id(), id TEXT NOT NULL, type TEXT NOT NULL, timestamp TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS outbox_xid ON outbox (xid, seq);`);
  const keyId = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  await pool.query('INSERT INTO keys VALUES ($1, $2, $3, $4)', [
    keyId,
    createHash('sha256').update(secret).digest('hex'),
    'bench',
    JSON.stringify(['orders:read', 'orders:write']),
  ]);
  const customerId = uuidv7();
  await pool.query('INSERT INTO customers VALUES ($1, $2, $3, $4)', [customerId, 'Bench', `bench-${customerId}@example.com`, new Date().toISOString()]);

  const authenticate = async (header: string | undefined, scope: string): Promise<string | undefined> => {
    const m = header && /^sk_([0-9a-f]{12})_(.+)$/.exec(header);
    if (!m) return undefined;
    const row = (await pool.query({ name: 'key', text: 'SELECT hash, subject, scopes FROM keys WHERE id = $1', values: [m[1]] })).rows[0] as
      { hash: string; subject: string; scopes: string } | undefined;
    const given = Buffer.from(createHash('sha256').update(m[2]!).digest('hex'));
    if (!row || !timingSafeEqual(given, Buffer.from(row.hash)) || !(JSON.parse(row.scopes) as string[]).includes(scope)) return undefined;
    return row.subject;
  };
  const present = (r: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...r, amount: Number(r.amount) };
    // tracking_number is never taken from a body here, so it is always absent (left out, as served), never null.
    for (const k of ['note', 'tracking_number']) if (out[k] === null) delete out[k];
    return out;
  };

  const app = Fastify({ logger: false });
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
      unit_price: { type: 'integer', minimum: 0 },
    },
  };
  app.post('/orders', {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['customer', 'items', 'amount', 'currency', 'shipping_address'],
        properties: {
          customer: { type: 'string', format: 'uuid' },
          items: { type: 'array', minItems: 1, maxItems: 100, items: item },
          amount: { type: 'integer', minimum: 1 },
          currency: { type: 'string', pattern: '^[A-Z]{3}$' },
          weight_kg: { type: 'number', exclusiveMinimum: 0 },
          shipping_address: address,
          note: { type: 'string', maxLength: 500 },
        },
      },
    },
    handler: async (req, reply) => {
      const subject = await authenticate(req.headers['x-api-key'] as string | undefined, 'orders:write');
      if (!subject) return reply.code(401).send({ code: 'unauthenticated' });
      const b = req.body as Record<string, unknown>;
      const now = new Date().toISOString();
      const insert = {
        name: 'insert',
        text: 'INSERT INTO orders VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *',
        values: [
          uuidv7(),
          b.customer,
          JSON.stringify(b.items),
          b.amount,
          b.currency,
          JSON.stringify(b.shipping_address),
          b.note ?? null,
          'pending',
          null,
          subject,
          now,
          now,
        ],
      };
      if (!options.outbox) {
        const row = (await pool.query(insert)).rows[0] as Record<string, unknown>;
        return reply
          .code(201)
          .header('location', `/orders/${row.id as string}`)
          .send(present(row));
      }
      // The usual hand-written transactional outbox: the order and its event committed together.
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const row = (await client.query(insert)).rows[0] as Record<string, unknown>;
        const body = present(row);
        await client.query({
          name: 'event',
          text: 'INSERT INTO outbox (id, type, timestamp, data) VALUES ($1, $2, $3, $4)',
          values: [uuidv7(), 'order.created', now, JSON.stringify({ object: body })],
        });
        await client.query('COMMIT');
        return reply
          .code(201)
          .header('location', `/orders/${row.id as string}`)
          .send(body);
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
  });
  app.get('/orders/:id', async (req, reply) => {
    const subject = await authenticate(req.headers['x-api-key'] as string | undefined, 'orders:read');
    if (!subject) return reply.code(401).send({ code: 'unauthenticated' });
    const row = (await pool.query({ name: 'byId', text: 'SELECT * FROM orders WHERE id = $1', values: [(req.params as { id: string }).id] })).rows[0] as
      Record<string, unknown> | undefined;
    if (!row || row.owner !== subject) return reply.code(404).send({ code: 'not_found' });
    return present(row);
  });
  app.get('/orders', async (req, reply) => {
    const subject = await authenticate(req.headers['x-api-key'] as string | undefined, 'orders:read');
    if (!subject) return reply.code(401).send({ code: 'unauthenticated' });
    const q = req.query as { limit?: string; cursor?: string };
    const limit = Math.min(Number(q.limit ?? 20), 100);
    const rows = (
      await pool.query({
        name: 'page',
        text: 'SELECT * FROM orders WHERE owner = $1 AND id > $2 ORDER BY id LIMIT $3',
        values: [subject, q.cursor ?? '', limit + 1],
      })
    ).rows as Record<string, unknown>[];
    const items = rows.slice(0, limit).map(present);
    return { items, next_cursor: rows.length > limit ? (items.at(-1)!.id as string) : null };
  });
  const listening = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: listening,
    key: `sk_${keyId}_${secret}`,
    customerId,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}
