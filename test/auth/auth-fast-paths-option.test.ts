// The library's `fastPaths: false` reaches every fast path it names, not only through SERVICESPEC_FAST_PATHS:
// the JWT check (node:crypto answers at once; jose alone answers with a promise) and the spec loader (the js-yaml
// read keeps a lazy source map; the `yaml` path alone builds a Map).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthRequirement } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { loadSpecText } from '../../src/spec/spec-loader.js';
import { claims, createClock, HS_SECRET, loadModel, NOTES, signHs } from './helpers.js';

describe('fastPaths given to the library', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-fastpaths-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reaches the JWT check: false verifies through jose (a promise), true through node:crypto (at once)', async () => {
    const model = loadModel(NOTES);
    const requirement = model.endpoints!.operations.find((o) => o.id === 'whoamiHs')!.auth as AuthRequirement & { kind: 'required' };
    const clock = createClock();
    const token = await signHs(claims(clock, { iss: 'https://issuer.test/', aud: 'notes' }));
    const request = { headers: { authorization: `Bearer ${token}` }, ip: '127.0.0.1', query: {} } as unknown as FastifyRequest;
    for (const fastPaths of [false, true]) {
      const storage = createSqliteStorage({ path: join(dir, `${fastPaths}.db`) });
      const a = await createAuthenticator(model, storage, { allowGaps: true, now: clock.now, jwt: { secret: HS_SECRET }, tokenCacheSize: 0, fastPaths });
      const answer = a.authenticate(request, requirement);
      expect(answer instanceof Promise, `fastPaths ${fastPaths}`).toBe(!fastPaths);
      expect(await answer).toMatchObject({ subject: 'alice', scheme: 'hs' });
      await storage.close();
    }
  });

  it('reaches the spec loader: false reads by the yaml path alone (its source map built at once), true by js-yaml', () => {
    // A spec without anchors (the js-yaml read leaves aliased collections to the yaml path).
    const text = readFileSync(new URL('../runtime/fixtures/versioned.yaml', import.meta.url), 'utf8');
    expect(loadSpecText(text, 'versioned.yaml', { fastPaths: false }).sourceMap).toBeInstanceOf(Map);
    expect(loadSpecText(text, 'versioned.yaml', { fastPaths: true }).sourceMap).not.toBeInstanceOf(Map);
    // Through the front end too, with the same model either way.
    const plain = compileSpecText(text, 'versioned.yaml', { fastPaths: false });
    expect(plain.sourceMap).toBeInstanceOf(Map);
    expect(plain.model).toEqual(compileSpecText(text, 'versioned.yaml', { fastPaths: true }).model);
  });
});
