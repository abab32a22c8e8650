// A tagged union field given a value that is no object (`method: 12345`, `method: "card"`, `method: []`) is refused
// with the validation answer. Ajv's discriminator keyword lets a non-object through without trying the variants,
// so before the union schema said `type: object` these were accepted and stored (found by the tester's
// endpoints.invalid-requests, test/tester/tester-unions.test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { UNION_SPEC } from '../support/unions.js';
import { startService, type Running } from './helpers.js';

let service: Running;
beforeAll(async () => {
  service = await startService(compileSpecText(UNION_SPEC).model!, { handlers: { quote: () => ({ type: 'quote', price: 1 }) } });
});
afterAll(() => service.close());

it('refuses a union field that is not an object, and stores nothing', async () => {
  for (const method of [12345, 'card', [], true]) {
    const r = await service.call('POST', '/payments', { amount: 10, method });
    expect(r.status, JSON.stringify(method)).toBe(500); // the spec's one catch-all code declares validation
    expect(r.body.code).toBe('any_error');
    expect(r.body.errors?.[0]?.pointer).toBe('/method');
  }
  expect((await service.call('GET', '/payments')).body.items).toEqual([]);
  expect((await service.call('POST', '/payments', { amount: 10, method: { kind: 'card', number: '4111111111111111' } })).status).toBe(201);
});
