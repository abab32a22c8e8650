// Response envelopes (docs/format.md, "Response envelopes"): the answer's text wrapped in the operation's envelope,
// `{"data":<answer>,…}`, each other field written from the value the runtime knows for it. Built once per route; a
// route without an envelope gets none of this (no cost per request).

import { STATUS_CODES } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { RouteHandler } from './runtime-context.js';
import { ServiceError } from './runtime-errors.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { getEnvelopeConstants, getEnvelopeValues, listHasValue } from '../model/model-envelope.js';
import { DEFAULT_PAGING } from '../model/model-defaults.js';
import type { EnvelopeModel, FieldModel, OperationModel } from '../model/model-types.js';
import type { EnvelopeSource } from '../spec/spec-types.js';

/** What a list answer knows of its page. */
export interface EnvelopeListValues {
  total: number;
  count: number;
  offset: number;
  limit: number;
  page: number;
  nextCursor: string | null;
  /** The number of pages (the total divided by the page size, rounded up). */
  pages: number;
  /** This page's whole address, as asked; the first, next and previous pages' (null where there is none). */
  selfLink: string;
  firstLink: string | null;
  nextLink: string | null;
  previousLink: string | null;
  /** The last page's whole address (the first page's when nothing matches); null where the style has no last page. */
  lastLink: string | null;
}

/** Wraps an answer's JSON text (the data) in the envelope. */
export type EnvelopeWriter = (data: string, request: FastifyRequest, status: number, list?: EnvelopeListValues) => string;

interface Node {
  key: string;
  source?: EnvelopeSource;
  /** A constant's JSON text (a field's `default`), written on every answer. */
  constant?: string;
  children?: Node[];
  /** An optional field that may not hold null (Kubernetes' metadata.continue): left out rather than null. */
  noNull?: boolean;
}

function valueText(source: EnvelopeSource, request: FastifyRequest, status: number, list: EnvelopeListValues | undefined): string | undefined {
  switch (source) {
    case 'status':
      return String(status);
    case 'status_text':
      return JSON.stringify(STATUS_CODES[status] ?? '');
    case 'request_id':
      return JSON.stringify(String(request.id));
    case 'next':
      return list === undefined ? undefined : JSON.stringify(list.nextCursor);
    case 'self_link':
      return list === undefined ? undefined : JSON.stringify(list.selfLink);
    case 'first_link':
      return list === undefined ? undefined : JSON.stringify(list.firstLink);
    case 'next_link':
      return list === undefined ? undefined : JSON.stringify(list.nextLink);
    case 'previous_link':
      return list === undefined ? undefined : JSON.stringify(list.previousLink);
    case 'last_link':
      return list === undefined ? undefined : JSON.stringify(list.lastLink);
    default:
      return list === undefined ? undefined : String(list[source]);
  }
}

export function createEnvelopeWriter(op: OperationModel, envelope: EnvelopeModel): EnvelopeWriter {
  const style = (op.paging ?? DEFAULT_PAGING).style;
  const values = getEnvelopeValues(op, envelope).filter((v) => op.action !== 'list' || listHasValue(style, v.source));
  const bySource = new Map(values.map((v) => [v.path.join('.'), v.source]));
  const constants = new Map(getEnvelopeConstants(envelope).map((c) => [c.path.join('.'), JSON.stringify(c.value)]));
  const filled = [...bySource.keys(), ...constants.keys()];
  // The fields a value or a constant fills, and the objects holding them, in the order declared; the rest are never written.
  const build = (fields: readonly FieldModel[], prefix: string): Node[] =>
    fields.flatMap((f): Node[] => {
      const path = prefix + f.name;
      const source = bySource.get(path);
      if (source !== undefined) return [{ key: JSON.stringify(f.name), source, ...(f.nullable ? {} : { noNull: true }) }];
      const constant = constants.get(path);
      if (constant !== undefined) return [{ key: JSON.stringify(f.name), constant }];
      if (f.type !== 'object' || !filled.some((p) => p.startsWith(`${path}.`))) return [];
      return [{ key: JSON.stringify(f.name), children: build(f.fields ?? [], `${path}.`) }];
    });
  const nodes = build(envelope.fields, '');
  const dataKey = `{${JSON.stringify(envelope.data)}:`;
  // Each member with a comma before it; an object nothing was written in is left out.
  const write = (list: readonly Node[], request: FastifyRequest, status: number, page: EnvelopeListValues | undefined): string => {
    let out = '';
    for (const n of list) {
      let v: string | undefined;
      if (n.children) {
        const inner = write(n.children, request, status, page);
        v = inner === '' ? undefined : `{${inner.slice(1)}}`;
      } else v = n.constant ?? valueText(n.source!, request, status, page);
      if (v !== undefined && !(n.noNull === true && v === 'null')) out += `,${n.key}:${v}`;
    }
    return out;
  };
  return (data, request, status, page) => `${dataKey}${data}${write(nodes, request, status, page)}}`;
}

/**
 * A request wrapper (`request_envelope`, docs/format.md "Request envelopes"): the handler gets the body the data
 * member holds, and the validation issues it raises point into that member (`/product/title`). A body that is not
 * an object holding that one member is refused before the handler runs; an absent body stays absent (the action's
 * own rule: a create needs one, a transition may go without).
 */
export function unwrapRequestEnvelope(data: string, handler: RouteHandler): RouteHandler {
  const prefix = joinPointer('', data);
  const inside = (err: unknown): unknown =>
    err instanceof ServiceError && err.condition === 'validation' && err.invalid !== undefined
      ? new ServiceError(
          err.condition,
          err.detail,
          err.invalid.map((i) => (i.pointer !== undefined && i.in === undefined ? { ...i, pointer: prefix + i.pointer } : i)),
          err.headers,
          err.code,
        )
      : err;
  return (request, reply) => {
    const body = request.body;
    if (body !== undefined) {
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ServiceError('validation', `the body must be a JSON object holding ${data}`, [{ pointer: '', message: `must be an object holding ${data}` }]);
      const others = Object.keys(body).filter((k) => k !== data);
      if (others.length > 0)
        throw new ServiceError(
          'validation',
          `the body holds ${data} alone`,
          others.map((k) => ({ pointer: joinPointer('', k), message: `unknown field ${k}: the body holds ${data} alone` })),
        );
      if (!Object.hasOwn(body, data)) throw new ServiceError('validation', `the body must hold ${data}`, [{ pointer: prefix, message: `${data} is required` }]);
      request.body = (body as Record<string, unknown>)[data];
    }
    let out: unknown;
    try {
      out = handler(request, reply);
    } catch (err) {
      throw inside(err);
    }
    return out instanceof Promise
      ? out.catch((err: unknown) => {
          throw inside(err);
        })
      : out;
  };
}
