// Another page's address must ask what the request asked (tester-page-address.ts getUnaskedParameter), but for what
// a correct service need not repeat (review of round 10's Link check): a page size over the largest, which a
// service clamping it (limits.page_size.over_max: clamp) writes as the size it used, and a sort of none of the list's
// values (list-edges' probe), which a service ignoring it need not carry on. Before, both failed a correct server.
import { describe, expect, it } from 'vitest';
import { getUnaskedParameter, type AskedBounds, type PagePosition } from '../../src/tester/tester-page-address.js';

const at = (query: string): PagePosition => ({
  asked: new URL(`http://127.0.0.1/items?${query}`),
  position: 'offset',
  sizeName: 'limit',
  firstAt: 0,
  now: 0,
  size: Number(new URLSearchParams(query).get('limit') ?? Number.NaN),
});
const bounds: AskedBounds = { defaultSize: 20, maxSize: 100, sort: { name: 'sort', values: ['name', '-name'] } };
const next = (query: string) => new URL(`http://127.0.0.1/items?${query}`);

describe("another page's address, held to the request's query", () => {
  it('a page size over the largest may be written as the size used', () => {
    expect(getUnaskedParameter(at('limit=101&offset=0'), next('limit=100&offset=100'), bounds)).toBeUndefined();
    expect(getUnaskedParameter(at('limit=50&offset=0'), next('limit=100&offset=50'), bounds)).toEqual(['limit', '50']);
  });

  it('a sort of none of the values may be left out; a sort of one must be kept', () => {
    expect(getUnaskedParameter(at('sort=__no_such_field__&limit=2'), next('limit=2&offset=2'), bounds)).toBeUndefined();
    expect(getUnaskedParameter(at('sort=-name&limit=2'), next('limit=2&offset=2'), bounds)).toEqual(['sort', '-name']);
  });

  it('the default page size may be left out, as Django REST Framework does', () => {
    expect(getUnaskedParameter(at('limit=20&offset=0'), next('offset=20'), bounds)).toBeUndefined();
  });
});
