// Setting authentication up: what the authenticator refuses (and why), the gaps it fills only when allowed,
// and the gap report naming what a spec leaves out.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import type { CheckedModel, ServiceModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { AuthConfigError, createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createClient } from '../../src/runtime/auth/auth-credentials.js';
import { AuthOptionError, getAuthOptionsFromCli } from '../../src/cli/cli-auth-options.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { HS_SECRET, makeRsaKey, NOTES, loadModel } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-auth-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(
  authentication: string,
  operations = '    op: { method: GET, path: /x, action: custom, handler: h, response: { fields: { ok: { type: boolean } } } }\n',
): ServiceModel {
  const text = `servicespec: 1\npurpose: { name: T }\nendpoints:\n  operations:\n${operations}authentication:\n${authentication}`;
  const c = compileSpecText(text, 'test.yaml');
  if (!c.model) throw new Error(c.diagnostics.map((d) => d.message).join('; '));
  return c.model;
}

function checkedModel(authentication: string): CheckedModel {
  const c = compileSpecText(
    `servicespec: 1\npurpose: { name: T }\nendpoints:\n  operations:\n    op: { method: GET, path: /x, action: custom, handler: h, response: { fields: { ok: { type: boolean } } } }\nauthentication:\n${authentication}`,
    'test.yaml',
  );
  if (!c.checked) throw new Error(c.diagnostics.map((d) => d.message).join('; '));
  return c.checked;
}

/** The problems createAuthenticator names (a model with check errors passed as a JavaScript caller could). */
async function problems(m: ServiceModel, options: Parameters<typeof createAuthenticator>[2] = {}): Promise<string[]> {
  return (await refusal(m, options)).problems;
}

async function refusal(m: ServiceModel, options: Parameters<typeof createAuthenticator>[2] = {}): Promise<{ problems: string[]; codes: string[] }> {
  const storage = createSqliteStorage({ path: ':memory:' });
  try {
    await createAuthenticator(m as CheckedModel, storage, options);
    return { problems: [], codes: [] };
  } catch (err) {
    if (err instanceof AuthConfigError) return { problems: [...err.problems], codes: [...err.codes] };
    throw err;
  } finally {
    await storage.close();
  }
}

const BEARER_HS = '  schemes:\n    b: { type: bearer, token: jwt, algorithms: [HS256], lifetime: 1h, issuer: i, audience: a }\n';

describe('key material', () => {
  it('refuses a PEM or JWK as the HMAC secret, and secrets under 32 bytes', async () => {
    const rsa = await makeRsaKey('k');
    expect((await problems(model(BEARER_HS), { jwt: { secret: rsa.publicPem } })).join()).toMatch(/looks like a key/);
    expect((await problems(model(BEARER_HS), { jwt: { secret: JSON.stringify(rsa.publicJwk) } })).join()).toMatch(/looks like a key/);
    expect((await problems(model(BEARER_HS), { jwt: { secret: 'short' } })).join()).toMatch(/5 bytes; HMAC secrets need at least 32/);
    expect(await problems(model(BEARER_HS), { jwt: { secret: HS_SECRET } })).toEqual([]);
  });

  it('refuses a JWKS that is unreadable, not JSON, not a key set, or holds a symmetric key', async () => {
    const write = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const m = model('  schemes:\n    b: { type: bearer, token: jwt, algorithms: [RS256], lifetime: 1h, issuer: i, audience: a }\n');
    expect((await problems(m, { jwt: { jwksFile: join(dir, 'missing.json') } })).join()).toMatch(/cannot read the JWKS file .*ENOENT/);
    expect((await problems(m, { jwt: { jwksFile: write('bad.json', '{') } })).join()).toMatch(/is not JSON/);
    expect((await problems(m, { jwt: { jwksFile: write('nokeys.json', '{}') } })).join()).toMatch(/needs a "keys" array/);
    expect((await problems(m, { jwt: { jwksFile: write('oct.json', JSON.stringify({ keys: [{ kty: 'oct', k: 'AAAA' }] })) } })).join()).toMatch(
      /symmetric \(oct\) key/,
    );
    const rsa = await makeRsaKey('k');
    expect(await problems(m, { jwt: { jwksFile: write('ok.json', JSON.stringify({ keys: [rsa.publicJwk] })) } })).toEqual([]);
  });

  it('a bearer scheme with no key to verify with is served with a warning (every token refused), not refused', async () => {
    const storage = createSqliteStorage({ path: ':memory:' });
    const a = await createAuthenticator(
      checkedModel('  schemes:\n    b: { type: bearer, token: jwt, algorithms: [RS256], lifetime: 1h, issuer: i, audience: a }\n'),
      storage,
    );
    expect(a.warnings.join()).toMatch(/scheme b has no key to verify RS256 with.*--jwks FILE/);
    await storage.close();
  });
});

describe('the spec', () => {
  it('refuses alg none and unknown algorithms', async () => {
    const p = await problems(model('  schemes:\n    b: { type: bearer, token: jwt, algorithms: [none, XS999], lifetime: 1h, issuer: i, audience: a }\n'), {
      jwt: { secret: HS_SECRET },
    });
    expect(p.join('\n')).toMatch(/alg "none" is never accepted/);
    expect(p.join('\n')).toMatch(/unsupported algorithm XS999/);
  });

  // The checker's rules are not restated: a model with check errors is refused by code, naming the checker's codes.
  it('refuses an api_key scheme that does not say where the key travels (scheme-incomplete, found by check)', async () => {
    const r = await refusal(model('  schemes:\n    k: { type: api_key, in: header }\n'));
    expect(r.codes).toEqual(['model-has-errors']);
    expect(r.problems.join()).toMatch(/scheme-incomplete/);
  });

  it('refuses an operation that names an undeclared scheme (unknown-scheme, found by check)', async () => {
    const m = model(
      '  schemes:\n    k: { type: api_key, in: header, name: X-Key }\n',
      '    op: { method: GET, path: /x, action: custom, handler: h, auth: { schemes: [nope] }, response: { fields: { ok: { type: boolean } } } }\n',
    );
    const r = await refusal(m);
    expect(r.codes).toEqual(['model-has-errors']);
    expect(r.problems.join()).toMatch(/unknown-scheme/);
    expect((await refusal({ ...m })).codes).toEqual(['model-unchecked']);
  });

  it('an HMAC-only token endpoint without an operator secret cannot sign', async () => {
    const m = model('  schemes:\n    o: { type: oauth2_client_credentials, token: jwt, algorithms: [HS256], lifetime: 5m, token_path: /token }\n');
    expect((await problems(m)).join()).toMatch(/cannot sign tokens with any of HS256 without an HMAC secret/);
    expect(await problems(m, { jwt: { secret: HS_SECRET } })).toEqual([]);
  });

  it('gaps (no lifetime, no algorithms) are refused without allowGaps, and named with the built-in behaviour with it', async () => {
    const m = model(
      '  schemes:\n    o: { type: oauth2_client_credentials, token: jwt, token_path: /token }\n    b: { type: bearer, token: jwt, algorithms: [ES256], lifetime: 1h, issuer: i, audience: a }\n',
    );
    const refused = await problems(m);
    expect(refused).toEqual([
      'token algorithms (scheme o): not shown (with --allow-gaps the runtime would sign the tokens it issues with ES256)',
      'token lifetimes (scheme o): not shown (with --allow-gaps the runtime would issue tokens valid for 3600 s)',
    ]);
    const storage = createSqliteStorage({ path: ':memory:' });
    const a = await createAuthenticator(m as CheckedModel, storage, { allowGaps: true });
    expect(a.gaps.map((g) => g.item)).toEqual(['token algorithms (scheme o): not shown', 'token lifetimes (scheme o): not shown']);
    expect(a.tokenIssuer('o')).toMatchObject({ algorithm: 'ES256', lifetimeSeconds: 3600 });
    // The bearer scheme's key set includes the service's own key, so the two verify alike.
    expect(a.warnings).toEqual([]);
    await storage.close();
  });

  it('a bearer scheme without algorithms accepts what the configured keys allow, only with allowGaps', async () => {
    const m = model('  schemes:\n    b: { type: bearer, token: jwt, lifetime: 1h, issuer: i, audience: a }\n');
    expect((await problems(m, { jwt: { secret: HS_SECRET } })).join()).toMatch(/token algorithms \(scheme b\): not shown .*accept HS256/);
    expect(await problems(m, { jwt: { secret: HS_SECRET }, allowGaps: true })).toEqual([]);
  });

  it('the runtime refuses to serve a token endpoint without an authenticator', async () => {
    const m = loadModel(NOTES);
    const storage = createSqliteStorage({ path: ':memory:' });
    const err = await createService(m, { storage, allowGaps: true, handlers: { whoami: () => ({}), status: () => ({ ok: true }) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceStartError);
    expect((err as ServiceStartError).problems.join()).toMatch(/scheme machine serves a token endpoint, but no authenticator is configured/);
  });

  it('clients need an oauth2_client_credentials scheme', async () => {
    const storage = createSqliteStorage({ path: ':memory:' });
    await expect(createClient(storage, model(BEARER_HS), { scopes: [] })).rejects.toThrow(/declares no oauth2_client_credentials scheme/);
    await storage.close();
  });
});

describe('CLI options for serve', () => {
  it('--jwt-secret-env names a variable (the secret never travels on the command line); --jwks a file', () => {
    expect(getAuthOptionsFromCli({ jwtSecretEnv: 'S', jwks: 'keys.json' }, { S: HS_SECRET })).toEqual({ jwt: { secret: HS_SECRET, jwksFile: 'keys.json' } });
    expect(() => getAuthOptionsFromCli({ jwtSecretEnv: 'UNSET' }, {})).toThrow(AuthOptionError);
    expect(getAuthOptionsFromCli({ allowGaps: true }, {})).toEqual({ jwt: {}, allowGaps: true });
  });
});

describe('the gap report names what the authentication part leaves out', () => {
  it('token lifetimes, algorithms, issuer and audience, header and query names, scopes', () => {
    const m = model(
      '  schemes:\n' +
        '    b: { type: bearer, token: jwt }\n' +
        '    o: { type: oauth2_client_credentials, token: jwt, token_path: /token }\n' +
        '    k: { type: api_key, in: header }\n' +
        '    q: { type: api_key, in: query }\n' +
        '  default: { scopes: [] }\n',
    );
    const part = getGapReport(m).parts.find((p) => p.part === 'authentication')!;
    expect(part.status).toBe('partly shown');
    expect(part.missing).toEqual([
      { item: 'token lifetimes', where: 'scheme b' },
      { item: 'token algorithms', where: 'scheme b' },
      { item: 'token issuer', where: 'scheme b' },
      { item: 'token audience', where: 'scheme b' },
      { item: 'token lifetimes', where: 'scheme o' },
      { item: 'token algorithms', where: 'scheme o' },
      { item: 'header names', where: 'scheme k' },
      { item: 'credential names', where: 'scheme q' },
      { item: 'scopes' },
    ]);
  });

  it('a fully declared authentication part is shown', () => {
    const part = getGapReport(loadModel(NOTES)).parts.find((p) => p.part === 'authentication')!;
    expect(part).toMatchObject({ status: 'shown', missing: [] });
  });
});
