// The declared headers of a success answer (operation.response_headers, docs/runtime.md "Response headers"): one
// with a `default` is sent by the service; the others a custom operation's handler sets with `ctx.header`. A handler
// that leaves a required one out, or sets one its declaration refuses, has broken the contract: the answer is not
// sent — it is logged at error level and answered `internal` (500), as a body off its declared shape is, so a
// client never gets an answer the spec says cannot happen. Routes that declare none pay nothing.

import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { DERIVED_RESPONSE_HEADERS, formatHeaderValue, readHeaderText } from '../../model/model-response-headers.js';
import type { OperationRoute } from '../../model/model-routes.js';
import { getFieldSchema } from '../../model/model-schemas.js';
import type { ParameterModel, ServiceModel } from '../../model/model-types.js';
import type { RouteHandler } from '../runtime-context.js';
import { ServiceError } from '../runtime-errors.js';
import type { Validator } from '../runtime-validation.js';

type Compile = (schema: Record<string, unknown>) => Validator;

/** A header value a handler may set: text, a number, a boolean, or a list of them (joined with `, `). */
export type HeaderValue = string | number | boolean | readonly (string | number | boolean)[];

/** The declared headers' defaults as [name, text], or undefined when none has one. */
function defaultsOf(route: OperationRoute): [string, string][] | undefined {
  const out = route.operation.responseHeaders.filter((h) => h.hasDefault).map((h) => [h.name, formatHeaderValue(h.default)] as [string, string]);
  return out.length > 0 ? out : undefined;
}

/**
 * A built-in action's handler with its declared headers' defaults on the success answer (and `extra`, the service's
 * own: UNSET_FIELDS_HEADER); the handler itself when there are none. Set before the action runs (it sends its own answer), taken off again when it fails.
 */
export function withDefaultHeaders(route: OperationRoute, handler: RouteHandler, extra?: readonly [string, string][]): RouteHandler {
  const declared = defaultsOf(route);
  const defaults = extra && extra.length > 0 ? [...(declared ?? []), ...extra] : declared;
  if (!defaults) return handler;
  const clear = (reply: FastifyReply) => {
    if (!reply.sent) for (const [name] of defaults) reply.removeHeader(name);
  };
  return (request, reply) => {
    for (const [name, text] of defaults) reply.header(name, text);
    try {
      const out = handler(request, reply);
      if (out instanceof Promise)
        return out.catch((err: unknown) => {
          clear(reply);
          throw err;
        });
      return out;
    } catch (err) {
      clear(reply);
      throw err;
    }
  };
}

/** What a custom handler's headers are checked and sent with; undefined when the route declares none. */
export interface HandlerHeaders {
  /** Checks the headers a handler set against the declared ones and puts them on the reply; throws `internal` on a breach. */
  apply(set: ReadonlyMap<string, { name: string; value: HeaderValue }>, reply: FastifyReply, log: FastifyBaseLogger): void;
}

/** The `ctx.header` a handler gets: records the header (case-insensitive), refusing the ones the service writes itself. */
export function createHeaderSetter(set: Map<string, { name: string; value: HeaderValue }>): (name: string, value: HeaderValue) => void {
  return (name, value) => {
    const key = name.toLowerCase();
    const reserved = DERIVED_RESPONSE_HEADERS.get(key);
    if (reserved !== undefined) throw new TypeError(`ctx.header: ${name} is written by the service (${reserved})`);
    set.set(key, { name, value });
  };
}

export function createHandlerHeaders(model: ServiceModel, route: OperationRoute, compile: Compile): HandlerHeaders {
  const declared = route.operation.responseHeaders.map((h) => ({
    h,
    key: h.name.toLowerCase(),
    check: compile(getFieldSchema(model, { ...h, nullable: false }, undefined, { safeIntegers: true })),
    fallback: h.hasDefault ? formatHeaderValue(h.default) : undefined,
  }));
  const keys = new Set(declared.map((d) => d.key));
  return {
    apply(set, reply, log) {
      const broken: { header: string; message: string }[] = [];
      const out: [string, string][] = [];
      for (const d of declared) {
        const given = set.get(d.key);
        if (given === undefined) {
          if (d.fallback !== undefined) out.push([d.h.name, d.fallback]);
          else if (!d.h.optional) broken.push({ header: d.h.name, message: 'is required and the handler did not set it' });
          continue;
        }
        const text = formatHeaderValue(given.value);
        const why = invalidHeader(d.h, d.check, text);
        if (why !== undefined) broken.push({ header: d.h.name, message: why });
        else out.push([d.h.name, text]);
      }
      if (broken.length > 0) {
        log.error({ operation: route.operation.id, headers: broken }, 'custom handler did not set the declared response headers');
        throw new ServiceError('internal', 'the service produced an invalid response');
      }
      for (const [name, text] of out) reply.header(name, text);
      // Headers the spec does not declare are the handler's to send.
      for (const [key, { name, value }] of set) if (!keys.has(key)) reply.header(name, formatHeaderValue(value));
    },
  };
}

function invalidHeader(h: ParameterModel, check: Validator, text: string): string | undefined {
  try {
    check(readHeaderText(h, text));
    return undefined;
  } catch (err) {
    return err instanceof ServiceError ? (err.invalid?.[0]?.message ?? 'is not a valid value') : (err as Error).message;
  }
}
