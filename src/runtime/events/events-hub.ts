// Tells the stream and the delivery worker that the outbox moved. The plugin nudges it after every write request
// (the change's transaction has committed by then); a slow poll catches what other processes write.

import type { Storage } from '../storage/storage-types.js';

export interface OutboxHub {
  /** The newest committed outbox position seen so far. */
  readonly lastSeq: number;
  /** Check the outbox now (coalesced: at most one check runs, and one more is queued). */
  nudge(): void;
  /** Resolves when the outbox moves past `seq`, after `ms`, or when `signal` aborts, whichever is first. */
  waitBeyond(seq: number, ms: number, signal?: AbortSignal): Promise<void>;
  /** Called after each move, with the new position. */
  subscribe(listener: (seq: number) => void): () => void;
  start(): Promise<void>;
  stop(): void;
}

export function createOutboxHub(storage: Pick<Storage, 'lastOutboxSeq' | 'watch'>, pollIntervalMs: number, onError: (err: unknown) => void): OutboxHub {
  let lastSeq = 0;
  let checking = false;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let unwatch: (() => void) | undefined;
  const listeners = new Set<(seq: number) => void>();

  async function check(): Promise<void> {
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      do {
        again = false;
        if (stopped) return;
        const seq = await storage.lastOutboxSeq();
        if (seq > lastSeq) {
          lastSeq = seq;
          for (const l of [...listeners]) l(seq);
        }
      } while (again);
    } catch (err) {
      if (!stopped) onError(err);
    } finally {
      checking = false;
    }
  }

  return {
    get lastSeq() {
      return lastSeq;
    },
    nudge() {
      void check();
    },
    waitBeyond(seq, ms, signal) {
      if (lastSeq > seq || stopped || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          listeners.delete(onMove);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const onMove = (s: number) => {
          if (s > seq) done();
        };
        const t = setTimeout(done, ms);
        listeners.add(onMove);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      lastSeq = await storage.lastOutboxSeq();
      // Where the storage hears other instances' commits (PostgreSQL NOTIFY), check at once; the poll stays as the fallback.
      unwatch = storage.watch?.((change) => {
        if (change === 'outbox') void check();
      });
      timer = setInterval(() => void check(), pollIntervalMs);
      timer.unref();
    },
    stop() {
      stopped = true;
      unwatch?.();
      if (timer) clearInterval(timer);
      // Wake every waiter so streams can end.
      for (const l of [...listeners]) l(Number.MAX_SAFE_INTEGER);
    },
  };
}
