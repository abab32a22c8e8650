// The typed client of a spec with several unions compiles under --strict, and its types narrow as a union should: a
// union body is a type alias (an interface cannot be a union), an array of a union parenthesised, a nullable union
// takes null, a tag no variant has is refused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { compileSpecText } from '../../src/program.js';
import { UNIONS_EVERYWHERE } from '../support/unions-everywhere.js';
import { tempDir, tsc } from './helpers.js';

const tmp = tempDir('servicespec-client-unions-');
afterAll(() => tmp.remove());

const USE = `import type { Payment, PaymentCreate, QuoteRequest, QuoteResponse, WebhookEvent } from './client.js';

export function describeMethod(p: Payment): string {
  switch (p.method.kind) {
    case 'card':
      return p.method.number + (p.method.holder ?? '');
    case 'bank':
      return p.method.iban;
  }
}

export function cents(p: Payment): number {
  let n = 0;
  for (const h of p.history ?? []) if (h.type === 'refund') n += h.cents;
  return n;
}

export const create: PaymentCreate = {
  amount: 3,
  method: { kind: 'bank', iban: 'DE00' },
  backup: null,
  history: [{ type: 'dispute', reason: 'late' }, { type: 'refund', cents: 5 }],
};
export const byVolume: QuoteRequest = { unit: 'by_volume', litres: 2 };
export const answers: QuoteResponse[] = [{ price: 1 }, { reason: 'no' }];
// @ts-expect-error a tag no variant of the request has
export const byArea: QuoteRequest = { unit: 'by_area', litres: 2 };
// @ts-expect-error the card variant has no iban
export const mixed: PaymentCreate = { amount: 1, method: { kind: 'card', iban: 'x' } };

export function payload(e: WebhookEvent): string | undefined {
  if (e.type === 'thing.happened') return e.data.object.what === 'x' ? String(e.data.object.a) : e.data.object.b;
  return undefined;
}
`;

describe('the typed client of a spec with several unions', () => {
  it('compiles with tsc --strict, and narrows each union by its tag', async () => {
    const compiled = compileSpecText(UNIONS_EVERYWHERE, 'unions.yaml');
    const code = generateClient(compiled.model!).code;
    expect(code).toMatch(/export type QuoteRequest = \{/);
    expect(code).toMatch(/history\?: \(\{/);
    expect(code).toMatch(/note: string;\n {2}\}\) \| null;/);
    writeFileSync(join(tmp.path, 'client.ts'), code);
    writeFileSync(join(tmp.path, 'use.ts'), USE);
    const r = await tsc(tmp.path, ['client.ts', 'use.ts'], {
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      module: 'ES2022',
      moduleResolution: 'bundler',
      noUnusedLocals: true,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);
});
