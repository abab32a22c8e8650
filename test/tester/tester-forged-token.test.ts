// authentication.bad-credential sends bearer JWTs forged from the main subject's own token: its signature altered,
// and unsigned (alg none), claims unchanged. A service that reads a JWT's claims without checking its signature
// fails; before, only `Bearer not.a.token` was sent, which such a service refused as malformed (a CMS sweep's
// bad_token_accepted escaped).
import { SignJWT, jwtVerify, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { getForgedTokens } from '../../src/tester/tester-checks-auth.js';
import { startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 10 }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
authentication:
  schemes:
    token: { type: bearer }
  default: { schemes: [token] }
errors:
  body: problem
  codes:
    unauthenticated: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

const KEY = new TextEncoder().encode('a-secret-of-the-service-32-bytes!!');

async function start(checkSignature: boolean): Promise<HandServer> {
  return startHandServer((req, reply) => {
    void (async () => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      let sub: unknown;
      try {
        sub = checkSignature ? (await jwtVerify(token ?? '', KEY)).payload.sub : decodeJwt(token ?? '').sub;
      } catch {
        sub = undefined;
      }
      if (typeof sub !== 'string')
        return reply.json(401, { type: 'about:blank', title: 'unauthenticated', status: 401, code: 'unauthenticated' }, 'application/problem+json', {
          'www-authenticate': 'Bearer',
        });
      reply.json(200, { items: [], next_cursor: null });
    })();
  });
}

describe('a bearer JWT forged from the subject\u2019s own', () => {
  let faithful: HandServer;
  let unchecked: HandServer;
  let token: string;
  beforeAll(async () => {
    token = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(KEY);
    faithful = await start(true);
    unchecked = await start(false);
  });
  afterAll(() => {
    faithful?.close();
    unchecked?.close();
  });
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, credentials: { bearer: token }, only: ['authentication.bad-credential'] })).results
      .filter((x) => x.outcome === 'failed')
      .map((x) => x.target);

  it('is two tokens with the same claims: one with its signature altered, one unsigned', () => {
    const forged = getForgedTokens({ authorization: `Bearer ${token}` }).map((f) => f.headers.authorization!.slice(7));
    expect(forged).toHaveLength(2);
    for (const f of forged) expect(decodeJwt(f).sub).toBe('alice');
    expect(forged[0]!.split('.')[2]).not.toBe(token.split('.')[2]);
    expect(forged[1]!.endsWith('.')).toBe(true);
    expect(getForgedTokens({ authorization: 'Bearer opaque-token' })).toEqual([]);
  });

  it('a service checking the signature passes; one reading the claims alone fails both', async () => {
    expect(await failed(faithful.url)).toEqual([]);
    expect(await failed(unchecked.url)).toEqual([
      'listNotes: a token of its own with the signature altered',
      'listNotes: a token of its own, unsigned (alg none)',
    ]);
  }, 60_000);
});
