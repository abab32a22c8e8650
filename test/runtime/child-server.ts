import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli/cli-main.ts', import.meta.url));

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  exited: Promise<number | null>;
}

/** Runs `servicespec serve` in a child process and waits until it listens. */
export async function startChildServer(args: readonly string[], timeoutMs = 30_000): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', ...args, '--port', '0', '--log', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), timeoutMs);
    const check = () => {
      const m = /serving .* at (http:\/\/[^ ]+) /.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stderr!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
  return { url, child, stderr: () => err, exited };
}
