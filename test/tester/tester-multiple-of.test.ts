// The tester's own Ajv checks answers as the runtime checks requests: multipleOf 0.01 holds for 0.07 (whose quotient
// is 7.000000000000001 in binary floating point), so a service answering 0.07 is not reported as off its shape.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { TestContext } from '../../src/tester/tester-context.js';
import { TestClient } from '../../src/tester/tester-http.js';

const SPEC = `
servicespec: 1
resources:
  Reading:
    fields:
      id: { type: uuid, readOnly: true }
      value: { type: number, multipleOf: 0.01 }
`;

describe('tester: multipleOf', () => {
  it('0.07, 0.29 and 1.15 are multiples of 0.01; 0.071 is not', () => {
    const model = compileSpecText(SPEC).model!;
    const ctx = new TestContext(model, new TestClient({ baseUrl: 'http://127.0.0.1:9', maxRequests: 0, deadline: 0 }), { baseUrl: 'http://127.0.0.1:9' }, 1);
    const schema = { type: 'number', multipleOf: 0.01 };
    for (const v of [0.07, 0.29, 1.15]) expect(ctx.mismatch(schema, v), String(v)).toBeUndefined();
    expect(ctx.mismatch(schema, 0.071)).toBe('(body) must be multiple of 0.01');
  });
});
