// Spec pieces and compiling that many test files repeated: the declared error codes of a plain service (every
// condition a request without credentials can meet), and a spec compiled and checked with no errors.

import { expect } from 'vitest';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';

/** `errors:` declaring a code for each condition a plain service (no credentials, no limits but the body) meets. */
export const PLAIN_ERRORS = `errors:
  body: problem
  codes:
    bad_body: { status: 400, when: [malformed_request] }
    invalid: { status: 422, when: [validation] }
    not_json: { status: 415, when: [unsupported_media_type] }
    too_large: { status: 413, when: [body_too_large] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    not_allowed: { status: 405, when: [method_not_allowed] }
    headers: { status: 431, when: [headers_too_large] }
    internal: { status: 500, when: [internal] }
`;

/** The spec compiled, expected to have no errors: its checked model (what the runtime takes). */
export function checkedModel(text: string, file?: string): CheckedModel {
  const c = file === undefined ? compileSpecText(text) : compileSpecText(text, file);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.checked!;
}
