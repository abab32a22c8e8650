// Issue 12 item 15: the loader's fast path (js-yaml) and its positions path (`yaml`) read one YAML: the 1.2 core
// schema. Whenever the fast path reads a file, the positions path reads the same document; when the positions path
// refuses a file, the fast path leaves it to it (so the answer is its diagnostic).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScalar, Schema } from 'yaml';
import { CORE_SCALAR_TAGS, loadSpecText, loadSpecTextFast, loadSpecTextWithPositions } from '../../src/spec/spec-loader.js';

/** Plain scalars whose type depends on the schema (YAML 1.1, js-yaml's extensions, 1.2 core). */
const TRICKY = [
  '0b101',
  '-0b1',
  '0o17',
  '0o8',
  '0O17',
  '0x1F',
  '0X1F',
  '-0x1f',
  '+0x1f',
  '010',
  '0777',
  '08',
  '+1',
  '-1',
  '-0',
  '+0',
  '1_000',
  '1,000',
  'yes',
  'no',
  'Yes',
  'NO',
  'on',
  'off',
  'On',
  'OFF',
  'y',
  'n',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  '.inf',
  '-.inf',
  '+.inf',
  '.Inf',
  '.INF',
  '.nan',
  '.NaN',
  '.NAN',
  '.nAn',
  'inf',
  'nan',
  '2026-01-01',
  '2026-1-1',
  '2026-01-01T10:00:00Z',
  '2026-01-01 10:00:00',
  '12:30',
  '1:20:30',
  '190:20:30',
  '1e3',
  '1E3',
  '1e+3',
  '1.5e-3',
  '1.',
  '.5',
  '-.5',
  '+.5',
  '1.0',
  '01.5',
  '1_0.5',
  '6.8523015e+5',
  '685.230_15e+03',
  '12345678901234567890',
  '9007199254740993',
  '1e400',
  '0.1',
  '3.',
  '0.',
  '.0',
  '<<',
  '=',
  '-',
  '?',
  'a b',
  'x:y',
  '0x',
  '0o',
  '0b',
  '+',
  '.',
];

const NAMES = ['a', 'b', 'c', 'type', 'minimum', 'maximum', 'x-note', '<<', 'k1', 'k2', 'true', '1', '0x2', 'yes', '"null"'];

function quote(s: string): string {
  return JSON.stringify(s);
}

const scalar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TRICKY) },
  fc.constantFrom(...TRICKY).map(quote),
  fc.constantFrom(...TRICKY).map((s) => `'${s.replace(/'/g, "''")}'`),
  fc.constantFrom(...TRICKY).map((s) => `!!str ${s}`),
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '!!int 7',
      '!!int 0x1F',
      '!!int "7"',
      '!!float 1',
      '!!float 1.5',
      '!!bool yes',
      '!!null ~',
      '!!null',
      '! 5',
      '!!binary aGk=',
      '!!timestamp 2001-12-14',
      '!foo 5',
    ),
  },
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.string({ maxLength: 6 }).map(quote),
);

const key = fc.oneof(
  { weight: 80, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 3, arbitrary: fc.constantFrom(...NAMES, ...TRICKY).map(quote) },
  { weight: 1, arbitrary: fc.constantFrom('~', '[a]', '{a: 1}', '? [a, b]', '? a') },
);
const entries = <T>(value: fc.Arbitrary<T>, maxLength: number) => fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength, selector: ([k]) => k });

type Node = { kind: 'scalar'; text: string } | { kind: 'map'; entries: [string, Node][]; flow: boolean } | { kind: 'seq'; items: Node[]; flow: boolean };

const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((text): Node => ({ kind: 'scalar', text })),
    fc.record({ entries: entries(tie('node'), 4), flow: fc.boolean() }).map((r): Node => ({ kind: 'map', ...r })),
    fc.record({ items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }), flow: fc.boolean() }).map((r): Node => ({ kind: 'seq', ...r })),
  ),
}));

function flow(n: Node): string {
  if (n.kind === 'scalar') return n.text;
  if (n.kind === 'seq') return `[${n.items.map(flow).join(', ')}]`;
  return `{${n.entries.map(([k, v]) => `${k.startsWith('?') ? k : `${k}`}: ${flow(v)}`).join(', ')}}`;
}

/** Block style where asked for (and allowed: inside flow everything is flow). */
function block(n: Node, indent: string): string {
  if (n.kind === 'scalar' || n.flow) return ` ${flow(n)}\n`;
  if (n.kind === 'seq') return `\n${n.items.map((i) => `${indent}-${block(i, `${indent}  `)}`).join('')}`;
  return `\n${n.entries.map(([k, v]) => (k.startsWith('?') ? `${indent}${k}\n${indent}:${block(v, `${indent}  `)}` : `${indent}${k}:${block(v, `${indent}  `)}`)).join('')}`;
}

/** A document: a block mapping at the top, a few entries, sometimes an anchor and its alias, a merge key, a directive. */
const documentText = fc
  .record({
    entries: entries(node, 5),
    anchor: fc.option(fc.tuple(scalar, fc.boolean()), { nil: undefined }),
    merge: fc.boolean(),
    directive: fc.constantFrom('', '%YAML 1.2\n---\n', '%YAML 1.1\n---\n'),
  })
  .map(({ entries, anchor, merge, directive }) => {
    let text = directive + entries.map(([k, v]) => (k.startsWith('?') ? `${k}\n:${block(v, '  ')}` : `${k}:${block(v, '  ')}`)).join('');
    if (anchor) {
      const [value, collection] = anchor;
      text += collection ? `anchored: &x\n  k: ${value}\n` : `anchored: &x ${value}\n`;
      text += merge ? `merged:\n  <<: *x\n  own: 1\n` : `alias: *x\n`;
    }
    return text;
  });

/** The document as JSON would carry it, keeping -0 and NaN apart from 0 and null. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

let readFast = 0;

function check(text: string): void {
  const fast = loadSpecTextFast(text, 't.yaml');
  const slow = loadSpecTextWithPositions(text, 't.yaml');
  if (fast === undefined) return; // left to the positions path: one answer by construction
  readFast++;
  expect(
    slow.diagnostics.map((d) => `${d.code}: ${d.message}`),
    text,
  ).toEqual([]);
  expect(same(fast.document, slow.document), `${text}\nfast: ${JSON.stringify(fast.document)}\nslow: ${JSON.stringify(slow.document)}`).toBe(true);
  // The fast path finds positions without parsing the whole file again, and finds the ones the positions path finds.
  // Each pointer on a fresh map: one that fell back to the positions path answers every later one from it.
  for (const [pointer, entry] of slow.sourceMap) expect(loadSpecTextFast(text, 't.yaml')!.sourceMap.get(pointer), `${text}\nat ${pointer}`).toEqual(entry);
  expect(loadSpecTextFast(text, 't.yaml')!.sourceMap.get('/no/such/key')).toBeUndefined();
}

describe('the fast path and the positions path read one YAML (1.2 core schema)', () => {
  it('maximum: 0b101 is the text "0b101" whether or not the file also has an alias (the reported case)', () => {
    const plain = 'servicespec: 1\nx-limits:\n  maximum: 0b101\n';
    const aliased = `${plain}x-a: &a [1]\nx-b: *a\n`;
    expect((loadSpecText(plain).document as { 'x-limits': unknown })['x-limits']).toEqual({ maximum: '0b101' });
    expect((loadSpecText(aliased).document as { 'x-limits': unknown })['x-limits']).toEqual({ maximum: '0b101' });
    expect(loadSpecTextFast(plain)).toBeDefined();
    expect(loadSpecTextFast(aliased)).toBeUndefined();
  });

  it.each([
    ['0b101', '0b101'],
    ['-0x1f', '-0x1f'],
    ['0x1F', 31],
    ['0o17', 15],
    ['010', 10],
    ['1_000', '1_000'],
    ['yes', 'yes'],
    ['~', null],
    ['.inf', Infinity],
    ['2026-01-01', '2026-01-01'],
  ])('%s reads as %j on both paths', (text, value) => {
    const yaml = `a: ${text}\n`;
    expect(loadSpecTextFast(yaml)?.document).toEqual({ a: value });
    expect(loadSpecTextWithPositions(yaml).document).toEqual({ a: value });
  });

  it("the fast path's copy of the core schema's scalar tags is yaml's own: same order, tests and values", () => {
    const theirs = new Schema({ schema: 'core', merge: false, resolveKnownTags: false }).tags.filter(
      (t) => !('collection' in t) && 'test' in t && t.test !== undefined,
    );
    expect(CORE_SCALAR_TAGS.map((t) => [t.tag, t.test.source, t.test.flags])).toEqual(theirs.map((t) => [t.tag, t.test!.source, t.test!.flags]));
    for (const text of [...TRICKY, '1.50', '-1.25e2', '0o0', '0x0', '-.INF', '+.inf']) {
      const i = theirs.findIndex((t) => t.test!.test(text));
      if (i < 0) continue;
      const r = (theirs[i] as unknown as { resolve: (s: string, onError: () => void, options: object) => unknown }).resolve(text, () => undefined, {});
      const expected = isScalar(r) ? r.value : r;
      expect(Object.is(CORE_SCALAR_TAGS[i]!.resolve(text), expected) || CORE_SCALAR_TAGS[i]!.resolve(text) === expected, text).toBe(true);
    }
  });

  it('-0 is -0 on both paths', () => {
    expect(Object.is((loadSpecTextFast('a: -0')!.document as { a: number }).a, -0)).toBe(true);
    expect(Object.is((loadSpecTextWithPositions('a: -0').document as { a: number }).a, -0)).toBe(true);
  });

  it('a carriage return not before a line feed takes the positions path, so both read it alike (CR LF stays fast)', () => {
    const text = 'servicespec: 1\npurpose:\n  name: "a\r b"\n';
    expect(loadSpecTextFast(text)).toBeUndefined();
    expect(loadSpecText(text).document).toEqual(loadSpecTextWithPositions(text).document);
    expect(loadSpecTextFast('servicespec: 1\r\npurpose:\r\n  name: a\r\n')?.document).toEqual({ servicespec: 1, purpose: { name: 'a' } });
  });

  it('a %YAML 1.1 directive does not switch the reading to YAML 1.1', () => {
    const text = '%YAML 1.1\n---\na: 0b101\nb: yes\nx: &x { k: 1 }\nc: { <<: *x }\n';
    expect(loadSpecText(text).document).toEqual({ a: '0b101', b: 'yes', x: { k: 1 }, c: { '<<': { k: 1 } } });
  });

  it('keys that read as one JSON key are duplicates on both paths: 1, 1.0 and "1"', () => {
    for (const text of ['1: a\n"1": b\n', '1: a\n1.0: b\n', '0x1: a\n1: b\n']) {
      expect(loadSpecTextFast(text)).toBeUndefined();
      expect(loadSpecText(text).diagnostics.map((d) => d.code)).toEqual(['duplicate-key']);
    }
  });

  it('null, list and mapping keys are refused with a position, not read as "null", "a" or "[object Object]"', () => {
    for (const [text, what] of [
      ['~: 1\n', 'null'],
      ['null: 1\n', 'null'],
      ['[a]: 1\n', 'a list'],
      ['{a: 1}: 2\n', 'a mapping'],
      ['? [a, b]\n: 1\n', 'a list'],
    ] as const) {
      expect(loadSpecTextFast(text)).toBeUndefined();
      const d = loadSpecText(text).diagnostics;
      expect(d.map((x) => [x.code, x.message, x.line])).toEqual([
        ['yaml-syntax', `YAML syntax error (KEY_NOT_TEXT): a mapping key must be text, a number or a boolean, not ${what}`, 1],
      ]);
    }
  });

  it('an alias used as a key is the key it names, on both paths', () => {
    const text = 'a: &k name\n*k : 2\n';
    expect(loadSpecText(text).document).toEqual({ a: 'name', name: 2 });
    expect(loadSpecTextWithPositions(text).document).toEqual({ a: 'name', name: 2 });
  });

  it('the examples take the fast path and read the same on both', () => {
    const dir = new URL('../../examples/', import.meta.url).pathname;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(loadSpecTextFast(text), f).toBeDefined();
      check(text);
    }
  });

  it('flow collections as items of a block list take the fast path (js-yaml closes them twice)', () => {
    for (const text of ['a:\n  - { x: 1 }\n', 'a:\n  - [1, 2]\n  - { y: [3] }\n', 'a:\n  - - { z: 1 }\n']) {
      expect(loadSpecTextFast(text), text).toBeDefined();
      check(text);
    }
    // A collection used as a key is still left to the positions path.
    expect(loadSpecTextFast('a:\n  - { [1]: x }\n')).toBeUndefined();
  });

  it('without anchors (no `&`, counted rather than kept in a set), a collection key or a nested list still goes to the positions path', () => {
    for (const text of ['a: 1\n? [a, b]\n: 1\n', 'a: { {b: 1}: 2 }\n', 'a:\n  - [x, [y]]\n  - { [1]: x }\n', 'a:\n  - - 1\n    -\n    - 2\n']) {
      expect(text.includes('&')).toBe(false);
      expect(loadSpecTextFast(text), text).toBeUndefined();
    }
    // With an anchor somewhere (even in text), the set: an alias of a collection is refused, one of a scalar read.
    expect(loadSpecTextFast('a: "x & y"\nb:\n  - { c: 1 }\n')).toBeDefined();
    expect(loadSpecTextFast('a: &k [1]\nb: *k\n')).toBeUndefined();
    expect(loadSpecTextFast('a: &k 1\nb: *k\n')?.document).toEqual({ a: 1, b: 1 });
  });

  it("the fast path's positions step over deeper lines as the positions path reads them: comments, blank lines, CR LF, tabs, line separators, long scalars", () => {
    const texts = [
      'a:\n  b: 1\n\n  # note\n# top note\n  c:\n    d: [1, 2]\n\n    e: x\nf:\n  - 1\n  -   g: 2\n      h: 3\n',
      'a:\r\n  b: 1\r\n  c:\r\n    d: 2\r\ne: 3\r\n',
      'a:\n  b: "x\u2028  y"\n  c: 1\nd: "p q"\ne:\n  f: 2\n',
      'a:\n  b: 1\n \t# a tab before a comment\n  c: 2\nd: 3\n',
      'a:\n  b: 1\n  \tc: 2\nd: 3\n',
      'a:\n  b: a long\n    plain text\n  c: |\n    block\n\n    text\n  d: 2\ne:\n  - x\n  - y: 1\n    z: 2\n',
      'a:\n    b:\n        c: 1\n    d: 2\n  # shallow comment\ne: 1\n',
    ];
    for (const text of texts) check(text);
  });

  it(
    'property: over generated YAML, both paths give the same value whenever the fast path reads a file',
    () => {
      // LOADER_RUNS=20000 for a longer search (passes: about 30 s).
      const numRuns = Number(process.env.LOADER_RUNS ?? 1500);
      readFast = 0;
      fc.assert(fc.property(documentText, check), { numRuns });
      // Tricky input sends many files to the positions path; enough must stay on the fast one for the property to say something.
      expect(readFast).toBeGreaterThan(numRuns / 10);
      // Generous: the machine may be busy, and LOADER_RUNS may be large.
    },
    60_000 + Number(process.env.LOADER_RUNS ?? 0) * 20,
  );
});
