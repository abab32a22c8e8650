// Nothing invented: every gap `serve` would refuse without --allow-gaps is one that `gaps` names, in the same part.
// Each runtime gap's part is either not shown at all or names the gap as one of its items.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { getGapReport } from '../../src/check/check-gaps.js';
import { NOT_SHOWN } from '../../src/model/model-defaults.js';
import { hasErrors } from '../../src/diagnostics/diagnostics-catalogue.js';
import { compileSpecText } from '../../src/program.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { specDocument } from '../check/spec-arbitrary.js';

/** Which item of the gap report names each runtime gap (and, where the report places it, where). */
type Named = { item: string; where?: RegExp };
const NAMED: readonly [RegExp, (m: RegExpExecArray) => Named | Named[]][] = [
  // Where no code names any condition, the report names that instead of each condition.
  [
    /^error code for condition (\w+)/,
    (m) => [{ item: 'error code', where: new RegExp(`^condition ${m[1]}\\b`) }, { item: 'the conditions that produce errors' }, { item: 'error codes' }],
  ],
  [/^error body shape/, () => ({ item: 'error body shape' })],
  [/^operations: not shown/, () => ({ item: 'operations' })],
  [/^authentication requirement of /, () => ({ item: 'authentication requirement', where: /^(operations |event stream$)/ })],
  [/^authentication of the webhook registration/, () => ({ item: 'authentication requirement', where: /^webhook registration$/ })],
  [/^(default|maximum) page size/, (m) => ({ item: 'page sizes', where: new RegExp(m[1] === 'default' ? '^default$' : '^maximum$') })],
  [/^answer to a page size over the maximum/, () => ({ item: 'page sizes', where: /^answer over the maximum$/ })],
  [/^request body size limit/, () => ({ item: 'size limits' })],
  [/^idempotency key retention/, () => ({ item: 'idempotency key retention' })],
  [/^default version/, () => ({ item: 'default version selection' })],
  [/^rate limit (\S+) partition/, (m) => ({ item: 'rate limit partition', where: new RegExp(`^rate limit ${m[1]}$`) })],
  [/^webhook signing/, () => ({ item: 'webhook signing' })],
  [/^webhook retry schedule/, () => ({ item: 'retry schedule' })],
  [/^webhook delivery time-out/, () => ({ item: 'delivery time-out' })],
  [/^failed authentication bound/, () => ({ item: 'failed authentication bound' })],
  [
    /^value of error body field (\S+) \(required/,
    (m) => ({ item: 'value of error body field', where: new RegExp(`^${m[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
  ],
  [
    /^value of a read-only member the service sets \((.+)\): not shown/,
    (m) => ({ item: 'value of a read-only member the service sets', where: new RegExp(`^${m[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
  ],
  [
    /^value of a read-only field the service sets \((.+), source: service\)/,
    (m) => ({
      item: 'value of a read-only field the service sets',
      where: new RegExp(`^${m[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(source: service\\)$`),
    }),
  ],
];

/** The runtime gaps of a spec that the gap report does not name in their part (a part not shown names all of its own). */
function unnamed(text: string): string[] {
  const compiled = compileSpecText(text, 'spec.yaml');
  if (!compiled.model || hasErrors(compiled.diagnostics)) return [];
  const report = getGapReport(compiled.model);
  const out: string[] = [];
  for (const g of getRuntimeGaps(compiled.model)) {
    const part = report.parts.find((p) => p.part === g.part)!;
    if (part.status === NOT_SHOWN) continue;
    const rule = NAMED.find(([re]) => re.test(g.item));
    if (!rule) {
      out.push(`no rule here for the runtime gap "${g.item}": add one`);
      continue;
    }
    const names = [rule[1](rule[0].exec(g.item)!)].flat();
    const named = names.some(({ item, where }) =>
      part.missing.some((m) => m.item === item && (where === undefined || (m.where !== undefined && where.test(m.where)))),
    );
    if (!named) out.push(`${g.part}: ${g.item}`);
  }
  return out;
}

const WHOLE = `servicespec: 1
purpose: { name: Notes, summary: Keeps notes., scope: { includes: [notes] }, audience: [people], contact: { name: Team } }
resources:
  Note:
    plural: notes
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 100 }
endpoints:
  base_url: "{base_url}"
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, status: 201 }
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-Key }
  scopes: { "notes:rw": Everything. }
  default: { schemes: [key], scopes: ["notes:rw"] }
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found, method_not_allowed] }
    denied: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
    scope: { status: 403, when: [missing_scope] }
    limited: { status: 429, when: [rate_limited] }
    big: { status: 413, when: [body_too_large, headers_too_large] }
    slow: { status: 503, when: [timeout] }
    broken: { status: 500, when: [internal] }
limits:
  rate: [{ requests: 10, per: 1m, by: credential }]
  body_size: 16KiB
  page_size: { default: 5, max: 20, over_max: reject }
  timeout: 3s
`;

describe('every gap serve refuses is named by gaps', () => {
  it('a spec whose limits are shown but for failed_auth: gaps names it (it said "Limits: shown")', () => {
    expect(unnamed(WHOLE)).toEqual([]);
    const report = getGapReport(compileSpecText(WHOLE, 'spec.yaml').model!);
    expect(report.parts.find((p) => p.part === 'limits')!.missing).toContainEqual({ item: 'failed authentication bound' });
  });

  it('a rate limit without a partition is named under limits', () => {
    const text = WHOLE.replace('rate: [{ requests: 10, per: 1m, by: credential }]', 'rate: [{ requests: 10, per: 1m }]').replace(
      '  timeout: 3s\n',
      '  timeout: 3s\n  failed_auth: { attempts: 5, per: 1m }\n',
    );
    expect(unnamed(text)).toEqual([]);
    expect(getRuntimeGaps(compileSpecText(text, 'spec.yaml').model!).map((g) => g.part)).toEqual(['limits']);
  });

  it('a read-only field the service sets (source: service) is a runtime gap gaps names under resources', () => {
    const text = WHOLE.replace(
      '      text: { type: string, maxLength: 100 }\n',
      '      text: { type: string, maxLength: 100 }\n      number: { type: integer, readOnly: true, source: service }\n',
    );
    expect(text).toContain('source: service');
    const compiled = compileSpecText(text, 'spec.yaml');
    expect(hasErrors(compiled.diagnostics)).toBe(false);
    expect(unnamed(text)).toEqual([]);
    expect(getRuntimeGaps(compiled.model!).filter((g) => g.part === 'resources')).toEqual([
      {
        part: 'resources',
        item: 'value of a read-only field the service sets (Note.number, source: service): not shown',
        builtIn: 'answer without it: the runtime has no value for it, so answers leave it out',
      },
    ]);
    const resources = getGapReport(compiled.model!).parts.find((p) => p.part === 'resources')!;
    expect(resources.missing).toContainEqual({ item: 'value of a read-only field the service sets', where: 'Note.number (source: service)' });
  });

  it('a required error body field nothing fills is a runtime gap gaps names under errors (fast-check found it)', () => {
    const text = stringify({ servicespec: 1, errors: { body: { fields: { detail: { type: 'enum', values: ['red', 'blue'] } } } } });
    const compiled = compileSpecText(text, 'spec.yaml');
    expect(hasErrors(compiled.diagnostics)).toBe(false);
    expect(unnamed(text)).toEqual([]);
    const errors = getGapReport(compiled.model!).parts.find((p) => p.part === 'errors')!;
    expect(errors.missing).toContainEqual({ item: 'value of error body field', where: 'detail' });
  });

  it('holds for generated specs', () => {
    fc.assert(
      fc.property(specDocument, (doc) => {
        expect(unnamed(stringify(doc))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});
