// A unique field's value the tester makes its own (the run's prefix before the drawn text) is cut to maxLength in
// code points, as JSON Schema counts: Airflow's `connection_id` (a client-given identifier) in full Unicode was cut
// in UTF-16 units, through an emoji's surrogate pair, and the lone surrogate sent was refused by a faithful service.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { TestContext } from '../../src/tester/tester-context.js';
import { TestClient } from '../../src/tester/tester-http.js';

const SPEC = `
servicespec: 1
resources:
  Connection:
    identifier: connection_id
    identifier_source: client
    fields:
      connection_id: { type: string, maxLength: 12 }
      handle: { type: string, unique: true }
`;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('tester: unique values in full Unicode', () => {
  it('never splits a surrogate pair, and keeps within maxLength code points', () => {
    const model = compileSpecText(SPEC).model!;
    const ctx = new TestContext(model, new TestClient({ baseUrl: 'http://127.0.0.1:9', maxRequests: 0, deadline: 0 }), { baseUrl: 'http://127.0.0.1:9' }, 1);
    const resource = model.resources.find((r) => r.name === 'Connection')!;
    const emoji = '😀'.repeat(40);
    for (let i = 0; i < 12; i++) {
      // The drawn text shifted by one UTF-16 unit each time, so that some cut falls inside a pair.
      const body = ctx.makeUnique(resource, { connection_id: `${'a'.repeat(i)}${emoji}`, handle: `${'b'.repeat(i)}${emoji}` });
      for (const k of ['connection_id', 'handle'] as const) {
        const v = body[k] as string;
        expect(LONE_SURROGATE.test(v), `${k}: ${JSON.stringify(v)}`).toBe(false);
        expect([...v].length).toBeLessThanOrEqual(k === 'connection_id' ? 12 : 64);
      }
    }
  });
});
