// Swagger 2.0 (OpenAPI 2.0): converted to OpenAPI 3.0 in memory by @scalar/openapi-upgrader, then imported as
// any OpenAPI 3 document. What the conversion changes or cannot carry is said here, at pointers into the ORIGINAL
// Swagger 2.0 document; what the importer says afterwards is pointed back at the original by getSwagger2Pointer.
import { upgrade } from '@scalar/openapi-upgrader';
import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { getPointerTokens, joinPointer } from '../util/util-json-pointer.js';
import { getByPointer, isObject as isObj } from './import-schema.js';

type Obj = Record<string, unknown>;

export const SWAGGER2_CONVERTER = '@scalar/openapi-upgrader 0.4.9';

// Swagger 2.0's operations: OpenAPI 3's but `trace`.
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Whether an internal `$ref` points at something in the document (a malformed percent escape points at nothing). */
function resolveLocal(doc: unknown, ref: string): boolean {
  try {
    return ref.startsWith('#') && getByPointer(doc, ref) !== undefined;
  } catch {
    return false;
  }
}

/** Every `$ref` inside the document that points to nothing: the import stops, as for OpenAPI 3. */
function findDanglingRefs(doc: unknown, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const stack: [unknown, string][] = [[doc, '']];
  while (stack.length > 0) {
    const [n, at] = stack.pop()!;
    if (Array.isArray(n)) n.forEach((v, i) => stack.push([v, joinPointer(at, i)]));
    else if (isObj(n)) {
      if (typeof n.$ref === 'string' && n.$ref.startsWith('#') && !resolveLocal(doc, n.$ref)) {
        out.push(
          createDiagnostic(
            'import-unresolved-ref',
            { ref: n.$ref, at: at === '' ? '/' : at, reason: 'nothing in the document is at that pointer' },
            { file, pointer: at },
          ),
        );
      }
      for (const [k, v] of Object.entries(n)) if (typeof v === 'object' && v !== null) stack.push([v, joinPointer(at, k)]);
    }
  }
  return out.sort((a, b) => (a.pointer ?? '').localeCompare(b.pointer ?? ''));
}

/** What the conversion to OpenAPI 3.0 changes in meaning or leaves out, said at the Swagger 2.0 document's pointers. */
function findLosses(doc: Obj, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const dropped = (item: string, reason: string, pointer: string): void => {
    out.push(createDiagnostic('import-dropped', { item, reason }, { file, pointer }));
  };
  const approximated = (item: string, as: string, reason: string, pointer: string): void => {
    out.push(createDiagnostic('import-approximated', { item, as, reason }, { file, pointer }));
  };
  const extensions = (node: unknown, pointer: string): void => {
    if (!isObj(node)) return;
    for (const k of Object.keys(node)) {
      if (k.startsWith('x-') && !k.startsWith('x-servicespec')) {
        dropped(
          `the extension \`${k}\``,
          'Swagger 2.0 extensions are carried into the converted document, but the importer reads none of them',
          joinPointer(pointer, k),
        );
      }
    }
  };
  const parameter = (p: unknown, pointer: string): void => {
    if (!isObj(p)) return;
    const where = typeof p.in === 'string' ? p.in : '';
    const name = typeof p.name === 'string' ? p.name : '?';
    const cf = p.collectionFormat;
    if (typeof cf === 'string' && cf !== 'csv') {
      const expressible = where === 'query' ? ['multi', 'ssv', 'pipes'].includes(cf) : where === 'formData' ? ['multi', 'ssv', 'pipes'].includes(cf) : false;
      if (!expressible) {
        approximated(
          `the ${where} parameter \`${name}\`'s collectionFormat \`${cf}\``,
          'comma-separated values',
          `OpenAPI 3 has no serialization for \`${cf}\` in ${where === '' ? 'this place' : where}`,
          joinPointer(pointer, 'collectionFormat'),
        );
      }
    }
    if (where === 'formData' && p.type === 'file') {
      approximated(
        `the file parameter \`${name}\``,
        'a multipart/form-data property of type string, format binary',
        'OpenAPI 3 has no file parameters',
        pointer,
      );
    }
    if (typeof p.allowEmptyValue === 'boolean' && where === 'formData') {
      dropped(`allowEmptyValue of the form parameter \`${name}\``, 'OpenAPI 3 has it only for query parameters', joinPointer(pointer, 'allowEmptyValue'));
    }
    extensions(p, pointer);
  };
  const produces = (list: unknown, pointer: string): void => {
    if (Array.isArray(list) && list.length > 1) {
      approximated(
        `produces (${list.map(String).join(', ')})`,
        'one schema repeated under each media type',
        'OpenAPI 3 gives each response its content by media type; the importer keeps one of them',
        pointer,
      );
    }
  };
  extensions(doc, '');
  extensions(doc.info, '/info');
  produces(doc.produces, '/produces');
  if (isObj(doc.parameters)) for (const [k, p] of Object.entries(doc.parameters)) parameter(p, joinPointer('/parameters', k));
  if (isObj(doc.securityDefinitions)) {
    for (const [k, s] of Object.entries(doc.securityDefinitions)) {
      const pointer = joinPointer('/securityDefinitions', k);
      extensions(s, pointer);
    }
  }
  if (isObj(doc.paths)) {
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!isObj(item)) continue;
      const ip = joinPointer('/paths', path);
      extensions(item, ip);
      if (Array.isArray(item.parameters)) item.parameters.forEach((p, i) => parameter(p, joinPointer(joinPointer(ip, 'parameters'), i)));
      for (const m of METHODS) {
        const op = item[m];
        if (!isObj(op)) continue;
        const op_ = joinPointer(ip, m);
        extensions(op, op_);
        produces(op.produces, joinPointer(op_, 'produces'));
        if (Array.isArray(op.parameters)) op.parameters.forEach((p, i) => parameter(p, joinPointer(joinPointer(op_, 'parameters'), i)));
      }
    }
  }
  return out;
}

export type Swagger2Result = { document: Obj; diagnostics: Diagnostic[] } | { document?: undefined; diagnostics: Diagnostic[] };

/**
 * Converts a Swagger 2.0 document (internal `$ref`s only; external ones bundled in before) to OpenAPI 3.0. A
 * document that cannot be converted gives error diagnostics and no document.
 */
export function convertSwagger2(value: Obj, file: string): Swagger2Result {
  const fail = (detail: string): Swagger2Result => ({ diagnostics: [createDiagnostic('import-not-openapi', { path: file, detail }, { file })] });
  if (value.swagger !== '2.0') return fail(`it is Swagger ${String(value.swagger)}; Swagger 2.0 and OpenAPI 3.0 and 3.1 are read`);
  if (!isObj(value.paths)) return fail('it is Swagger 2.0 but has no `paths` mapping');
  if (!isObj(value.info)) return fail('it is Swagger 2.0 but has no `info` mapping');
  const dangling = findDanglingRefs(value, file);
  if (dangling.length > 0) return { diagnostics: dangling };
  let converted: unknown;
  try {
    converted = upgrade(structuredClone(value), '3.0');
  } catch (err) {
    return fail(`the Swagger 2.0 document cannot be converted to OpenAPI 3 (${String((err as Error).message ?? err).split('\n')[0]})`);
  }
  if (!isObj(converted) || typeof converted.openapi !== 'string') return fail('the Swagger 2.0 document cannot be converted to OpenAPI 3');
  const diagnostics = [createDiagnostic('import-from-swagger2', { converter: SWAGGER2_CONVERTER }, { file }), ...findLosses(value, file)];
  return { document: converted, diagnostics };
}

/** The node at `tokens`; with `follow`, `$ref`s inside the document are followed on the way (bounded: no cycle). */
function nodeAt(root: unknown, tokens: readonly string[], follow = true): unknown {
  const deref = (n: unknown): unknown => {
    for (let hops = 0; follow && isObj(n) && typeof n.$ref === 'string' && n.$ref.startsWith('#/') && hops < 8; hops++)
      n = nodeAt(root, getPointerTokens(n.$ref.slice(1)), false);
    return n;
  };
  let node: unknown = root;
  for (const t of tokens) {
    node = deref(node);
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObj(node) && Object.prototype.hasOwnProperty.call(node, t)) node = node[t];
    else return undefined;
  }
  return deref(node);
}

/** The index of the original parameter list's entry (its `$ref` followed) that `pick` takes. */
function originalParameter(original: unknown, list: readonly string[], pick: (p: Obj) => boolean): number | undefined {
  const params = nodeAt(original, list);
  if (!Array.isArray(params)) return undefined;
  const i = params.findIndex((_, k) => {
    const n = nodeAt(original, [...list, String(k)]);
    return isObj(n) && pick(n);
  });
  return i < 0 ? undefined : i;
}

/**
 * A pointer into the converted OpenAPI 3.0 document, as the place in the ORIGINAL Swagger 2.0 document it came from:
 * its components under their Swagger names (`/definitions`, `/securityDefinitions`, `/parameters`, `/responses`), a
 * parameter by its name and place rather than its index (the body one leaves the list), a request body as the body
 * or form parameter, a media type's schema as Swagger's one `schema` — then the deepest part of that path the
 * original holds, so a pointer always names a place the user's document has.
 */
export function getSwagger2Pointer(pointer: string, original: Obj, converted: Obj): string {
  const t = getPointerTokens(pointer);
  let out: string[] = t;
  const comp: Record<string, string> = { schemas: 'definitions', securitySchemes: 'securityDefinitions', parameters: 'parameters', responses: 'responses' };
  // A media type's content in OpenAPI 3 is Swagger's one schema (or examples) on the parameter or response.
  const unwrapContent = (rest: string[]): string[] => (rest[0] === 'content' && rest.length >= 2 ? rest.slice(2) : rest);
  if (t[0] === 'components' && t[1] !== undefined && comp[t[1]] !== undefined) {
    out = [comp[t[1]]!, ...t.slice(2)];
    if (t[1] === 'responses') out = [...out.slice(0, 2), ...unwrapContent(out.slice(2))];
  } else if (t[0] === 'paths' && t.length >= 3) {
    const op = t[2] === 'parameters' ? t.slice(0, 2) : t.slice(0, 3);
    const rest = t.slice(op.length);
    if (rest[0] === 'parameters' && rest[1] !== undefined) {
      const p = nodeAt(converted, [...op, 'parameters', rest[1]]);
      const j = isObj(p) ? originalParameter(original, [...op, 'parameters'], (n) => n.name === p.name && n.in === p.in) : undefined;
      out = j === undefined ? op : [...op, 'parameters', String(j), ...rest.slice(2)];
    } else if (rest[0] === 'requestBody') {
      const inner = unwrapContent(rest.slice(1));
      const body = originalParameter(original, [...op, 'parameters'], (n) => n.in === 'body');
      const formName = inner[0] === 'schema' && inner[1] === 'properties' ? inner[2] : undefined;
      const form = formName !== undefined ? originalParameter(original, [...op, 'parameters'], (n) => n.in === 'formData' && n.name === formName) : undefined;
      out =
        body !== undefined
          ? [...op, 'parameters', String(body), ...inner]
          : form !== undefined
            ? [...op, 'parameters', String(form), ...inner.slice(3)]
            : [...op, 'parameters'];
    } else if (rest[0] === 'responses' && rest[1] !== undefined) out = [...op, 'responses', rest[1], ...unwrapContent(rest.slice(2))];
  }
  // The deepest part of the path the original holds, as written (a `$ref` is where its pointer stops).
  let depth = out.length;
  while (depth > 0 && nodeAt(original, out.slice(0, depth), false) === undefined) depth--;
  return out.slice(0, depth).reduce((at, k) => joinPointer(at, k), '');
}
