// Path parameters bound to fields (`bind`, model-path-bindings.ts): the values a request's path gives its bound
// fields. An object-addressing action finds the object whose bound fields hold them (a value the field cannot hold
// names no object: missing_resource, as a malformed identifier does); a create sets them, an update or replace keeps
// them (a body may not move the object), a list filters by them (there a value the field cannot hold is the
// request's mistake: validation, as for a filter).

import { getField, getResource } from '../../model/model-lookup.js';
import {
  getNestedColumn,
  getParentBinding,
  getResolvedBindings,
  getResolvedParentChain,
  getValueAt,
  PARENT_COLUMN,
  type ResolvedBinding,
} from '../../model/model-path-bindings.js';
import { getFieldSchema, isWritable, type SchemaView } from '../../model/model-schemas.js';
import type { FieldModel, OperationModel, ResourceModel, ServiceModel } from '../../model/model-types.js';
import { ServiceError } from '../runtime-errors.js';
import type { Validator } from '../runtime-validation.js';
import { getRowKey } from '../storage/storage-plan.js';
import type { Row, Storage, StorageTx } from '../storage/storage-types.js';
import type { FastifyRequest } from 'fastify';
import { parseText } from './runtime-parameters.js';

export type Compile = (schema: Record<string, unknown>, resource?: ResourceModel) => Validator;

/** Reads the bound fields' values from a request's path parameters; throws the mode's condition on a bad value. */
export type PathValues = (params: Record<string, string>) => Row;

export function createPathValues(
  model: ServiceModel,
  resource: ResourceModel,
  o: OperationModel,
  compile: Compile,
  mode: 'address' | 'scope',
): PathValues | undefined {
  const bindings = getResolvedBindings(resource, o);
  // A parent the path names (`Article.slug`): its identifier, which the parent resolver put in the params.
  const parent = getParentBinding(o) !== undefined;
  if (bindings.length === 0 && !parent) return undefined;
  const readers = bindings.map((b) => createReader(model, resource, b, compile));
  return (params) => {
    const out: Row = {};
    if (parent) out[PARENT_COLUMN] = (params as Record<string, unknown>)[PARENT_COLUMN];
    const invalid: { parameter: string; in: 'path'; message: string }[] = [];
    for (const r of readers) {
      const raw = params[r.param];
      try {
        if (raw === undefined || raw === '') throw new Error('is empty');
        out[r.column] = r.read(raw);
      } catch (err) {
        if (mode === 'address') throw new ServiceError('missing_resource', `no ${resource.name} with that ${r.path}`);
        invalid.push({
          parameter: r.param,
          in: 'path',
          message: err instanceof ServiceError ? (err.invalid?.[0]?.message ?? 'is not a valid value') : (err as Error).message,
        });
      }
    }
    if (invalid.length > 0) throw new ServiceError('validation', 'the path is not valid', invalid);
    return out;
  };
}

function createReader(
  model: ServiceModel,
  resource: ResourceModel,
  b: ResolvedBinding,
  compile: Compile,
): { param: string; path: string; column: string; read: (raw: string) => unknown } {
  const f = b.field;
  // A ref holds the target's identifier: read as that identifier's type.
  const target = f.type === 'ref' ? getResource(model, f.to) : undefined;
  const type = target?.identifier !== undefined ? (getField(target, target.identifier)?.type ?? 'string') : f.type;
  const check = compile(getFieldSchema(model, { ...f, nullable: false }, resource, { safeIntegers: true }), resource);
  return {
    param: b.param,
    path: b.path,
    column: b.column,
    read: (raw) => {
      const v = parseText(f, raw, type);
      check(v);
      return v;
    },
  };
}

/** The key (identifier, or the storage's row key) of the object whose bound fields hold `values`; missing_resource when none does. */
export async function findBoundId(tx: Pick<StorageTx, 'list'>, resource: ResourceModel, values: Row): Promise<unknown> {
  const rows = await tx.list(resource.name, { equals: values, limit: 1 });
  const row = rows[0];
  if (!row) throw new ServiceError('missing_resource', missingBoundMessage(resource, values));
  return row[getRowKey(resource)];
}

/**
 * What a request names that no object holds, in the spec's terms: the bound fields as written (a nested column as its
 * path), and the parent the object was looked for under by its name, never the hidden column (`no Comment with that
 * id under that Article`).
 */
export function missingBoundMessage(resource: ResourceModel, values: Row): string {
  const fields = Object.keys(values)
    .filter((c) => c !== PARENT_COLUMN)
    .map((c) => c.replace(/^\$/, ''));
  const under = Object.hasOwn(values, PARENT_COLUMN) && resource.parent !== undefined ? ` under that ${resource.parent}` : '';
  const named = fields.length === 0 ? '' : fields.length === 1 ? ` with that ${fields[0]!}` : ` with those ${fields.join(', ')}`;
  return `no ${resource.name}${named}${under}`;
}

/**
 * The bindings whose field a request body of this view writes (the top-level field and each one on the way to a
 * nested one): the only ones a body can disagree with. The rest (the identifier, the owner, a read-only or
 * write-once field) a body cannot hold at all (validation says so, whatever the value).
 */
export function getWrittenBindings(resource: ResourceModel, bindings: readonly ResolvedBinding[], view: SchemaView): readonly ResolvedBinding[] {
  return bindings.filter((b) => {
    if (!isNestedPath(b.path, b.column)) return isWritable(resource, b.field, view);
    let fields: readonly FieldModel[] | undefined = resource.fields;
    for (const [i, part] of b.path.split('.').entries()) {
      const f: FieldModel | undefined = fields?.find((x) => x.name === part);
      if (!f || !isWritable(i === 0 ? resource : undefined, f, view)) return false;
      fields = f.fields;
    }
    return true;
  });
}

/**
 * A body with the path's values in it, so that no write moves its object off the path that names it: a bound field
 * the body gives must equal the path's value (else validation, at the field). One it leaves out takes the path's
 * value in a create and a replace (a replace would clear it); in an update, only inside a top-level field the body
 * sends (an object is written whole), else the field is left as it is. `bindings` are those the view writes
 * (getWrittenBindings). The body's objects are copied where a value goes in, never changed.
 */
export function mergePathValues(
  body: Record<string, unknown>,
  values: Row,
  bindings: readonly ResolvedBinding[],
  fill: 'always' | 'in-sent' = 'always',
): Record<string, unknown> {
  const out = { ...body };
  const invalid: { pointer: string; message: string }[] = [];
  for (const b of bindings) {
    if (!Object.hasOwn(values, b.column)) continue;
    const value = values[b.column];
    // A nested field (metadata.name): the objects on its way are made where the body leaves them out.
    const parts = isNestedPath(b.path, b.column) ? b.path.split('.') : [b.path];
    if (fill === 'in-sent' && !Object.hasOwn(out, parts[0]!)) continue;
    let holder: Record<string, unknown> = out;
    let at = '';
    let through = true;
    for (const part of parts.slice(0, -1)) {
      at += `/${part}`;
      const next = holder[part];
      if (next === undefined) holder = holder[part] = {};
      else if (next !== null && typeof next === 'object' && !Array.isArray(next)) holder = holder[part] = { ...(next as Record<string, unknown>) };
      else {
        // A null (or no object) on the way would leave the object without the path's value: the body's mistake.
        if (!invalid.some((e) => e.pointer === at))
          invalid.push({ pointer: at, message: `must be an object holding the path parameter {${b.param}} (${JSON.stringify(value)})` });
        through = false;
        break;
      }
    }
    if (!through) continue;
    const name = parts.at(-1)!;
    if (Object.hasOwn(holder, name) && holder[name] !== value)
      invalid.push({ pointer: `/${parts.join('/')}`, message: `must equal the path parameter {${b.param}} (${JSON.stringify(value)})` });
    else holder[name] = value;
  }
  if (invalid.length > 0) throw new ServiceError('validation', 'the body disagrees with the path', invalid);
  return out;
}

/** Whether a binding is to a nested field: its column is not the path itself. */
function isNestedPath(path: string, column: string): boolean {
  return column !== path;
}

/**
 * A row with its nested columns (getNestedColumn) set from the top-level fields it holds: on every write, so a
 * binding or a unique key finds it by them. A field the row does not hold leaves its nested columns as they are.
 */
export function withNestedColumns(paths: readonly string[], row: Row): Row {
  for (const path of paths) {
    const top = path.slice(0, path.indexOf('.'));
    if (!Object.hasOwn(row, top)) continue;
    const v = getValueAt(row, path);
    row[getNestedColumn(path)] = v === undefined ? null : v;
  }
  return row;
}

/**
 * The parent an operation's path names (`bind: { slug: Article.slug }`, docs/format.md "Resources under a parent"):
 * reads the parent by the bound field (by key where it is the identifier) and puts its identifier in the request's
 * params under PARENT_COLUMN, which createPathValues reads; a value no parent holds (or one the field cannot hold) is
 * missing_resource, as the path names an object that is not there. Where the path names parents further up too
 * (`/owners/{ownerId}/pets/{petId}/visits`), the outermost is found first, then each one only among the children of
 * the one before (pet 7 of owner 2 is not found under owner 3). Synchronous where the storage reads at once (the fast
 * path), else a promise. Undefined for an operation naming no parent: nothing is done per request.
 */
export function createParentResolver(
  model: ServiceModel,
  resource: ResourceModel,
  o: OperationModel,
  compile: Compile,
  storage: Storage,
  fast: boolean,
): ((request: FastifyRequest) => Promise<void> | undefined) | undefined {
  const chain = getResolvedParentChain(model, resource, o);
  if (chain.length === 0) return undefined;
  const steps = chain.map((p, i) => {
    const name = p.field.name;
    const reader = createReader(model, p.resource, { param: p.param, field: p.field, path: name, column: name }, compile);
    const table = p.resource.name;
    const above = i > 0 ? chain[i - 1]!.resource.name : undefined;
    const message = missingBoundMessage(p.resource, above === undefined ? { [name]: null } : { [name]: null, [PARENT_COLUMN]: null });
    // By key alone at the top; under a parent, by the value and the parent's identifier in its hidden column.
    const byKey = p.byIdentifier && above === undefined;
    return {
      param: p.param,
      table,
      idName: p.resource.identifier!,
      read: reader.read,
      missing: () => new ServiceError('missing_resource', message),
      key: (v: unknown, parent: unknown) =>
        byKey ? { get: v } : { query: { equals: above === undefined ? { [name]: v } : { [name]: v, [PARENT_COLUMN]: parent }, limit: 1 } },
    };
  });
  return (request) => {
    const params = request.params as Record<string, unknown>;
    // Every value is read before any storage read: a malformed one names nothing, whichever level it is at.
    const values = steps.map((step) => {
      const raw = params[step.param];
      try {
        if (typeof raw !== 'string' || raw === '') throw new Error('is empty');
        return step.read(raw);
      } catch {
        throw step.missing();
      }
    });
    const now = fast ? storage.readNow?.() : undefined;
    if (now) {
      let parent: unknown;
      for (const [i, step] of steps.entries()) {
        const k = step.key(values[i], parent);
        const row = 'get' in k ? now.get(step.table, k.get) : now.list(step.table, k.query)[0];
        if (!row) throw step.missing();
        parent = row[step.idName];
      }
      params[PARENT_COLUMN] = parent;
      return undefined;
    }
    return storage
      .read(async (tx) => {
        let parent: unknown;
        for (const [i, step] of steps.entries()) {
          const k = step.key(values[i], parent);
          const row = 'get' in k ? await tx.get(step.table, k.get) : (await tx.list(step.table, k.query))[0];
          if (!row) throw step.missing();
          parent = row[step.idName];
        }
        return parent;
      })
      .then((parent) => {
        params[PARENT_COLUMN] = parent;
      });
  };
}
