// events.delivery.broker: what NATS or RabbitMQ would refuse, found before `serve --broker` meets it (unknown or
// unfillable placeholders, subjects, stream, exchange and routing-key names the broker does not take).

import {
  fillBrokerTemplate,
  getAmqpExchangeProblem,
  getAmqpRoutingKeyProblem,
  getBrokerKindBinding,
  getNatsStreamNameProblem,
  getNatsSubjectProblem,
  isBrokerPlaceholder,
  parseBrokerTemplate,
  type BrokerKindBinding,
} from '../model/model-broker.js';
import type { ServiceModel } from '../model/model-types.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

const BASE = '/events/delivery/broker';
/** An identifier stand-in while checking a filled subject: one plain token. */
const SAMPLE_ID = 'ID';

/** Reports the template's unknown placeholders and those a kind cannot fill; true when every kind can be filled. */
function checkTemplate(template: string, where: string, pointer: string, bindings: readonly BrokerKindBinding[], report: Report): boolean {
  const parts = parseBrokerTemplate(template);
  let ok = true;
  for (const p of parts) {
    if ('text' in p) continue;
    if (!isBrokerPlaceholder(p.placeholder)) {
      // The message names the placeholders a template may use, braces and all: passed as themselves.
      report('broker-placeholder-unknown', { where, placeholder: p.placeholder, kind: '{kind}', resource: '{resource}', id: '{id}' }, pointer);
      ok = false;
      continue;
    }
    if (p.placeholder === 'kind') continue;
    // One report per placeholder: the first kind that cannot fill it.
    const bad = bindings.find((b) => (p.placeholder === 'resource' ? b.resource === undefined : b.idField === undefined));
    if (bad) {
      report(
        'broker-placeholder-unfilled',
        { where, placeholder: p.placeholder, kind: bad.kind, reason: (p.placeholder === 'resource' ? bad.whyNoResource : bad.whyNoId) ?? '' },
        pointer,
      );
      ok = false;
    }
  }
  return ok;
}

export function checkBroker(model: ServiceModel, report: Report): void {
  const broker = model.events?.broker;
  if (!broker) return;
  const bindings = model.events!.kinds.map((k) => getBrokerKindBinding(model, k));
  if (broker.nats) {
    const pointer = `${BASE}/nats/subject`;
    if (checkTemplate(broker.nats.subject, 'events.delivery.broker.nats.subject', pointer, bindings, report)) {
      const parts = parseBrokerTemplate(broker.nats.subject);
      for (const b of bindings) {
        const subject = fillBrokerTemplate(parts, b, SAMPLE_ID)!;
        const why = getNatsSubjectProblem(subject);
        if (why !== undefined) {
          report('broker-subject-invalid', { kind: b.kind, subject, reason: why }, pointer);
          break;
        }
      }
    }
    if (broker.nats.stream !== undefined) {
      const why = getNatsStreamNameProblem(broker.nats.stream);
      if (why !== undefined) report('broker-stream-name-invalid', { name: broker.nats.stream, reason: why }, `${BASE}/nats/stream`);
    }
  }
  if (broker.amqp) {
    const why = getAmqpExchangeProblem(broker.amqp.exchange);
    if (why !== undefined) report('broker-exchange-invalid', { name: broker.amqp.exchange, reason: why }, `${BASE}/amqp/exchange`);
    const pointer = `${BASE}/amqp/routing_key`;
    if (checkTemplate(broker.amqp.routingKey, 'events.delivery.broker.amqp.routing_key', pointer, bindings, report)) {
      const parts = parseBrokerTemplate(broker.amqp.routingKey);
      for (const b of bindings) {
        const key = fillBrokerTemplate(parts, b, SAMPLE_ID)!;
        const problem = getAmqpRoutingKeyProblem(key);
        if (problem !== undefined) {
          report('broker-routing-key-invalid', { kind: b.kind, key, reason: problem }, pointer);
          break;
        }
      }
    }
  }
}
