import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer } from './child-server.js';
import { TICKETS } from './helpers.js';

const Database = loadSqliteDriver();

const HANDLERS = new URL('./fixtures/tickets-handlers.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'servicespec-durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durability', () => {
  it('every acknowledged create survives SIGKILL; the database passes integrity_check', async () => {
    const db = `sqlite:${join(dir, 'tickets.db')}`;
    const args = [TICKETS, '--db', db, '--handlers', HANDLERS, '--allow-gaps'];
    const first = await startChildServer(args);
    const project = (await (
      await fetch(`${first.url}/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'dur', name: 'Durable' }),
      })
    ).json()) as { id: string };
    const acknowledged: string[] = [];
    let killed = false;
    const creates = Array.from({ length: 1000 }, async (_, i) => {
      try {
        const res = await fetch(`${first.url}/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ project: project.id, title: `t${i}`, reporter: 'a@b.co' }),
        });
        if (res.status === 201) {
          const body = (await res.json()) as { id: string };
          acknowledged.push(body.id);
          if (acknowledged.length === 400 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      } catch {
        // refused or cut off by the kill: not acknowledged
      }
    });
    await Promise.all(creates);
    await first.exited;
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    const second = await startChildServer(args);
    try {
      const missing: string[] = [];
      for (const id of acknowledged) {
        const res = await fetch(`${second.url}/tickets/${id}`);
        if (res.status !== 200) missing.push(id);
        await res.arrayBuffer();
      }
      expect(missing).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
    const check = new Database(join(dir, 'tickets.db'), { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  }, 120_000);
});
