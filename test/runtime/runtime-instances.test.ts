// Several instances on one database: what the runtime generates for itself on a fresh database (the cursor
// secret, the token endpoint's signing key) is generated once, so every instance agrees.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from '../../src/runtime/auth/auth-jwt.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { loadModel, TICKETS } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('two instances starting together on one fresh database', () => {
  it('sign cursors with one secret: a page listed from one continues on the other', async () => {
    const model = loadModel(TICKETS);
    const path = join(dir, 'cursors.db');
    const [a, b] = await Promise.all(
      [0, 1].map(async () =>
        createService(model, { storage: createSqliteStorage({ path, synchronous: 'normal' }), allowGaps: true, handlers: { estimate: () => ({ points: 1 }) } }),
      ),
    );
    try {
      const project = await a!.inject({ method: 'POST', url: '/projects', payload: { slug: 'core', name: 'Core' } });
      expect(project.statusCode).toBe(201);
      for (let i = 0; i < 3; i++) {
        const t = await a!.inject({ method: 'POST', url: '/tickets', payload: { project: project.json().id, title: `T${i}`, reporter: 'ann@example.com' } });
        expect(t.statusCode).toBe(201);
      }
      const first = await a!.inject({ method: 'GET', url: '/tickets?limit=2' });
      expect(first.json().items).toHaveLength(2);
      const cursor = first.json().next_cursor as string;
      const rest = await b!.inject({ method: 'GET', url: `/tickets?limit=2&cursor=${encodeURIComponent(cursor)}` });
      expect(rest.statusCode).toBe(200);
      expect(rest.json().items).toHaveLength(1);
    } finally {
      await a!.close();
      await b!.close();
    }
  });

  it('use one signing key for the tokens they issue', async () => {
    const path = join(dir, 'keys.db');
    const one = createSqliteStorage({ path, synchronous: 'normal' });
    const two = createSqliteStorage({ path, synchronous: 'normal' });
    try {
      const [k1, k2] = await Promise.all([loadSigningKey(one, 'ES256'), loadSigningKey(two, 'ES256')]);
      expect(k1.kid).toBe(k2.kid);
      expect((await loadSigningKey(one, 'ES256')).kid).toBe(k1.kid);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
