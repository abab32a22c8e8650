// OpenAPI `callbacks` → endpoints.operations.<id>.callbacks. A callback the servicespec exporter wrote carries
// `x-servicespec-callback` (the URL's field and the event kinds) and comes back as it was. Any other is said, at its
// JSON pointer, with why the format cannot keep it: its callbacks carry the service's own events about the object a
// create makes, sent to a URL a request body field gives — not a message of the document's own, nor a URL from a
// query parameter.

import type { Diagnostic, DiagnosticCode } from '../diagnostics/diagnostics-catalogue.js';
import { parseCallbackExpression } from '../export/export-callbacks.js';
import type { Action, CallbackSpec } from '../spec/spec-types.js';
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
}

export function importCallbacks(ctx: { file: string; diagnostics: Diagnostic[] }, src: CallbackSource): Record<string, CallbackSpec> | undefined {
  if (!isObject(src.callbacks)) return undefined;
  const out: Record<string, CallbackSpec> = {};
  const say = (code: DiagnosticCode, params: Record<string, string>, pointer: string) => report(ctx, code, params, pointer);
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
    const field = parseCallbackExpression(expression);
    if (x !== undefined) {
      const ok = isObject(x) && typeof x.url === 'string' && x.url === field && Array.isArray(x.events) && x.events.length > 0 && x.events.every((e) => typeof e === 'string') && (x.description === undefined || typeof x.description === 'string');
      if (ok && methods.length === 1) {
        out[name] = { url: x.url as string, events: (x.events as string[]).slice(), ...(typeof x.description === 'string' ? { description: x.description } : {}) };
        continue;
      }
      say('import-extension-invalid', { extension: 'x-servicespec-callback', where, detail: 'it needs `url` (the field the expression names) and `events` (a list of event kinds), on the only method' }, joinPointer(joinPointer(where, 'post'), 'x-servicespec-callback'));
    }
    if (src.action !== 'create') drop(`the format's callbacks are on create operations (they carry the service's events about the object it creates); this operation is imported as ${src.action}`);
    else if (field === undefined) drop(`its URL comes from \`${expression}\`; the format's callback URL is a request body field, \`{$request.body#/field}\``, where);
    else drop(`its message is the document's own; the format's callbacks carry event kinds the spec declares about the created object (declare them under events.kinds and name them in the callback)`, where);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
