// Per document, import → export openapi keeps every request and response body property AT ITS ORIGINAL POSITION
// (`a`, `a.b`, `a[].c`; allOf, oneOf and anyOf read as one object, so subtypes count), by (method, path, request or
// status; a callback's message by its name and method): issue 26 "Done when". Operations, parameters and statuses
// are held by import-corpus.test.ts, webhook payloads by import-webhook-positions.test.ts, discriminators by
// import-unions.test.ts, named examples by import-examples.test.ts. A callback the import says it dropped (at its
// pointer: one on an operation not imported as a create) counts as said. A position may be missing only with a status the import says it dropped (import-dropped
// at that response's pointer: kubernetes' second and third success statuses, an operation having one) or a body it
// says it reads as another shape (at the body's schema: ably's oneOf of two arrays); the figures are printed per
// document. A `readOnly` property is no position of a request, nor a `writeOnly` one of an answer (OpenAPI's rule).
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

/**
 * The property positions a body of this schema can hold. By OpenAPI's own rules some declared properties are no
 * position of it: a `readOnly` property is not sent in a request, a `writeOnly` one not answered, and `properties`
 * beside a `type` that is not an object (ably's `registrationToken: { type: string, properties }`) hold no value.
 */
function positions(
  root: Json,
  schema: unknown,
  dir: 'request' | 'response',
  prefix = '',
  depth = 0,
  out = new Set<string>(),
  stack: readonly unknown[] = [],
): Set<string> {
  const s = deref(root, schema);
  // A schema that refers back to one enclosing it (redoc's Pet.friend: Pet) adds no positions of its own: its
  // properties are the enclosing schema's, counted there.
  if (!isObj(s) || depth > 8 || stack.includes(s)) return out;
  stack = [...stack, s];
  for (const k of ['allOf', 'oneOf', 'anyOf'])
    if (Array.isArray(s[k])) for (const x of s[k] as unknown[]) positions(root, x, dir, prefix, depth + 1, out, stack);
  if (s.items !== undefined) positions(root, s.items, dir, `${prefix}[]`, depth + 1, out, stack);
  const types = s.type === undefined ? ['object'] : Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
  if (isObj(s.properties) && types.includes('object')) {
    for (const [name, p] of Object.entries(s.properties)) {
      if (flagged(root, p, dir === 'request' ? 'readOnly' : 'writeOnly')) continue;
      const at = prefix === '' ? name : `${prefix}.${name}`;
      out.add(at);
      positions(root, p, dir, at, depth + 1, out, stack);
    }
  }
  return out;
}

/** Whether a schema is readOnly (writeOnly), itself or through its allOf (redoc's `id: { allOf: [Id] }`). */
function flagged(root: Json, schema: unknown, flag: 'readOnly' | 'writeOnly', depth = 0): boolean {
  const s = deref(root, schema);
  if (!isObj(s) || depth > 8) return false;
  return s[flag] === true || (Array.isArray(s.allOf) && s.allOf.some((x) => flagged(root, x, flag, depth + 1)));
}

const jsonMedia = (content: unknown): [string, unknown] | undefined =>
  isObj(content) ? Object.entries(content).find(([m]) => m === 'application/json' || m.endsWith('+json')) : undefined;
const escape = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

interface Body {
  /** The request's or response's pointer, and its JSON schema's. */
  pointer: string;
  schema: string;
  at: Set<string>;
}

/** `METHOD path request|status` → the body's property positions, with the pointer of that request or response. */
function bodies(doc: Json): Map<string, Body> {
  const out = new Map<string, Body>();
  for (const [path, raw] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const item = deref(doc, raw);
    if (!isObj(item)) continue;
    for (const m of METHODS) {
      const op = item[m];
      if (!isObj(op)) continue;
      const base = `/paths/${escape(path)}/${m}`;
      const rb = deref(doc, op.requestBody);
      const media = isObj(rb) ? jsonMedia(rb.content) : undefined;
      if (media && isObj(media[1]))
        out.set(`${m.toUpperCase()} ${path} request`, {
          pointer: `${base}/requestBody`,
          schema: `${base}/requestBody/content/${escape(media[0])}/schema`,
          at: positions(doc, media[1].schema, 'request'),
        });
      for (const [status, r] of Object.entries(isObj(op.responses) ? op.responses : {})) {
        const res = deref(doc, r);
        const md = isObj(res) ? jsonMedia(res.content) : undefined;
        if (md && isObj(md[1]))
          out.set(`${m.toUpperCase()} ${path} ${status}`, {
            pointer: `${base}/responses/${status}`,
            schema: `${base}/responses/${status}/content/${escape(md[0])}/schema`,
            at: positions(doc, md[1].schema, 'response'),
          });
      }
      // A callback's message is a request the service sends: its body's positions, by callback name and method.
      for (const [name, raw] of Object.entries(isObj(op.callbacks) ? op.callbacks : {})) {
        const cb = deref(doc, raw);
        for (const [expression, rawItem] of Object.entries(isObj(cb) ? cb : {})) {
          const cbItem = deref(doc, rawItem);
          for (const cm of METHODS) {
            const cop = isObj(cbItem) ? cbItem[cm] : undefined;
            const crb = isObj(cop) ? deref(doc, cop.requestBody) : undefined;
            const cmedia = isObj(crb) ? jsonMedia(crb.content) : undefined;
            const at = `${base}/callbacks/${escape(name)}/${escape(expression)}/${cm}/requestBody`;
            if (cmedia && isObj(cmedia[1]))
              out.set(`${m.toUpperCase()} ${path} callback ${name} ${cm.toUpperCase()}`, {
                pointer: at,
                schema: `${at}/content/${escape(cmedia[0])}/schema`,
                at: positions(doc, cmedia[1].schema, 'request'),
              });
          }
        }
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
      // A body the format cannot hold as it is (a oneOf of arrays: ably's GET /channels) is read as another shape,
      // which the import says at the body's schema: its positions are counted as said, not kept.
      const saidOfBody = new Set(
        r.diagnostics
          .filter((d) => d.code === 'import-dropped' || d.code === 'import-approximated')
          .map((d) => (d.pointer ?? '').replace(/\/(oneOf|anyOf)$/, '')),
      );
      // A range (`2XX`) comes back as the range, at its key: no allowance for a status standing in for it.
      const answer = (key: string) => back.get(key);
      let total = 0;
      let kept = 0;
      let said = 0;
      const lost: string[] = [];
      for (const [key, { pointer, schema, at }] of source) {
        for (const p of at) {
          total++;
          if (answer(key)?.at.has(p)) kept++;
          else if (
            dropped.has(pointer) ||
            saidOfBody.has(schema) ||
            [...dropped].some((d) => d !== undefined && /\/callbacks\//.test(d) && pointer.startsWith(`${d}/`))
          )
            said++;
          else lost.push(`${key}: ${p}`);
        }
      }
      console.log(
        `${file}: ${kept}/${total} body properties at their original position${said > 0 ? ` (${said} under a status or body the import says it dropped or approximated)` : ''}`,
      );
      expect(lost, 'body properties not back at their position, with nothing said').toEqual([]);
    });
  }
});
