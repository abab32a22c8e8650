// A service written by hand for the contract tester to test: node:http on loopback, each request read whole and
// handed over with ways to answer it. What the tester's own tests stand a server up with, so each test writes only
// the service's rules.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HandRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as text ('' for none). */
  text: string;
}

export interface HandReply {
  /** Answers `body` as JSON with the status, in `type` (application/json unless given), with the extra headers. */
  json(status: number, body: unknown, type?: string, headers?: Record<string, string>): void;
  /** Answers RFC 9457 problem details naming `code` (the spec's PLAIN_ERRORS codes). */
  problem(status: number, code: string): void;
  /** Answers 405 `not_allowed` with the Allow header naming the methods the path takes (RFC 9110 §15.5.6). */
  notAllowed(allow: string): void;
}

export interface HandServer {
  url: string;
  close(): void;
}

/** Starts the service on a free loopback port. */
export function startHandServer(handle: (req: HandRequest, reply: HandReply) => void): Promise<HandServer> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const json: HandReply['json'] = (status, body, type = 'application/json', headers = {}) => {
        res.writeHead(status, { 'content-type': type, ...headers });
        res.end(JSON.stringify(body));
      };
      const reply: HandReply = {
        json,
        problem: (status, code) => json(status, { type: 'about:blank', title: code, status, code }, 'application/problem+json'),
        notAllowed: (allow) =>
          json(405, { type: 'about:blank', title: 'not_allowed', status: 405, code: 'not_allowed' }, 'application/problem+json', { allow }),
      };
      handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, text }, reply);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

/** What `readJson` gives for a body that is not JSON. */
export const MALFORMED: unique symbol = Symbol('malformed JSON');

/** The request body read as JSON, or MALFORMED. */
export function readJson(req: HandRequest): unknown {
  try {
    return JSON.parse(req.text) as unknown;
  } catch {
    return MALFORMED;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The length of a text as JSON Schema counts it: code points. */
export const codePoints = (v: unknown): number => (typeof v === 'string' ? [...v].length : -1);

/**
 * A JSON object body as the PLAIN_ERRORS spec takes it, or undefined once refused: another media type 415
 * `not_json`, text that is not JSON 400 `bad_body`, JSON that is not an object 422 `invalid`.
 */
export function takeObject(req: HandRequest, reply: HandReply): Record<string, unknown> | undefined {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return void reply.problem(415, 'not_json');
  const b = readJson(req);
  if (b === MALFORMED) return void reply.problem(400, 'bad_body');
  if (!isObject(b)) return void reply.problem(422, 'invalid');
  return b;
}
