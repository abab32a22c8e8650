// `--watch`: run again when the spec file changes. The folder is watched, not the file, so an editor that saves by
// writing a new file and renaming it over the old one is still seen; a save that leaves the bytes as they were is not
// a change.

import { createHash } from 'node:crypto';
import { readFileSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** The file's content hash, to tell a real change from a save of the same bytes (undefined while it cannot be read). */
export function getFileDigest(path: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Calls `onChange` (one at a time, after writes settle for `settleMs`) whenever the file's bytes differ from `since`
 * (the digest taken before the caller last read the file, so no edit made meanwhile is missed). Returns a stop function.
 */
export function watchSpecFile(file: string, since: string | undefined, onChange: () => Promise<void> | void, settleMs = 150): () => void {
  const path = resolve(file);
  const name = basename(path);
  let last = since;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const fire = () => {
    const now = getFileDigest(path);
    if (now === undefined || now === last) return; // mid-save (gone for a moment) or unchanged
    last = now;
    running = running.then(() => onChange()).catch(() => undefined);
  };
  const watcher = watch(dirname(path), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(fire, settleMs);
  });
  // Anything written between `since` and now.
  timer = setTimeout(fire, 0);
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });
}
