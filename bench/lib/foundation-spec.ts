// A large, realistic spec for bench/foundation-bench.ts: N resources with constrained fields, a state machine on
// every fourth, five operations per resource, authentication, events, errors covering every condition, limits
// and versioning. The output is YAML text, as a person would write it (block style, one key per line).
import { FALLBACK_STATUS } from '../../src/model/model-defaults.js';
import { CONDITIONS } from '../../src/spec/spec-types.js';

export interface GeneratedSpecSize {
  resources: number;
  /** Operations per resource; the total is resources × this. */
  operationsPerResource: number;
}

const pad = (i: number) => String(i).padStart(4, '0');

export function generateLargeSpec({ resources, operationsPerResource }: GeneratedSpecSize): string {
  const out: string[] = [];
  const w = (line: string) => out.push(line);
  const name = (i: number) => `Resource${pad(i)}`;
  const lower = (i: number) => `resource${pad(i)}`;
  const hasMachine = (i: number) => i % 4 === 0;
  const group = (i: number) => `group${Math.floor(i / 10)}`;

  w('servicespec: 1');
  w('purpose:');
  w('  name: Benchmark Service');
  w('  summary: A generated service with many resources, used to measure the front end.');
  w('  scope:');
  w('    includes: [Everything generated below.]');
  w('    excludes: [Anything else.]');
  w('  audience: [The benchmark.]');
  w('  contact: { name: Bench, email: bench@example.com, url: "https://example.com/bench" }');

  w('resources:');
  for (let i = 0; i < resources; i++) {
    w(`  ${name(i)}:`);
    w(`    description: Generated resource number ${i}, with fields of every common kind.`);
    w(`    plural: ${lower(i)}s`);
    if (i % 3 === 0) {
      w('    owner: owner');
      w('    owner_access: forbidden');
    }
    w('    fields:');
    w('      id: { type: uuid, readOnly: true, description: "The identifier." }');
    w('      name: { type: string, minLength: 1, maxLength: 200, example: Example name }');
    w(`      code: { type: string, pattern: "^[A-Z]{3}-[0-9]{4}$", unique: true, example: ABC-${pad(i)} }`);
    w('      amount: { type: integer, minimum: 0, maximum: 1000000, default: 0 }');
    w('      ratio: { type: number, exclusiveMinimum: 0, maximum: 1, optional: true }');
    w('      tags: { type: array, items: { type: string, maxLength: 30 }, maxItems: 20, uniqueItems: true, optional: true }');
    w('      kind: { type: enum, values: [small, medium, large], example: medium }');
    if (i > 0) w(`      parent: { type: ref, to: ${name(i - 1)}, optional: true, nullable: true }`);
    w('      address:');
    w('        type: object');
    w('        optional: true');
    w('        fields:');
    w('          line1: { type: string, minLength: 1, maxLength: 200 }');
    w('          city: { type: string, minLength: 1, maxLength: 100 }');
    w('          country: { type: string, pattern: "^[A-Z]{2}$" }');
    if (hasMachine(i)) {
      w('      status: { type: state }');
      w('      finished_at: { type: datetime, readOnly: true, optional: true }');
    }
    if (i % 3 === 0) w('      owner: { type: string, readOnly: true }');
    w('      created_at: { type: datetime, readOnly: true, generated: create_time }');
    w('      updated_at: { type: datetime, readOnly: true, generated: update_time }');
  }

  w('states:');
  for (let i = 0; i < resources; i++) {
    if (!hasMachine(i)) continue;
    w(`  ${name(i)}:`);
    w('    field: status');
    w('    initial: pending');
    w('    states:');
    w('      pending: { description: Waiting. }');
    w('      active: { description: Running. }');
    w('      done: { description: Finished., terminal: true }');
    w('      cancelled: { description: Stopped., terminal: true }');
    w('    terminal: [done, cancelled]');
    w('    transitions:');
    w('      activate: { from: pending, to: active }');
    w(`      finish: { from: active, to: done, stamp: finished_at, emits: ${lower(i)}.finished }`);
    w('      cancel: { from: [pending, active], to: cancelled }');
  }

  w('endpoints:');
  w('  base_url: "{base_url}"');
  w('  idempotency: { header: Idempotency-Key, retention: 24h }');
  w('  operations:');
  const ops: ((i: number) => string)[] = [
    (i) =>
      `create${name(i)}: { method: POST, path: /${lower(i)}s, action: create, resource: ${name(i)}, idempotent: true, auth: { scopes: ["${group(i)}:write"] }, errors: [invalid_request, conflict] }`,
    (i) =>
      `get${name(i)}: { method: GET, path: "/${lower(i)}s/{id}", action: read, resource: ${name(i)}, auth: { scopes: ["${group(i)}:read"] }, errors: [not_found] }`,
    (i) =>
      `list${name(i)}: { method: GET, path: /${lower(i)}s, action: list, resource: ${name(i)}, filter: [kind, code], sort: [created_at, name], auth: { scopes: ["${group(i)}:read"] } }`,
    (i) =>
      `update${name(i)}: { method: PATCH, path: "/${lower(i)}s/{id}", action: update, resource: ${name(i)}, auth: { scopes: ["${group(i)}:write"] }, errors: [invalid_request, not_found] }`,
    (i) =>
      hasMachine(i)
        ? `activate${name(i)}: { method: POST, path: "/${lower(i)}s/{id}/activate", action: transition, resource: ${name(i)}, transition: activate, auth: { scopes: ["${group(i)}:write"] }, errors: [not_found, invalid_transition] }`
        : `delete${name(i)}: { method: DELETE, path: "/${lower(i)}s/{id}", action: delete, resource: ${name(i)}, auth: { scopes: ["${group(i)}:write"] }, errors: [not_found] }`,
    (i) => `replace${name(i)}: { method: PUT, path: "/${lower(i)}s/{id}", action: replace, resource: ${name(i)}, auth: { scopes: ["${group(i)}:write"] } }`,
  ];
  for (let i = 0; i < resources; i++) for (let k = 0; k < operationsPerResource; k++) w(`    ${ops[k % ops.length]!(i)}`);

  w('authentication:');
  w('  schemes:');
  w('    key: { type: api_key, in: header, name: X-API-Key, prefix: "sk_" }');
  w('    bearer: { type: bearer, token: jwt, algorithms: [RS256], issuer: "https://id.example.com/", audience: bench, lifetime: 1h }');
  w('  scopes:');
  for (let g = 0; g * 10 < resources; g++) {
    w(`    "group${g}:read": Read the resources of group ${g}.`);
    w(`    "group${g}:write": Change the resources of group ${g}.`);
  }
  w('  default: { schemes: [key, bearer] }');

  w('events:');
  w('  delivery:');
  w('    webhook: { signing: standard-webhooks, retries: [5s, 1m, 10m, 1h], timeout: 10s }');
  w('    stream: { path: /events, heartbeat: 15s }');
  w('  kinds:');
  for (let i = 0; i < resources; i++) {
    if (i % 10 === 0) w(`    ${lower(i)}.created: { description: A ${name(i)} was created., on: [create], payload: { resource: ${name(i)} } }`);
    if (hasMachine(i)) w(`    ${lower(i)}.finished: { description: A ${name(i)} finished., payload: { resource: ${name(i)} } }`);
  }

  w('errors:');
  w('  body: problem');
  w('  codes:');
  const named: Record<string, string> = {
    validation: 'invalid_request',
    missing_resource: 'not_found',
    illegal_transition: 'invalid_transition',
    unique_conflict: 'conflict',
  };
  for (const c of CONDITIONS) w(`    ${named[c] ?? c}: { status: ${FALLBACK_STATUS[c]}, title: "${c.replace(/_/g, ' ')}", when: [${c}] }`);

  w('limits:');
  w('  rate:');
  w('    - { name: per_credential, requests: 100, per: 1m, by: credential }');
  w('    - { name: per_address, requests: 1000, per: 1m, by: address }');
  w('  body_size: 64KiB');
  w('  header_size: 16KiB');
  w('  page_size: { default: 20, max: 100, over_max: reject }');
  w('  timeout: 5s');
  w('versioning:');
  w('  scheme: date');
  w('  current: "2026-11-01"');
  w('  placement: { header: Service-Version }');
  w('  default: current');
  w('  supported:');
  w('    - version: "2026-06-01"');
  w(`      changes: [{ rename_field: { resource: ${name(0)}, from: title, to: name } }]`);
  w('      deprecated: "2026-11-01"');
  w('      sunset: "2027-05-01"');
  w('  compatibility: [Adding fields is compatible., Removing fields needs a new version.]');
  return `${out.join('\n')}\n`;
}
