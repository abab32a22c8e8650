// The served process pays per request only for what the spec uses: the bin's run is not kept apart from others by
// an AsyncLocalStorage (on Node 20 its first run turns on async hooks for the rest of the process, and every promise
// and tick of every request paid for them: the read regression of issue 27). And SERVICESPEC_FAST_PATHS=off is
// said at start.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, freePort, startCli } from './cli-helpers.js';

const ORDERS = EXAMPLES[2]!;
const HANDLERS = join(ORDERS, '..', 'orders-handlers.js');
// Loaded before the CLI: says on stderr whenever an AsyncLocalStorage is run or entered, or an async hook made.
const WATCH = `data:text/javascript,${encodeURIComponent(`
import hooks from 'node:async_hooks';
const say = (what) => process.stderr.write('ASYNC-CONTEXT ' + what + '\\n');
for (const name of ['run', 'enterWith']) {
  const original = hooks.AsyncLocalStorage.prototype[name];
  hooks.AsyncLocalStorage.prototype[name] = function (...args) { say(name); return original.apply(this, args); };
}
const createHook = hooks.createHook;
hooks.createHook = (...args) => (say('createHook'), createHook(...args));
`)}`;

async function serveOnce(env: Record<string, string>): Promise<{ stderr: string; stdout: string; status: number }> {
  const port = await freePort();
  const p = startCli(['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--handlers', HANDLERS, '--port', String(port), '--log', 'warn'], { env });
  try {
    await p.waitFor(/serving .* at http:/);
    const r = await fetch(`http://127.0.0.1:${port}/_servicespec/health`);
    await r.text();
    return { stderr: p.stderr(), stdout: p.stdout(), status: r.status };
  } finally {
    await p.stop();
  }
}

describe('the served process', { timeout: 180_000 }, () => {
  it('runs no AsyncLocalStorage and makes no async hook', async () => {
    const { stderr, status } = await serveOnce({ NODE_OPTIONS: `--import=${WATCH}` });
    expect(status).toBe(200);
    expect(stderr).not.toContain('ASYNC-CONTEXT');
  });

  it('says "fast paths off" at start with SERVICESPEC_FAST_PATHS=off, and nothing of them by default', async () => {
    const off = await serveOnce({ SERVICESPEC_FAST_PATHS: 'off' });
    expect(off.status).toBe(200);
    expect(off.stdout + off.stderr).toContain('fast paths off');
    const on = await serveOnce({ SERVICESPEC_FAST_PATHS: 'on' });
    expect(on.stdout + on.stderr).not.toContain('fast paths off');
  });
});
