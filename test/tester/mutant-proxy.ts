// A mutating proxy in front of the real runtime: each mutant rewrites one thing the spec promises, so the
// tester can be shown to catch it. Requests and answers are buffered, except the event stream, which is
// passed through chunk by chunk (and rewritten per event).

import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a mutant changes: hooks on requests, answers and stream events. */
export interface MutantHooks {
  /** Rewrites a request before it is forwarded; may answer it directly. */
  request?: (r: ProxyRequest) => ProxyRequest | ProxyResponse;
  /** Rewrites an answer; `send` forwards another request upstream. */
  response?: (r: ProxyResponse, req: ProxyRequest, send: (r: ProxyRequest) => Promise<ProxyResponse>) => ProxyResponse | Promise<ProxyResponse>;
  /** Rewrites one event block (`id: …\nevent: …\ndata: …`) of the stream; undefined drops it. */
  event?: (block: string) => string | undefined;
  /** Other upstream streams whose events are merged into this stream request's answer (a leak between subjects). */
  mergeStreams?: (r: ProxyRequest) => ProxyRequest[];
  /** Which events of a merged stream are passed on (default all). */
  mergeEvent?: (block: string) => boolean;
  /** Sees every buffered exchange as the client saw it (traffic counts). */
  observe?: (req: ProxyRequest, res: ProxyResponse) => void;
}

/** A targeted mutant: the check that must catch it, run alone. */
export interface Mutant extends MutantHooks {
  name: string;
  /** The check that must catch it. */
  caughtBy: string;
  /** The failing check's target must match this (default: any target). */
  target?: RegExp;
  /** The failure's reproduction must match this. */
  reproduce?: RegExp;
  /** Checks to run (keeps each mutant's run short). */
  only: string[];
}

const flat = (h: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
};

function forward(upstream: URL, r: ProxyRequest): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...r.headers, host: upstream.host, 'content-length': String(r.body.length) };
    if (r.body.length === 0 && (r.method === 'GET' || r.method === 'DELETE')) delete (headers as Record<string, string>)['content-length'];
    const req = httpRequest({ host: upstream.hostname, port: upstream.port, method: r.method, path: r.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: flat(res.headers), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

export async function startProxy(upstreamUrl: string, mutant: MutantHooks & Partial<Mutant>): Promise<RunningProxy> {
  const upstream = new URL(upstreamUrl);
  const send = (r: ProxyRequest) => forward(upstream, r);
  // Header sections up to 256 KiB reach the mutant (Node's own 16 KiB limit would answer a tester's large header itself).
  const server: Server = createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let pr: ProxyRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: flat(req.headers), body: Buffer.concat(chunks) };
        delete pr.headers['content-length'];
        delete pr.headers.connection;
        const early = mutant.request?.(pr);
        if (early && 'status' in early) {
          mutant.observe?.(pr, early);
          res.writeHead(early.status, early.headers).end(early.body);
          return;
        }
        if (early) pr = early;
        if ((pr.headers.accept ?? '').includes('text/event-stream')) {
          // The stream: piped, each complete event block passed through the mutant.
          const up = httpRequest(
            { host: upstream.hostname, port: upstream.port, method: 'GET', path: pr.path, headers: { ...pr.headers, host: upstream.host } },
            (ures) => {
              const headers = flat(ures.headers);
              for (const h of ['content-length', 'transfer-encoding', 'connection', 'keep-alive']) delete headers[h];
              res.writeHead(ures.statusCode ?? 502, headers);
              res.flushHeaders();
              let buffer = '';
              ures.setEncoding('utf8');
              ures.on('data', (text: string) => {
                buffer += text;
                let end: number;
                while ((end = buffer.indexOf('\n\n')) >= 0) {
                  const block = buffer.slice(0, end);
                  buffer = buffer.slice(end + 2);
                  const out =
                    block.includes('\nevent: ') || block.startsWith('event: ') ? (mutant.event?.(block) ?? (mutant.event ? undefined : block)) : block;
                  if (out !== undefined) res.write(`${out}\n\n`);
                }
              });
              ures.on('end', () => res.end());
              res.on('close', () => ures.destroy());
            },
          );
          up.on('error', () => res.destroy());
          up.end();
          // Merged streams: their complete event blocks are written into this answer too.
          for (const extra of mutant.mergeStreams?.(pr) ?? []) {
            const side = httpRequest(
              { host: upstream.hostname, port: upstream.port, method: 'GET', path: extra.path, headers: { ...extra.headers, host: upstream.host } },
              (sres) => {
                let buffer = '';
                sres.setEncoding('utf8');
                sres.on('data', (text: string) => {
                  buffer += text;
                  let end: number;
                  while ((end = buffer.indexOf('\n\n')) >= 0) {
                    const block = buffer.slice(0, end);
                    buffer = buffer.slice(end + 2);
                    if (/(^|\n)event: /.test(block) && (mutant.mergeEvent?.(block) ?? true) && !res.writableEnded) res.write(`${block}\n\n`);
                  }
                });
                res.on('close', () => sres.destroy());
              },
            );
            side.on('error', () => undefined);
            side.end();
          }
          return;
        }
        let answer = await send(pr);
        if (mutant.response) answer = await mutant.response(answer, pr, send);
        mutant.observe?.(pr, answer);
        const headers = { ...answer.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        delete headers.connection;
        res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) }).end(answer.body);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- helpers for writing mutants ---------------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of every shape
export const json = (r: ProxyResponse): any => {
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    return undefined;
  }
};

export const withJson = (r: ProxyResponse, body: unknown): ProxyResponse => ({ ...r, body: Buffer.from(JSON.stringify(body)) });
