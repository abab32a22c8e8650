import { describe, expect, it } from 'vitest';
import { DIAGNOSTICS, type DiagnosticCode } from '../../src/diagnostics/diagnostics-catalogue.js';
import { CONDITIONS } from '../../src/spec/spec-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { brief, CATCH_ALL_ERRORS, markedLine, yaml } from './helpers.js';

interface RuleCase {
  code: DiagnosticCode;
  /** The spec; the line marked `# <-` is where the diagnostic must point. */
  spec: string;
  /** [text, replacement]: the edit that removes the diagnostic. */
  fix: [string, string];
  /** Append an error code that declares every condition (so operations raise no undeclared-condition). */
  errors?: boolean;
  /** A fragment the message must contain (a did-you-mean, a name). */
  message?: string;
}

const STATE_RESOURCE = yaml`
  resources:
    Order:
      fields:
        id: { type: uuid, readOnly: true }
        status: { type: state }
`;

const CASES: RuleCase[] = [
  // ── references ─────────────────────────────────────────────────────────────
  {
    code: 'unknown-resource',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            customer: { type: ref, to: Custmer } # <-
        Customer:
          fields:
            id: { type: uuid }
    `,
    fix: ['to: Custmer', 'to: Customer'],
    message: 'did you mean `Customer`?',
  },
  {
    code: 'unknown-field',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
            status: { type: string }
      endpoints:
        operations:
          listOrders:
            method: GET
            path: /orders
            action: list
            resource: Order
            filter: [stauts] # <-
    `,
    fix: ['[stauts]', '[status]'],
    errors: true,
    message: 'did you mean `status`?',
  },
  {
    code: 'unknown-transition',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          terminal: [shipped]
          transitions:
            ship: { from: pending, to: shipped }
      endpoints:
        operations:
          shipOrder:
            method: POST
            path: /orders/{id}/ship
            action: transition
            resource: Order
            transition: shp # <-
    `,
    fix: ['transition: shp', 'transition: ship'],
    errors: true,
    message: 'did you mean `ship`?',
  },
  {
    code: 'unknown-state',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pendng # <-
          states:
            pending: {}
            shipped: { terminal: true }
          transitions:
            ship: { from: pending, to: shipped }
    `,
    fix: ['initial: pendng', 'initial: pending'],
    message: 'did you mean `pending`?',
  },
  {
    code: 'unknown-event',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          terminal: [shipped]
          transitions:
            ship: { from: pending, to: shipped, emits: order.shiped } # <-
      events:
        kinds:
          order.shipped: { on: [update], payload: { resource: Order } }
    `,
    fix: ['emits: order.shiped', 'emits: order.shipped'],
    message: 'did you mean `order.shipped`?',
  },
  {
    code: 'unknown-scope',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          listOrders:
            method: GET
            path: /orders
            action: list
            resource: Order
            auth:
              schemes: [key]
              scopes: ["orders:raed"] # <-
      authentication:
        schemes:
          key: { type: api_key, in: header, name: X-Key }
        scopes:
          "orders:read": Read orders.
    `,
    fix: ['orders:raed', 'orders:read'],
    errors: true,
    message: 'did you mean `orders:read`?',
  },
  {
    code: 'unknown-scheme',
    spec: yaml`
      servicespec: 1
      authentication:
        schemes:
          key: { type: api_key, in: header, name: X-Key }
        default:
          schemes: [kye] # <-
    `,
    fix: ['[kye]', '[key]'],
    message: 'did you mean `key`?',
  },
  {
    code: 'unknown-error-code',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          getOrder:
            method: GET
            path: /orders/{id}
            action: read
            resource: Order
            errors: [any_eror] # <-
    `,
    fix: ['[any_eror]', '[any_error]'],
    errors: true,
    message: 'did you mean `any_error`?',
  },
  {
    code: 'unknown-operation',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          listOrders: { method: GET, path: /orders, action: list, resource: Order }
      limits:
        rate:
          - requests: 10
            per: 1m
            operations: [listOrder] # <-
    `,
    fix: ['[listOrder]', '[listOrders]'],
    errors: true,
    message: 'did you mean `listOrders`?',
  },
  // ── state machines ─────────────────────────────────────────────────────────
  {
    code: 'unreachable-state',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          states:
            pending: {}
            shipped: { terminal: true }
            archived: { terminal: true } # <-
          transitions:
            ship: { from: pending, to: shipped }
    `,
    fix: ['{ from: pending, to: shipped }', '{ from: pending, to: shipped }\n      archive: { from: pending, to: archived }'],
  },
  {
    code: 'dead-end-state',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          states:
            pending: {}
            shipped: {} # <-
          transitions:
            ship: { from: pending, to: shipped }
    `,
    fix: ['shipped: {}', 'shipped: { terminal: true }'],
  },
  {
    code: 'terminal-state-has-exit',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          terminal: [shipped]
          transitions:
            ship: { from: pending, to: shipped }
            unship: { from: shipped, to: pending } # <-
    `,
    fix: ['    unship: { from: shipped, to: pending } # <-\n', ''],
  },
  {
    code: 'missing-initial-state',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order: # <-
          terminal: [shipped]
          transitions:
            ship: { from: pending, to: shipped }
    `,
    fix: ['terminal: [shipped]', 'initial: pending\n    terminal: [shipped]'],
  },
  {
    code: 'terminal-conflict',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          terminal: [shipped]
          states:
            pending: {}
            shipped: { terminal: false } # <-
            done: { terminal: true }
          transitions:
            ship: { from: pending, to: shipped }
            finish: { from: shipped, to: done }
    `,
    fix: ['terminal: [shipped]', 'terminal: [done]'],
  },
  {
    code: 'state-field-mismatch',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
            status: { type: state }
            note: { type: string }
      states:
        Order:
          field: note # <-
          initial: pending
          terminal: [shipped]
          transitions:
            ship: { from: pending, to: shipped }
    `,
    fix: ['field: note', 'field: status'],
  },
  {
    code: 'missing-state-machine',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
            status: { type: state } # <-
    `,
    fix: ['status: { type: state }', 'status: { type: string }'],
  },
  // ── operations ─────────────────────────────────────────────────────────────
  {
    code: 'duplicate-route',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order }
          fetchOrder: { method: GET, path: "/orders/{key}", action: read, resource: Order } # <-
    `,
    fix: ['fetchOrder: { method: GET, path: "/orders/{key}"', 'fetchOrder: { method: GET, path: "/orders/{key}/again"'],
    errors: true,
    message: 'operations `getOrder` and `fetchOrder` both answer GET',
  },
  {
    code: 'ambiguous-route',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: string }
      endpoints:
        operations:
          getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order }
          summary: { method: GET, path: /orders/summary, action: custom, handler: summary, response: { fields: { count: { type: integer } } } } # <-
    `,
    fix: ['path: /orders/summary', 'path: /order-summary'],
    errors: true,
  },
  {
    code: 'unbound-path-parameter',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          listOrders: { method: GET, path: "/shops/{shop}/orders", action: list, resource: Order } # <-
    `,
    fix: ['/shops/{shop}/orders', '/orders'],
    errors: true,
  },
  {
    code: 'missing-path-parameter',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          getOrder: { method: GET, path: /orders, action: read, resource: Order } # <-
    `,
    fix: ['path: /orders', 'path: "/orders/{id}"'],
    errors: true,
    message: '`/orders/{id}`',
  },
  {
    code: 'invalid-path',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          listOrders: { method: GET, path: "/orders/{all", action: list, resource: Order } # <-
    `,
    fix: ['"/orders/{all"', '/orders'],
    errors: true,
  },
  {
    code: 'action-needs-resource',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          listOrders: { method: GET, path: /orders, action: list } # <-
    `,
    fix: ['action: list }', 'action: list, resource: Order }'],
    errors: true,
  },
  {
    code: 'action-needs-transition',
    spec: yaml`
      servicespec: 1
      ${STATE_RESOURCE}
      states:
        Order:
          initial: pending
          terminal: [shipped]
          transitions:
            ship: { from: pending, to: shipped }
      endpoints:
        operations:
          shipOrder: { method: POST, path: "/orders/{id}/ship", action: transition, resource: Order } # <-
    `,
    fix: ['resource: Order }', 'resource: Order, transition: ship }'],
    errors: true,
  },
  {
    code: 'transition-without-machine',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          shipOrder: { method: POST, path: "/orders/{id}/ship", action: transition, resource: Order, transition: ship } # <-
    `,
    fix: [
      '{ method: POST, path: "/orders/{id}/ship", action: transition, resource: Order, transition: ship }',
      '{ method: PATCH, path: "/orders/{id}", action: update, resource: Order }',
    ],
    errors: true,
  },
  {
    code: 'method-action-mismatch',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          getOrder: { method: POST, path: "/orders/{id}", action: read, resource: Order } # <-
    `,
    fix: ['method: POST', 'method: GET'],
    errors: true,
    message: 'action read is usually GET, not POST',
  },
  {
    code: 'custom-needs-shape',
    spec: yaml`
      servicespec: 1
      endpoints:
        operations:
          quote: { method: POST, path: /quotes, action: custom, handler: quote, request: { fields: { sku: { type: string } } } } # <-
    `,
    fix: ['} } } }', '} } }, response: { fields: { amount: { type: integer } } } }'],
    errors: true,
  },
  {
    code: 'custom-needs-handler',
    spec: yaml`
      servicespec: 1
      endpoints:
        operations:
          health: { method: GET, path: /health, action: custom, response: { fields: { ok: { type: boolean } } } } # <-
    `,
    fix: ['action: custom,', 'action: custom, handler: health,'],
    errors: true,
  },
  {
    code: 'misplaced-option',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
            status: { type: string }
      endpoints:
        operations:
          getOrder:
            method: GET
            path: "/orders/{id}"
            action: read
            resource: Order
            filter: [status] # <-
    `,
    fix: ['      filter: [status] # <-\n', ''],
    errors: true,
  },
  // ── events ─────────────────────────────────────────────────────────────────
  {
    code: 'undeclared-event-emission',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      events:
        kinds:
          order.created: { payload: { resource: Order } } # <-
    `,
    fix: ['{ payload: { resource: Order } }', '{ on: [create], payload: { resource: Order } }'],
  },
  {
    code: 'event-payload-unknown',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      events:
        kinds:
          order.created: { resource: Order, on: [create] } # <-
    `,
    fix: ['on: [create] }', 'on: [create], payload: { resource: Order } }'],
  },
  {
    code: 'event-trigger-without-resource',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      events:
        kinds:
          order.created:
            on: [create] # <-
            payload: { fields: { id: { type: uuid } } }
    `,
    fix: ['on: [create] # <-', 'on: [create]\n      resource: Order'],
  },
  {
    code: 'event-union-payload-triggered',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      events:
        kinds:
          order.created:
            on: [create]
            resource: Order
            payload: { variants: { a: { fields: { x: { type: integer } } } } } # <-
    `,
    fix: ['payload: { variants: { a: { fields: { x: { type: integer } } } } } # <-', 'payload: { resource: Order }'],
  },
  // ── errors ─────────────────────────────────────────────────────────────────
  {
    code: 'undeclared-condition',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order }
      errors: # <-
        codes:
          everything_else: { status: 400, when: [${CONDITIONS.filter((c) => c !== 'internal').join(', ')}] }
    `,
    fix: ['] }', '] }\n    internal: { status: 500, when: [internal] }'],
    message: 'condition `internal`',
  },
  {
    code: 'duplicate-condition',
    spec: yaml`
      servicespec: 1
      errors:
        codes:
          invalid: { status: 422, when: [validation] }
          bad: { status: 400, when: [validation] } # <-
    `,
    fix: ['when: [validation] } # <-', 'when: [malformed_request] }'],
  },
  {
    code: 'error-status-not-error',
    spec: yaml`
      servicespec: 1
      errors:
        codes:
          moved: { status: 301 } # <-
    `,
    fix: ['status: 301', 'status: 410'],
  },
  {
    code: 'error-body-missing-field',
    spec: yaml`
      servicespec: 1
      errors:
        body: # <-
          fields:
            message: { type: string }
    `,
    fix: ['message: { type: string }', 'message: { type: string }\n      code: { type: string }'],
  },
  {
    code: 'error-body-field-unknown',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            err: { type: string, optional: true }
          code: eror # <-
    `,
    fix: ['code: eror', 'code: err'],
    message: 'did you mean',
  },
  {
    code: 'error-body-field-unknown',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            error:
              type: object
              optional: true
              fields:
                code: { type: string }
          code: error.cod # <-
    `,
    fix: ['code: error.cod', 'code: error.code'],
    message: 'did you mean `error.code`',
  },
  {
    code: 'error-body-field-type',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            error:
              type: object
              fields:
                code: { type: boolean } # <-
          code: error.code
        codes:
          missing: { status: 404 }
    `,
    fix: ['code: { type: boolean }', 'code: { type: string }'],
    message: 'error.code',
  },
  {
    code: 'error-body-field-unfilled',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            error:
              type: object
              fields:
                code: { type: string }
                trace: { type: string } # <-
          code: error.code
    `,
    fix: ['trace: { type: string }', 'trace: { type: string, optional: true }'],
    message: 'error.trace',
  },
  {
    code: 'error-body-field-type',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            err: { type: boolean } # <-
          code: err
        codes:
          missing: { status: 404 }
    `,
    fix: ['err: { type: boolean }', 'err: { type: integer }'],
  },
  {
    code: 'error-body-field-type',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            code: { type: enum, values: [missing, broken] }
            status: { type: integer, maximum: 499 } # <-
        codes:
          missing: { status: 404 }
          broken: { status: 500 }
    `,
    fix: ['maximum: 499', 'maximum: 599'],
    message: 'refuse 500',
  },
  {
    code: 'error-body-field-unfilled',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            code: { type: string }
            trace: { type: string } # <-
    `,
    fix: ['trace: { type: string }', 'trace: { type: string, optional: true }'],
  },
  {
    code: 'error-body-media-type',
    spec: yaml`
      servicespec: 1
      errors:
        body:
          fields:
            code: { type: string }
          media_type: text/plain # <-
    `,
    fix: ['media_type: text/plain', 'media_type: application/vnd.x.error+json'],
  },
  // ── limits ─────────────────────────────────────────────────────────────────
  {
    code: 'page-size-default-above-max',
    spec: yaml`
      servicespec: 1
      limits:
        page_size:
          default: 200 # <-
          max: 100
    `,
    fix: ['default: 200', 'default: 20'],
  },
  {
    code: 'duplicate-rate-limit',
    spec: yaml`
      servicespec: 1
      limits:
        rate:
          - { requests: 100, per: 1m, by: credential }
          - { requests: 50, per: 1m, by: credential } # <-
    `,
    fix: ['{ requests: 50, per: 1m', '{ requests: 50, per: 1s'],
  },
  // ── fields ─────────────────────────────────────────────────────────────────
  {
    code: 'invalid-pattern',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            code: { type: string, pattern: "^[A-Z" } # <-
    `,
    fix: ['"^[A-Z"', '"^[A-Z]"'],
  },
  {
    code: 'invalid-constraint-range',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            amount: { type: integer, minimum: 10, maximum: 1 } # <-
    `,
    fix: ['minimum: 10', 'minimum: 0'],
    message: 'minimum (10) is above maximum (1)',
  },
  {
    code: 'required-in-requests-unused',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            note: { type: string, requiredInRequests: true } # <-
    `,
    fix: ['requiredInRequests: true', 'default: none, requiredInRequests: true'],
    message: '`requiredInRequests` has no effect on a field without a `default`',
  },
  {
    code: 'constraint-type-mismatch',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            amount: { type: integer, maxLength: 3 } # <-
    `,
    fix: ['maxLength: 3', 'maximum: 3'],
  },
  {
    code: 'enum-needs-values',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            colour: { type: enum } # <-
    `,
    fix: ['{ type: enum }', '{ type: enum, values: [red, blue] }'],
  },
  {
    code: 'ref-needs-target',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            customer: { type: ref } # <-
        Customer:
          fields:
            id: { type: uuid }
    `,
    fix: ['{ type: ref }', '{ type: ref, to: Customer }'],
  },
  {
    code: 'array-needs-items',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            tags: { type: array } # <-
    `,
    fix: ['{ type: array }', '{ type: array, items: { type: string } }'],
  },
  {
    code: 'value-violates-field',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            quantity: { type: integer, minimum: 1, default: 0 } # <-
    `,
    fix: ['default: 0', 'default: 1'],
    message: 'below minimum 1',
  },
  {
    code: 'readonly-without-source',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid, readOnly: true }
            placed_at: { type: datetime, readOnly: true } # <-
    `,
    fix: ['readOnly: true } # <-', 'readOnly: true, generated: create_time }'],
  },
  {
    code: 'write-only-invalid',
    spec: yaml`
      servicespec: 1
      resources:
        User:
          fields:
            id: { type: uuid, readOnly: true }
            password: { type: string, readOnly: true, optional: true, writeOnly: true } # <-
    `,
    fix: ['readOnly: true, optional: true, writeOnly', 'writeOnly'],
    message: 'User.password: a write-only field cannot also be read-only',
  },
  {
    code: 'generated-type-mismatch',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid, readOnly: true }
            placed_at: { type: string, readOnly: true, generated: create_time } # <-
    `,
    fix: ['type: string', 'type: datetime'],
    message: '`generated` needs a date or datetime field, not string',
  },
  // ── identifiers and owners ─────────────────────────────────────────────────
  {
    code: 'identifier-missing',
    spec: yaml`
      servicespec: 1
      resources:
        Order: # <-
          fields:
            code: { type: string }
      endpoints:
        operations:
          getOrder: { method: GET, path: "/orders/{code}", action: read, resource: Order }
    `,
    fix: ['  Order: # <-', '  Order: # <-\n    identifier: code'],
    errors: true,
  },
  {
    code: 'name-style',
    spec: yaml`
      servicespec: 1
      resources:
        Lease:
          fields:
            apiVersion: { type: string } # <-
    `,
    fix: ['apiVersion', 'api_version'],
    message: 'Lease.apiVersion: field name `apiVersion` is not snake_case',
  },
  {
    code: 'identifier-invalid',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid, optional: true } # <-
      endpoints:
        operations:
          getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    `,
    fix: ['{ type: uuid, optional: true }', '{ type: uuid }'],
    errors: true,
    message: 'cannot be optional or nullable',
  },
  {
    code: 'owner-field-invalid',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          owner: owner
          fields:
            id: { type: uuid }
            owner: { type: integer, readOnly: true } # <-
    `,
    fix: ['{ type: integer, readOnly: true }', '{ type: string, readOnly: true }'],
  },
  {
    code: 'owner-without-credential',
    spec: yaml`
      servicespec: 1
      resources:
        Note:
          owner: owner
          fields:
            id: { type: uuid, readOnly: true }
            owner: { type: string, readOnly: true }
      authentication:
        schemes: { key: { type: api_key, name: X-Key } }
      endpoints:
        operations:
          getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none } # <-
    `,
    errors: true,
    fix: ['auth: none }', 'auth: { schemes: [key] } }'],
  },
  // ── versioning ─────────────────────────────────────────────────────────────
  {
    code: 'missing-version-placement',
    spec: yaml`
      servicespec: 1
      versioning: # <-
        scheme: integer
        current: 2
    `,
    fix: ['current: 2', 'current: 2\n  placement: { header: Api-Version }'],
  },
  {
    code: 'version-placement-unused',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: integer
        current: 2
        placement: { path: /v2 } # <-
    `,
    fix: ['/v2 }', '"/v{version}" }'],
  },
  {
    code: 'version-media-type-invalid',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: integer
        current: 2
        placement: { media_type: "application/vnd.garden+json" } # <-
    `,
    fix: ['vnd.garden+json', 'vnd.garden.v{version}+json'],
  },
  {
    code: 'version-media-type-invalid',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: integer
        current: 2
        placement: { media_type: "text/vnd.garden.v{version}" } # <-
    `,
    fix: ['text/vnd.garden.v{version}', 'application/json; v={version}'],
  },
  {
    code: 'invalid-version',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: date
        current: "2026-13-01" # <-
        placement: { header: Api-Version }
    `,
    fix: ['2026-13-01', '2026-12-01'],
  },
  {
    code: 'name-case-clash',
    spec: yaml`
      servicespec: 1
      resources:
        PetTag:
          fields:
            id: { type: uuid, readOnly: true }
        Pettag: # <-
          fields:
            id: { type: uuid, readOnly: true }
    `,
    fix: ['Pettag: # <-', 'Owner:'],
    message: 'resources `PetTag` and `Pettag`',
  },
  {
    code: 'name-case-clash',
    spec: yaml`
      servicespec: 1
      check: { disable: [name-style] }
      resources:
        Pet:
          fields:
            id: { type: uuid, readOnly: true }
            name: { type: string }
            Name: { type: string } # <-
    `,
    fix: ['Name: { type: string } # <-', 'nickname: { type: string }'],
    message: 'fields of resource Pet `name` and `Name`',
  },
  {
    code: 'duplicate-version',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: integer
        current: 2
        placement: { header: Api-Version }
        supported:
          - version: 1
          - version: 1 # <-
    `,
    fix: ['    - version: 1 # <-\n', ''],
  },
  {
    code: 'version-order',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: semver
        current: 1.2.0
        placement: { header: Api-Version }
        supported:
          - version: 1.10.0 # <-
    `,
    fix: ['1.10.0', '1.1.0'],
  },
  {
    code: 'sunset-before-deprecation',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: integer
        current: 2
        placement: { header: Api-Version }
        supported:
          - version: 1
            deprecated: "2026-06-01"
            sunset: "2026-01-01" # <-
    `,
    fix: ['sunset: "2026-01-01"', 'sunset: "2026-12-01"'],
  },
  // ── parameters of custom operations ────────────────────────────────────────
  {
    code: 'param-type-invalid',
    spec: yaml`
      servicespec: 1
      endpoints:
        operations:
          search:
            method: GET
            path: /search
            action: custom
            handler: search
            response: { fields: { n: { type: integer } } }
            query:
              filter: { type: json } # <-
    `,
    fix: ['type: json', 'type: string'],
    errors: true,
    message: 'search.query.filter',
  },
  {
    code: 'param-duplicate',
    spec: yaml`
      servicespec: 1
      endpoints:
        operations:
          search:
            method: GET
            path: /search
            action: custom
            handler: search
            response: { fields: { n: { type: integer } } }
            headers:
              X-Tag: { type: string, optional: true }
              x-tag: { type: string, optional: true } # <-
    `,
    fix: ['x-tag:', 'x-other-tag:'],
    errors: true,
  },
  {
    code: 'param-reserved',
    spec: yaml`
      servicespec: 1
      versioning:
        scheme: integer
        current: 2
        default: current
        placement: { query: api-version }
        compatibility: [additive only]
      endpoints:
        operations:
          search:
            method: GET
            path: /search
            action: custom
            handler: search
            response: { fields: { n: { type: integer } } }
            query:
              api-version: { type: string, optional: true } # <-
    `,
    fix: ['api-version: { type: string', 'apiVersion: { type: string'],
    errors: true,
    message: 'versioning.placement',
  },
  {
    // A built-in list reads its paging parameters itself: a declared query parameter of the same name is refused.
    code: 'param-reserved',
    spec: yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          listOrders:
            method: GET
            path: /orders
            action: list
            resource: Order
            query:
              cursor: { type: string, optional: true } # <-
    `,
    fix: ['cursor: { type: string', 'labelSelector: { type: string'],
    errors: true,
    message: 'the paging parameter cursor of the list',
  },
  // ── authentication and built-in routes ─────────────────────────────────────
  {
    code: 'route-conflict',
    spec: yaml`
      servicespec: 1
      endpoints:
        operations:
          feed: { method: GET, path: /events, action: custom, handler: feed, response: { fields: { n: { type: integer } } } }
      events:
        delivery:
          stream: { path: /events } # <-
    `,
    fix: ['stream: { path: /events }', 'stream: { path: /event-stream }'],
    errors: true,
  },
  {
    code: 'scheme-incomplete',
    spec: yaml`
      servicespec: 1
      authentication:
        schemes:
          key: { type: api_key, in: header } # <-
    `,
    fix: ['in: header }', 'in: header, name: X-Key }'],
  },
];

function run(text: string) {
  const compiled = compileSpecText(text, 'case.yaml');
  return compiled.diagnostics;
}

describe('semantic rules: one minimal spec per code', () => {
  it.each(CASES.map((c) => [c.code, c] as const))('%s', (_name, c) => {
    const text = c.errors ? `${c.spec}${CATCH_ALL_ERRORS}` : c.spec;
    const diagnostics = run(text);
    expect(brief(diagnostics).map((b) => b.replace(/^\d+:\d+ /, ''))).toEqual([`${DIAGNOSTICS[c.code].severity} ${c.code}`]);
    const d = diagnostics[0]!;
    expect(d.severity).toBe(DIAGNOSTICS[c.code].severity);
    expect(d.line).toBe(markedLine(text));
    expect(d.column).toBeGreaterThan(0);
    expect(d.file).toBe('case.yaml');
    if (c.message) expect(d.message).toContain(c.message);

    const [from, to] = c.fix;
    expect(text.includes(from), `fix text ${JSON.stringify(from)} occurs in the spec`).toBe(true);
    expect(run(text.replace(from, to))).toEqual([]);
  });
});

describe('semantic rules: further placements of the same codes', () => {
  it('invalid-path on a path with a query or fragment (an imported `/responses/{id}?beta=true`: serve could not start)', () => {
    const text = yaml`
      servicespec: 1
      endpoints:
        operations:
          betaResponse: { method: GET, path: "/responses/{id}?beta=true", action: custom, handler: r }
          anchored: { method: GET, path: "/docs#top", action: custom, handler: d }
          plain: { method: GET, path: "/responses/{id}", action: custom, handler: p }
      ${CATCH_ALL_ERRORS}
    `;
    const found = run(text).filter((d) => d.code === 'invalid-path');
    expect(found.map((d) => d.message)).toEqual([
      'operation `betaResponse`: path `/responses/{id}?beta=true` has a query or fragment (`?`, `#`): a path is the path alone',
      'operation `anchored`: path `/docs#top` has a query or fragment (`?`, `#`): a path is the path alone',
    ]);
  });

  it('write-only-invalid on the identifier, owner and state field, a nested field, a shape field and a list filter or sort', () => {
    const text = yaml`
      servicespec: 1
      resources:
        User:
          owner: who
          fields:
            id: { type: uuid, readOnly: true, writeOnly: true }
            who: { type: string, writeOnly: true }
            status: { type: state, writeOnly: true }
            profile: { type: object, fields: { pin: { type: string, writeOnly: true } } }
            password: { type: string, writeOnly: true }
      states:
        User: { initial: active, states: { active: {} } }
      endpoints:
        operations:
          listUsers: { method: GET, path: /users, action: list, resource: User, filter: [password], sort: [password] }
          quote: { method: POST, path: /quotes, action: custom, handler: q, request: { fields: { secret: { type: string, writeOnly: true } } } }
      ${CATCH_ALL_ERRORS}
    `;
    const found = run(text).filter((d) => d.code === 'write-only-invalid');
    expect(found.map((d) => d.message)).toEqual(
      expect.arrayContaining([
        'User.id: a write-only field cannot also be read-only',
        'User.who: a write-only field cannot be the owner field',
        'User.status: a write-only field cannot be the state field',
        "User.profile.pin: a write-only field is only allowed on a resource's own fields",
        "quote.request.secret: a write-only field is only allowed on a resource's own fields",
        'User.password: a write-only field cannot be a filter of list operation listUsers',
        'User.password: a write-only field cannot be a sort of list operation listUsers',
      ]),
    );
    expect(found).toHaveLength(7);
    const bound = run(
      text.replace(/^( *)quote:/m, '$1byPassword: { method: GET, path: "/by/{pw}", action: read, resource: User, bind: { pw: password } }\n$1quote:'),
    ).filter((d) => d.code === 'write-only-invalid');
    expect(bound.map((d) => d.message)).toContain('User.password: a write-only field cannot be bound to path parameter {pw} of operation byPassword');
    const id = run(text.replace('id: { type: uuid, readOnly: true, writeOnly: true }', 'id: { type: uuid, writeOnly: true }'));
    expect(id.filter((d) => d.code === 'write-only-invalid').map((d) => d.message)).toContain('User.id: a write-only field cannot be the identifier');
  });

  it('write-only-invalid on a unique field and a field of a key unique together (a conflict would reveal the value)', () => {
    const text = yaml`
      servicespec: 1
      resources:
        User:
          unique_keys:
            - [tenant, pin]
            - [tenant, secret.code]
          fields:
            id: { type: uuid, readOnly: true }
            tenant: { type: string }
            password: { type: string, writeOnly: true, unique: true }
            pin: { type: string, writeOnly: true }
            secret: { type: object, writeOnly: true, fields: { code: { type: string } } }
      endpoints:
        operations:
          createUser: { method: POST, path: /users, action: create, resource: User }
      ${CATCH_ALL_ERRORS}
    `;
    const found = run(text).filter((d) => d.code === 'write-only-invalid');
    expect(found.map((d) => [d.message, d.pointer])).toEqual([
      ['User.pin: a write-only field cannot be in a key unique together (unique_keys)', '/resources/User/unique_keys/0'],
      ['User.secret.code: a write-only field cannot be in a key unique together (unique_keys)', '/resources/User/unique_keys/1'],
      ['User.password: a write-only field cannot be unique', '/resources/User/fields/password/writeOnly'],
    ]);
    // Neither unique nor keyed: accepted.
    const fixed = text.replace('writeOnly: true, unique: true', 'writeOnly: true').replace(/^ *unique_keys:\n( *- \[.*\]\n)+/m, '');
    expect(run(fixed).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('unknown-resource on an operation, a payload, an event and a version change', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid }
            note: { type: string, optional: true }
      endpoints:
        operations:
          getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Ordr }
          quote: { method: POST, path: /quotes, action: custom, handler: q, request: { resource: Ordr }, response: { resource: Order } }
      events:
        kinds:
          order.created: { resource: Ordr, on: [create], payload: { resource: Ordr } }
      versioning:
        scheme: integer
        current: 2
        placement: { header: V }
        supported:
          - version: 1
            changes:
              - add_field: { resource: Ordr, field: note }
      ${CATCH_ALL_ERRORS}
    `;
    expect(brief(run(text))).toEqual([
      '9:76 error unknown-resource', // operation resource
      '10:92 error unknown-resource', // request shape
      '13:32 error unknown-resource', // event resource
      '13:73 error unknown-resource', // event payload
      '19:7 error unknown-resource', // the supported version holding the change
    ]);
    expect(run(text.replaceAll('Ordr', 'Order'))).toEqual([]);
  });

  it('unknown-field for identifier, owner, transition requires, sort and a rename target', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          identifier: key
          owner: ownr
          fields:
            id: { type: uuid }
            owner: { type: string }
            status: { type: state }
      states:
        Order:
          initial: a
          terminal: [b]
          transitions:
            go: { from: a, to: b, requires: [note] }
      versioning:
        scheme: integer
        current: 2
        placement: { header: V }
        supported:
          - version: 1
            changes:
              - rename_field: { resource: Order, from: amount, to: total }
    `;
    const ds = run(text);
    expect(ds.map((d) => `${d.line} ${d.severity} ${d.code} ${d.message}`)).toEqual([
      '4 error unknown-field Order.identifier names field `key`, which resource Order does not have',
      '5 error unknown-field Order.owner names field `ownr`, which resource Order does not have; did you mean `owner`?',
      '15 error unknown-field transition Order.go.requires names field `note`, which resource Order does not have',
      '21 error unknown-field version 1 rename_field.to names field `total`, which resource Order does not have',
    ]);
  });

  it("a rename_field.to names the next newer version's field: renamed again later is no unknown-field, a typo still is", () => {
    const spec = (to: string) => yaml`
      servicespec: 1
      resources:
        Note:
          fields:
            id: { type: uuid }
            body: { type: string }
      versioning:
        scheme: integer
        current: 3
        placement: { header: V }
        supported:
          - version: 2
            changes:
              - rename_field: { resource: Note, from: content, to: body }
          - version: 1
            changes:
              - rename_field: { resource: Note, from: text, to: ${to} }
    `;
    expect(run(spec('content')).map((d) => d.code)).toEqual([]);
    expect(run(spec('contnt')).map((d) => `${d.severity} ${d.code} ${d.message}`)).toEqual([
      'error unknown-field version 1 rename_field.to names field `contnt`, which resource Note does not have; did you mean `content`?',
    ]);
  });

  it('identifier-invalid for a type that cannot identify, and owner-field-invalid for an owner that is the identifier', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          identifier: placed
          owner: placed
          fields:
            placed: { type: datetime }
        Tag:
          identifier: owner
          owner: owner
          fields:
            owner: { type: string }
    `;
    expect(run(text).map((d) => `${d.line} ${d.code}: ${d.message}`)).toEqual([
      '7 identifier-invalid: resource Order: identifier field `placed` has type datetime; an identifier is uuid, integer or string',
      '7 owner-field-invalid: resource Order: owner field `placed` has type datetime; the owner field holds the subject, a string',
      '7 owner-field-invalid: resource Order: owner field `placed` is also the identifier',
      '12 owner-field-invalid: resource Tag: owner field `owner` is also the identifier',
    ]);
  });

  it('identifier-invalid for constraints a server-made identifier breaks (pattern, lengths, integer bounds); none for ones it keeps', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Tag:
          identifier: slug
          fields:
            slug: { type: string, pattern: "^[a-z][a-z0-9-]{1,30}$" }
        Short:
          fields:
            id: { type: string, maxLength: 8 }
        Long:
          fields:
            id: { type: string, minLength: 40 }
        Odd:
          fields:
            id: { type: integer, minimum: 100 }
        Even:
          fields:
            id: { type: integer, multipleOf: 2 }
        Fine:
          fields:
            id: { type: string, pattern: "^[A-Za-z0-9_-]{22}$", minLength: 22, maxLength: 64 }
        Counted:
          fields:
            id: { type: integer, minimum: 1, multipleOf: 1 }
        Unmade:
          fields:
            id: { type: integer, minimum: 100 }
      endpoints:
        operations:
          addTag: { method: POST, path: /tags, action: create, resource: Tag }
          addShort: { method: POST, path: /shorts, action: create, resource: Short }
          addLong: { method: POST, path: /longs, action: create, resource: Long }
          addOdd: { method: POST, path: /odds, action: create, resource: Odd }
          addEven: { method: POST, path: /evens, action: create, resource: Even }
          addFine: { method: POST, path: /fines, action: create, resource: Fine }
          addCounted: { method: POST, path: /counteds, action: create, resource: Counted }
          getUnmade: { method: GET, path: "/unmade/{id}", action: read, resource: Unmade }
    `;
    expect(
      run(text)
        .filter((d) => d.code === 'identifier-invalid')
        .map((d) => `${d.line} ${d.message}`),
    ).toEqual([
      '6 resource Tag: identifier field `slug` declares pattern ^[a-z][a-z0-9-]{1,30}$, which `AAAAAAAAAAAAAAAAAAAAAA` breaks, but the server makes its values (a string identifier is 22 random base64url characters)',
      '9 resource Short: identifier field `id` declares maxLength 8, but the server makes its values (a string identifier is 22 random base64url characters)',
      '12 resource Long: identifier field `id` declares minLength 40, but the server makes its values (a string identifier is 22 random base64url characters)',
      '15 resource Odd: identifier field `id` declares minimum 100, but the server makes its values (an integer identifier counts from 1)',
      '18 resource Even: identifier field `id` declares multipleOf 2, but the server makes its values (an integer identifier counts from 1)',
    ]);
  });

  it('identifier-invalid for a default on a server-made identifier (every create would take it, the second then conflicts)', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Tag:
          fields:
            id: { type: string, default: abc }
        Seat:
          fields:
            id: { type: integer, default: 5 }
        Key:
          fields:
            id: { type: uuid, default: 0190a6a0-0000-7000-8000-000000000000 }
        Kept:
          fields:
            id: { type: integer, maximum: 2147483647 }
      endpoints:
        operations:
          addTag: { method: POST, path: /tags, action: create, resource: Tag }
          addSeat: { method: POST, path: /seats, action: create, resource: Seat }
          addKey: { method: POST, path: /keys, action: create, resource: Key }
          addKept: { method: POST, path: /kept, action: create, resource: Kept }
    `;
    expect(
      run(text)
        .filter((d) => d.code === 'identifier-invalid')
        .map((d) => `${d.line} ${d.message}`),
    ).toEqual([
      '5 resource Tag: identifier field `id` declares the default "abc", but the server makes its values (a string identifier is 22 random base64url characters)',
      '8 resource Seat: identifier field `id` declares the default 5, but the server makes its values (an integer identifier counts from 1)',
      '11 resource Key: identifier field `id` declares the default "0190a6a0-0000-7000-8000-000000000000", but the server makes its values (a uuid identifier is a UUIDv7)',
    ]);
  });

  it('generated-type-mismatch and unknown-field for a transition stamp', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            id: { type: uuid, readOnly: true }
            status: { type: state }
            note: { type: string, optional: true }
            shipped_at: { type: datetime, readOnly: true, optional: true }
      states:
        Order:
          initial: a
          terminal: [b, c]
          transitions:
            ship: { from: a, to: b, stamp: note }
            drop: { from: a, to: c, stamp: dropped_at }
    `;
    expect(run(text).map((d) => `${d.line} ${d.code}: ${d.message}`)).toEqual([
      '14 generated-type-mismatch: transition Order.ship: `stamp` needs a date or datetime field, not string',
      '15 unknown-field: transition Order.drop.stamp names field `dropped_at`, which resource Order does not have; did you mean `shipped_at`?',
    ]);
    expect(run(text.replace('stamp: note', 'stamp: shipped_at').replace('stamp: dropped_at', 'stamp: shipped_at'))).toEqual([]);
  });

  it('state-field-mismatch when no field is named and the resource has two state fields', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            a: { type: state }
            b: { type: state }
      states:
        Order:
          initial: x
          terminal: [x]
    `;
    expect(brief(run(text))).toEqual(['8:3 error state-field-mismatch']);
    expect(run(text.replace('initial: x', 'field: a\n    initial: x')).map((d) => d.code)).toEqual([]);
  });

  it('route-conflict for an oauth2 token path and unbound-path-parameter for a custom shape', () => {
    const text = yaml`
      servicespec: 1
      endpoints:
        operations:
          token: { method: POST, path: /oauth/token, action: custom, handler: t, request: { fields: { a: { type: string } } }, response: { fields: { b: { type: string } } } }
          byShop: { method: POST, path: "/shops/{shop}", action: custom, handler: s, request: { fields: { a: { type: string } } }, response: { fields: { b: { type: string } } } }
      authentication:
        schemes:
          m2m: { type: oauth2_client_credentials, token: jwt, token_path: /oauth/token }
      ${CATCH_ALL_ERRORS}
    `;
    expect(brief(run(text))).toEqual(['5:35 error unbound-path-parameter', '8:69 error route-conflict']);
  });

  it('scheme-incomplete for an oauth2 scheme without token_path', () => {
    expect(brief(run('servicespec: 1\nauthentication:\n  schemes:\n    m2m: { type: oauth2_client_credentials }\n'))).toEqual(['4:10 error scheme-incomplete']);
  });

  it('value-violates-field for examples, enums, patterns and null', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            colour: { type: enum, values: [red], example: blue }
            code: { type: string, pattern: "^[A-Z]+$", example: abc }
            note: { type: string, default: null }
            count: { type: integer, example: 1.5 }
            when: { type: datetime, example: 5 }
    `;
    expect(run(text).map((d) => `${d.line} ${d.message}`)).toEqual([
      '5 Order.colour: the declared example "blue" does not satisfy the field (not one of the values)',
      '6 Order.code: the declared example "abc" does not satisfy the field (does not match ^[A-Z]+$)',
      '7 Order.note: the declared default null does not satisfy the field (the field is not nullable)',
      '8 Order.count: the declared example 1.5 does not satisfy the field (not an integer)',
      '9 Order.when: the declared example 5 does not satisfy the field (not a string)',
    ]);
  });

  it('nested fields are checked too (array items, object fields, shapes, the error body)', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            items: { type: array, items: { type: object, fields: { qty: { type: integer, minimum: 5, maximum: 1 } } } }
      errors:
        body:
          fields:
            code: { type: enum }
    `;
    expect(run(text).map((d) => `${d.line} ${d.code} ${d.message}`)).toEqual([
      '5 invalid-constraint-range Order.items.items.qty: minimum (5) is above maximum (1)',
      '9 enum-needs-values errors.body.code has type enum but declares no `values`',
    ]);
  });
});

describe('the examples', () => {
  it('orders.yaml has no diagnostics at all', () => {
    const r = compileSpecFile('examples/orders.yaml');
    expect(r.model).toBeDefined();
    expect(brief(r.diagnostics)).toEqual([]);
  });

  it('library.yaml has no diagnostics at all', () => {
    const r = compileSpecFile('examples/library.yaml');
    expect(r.model).toBeDefined();
    expect(brief(r.diagnostics)).toEqual([]);
  });

  it('empty.yaml compiles to a model with nothing shown and no diagnostics', () => {
    const r = compileSpecFile('examples/empty.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(Object.values(r.model!.present).every((p) => !p)).toBe(true);
  });
});

describe('turning a warning of style off', () => {
  const CAMEL = `servicespec: 1
resources:
  Lease:
    fields:
      apiVersion: { type: string }
      leaseDurationSeconds: { type: integer, minimum: 1, maximum: 0 }
`;
  it('check.disable: [name-style] silences name-style only; other diagnostics stay', () => {
    expect(
      run(CAMEL)
        .map((d) => d.code)
        .sort(),
    ).toEqual(['invalid-constraint-range', 'name-style', 'name-style']);
    expect(run(`${CAMEL}check:\n  disable: [name-style]\n`).map((d) => d.code)).toEqual(['invalid-constraint-range']);
  });

  it('refuses a code that cannot be turned off (an error, or an unknown code)', () => {
    const d = run(`${CAMEL}check:\n  disable: [invalid-constraint-range]\n`);
    expect(d.map((x) => `${x.severity} ${x.code}`)).toEqual(['error invalid-value']);
    expect(d[0]!.message).toContain('"name-style"');
  });
});
