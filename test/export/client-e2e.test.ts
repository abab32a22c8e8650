// The generated client, compiled by tsc --strict together with a typed driver, drives examples/orders.yaml served by
// the real runtime (Fastify on 127.0.0.1, SQLite in a temporary folder): it creates, lists every page, runs a
// transition, and catches a declared error by its type.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createApiKey, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { buildDriver, exampleModel, tempDir } from './helpers.js';

const DRIVER = `
import { isServiceError, ServiceClient, type Order, type OrderCreate } from './client.js';

export interface Outcome {
  customer: string;
  created: string[];
  listed: string[];
  pages: number;
  paid: Order['status'];
  shipped: { status: Order['status']; tracking: string | null | undefined };
  caught: { code: 'invalid_transition'; status: number; title: string | undefined } | undefined;
  old: { type: string; total: unknown; amount: unknown };
}

export async function drive(baseUrl: string, key: string, clientId: string, clientSecret: string): Promise<Outcome> {
  const client = new ServiceClient({ baseUrl, credentials: { key, payments: { clientId, clientSecret } } });
  const customer = await client.createCustomer({ name: 'Ada Lovelace', email: 'ada@example.com' });
  const body: OrderCreate = {
    customer: customer.id,
    items: [{ sku: 'MUG-BLUE-350', quantity: 1, unit_price: 2599 }],
    amount: 2599,
    currency: 'EUR',
    shipping_address: { line1: 'Main St 1', city: 'Delft', postal_code: '2611', country: 'NL' },
  };
  const created: Order[] = [];
  for (let i = 0; i < 5; i++) created.push(await client.createOrder({ ...body, amount: 1000 + i }));
  const listed: string[] = [];
  for await (const order of client.listOrdersAll({ limit: 2 })) listed.push(order.id);
  let pages = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listOrders({ limit: 2, ...(cursor !== undefined ? { cursor } : {}) });
    pages++;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const first = created[0]!;
  const paid = await client.payOrder(first.id);
  const shipped = await client.shipOrder(first.id, { tracking_number: 'TRACK-1' });
  let caught: Outcome['caught'];
  try {
    await client.cancelOrder(first.id);
  } catch (error) {
    if (isServiceError(error, 'invalid_transition')) caught = { code: error.code, status: error.status, title: error.body?.title };
    else throw error;
  }
  // An older version's answer is rewritten (Order.amount was Order.total) and still parsed as JSON.
  const before = (await client.getOrder(first.id, { version: '2026-06-01' })) as unknown;
  const old = { type: typeof before, total: (before as Record<string, unknown>).total, amount: (before as Record<string, unknown>).amount };
  return { customer: customer.id, created: created.map((o) => o.id), listed, pages, paid: paid.status, shipped: { status: shipped.status, tracking: shipped.tracking_number }, caught, old };
}
`;

interface Outcome {
  customer: string;
  created: string[];
  listed: string[];
  pages: number;
  paid: string;
  shipped: { status: string; tracking: string | null | undefined };
  caught: { code: string; status: number; title: string | undefined } | undefined;
  old: { type: string; total: unknown; amount: unknown };
}

describe('the generated client against the served orders example', () => {
  const tmp = tempDir('servicespec-e2e-');
  let model: CheckedModel;
  let app: FastifyInstance;
  let url: string;
  let key: string;
  let client: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    model = exampleModel('orders');
    const storage = createSqliteStorage({ path: join(tmp.path, 'orders.db'), synchronous: 'normal' });
    const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
    app = await createService(model, {
      storage,
      authenticator,
      allowGaps: true,
      handlers: { quote: () => ({ amount: 1, currency: 'EUR', valid_until: new Date().toISOString() }) },
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    key = (await createApiKey(storage, model, { subject: 'shop', scopes: ['customers:read', 'customers:write', 'orders:read', 'orders:write'] })).key;
    client = await createClient(storage, model, { subject: 'shop', scopes: ['orders:write'] });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    tmp.remove();
  });

  it('creates, lists all pages, runs transitions and catches a declared error with its type', async () => {
    writeFileSync(join(tmp.path, 'client.ts'), generateClient(model).code);
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (...a: string[]) => Promise<Outcome> }>(tmp.path, ['client.ts', 'driver.ts']);
    expect(output).toBe('');
    const outcome = await driver.drive(url, key, client.clientId, client.clientSecret);
    expect(outcome.created).toHaveLength(5);
    expect(new Set(outcome.listed)).toEqual(new Set(outcome.created));
    expect(outcome.listed).toHaveLength(5);
    expect(outcome.pages).toBe(3);
    expect(outcome.paid).toBe('paid');
    expect(outcome.shipped).toEqual({ status: 'shipped', tracking: 'TRACK-1' });
    expect(outcome.caught).toEqual({ code: 'invalid_transition', status: 409, title: 'The order cannot make that change from its current state' });
    expect(outcome.old).toEqual({ type: 'object', total: 1000, amount: undefined });
  }, 120_000);
});
