// OpenAPI `callbacks` → endpoints.operations.<id>.callbacks. A callback the servicespec exporter wrote carries
// `x-servicespec-callback` (the URL's field and the event kinds) and comes back as it was. Another document's
// callback is kept when the format can say it: on a create, its URL a `uri` field of the request body
// (`{$request.body#/field}`), its one `post` sending the created resource (or fields holding its identifier) — its
// message becomes an event kind of its own (`body: raw`, as an imported webhook is). Any other is said, at its JSON
// pointer, with why: the format's callbacks carry events about the object a create makes, sent to a URL a request
// body field gives.

import type { Diagnostic, DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { parseCallbackExpression } from '../export/export-callbacks.js';
import type { Action, CallbackSpec, EventKindSpec, FieldSpec, ShapeSpec } from '../spec/spec-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { report } from './import-schema.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface CallbackSource {
  /** The OpenAPI operation's `callbacks`. */
  callbacks: unknown;
  /** The operation's JSON pointer. */
  pointer: string;
  operationId: string;
  action: Action;
  /** The created resource, its fields and identifier (for a create). */
  resource?: string;
  fields?: Record<string, FieldSpec>;
  identifier?: string;
  /** The member a wrapped request holds its body in (request_envelope): the URL field is under it. */
  wrap?: string;
  /** The shape a callback operation's request body reads as (undefined: none, or not one the format holds). */
  requestShape(op: Json, pointer: string): ShapeSpec | undefined;
  /** Adds an event kind for a kept callback's message; returns the name it was given. */
  addKind(name: string, kind: EventKindSpec): string;
}

export function importCallbacks(ctx: { file: string; diagnostics: Diagnostic[] }, src: CallbackSource): Record<string, CallbackSpec> | undefined {
  if (!isObject(src.callbacks)) return undefined;
  const out: Record<string, CallbackSpec> = {};
  const say = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => report(ctx, code, params, pointer);
  for (const [name, item] of Object.entries(src.callbacks)) {
    const at = joinPointer(joinPointer(src.pointer, 'callbacks'), name);
    const item_ = isObject(item) ? item : {};
    const expressions = Object.keys(item_);
    const drop = (reason: string, pointer = at) => say('import-dropped', { item: `operation ${src.operationId}: callback ${name}`, reason }, pointer);
    if (expressions.length !== 1) {
      drop(expressions.length === 0 ? 'it names no URL' : 'a callback sends to one URL (a request body field); this one names several');
      continue;
    }
    const expression = expressions[0]!;
    const pathItem = item_[expression];
    const where = joinPointer(at, expression);
    const methods = isObject(pathItem) ? Object.keys(pathItem).filter((k) => !k.startsWith('x-')) : [];
    const post = isObject(pathItem) && isObject(pathItem.post) ? pathItem.post : undefined;
    const x = post?.['x-servicespec-callback'];
    const field = parseCallbackExpression(expression, src.wrap);
    if (x !== undefined) {
      const ok =
        isObject(x) &&
        typeof x.url === 'string' &&
        x.url === field &&
        Array.isArray(x.events) &&
        x.events.length > 0 &&
        x.events.every((e) => typeof e === 'string') &&
        (x.description === undefined || typeof x.description === 'string');
      if (ok && methods.length === 1) {
        out[name] = {
          url: x.url as string,
          events: (x.events as string[]).slice(),
          ...(typeof x.description === 'string' ? { description: x.description } : {}),
        };
        continue;
      }
      say(
        'import-extension-invalid',
        {
          extension: 'x-servicespec-callback',
          where,
          detail: 'it needs `url` (the field the expression names) and `events` (a list of event kinds), on the only method',
        },
        joinPointer(joinPointer(where, 'post'), 'x-servicespec-callback'),
      );
    }
    if (src.action !== 'create') {
      drop(
        `the format's callbacks are on create operations (they carry the service's events about the object it creates); this operation is imported as ${src.action}`,
      );
      continue;
    }
    if (field === undefined) {
      drop(`its URL comes from \`${expression}\`; the format's callback URL is a request body field, \`{$request.body#/field}\``, where);
      continue;
    }
    if (src.fields?.[field]?.type !== 'uri') {
      drop(`its URL field \`${field}\` is not a uri field of the created ${src.resource ?? 'object'}`, where);
      continue;
    }
    if (!post || methods.length !== 1) {
      drop('a callback is one POST (a webhook delivery); this one has other methods', where);
      continue;
    }
    const postAt = joinPointer(where, 'post');
    const shape = src.requestShape(post, postAt);
    const about =
      shape !== undefined && !shape.list && (shape.resource === src.resource || (src.identifier !== undefined && shape.fields?.[src.identifier] !== undefined));
    if (!about) {
      drop(
        `its message does not carry the created ${src.resource ?? 'object'} or its identifier, so the service could not say which object an event is about`,
        joinPointer(postAt, 'requestBody'),
      );
      continue;
    }
    const description = typeof post.description === 'string' ? post.description : typeof post.summary === 'string' ? post.summary : undefined;
    const kind: EventKindSpec = {
      ...(description !== undefined ? { description } : {}),
      payload: shape,
      ...(shape.resource === undefined ? { resource: src.resource! } : {}),
      body: 'raw',
    };
    const kindName = src.addKind(`${src.resource!}.${name}`, kind);
    out[name] = { url: field, events: [kindName] };
    say(
      'import-approximated',
      {
        item: `operation ${src.operationId}: callback ${name}`,
        as: `a callback carrying the event kind \`${kindName}\` (its message, delivered raw)`,
        reason: 'nothing in the spec emits that kind yet: add the transition or change that sends it (`emits`, `on`)',
      },
      where,
    );
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
