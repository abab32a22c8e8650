// A first run in one command (issue 15 item 6): an OpenAPI document is imported, then served with --allow-gaps,
// each custom operation without a handler answering not_implemented (501); `serve` of the OpenAPI file itself says
// to import it first.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getRoutes } from '../../src/model/model-routes.js';
import { compileSpecFile } from '../../src/program.js';
import { freePort, ROOT, runCli, startCli, tempDir } from './cli-helpers.js';

const KUBERNETES = join(ROOT, 'test', 'fixtures', 'openapi', 'kubernetes-coordination-v1.json');
const PETSTORE = join(ROOT, 'test', 'fixtures', 'openapi', 'oai-petstore.yaml');
const dir = tempDir();
afterAll(() => dir.remove());

describe('serve given an OpenAPI document', { timeout: 120_000 }, () => {
  it('refuses it with openapi-document, saying how to import it', async () => {
    const r = await runCli(['serve', PETSTORE, '--db', 'sqlite::memory:', '--allow-gaps']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error openapi-document');
    expect(r.stderr).toContain(`servicespec import openapi ${PETSTORE} -o SPEC`);
    expect(r.stderr).not.toContain('unknown-key');
    const checked = await runCli(['check', KUBERNETES]);
    expect(checked.code).toBe(1);
    expect(checked.stderr + checked.stdout).toMatch(/openapi-document.*OpenAPI document \(openapi: 3\.0\.\d\)/);
  });
});

describe('import, then serve --allow-gaps', { timeout: 180_000 }, () => {
  it('answers a custom operation with no handler 501 not_implemented and logs it as a gap', async () => {
    const spec = join(dir.path, 'k8s.yaml');
    const imported = await runCli(['import', 'openapi', KUBERNETES, '-o', spec]);
    expect(imported.code, imported.stderr).toBe(0);
    const model = compileSpecFile(spec).model!;
    const route = getRoutes(model).find((r) => r.kind === 'operation' && r.operation.action === 'custom' && r.operation.auth?.kind !== 'required');
    expect(route?.kind).toBe('operation');
    if (route?.kind !== 'operation') return;
    const id = route.operation.id;

    // `gaps` names how such an operation is answered; `serve` without --allow-gaps refuses, naming the handler.
    const gaps = await runCli(['gaps', spec]);
    expect(gaps.stdout).toContain('error code (condition not_implemented, for custom operations served without their handler): not shown');
    const refused = await runCli(['serve', spec, '--db', 'sqlite::memory:']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`handler ${route.operation.handler} of custom operation ${id}: not given`);

    const port = await freePort();
    const served = startCli(['serve', spec, '--db', 'sqlite::memory:', '--allow-gaps', '--port', String(port)]);
    try {
      await served.waitFor(/serving .* at http:/);
      await served.waitFor(new RegExp(`spec gap: handler ${route.operation.handler} of custom operation ${id}: not given`), 10_000);
      const path = route.path.replace(/\{[^{}]*\}/g, 'x');
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: route.method,
        ...(route.hasBody ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(res.status).toBe(501);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.code).toBe(model.errors?.byCondition.not_implemented ?? 'not_implemented');
      if (model.errors?.body?.kind !== 'declared') {
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(body).toMatchObject({ status: 501, title: 'Not Implemented' });
      }
      expect(String(body.detail ?? body.message)).toContain(id);
    } finally {
      await served.stop();
    }
  });
});

describe('check given a Swagger 2 document', { timeout: 60_000 }, () => {
  it('says to import it (the importer converts Swagger 2.0)', async () => {
    const file = join(dir.path, 'old.yaml');
    writeFileSync(file, 'swagger: "2.0"\ninfo: { title: Old, version: "1" }\npaths: {}\n');
    const r = await runCli(['check', file]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      `error openapi-document: ${file} is a Swagger document (swagger: 2.0), not a servicespec; import it first: servicespec import openapi ${file} -o SPEC`,
    );
  });
});
