// `servicespec serve --docs`: the command line turns the console on and says where it is.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../cli/cli-helpers.js';

/** Starts `serve` with `args`, waits for its last start-up line, runs `check` against it, then stops it with SIGTERM. */
async function withServe(args: readonly string[], ready: RegExp, check: (url: string, stderr: () => string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-console-cli-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      'serve',
      'examples/orders.yaml',
      '--db',
      `sqlite:${join(dir, 'orders.db')}`,
      '--handlers',
      'examples/orders-handlers.js',
      '--port',
      '0',
      '--log',
      'silent',
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const exited = new Promise<number | null>((done) => child.on('close', done));
  try {
    const url = await new Promise<string>((done, fail) => {
      child.stderr.setEncoding('utf8').on('data', (s: string) => {
        stderr += s;
        const m = /serving Orders at (http:\/\/[0-9.:]+)/.exec(stderr);
        if (m && ready.test(stderr)) done(m[1]!);
      });
      void exited.then((code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
    });
    await check(url, () => stderr);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('serve --docs', () => {
  it('serves the console and the documents, and prints where', async () => {
    await withServe(['--docs'], /docs console at .*\n/, async (url, stderr) => {
      expect(stderr()).toContain(`servicespec: docs console at ${url}/_servicespec/docs\n`);
      const page = await fetch(`${url}/_servicespec/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="console-data"');
      expect((await fetch(`${url}/_servicespec/openapi.json`)).status).toBe(200);
      expect(await (await fetch(`${url}/_servicespec/health`)).json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
    });
  }, 60_000);

  it('without it, serves health only', async () => {
    await withServe([], /serving Orders at .*\n/, async (url, stderr) => {
      expect(stderr()).not.toContain('docs console');
      expect((await fetch(`${url}/_servicespec/docs`)).status).toBe(404);
      expect((await fetch(`${url}/_servicespec/health`)).status).toBe(200);
    });
  }, 60_000);
});
