import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IDENTIFIER_FIELD, DEFAULT_SUCCESS_STATUS } from '../../src/model/model-defaults.js';
import { LIST_PARAMS, PAGE_FIELDS } from '../../src/model/model-routes.js';
import { CONDITIONS, PART_NAMES } from '../../src/spec/spec-types.js';
import { getSpecSchema } from '../../src/spec/spec-validate.js';

// docs/format.md is written by hand; these checks keep it in step with the schema and the code.
const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'format.md'), 'utf8');

/** Every property name anywhere in the schema. */
function schemaKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) schemaKeys(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) out.add(k);
    for (const v of Object.values(o)) schemaKeys(v, out);
  }
  return out;
}

/** The doc names a key in code: `key`, `scope.includes`, `{ media_type }`, `servicespec: 1`. */
function names(key: string): boolean {
  return [...doc.matchAll(/`([^`\n]+)`/g)].some((m) => new RegExp(`(^|[^a-z_])${key}($|[^a-z_])`).test(m[1]!));
}

describe('docs/format.md', () => {
  it('names every key of the schema', () => {
    expect([...schemaKeys(getSpecSchema())].filter((k) => !names(k))).toEqual([]);
  });

  it('has a section for each of the nine parts, in order', () => {
    const headings = [...doc.matchAll(/^## (\d)\. `([a-z]+)`/gm)].map((m) => m[2]);
    expect(headings).toEqual([...PART_NAMES]);
  });

  it('lists the closed vocabulary of conditions, exactly', () => {
    const section = doc.slice(doc.indexOf('### The closed vocabulary of conditions'), doc.indexOf('## 8.'));
    const listed = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...CONDITIONS]);
  });

  it('states the defaults the code applies', () => {
    const section = doc.slice(doc.indexOf('## Defaults the format defines'), doc.indexOf('## What the format never defaults'));
    for (const [action, status] of Object.entries(DEFAULT_SUCCESS_STATUS)) {
      expect(section).toContain(action);
      expect(section).toContain(`**${status}**`);
    }
    expect(section).toContain(`the field \`${DEFAULT_IDENTIFIER_FIELD}\``);
    for (const name of [...Object.values(LIST_PARAMS), ...Object.values(PAGE_FIELDS)]) expect(section).toContain(`\`${name}\``);
    for (const c of ['DEFAULT_SUCCESS_STATUS', 'DEFAULT_IDENTIFIER_FIELD', 'LIST_PARAMS', 'PAGE_FIELDS']) expect(section).toContain(c);
    expect(section).toContain('`hidden`');
  });
});
