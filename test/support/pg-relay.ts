// A TCP relay on loopback between a service and the real PostgreSQL server, for faults made at the edge: losing the
// answer to a COMMIT the server applied, or holding a statement until the test has done something meanwhile.
import { connect, createServer, type Server, type Socket } from 'node:net';

const COMMIT = Buffer.from('COMMIT\0');
/** ReadyForQuery, idle: the end of a connection's start-up. */
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
/** ErrorResponse: FATAL 57P01, what `pg_terminate_backend` sends. */
const TERMINATED = (() => {
  const fields = Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
})();

export interface PgRelay {
  server: Server;
  port: number;
  /** The next COMMIT the server completes: its answer is not passed back, both sides are dropped instead. */
  loseNextCommit(): void;
  /** How many COMMIT answers were lost. */
  dropped(): number;
  /** The next client chunk that contains `text` waits for `meanwhile` before it goes on to the server. */
  holdNext(text: string, meanwhile: () => Promise<void>): void;
  /** The next client chunk that contains `text` never reaches the server: both sides are dropped instead. */
  dropNext(text: string): void;
  /** The next client chunk that contains `text` reaches the server; the server's answer to it is lost (both dropped). */
  loseAnswerTo(text: string): void;
  /**
   * The next new connection's start-up ends with the server's FATAL 57P01 (a backend terminated as it starts): the
   * error goes in the same chunk as the first ReadyForQuery, then both sides are dropped.
   */
  terminateNextStartup(): void;
  close(): Promise<void>;
}

export function startPgRelay(target: URL): Promise<PgRelay> {
  let losing = false;
  let drops = 0;
  let hold: { text: Buffer; meanwhile: () => Promise<void> } | undefined;
  let drop: Buffer | undefined;
  let lose: Buffer | undefined;
  let terminateStartup = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let sentCommit = false;
    let awaitingAnswer = false;
    let starting = terminateStartup;
    terminateStartup = false;
    // Chunks go on in order: a held one holds the ones behind it.
    let queue = Promise.resolve();
    client.on('data', (chunk) => {
      if (drop !== undefined && chunk.includes(drop)) {
        drop = undefined;
        client.destroy();
        upstream.destroy();
        return;
      }
      if (lose !== undefined && chunk.includes(lose)) {
        lose = undefined;
        awaitingAnswer = true;
      }
      if (losing && chunk.includes(COMMIT)) sentCommit = true;
      const h = hold !== undefined && chunk.includes(hold.text) ? hold : undefined;
      if (h) hold = undefined;
      queue = queue.then(async () => {
        if (h) await h.meanwhile();
        upstream.write(chunk);
      });
    });
    upstream.on('data', (chunk) => {
      if (starting && chunk.includes(READY)) {
        starting = false;
        client.end(Buffer.concat([chunk, TERMINATED]));
        upstream.destroy();
        return;
      }
      // The server's CommandComplete tag "COMMIT": the change is applied; its answer goes nowhere.
      if ((sentCommit && chunk.includes(COMMIT)) || awaitingAnswer) {
        if (!awaitingAnswer) losing = false;
        awaitingAnswer = false;
        sentCommit = false;
        drops++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => (client.destroy(), upstream.destroy());
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        server,
        port,
        loseNextCommit: () => void (losing = true),
        dropped: () => drops,
        holdNext: (text, meanwhile) => void (hold = { text: Buffer.from(text), meanwhile }),
        dropNext: (text) => void (drop = Buffer.from(text)),
        loseAnswerTo: (text) => void (lose = Buffer.from(text)),
        terminateNextStartup: () => void (terminateStartup = true),
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            sockets.forEach((s) => s.destroy());
          }),
      });
    }),
  );
}

/** `url` with its host and port replaced by the relay's. */
export function getRelayedUrl(url: string, relay: PgRelay): string {
  const via = new URL(url);
  via.host = `127.0.0.1:${relay.port}`;
  return via.toString();
}
