// The yardstick of the tester: planted faults behind a proxy in front of `servicespec serve`, default runs over three
// seeds (its own file so it runs beside mutants.test.ts, the tester's other yardstick, rather than after it).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecFile } from '../../src/program.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { testService } from '../../src/tester/tester-run.js';
import { startChildServer, type ChildServer } from '../runtime/child-server.js';
import { json, startProxy, withJson, type MutantHooks, type ProxyRequest, type ProxyResponse } from './mutant-proxy.js';

// ---- the yardstick: default runs against servicespec serve --------------------------------------------------
// Each mutant below plants one fault behind a proxy in front of `servicespec serve test/tester/fixtures/yardstick.yaml`
// (a child process on its own SQLite file). The tester runs at its DEFAULT settings — only the seed varies, three
// seeds — with the credentials a user gives (a main, an other and a limited subject, fresh for each run so
// concurrent runs never see each other's objects) and --webhook-listen (where to receive webhooks; without it the
// webhook check cannot run at all). A mutant is caught on a seed when the run reports a failure: the unmutated
// proxy reports none on the three seeds, so every failure is the planted fault's. The suite runs each mutant on one
// seed, the seeds taken in turn (a third of the runs: the whole grid was the longest file of CI);
// YARDSTICK_EVERY_SEED=1 runs every mutant on every seed, the kill matrix of docs/testing.md. CAUGHT_TODAY lists
// the mutants the tester on this branch catches on all three seeds; the rest are printed as survivors. A tester
// change that lets a listed mutant through on a seed it runs fails this test.

const TICKETS = fileURLToPath(new URL('./fixtures/yardstick.yaml', import.meta.url));
const SEEDS = [1, 2, 3] as const;
const EVERY_SEED = process.env.YARDSTICK_EVERY_SEED === '1';
/** The seeds a mutant runs on: all three with YARDSTICK_EVERY_SEED=1, else one, by its place in YARDSTICK. */
const seedsOf = (index: number): readonly number[] => (EVERY_SEED ? SEEDS : [SEEDS[index % SEEDS.length]!]);
// Runs at once: a run mostly waits (an event's or a webhook's grace), so more at once use the machine, not crowd
// it. Alone on 2 cores: 121 s at 4, 71 s at 8, the same 90 s of CPU, the same kills and no false failure.
const CONCURRENCY = 6;
/**
 * YARDSTICK_MUTANTS=a,b runs only those mutants (and the unmutated proxy): for working on one class of fault. The
 * suite runs them all.
 */
const ONLY = process.env.YARDSTICK_MUTANTS?.split(',')
  .map((x) => x.trim())
  .filter((x) => x !== '');
const isSelected = (name: string): boolean => ONLY === undefined || ONLY.includes(name);
const TRANSITION = /^\/tickets\/([^/?]+)\/(start|close|cancel)$/;
const ONE = /^\/tickets\/([^/?]+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface RunKeys {
  alice: string;
  bob: string;
  carol: string;
}

interface YardstickMutant {
  name: string;
  /** The class of issue 25 item 9 it stands for. */
  cls: string;
  make: (k: RunKeys) => MutantHooks;
}

const internal = (): ProxyResponse => ({
  status: 500,
  headers: { 'content-type': 'application/problem+json' },
  body: Buffer.from(JSON.stringify({ type: 'about:blank', title: 'Internal error', status: 500, code: 'internal' })),
});
const bodyOf = (r: ProxyRequest): Record<string, unknown> | undefined => {
  try {
    const b = JSON.parse(r.body.toString('utf8')) as unknown;
    return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};
const writesTicket = (r: ProxyRequest): boolean =>
  (r.method === 'POST' && r.path.split('?')[0] === '/tickets') || (r.method === 'PATCH' && ONE.test(r.path.split('?')[0]!));
/** Rewrites the body of a ticket create/update; `edit` returns the new body or undefined to leave it. */
const editBody =
  (edit: (b: Record<string, unknown>) => Record<string, unknown> | undefined) =>
  (r: ProxyRequest): ProxyRequest => {
    if (!writesTicket(r)) return r;
    const b = bodyOf(r);
    const e = b && edit(b);
    return e ? { ...r, body: Buffer.from(JSON.stringify(e)) } : r;
  };
const asKey = (r: ProxyRequest, key: string): ProxyRequest => ({ ...r, headers: { ...r.headers, 'x-api-key': key } });
const stringsOf = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(stringsOf) : []);
/** An illegal transition answered as done: the object read back, status 200 (the state itself left unchanged). */
const allowWhen =
  (pred: (state: unknown, transition: string) => boolean) =>
  async (r: ProxyResponse, req: ProxyRequest, send: (r: ProxyRequest) => Promise<ProxyResponse>): Promise<ProxyResponse> => {
    const m = TRANSITION.exec(req.path.split('?')[0]!);
    if (r.status !== 409 || !m) return r;
    const read = await send({ ...req, method: 'GET', path: `/tickets/${m[1]}`, body: Buffer.alloc(0) });
    return pred(json(read)?.status, m[2]!) ? { ...read, status: 200 } : r;
  };

const YARDSTICK: YardstickMutant[] = [
  {
    name: 'illegal-transition',
    cls: 'illegal transition allowed (close from open answered 200)',
    make: () => ({ response: allowWhen((s, t) => s === 'open' && t === 'close') }),
  },
  {
    name: 'terminal-transition',
    cls: 'transition out of a terminal state allowed',
    make: () => ({ response: allowWhen((s) => s === 'closed' || s === 'cancelled') }),
  },
  {
    name: 'min-length',
    cls: 'bound not enforced: minLength (a short title padded to 3)',
    make: () => ({ request: editBody((b) => (typeof b.title === 'string' && b.title.length < 3 ? { ...b, title: b.title.padEnd(3, 'x') } : undefined)) }),
  },
  {
    name: 'max-length',
    cls: 'bound not enforced: maxLength (a long title cut to 80)',
    make: () => ({
      request: editBody((b) => (typeof b.title === 'string' && [...b.title].length > 80 ? { ...b, title: [...b.title].slice(0, 80).join('') } : undefined)),
    }),
  },
  {
    name: 'minimum',
    cls: 'bound not enforced: minimum (priority under 1 raised to 1)',
    make: () => ({ request: editBody((b) => (typeof b.priority === 'number' && b.priority < 1 ? { ...b, priority: 1 } : undefined)) }),
  },
  {
    name: 'maximum',
    cls: 'bound not enforced: maximum (priority over 5 lowered to 5)',
    make: () => ({ request: editBody((b) => (typeof b.priority === 'number' && b.priority > 5 ? { ...b, priority: 5 } : undefined)) }),
  },
  {
    name: 'page-max',
    cls: 'page max not enforced (limit over 20 served as 20)',
    make: () => ({ request: (r) => ({ ...r, path: r.path.replace(/([?&]limit=)(\d+)/, (m, p: string, n: string) => (Number(n) > 20 ? `${p}20` : m)) }) }),
  },
  {
    name: 'cursor-repeat',
    cls: 'cursor off by one: the next page repeats the last item of the page before',
    make: () => {
      const lastByCursor = new Map<string, unknown>();
      return {
        response(r, req) {
          const body = json(r) as { items?: unknown[]; next_cursor?: string | null } | undefined;
          if (req.method !== 'GET' || req.path.split('?')[0] !== '/tickets' || !body?.items) return r;
          if (body.next_cursor && body.items.length > 0) lastByCursor.set(body.next_cursor, body.items[body.items.length - 1]);
          const cursor = new URLSearchParams(req.path.split('?')[1] ?? '').get('cursor');
          const prev = cursor === null ? undefined : lastByCursor.get(cursor);
          return prev === undefined ? r : withJson(r, { ...body, items: [prev, ...body.items.slice(0, -1)] });
        },
      };
    },
  },
  {
    name: 'cursor-skip',
    cls: 'cursor off by one: the next page skips its first item',
    make: () => ({
      response(r, req) {
        const body = json(r) as { items?: unknown[] } | undefined;
        if (req.method !== 'GET' || req.path.split('?')[0] !== '/tickets' || !/[?&]cursor=/.test(req.path) || !body?.items?.length) return r;
        return withJson(r, { ...body, items: body.items.slice(1) });
      },
    }),
  },
  {
    name: 'wrong-code',
    cls: 'wrong error code (not_found answered with code "missing")',
    make: () => ({ response: (r) => (r.status === 404 ? withJson(r, { ...json(r), code: 'missing' }) : r) }),
  },
  {
    name: 'wrong-status',
    cls: 'wrong status (an illegal transition answered 422, body and status agreeing)',
    make: () => ({ response: (r) => (r.status === 409 ? withJson({ ...r, status: 422 }, { ...json(r), status: 422 }) : r) }),
  },
  {
    name: 'media-type',
    cls: 'wrong media type (errors sent as application/json, not application/problem+json)',
    make: () => ({
      response: (r) =>
        (r.headers['content-type'] ?? '').startsWith('application/problem+json')
          ? { ...r, headers: { ...r.headers, 'content-type': 'application/json; charset=utf-8' } }
          : r,
    }),
  },
  {
    name: 'dropped-field',
    cls: 'dropped field (priority missing from the read)',
    make: () => ({
      response(r, req) {
        const b = json(r) as Record<string, unknown> | undefined;
        if (req.method !== 'GET' || !ONE.test(req.path.split('?')[0]!) || r.status !== 200 || !b) return r;
        const { priority: _dropped, ...rest } = b;
        return withJson(r, rest);
      },
    }),
  },
  {
    name: 'long-string-500',
    cls: '500 on a valid string of 40–80 characters',
    make: () => ({ request: (r) => (writesTicket(r) && stringsOf(bodyOf(r)).some((s) => [...s].length >= 40 && [...s].length <= 80) ? internal() : r) }),
  },
  {
    name: 'astral-500',
    cls: '500 on any astral character in a string',
    make: () => ({ request: (r) => (writesTicket(r) && stringsOf(bodyOf(r)).some((s) => /[\u{10000}-\u{10FFFF}]/u.test(s)) ? internal() : r) }),
  },
  {
    name: 'unknown-id-read-500',
    cls: '500 on an unknown id (read)',
    make: () => ({
      response: (r, req) => (r.status === 404 && req.method === 'GET' && UUID.test(ONE.exec(req.path.split('?')[0]!)?.[1] ?? '') ? internal() : r),
    }),
  },
  {
    name: 'unknown-id-transition-500',
    cls: '500 on an unknown id (transitions)',
    make: () => ({ response: (r, req) => (r.status === 404 && TRANSITION.test(req.path.split('?')[0]!) ? internal() : r) }),
  },
  {
    name: 'malformed-id-500',
    cls: '500 on a malformed id (any operation)',
    make: () => ({
      request(r) {
        const p = r.path.split('?')[0]!;
        const id = ONE.exec(p)?.[1] ?? TRANSITION.exec(p)?.[1];
        return id !== undefined && !UUID.test(decodeURIComponent(id)) ? internal() : r;
      },
    }),
  },
  {
    name: 'owner-read',
    cls: "ownership leak on REST read (the other subject reads the main subject's ticket)",
    make: (k) => ({ request: (r) => (r.method === 'GET' && ONE.test(r.path.split('?')[0]!) && r.headers['x-api-key'] === k.bob ? asKey(r, k.alice) : r) }),
  },
  {
    name: 'owner-list',
    cls: "ownership leak on REST list (the other subject's list shows the main subject's tickets)",
    make: (k) => ({ request: (r) => (r.method === 'GET' && r.path.split('?')[0] === '/tickets' && r.headers['x-api-key'] === k.bob ? asKey(r, k.alice) : r) }),
  },
  {
    name: 'owner-write',
    cls: "ownership leak on REST writes (the other subject changes and transitions the main subject's ticket)",
    make: (k) => ({
      request: (r) =>
        r.method !== 'GET' && (ONE.test(r.path.split('?')[0]!) || TRANSITION.test(r.path.split('?')[0]!)) && r.headers['x-api-key'] === k.bob
          ? asKey(r, k.alice)
          : r,
    }),
  },
  {
    name: 'owner-stream',
    cls: "ownership leak on the stream (the other subject's stream is the main subject's)",
    make: (k) => ({ request: (r) => ((r.headers.accept ?? '').includes('text/event-stream') && r.headers['x-api-key'] === k.bob ? asKey(r, k.alice) : r) }),
  },
  {
    name: 'owner-stream-transitions',
    cls: "ownership leak on the stream, transition events only (the main subject's started/closed/cancelled shown to the other)",
    make: (k) => ({
      mergeStreams: (r) => (r.headers['x-api-key'] === k.bob ? [asKey(r, k.alice)] : []),
      mergeEvent: (block) => !block.includes('event: ticket.created'),
    }),
  },
  {
    name: 'owner-webhooks',
    cls: "ownership leak on webhooks (an endpoint registered by the main subject also gets the other subject's events)",
    make: (k) => ({
      async response(r, req, send) {
        if (req.method === 'POST' && req.path.split('?')[0] === '/webhooks' && req.headers['x-api-key'] === k.alice && r.status < 300)
          await send(asKey(req, k.bob));
        return r;
      },
    }),
  },
  {
    name: 'missing-event',
    cls: 'a missing event (ticket.started never on the stream)',
    make: () => ({ event: (block) => (block.includes('event: ticket.started') ? undefined : block) }),
  },
  {
    name: 'wrong-event',
    cls: 'a wrong event (ticket.cancelled sent as ticket.closed)',
    make: () => ({ event: (block) => block.replace(/ticket\.cancelled/g, 'ticket.closed') }),
  },
  {
    name: 'no-ratelimit-header',
    cls: 'missing RateLimit header',
    make: () => ({
      response(r) {
        const headers = { ...r.headers };
        delete headers.ratelimit;
        delete headers['ratelimit-policy'];
        return { ...r, headers };
      },
    }),
  },
  {
    name: 'no-location',
    cls: 'missing Location header on create',
    make: () => ({
      response(r) {
        const headers = { ...r.headers };
        delete headers.location;
        return { ...r, headers };
      },
    }),
  },
  {
    name: 'old-version-new-shape',
    cls: 'an old version answered in the new shape (the version header dropped)',
    make: () => ({
      request(r) {
        if (r.headers['service-version'] !== '2026-06-01') return r;
        const headers = { ...r.headers };
        delete headers['service-version'];
        return { ...r, headers };
      },
    }),
  },
  {
    name: 'method-not-allowed',
    cls: 'a method a path does not take answered 404 not_found (a router that knows no 405)',
    make: () => ({
      response: (r) =>
        r.status === 405
          ? {
              ...withJson({ ...r, status: 404 }, { ...json(r), status: 404, title: 'Not Found', code: 'not_found' }),
              headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'allow')),
            }
          : r,
    }),
  },
  {
    name: 'unknown-path',
    cls: "an unknown path answered with the framework's own 404 page (text/html), not the declared not_found",
    make: () => ({
      response: (r, req) =>
        r.status === 404 && /^no operation at /.test(String(json(r)?.detail ?? ''))
          ? { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(`<pre>Cannot ${req.method} ${req.path}</pre>`) }
          : r,
    }),
  },
  {
    name: 'header-size',
    cls: 'header_size not enforced (a front proxy drops any header over 1 KiB, so the service never sees the large section)',
    make: () => ({ request: (r) => ({ ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([, v]) => v.length <= 1024)) }) }),
  },
  {
    name: 'scope-ignored',
    cls: 'a scope not enforced (the limited credential served as the main one)',
    make: (k) => ({ request: (r) => (r.headers['x-api-key'] === k.carol ? asKey(r, k.alice) : r) }),
  },
];

/** Mutants the tester on this branch catches on every seed (measured; move a survivor here when it is caught). */
const CAUGHT_TODAY: readonly string[] = [
  'illegal-transition',
  'terminal-transition',
  'min-length',
  'max-length',
  'minimum',
  'maximum',
  'page-max',
  'cursor-repeat',
  'cursor-skip',
  'wrong-code',
  'wrong-status',
  'media-type',
  'dropped-field',
  'long-string-500',
  'astral-500',
  'unknown-id-read-500',
  'unknown-id-transition-500',
  'malformed-id-500',
  'owner-read',
  'owner-list',
  'owner-write',
  'owner-stream',
  'owner-stream-transitions',
  'owner-webhooks',
  'missing-event',
  'wrong-event',
  'no-ratelimit-header',
  'no-location',
  'old-version-new-shape',
  'scope-ignored',
  'method-not-allowed',
  'unknown-path',
  'header-size',
];

interface Cell {
  mutant: string;
  seed: number;
  failed: string[];
  stoppedBy?: string;
  requests: number;
  ms: number;
  /** Each failure's expected and actual, for the unmutated proxy: a false failure says what it saw. */
  why: string[];
}

describe(`the yardstick: mutants of yardstick.yaml, default runs on ${EVERY_SEED ? 'every seed' : 'one seed each, in turn'}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-mutants-'));
  const db = join(dir, 'tickets.db');
  const compiled = compileSpecFile(TICKETS);
  const model = compiled.model!;
  const specText = readFileSync(TICKETS, 'utf8');
  let server: ChildServer;
  const keys: RunKeys[] = [];
  const cells: Cell[] = [];
  const identity: Cell[] = [];

  beforeAll(async () => {
    const storage = createSqliteStorage({ path: db });
    const all = ['tickets:read', 'tickets:write', 'webhooks:manage'];
    for (let i = 0; i < (YARDSTICK.length + 1) * SEEDS.length; i++) {
      const k = async (who: string, scopes: string[]) => (await createApiKey(storage, model, { subject: `r${i}-${who}`, scopes })).key;
      keys.push({ alice: await k('alice', all), bob: await k('bob', all), carol: await k('carol', ['tickets:read']) });
    }
    await storage.close();
    server = await startChildServer([TICKETS, '--db', `sqlite:${db}`, '--allow-webhook-target', '127.0.0.0/8']);
    const identityJob = { name: 'identity', cls: '', make: () => ({}) } as YardstickMutant;
    // Keys by (mutant, seed) so a run's subjects are its own whichever seeds run.
    const jobs = [
      ...SEEDS.map((seed, si) => ({ m: identityJob, seed, k: keys[si]! })),
      ...YARDSTICK.flatMap((m, mi) =>
        isSelected(m.name) ? seedsOf(mi).map((seed) => ({ m, seed, k: keys[(mi + 1) * SEEDS.length + SEEDS.indexOf(seed as 1 | 2 | 3)]! })) : [],
      ),
    ];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const { m, seed, k } = jobs[next++]!;
        const proxy = await startProxy(server.url, m.make(k));
        try {
          const report = await testService(model, {
            baseUrl: proxy.url,
            credentials: { headers: { 'X-API-Key': k.alice } },
            other: { headers: { 'X-API-Key': k.bob } },
            limited: { headers: { 'X-API-Key': k.carol } },
            limitedScopes: ['tickets:read'],
            webhookListen: 0,
            sourceMap: compiled.sourceMap,
            specText,
            seed,
          });
          const cell: Cell = {
            mutant: m.name,
            seed,
            failed: [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))],
            requests: report.requests,
            ms: report.durationMs,
            ...(report.stoppedBy ? { stoppedBy: report.stoppedBy } : {}),
            why: report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check}: expected ${r.failure?.expected}; actual ${r.failure?.actual}`),
          };
          (m.name === 'identity' ? identity : cells).push(cell);
        } finally {
          await proxy.close();
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const rows = YARDSTICK.filter((m) => isSelected(m.name)).map((m) => {
      const mine = SEEDS.map((seed) => cells.find((c) => c.mutant === m.name && c.seed === seed));
      const cellText = (c: Cell | undefined): string =>
        c === undefined
          ? 'not run'
          : `${c.failed.length > 0 ? `caught (${c.failed.join(', ')})` : `survived${c.stoppedBy ? ` (${c.stoppedBy})` : ''}`} ${c.requests} req ${(c.ms / 1000).toFixed(1)} s`;
      return `| ${m.name} | ${m.cls} | ${mine.map(cellText).join(' | ')} |`;
    });
    const killed = cells.filter((c) => c.failed.length > 0).length;
    const allSeeds = YARDSTICK.filter((m) => isSelected(m.name)).filter((m) => cells.filter((c) => c.mutant === m.name).every((c) => c.failed.length > 0));
    console.log(
      [
        `| mutant | class | seed ${SEEDS.join(' | seed ')} |`,
        `|---|---|${SEEDS.map(() => '---').join('|')}|`,
        ...rows,
        '',
        `kill rate: ${killed}/${cells.length} mutant-seed runs; ${allSeeds.length}/${YARDSTICK.filter((m) => isSelected(m.name)).length} mutants caught on every seed run`,
        `caught on every seed run: ${allSeeds.map((m) => m.name).join(', ')}`,
        `survivors: ${YARDSTICK.filter((m) => isSelected(m.name) && !allSeeds.includes(m))
          .map((m) => m.name)
          .join(', ')}`,
      ].join('\n'),
    );
  }, 600_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('has at least 20 mutants, each named once, and CAUGHT_TODAY names only them', () => {
    expect(YARDSTICK.length).toBeGreaterThanOrEqual(20);
    expect(new Set(YARDSTICK.map((m) => m.name)).size).toBe(YARDSTICK.length);
    for (const n of CAUGHT_TODAY) expect(YARDSTICK.map((m) => m.name)).toContain(n);
  });

  it('the unmutated proxy passes on every seed (no false failures), and no run is stopped by a bound', () => {
    const sorted = [...identity].sort((a, b) => a.seed - b.seed);
    expect(
      sorted.map((c) => [c.seed, c.failed, c.stoppedBy]),
      sorted.flatMap((c) => c.why.map((w) => `seed ${c.seed}: ${w}`)).join('\n'),
    ).toEqual(SEEDS.map((s) => [s, [], undefined]));
  });

  it.each(CAUGHT_TODAY.filter((n) => isSelected(n)).map((n) => [n]))('%s is caught on every seed it runs on', (name) => {
    expect(
      cells
        .filter((c) => c.mutant === name)
        .sort((a, b) => a.seed - b.seed)
        .map((c) => [c.seed, c.failed.length > 0]),
    ).toEqual(seedsOf(YARDSTICK.findIndex((m) => m.name === name)).map((s) => [s, true]));
  });
});
