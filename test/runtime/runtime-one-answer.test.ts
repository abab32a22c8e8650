import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { compileSpecText } from '../../src/program.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { manualClock, until } from '../events/helpers.js';
import { loadModel, startService, type Running } from './helpers.js';

// One answer per request under a 400 ms time-out (issue 12 items 7, 8 and 11). The time-out runs on a clock the
// tests move (ServiceOptions.timeoutClock); only a request's arrival (item 11) is timed by Node, in real time.
const SLOW = new URL('./fixtures/slow.yaml', import.meta.url).pathname;
const TIMEOUT_MS = 400;
const clock = manualClock(0);

/** Work a handler does until the test opens it (instead of sleeping a while), and whether it has ended since. */
interface Gate {
  open(): void;
  /** The work has begun waiting (inside its transaction, for holdOnce). */
  readonly entered: boolean;
  readonly ended: boolean;
}
const gates = new Map<string, { wait: Promise<void>; open: () => void; entered: boolean; ended: boolean }>();
/** A gate for the request whose body's text is `text`: its handler's work waits for it. */
function gateFor(text: string): Gate {
  let open!: () => void;
  const g = { wait: new Promise<void>((r) => (open = r)), open: () => open(), entered: false, ended: false };
  gates.set(text, g);
  return g;
}
/** The handler's wait: for its gate where the test made one (else none); the gate then records that the work ended. */
async function work(body: { text: string; ms: number }): Promise<void> {
  const g = gates.get(body.text);
  if (!g) return;
  g.entered = true;
  await g.wait;
  g.ended = true;
}

let s: Running;
let handlers: Record<string, CustomHandler>;
/** What the service logged at warn and above. */
const logged: string[] = [];
/** The texts whose /hold request has reached its handler. */
const arrived = new Set<string>();
beforeAll(async () => {
  const held = new Set<string>();
  handlers = {
    /** Commits a note at once, then works on (until the test opens its gate): the change is made, the answer is late. */
    async commitThenWait({ body, storage }) {
      const b = body as { text: string; ms: number };
      const row = await storage.transaction((tx) => tx.insert('Note', { text: b.text }));
      await work(b);
      return { id: row.id };
    },
    /** The first call for a text holds its write transaction open until its gate opens (without passing the signal). */
    async holdOnce({ body, storage }) {
      const b = body as { text: string; ms: number };
      arrived.add(b.text);
      const first = !held.has(b.text);
      held.add(b.text);
      const row = await storage.transaction(async (tx) => {
        const out = await tx.insert('Note', { text: b.text });
        if (first) await work(b);
        return out;
      });
      return { id: row.id };
    },
    /**
     * CPU-bound for `ms` inside its transaction: time passes, and nothing in the process (the time-out's timer
     * included) runs until it returns.
     */
    async spin({ body, storage }) {
      const b = body as { text: string; ms: number };
      const row = await storage.transaction(async (tx) => {
        const out = await tx.insert('Note', { text: b.text });
        clock.jump(b.ms);
        return out;
      });
      return { id: row.id };
    },
  };
  const stream = { write: (line: string) => void logged.push(line) };
  s = await startService(loadModel(SLOW), { handlers, allowGaps: false, logger: { level: 'warn', stream }, timeoutClock: clock });
  // The first request pays for the first connection and compiled validators; time the ones after it.
  await s.call('POST', '/notes', { text: 'warm-up' });
});
afterAll(() => s.close());

async function notesWith(text: string): Promise<number> {
  const r = await s.call('GET', `/notes?text=${encodeURIComponent(text)}`);
  expect(r.status).toBe(200);
  return (r.body.items as unknown[]).length;
}

function expectTimeout(r: { status: number; headers: Headers; body: { code?: string; status?: number } }): void {
  expect(r.status).toBe(504);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ code: 'took_too_long', status: 504, title: 'Took too long' });
}

describe('Idempotency-Key and the time-out (item 7)', () => {
  it('answers once, at the time-out, with the declared body; the key then replays the committed success, not the time-out', async () => {
    const key = `late-${Date.now()}`;
    // The handler commits at once, then works on until the gate opens: the time-out answers, and does not wait for it.
    const gate = gateFor(key);
    let answered = false;
    const answer = s.call('POST', '/late', { text: key, ms: 0 }, { 'idempotency-key': key }).finally(() => (answered = true));
    await until(() => gate.entered);
    // Not before the time-out: a millisecond short of it, and a whole exchange later, nothing has answered.
    clock.advance(TIMEOUT_MS - 1);
    // While the handler still runs, the key is in progress, not answered.
    const during = await s.call('POST', '/late', { text: key, ms: 0 }, { 'idempotency-key': key });
    expect(during.status).toBe(409);
    expect(during.body.code).toBe('idempotency_in_progress');
    expect(answered).toBe(false);
    clock.advance(1);
    const first = await answer;
    expectTimeout(first);
    expect(gate.ended).toBe(false);
    gate.open();
    // Once the work has ended, the key keeps what it did.
    const replay = await until(async () => {
      const r = await s.call('POST', '/late', { text: key, ms: 0 }, { 'idempotency-key': key });
      return gate.ended && r.body.code !== 'idempotency_in_progress' ? r : undefined;
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ id: expect.any(Number) });
    expect((await s.call('GET', `/notes/${replay.body.id}`)).body.text).toBe(key);
    expect(await notesWith(key)).toBe(1);
    // No second answer was attempted (ERR_HTTP_HEADERS_SENT, "Reply was already sent").
    expect(logged.filter((l) => /HEADERS_SENT|already sent/i.test(l))).toEqual([]);
  }, 10_000);

  it('releases the key when the work rolled back, so a retry with the same key runs', async () => {
    const key = `hold-${Date.now()}`;
    const gate = gateFor(key);
    const answer = s.call('POST', '/hold', { text: key, ms: 0 }, { 'idempotency-key': key });
    await until(() => gate.entered);
    clock.advance(TIMEOUT_MS);
    const first = await answer;
    expectTimeout(first);
    // Answered while the handler's transaction was still held open.
    expect(gate.ended).toBe(false);
    gate.open();
    await until(() => gate.ended);
    expect(await notesWith(key)).toBe(0);
    // The key is released once the handler has settled (just after its work ended).
    const retry = await until(async () => {
      const r = await s.call('POST', '/hold', { text: key, ms: 0 }, { 'idempotency-key': key });
      return r.body.code === 'idempotency_in_progress' ? undefined : r;
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await notesWith(key)).toBe(1);
    const replay = await s.call('POST', '/hold', { text: key, ms: 0 }, { 'idempotency-key': key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(retry.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  }, 10_000);
});

describe('a slow write transaction (item 8)', () => {
  it('does not stall reads: they are answered while a write transaction is held open', async () => {
    // A time-out far off, so the transaction stays open until the test opens its gate, however slow the machine.
    const spec = readFileSync(SLOW, 'utf8');
    expect(spec).toContain(`timeout: ${TIMEOUT_MS}ms`);
    const long = await startService(compileSpecText(spec.replace(`timeout: ${TIMEOUT_MS}ms`, 'timeout: 60s')).model!, { handlers, allowGaps: false });
    const text = `held-${Date.now()}`;
    const gate = gateFor(text);
    try {
      const seed = await long.call('POST', '/notes', { text: 'seed' });
      expect(seed.status).toBe(201);
      let answered = false;
      const holding = long.call('POST', '/hold', { text, ms: 0 }).finally(() => (answered = true));
      await until(() => gate.entered);
      for (let i = 0; i < 5; i++) {
        expect((await long.call('GET', `/notes/${seed.body.id}`)).status).toBe(200);
        const list = await long.call('GET', '/notes?text=seed');
        expect([list.status, list.body.items.length]).toEqual([200, 1]);
        // The held transaction's row is not committed: readers do not see it.
        expect((await long.call('GET', `/notes?text=${text}`)).body.items).toEqual([]);
      }
      // All of them answered while the write was still held.
      expect([answered, gate.ended]).toEqual([false, false]);
      gate.open();
      expect((await holding).status).toBe(200);
      expect((await long.call('GET', `/notes?text=${text}`)).body.items).toHaveLength(1);
    } finally {
      gate.open();
      await long.close();
    }
  }, 20_000);

  it('is rolled back at the time-out, and a queued write then runs', async () => {
    const text = `held-${Date.now()}`;
    const other = `${text}-other`;
    const gate = gateFor(text);
    try {
      const holding = s.call('POST', '/hold', { text, ms: 0 });
      await until(() => gate.entered);
      // The write arrives halfway through the hold, so its own time-out ends after the hold's; on SQLite its
      // transaction waits for the held one.
      clock.advance(TIMEOUT_MS / 2);
      const writing = s.call('POST', '/hold', { text: other, ms: 0 });
      await until(() => arrived.has(other));
      clock.advance(TIMEOUT_MS / 2);
      expectTimeout(await holding);
      expect((await writing).status).toBe(200);
      // Both answered while the handler's work was still held: the time-out ended the transaction, not the work.
      expect(gate.ended).toBe(false);
    } finally {
      gate.open();
    }
    await until(() => gate.ended);
    expect(await notesWith(text)).toBe(0);
    expect(await notesWith(other)).toBe(1);
  });

  it('answers a CPU-bound handler that outlives the time-out with the time-out, and rolls its transaction back', async () => {
    const text = `spin-${Date.now()}`;
    const r = await s.call('POST', '/spin', { text, ms: TIMEOUT_MS + 300 });
    expectTimeout(r);
    expect(await notesWith(text)).toBe(0);
    const quick = await s.call('POST', '/spin', { text, ms: 0 });
    expect(quick.status).toBe(200);
    expect(await notesWith(text)).toBe(1);
  });
});

/**
 * Sends `head` on a raw socket, then `drip` every 100 ms; resolves with what came back and when the socket closed
 * (real time: Node's own request timer cuts the arrival off, not the time-out's clock).
 */
function trickle(head: string, drip: string): Promise<{ text: string; took: number }> {
  const u = new URL(s.url);
  return new Promise((resolve) => {
    const started = performance.now();
    const sock = connect(Number(u.port), u.hostname);
    let text = '';
    sock.on('data', (d: Buffer) => (text += d.toString('latin1')));
    sock.on('error', () => undefined);
    sock.write(head);
    const timer = setInterval(() => sock.writable && sock.write(drip), 100);
    const give = setTimeout(() => sock.destroy(), 15_000);
    sock.on('close', () => {
      clearInterval(timer);
      clearTimeout(give);
      resolve({ text, took: performance.now() - started });
    });
  });
}

afterAll(() => {
  // Everything above is answered as declared: nothing unexpected was logged.
  expect(logged.filter((l) => /"level":(50|60)|HEADERS_SENT|already sent/.test(l))).toEqual([]);
});

describe('slow clients (item 11)', () => {
  it('answers a body that trickles past the time-out with the declared time-out, counted from the first byte', async () => {
    const r = await trickle('POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"text":"', 'a');
    // Node's timer, in real time: not before the time-out (a loaded machine only makes it later), and long before
    // the 19 s the body would take to arrive (the 504 itself shows it was cut off).
    expect(r.took).toBeGreaterThan(TIMEOUT_MS - 50);
    expect(r.took).toBeLessThan(10_000);
    expect(r.text).toMatch(/^HTTP\/1\.1 504 /);
    const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as { code: string };
    expect(body.code).toBe('took_too_long');
  }, 20_000);

  it('cuts off headers that trickle past the time-out, answering with the declared time-out', async () => {
    const r = await trickle('GET /notes HTTP/1.1\r\nHost: x\r\n', 'X-Slow: y\r\n');
    // As above: Node's timer, in real time; the headers would trickle on until the test gives up at 15 s.
    expect(r.took).toBeGreaterThan(TIMEOUT_MS - 50);
    expect(r.took).toBeLessThan(10_000);
    expect(r.text).toMatch(/^HTTP\/1\.1 504 /);
    expect(r.text).toContain('"code":"took_too_long"');
  }, 20_000);
});
