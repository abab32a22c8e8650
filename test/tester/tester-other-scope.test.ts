// errors.other-scope: with `bind` to a scope (a task's project_id under /projects/{projectId}/tasks/{taskId}), a task
// made under one project and addressed by its identifier under another project that exists must be missing there,
// and a list under the other project must not hold it (a service finding it anyway is OWASP API1, BOLA). The runtime
// passes; a proxy in front of it that finds tasks through any project's path (it rewrites the project to the task's
// own), or that lists every project's tasks, fails the check. The scope's value is a Project the run made first
// (primeScopes: `/projects/{projectId}` reads one), and the other scope a second Project.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { loadModel, startService, type Running } from '../runtime/helpers.js';

const SPEC = new URL('../fixtures/bound-read-only.yaml', import.meta.url).pathname;
const ITEM = /^\/projects\/([^/]+)\/tasks\/([^/?]+)(.*)$/;
const LIST = /^\/projects\/([^/]+)\/tasks(\?.*)?$/;

/** A proxy to `target` planting `fault`: `read-any` finds a task through any project's path, `list-all` lists every task. */
function faultyProxy(target: string, fault: 'read-any' | 'list-all' | 'list-stray'): Promise<{ url: string; server: Server }> {
  const projectOf = new Map<string, string>();
  const body = (req: IncomingMessage) =>
    new Promise<Buffer>((ok) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c)).on('end', () => ok(Buffer.concat(parts)));
    });
  const server = createServer((req, res) => {
    void (async () => {
      let path = req.url ?? '/';
      const item = ITEM.exec(path);
      if (fault === 'read-any' && item && projectOf.has(item[2]!)) path = `/projects/${projectOf.get(item[2]!)!}/tasks/${item[2]!}${item[3]!}`;
      const sent = await body(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
      const forward = (p: string) => fetch(`${target}${p}`, { method: req.method, headers, ...(sent.length > 0 ? { body: sent } : {}) });
      let answer = await forward(path);
      let text = await answer.text();
      const list = LIST.exec(path);
      if (req.method === 'POST' && list && answer.status === 201) projectOf.set((JSON.parse(text) as { id: string }).id, list[1]!);
      if ((fault === 'list-all' || fault === 'list-stray') && req.method === 'GET' && list && answer.status === 200) {
        const items = (JSON.parse(text) as { items: unknown[] }).items;
        for (const p of new Set(projectOf.values())) {
          if (p === list[1]) continue;
          answer = await forward(`/projects/${p}/tasks`);
          const others = (JSON.parse(await answer.text()) as { items: { id: string }[] }).items ?? [];
          // list-stray: another project's tasks, none of them the one a check looks for (as if it were on a later page).
          items.push(...(fault === 'list-all' ? others : others.map((t) => ({ ...t, id: randomUUID() }))));
        }
        text = JSON.stringify({ ...(JSON.parse(text) as object), items });
      }
      res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => k !== 'content-length' && k !== 'transfer-encoding')));
      res.end(text);
    })().catch((err: unknown) => {
      res.writeHead(502).end(String(err));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

const results = (report: TestReport) =>
  report.results.filter((r) => r.check === 'errors.other-scope').map((r) => [r.target, r.outcome, r.reason ?? r.failure?.expected] as const);

describe('errors.other-scope', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(SPEC));
  });
  afterAll(async () => s?.close());

  it('the runtime: every operation binding project_id passes, under a project the run made', async () => {
    const report = await testService(loadModel(SPEC), { baseUrl: s.url, seed: 7, runs: 3 });
    expect(results(report).sort()).toEqual(['deleteTask', 'getTask', 'listTasks', 'replaceTask', 'updateTask'].map((t) => [t, 'passed', undefined] as const));
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
    // Every task went under a project that exists: the scope is a Project the run made.
    const tasks = await s.storage.read((tx) => tx.list('Task', { equals: {}, limit: 1000 }));
    expect(tasks.length).toBeGreaterThan(0);
    for (const p of new Set(tasks.map((t) => String(t['project_id'])))) expect((await s.call('GET', `/projects/${p}`)).status, p).toBe(200);
  }, 120_000);

  for (const [fault, failing] of [
    ['read-any', ['deleteTask', 'getTask', 'replaceTask', 'updateTask']],
    ['list-all', ['listTasks']],
    ['list-stray', ['listTasks']],
  ] as const) {
    it(`a service that ${fault === 'read-any' ? 'finds a task through another project' : fault === 'list-all' ? 'lists every project’s tasks' : 'lists other projects’ tasks but the one looked for'} fails it`, async () => {
      const proxy = await faultyProxy(s.url, fault);
      try {
        const report = await testService(loadModel(SPEC), {
          baseUrl: proxy.url,
          seed: 7,
          runs: 3,
          only: fault === 'list-stray' ? ['endpoints.valid-requests', 'errors.other-scope'] : ['errors.other-scope'],
        });
        const failed = results(report).filter(([, outcome]) => outcome === 'failed');
        expect(failed.map(([t]) => t).sort()).toEqual([...failing]);
        expect(failed[0]![2]).toMatch(/(another project_id|in the list under project_id|project_id is .*, as the path says \(the list under project_id)/);
      } finally {
        proxy.server.closeAllConnections();
        await new Promise((ok) => proxy.server.close(ok));
      }
    }, 120_000);
  }
});
