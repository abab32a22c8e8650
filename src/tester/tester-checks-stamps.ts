import { getStateField } from '../model/model-lookup.js';
import { isSuccessAnswer } from '../model/model-routes.js';
import { isAnswered } from '../model/model-schemas.js';
import { getStatePaths } from './tester-state-walks.js';
import { describe, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

// A transition's `stamp` is the time of that transition (docs/format.md, "states"): a read-only field no client
// writes and no other action sets. endpoints.valid-requests holds an update or replace to keep the create's time,
// but changes only new objects, which no transition has stamped: a service re-stamping the field on every save of
// a decided claim passed. Here each update and replace is sent to an object walked through a stamping transition,
// and must keep the stamp, in its answer and in a read after it.

/** The valid-requests probe of each update and replace of a resource whose transitions stamp a field. */
export async function checkStampsKept(ctx: TestContext): Promise<void> {
  if (!ctx.selected('endpoints', 'endpoints.valid-requests')) return;
  for (const route of ctx.routes) {
    const o = route.operation;
    const resource = route.resource;
    if ((o.action !== 'update' && o.action !== 'replace') || !resource) continue;
    const machine = ctx.model.stateMachines.find((m) => m.resource === resource.name);
    const field = machine && getStateField(ctx.model, machine);
    if (!machine || !field || machine.initial === undefined) continue;
    const transitions = ctx.routes.filter((r) => r.operation.action === 'transition' && r.resource?.name === resource.name && r.transition);
    const paths = getStatePaths(machine.initial, transitions);
    // The shortest walk that ends with a stamping transition.
    const walks = transitions
      .filter((r) => r.transition!.stamp !== undefined && isAnswered(resource, r.transition!.stamp))
      .flatMap((r) => r.transition!.from.flatMap((s) => (paths.has(s) ? [[...paths.get(s)!, r]] : [])))
      .sort((a, b) => a.length - b.length);
    const path = walks[0];
    if (!path) continue;
    const last = path.at(-1)!.transition!;
    const stamp = last.stamp!;
    const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource === resource);
    await ctx.check('endpoints', 'endpoints.valid-requests', `${o.id}: a ${resource.name} ${last.name} stamped`, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const made = await ctx.createObject(resource);
      if (!made || made.res.status >= 300) return scope.skip(`no ${resource.name} could be made`, 'not-run');
      const id = made.res.body?.[resource.identifier ?? 'id'];
      let walked: Record<string, unknown> | undefined;
      for (const r of path) {
        const h = await ctx.authFor(r.operation.auth);
        if (!h) return scope.skip(`no credential for ${r.operation.id}`);
        const res = await ctx.send(r, { method: r.method, path: ctx.pathOf(r, id), headers: h, body: await ctx.transitionBody(r, id) });
        // A walk that goes wrong is states.pairs' to fail.
        if (!isSuccessAnswer(r, res.status) || res.body?.[field] !== r.transition!.to)
          return scope.skip(`a ${resource.name} could not be walked through ${last.name} (${r.operation.id}: ${describe(res).slice(0, 120)})`, 'not-run');
        walked = res.body as Record<string, unknown>;
      }
      const was = walked?.[stamp];
      if (typeof was !== 'string') return;
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, body: await ctx.validBody(route, id) };
      const res = await ctx.send(route, req);
      // Refused (a rule of the service's about changing a decided object, which the spec does not state): not judged here.
      if (!isSuccessAnswer(route, res.status)) return;
      const same = (v: unknown) => typeof v === 'string' && Date.parse(v) === Date.parse(was);
      const expected = `field ${stamp}, stamped by ${last.name}, kept by the ${o.action} (${JSON.stringify(was)})`;
      if (res.status !== 204 && !same(res.body?.[stamp]))
        return scope.fail(ctx.failure(o.id, expected, last.pointer, req, `${stamp} is ${JSON.stringify(res.body?.[stamp]) ?? 'absent'}`));
      const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
      if (!read || !readHeaders) return;
      const getReq: TestRequest = { method: 'GET', path: ctx.pathOf(read, id), headers: readHeaders };
      const got = await ctx.send(read, getReq);
      if (isSuccessAnswer(read, got.status) && !same(got.body?.[stamp]))
        scope.fail({
          ...ctx.failure(o.id, `${expected}, as a read after it shows`, last.pointer, getReq, `${stamp} is ${JSON.stringify(got.body?.[stamp]) ?? 'absent'}`),
          curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: getReq }]),
        });
    });
  }
}
