// A custom action on one object below a parent (`POST /projects/{project_id}/issues/{id}/lock`) whose object the run
// could not make: errors.missing-object and errors.malformed-id fill the parent's parameter with a drawn value. Before,
// it was left empty (`/projects//issues/…/lock`): a path no route names, so the answer judged was the router's, and a
// served spec's 501 for it failed endpoints.no-server-error (found by the tracker sweep).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Issue:
    fields:
      id: { type: string, pattern: '^[0-9]+$', readOnly: true }
      project_id: { type: string, pattern: '^[a-z0-9]+$' }
      title: { type: string }
endpoints:
  operations:
    getIssue: { method: GET, path: '/projects/{project_id}/issues/{id}', action: read, resource: Issue, bind: { project_id: project_id, id: id } }
    lockIssue:
      method: POST
      path: '/projects/{project_id}/issues/{id}/lock'
      action: custom
      handler: lock
      request: { fields: { project_id: { type: string, optional: true }, id: { type: string, optional: true } } }
      response: { resource: Issue }
      errors: [not_found, invalid]
authentication:
  default: none
${PLAIN_ERRORS}`;

describe('a parent parameter of an action on an object the run could not make', () => {
  const paths: string[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      paths.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        res.writeHead(404, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'not_found', status: 404, code: 'not_found' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());

  it('is drawn, never left empty', async () => {
    const r = await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['errors.missing-object', 'errors.malformed-id'] });
    const lock = paths.filter((p) => p.endsWith('/lock'));
    expect(lock.length).toBeGreaterThan(0);
    expect(lock.filter((p) => p.includes('//'))).toEqual([]);
    expect(r.results.filter((x) => x.target === 'lockIssue' && x.outcome === 'failed')).toEqual([]);
  }, 60_000);
});
