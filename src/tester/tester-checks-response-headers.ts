// endpoints.response-headers: a success answer carries each declared response header it must (operation
// .response_headers, docs/format.md "Response headers"), and each one present holds a value its declaration takes.
// The format's Location and Link are judged by endpoints.location and endpoints.list-paging. errors.answer-headers:
// an error answer's declared headers (errors.headers, errors.codes.<code>.headers), alike.

import { isStatusIn } from '../model/model-defaults.js';
import { getResponseHeaders, isErrorHeaderSent, readHeaderText } from '../model/model-response-headers.js';
import { getRouteErrors, type OperationRoute, type Route, type RouteError } from '../model/model-routes.js';
import { getFieldSchema } from '../model/model-schemas.js';
import type { ParameterModel } from '../model/model-types.js';
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
    const m = headerValueMismatch(ctx, p, text);
    if (m !== undefined) return m;
  }
  return undefined;
}

/**
 * An error answer's declared headers (errors.headers, and its code's: the code the body names, else the one code of
 * its status or range the route can answer — any declared code where no route matched): each required one the
 * service sends is there, each present one reads as its type and meets its constraints. Undefined when they hold.
 */
export function errorHeadersMismatch(ctx: TestContext, route: Route | undefined, res: TestResponse): string | undefined {
  const errors = ctx.model.errors;
  if (!errors) return undefined;
  const body = res.body as Record<string, unknown> | undefined;
  const answerable: readonly Pick<RouteError, 'code' | 'status' | 'statusRange'>[] = route
    ? getRouteErrors(ctx.model, route)
    : errors.codes.map((c) => ({ code: c.name, status: c.status, ...(c.statusRange !== undefined ? { statusRange: c.statusRange } : {}) }));
  const candidates = answerable.filter((c) => isStatusIn(res.status, c.status, c.statusRange));
  const named = candidates.find((c) => Object.values(body ?? {}).includes(c.code));
  const pick = named ?? (candidates.length === 1 ? candidates[0] : undefined);
  const code = pick ? errors.codes.find((c) => c.name === pick.code) : undefined;
  for (const p of [...errors.headers, ...(code?.headers ?? [])]) {
    const text = res.headers.get(p.name);
    if (text === null) {
      if (!p.optional && isErrorHeaderSent(code, p)) return `no ${p.name} header (declared required${code ? ` on ${code.name}` : ''})`;
      continue;
    }
    const m = headerValueMismatch(ctx, p, text);
    if (m !== undefined) return m;
  }
  return undefined;
}

/** Whether the spec declares any header of error answers (errors.answer-headers judges nothing otherwise). */
export function hasErrorHeaders(ctx: TestContext): boolean {
  const errors = ctx.model.errors;
  return errors !== undefined && (errors.headers.length > 0 || errors.codes.some((c) => c.headers.length > 0));
}

/** What is wrong with a declared header's text (its type, its constraints), or undefined when nothing is. */
function headerValueMismatch(ctx: TestContext, p: ParameterModel, text: string): string | undefined {
  let value: unknown;
  try {
    value = readHeaderText(p, text);
  } catch (err) {
    return `${p.name}: ${JSON.stringify(text)} ${(err as Error).message}`;
  }
  const m = ctx.mismatch(getFieldSchema(ctx.model, { ...p, nullable: false }, undefined, {}), value);
  return m === undefined ? undefined : `${p.name}: ${JSON.stringify(text)}: ${m}`;
}
