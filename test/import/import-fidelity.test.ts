// Per document, import → export openapi keeps every request and response body property AT ITS ORIGINAL POSITION
// (`a`, `a.b`, `a[].c`; allOf, oneOf and anyOf read as one object, so subtypes count), by (method, path, request or
// status): issue 26 "Done when". Operations, parameters and statuses are held by import-corpus.test.ts, webhook
// payloads by import-webhook-positions.test.ts, discriminators by import-unions.test.ts, named examples by
// import-examples.test.ts. A position may be missing only with a status the import says it dropped (import-dropped
// at that response's pointer: kubernetes' second and third success statuses, an operation having one); the figures
// are printed per document.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function deref(root: Json, n: unknown): unknown {
  for (let i = 0; i < 16 && isObj(n) && typeof n.$ref === 'string'; i++)
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((x, t) => (isObj(x) ? x[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
  return n;
}

function positions(root: Json, schema: unknown, prefix = '', depth = 0, out = new Set<string>()): Set<string> {
  const s = deref(root, schema);
  if (!isObj(s) || depth > 8) return out;
  for (const k of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(s[k])) for (const x of s[k] as unknown[]) positions(root, x, prefix, depth + 1, out);
  if (s.items !== undefined) positions(root, s.items, `${prefix}[]`, depth + 1, out);
  if (isObj(s.properties)) {
    for (const [name, p] of Object.entries(s.properties)) {
      const at = prefix === '' ? name : `${prefix}.${name}`;
      out.add(at);
      positions(root, p, at, depth + 1, out);
    }
  }
  return out;
}

const jsonMedia = (content: unknown): unknown =>
  isObj(content) ? Object.entries(content).find(([m]) => m === 'application/json' || m.endsWith('+json'))?.[1] : undefined;
const escape = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** `METHOD path request|status` → the body's property positions, with the pointer of that request or response. */
function bodies(doc: Json): Map<string, { pointer: string; at: Set<string> }> {
  const out = new Map<string, { pointer: string; at: Set<string> }>();
  for (const [path, raw] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const item = deref(doc, raw);
    if (!isObj(item)) continue;
    for (const m of METHODS) {
      const op = item[m];
      if (!isObj(op)) continue;
      const base = `/paths/${escape(path)}/${m}`;
      const rb = deref(doc, op.requestBody);
      const media = isObj(rb) ? jsonMedia(rb.content) : undefined;
      if (isObj(media)) out.set(`${m.toUpperCase()} ${path} request`, { pointer: `${base}/requestBody`, at: positions(doc, media.schema) });
      for (const [status, r] of Object.entries(isObj(op.responses) ? op.responses : {})) {
        const res = deref(doc, r);
        const md = isObj(res) ? jsonMedia(res.content) : undefined;
        if (isObj(md)) out.set(`${m.toUpperCase()} ${path} ${status}`, { pointer: `${base}/responses/${status}`, at: positions(doc, md.schema) });
      }
    }
  }
  return out;
}

const files = readdirSync(OPENAPI_FIXTURES)
  .filter((f) => /\.(ya?ml|json)$/.test(f))
  .sort();

describe('import → export openapi keeps body properties where they were', () => {
  for (const file of files) {
    it(`${file}: every request and response body property at its original position, or its status said dropped`, async () => {
      const path = join(OPENAPI_FIXTURES, file);
      const text = readFileSync(path, 'utf8');
      const source = bodies((file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Json);
      const r = await importOpenApiFile(path);
      const back = bodies(exportOpenApi(r.compiled!.model!).document as Json);
      const dropped = new Set(r.diagnostics.filter((d) => d.code === 'import-dropped').map((d) => d.pointer));
      // A `2XX` range is served as one status of the range, which the import says (import-approximated at it): its
      // body is compared with that status's.
      const ranged = new Set(
        r.diagnostics.filter((d) => d.code === 'import-approximated' && /\/responses\/[1-5]XX$/i.test(d.pointer ?? '')).map((d) => d.pointer),
      );
      const answer = (key: string, pointer: string) => {
        if (back.has(key) || !ranged.has(pointer)) return back.get(key);
        const op = key.slice(0, key.lastIndexOf(' '));
        const digit = key.slice(key.lastIndexOf(' ') + 1, key.lastIndexOf(' ') + 2);
        return [...back].find(([k]) => k.startsWith(`${op} `) && new RegExp(`^${digit}\\d\\d$`).test(k.slice(op.length + 1)))?.[1];
      };
      let total = 0;
      let kept = 0;
      const lost: string[] = [];
      for (const [key, { pointer, at }] of source) {
        for (const p of at) {
          total++;
          if (answer(key, pointer)?.at.has(p)) kept++;
          else if (!dropped.has(pointer)) lost.push(`${key}: ${p}`);
        }
      }
      console.log(
        `${file}: ${kept}/${total} body properties at their original position${kept < total ? ` (the rest under a status the import reports dropped)` : ''}`,
      );
      expect(lost, 'body properties not back at their position, with nothing said').toEqual([]);
    });
  }
});
