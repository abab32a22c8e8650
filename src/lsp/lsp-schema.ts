// What the format allows at a place, read from its JSON Schema (schema/servicespec.schema.json, the one the checker
// validates with): the keys a mapping may have, a value's enum, and which table of docs/format.md documents a key.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getSpecSchema } from '../spec/spec-validate.js';
import { splitPointer } from './lsp-yaml.js';

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let v: unknown = root;
  for (const seg of ref.slice(2).split('/')) v = isSchema(v) ? v[seg] : undefined;
  return isSchema(v) ? v : undefined;
}

/** The schema and every branch it stands for ($ref, allOf, anyOf, oneOf, if/then/else), each once. */
function expand(root: Schema, schema: Schema): Schema[] {
  const out: Schema[] = [];
  const seen = new Set<Schema>();
  const stack = [schema];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(s);
    if (typeof s.$ref === 'string') {
      const r = resolveRef(root, s.$ref);
      if (r) stack.push(r);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) for (const b of s[k] as unknown[]) if (isSchema(b)) stack.push(b);
    for (const k of ['then', 'else']) if (isSchema(s[k])) stack.push(s[k]);
  }
  return out;
}

function child(s: Schema, seg: string): Schema[] {
  const out: Schema[] = [];
  if (isSchema(s.properties) && isSchema(s.properties[seg])) out.push(s.properties[seg]);
  if (out.length === 0 && isSchema(s.patternProperties)) {
    for (const [pattern, sub] of Object.entries(s.patternProperties)) if (isSchema(sub) && new RegExp(pattern, 'u').test(seg)) out.push(sub);
  }
  if (out.length === 0 && isSchema(s.additionalProperties)) out.push(s.additionalProperties);
  if (/^\d+$/.test(seg) && isSchema(s.items)) out.push(s.items);
  return out;
}

/** Every schema that can describe the value at the pointer. */
export function getSchemasAt(pointer: string): Schema[] {
  const root = getSpecSchema();
  let current = expand(root, root);
  for (const seg of splitPointer(pointer)) {
    current = current.flatMap((s) => child(s, seg)).flatMap((s) => expand(root, s));
    if (current.length === 0) return [];
  }
  return current;
}

export interface KeyInfo {
  name: string;
  description?: string;
}

/** The keys a mapping at the pointer may have (`x-` extensions aside), with the schema's description of each. */
export function getKeysAt(pointer: string): KeyInfo[] {
  const keys = new Map<string, KeyInfo>();
  for (const s of getSchemasAt(pointer)) {
    if (!isSchema(s.properties)) continue;
    for (const [name, sub] of Object.entries(s.properties)) {
      if (keys.has(name)) continue;
      const description = isSchema(sub) ? [sub, ...expand(getSpecSchema(), sub)].map((x) => x.description).find((d) => typeof d === 'string') : undefined;
      keys.set(name, typeof description === 'string' ? { name, description } : { name });
    }
  }
  return [...keys.values()];
}

/** The values the schema lists for the value at the pointer (`enum`, `const`). */
export function getEnumAt(pointer: string): (string | number | boolean)[] {
  const values = new Set<string | number | boolean>();
  for (const s of getSchemasAt(pointer)) {
    if (Array.isArray(s.enum)) for (const v of s.enum as unknown[]) if (typeof v !== 'object') values.add(v as string | number | boolean);
    if (s.const !== undefined && typeof s.const !== 'object') values.add(s.const as string | number | boolean);
  }
  return [...values];
}

const DOCS_PATH = fileURLToPath(new URL('../../docs/format.md', import.meta.url));

interface DocTable {
  heading: string;
  /** Every key a row documents (a row may document several: `minLength`, `maxLength`, `pattern`). */
  rows: { keys: string[]; text: string }[];
}

let tables: DocTable[] | undefined;

/** The tables of docs/format.md whose first column names keys: `| \`key\` | … |`. */
function getDocTables(): DocTable[] {
  if (tables !== undefined) return tables;
  tables = [];
  let text: string;
  try {
    text = readFileSync(DOCS_PATH, 'utf8');
  } catch {
    return tables;
  }
  let heading = '';
  let header: string[] | undefined;
  let table: DocTable | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (!line.startsWith('|')) {
      header = undefined;
      table = undefined;
      continue;
    }
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (header === undefined) {
      header = cells;
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    if (table === undefined) {
      table = { heading, rows: [] };
      tables.push(table);
    }
    const keys = [...cells[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const text = header
      .slice(1)
      .map((h, i) => (cells[i + 1] ? `**${h}**: ${cells[i + 1]}` : ''))
      .filter((t) => t !== '')
      .join('  \n');
    table.rows.push({ keys, text });
  }
  return tables;
}

/**
 * docs/format.md's row for a key: among the tables that name it, the one whose other keys best match the keys the
 * schema allows beside it (the Fields table for a field's `type`, the transition table for a transition's `from`).
 */
export function getKeyDoc(parentPointer: string, key: string): string | undefined {
  const siblings = new Set(getKeysAt(parentPointer).map((k) => k.name));
  const top = splitPointer(parentPointer)[0] ?? key;
  let best: { score: number; heading: string; text: string } | undefined;
  for (const t of getDocTables()) {
    const row = t.rows.find((r) => r.keys.some((k) => k === key || k.endsWith(`.${key}`) || k.startsWith(`${key}.`)));
    if (row === undefined) continue;
    let score = 0;
    for (const r of t.rows) for (const k of r.keys) if (siblings.has(k.split('.')[0]!)) score++;
    if (t.heading.includes(`\`${top}\``)) score += 0.5;
    if (best === undefined || score > best.score) best = { score, heading: t.heading, text: row.text };
  }
  if (best === undefined || best.score < 1) return undefined;
  return `${best.text}\n\n_docs/format.md — ${best.heading}_`;
}

/** A part's own section of docs/format.md (`## 2. \`resources\` — …`): its heading and first paragraph. */
export function getPartDoc(part: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(DOCS_PATH, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^## /.test(l) && l.includes(`\`${part}\``));
  if (at < 0) return undefined;
  const para: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.startsWith('#') || l.startsWith('|')) break;
    if (l.trim() === '' && para.length > 0) break;
    if (l.trim() !== '') para.push(l);
  }
  return `**${lines[at]!.replace(/^##\s*/, '')}**${para.length > 0 ? `\n\n${para.join('\n')}` : ''}\n\n_docs/format.md_`;
}
