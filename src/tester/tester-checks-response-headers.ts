// endpoints.response-headers: a success answer carries each declared response header it must (operation
// .response_headers, docs/format.md "Response headers"), and each one present holds a value its declaration takes.
// The format's Location and Link are judged by endpoints.location and endpoints.list-paging.

import { getResponseHeaders, readHeaderText } from '../model/model-response-headers.js';
import type { OperationRoute } from '../model/model-routes.js';
import { getFieldSchema } from '../model/model-schemas.js';
import type { TestContext } from './tester-context.js';
import type { TestResponse } from './tester-http.js';

/** What is wrong with a success answer's declared headers, or undefined when nothing is. */
export function responseHeadersMismatch(ctx: TestContext, route: OperationRoute, res: TestResponse): string | undefined {
  for (const h of getResponseHeaders(ctx.model, route)) {
    if (h.source !== 'declared') continue;
    const p = h.header!;
    const text = res.headers.get(p.name);
    if (text === null) {
      if (h.required) return `no ${p.name} header (declared required)`;
      continue;
    }
    let value: unknown;
    try {
      value = readHeaderText(p, text);
    } catch (err) {
      return `${p.name}: ${JSON.stringify(text)} ${(err as Error).message}`;
    }
    const m = ctx.mismatch(getFieldSchema(ctx.model, { ...p, nullable: false }, undefined, {}), value);
    if (m !== undefined) return `${p.name}: ${JSON.stringify(text)}: ${m}`;
  }
  return undefined;
}
