// serve's log lines: JSON when stdout is not a terminal, pretty with --log-format pretty; credentials redacted in both.

import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, EXAMPLES, freePort, ROOT, startCli } from './cli-helpers.js';

const ORDERS = EXAMPLES[2]!;
const HANDLERS = join(ORDERS, '..', 'orders-handlers.js');
const SECRET = 'sk_SuperSecret123_do_not_log';

async function logsOf(extra: string[]): Promise<string> {
  const port = await freePort();
  const p = startCli(['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--handlers', HANDLERS, '--port', String(port), ...extra]);
  try {
    await p.waitFor(/serving .* at http:/);
    await fetch(`http://127.0.0.1:${port}/orders?api_key=${SECRET}&access_token=${SECRET}`, {
      headers: { 'x-api-key': SECRET, authorization: `Bearer ${SECRET}` },
    });
    await p.waitFor(/request completed/);
  } finally {
    await p.stop();
  }
  return p.stdout();
}

describe('serve logs', { timeout: 180_000 }, () => {
  it('are JSON lines when stdout is not a terminal, with secrets redacted', async () => {
    const out = await logsOf([]);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg?: string; req?: { url?: string } });
    const incoming = lines.find((l) => l.req?.url !== undefined)!;
    expect(incoming.req!.url).toBe('/orders?api_key=[redacted]&access_token=[redacted]');
    expect(out).not.toContain(SECRET);
  });

  it('--log-format pretty prints lines for a person, with secrets still redacted', async () => {
    const out = await logsOf(['--log-format', 'pretty']);
    expect(out).toMatch(/INFO.*incoming request/);
    expect(out).toContain('/orders?api_key=[redacted]&access_token=[redacted]');
    expect(out).not.toContain(SECRET);
    expect(out.trimStart().startsWith('{')).toBe(false);
    // NO_COLOR and no terminal: no escape codes.
    expect(out).not.toContain(`${String.fromCharCode(27)}[`);
  });
});

// util-linux `script` gives the child a terminal; without it this case cannot be set up.
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('serve logs on a terminal', { timeout: 180_000 }, () => {
  it('are pretty and coloured by default', async () => {
    const port = await freePort();
    const tsx = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const command = [
      process.execPath,
      '--import',
      tsx,
      CLI,
      'serve',
      ORDERS,
      '--db',
      'sqlite::memory:',
      '--allow-gaps',
      '--handlers',
      HANDLERS,
      '--port',
      String(port),
    ]
      .map((a) => `'${a}'`)
      .join(' ');
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    const child = spawn('script', ['-qfc', command, '/dev/null'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const listening = new Promise<void>((done) =>
      child.stdout.setEncoding('utf8').on('data', (s: string) => ((out += s), /serving .* at http:/.test(out) && done())),
    );
    try {
      await listening;
    } finally {
      child.kill('SIGTERM');
    }
    const ESC = String.fromCharCode(27);
    expect(out).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] /);
    expect(out).toContain(`${ESC}[32mINFO${ESC}[39m: `);
    expect(out).not.toMatch(/^\{"level"/m);
  });
});
