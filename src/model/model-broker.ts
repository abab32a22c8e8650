// events.delivery.broker: the subject (NATS) and routing key (AMQP) templates, read one way by the checker, the
// AsyncAPI export, the document and the relay. A template is text with `{kind}`, `{resource}` and `{id}` in it:
//   {kind}      the event kind's name (dots and all: `book.created` fills `library.{kind}` as `library.book.created`)
//   {resource}  the one resource the kind carries (its payload's, or the resource whose changes emit it)
//   {id}        the identifier of the object the event is about (a payload that carries the identifier field)

import type { EventKindModel, EventsModel, ResourceModel, ServiceModel } from './model-types.js';

export const BROKER_PLACEHOLDERS = ['kind', 'resource', 'id'] as const;
export type BrokerPlaceholder = (typeof BROKER_PLACEHOLDERS)[number];

export type BrokerTemplatePart = { text: string } | { placeholder: string };

/** Splits a template at its `{name}` placeholders (any name: the checker reports the unknown ones). */
export function parseBrokerTemplate(template: string): BrokerTemplatePart[] {
  const parts: BrokerTemplatePart[] = [];
  const re = /\{([^{}]*)\}/g;
  let last = 0;
  for (let m = re.exec(template); m !== null; m = re.exec(template)) {
    if (m.index > last) parts.push({ text: template.slice(last, m.index) });
    parts.push({ placeholder: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

export function isBrokerPlaceholder(name: string): name is BrokerPlaceholder {
  return (BROKER_PLACEHOLDERS as readonly string[]).includes(name);
}

/** The resources an event kind carries: its payload's, and those whose changes emit it. */
export function getEventKindResources(k: EventKindModel): string[] {
  const out = new Set<string>();
  if (k.payload?.resource !== undefined) out.add(k.payload.resource);
  for (const t of k.triggers) out.add(t.resource);
  return [...out];
}

/** What `{resource}` and `{id}` are for a kind, and why not when they cannot be filled. */
export interface BrokerKindBinding {
  kind: string;
  resource?: string;
  /** The identifier field the event's object carries (`data.object[idField]`). */
  idField?: string;
  whyNoResource?: string;
  whyNoId?: string;
}

export function getBrokerKindBinding(model: ServiceModel, k: EventKindModel): BrokerKindBinding {
  const resources = getEventKindResources(k);
  if (resources.length !== 1) {
    const why = resources.length === 0 ? 'it carries no resource' : `it carries resources ${resources.join(', ')}`;
    return { kind: k.name, whyNoResource: why, whyNoId: why };
  }
  const resource = resources[0]!;
  const r: ResourceModel | undefined = model.resources.find((x) => x.name === resource);
  if (r?.identifier === undefined) return { kind: k.name, resource, whyNoId: `resource ${resource} has no identifier field` };
  // The emitter sends the declared payload's fields when it lists them, the whole object otherwise.
  if (k.payload?.fields && !k.payload.fields.some((f) => f.name === r.identifier)) {
    return { kind: k.name, resource, whyNoId: `its payload does not carry ${resource}'s identifier field ${r.identifier}` };
  }
  return { kind: k.name, resource, idField: r.identifier };
}

/**
 * A value as one subject token / routing-key word: characters other than letters, digits, `_` and `-` are written
 * as `%XX` (UTF-8), so an identifier with a dot, a space or a wildcard stays one token.
 */
export function encodeBrokerToken(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/** Fills a template; `{id}` becomes `idText` (a wildcard when making a stream's subject filter). */
export function fillBrokerTemplate(parts: readonly BrokerTemplatePart[], b: BrokerKindBinding, idText: string | undefined): string | undefined {
  let out = '';
  for (const p of parts) {
    if ('text' in p) out += p.text;
    else if (p.placeholder === 'kind') out += b.kind;
    else if (p.placeholder === 'resource') {
      if (b.resource === undefined) return undefined;
      out += b.resource;
    } else if (p.placeholder === 'id') {
      if (idText === undefined) return undefined;
      out += idText;
    } else return undefined;
  }
  return out;
}

/** A NATS stream name the server accepts: printable, no whitespace, `.`, `*`, `>`, path separators; at most 255. */
export function getNatsStreamNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > 255) return 'it is longer than 255 characters';
  if (/[\s.*>/\\]/u.test(name)) return 'it contains whitespace, `.`, `*`, `>`, `/` or `\\`';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(name)) return 'it contains a control character';
  return undefined;
}

/** A concrete NATS subject to publish on: no empty token, no whitespace, no wildcard. */
export function getNatsSubjectProblem(subject: string): string | undefined {
  if (subject.length === 0) return 'it is empty';
  if (/\s/u.test(subject)) return 'it contains whitespace';
  const tokens = subject.split('.');
  if (tokens.some((t) => t === '')) return 'it has an empty token (a leading, trailing or doubled `.`)';
  if (tokens.some((t) => t === '*' || t === '>' || t.includes('*') || t.includes('>')))
    return 'it contains a wildcard (`*` or `>`), which a published subject cannot';
  if (tokens[0]!.startsWith('$')) return 'it starts with `$`, which NATS reserves for its own subjects ($JS, $SYS, …)';
  return undefined;
}

/** An AMQP exchange name RabbitMQ accepts to publish to: letters, digits, `-_.:`, at most 255 bytes, not `amq.`-prefixed. */
export function getAmqpExchangeProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty (the default exchange routes by queue name, not by event)';
  if (Buffer.byteLength(name) > 255) return 'it is longer than 255 bytes';
  if (!/^[A-Za-z0-9_.:-]+$/u.test(name)) return 'it may hold only letters, digits, `-`, `_`, `.` and `:`';
  if (name.startsWith('amq.')) return 'names starting with `amq.` are reserved by the broker';
  return undefined;
}

/** An AMQP routing key: at most 255 bytes (a short string), no wildcard (`*`, `#` bind, they do not route). */
export function getAmqpRoutingKeyProblem(key: string): string | undefined {
  if (Buffer.byteLength(key) > 255) return 'it is longer than 255 bytes';
  if (/[*#]/u.test(key)) return 'it contains `*` or `#`, which are binding wildcards, not routing key words';
  return undefined;
}

/** The NATS subjects a named stream is created with: one per kind, `{id}` as the one-token wildcard `*`. */
export function getNatsStreamSubjects(model: ServiceModel, events: EventsModel): string[] {
  const nats = events.broker?.nats;
  if (!nats) return [];
  const parts = parseBrokerTemplate(nats.subject);
  const out = new Set<string>();
  for (const k of events.kinds) {
    const s = fillBrokerTemplate(parts, getBrokerKindBinding(model, k), '*');
    if (s !== undefined) out.add(s);
  }
  return [...out];
}
