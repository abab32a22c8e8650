// `serve --watch` and `check --watch`: an edit is picked up; a broken edit is refused with its diagnostic printed and
// the last good spec keeps serving.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startCli, tempDir } from './cli-helpers.js';

const dir = tempDir();
afterAll(() => dir.remove());

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      text: { type: string }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
    listNotes: { method: GET, path: /notes, action: list, resource: Note, auth: none }
errors:
  body: problem
  codes:
    e400: { status: 400, title: Bad request, when: [malformed_request, unsupported_version] }
    e404: { status: 404, title: Not found, when: [missing_resource, route_not_found] }
    e405: { status: 405, title: Method not allowed, when: [method_not_allowed] }
    e413: { status: 413, title: Too large, when: [body_too_large] }
    e431: { status: 431, title: Headers too large, when: [headers_too_large] }
    e415: { status: 415, title: Not JSON, when: [unsupported_media_type] }
    e422: { status: 422, title: Invalid, when: [validation] }
    e500: { status: 500, title: Server error, when: [internal] }
limits:
  body_size: 1KiB
  page_size: { default: 10, max: 50, over_max: reject }
`;
const WITH_READ = SPEC.replace(
  '    listNotes:',
  '    readNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }\n    listNotes:',
);
const BROKEN = WITH_READ.replace(
  '    listNotes: { method: GET, path: /notes, action: list, resource: Note, auth: none }',
  '    listNotes: { method: GET, path: /notes, action: list, resource: Ghost, auth: none }',
);

describe('--watch', { timeout: 180_000 }, () => {
  it('serve reloads a changed spec on the same port; a broken edit is refused and the last good spec keeps serving', async () => {
    const spec = join(dir.path, 'notes.yaml');
    writeFileSync(spec, SPEC);
    const port = await freePort();
    const p = startCli(['serve', spec, '--watch', '--log', 'silent', '--port', String(port), '--db', `sqlite:${join(dir.path, 'notes.db')}`]);
    const base = `http://127.0.0.1:${port}`;
    try {
      await p.waitFor(/watching .* for changes/);
      const created = await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"kept"}' });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      expect((await fetch(`${base}/notes/${id}`)).status).toBe(404);

      writeFileSync(spec, WITH_READ);
      await p.waitFor(/reloaded .* at http:/);
      const read = await fetch(`${base}/notes/${id}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id, text: 'kept' });

      writeFileSync(spec, BROKEN);
      await p.waitFor(/still serving the last good spec/);
      expect(p.stderr()).toMatch(/notes\.yaml:\d+:\d+: error unknown-resource: /);
      expect((await fetch(`${base}/notes/${id}`)).status).toBe(200);
      expect((await fetch(`${base}/notes`)).status).toBe(200);
    } finally {
      await p.stop();
    }
  });

  it('check runs again on each change and prints the new diagnostics', async () => {
    const spec = join(dir.path, 'check.yaml');
    writeFileSync(spec, SPEC);
    const p = startCli(['check', spec, '--watch']);
    try {
      await p.waitFor(/watching .* for changes/);
      expect(p.stdout()).toContain(`${spec}: no problems found\n`);
      writeFileSync(spec, BROKEN);
      await p.waitFor(/error unknown-resource/);
      writeFileSync(spec, SPEC);
      await p.waitFor(/no problems found[\s\S]*unknown-resource[\s\S]*no problems found/);
    } finally {
      expect(await p.stop()).toBe(0);
    }
  });
});
