import { connect } from 'node:net';
/** What `callJson` answers: the status, the headers, the body parsed as JSON (or the text when it is not JSON). */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies of many shapes
  body: any;
  text: string;
}

/** A real HTTP request to `base + path`; an object body is sent as JSON (content type set unless given). */
export async function callJson(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** One HTTP/1.1 answer read off a socket as bytes (latin1 text): its status, lower-cased headers and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The answers in what a server wrote on one connection, one after another (each body by its Content-Length). */
export function parseRawAnswers(text: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [line, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    out.push({ status: Number(line!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/**
 * Writes the bytes as given to 127.0.0.1:port (then whatever `during` writes) and reads until the server closes the
 * connection: every answer on it. Destroyed with an error after 10 s without a close.
 */
export function sendRaw(port: number, text: string, during?: (write: (t: string) => void) => Promise<void>): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      void during?.((t) => socket.write(t));
    });
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('close', () => resolve(parseRawAnswers(out)));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(new Error(`no close; got ${JSON.stringify(out.slice(0, 200))}`)), 10_000).unref();
  });
}
