// endpoints.unique: a second create with a value the spec says is unique (a client-given identifier, a `unique`
// field) must answer the declared unique_conflict. The runtime passes; a service in front of it that accepts the
// duplicate (its 409 turned into a 201) fails, naming the field.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { serveInMemory } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
resources:
  Member:
    identifier_source: client
    fields:
      id: { type: integer, minimum: 1 }
      email: { type: email, unique: true }
      name: { type: string, minLength: 1, maxLength: 50 }
endpoints:
  operations:
    createMember: { method: POST, path: /members, action: create, resource: Member }
    getMember: { method: GET, path: "/members/{id}", action: read, resource: Member }
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    conflict: { status: 409, when: [unique_conflict] }
`;

const model = compileSpecText(SPEC, 'unique.yaml').checked!;
let url = '';
let close: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  ({ url, close } = await serveInMemory(model));
}, 60_000);
afterAll(() => close());

const unique = (r: Awaited<ReturnType<typeof testService>>) =>
  r.results.filter((x) => x.check === 'endpoints.unique').map((x) => [x.outcome, x.target, x.failure?.expected ?? x.reason]);

it('passes against the runtime, which refuses a repeated identifier and a repeated unique email', async () => {
  for (const seed of [1, 2]) {
    const r = await testService(model, { baseUrl: url, seed, runs: 1, only: ['endpoints.unique'] });
    expect(unique(r)).toEqual([['passed', 'createMember', undefined]]);
  }
}, 60_000);

/** In front of the runtime: a create refused as a conflict is answered 201 with the body sent, as a service that keeps duplicates would. */
async function acceptingDuplicates(only: 'id' | 'email'): Promise<{ url: string; server: Server }> {
  const emails = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length') as [string, string][]);
      const up = await fetch(`${url}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
      const text = await up.text();
      if (req.method === 'POST' && up.status === 409) {
        const sent = JSON.parse(body!.toString()) as Record<string, unknown>;
        // Only the duplicate the mutant lets through; the other unique field stays refused. The email tells which:
        // one this mutant saw created repeats it. (Asking the service whether the id is held told wrong at random:
        // a fresh body's small integer id may be one an earlier test made.)
        const repeats = emails.has(String(sent.email)) ? 'email' : 'id';
        if (repeats === only) {
          res.writeHead(201, { 'content-type': 'application/json', location: `/members/${String(sent.id)}` });
          res.end(JSON.stringify(sent));
          return;
        }
      }
      if (req.method === 'POST' && up.status === 201) emails.add(String((JSON.parse(text) as Record<string, unknown>).email));
      res.writeHead(up.status, Object.fromEntries([...up.headers].filter(([k]) => k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection')));
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

it.each(['id', 'email'] as const)(
  'fails, naming the field, against a service that accepts a repeated %s',
  async (field) => {
    const m = await acceptingDuplicates(field);
    try {
      const r = await testService(model, { baseUrl: m.url, seed: 1, runs: 1, only: ['endpoints.unique'] });
      const [outcome, target, expected] = unique(r)[0]!;
      expect([outcome, target]).toEqual(['failed', 'createMember']);
      expect(expected).toMatch(new RegExp(`^the declared conflict answer for a second Member with the same ${field} `));
    } finally {
      m.server.close();
    }
  },
  60_000,
);
