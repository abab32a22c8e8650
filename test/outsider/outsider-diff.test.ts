// Outsider findings on `servicespec diff`, pinned with `it.fails`: changes between two specs that the report does
// not show at all ("no changes"), against README "Every change across the nine parts gets a rule code".
import { describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-run.js';
import { compileSpecText } from '../../src/program.js';

const BASE = `
servicespec: 1
authentication:
  schemes:
    cc: { type: oauth2_client_credentials, token_path: /oauth/token, token: jwt, algorithms: [ES256], lifetime: 15m }
limits:
  body_size: 8KiB
  failed_auth: { attempts: 20, per: 1m }
`;

const changesBetween = (a: string, b: string) => {
  const o = compileSpecText(a).model!;
  const n = compileSpecText(b).model!;
  return diffModels(o, n).changes.map((c) => c.code);
};

describe('outsider: diff', () => {
  it('control: a body size change is reported', () => {
    expect(changesBetween(BASE, BASE.replace('8KiB', '8MiB'))).toContain('limit-raised');
  });

  // src/diff/diff-rules.ts (the limits rules, ~line 700-716) compares rate, body and header size, nesting depth,
  // page size, timeout and concurrency, never `limits.failed_auth`: relaxing the bound on failed credentials from 20
  // a minute to 2000 an hour, or dropping it, is "no changes". Expected: a rule for it (as limit-raised / limit-unset).
  it('a changed or removed failed_auth bound is reported', () => {
    expect(changesBetween(BASE, BASE.replace('attempts: 20, per: 1m', 'attempts: 2000, per: 1h'))).not.toEqual([]);
    expect(changesBetween(BASE, BASE.replace('  failed_auth: { attempts: 20, per: 1m }\n', ''))).not.toEqual([]);
  });

  // src/diff/diff-rules.ts:539-545 compares `lifetime` and `algorithms` only when both sides state them: a scheme
  // whose accepted algorithms or token lifetime stop being stated is "no changes" (a limit that stops being stated
  // is `limit-unset`, needs review). Expected: a change reported for each.
  it('algorithms or lifetime no longer stated are reported', () => {
    expect(changesBetween(BASE, BASE.replace(', algorithms: [ES256]', ''))).not.toEqual([]);
    expect(changesBetween(BASE, BASE.replace(', lifetime: 15m', ''))).not.toEqual([]);
  });
});
