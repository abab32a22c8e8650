import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { loadModel, startService, type Running } from '../runtime/helpers.js';

// Issue 19 item 2: on SQLite a keyed create claims its key, makes its change and keeps its answer in one
// transaction. The real storage is wrapped only to count what the runtime asks of it.
const LIMITED = new URL('./fixtures/limited.yaml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'servicespec-keyed-'));
const calls = new Map<string, number>();
let s: Running;
beforeAll(async () => {
  const real = createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  const counted = new Proxy(real, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        const out = (v as (...a: unknown[]) => unknown).apply(target, args);
        // The writer that commits in the request's turn: its transactions counted too.
        if (prop !== 'writeNow' || out === undefined) return out;
        const writer = out as NonNullable<ReturnType<NonNullable<Storage['writeNow']>>>;
        return {
          ...writer,
          transaction: <T>(work: () => T): T => (calls.set('writer.transaction', (calls.get('writer.transaction') ?? 0) + 1), writer.transaction(work)),
        };
      };
    },
  }) as Storage;
  // The fixture's custom operations need handlers to start; they are not called here. The one commit is a fast path
  // (docs/architecture.md, "Fast paths"): on here whatever SERVICESPEC_FAST_PATHS says.
  s = await startService(loadModel(LIMITED), { storage: counted, allowGaps: false, handlers: { ping: () => ({}), slow: () => ({}) }, fastPaths: true });
});
afterAll(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (name: string) => calls.get(name) ?? 0;

describe('a keyed create on SQLite', () => {
  it('commits once: claim, change and stored answer in the create’s own transaction', async () => {
    const commits = () => count('transaction') + count('writer.transaction');
    const before = { tx: commits(), claim: count('claimRecord'), put: count('putRecord') };
    const key = `one-${Date.now()}`;
    const first = await s.call('POST', '/items', { name: 'one commit' }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect([commits() - before.tx, count('claimRecord') - before.claim, count('putRecord') - before.put]).toEqual([1, 0, 0]);
    // With nothing else writing, in the request's own turn (no queued transaction).
    expect(count('writer.transaction')).toBe(1);
    // A retry is answered from the stored answer, with no transaction at all.
    const again = await s.call('POST', '/items', { name: 'one commit' }, { 'idempotency-key': key });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([201, 'true', first.body]);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(commits() - before.tx).toBe(1);
  });

  it('keeps an error answer with one write after it, and replays it', async () => {
    const key = `err-${Date.now()}`;
    const before = { tx: count('transaction'), claim: count('claimRecord') };
    const bad = await s.call('POST', '/items', { name: 'x'.repeat(101) }, { 'idempotency-key': key });
    expect(bad.status).toBe(422);
    expect([count('transaction') - before.tx, count('claimRecord') - before.claim]).toEqual([0, 1]);
    const again = await s.call('POST', '/items', { name: 'x'.repeat(101) }, { 'idempotency-key': key });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([422, 'true', bad.body]);
  });
});
