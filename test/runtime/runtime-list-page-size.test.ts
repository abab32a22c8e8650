// A list's own page sizes (paging.page_size) served and tested: one list capped at 25, another at limits.page_size's
// 100. The runtime refuses 26 on the first and answers it on the second (fast paths on and off); the contract tester
// holds each list to its own maximum, and never sends a list a page size over it as a valid request (an outside
// sweep's false failure: limit=26 sent as valid to a list capped at 25).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startProxy } from '../tester/mutant-proxy.js';
import { startService, type Running } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 100 }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note, paging: { style: offset, page_size: { max: 25, over_max: reject } } }
    listAll: { method: GET, path: /all-notes, action: list, resource: Note, paging: { style: offset } }
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100, over_max: reject }
${PLAIN_ERRORS}`;

const checked = compileSpecText(SPEC).checked!;

for (const fastPaths of [true, false])
  describe(`a list's own maximum page size, served (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(checked, { fastPaths });
    });
    afterAll(async () => {
      await s?.close();
    });
    it('refuses more than its own maximum; another list keeps limits.page_size', async () => {
      expect((await s.call('GET', '/notes?limit=25')).status).toBe(200);
      const over = await s.call('GET', '/notes?limit=26');
      expect(over.status).toBe(422);
      expect(JSON.stringify(over.body)).toContain('limit');
      expect((await s.call('GET', '/all-notes?limit=26')).status).toBe(200);
      expect((await s.call('GET', '/all-notes?limit=101')).status).toBe(422);
    });
  });

describe("the contract tester and a list's own maximum", () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(checked, { fastPaths: true });
  });
  afterAll(async () => {
    await s?.close();
  });
  const only = ['endpoints.valid-requests', 'limits'];

  it('passes the served spec: each list held to its own maximum, no valid request over it', async () => {
    const sizes: number[] = [];
    const proxy = await startProxy(s.url, {
      observe: (req, res) => {
        const m = /^\/notes\?(?:.*&)?limit=(\d+)/.exec(req.path);
        if (m && res.status === 200) sizes.push(Number(m[1]));
      },
    });
    try {
      const report = await testService(checked, { baseUrl: proxy.url, seed: 1, only });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
      const targets = report.results.filter((x) => x.check === 'limits.page-size' && x.outcome === 'passed').map((x) => x.target);
      expect(targets).toEqual(expect.arrayContaining(['listNotes max 25', 'listAll max 100']));
      expect(Math.max(...sizes)).toBe(25);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('fails a service that lets the capped list answer more than 25', async () => {
    // The mutant asks the service for 25 where the request said more, and answers 200: the cap is not held.
    const proxy = await startProxy(s.url, {
      request: (req) => {
        const m = /^\/notes\?(.*&)?limit=(\d+)(.*)$/.exec(req.path);
        return m && Number(m[2]) > 25 ? { ...req, path: `/notes?${m[1] ?? ''}limit=25${m[3]}` } : req;
      },
    });
    try {
      const report = await testService(checked, { baseUrl: proxy.url, seed: 1, only });
      const failed = report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.spec]);
      // Said at the list's own paging.page_size, not at limits.page_size.
      expect(failed).toEqual([['limits.page-size', 'listNotes max 25', expect.stringContaining('/endpoints/operations/listNotes/paging/page_size/over_max')]]);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
