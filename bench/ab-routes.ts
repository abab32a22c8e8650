// Two checkouts' route surfaces compared (a change to how routes are registered must not change an answer): each
// spec is served by both built CLIs (`serve --cors`), and every path of the spec (its parameters filled with one
// unknown id) plus a few undeclared ones gets every method, with and without a CORS preflight's headers, with no
// body, a JSON body and a malformed one; and every method without a body on variants of each path that a router
// reads its own way (a trailing slash, an empty or extra segment, percent-encodings, a query, another case, a URL
// that does not decode). Status, headers (less Date and the request id) and body must be equal.
//
//   AB_OLD=/tmp/old-checkout npx tsx bench/ab-routes.ts [spec.yaml ...]    # default: every test fixture and example,
//                                                                          # and the generated 100-resource spec
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { generateLargeSpec } from './lib/foundation-spec.js';

const NEW = fileURLToPath(new URL('..', import.meta.url));
const OLD = process.env.AB_OLD;
if (!OLD) throw new Error('set AB_OLD to the other checkout (built)');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];
const ID = '00000000-0000-4000-8000-000000000000';

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const r = request({ host: '127.0.0.1', port, method, path, headers: sized }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    r.on('error', reject);
    // A stream's answer never ends: its headers are what is compared.
    r.setTimeout(1500, () => r.destroy());
    r.end(body);
  });
}

async function serve(root: string, spec: string, dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const cli = join(root, 'dist', 'cli', 'cli-main.js');
  const child = spawn(
    process.execPath,
    [cli, 'serve', spec, '--port', String(port), '--db', `sqlite:${join(dir, `${port}.db`)}`, '--allow-gaps', '--log', 'silent', '--cors', 'http://a.example'],
    { stdio: 'ignore' },
  );
  for (let i = 0; ; i++) {
    try {
      await send(port, 'GET', '/_servicespec/health', {});
      return { child, port };
    } catch {
      if (i > 600) throw new Error(`${cli} did not start on ${spec}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** What may differ between two runs: dates, ids, the request id, a limiter's reset seconds. */
function normalise(a: Answer): string {
  const { date: _date, 'x-request-id': _id, ...headers } = a.headers;
  return JSON.stringify({ ...a, headers })
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/\d{4}-\d\d-\d\dT[0-9:.]+Z/g, 'TIME')
    .replace(/t=\d+/g, 't=N');
}

function pathsOf(spec: string): string[] {
  const doc = load(readFileSync(spec, 'utf8')) as {
    endpoints?: { operations?: Record<string, { path: string }> };
    events?: { stream?: { path?: string }; webhook?: { path?: string } };
  };
  const paths = new Set(Object.values(doc.endpoints?.operations ?? {}).map((o) => o.path.replace(/\{[^}]+\}/g, ID)));
  const hooks = doc.events?.webhook?.path;
  if (hooks) for (const p of [hooks, `${hooks}/${ID}`, `${hooks}/${ID}/rotate`]) paths.add(p);
  if (doc.events?.stream?.path) paths.add(doc.events.stream.path);
  return [...paths, '/nothing', '/_servicespec/health'];
}

/** What a router might read differently from the path itself. */
function variantsOf(path: string): string[] {
  const segments = path.split('/');
  const encodeFirst = (s: string) => (s.length > 0 ? `%${s.charCodeAt(0).toString(16).toUpperCase()}${s.slice(1)}` : s);
  return [
    `${path}/`,
    `/${path}`,
    `${path}//`,
    `${path}/x`,
    `${path}?a=1&b=%zz`,
    `${path}#f`,
    `${path}/%zz`,
    path.toUpperCase(),
    segments.map((s, i) => (i === 1 ? encodeFirst(s) : s)).join('/'),
    path.replaceAll(ID, 'a%2Fb'),
    path.replaceAll(ID, ''),
    path.replaceAll(ID, '%E2%82%AC'),
    segments.slice(0, -1).join('/') || '/',
  ];
}

const specs = process.argv.slice(2);
const generated = mkdtempSync(join(tmpdir(), 'ab-routes-spec-'));
if (specs.length === 0) {
  for (const f of readdirSync(join(NEW, 'examples'))) if (f.endsWith('.yaml')) specs.push(join(NEW, 'examples', f));
  specs.push(join(generated, 'spec-100.yaml'));
  writeFileSync(specs.at(-1)!, generateLargeSpec({ resources: 100, operationsPerResource: 5 }));
  const test = join(NEW, 'test');
  for (const area of readdirSync(test)) {
    try {
      for (const f of readdirSync(join(test, area, 'fixtures'))) if (f.endsWith('.yaml')) specs.push(join(test, area, 'fixtures', f));
    } catch {
      // no fixtures here
    }
  }
}
let total = 0;
let differences = 0;
for (const spec of specs) {
  const dir = mkdtempSync(join(tmpdir(), 'ab-routes-'));
  const [a, b] = await Promise.all([serve(OLD, spec, dir), serve(NEW, spec, dir)]);
  try {
    for (const path of pathsOf(spec))
      for (const method of METHODS)
        for (const headers of [{}, { origin: 'http://a.example', 'access-control-request-method': 'POST' }] as Record<string, string>[])
          for (const body of [undefined, '{"name":"x"}', '{bad']) {
            if ((method === 'GET' || method === 'HEAD') && body !== undefined) continue;
            const [x, y] = await Promise.all([send(a.port, method, path, headers, body), send(b.port, method, path, headers, body)]);
            total++;
            if (normalise(x) === normalise(y)) continue;
            differences++;
            console.log(`${spec}: ${method} ${path} ${JSON.stringify(headers)} ${body ?? ''}\n  old ${normalise(x)}\n  new ${normalise(y)}`);
          }
    for (const path of new Set([...pathsOf(spec).flatMap(variantsOf), '/', '//', '/_servicespec/health/', '/_servicespec/health?x=1']))
      for (const method of METHODS) {
        const [x, y] = await Promise.all([send(a.port, method, path, {}), send(b.port, method, path, {})]);
        total++;
        if (normalise(x) === normalise(y)) continue;
        differences++;
        console.log(`${spec}: ${method} ${path}\n  old ${normalise(x)}\n  new ${normalise(y)}`);
      }
  } finally {
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
rmSync(generated, { recursive: true, force: true });
console.log(`${specs.length} specs, ${total} requests (each sent to both), ${differences} differences`);
process.exit(differences > 0 ? 1 : 0);
