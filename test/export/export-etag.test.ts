// `etag: true` exported (docs/format.md, "Conditional requests"): the OpenAPI answers of one object carry an ETag
// header, the read takes If-None-Match and answers 304, the changes take If-Match (required with if_match: required)
// and answer the declared 412 and 428, x-servicespec-operation carries if_match; the typed client sends If-Match and
// If-None-Match, hands back the ETag and throws NotModified on a 304, compiled by tsc --strict and run against the
// real runtime. Before, none of it was there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { ETAG_SPEC } from '../support/etag-spec.js';
import { startService, type Running } from '../runtime/helpers.js';
import { buildDriver, tempDir } from './helpers.js';

type Param = { $ref?: string; name?: string; in?: string; required?: boolean };
type Op = {
  parameters?: Param[];
  responses: Record<string, { headers?: Record<string, { required?: boolean }> }>;
  'x-servicespec-operation'?: Record<string, unknown>;
};

describe('etag exported to OpenAPI', () => {
  const model = compileSpecText(ETAG_SPEC()).checked!;
  const doc = exportOpenApi(model).document as unknown as {
    paths: Record<string, Record<string, Op>>;
    components: { parameters: Record<string, Param> };
  };
  const params = (op: Op) => (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p));
  const header = (op: Op, name: string) => params(op).find((p) => p.in === 'header' && p.name === name);

  it('an ETag header on every answer of one object, none on the list or the delete', () => {
    for (const [path, method, status] of [
      ['/notes', 'post', '201'],
      ['/notes/{id}', 'get', '200'],
      ['/notes/{id}', 'patch', '200'],
      ['/notes/{id}', 'put', '200'],
      ['/notes/{id}/publish', 'post', '200'],
    ] as const)
      expect(doc.paths[path]![method]!.responses[status]!.headers?.ETag?.required, `${method} ${path}`).toBe(true);
    expect(doc.paths['/notes']!.get!.responses['200']!.headers?.ETag).toBeUndefined();
    expect(doc.paths['/notes/{id}']!.delete!.responses['204']!.headers?.ETag).toBeUndefined();
  });

  it('the read takes If-None-Match and answers 304 with the ETag', () => {
    const read = doc.paths['/notes/{id}']!.get!;
    expect(header(read, 'If-None-Match')).toMatchObject({ required: false });
    expect(read.responses['304']!.headers!.ETag).toBeDefined();
    expect(header(read, 'If-Match')).toBeUndefined();
  });

  it('the changes take If-Match (required where if_match: required) and answer 412 (and 428)', () => {
    for (const [path, method] of [
      ['/notes/{id}', 'patch'],
      ['/notes/{id}', 'put'],
      ['/notes/{id}', 'delete'],
      ['/notes/{id}/publish', 'post'],
    ] as const) {
      const op = doc.paths[path]![method]!;
      expect(header(op, 'If-Match'), `${method} ${path}`).toMatchObject({ required: false });
      expect(Object.keys(op.responses)).toContain('412');
      expect(Object.keys(op.responses)).not.toContain('428');
    }
    const update = doc.paths['/contracts/{id}']!.patch!;
    expect(header(update, 'If-Match')).toMatchObject({ required: true });
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['412', '428']));
    expect(update['x-servicespec-operation']).toMatchObject({ action: 'update', if_match: 'required' });
    expect(header(doc.paths['/notes']!.post!, 'If-Match')).toBeUndefined();
  });

  it('without etag: no ETag, no If-Match, no 304, no 412', () => {
    const plain = exportOpenApi(compileSpecText(ETAG_SPEC('plural: Notes', 'plural: Contracts').replace(/, if_match: required/g, '')).checked!).document;
    const text = JSON.stringify(plain);
    for (const word of ['ETag', 'If-Match', 'If-None-Match', '"304"']) expect(text).not.toContain(word);
  });
});

const DRIVER = `
import { NotModified, ServiceClient, isServiceError } from './client.js';

export async function drive(baseUrl: string): Promise<Record<string, unknown>> {
  const client = new ServiceClient({ baseUrl });
  let tag: string | null = null;
  const made = await client.createContract({ title: 'a' }, { onHeaders: (h) => (tag = h.get('etag')) });
  const created = tag;
  let notModified = '';
  try {
    await client.getContract(made.id, { ifNoneMatch: created ?? '' });
  } catch (e) {
    if (e instanceof NotModified) notModified = e.etag ?? '';
  }
  let missing = '';
  try {
    await client.updateContract(made.id, { title: 'b' });
  } catch (e) {
    if (isServiceError(e)) missing = e.code;
  }
  let stale = '';
  try {
    await client.updateContract(made.id, { title: 'b' }, { ifMatch: '"stale"' });
  } catch (e) {
    if (isServiceError(e)) stale = e.code;
  }
  const changed = await client.updateContract(made.id, { title: 'c' }, { ifMatch: created ?? '', onHeaders: (h) => (tag = h.get('etag')) });
  return { same: notModified === created, missing, stale, title: changed.title, newTag: tag !== created };
}
`;

describe('the generated client over ETags', () => {
  const tmp = tempDir('servicespec-client-etag-');
  let service: Running;
  beforeAll(async () => {
    const c = compileSpecText(ETAG_SPEC());
    service = await startService(c.checked!);
    writeFileSync(join(tmp.path, 'client.ts'), generateClient(c.checked!).code);
  });
  afterAll(async () => {
    await service?.close();
    tmp.remove();
  });

  it('says it on the methods, sends If-Match and If-None-Match, hands back the ETag, throws NotModified on a 304', async () => {
    const code = generateClient(compileSpecText(ETAG_SPEC()).checked!).code;
    expect(code).toContain("Answers the Note's ETag (`options.onHeaders`); with `options.ifNoneMatch` naming it, a 304 throws `NotModified`.");
    expect(code).toContain('Send the current ETag as `options.ifMatch` (required: without it the service answers 428)');
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (url: string) => Promise<Record<string, unknown>> }>(tmp.path, ['client.ts', 'driver.ts']);
    expect(output).toBe('');
    expect(await driver.drive(service.url)).toEqual({ same: true, missing: 'tag_required', stale: 'stale', title: 'c', newTag: true });
  }, 120_000);
});
