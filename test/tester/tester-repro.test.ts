// Issue 25 item 7: a failure's reproduction replays it. Each reproduction here is taken from a run against a
// planted fault, its credential put back, and run with bash and the real curl against the same faulty server:
// the fault shows in curl's output, and the bytes curl sent are the bytes the tester sent.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCurl } from '../../src/tester/tester-http.js';
import { formatReportText } from '../../src/tester/tester-report.js';
import { testService } from '../../src/tester/tester-run.js';
import type { Failure } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson, type MutantHooks, type ProxyRequest } from './mutant-proxy.js';

const YARDSTICK = fileURLToPath(new URL('./fixtures/yardstick.yaml', import.meta.url));

/** Runs `script` with bash (read from its standard input, as a pasted or saved script is); its output and exit code. */
const bash = (script: string): Promise<{ stdout: string; stderr: string; code: number }> =>
  new Promise((resolve) => {
    const child = spawn('bash', ['-s'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? 1 }));
    child.stdin.end(`${script}\n`);
  });

let dir: string;
let s: OrdersServer;
beforeAll(async () => {
  // The yardstick spec with a body limit of exactly 8192 bytes.
  dir = mkdtempSync(join(tmpdir(), 'servicespec-repro-'));
  const spec = join(dir, 'tickets.yaml');
  const text = readFileSync(YARDSTICK, 'utf8');
  expect(text).toContain('body_size: 16KiB');
  writeFileSync(spec, text.replace('body_size: 16KiB', 'body_size: 8192'));
  s = await startSpec(spec);
});
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The failure of `check` in a run of only that check against `hooks` planted in front of the server; the proxy stays up. */
async function failureBehind(
  hooks: MutantHooks,
  check: string,
): Promise<{ failure: Failure; proxyUrl: string; close: () => Promise<void>; report: Awaited<ReturnType<typeof testService>> }> {
  const proxy = await startProxy(s.url, hooks);
  const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: [check] });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => r.check)).toEqual([check]);
  return { failure: failed[0]!.failure!, proxyUrl: proxy.url, close: () => proxy.close(), report };
}

describe('reproductions replay the planted fault with curl', () => {
  it('an 8193-byte body accepted although body_size is 8192: curl sends the same 8193 bytes and gets 201', async () => {
    const sent: Buffer[] = [];
    const { failure, close, report } = await failureBehind(
      {
        // The fault: a body of exactly one byte over the limit is let through (its padding trimmed before the runtime).
        request(r: ProxyRequest) {
          if (r.method !== 'POST' || r.path.split('?')[0] !== '/tickets' || r.body.length !== 8193) return r;
          sent.push(r.body);
          return { ...r, body: Buffer.from(r.body.toString('utf8').trimEnd()) };
        },
      },
      'limits.body-size',
    );
    try {
      expect(sent).toHaveLength(1);
      const curl = failure.curl!;
      expect(curl).toMatch(/^# a 8193-byte body: valid JSON padded with \d+ spaces\ncurl -i -X POST /);
      expect(curl).toContain('<main credential>');
      expect(curl).not.toContain(s.keys.alice);
      // The text report shows the same commands (each request on one line).
      expect(formatReportText(report)).toContain(curl.split('\n')[1]);
      const out = await bash(curl.split('<main credential>').join(s.keys.alice));
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/^HTTP\/1\.1 201 /);
      expect(sent).toHaveLength(2);
      expect(sent[1]!.equals(sent[0]!)).toBe(true);
    } finally {
      await close();
    }
  }, 60_000);

  it('pages that repeat an item across the cursor: the pages up to the repeat, cursors as sent, the last showing the repeated id', async () => {
    const lastByCursor = new Map<string, unknown>();
    const { failure, close } = await failureBehind(
      {
        // The fault: each page after a cursor starts with the last item of the page before.
        response(r, req) {
          const body = json(r) as { items?: unknown[]; next_cursor?: string | null } | undefined;
          if (req.method !== 'GET' || req.path.split('?')[0] !== '/tickets' || !body?.items) return r;
          if (body.next_cursor && body.items.length > 0) lastByCursor.set(body.next_cursor, body.items[body.items.length - 1]);
          const cursor = new URLSearchParams(req.path.split('?')[1] ?? '').get('cursor');
          const prev = cursor === null ? undefined : lastByCursor.get(cursor);
          return prev === undefined ? r : withJson(r, { ...body, items: [prev, ...body.items.slice(0, -1)] });
        },
      },
      'endpoints.list-paging',
    );
    try {
      const id = JSON.parse(/^(".*") appears twice$/.exec(failure.actual)![1]!) as string;
      const curl = failure.curl!;
      const commands = curl.split('\n').filter((l) => l.startsWith('curl '));
      expect(commands.length).toBeGreaterThanOrEqual(2);
      expect(commands[0]).not.toContain('cursor=');
      for (const c of commands.slice(1)) expect(c).toContain('cursor=');
      expect(curl).toContain(`"${id}" again`);
      expect(curl).not.toContain(s.keys.alice);
      const out = await bash(curl.split('<main credential>').join(s.keys.alice));
      expect(out.code, out.stderr).toBe(0);
      // One answer per page; the id is on the last page and on a page before it.
      const answers = out.stdout.split(/(?=HTTP\/1\.1 \d{3} )/).filter((a) => a !== '');
      expect(answers).toHaveLength(commands.length);
      const items = answers.map((a) => (JSON.parse(a.slice(a.indexOf('\r\n\r\n') + 4)) as { items: { id: string }[] }).items.map((x) => x.id));
      expect(items.at(-1)).toContain(id);
      expect(items.slice(0, -1).flat()).toContain(id);
      // The page before the last does not already repeat: the last page is where the repeat shows first.
      const before = items.slice(0, -1).flat();
      expect(new Set(before).size).toBe(before.length);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('toCurl sends any body byte for byte', () => {
  let server: Server;
  let url: string;
  const bodies: Buffer[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = async (raw: string): Promise<Buffer> => {
    bodies.length = 0;
    const out = await bash(toCurl(url, { method: 'POST', path: '/x', headers: { 'content-type': 'text/plain', 'x-q': "it's" }, raw }));
    expect(out.code, out.stderr).toBe(0);
    expect(bodies).toHaveLength(1);
    return bodies[0]!;
  };

  it('quotes, backslashes, control characters, NUL, astral characters, trailing newlines and long space padding', async () => {
    const cases = [
      'nul\0and\nnewline\\n\r',
      "it's \\n a 'quote' $HOME `x` \"y\"",
      'line\nbreak\r\n\t\n\n',
      'nul\0in\0it\\0',
      '😀 e\u0301 \u05d0\u05d1',
      `{"a":1}${' '.repeat(8000)}`,
      `${'x'.repeat(200_000)}   \n`,
      '%s %b \\x41',
    ];
    for (const c of cases) expect((await send(c)).toString('utf8'), JSON.stringify(c.slice(0, 40))).toBe(c);
    // Every request of a reproduction is one line, whatever its body: the text report's indentation cannot change it.
    for (const c of cases) expect(toCurl('http://h', { method: 'POST', path: '/x', raw: c.slice(0, 1000) })).not.toMatch(/[\n\r]/);
  }, 60_000);

  it('any string (full Unicode, with padding): the bytes curl sends are the bytes of the string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 60 }), fc.nat(100), async (text, pad) => {
        const raw = `${text}${' '.repeat(pad)}`;
        expect((await send(raw)).equals(Buffer.from(raw, 'utf8'))).toBe(true);
      }),
      { numRuns: 40, seed: 25 },
    );
  }, 60_000);

  it('cuts nothing: a 5000-character JSON body is whole in the command', () => {
    const body = { text: 'y'.repeat(5000) };
    expect(toCurl('http://h', { method: 'POST', path: '/x', body })).toContain(JSON.stringify(body));
  });
});
