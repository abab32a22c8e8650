// The first hour's friction (issue 29), each as a new user met it.

import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, spawnCli, STACK_LINE } from './cli-helpers.js';

const ORDERS = EXAMPLES[2]!;

describe('serve on a port in use', { timeout: 120_000 }, () => {
  it('names the port and --port, not a bare EADDRINUSE', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await spawnCli(['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--log', 'silent', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`servicespec serve: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop what is using it, or pick another with --port (or PORT); --port 0 picks a free one\n`);
      expect(r.stderr).not.toMatch(STACK_LINE);
    } finally {
      blocker.close();
    }
  });
});
