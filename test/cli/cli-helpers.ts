// Runs `servicespec`: in this process through `run` (most tests), or as the real bin in a child process (spawnCli, startCli).

import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { run } from '../../src/cli/cli-run.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'src', 'cli', 'cli-main.ts');
/** The built bin (`npm run build` first), for tests of the process as installed. */
export const BUILT_CLI = join(ROOT, 'dist', 'cli', 'cli-main.js');
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export const EXAMPLES = ['empty.yaml', 'library.yaml', 'orders.yaml'].map((f) => join(ROOT, 'examples', f));

export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `servicespec` in this process through `run(argv, io)` (src/cli/cli-run.ts), the function the bin calls: the
 * same parsing, output and exit codes without a process start per call. `spawnCli` runs the real bin for the few
 * tests that are about the process itself.
 */
export async function runCli(args: readonly string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    out: (s) => void (stdout += s),
    err: (s) => void (stderr += s),
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
    stdin: () => Buffer.from(options.input ?? ''),
    isTTY: { out: false, err: false },
    cwd: options.cwd ?? ROOT,
  });
  return { code, stdout, stderr };
}

/** Runs the real `servicespec` bin as a child process, from source through tsx (no build needed), or with `built`, dist/. */
export function spawnCli(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: Record<string, string>; built?: boolean } = {},
): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...(options.built ? [BUILT_CLI] : ['--import', TSX, CLI]), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A stack trace line, as Node prints them: "    at fn (file:line:col)". */
export const STACK_LINE = /^\s+at\s/m;

export function tempDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'servicespec-cli-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A running `servicespec serve` child process: its output so far, and a way to stop it. */
export interface ServeProcess {
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the stderr text once `pattern` appears in it (rejects after `ms`). */
  waitFor: (pattern: RegExp, ms?: number) => Promise<string>;
  stop: () => Promise<number | null>;
}

/** Runs `servicespec serve …` (or any long-running command) as a child process: from source through tsx, or with `built`, dist/. */
export function startCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; built?: boolean } = {}): ServeProcess {
  const child = spawn(process.execPath, [...(options.built ? [BUILT_CLI] : ['--import', TSX, CLI]), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  child.stdout.setEncoding('utf8').on('data', (s: string) => ((stdout += s), poke()));
  child.stderr.setEncoding('utf8').on('data', (s: string) => ((stderr += s), poke()));
  const closed = new Promise<number | null>((done) => child.on('close', (code) => (poke(), done(code))));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern, ms = 60_000) =>
      new Promise((done, fail) => {
        const check = () => {
          const m = pattern.exec(stderr + stdout);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            done(m[0]);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            fail(new Error(`exited ${child.exitCode} before ${pattern}:\n${stderr}`));
          }
        };
        const timer = setTimeout(() => (waiters.delete(check), fail(new Error(`timed out waiting for ${pattern}:\n${stderr}`))), ms);
        waiters.add(check);
        check();
      }),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return closed;
    },
  };
}

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}
