import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Fastify from 'fastify';
import FindMyWay from 'find-my-way';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createService, servicespecPlugin, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { buildModel } from '../../src/model/model-builder.js';
import type { CheckedModel, ServiceModel } from '../../src/model/model-types.js';
import { loadSpecText } from '../../src/spec/spec-loader.js';
import type { SpecDocument } from '../../src/spec/spec-types.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { loadModel, TICKETS } from './helpers.js';
import { createRouteTable, getCatchAllPaths, getCatchAllSegments, getSimpleSegments } from '../../src/runtime/runtime-route-table.js';

// The table behind the catch-alls must match what find-my-way matches with one route per path: same path, same
// parameters, same misses and bad URLs, over generated path sets and URLs (percent-encodings, empty segments,
// trailing slashes, queries, case). Both routers get the options the runtime gives Fastify's.
const ROUTER = { maxParamLength: 100 };
const SERVICE = '/_servicespec/health';

type Outcome = string;

function reference(paths: string[]) {
  const r = FindMyWay(ROUTER);
  paths.forEach((p, i) => r.on('GET', p, () => i));
  r.on('GET', SERVICE, () => 'service');
  return (url: string): Outcome => describeFound(r, url, (found) => `${String(found.handler())} ${JSON.stringify(sorted(found.params))}`);
}

function tabled(paths: string[]) {
  const table = createRouteTable(paths.map((p, i) => [p, i] as const))!;
  const r = FindMyWay(ROUTER);
  for (const p of getCatchAllPaths(table.depth)) r.on('GET', p, () => 'catch-all');
  r.on('GET', SERVICE, () => 'service');
  return (url: string): Outcome =>
    describeFound(r, url, (found) => {
      if (found.handler() === 'service') return `service ${JSON.stringify(sorted(found.params))}`;
      const m = table.match(getCatchAllSegments(found.params as Record<string, string>));
      return m === undefined ? 'none' : `${m.value} ${JSON.stringify(sorted(m.params))}`;
    });
}

function describeFound(
  r: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>,
  url: string,
  hit: (found: { handler: () => unknown; params: Record<string, string | undefined> }) => string,
): Outcome {
  const found = r.find('GET', url);
  return found === null ? 'none' : hit(found as never);
}

function sorted(params: Record<string, string | undefined>): [string, string | undefined][] {
  return Object.entries(params).sort(([a], [b]) => a.localeCompare(b));
}

const staticSegment = fc.constantFrom('a', 'b', 'ab', 'x-y', 'v1.0', '_servicespec', 'health');
const pathSegment = fc.oneof(staticSegment, staticSegment, fc.constantFrom(':id', ':key', ':p'));
const pathShape = fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
const urlSegment = fc.oneof(
  staticSegment,
  fc.constantFrom('', 'A', 'c', '%61', '%2F', 'a%2Fb', '%25', '%zz', '%E2%82%AC', 'a;b', 'a b', 'x'.repeat(101), '%61'.repeat(40), '..'),
);
const url = fc
  .tuple(fc.array(urlSegment, { minLength: 0, maxLength: 5 }), fc.constantFrom('', '/', '?q=1', '?a/b', '#f', '?%zz'))
  .map(([s, tail]) => `/${s.join('/')}${tail}`);

/** Distinct shapes only (two paths differing only in parameter names are refused by the table, and by Fastify). */
function distinctShapes(paths: string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((p) => {
    if (p === SERVICE) return false; // reserved: check refuses it
    const shape = p.replace(/:[a-z]+/g, ':');
    return !seen.has(shape) && seen.add(shape) !== undefined;
  });
}

describe('runtime route table', () => {
  it('matches as find-my-way does with a route per path', () => {
    fc.assert(
      fc.property(fc.array(pathShape, { minLength: 1, maxLength: 12 }).map(distinctShapes), fc.array(url, { minLength: 1, maxLength: 30 }), (paths, urls) => {
        const [a, b] = [reference(paths), tabled(paths)];
        for (const u of urls) expect(b(u), `${u} over ${paths.join(' ')}`).toBe(a(u));
      }),
      { numRuns: 400 },
    );
  });

  it('matches the root path and a parameter on an empty segment as find-my-way does', () => {
    for (const paths of [['/'], ['/:id'], ['/', '/:id'], ['/a', '/a/:id'], ['/a/b/c', '/:x/b/d']]) {
      const [a, b] = [reference(paths), tabled(paths)];
      for (const u of ['/', '//', '/a', '/a/', '/a//', '/a/b/d', '/a/b/c', '/a/b/c/']) expect(b(u), `${u} over ${paths.join(' ')}`).toBe(a(u));
    }
  });

  it('tables simple paths only, and no two paths of one shape', () => {
    expect(getSimpleSegments('/')).toEqual(['']);
    expect(getSimpleSegments('/a/:id/b')).toEqual(['a', ':id', 'b']);
    for (const p of ['/a/:id.:ext', '/file-:id', '/a/*', '/a/:__proto__', '/a//b', '/a/', 'a', '/a/::x', '/a/(x)'])
      expect(getSimpleSegments(p), p).toBeUndefined();
    expect(
      createRouteTable([
        ['/a/:id', 1],
        ['/a/:key', 2],
      ]),
    ).toBeUndefined();
    expect(
      createRouteTable([
        ['/a/:id', 1],
        ['/a/b', 2],
      ])?.depth,
    ).toBe(2);
  });
});

describe('the service behind the table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-table-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const storage = () => createSqliteStorage({ path: join(dir, `${n++}.db`), synchronous: 'normal' });

  it('createService registers a catch-all per path depth; a host app mounting the plugin keeps a route per operation', async () => {
    const model = loadModel(TICKETS);
    // The table is a fast path: on here whatever SERVICESPEC_FAST_PATHS says; off, a route per operation.
    const app = await createService(model, { storage: storage(), allowGaps: true, fastPaths: true });
    try {
      const routes = app.printRoutes({ commonPrefix: false });
      expect(routes).toContain(':s0');
      expect(routes).not.toContain('tickets');
    } finally {
      await app.close();
    }
    const plain = await createService(model, { storage: storage(), allowGaps: true, fastPaths: false });
    try {
      const routes = plain.printRoutes({ commonPrefix: false });
      expect(routes).not.toContain(':s0');
      expect(routes).toContain('tickets');
    } finally {
      await plain.close();
    }
    const host = Fastify();
    await host.register(servicespecPlugin, { model, storage: storage(), allowGaps: true });
    await host.ready();
    try {
      expect(host.printRoutes({ commonPrefix: false })).toContain('tickets');
    } finally {
      await host.close();
    }
  });

  it('keeps a route per operation where a path is not simple (a version in the path: /v:version/books)', async () => {
    const app = await createService(loadModel(new URL('./fixtures/versioned.yaml', import.meta.url).pathname), { storage: storage(), allowGaps: true });
    try {
      expect(app.printRoutes({ commonPrefix: false })).toContain('books');
    } finally {
      await app.close();
    }
  });

  it('refuses at start, by code, a model the checker found errors in or that never went through it', async () => {
    const spec = (operation: string) => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
endpoints:
  operations:
    ${operation}
authentication:
  default: none
`;
    // Models with check errors (unknown-resource, transition-without-machine), which a library caller could pass:
    // the runtime restates none of the checker's rules, it names the codes the checker found.
    const codesOf = async (model: ServiceModel) => {
      const err = await createService(model as CheckedModel, { storage: storage(), allowGaps: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceStartError);
      return { codes: (err as ServiceStartError).codes, message: (err as ServiceStartError).message };
    };
    const unknown = compileSpecText(spec('getNote: { method: GET, path: "/notes/{id}", action: read, resource: Nope }'));
    expect(unknown.checked).toBeUndefined();
    const refusedUnknown = await codesOf(unknown.model!);
    expect(refusedUnknown.codes).toEqual(['model-has-errors']);
    expect(refusedUnknown.message).toMatch(/unknown-resource/);
    const machineless = compileSpecText(spec('moveNote: { method: POST, path: "/notes/{id}/move", action: transition, resource: Note, transition: move }'));
    const refusedMachineless = await codesOf(machineless.model!);
    expect(refusedMachineless.codes).toEqual(['model-has-errors']);
    expect(refusedMachineless.message).toMatch(/transition-without-machine/);
    // A model built without the checker (buildModel), or a copy of a checked one, was never checked.
    const checked = compileSpecText(spec('getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }')).checked!;
    expect((await codesOf({ ...checked })).codes).toEqual(['model-unchecked']);
    expect(
      (await codesOf(buildModel(loadSpecText(spec('getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }')).document as SpecDocument)))
        .codes,
    ).toEqual(['model-unchecked']);
    // The plugin too.
    const host = Fastify();
    await expect(
      host.register(servicespecPlugin, { model: unknown.model! as CheckedModel, storage: storage(), allowGaps: true }).ready(),
    ).rejects.toMatchObject({
      codes: ['model-has-errors'],
    });
    await host.close();
  });
});
