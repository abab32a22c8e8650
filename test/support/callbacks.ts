import { readFileSync } from 'node:fs';
import { EVENTS_SPEC } from '../events/helpers.js';

// A spec with callbacks, modelled on OpenAPI's callback example: a subscription whose create request gives the URL
// (`callbackUrl`) that later events about it are POSTed to.
export const CALLBACK_SPEC = `servicespec: 1
purpose:
  name: Streams
resources:
  Subscription:
    fields:
      id: { type: uuid, readOnly: true }
      callbackUrl: { type: uri, description: the location where data will be sent }
      topic: { type: string }
      status: { type: state }
states:
  Subscription:
    initial: active
    transitions:
      cancel: { from: active, to: cancelled, emits: subscription.cancelled }
endpoints:
  operations:
    subscribe:
      method: POST
      path: /streams
      action: create
      resource: Subscription
      summary: subscribes a client to receive out-of-band data
      callbacks:
        onData:
          url: callbackUrl
          events: [subscription.updated, subscription.cancelled]
          description: Data about the subscription.
    getSubscription: { method: GET, path: "/streams/{id}", action: read, resource: Subscription, summary: Read one. }
    updateSubscription: { method: PATCH, path: "/streams/{id}", action: update, resource: Subscription, summary: Change one. }
    cancelSubscription: { method: POST, path: "/streams/{id}/cancel", action: transition, resource: Subscription, transition: cancel, summary: Cancel one. }
authentication:
  default: none
events:
  delivery:
    webhook: { signing: standard-webhooks, retries: [5s, 1m], timeout: 10s }
  kinds:
    subscription.updated: { payload: { resource: Subscription }, on: [update] }
    subscription.cancelled: { payload: { resource: Subscription }, body: raw }
errors:
  body: problem
  codes:
    any_error: { status: 500, when: [validation, malformed_request, unsupported_media_type, missing_resource, route_not_found, method_not_allowed, illegal_transition, body_too_large, internal] }
`;

/** The events fixture (test/events/fixtures/events.yaml) with a callback on createTicket: started and finished, to `callback_url`. */
export function callbackSpecText(): string {
  const text = readFileSync(EVENTS_SPEC, 'utf8')
    .replace(
      '      points: { type: integer, minimum: 0, maximum: 100, optional: true }\n',
      '      points: { type: integer, minimum: 0, maximum: 100, optional: true }\n      callback_url: { type: uri, optional: true }\n',
    )
    .replace(
      'createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, auth: none }',
      'createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, auth: none, callbacks: { progress: { url: callback_url, events: [ticket.started, ticket.finished] } } }',
    );
  if (!text.includes('callbacks:') || !text.includes('callback_url: { type: uri'))
    throw new Error('the events fixture changed: the callback spec could not be made from it');
  return text;
}
