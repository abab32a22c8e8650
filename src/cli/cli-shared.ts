// What every command shares: exit codes, reading a spec, printing diagnostics, writing output files.
// The CLI only parses arguments and prints; all the work is done by the library (src/index.ts).

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as Commander from 'commander';
import type { Option } from 'commander';
import { createDiagnostic, hasErrors, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { formatDiagnostics, type OutputFormat } from '../diagnostics/diagnostics-format.js';
import { compileSpecBytes, compileSpecFile, type CompiledSpec } from '../program.js';

/** The exit codes every command uses. */
export const EXIT = {
  /** Clean: the command did what was asked; warnings may have been printed. */
  ok: 0,
  /** Errors found: in the spec, or in reading or writing a file. */
  errors: 1,
  /** Usage error: unknown command or option, missing or bad argument. */
  usage: 2,
  /** `test` only: no check failed, but some that apply could not run (a credential, a bound, a rate limit). */
  incomplete: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What an action returns: the process's exit code. */
export type ActionResult = ExitCode | Promise<ExitCode>;

/**
 * What a command reads from and writes to outside its arguments. The bin uses the process's own; `run(argv, io)`
 * (cli-run.ts) lets tests and embedders give their own, one run at a time or several at once.
 */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The environment the command reads (`--jwt-secret-env`, `NO_COLOR`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Standard input, read whole, for a file argument `-` and `--password-stdin`. */
  stdin: () => Buffer;
  /** Whether standard output and standard error are terminals (progress lines, colour, pretty logs). */
  isTTY: { out: boolean; err: boolean };
  /** The terminal's width, when standard error is one. */
  columns?: number;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  env: process.env,
  stdin: () => readFileSync(0),
  get isTTY() {
    return { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true };
  },
  get columns() {
    return process.stderr.columns;
  },
};

interface RunState {
  io: CliIo;
  exitCode: ExitCode;
}

const runs = new AsyncLocalStorage<RunState>();

function current(): CliIo {
  return runs.getStore()?.io ?? processRun?.io ?? processIo;
}

/** The io of the run in progress (the process's outside `run`): every command prints through this. */
export const io: CliIo = {
  out: (text) => current().out(text),
  err: (text) => current().err(text),
  get env() {
    return current().env;
  },
  stdin: () => current().stdin(),
  get isTTY() {
    return current().isTTY;
  },
  get columns() {
    return current().columns;
  },
};

/**
 * The bin's one run in its own process (cli-main.ts): its io is the process's, so no run needs keeping apart. On
 * Node 20 a run of an AsyncLocalStorage turns on async hooks for the rest of the process: `serve` inside one paid
 * for them on every promise and tick of every request (a fifth of a read's CPU, docs/architecture.md).
 */
let processRun: RunState | undefined;

/** The bin says the process is its alone: `withIo` then runs without an AsyncLocalStorage (see processRun). */
export function useProcessIo(): void {
  processRun = { io: processIo, exitCode: EXIT.ok };
}

/** Runs `fn` with `given` as the io its commands see; resolves with the exit code its action set. */
export async function withIo(given: CliIo, fn: () => Promise<ExitCode | undefined>): Promise<ExitCode> {
  if (processRun !== undefined) {
    processRun.io = given;
    const code = await fn();
    return code ?? processRun.exitCode;
  }
  const state: RunState = { io: given, exitCode: EXIT.ok };
  const code = await runs.run(state, fn);
  return code ?? state.exitCode;
}

/** commander, loaded when a command is registered: `check FILE` (cli-check-args.ts) never loads it. */
function commander(): typeof Commander {
  return createRequire(import.meta.url)('commander') as typeof Commander;
}

/** `--format text|json`, shared by the commands that print data a machine may read. */
export function formatOption(): Option {
  return new (commander().Option)('--format <format>', 'output format').choices(['text', 'json']).default('text');
}

export function quietOption(): Option {
  return new (commander().Option)('-q, --quiet', 'print errors only: no warnings, no summary of a clean result');
}

export interface CommonOptions {
  format?: OutputFormat;
  quiet?: boolean;
}

/** The file argument that means standard input. */
export const STDIN = '-';

/**
 * Load, validate, build and check one spec file (`-` reads standard input).
 * Never throws for bad input: problems come back as diagnostics.
 */
export function readSpec(file: string): CompiledSpec {
  if (file !== STDIN) return compileSpecFile(file);
  let bytes: Buffer;
  try {
    bytes = io.stdin();
  } catch (err) {
    const diagnostic = createDiagnostic('file-unreadable', { path: '<stdin>', reason: describeFsError(err) }, { file: '<stdin>' });
    return { file: '<stdin>', sourceMap: new Map(), diagnostics: [diagnostic] };
  }
  return compileSpecBytes(bytes, '<stdin>');
}

/** The diagnostics to show under `--quiet`: errors only. */
export function visible(diagnostics: readonly Diagnostic[], quiet: boolean | undefined): readonly Diagnostic[] {
  return quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
}

/**
 * Whether to colour what goes to `to`: on a terminal, unless NO_COLOR is set (no-color.org: present and not
 * empty) or TERM is dumb; FORCE_COLOR (not 0 or false) colours even a pipe, FORCE_COLOR=0 turns it off.
 */
export function useColor(to: 'out' | 'err'): boolean {
  const { env } = io;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return io.isTTY[to];
}

const SGR = { red: 31, green: 32, yellow: 33, cyan: 36, bold: 1, dim: 2 } as const;

/** `text` in one SGR style (reset after). */
export function paint(text: string, style: keyof typeof SGR): string {
  return `\u001b[${SGR[style]}m${text}\u001b[0m`;
}

const SEVERITY_COLOR = { error: 'red', warning: 'yellow', info: 'cyan' } as const;
const ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Errors first, then warnings, then notes, each in the order found: an error is never buried under warnings. */
export function sortBySeverity(diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
  return [...diagnostics].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

/** Colours the severity word of each formatted diagnostic line and the summary's counts. */
function colorDiagnostics(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const m = /^(.*?)(error|warning|info) ([a-z][a-z0-9-]*): /.exec(line);
      if (m && (m[1] === '' || m[1]!.endsWith(': '))) {
        return `${m[1]}${paint(m[2]!, SEVERITY_COLOR[m[2] as keyof typeof SEVERITY_COLOR])} ${paint(m[3]!, 'bold')}: ${line.slice(m[0].length)}`;
      }
      const summary = /^(\d+) (errors?), (\d+) (warnings?)$/.exec(line);
      if (summary)
        return `${paint(`${summary[1]} ${summary[2]}`, summary[1] === '0' ? 'green' : 'red')}, ${paint(`${summary[3]} ${summary[4]}`, summary[3] === '0' ? 'green' : 'yellow')}`;
      return line;
    })
    .join('\n');
}

/** Print diagnostics as text or JSON to the given stream (stdout for `check`, stderr where they are a side note). */
export function printDiagnostics(diagnostics: readonly Diagnostic[], options: { format?: OutputFormat; quiet?: boolean; to?: 'out' | 'err' } = {}): void {
  const shown = sortBySeverity(visible(diagnostics, options.quiet));
  const format = options.format ?? 'text';
  if (format === 'text' && shown.length === 0) return;
  const to = options.to ?? 'err';
  const plain = formatDiagnostics(shown, format);
  const text = format === 'text' && useColor(to) ? colorDiagnostics(plain) : plain;
  if (to === 'out') io.out(text);
  else io.err(text);
}

/** Prints an unexpected error as one line (never a stack trace); the exit code is 1. */
export function printInternalError(err: unknown, to: CliIo = io): ExitCode {
  const message = err instanceof Error ? err.message : String(err);
  to.err(`servicespec: internal error: ${message.split('\n')[0] ?? ''}\n`);
  return EXIT.errors;
}

/** Exit code for a set of diagnostics: 1 when any is an error. */
export function exitFor(diagnostics: readonly Diagnostic[]): ExitCode {
  return hasErrors(diagnostics) ? EXIT.errors : EXIT.ok;
}

/**
 * Write a file atomically: the content goes to a temporary file beside the target, which is then renamed over it,
 * so a reader never sees half a file and a failed write leaves any previous file as it was.
 * Returns an `output-unwritable` diagnostic instead of throwing.
 */
export function writeFileAtomic(path: string, content: string): Diagnostic | undefined {
  const unwritable = (reason: string): Diagnostic => createDiagnostic('output-unwritable', { path, reason }, { file: path });
  try {
    if (statSync(path).isDirectory()) return unwritable('it is a directory');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return unwritable(describeFsError(err));
  }
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content, { flag: 'wx' });
    renameSync(temp, path);
    return undefined;
  } catch (err) {
    rmSync(temp, { force: true });
    return unwritable(describeFsError(err));
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'the folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EISDIR: 'it is a directory',
  EEXIST: 'it already exists',
};

/** A short, stack-free reason for a file-system error. */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && FS_REASONS[code] !== undefined) return `${FS_REASONS[code]} (${code})`;
  return code ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Wrap a command's action so its returned exit code becomes the run's exit code (the process's, outside `run`).
 * The process is left to end on its own (no `process.exit`), so piped output is never cut short.
 */
export function action<A extends unknown[]>(fn: (...args: A) => ActionResult): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const code = await fn(...args);
    const state = runs.getStore() ?? processRun;
    if (state) state.exitCode = code;
    else process.exitCode = code;
  };
}
