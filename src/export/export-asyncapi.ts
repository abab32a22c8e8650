import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { getResource } from '../model/model-lookup.js';
import { getRoutes, type StreamRoute } from '../model/model-routes.js';
import { getResourceSchema, getShapeSchema, type SchemaOptions } from '../model/model-schemas.js';
import type { EventKindModel, ResourceModel, SchemeModel, ServiceModel, ShapeModel } from '../model/model-types.js';
import { fillBrokerTemplate, getBrokerKindBinding, parseBrokerTemplate } from '../model/model-broker.js';
import {
  annotateObjectSchema,
  code,
  diagnose,
  getEventDataSchema,
  getObjectBranches,
  NameAllocator,
  NamedShapeComponents,
  withRules,
  type ExportResult,
  type JsonObject,
} from './export-shared.js';
import { WEBHOOK_HEADERS } from './export-openapi.js';
import { getApiKeyPlacement, isRawEvent, NOT_SHOWN } from '../model/model-defaults.js';
import { eventsToSpec, namedShapesToSpec } from './model-to-spec.js';

// AsyncAPI 3.0 from the model: a channel for webhook delivery (to each subscriber's own URL, so no address)
// and one for the event stream (the stream route the runtime serves), a message per event kind on each, the
// payload schemas (the envelope `{ id, type, timestamp, version, data: { object, previous? } }` around the kind's payload, or the payload itself for a raw kind) and the Standard Webhooks
// signing headers. Retry schedules and what emits each kind go to `x-servicespec-events`, reported as diagnostics.

interface Context {
  model: ServiceModel;
  diagnostics: Diagnostic[];
  schemas: Record<string, JsonObject>;
  names: NameAllocator;
  resourceRefs: Map<string, string>;
  /** The named shapes' components: a use refers to its shape's (docs/format.md, "Named shapes"). */
  shapes: NamedShapeComponents;
  annotated: SchemaOptions;
}

function ref(path: string): JsonObject {
  return { $ref: path };
}

function note(ctx: Context, item: string, extension: string, pointer?: string): void {
  ctx.diagnostics.push(diagnose(ctx.model, 'export-extension', { item, target: 'AsyncAPI 3.0', extension }, pointer));
}

function resourceRef(ctx: Context, r: ResourceModel): JsonObject {
  let name = ctx.resourceRefs.get(r.name);
  if (name === undefined) {
    name = ctx.names.allocate(r.name);
    ctx.resourceRefs.set(r.name, name);
    const s = getResourceSchema(ctx.model, r, 'response', ctx.annotated) as JsonObject;
    // No event payload carries a write-only field (the runtime presents the object as it answers it).
    for (const b of getObjectBranches(s)) {
      for (const f of r.fields) if (f.writeOnly) delete (b.properties as JsonObject)[f.name];
      annotateObjectSchema(b, r.fields);
    }
    ctx.schemas[name] = s;
  }
  return ref(`#/components/schemas/${name}`);
}

function payloadSchema(ctx: Context, shape: ShapeModel | undefined): JsonObject {
  if (!shape) return {};
  const r = getResource(ctx.model, shape.resource);
  let s: JsonObject;
  if (r) s = resourceRef(ctx, r);
  else {
    s = getShapeSchema(ctx.model, { ...shape, list: false }, 'response', ctx.annotated) as JsonObject;
    if (shape.fields) annotateObjectSchema(s, shape.fields);
  }
  return shape.list ? { type: 'array', items: s } : s;
}

/**
 * The service's servers: one from a base address the spec shows with its scheme; else (not shown, or a template
 * without a scheme such as `{base_url}`) the placeholder once over https and once over http (the runtime serves plain HTTP; a proxy in front may add TLS), so
 * that no protocol is stated that the spec does not.
 */
function serversFor(base: string | undefined): Record<string, JsonObject> {
  const m = base === undefined ? null : /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/i.exec(base);
  const vars = Array.from((base ?? '').matchAll(/\{([^{}]+)\}/g), (x) => x[1] ?? '');
  const variables = (names: readonly string[]) =>
    Object.fromEntries(names.map((v) => [v, { description: `Supplied where the service is deployed (${NOT_SHOWN} in the spec).` }]));
  if (m) {
    const server: JsonObject = { host: m[2], protocol: m[1]!.toLowerCase(), ...(m[3] && m[3] !== '/' ? { pathname: m[3].replace(/\/+$/, '') } : {}) };
    server.description = `The address the service is deployed at${vars.length > 0 ? `: ${vars.map((v) => `{${v}}`).join(', ')} is supplied at deployment, not by the spec` : ''}.`;
    if (vars.length > 0) server.variables = variables(vars);
    return { service: server };
  }
  const placeholder = (protocol: string): JsonObject => ({
    host: base ?? '{base_url}',
    protocol,
    description: `The address the service is deployed at is ${base === undefined ? 'not shown in the spec' : 'supplied at deployment'}; reached over ${protocol} where it is deployed so.`,
    variables: variables(vars.length > 0 ? vars : ['base_url']),
    ...(base === undefined ? { 'x-servicespec-not-shown': true } : {}),
  });
  return { service: placeholder('https'), service_http: placeholder('http') };
}

function securityScheme(ctx: Context, s: SchemeModel): JsonObject {
  let out: JsonObject;
  switch (s.type) {
    case 'api_key':
      out = { type: 'httpApiKey', in: getApiKeyPlacement(s), name: s.credentialName ?? NOT_SHOWN };
      break;
    case 'basic':
      out = { type: 'http', scheme: 'basic' };
      break;
    case 'bearer':
      out = { type: 'http', scheme: 'bearer', ...(s.token === 'jwt' ? { bearerFormat: 'JWT' } : {}) };
      break;
    case 'oauth2_client_credentials': {
      // AsyncAPI wants an absolute token URL; the token endpoint is a path under the deploy-time address.
      // What reaches the channel is a bearer token, so that is what is declared, with the endpoint in words.
      out = { type: 'http', scheme: 'bearer', ...(s.token === 'jwt' ? { bearerFormat: 'JWT' } : {}) };
      const how = `A bearer token from the OAuth 2.0 client credentials grant at \`${s.tokenPath ?? NOT_SHOWN}\` (under the service's address).`;
      out.description = s.description !== undefined ? `${s.description} ${how}` : how;
      note(ctx, `scheme ${s.name}: the token endpoint (a path; AsyncAPI needs an absolute URL)`, 'the description of a bearer scheme', s.pointer);
      return out;
    }
  }
  if (s.description !== undefined) out.description = s.description;
  return out;
}

type Broker = NonNullable<NonNullable<ServiceModel['events']>['broker']>;
type MessageFor = (k: EventKindModel, suffix: string, headers: boolean) => string;

/**
 * events.delivery.broker: one channel per kind on each broker, its address the filled subject or routing key
 * (`{id}` kept as a channel parameter), with `nats` / `amqp` bindings. The broker's address is the operator's
 * (`serve --broker URL`), so the server's host is a variable.
 */
function brokerChannels(ctx: Context, broker: Broker, message: MessageFor, out: { servers: JsonObject; channels: JsonObject; operations: JsonObject }): void {
  const { model } = ctx;
  const kinds = model.events?.kinds ?? [];
  const slug = (kind: string) => kind.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase());
  const add = (protocol: 'nats' | 'amqp', template: string, description: string, channelBinding: JsonObject | undefined, messageHeaders: boolean) => {
    const server = protocol === 'nats' ? 'natsBroker' : 'amqpBroker';
    out.servers[server] = {
      host: '{broker}',
      protocol,
      description: `The ${protocol === 'nats' ? 'NATS (JetStream)' : 'AMQP 0-9-1 (RabbitMQ)'} broker the service publishes to: the operator's, given to \`serve --broker\`.`,
      variables: { broker: { description: 'The host and port of the broker, supplied where the service is deployed.' } },
    };
    const parts = parseBrokerTemplate(template);
    for (const k of kinds) {
      const b = getBrokerKindBinding(model, k);
      const address = fillBrokerTemplate(parts, b, '{id}');
      if (address === undefined) continue; // check reports the placeholder (broker-placeholder-unfilled)
      const key = `${protocol}${slug(k.name).replace(/^./, (c) => c.toUpperCase())}`;
      const m = message(k, protocol, messageHeaders);
      const channel: JsonObject = {
        address,
        title: `${k.name} on ${protocol === 'nats' ? 'NATS' : 'AMQP'}`,
        description,
        servers: [ref(`#/servers/${server}`)],
        messages: { [m]: ref(`#/components/messages/${m}`) },
      };
      if (parts.some((p) => 'placeholder' in p && p.placeholder === 'id'))
        channel.parameters = {
          id: {
            description: `The identifier of the ${b.resource ?? ''} the event is about, characters other than letters, digits, \`_\` and \`-\` written %XX.`,
          },
        };
      if (channelBinding) channel.bindings = { amqp: channelBinding };
      out.channels[key] = channel;
      out.operations[`publish${key.replace(/^./, (c) => c.toUpperCase())}`] = {
        action: 'send',
        title: `Publish ${k.name} to the ${protocol === 'nats' ? 'NATS' : 'AMQP'} broker`,
        channel: ref(`#/channels/${key}`),
        messages: [ref(`#/channels/${key}/messages/${m}`)],
        ...(protocol === 'nats' ? { bindings: { nats: { bindingVersion: '0.1.0' } } } : {}),
      };
    }
  };
  if (broker.nats) {
    ctx.schemas.NatsHeaders = {
      type: 'object',
      description: 'The headers of each message published to NATS.',
      properties: {
        'Nats-Msg-Id': {
          type: 'string',
          description: "The event's id: JetStream drops a message whose id it has seen within the stream's de-duplication window.",
        },
        'Content-Type': { type: 'string', const: 'application/json', description: 'The type of the message body.' },
      },
      required: ['Nats-Msg-Id', 'Content-Type'],
    };
    const stream =
      broker.nats.stream !== undefined
        ? ` The JetStream stream \`${broker.nats.stream}\` stores it.`
        : ' An existing JetStream stream must capture the subject.';
    add('nats', broker.nats.subject, `Each event is published once, in outbox order per object, with its id as \`Nats-Msg-Id\`.${stream}`, undefined, true);
  }
  if (broker.amqp) {
    add(
      'amqp',
      broker.amqp.routingKey,
      `Each event is published to exchange \`${broker.amqp.exchange}\` with this routing key, persistent, with publisher confirms, its id as the AMQP \`message-id\` and \`type\` its kind (at least once: a redelivery keeps the id).`,
      { is: 'routingKey', exchange: { name: broker.amqp.exchange }, bindingVersion: '0.3.0' },
      false,
    );
  }
}

/**
 * A copy with each schema's `discriminator` as AsyncAPI's Schema Object has it, the property name as a string (the
 * model's schemas carry OpenAPI's `{ propertyName }` object, which @asyncapi/parser refuses). Copies: the model's
 * schemas are shared with the other exports.
 */
function asyncApiDiscriminators(node: unknown, parentKey?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => asyncApiDiscriminators(n));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node as JsonObject)) {
    const d = v as { propertyName?: unknown } | null;
    const isSchemaKeyword = k === 'discriminator' && parentKey !== 'properties' && d !== null && typeof d === 'object' && typeof d.propertyName === 'string';
    out[k] = isSchemaKeyword ? d.propertyName : asyncApiDiscriminators(v, k);
  }
  return out;
}

/** The AsyncAPI 3.0 document for the service's events. */
export function exportAsyncApi(model: ServiceModel): ExportResult {
  const shapes = new NamedShapeComponents('#/components/schemas/');
  const annotated: SchemaOptions = { annotations: true, namedShape: (use) => shapes.refer(use) };
  const ctx: Context = { model, diagnostics: [], schemas: {}, names: new NameAllocator(), resourceRefs: new Map(), shapes, annotated };
  const events = model.events;
  const p = model.purpose;
  const info: JsonObject = { title: p?.name ?? NOT_SHOWN, version: model.versioning?.current ?? NOT_SHOWN };
  if (p?.name === undefined)
    ctx.diagnostics.push(diagnose(model, 'export-not-shown', { item: 'the service name', target: 'AsyncAPI 3.0', consequence: 'info.title says "not shown"' }));
  if (model.versioning?.current === undefined)
    ctx.diagnostics.push(
      diagnose(model, 'export-not-shown', { item: 'the current version', target: 'AsyncAPI 3.0', consequence: 'info.version says "not shown"' }),
    );
  const description = [p?.summary, p?.description].filter((x): x is string => x !== undefined).join('\n\n');
  if (description !== '') info.description = description;
  if (p?.contact) info.contact = { ...p.contact };

  const doc: JsonObject = { asyncapi: '3.0.0', info, defaultContentType: 'application/json' };
  const servers: JsonObject = {};
  const channels: JsonObject = {};
  const operations: JsonObject = {};
  const messages: JsonObject = {};
  const kinds = events?.kinds ?? [];
  let securitySchemes: JsonObject | undefined;

  // One envelope schema per kind, shared by both channels.
  const envelopes = new Map<string, JsonObject>();
  for (const k of kinds) {
    const payload = payloadSchema(ctx, k.payload && { ...k.payload, list: false });
    if (!k.payload)
      ctx.diagnostics.push(
        diagnose(
          model,
          'export-not-shown',
          {
            item: `the payload of event ${k.name}`,
            target: 'AsyncAPI 3.0',
            consequence: isRawEvent(k) ? 'its messages may be any JSON' : 'the `data.object` of its messages may be any JSON',
          },
          k.pointer,
        ),
      );
    // A raw kind's message is its payload itself (its id and time travel in the signing headers).
    if (isRawEvent(k)) {
      envelopes.set(k.name, payload);
      continue;
    }
    const name = ctx.names.allocate(
      `${k.name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^./, (c) => c.toUpperCase())}Event`,
    );
    ctx.schemas[name] = {
      type: 'object',
      description: k.description ?? `Event ${k.name}.`,
      properties: {
        id: { type: 'string', description: 'The event identifier; the same on every retry.' },
        type: { type: 'string', const: k.name, description: 'The event kind.' },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event happened.' },
        version: { type: 'string', description: 'The interface version the data is written in, where the spec has versions.' },
        data: getEventDataSchema(model, k, payload),
      },
      required: ['id', 'type', 'timestamp', 'data'],
    };
    envelopes.set(k.name, ref(`#/components/schemas/${name}`));
  }

  const message = (k: (typeof kinds)[number], suffix: string, headers: boolean): string => {
    const key = `${k.name}.${suffix}`;
    const m: JsonObject = { name: k.name, title: k.name, contentType: 'application/json', payload: envelopes.get(k.name) };
    if (k.description !== undefined) m.summary = k.description;
    const emitted = k.triggers.map((t) =>
      t.action === 'transition' ? `the ${t.resource} transition ${code(t.transition)}` : `${t.action} of a ${t.resource}`,
    );
    if (emitted.length > 0) m.description = `Sent on ${emitted.join(', ')}.`;
    if (headers) m.headers = ref(`#/components/schemas/${suffix === 'nats' ? 'NatsHeaders' : 'WebhookHeaders'}`);
    messages[key] = m;
    return key;
  };

  const webhook = events?.webhook;
  const register = getRoutes(model).find((r) => r.kind === 'webhooks' && r.action === 'add');
  if (webhook) {
    // A subscriber's URL may be https or http (the runtime delivers to both): one server for each.
    for (const [key, protocol] of [
      ['subscriber', 'https'],
      ['subscriber_http', 'http'],
    ] as const) {
      servers[key] = {
        host: '{subscriber}',
        protocol,
        description:
          register !== undefined
            ? `Each subscriber's own webhook endpoint with an ${protocol} URL, registered with \`POST ${register.path}\` on the service (see the OpenAPI document).`
            : `Each subscriber's own webhook endpoint with an ${protocol} URL; how subscribers register it is not shown in the spec.`,
        variables: { subscriber: { description: "The host of the subscriber's webhook URL." } },
      };
    }
    const signed = webhook.signing === 'standard-webhooks';
    if (signed) {
      ctx.schemas.WebhookHeaders = {
        type: 'object',
        description: 'The Standard Webhooks signing headers.',
        properties: {
          [WEBHOOK_HEADERS[0]]: { type: 'string', description: 'The message identifier; the same on every retry of this event.' },
          [WEBHOOK_HEADERS[1]]: { type: 'string', pattern: '^[0-9]+$', description: 'Seconds since the Unix epoch when the message was sent.' },
          [WEBHOOK_HEADERS[2]]: {
            type: 'string',
            description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures over `{webhook-id}.{webhook-timestamp}.{body}` with the subscriber's secret.",
          },
        },
        required: [...WEBHOOK_HEADERS],
      };
    } else {
      ctx.diagnostics.push(
        diagnose(
          model,
          'export-not-shown',
          { item: 'webhook signing', target: 'AsyncAPI 3.0', consequence: 'the webhook messages carry no signing headers' },
          '/events/delivery/webhook',
        ),
      );
    }
    const rules: string[] = [];
    if (webhook.retries) rules.push(`Retried after ${webhook.retries.map((r) => r.text).join(', ')} until a 2xx answer.`);
    if (webhook.timeout) rules.push(`Each attempt times out after ${webhook.timeout.text}.`);
    if (rules.length > 0)
      note(ctx, 'events.delivery.webhook: retry schedule and time-out', 'x-servicespec-events and the webhook channel description', '/events/delivery/webhook');
    const keys = kinds.map((k) => message(k, 'webhook', signed));
    channels.webhook = {
      address: null,
      title: 'Webhook delivery',
      description: withRules(
        `Each event is POSTed as JSON${signed ? ', signed per Standard Webhooks,' : ''} to the webhook URL of every subscriber whose registering credential may read its object (an operator's endpoint: every event).`,
        rules,
      ),
      servers: [ref('#/servers/subscriber'), ref('#/servers/subscriber_http')],
      messages: Object.fromEntries(keys.map((key) => [key, ref(`#/components/messages/${key}`)])),
    };
    operations.deliverWebhook = {
      action: 'send',
      title: 'Deliver an event to a subscriber',
      channel: ref('#/channels/webhook'),
      messages: keys.map((key) => ref(`#/channels/webhook/messages/${key}`)),
      bindings: { http: { method: 'POST' } },
    };
  }

  const stream = getRoutes(model).find((r): r is StreamRoute => r.kind === 'stream');
  if (stream) {
    const auth = model.authentication;
    const service = serversFor(model.endpoints?.baseUrl);
    const schemes = stream.auth?.kind === 'required' ? stream.auth.schemes : [];
    for (const server of Object.values(service)) {
      if (schemes.length > 0)
        server.security = schemes.filter((s) => auth?.schemes.some((x) => x.name === s)).map((s) => ref(`#/components/securitySchemes/${s}`));
    }
    Object.assign(servers, service);
    const keys = kinds.map((k) => message(k, 'stream', false));
    const rules: string[] = [];
    if (events?.stream?.heartbeat) rules.push(`A comment line is sent every ${events.stream.heartbeat.text} when no event is due.`);
    const channel: JsonObject = {
      address: stream.path,
      title: 'Event stream',
      description: withRules(
        "Server-sent events (`text/event-stream`) over a long-lived GET: each event's `event` field is its kind, `id` its position in the stream (send it back as `Last-Event-ID` to resume), `data` the JSON message. Only events whose object the credential may read are sent.",
        rules,
      ),
      servers: Object.keys(service).map((key) => ref(`#/servers/${key}`)),
      messages: Object.fromEntries(keys.map((key) => [key, ref(`#/components/messages/${key}`)])),
    };
    if (stream.pathParams.length > 0) {
      const v = model.versioning;
      const versions = [...new Set([...(v?.current !== undefined ? [v.current] : []), ...(v?.supported ?? []).map((s) => s.version)])];
      channel.parameters = Object.fromEntries(
        stream.pathParams.map((name) => [
          name,
          versions.length > 0 ? { description: 'The version of the interface.', enum: versions } : { description: 'The version of the interface.' },
        ]),
      );
    }
    channels.eventStream = channel;
    operations.streamEvents = {
      action: 'send',
      title: 'Stream events to a connected client',
      channel: ref('#/channels/eventStream'),
      messages: keys.map((key) => ref(`#/channels/eventStream/messages/${key}`)),
      bindings: { http: { method: 'GET' } },
    };
    if (rules.length > 0) note(ctx, 'events.delivery.stream: heartbeat', 'x-servicespec-events and the stream channel description', '/events/delivery/stream');
    if (auth && auth.schemes.length > 0) securitySchemes = Object.fromEntries(auth.schemes.map((s) => [s.name, securityScheme(ctx, s)]));
  }
  const broker = events?.broker;
  if (broker) brokerChannels(ctx, broker, message, { servers, channels, operations });
  for (const k of kinds)
    if (k.triggers.some((t) => t.action !== 'transition'))
      note(ctx, `event ${k.name}: what emits it`, 'x-servicespec-events and the message description', k.pointer);
  if (events && !webhook && !stream && !broker)
    ctx.diagnostics.push(
      diagnose(model, 'export-not-shown', { item: 'the event delivery mechanism', target: 'AsyncAPI 3.0', consequence: 'there are no channels' }, '/events'),
    );

  if (Object.keys(servers).length > 0) doc.servers = servers;
  ctx.shapes.publish({ channels, schemas: ctx.schemas, messages }, ctx.names, ctx.schemas);
  doc.channels = asyncApiDiscriminators(channels) as JsonObject;
  doc.operations = operations;
  const components: JsonObject = {};
  if (securitySchemes) components.securitySchemes = securitySchemes;
  if (Object.keys(ctx.schemas).length > 0) components.schemas = asyncApiDiscriminators(ctx.schemas) as JsonObject;
  if (Object.keys(messages).length > 0) components.messages = asyncApiDiscriminators(messages) as JsonObject;
  if (Object.keys(components).length > 0) doc.components = components;
  if (events) doc['x-servicespec-events'] = eventsToSpec(model);
  // The payloads' named shapes as written, which x-servicespec-events uses by name.
  const named = events ? namedShapesToSpec(model, [events]) : undefined;
  if (named) {
    doc['x-servicespec-shapes'] = named as unknown as JsonObject;
    note(ctx, `the named shapes of the payloads as written (${Object.keys(named).length})`, 'x-servicespec-shapes and their components', '/shapes');
  }
  return { document: doc, diagnostics: ctx.diagnostics };
}
