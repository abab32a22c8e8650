import { connect } from 'node:net';

/** Whether a local service answers on 127.0.0.1:port within a second. */
export function isListening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ port, host });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/**
 * For tests that need a real local service: true when it is up; otherwise prints why the tests that
 * need it are skipped (never silently). `.ci/run` starts the services, so CI never skips them.
 */
export async function needService(name: string, port: number): Promise<boolean> {
  const up = await isListening(port);
  if (!up) {
    const message = `SKIPPED: ${name} tests need ${name} on 127.0.0.1:${port}, which is not answering (.ci/run starts it; see README)`;
    if (process.env.CI) throw new Error(`${message} — in CI this is a failure`);
    console.warn(message);
  }
  return up;
}
