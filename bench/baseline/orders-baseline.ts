// The hand-written baseline for bench/runtime-bench.ts: the same three Orders endpoints as
// examples/orders.yaml serves (create, read by id, list a page), written directly with Fastify and
// better-sqlite3, with the same durability (WAL, synchronous=FULL), the same API-key check (key id
// lookup + SHA-256 + constant-time compare) and JSON Schema validation of the create body.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';

const Database = loadSqliteDriver();

export interface BaselineOptions {
  /** SQLite's synchronous setting (default full, as servicespec's default). */
  synchronous?: 'full' | 'normal';
  /** No API key checked: every order belongs to one owner, '-'. */
  open?: boolean;
}

export async function startBaseline(dbPath: string, options: BaselineOptions = {}): Promise<{ url: string; key: string; customerId: string; app: FastifyInstance; close: () => Promise<void> }> {
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE IF NOT EXISTS keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL, subject TEXT NOT NULL, scopes TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, customer TEXT NOT NULL REFERENCES customers(id), items TEXT NOT NULL CHECK (json_valid(items)),
  amount INTEGER NOT NULL CHECK (amount >= 1), currency TEXT NOT NULL, shipping_address TEXT NOT NULL CHECK (json_valid(shipping_address)),
  note TEXT, status TEXT NOT NULL, tracking_number TEXT, owner TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL) STRICT;`);
  const keyId = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  db.prepare('INSERT INTO keys VALUES (?, ?, ?, ?)').run(keyId, createHash('sha256').update(secret).digest('hex'), 'bench', JSON.stringify(['orders:read', 'orders:write']));
  const customerId = uuidv7();
  db.prepare('INSERT INTO customers VALUES (?, ?, ?, ?)').run(customerId, 'Bench', `bench-${customerId}@example.com`, new Date().toISOString());

  const findKey = db.prepare('SELECT hash, subject, scopes FROM keys WHERE id = ?');
  const insert = db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *');
  const byId = db.prepare('SELECT * FROM orders WHERE id = ?');
  const page = options.open ? db.prepare('SELECT * FROM orders WHERE ? IS NOT NULL AND id > ? ORDER BY id LIMIT ?') : db.prepare('SELECT * FROM orders WHERE owner = ? AND id > ? ORDER BY id LIMIT ?');

  const authenticate = (header: string | undefined, scope: string): string | undefined => {
    if (options.open) return '-';
    const m = header && /^sk_([0-9a-f]{12})_(.+)$/.exec(header);
    if (!m) return undefined;
    const row = findKey.get(m[1]) as { hash: string; subject: string; scopes: string } | undefined;
    const given = Buffer.from(createHash('sha256').update(m[2]!).digest('hex'));
    if (!row || !timingSafeEqual(given, Buffer.from(row.hash)) || !(JSON.parse(row.scopes) as string[]).includes(scope)) return undefined;
    return row.subject;
  };
  const present = (r: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...r, items: JSON.parse(r.items as string), shipping_address: JSON.parse(r.shipping_address as string) };
    for (const k of ['note']) if (out[k] === null) delete out[k];
    if (options.open) delete out.owner; // served without credentials, the Order has no owner field
    return out;
  };

  const app = Fastify({ logger: false });
  const address = { type: 'object', additionalProperties: false, required: ['line1', 'city', 'postal_code', 'country'], properties: { line1: { type: 'string', minLength: 1, maxLength: 200 }, line2: { type: 'string', maxLength: 200 }, city: { type: 'string', minLength: 1, maxLength: 100 }, postal_code: { type: 'string', minLength: 1, maxLength: 20 }, country: { type: 'string', pattern: '^[A-Z]{2}$' } } };
  const item = { type: 'object', additionalProperties: false, required: ['sku', 'quantity', 'unit_price'], properties: { sku: { type: 'string', pattern: '^[A-Z0-9-]{4,32}$' }, quantity: { type: 'integer', minimum: 1, maximum: 999 }, unit_price: { type: 'integer', minimum: 0 } } };
  app.post('/orders', {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['customer', 'items', 'amount', 'currency', 'shipping_address'],
        properties: { customer: { type: 'string', format: 'uuid' }, items: { type: 'array', minItems: 1, maxItems: 100, items: item }, amount: { type: 'integer', minimum: 1 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' }, weight_kg: { type: 'number', exclusiveMinimum: 0 }, shipping_address: address, note: { type: 'string', maxLength: 500 } },
      },
    },
    handler: async (req, reply) => {
      const subject = authenticate(req.headers['x-api-key'] as string | undefined, 'orders:write');
      if (!subject) return reply.code(401).send({ code: 'unauthenticated' });
      const b = req.body as Record<string, unknown>;
      const now = new Date().toISOString();
      const row = insert.get(uuidv7(), b.customer, JSON.stringify(b.items), b.amount, b.currency, JSON.stringify(b.shipping_address), b.note ?? null, 'pending', null, subject, now, now) as Record<string, unknown>;
      return reply.code(201).header('location', `/orders/${row.id as string}`).send(present(row));
    },
  });
  app.get('/orders/:id', async (req, reply) => {
    const subject = authenticate(req.headers['x-api-key'] as string | undefined, 'orders:read');
    if (!subject) return reply.code(401).send({ code: 'unauthenticated' });
    const row = byId.get((req.params as { id: string }).id) as Record<string, unknown> | undefined;
    if (!row || row.owner !== subject) return reply.code(404).send({ code: 'not_found' });
    return present(row);
  });
  app.get('/orders', async (req, reply) => {
    const subject = authenticate(req.headers['x-api-key'] as string | undefined, 'orders:read');
    if (!subject) return reply.code(401).send({ code: 'unauthenticated' });
    const q = req.query as { limit?: string; cursor?: string };
    const limit = Math.min(Number(q.limit ?? 20), 100);
    const rows = page.all(subject, q.cursor ?? '', limit + 1) as Record<string, unknown>[];
    const items = rows.slice(0, limit).map(present);
    return { items, next_cursor: rows.length > limit ? (items.at(-1)!.id as string) : null };
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
