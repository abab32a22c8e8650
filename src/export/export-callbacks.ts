// An operation's callbacks as OpenAPI `callbacks`: each callback is one runtime expression naming the request body
// field that carries the URL (`{$request.body#/callback_url}`), whose `post` is one delivery of the callback's
// events — the same body and Standard Webhooks headers the kind has under `webhooks`, one of them when it names
// several. `x-servicespec-callback` keeps the field and the kinds, which the body alone cannot say, for import.

import { REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import type { EventKindModel, OperationModel, ServiceModel } from '../model/model-types.js';
import type { JsonObject } from './export-shared.js';
import { escapePointerToken } from '../util/util-json-pointer.js';

/**
 * The runtime expression of the URL a callback sends to: the request body field holding it, under the request's
 * wrapper member where it has one (request_envelope: `{$request.body#/product/callback_url}`).
 */
export function callbackExpression(field: string, wrap?: string): string {
  return `{$request.body#/${wrap !== undefined ? `${escapePointerToken(wrap)}/` : ''}${escapePointerToken(field)}}`;
}

/** The field a `{$request.body#/field}` expression names (`#/<wrap>/field` under a wrapper); undefined for any other. */
export function parseCallbackExpression(expression: string, wrap?: string): string | undefined {
  const at = wrap !== undefined ? `${escapePointerToken(wrap).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\/` : '';
  const m = new RegExp(`^\\{\\$request\\.body#\\/${at}([^/{}]+)\\}$`).exec(expression);
  return m ? m[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

export function callbacksObject(
  model: ServiceModel,
  o: OperationModel,
  delivery: (k: EventKindModel) => { body: JsonObject; params: JsonObject[] },
): JsonObject {
  const out: JsonObject = {};
  for (const c of o.callbacks ?? []) {
    const kinds = c.events.flatMap((name) => model.events?.kinds.find((k) => k.name === name) ?? []);
    const deliveries = kinds.map(delivery);
    const body = deliveries.length === 1 ? deliveries[0]!.body : { oneOf: deliveries.map((d) => d.body) };
    const post: JsonObject = {
      summary: `Callback ${c.name}: ${c.events.join(', ')}`,
      description: `${c.description !== undefined ? `${c.description}\n\n` : ''}Sent to the URL in the request's \`${c.url}\` field when one of these events happens to the object this operation created: ${c.events.map((e) => `\`${e}\``).join(', ')}. Signed and retried as the webhooks are.`,
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: { '200': { description: 'Any 2xx status acknowledges the delivery; anything else is retried.' } },
      'x-servicespec-callback': { url: c.url, events: [...c.events], ...(c.description !== undefined ? { description: c.description } : {}) },
    };
    const params = deliveries[0]?.params ?? [];
    if (params.length > 0) post.parameters = params;
    // A wrapped request (request_envelope) holds the field under its member.
    const wrap = o.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(o.action) ? o.requestEnvelope.data : undefined;
    out[c.name] = { [callbackExpression(c.url, wrap)]: { post } };
  }
  return out;
}
