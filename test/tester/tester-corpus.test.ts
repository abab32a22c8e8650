// The tester on imported real-world documents: each OpenAPI document of the public corpus (test/fixtures/openapi,
// the same files as ../shared/openapi-corpus) is imported as `servicespec import openapi` does, served by the real
// runtime (gaps allowed, a credential for every scheme it declares), and tested at the default settings through
// a counting proxy. Issue 25 item 9: every operation receives traffic, except the exact NO_TRAFFIC list, each with
// the not-run reason the report gives; no check fails against serve, and the verdict is as VERDICT says. The
// per-operation counts are printed (the table in docs/testing.md).

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { startSpec } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The operations that receive no request, per document, with the not-run reason the tester's report gives for them
 * (measured on seed 1, 2026-11-25): every other operation of every document receives traffic.
 */
const NO_TRAFFIC: Record<string, Readonly<Record<string, string>>> = {
  // An operation on objects nothing in its document creates still gets the missing-object probes where the document
  // declares no error answer at all, a 404 or 410 being HTTP's answer then (oai-link-example's getUserByName,
  // Twilio's FetchExport, FetchJob and DeleteJob). Not ably's read of a channel (an action since it declares ably's `format` and `X-Ably-Version`: before, a custom
  // operation answering 501): nothing makes a ChannelDetails, and ably declares its own error codes.
  'ably-platform-v1.yaml': {
    getMetadataOfChannel: 'no ChannelDetails to address: the spec has no create operation for ChannelDetails, and the tester makes objects only through one',
  },
};

/**
 * Each run's verdict: no check fails against serve; a run is INCOMPLETE where an operation answers 501 (a custom
 * operation whose handler the import could not give) or an object cannot be made, PASSED where everything ran.
 */
const VERDICT: Record<string, 'passed' | 'incomplete'> = {
  'ably-platform-v1.yaml': 'incomplete',
  'adyen-dispute-v30.json': 'incomplete',
  'adyen-session-authentication-v1.yaml': 'incomplete',
  'giphy-v1.yaml': 'incomplete',
  'kubernetes-coordination-v1.json': 'incomplete',
  'oai-callback-example.yaml': 'incomplete',
  'oai-link-example.yaml': 'incomplete',
  'oai-petstore-expanded.yaml': 'passed',
  'oai-petstore.yaml': 'passed',
  'oai-uspto.yaml': 'incomplete',
  'oai-webhook-example.yaml': 'incomplete',
  // Its ticket purchase and PNG answer are custom operations (501 without a handler), and its Basic users unknown.
  'redocly-museum.yaml': 'incomplete',
  // Its user, profile, follow and favourite operations stay custom (501); its article lists are served (Article's
  // lists with answer_fields), and its comments (a Comment under its Article, `parent: Article`).
  'realworld-conduit.yml': 'incomplete',
  'twilio-bulkexports-v1.yaml': 'incomplete',
  'vonage-dispatch.yml': 'incomplete',
};

/** Requests per document (seed 1), as measured: a drop is printed, to be explained in docs/testing.md. */
/** Requests to no declared operation: the tester's probes of route_not_found, where a code declares it. */
const PROBES: Record<string, readonly string[]> = {
  // endpoints.unknown-path (errors.malformed-id no longer sends `..`, which /gifs/.. resolved to /, no operation's)
  'giphy-v1.yaml': ['GET /servicespec-no-such-path'],
  // Its one 404 (NotFound) answers route_not_found too: endpoints.unknown-path, at the root and under an event.
  'redocly-museum.yaml': ['GET /servicespec-no-such-path', 'GET /special-events/{id}/servicespec-no-such-path'],
};

const TRAFFIC_TODAY: Record<string, number> = {
  'ably-platform-v1.yaml': 174,
  'adyen-dispute-v30.json': 72,
  'adyen-session-authentication-v1.yaml': 0,
  'giphy-v1.yaml': 69,
  'kubernetes-coordination-v1.json': 76,
  'oai-callback-example.yaml': 5,
  'oai-link-example.yaml': 9,
  'oai-petstore-expanded.yaml': 37,
  'oai-petstore.yaml': 34,
  'oai-uspto.yaml': 3,
  'oai-webhook-example.yaml': 7,
  'twilio-bulkexports-v1.yaml': 36,
  'vonage-dispatch.yml': 12,
};

/** Which declared operation a request went to (the runtime serves the paths at its root; `{x}` is one segment). */
function operationMatcher(model: ServiceModel): (method: string, path: string) => string | undefined {
  const esc = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const routes = (model.endpoints?.operations ?? []).map((o) => ({
    id: o.id,
    method: o.method,
    re: new RegExp(
      `^${o.path
        .split(/\{[^}]+\}/)
        .map(esc)
        .join('[^/]+')}$`,
    ),
  }));
  return (method, path) => {
    const p = path.split('?')[0]!;
    return routes.find((r) => r.method === method && r.re.test(p))?.id;
  };
}

const files = readdirSync(OPENAPI_FIXTURES)
  .filter((f) => /\.(ya?ml|json)$/.test(f))
  .sort();
const table: string[] = [];

describe('the tester on served imports of the OpenAPI corpus (default settings, seed 1)', () => {
  for (const file of files) {
    it(`${file}: every operation receives traffic, or the report says why not`, async () => {
      const imported = await importOpenApiFile(join(OPENAPI_FIXTURES, file), { specFile: `${file}.servicespec.yaml` });
      expect(imported.text).toBeDefined();
      const spec = join(dir, `${file}.servicespec.yaml`);
      writeFileSync(spec, imported.text!);
      const s = await startSpec(spec);
      const match = operationMatcher(s.model);
      const counts = new Map<string, number>((s.model.endpoints?.operations ?? []).map((o) => [o.id, 0]));
      let other = 0;
      const probes: string[] = [];
      const proxy = await startProxy(s.url, {
        observe(req) {
          const id = match(req.method, req.path);
          if (id === undefined) {
            other++;
            probes.push(`${req.method} ${req.path.split('?')[0]}`);
          } else counts.set(id, (counts.get(id) ?? 0) + 1);
        },
      });
      try {
        const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1 });
        const row = [...counts].map(([id, n]) => `${id}: ${n}`).join(', ');
        table.push(`| ${file} | ${report.requests} | ${other} | ${row} |`);
        console.log(`${file}: ${report.requests} requests (${other} to no declared operation); ${row}`);
        expect(
          report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected}`),
          'checks failed against serve',
        ).toEqual([]);
        expect(report.verdict).toBe(VERDICT[file]);
        const none = [...counts].filter(([, n]) => n === 0).map(([id]) => id);
        const expected = NO_TRAFFIC[file] ?? {};
        expect(none, 'operations that received no request').toEqual(Object.keys(expected));
        for (const [id, reason] of Object.entries(expected)) {
          // The report names why: a not-run result on the operation, so the run is INCOMPLETE, not passed.
          expect(
            report.results.find((r) => r.target === id && r.outcome === 'skipped' && r.notRun === true)?.reason,
            `the report's not-run reason for ${id}`,
          ).toBe(reason);
        }
        if (report.requests < (TRAFFIC_TODAY[file] ?? 0)) console.log(`${file}: ${report.requests} requests, fewer than the ${TRAFFIC_TODAY[file]} measured`);
        // Only where the document's one 404 code answers route_not_found (docs/import.md, "Error responses") does the
        // tester ask for a path no operation has (endpoints.unknown-path, and a malformed id's `..` resolved away).
        // An object's identifier (drawn, different from run to run) is written `{id}`.
        const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
        expect(
          probes.map((p) => p.replace(UUID, '{id}')),
          'requests to no declared operation',
        ).toEqual(PROBES[file] ?? []);
        expect(other).toBe(probes.length);
      } finally {
        await proxy.close();
        await s.close();
      }
    }, 120_000);
  }
  afterAll(() => console.log(['| document | requests | to no operation | requests per operation |', '|---|---:|---:|---|', ...table].join('\n')));
});
