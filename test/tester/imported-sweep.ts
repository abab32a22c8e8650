// The harness the imported sweeps share (rounds 8–10: Fleet, Courses, Stockroom): an OpenAPI document imported as
// `servicespec import openapi` makes it (nothing edited, once a process), and the tester run against a hand-written
// node:http server of it, in this process, with named faults planted one run at a time. Each round's file names its
// document, its server and the credentials its `servicespec test` run is given.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

/** What a round's server module exports: its faults by name, and the rest its `options` read (keys, users). */
export interface SweepServerModule {
  FAULTS: Record<string, string>;
}

export interface ImportedSweep<M extends SweepServerModule> {
  /** The document's path. */
  doc: string;
  /** The server module. */
  load(): Promise<M>;
  /** The document imported (once a process): its model and the spec's YAML. */
  importDoc(): Promise<{ model: CheckedModel; text: string }>;
  /** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
  run(faults: readonly string[], options?: Omit<TestOptions, 'baseUrl'>): Promise<TestReport>;
}

export function createImportedSweep<M extends SweepServerModule>(o: {
  doc: URL;
  server: URL;
  /** A server of the module with `faults` planted. */
  create: (m: M, faults: string[]) => Server;
  /** The run's credentials (and any other option every run of the round is given). */
  options: (m: M) => Omit<TestOptions, 'baseUrl'>;
}): ImportedSweep<M> {
  const doc = fileURLToPath(o.doc);
  const load = async () => (await import(o.server.href)) as M;
  let imported: Promise<{ model: CheckedModel; text: string }> | undefined;
  const importDoc = () =>
    (imported ??= importOpenApiFile(doc).then((r) => {
      if (!r.compiled?.checked || r.text === undefined) throw new Error(`${basename(doc)} does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
      return { model: r.compiled.checked, text: r.text };
    }));
  const run = async (faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}) => {
    const m = await load();
    const { model } = await importDoc();
    const server = o.create(m, [...faults]);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    try {
      return await testService(model, { baseUrl: `http://127.0.0.1:${port}`, ...o.options(m), ...options });
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  };
  return { doc, load, importDoc, run };
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
