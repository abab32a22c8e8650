// A custom operation whose request names a resource (`request: {resource: Label}`, an imported create the format
// could not make a resource action) is sent that resource's create body broken each way its constraints allow.
// Before, it was sent an empty body to break: no constraint was probed (the tracker sweep's color-pattern and
// comment-empty escaped), and since the unbroken body is sent first, that empty body's refusal left even the
// malformed-JSON probes unjudged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, minLength: 1, maxLength: 10 }
      color: { type: string, pattern: '^[0-9a-f]{6}$' }
endpoints:
  operations:
    createLabel:
      method: POST
      path: /labels
      action: custom
      handler: createLabel
      request: { resource: Label }
      response: { resource: Label }
      errors: [invalid]
authentication:
  default: none
${PLAIN_ERRORS}`;

/** Labels by hand; `fault`: the colour's pattern is not enforced. */
function start(fault: boolean): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const answer = (status: number, body: unknown, type = 'application/problem+json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(JSON.stringify(body));
      };
      const problem = (status: number, code: string) => answer(status, { type: 'about:blank', title: code, status, code });
      if (req.method !== 'POST' || req.url !== '/labels') return problem(404, 'not_found');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return problem(415, 'not_json');
      let b: unknown;
      try {
        b = JSON.parse(text);
      } catch {
        return problem(400, 'bad_body');
      }
      if (typeof b !== 'object' || b === null || Array.isArray(b)) return problem(422, 'invalid');
      const { name, color, ...rest } = b as Record<string, unknown>;
      if (Object.keys(rest).length > 0) return problem(422, 'invalid');
      if (typeof name !== 'string' || name.length < 1 || name.length > 10) return problem(422, 'invalid');
      if (typeof color !== 'string' || (!fault && !/^[0-9a-f]{6}$/.test(color))) return problem(422, 'invalid');
      return answer(200, { id: crypto.randomUUID(), name, color }, 'application/json');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe("a custom operation's body that names a resource", () => {
  let faithful: { url: string; server: Server };
  let faulty: { url: string; server: Server };
  beforeAll(async () => {
    faithful = await start(false);
    faulty = await start(true);
  });
  afterAll(() => {
    faithful?.server.close();
    faulty?.server.close();
  });
  const run = (url: string) => testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.invalid-requests'] });

  it('the faithful service passes, each constraint probed', async () => {
    const r = await run(faithful.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.target, x.failure?.actual])).toEqual([]);
    const passed = r.results.filter((x) => x.outcome === 'passed').map((x) => x.target);
    expect(passed).toContain('createLabel: name longer than maxLength 10');
    expect(passed.some((t) => t.startsWith('createLabel: color not matching pattern'))).toBe(true);
  }, 60_000);

  it("a service not enforcing the colour's pattern fails", async () => {
    const r = await run(faulty.url);
    expect(r.results.filter((x) => x.outcome === 'failed').some((x) => x.target.startsWith('createLabel: color not matching pattern'))).toBe(true);
  }, 60_000);
});
