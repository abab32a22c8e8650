import { getField, getResource, getStateMachine } from '../../model/model-lookup.js';
import { getFieldAt, getNestedColumn, getNestedPaths, getParentResource, getPathColumn, PARENT_COLUMN } from '../../model/model-path-bindings.js';
import type { FieldModel, ResourceModel, ServiceModel } from '../../model/model-types.js';
import { getFieldSchema, isServiceSetField } from '../../model/model-schemas.js';
import type { ColumnPlan, ColumnType, MigrationRefusal, MigrationStep, StoragePlan, TablePlan } from './storage-types.js';

function columnType(model: ServiceModel, f: FieldModel): ColumnType {
  switch (f.type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'real';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'object':
    case 'map':
    case 'json':
    case 'union':
      return 'json';
    case 'enum':
      return (f.values ?? []).every((v) => typeof v === 'number') && (f.values ?? []).length > 0 ? 'real' : 'text';
    case 'ref': {
      const target = getResource(model, f.to);
      const id = target?.identifier !== undefined ? getField(target, target.identifier) : undefined;
      return id?.type === 'integer' ? 'integer' : 'text';
    }
    default:
      return 'text';
  }
}

function columnFor(model: ServiceModel, r: ResourceModel, f: FieldModel): ColumnPlan {
  const isId = f.name === r.identifier;
  const type = columnType(model, f);
  const check: ColumnPlan['check'] = {};
  if (f.type === 'enum' && f.values) check.values = [...f.values];
  if (type === 'integer' || type === 'real') {
    if (f.minimum !== undefined) check.minimum = f.minimum;
    if (f.maximum !== undefined) check.maximum = f.maximum;
    if (f.exclusiveMinimum !== undefined) check.exclusiveMinimum = f.exclusiveMinimum;
    if (f.exclusiveMaximum !== undefined) check.exclusiveMaximum = f.exclusiveMaximum;
  }
  if (type === 'text' && f.type !== 'ref') {
    if (f.minLength !== undefined) check.minLength = f.minLength;
    if (f.maxLength !== undefined) check.maxLength = f.maxLength;
  }
  const col: ColumnPlan = {
    name: f.name,
    type,
    // A field the service sets by a rule the spec does not state (source: service) has no value here: always NULL.
    // A variant's field (a resource of several shapes) is empty in the objects of every other variant.
    notNull: isId || (!f.optional && !f.nullable && !isServiceSetField(r, f) && f.ofVariants === undefined),
    unique: f.unique && !isId,
    primaryKey: isId,
    autoIncrement: isId && f.type === 'integer',
    check,
  };
  const shape = getShape(model, r, f);
  if (shape !== undefined) col.shape = shape;
  if (f.type === 'datetime') {
    col.instant = true;
    if (f.readOnly && (f.generated !== undefined || getStateMachine(model, r.name)?.transitions.some((t) => t.stamp === f.name))) col.canonical = true;
  }
  if (f.type === 'ref') {
    const target = getResource(model, f.to);
    if (target?.identifier !== undefined) col.references = { table: target.name, column: target.identifier };
  }
  return col;
}

/** What a field's stored value must be that no SQL check says (ColumnPlan.shape), or undefined. */
function getShape(model: ServiceModel, r: ResourceModel, f: FieldModel): unknown {
  if (f.type === 'json' || f.type === 'ref' || f.type === 'enum' || f.type === 'state' || f.type === 'boolean') return undefined;
  const s = getFieldSchema(model, f, r, {}, 'response');
  const structured = f.type === 'array' || f.type === 'object' || f.type === 'map' || f.type === 'union';
  return structured || s.pattern !== undefined || s.format !== undefined || s.multipleOf !== undefined ? s : undefined;
}

/** The column telling an optional, nullable field's absence from its null (ColumnPlan.absentOf). */
export function absentColumn(field: string): ColumnPlan {
  return { name: `${field}$absent`, type: 'boolean', notNull: false, unique: false, primaryKey: false, autoIncrement: false, check: {}, absentOf: field };
}

/**
 * The plan to migrate to: `wanted`, plus each absence column the stored plan has whose field's column is still
 * wanted (the field is no longer both optional and nullable). Dropping it would need a refusal or lose what it
 * records; kept, it stays true, and comes back in use if the field becomes nullable again.
 */
export function withKeptColumns(stored: StoragePlan, wanted: StoragePlan): StoragePlan {
  const storedByName = byName(stored.tables);
  let changed = false;
  const tables = wanted.tables.map((t) => {
    const old = storedByName.get(t.name);
    const kept = (old?.columns ?? []).filter(
      (c) => c.absentOf !== undefined && !t.columns.some((n) => n.name === c.name) && t.columns.some((n) => n.name === c.absentOf),
    );
    if (kept.length === 0) return t;
    changed = true;
    return { ...t, columns: [...t.columns, ...kept] };
  });
  return changed ? { ...wanted, tables } : wanted;
}

/**
 * The key of a row of a resource that declares no identifier (docs/format.md, "Resources without an identifier"): a
 * number the storage makes, which pages its lists and finds the row a binding named; no answer shows it (an answer
 * holds the resource's fields only). No field can be named so: a field name has no `$`.
 */
export const ROW_KEY = '$key';

/** The column a resource's rows are keyed by: its identifier, or the storage-made row key. */
export function getRowKey(r: ResourceModel): string {
  return r.identifier ?? ROW_KEY;
}

/** The column keeping a nested field's value (model-path-bindings.ts' getNestedColumn), typed as its field. */
function nestedColumn(model: ServiceModel, r: ResourceModel, path: string): ColumnPlan {
  const f = getFieldAt(r, path)!;
  const type = columnType(model, f);
  return { name: getNestedColumn(path), type, notNull: false, unique: false, primaryKey: false, autoIncrement: false, check: {}, nested: path };
}

/**
 * The column keeping the identifier of the parent an object belongs to (`parent`, docs/format.md "Resources under a
 * parent"): typed as the parent's identifier and a reference to it, as a `ref` field's column is (so a parent with
 * children is not deleted: in_use); every object has one (a create always names its parent). No answer shows it.
 */
function parentColumn(model: ServiceModel, parent: ResourceModel): ColumnPlan {
  const id = getField(parent, parent.identifier!)!;
  return {
    name: PARENT_COLUMN,
    type: columnType(model, id),
    notNull: true,
    unique: false,
    primaryKey: false,
    autoIncrement: false,
    check: {},
    references: { table: parent.name, column: parent.identifier! },
  };
}

function rowKeyColumn(): ColumnPlan {
  return { name: ROW_KEY, type: 'integer', notNull: true, unique: false, primaryKey: true, autoIncrement: true, check: {} };
}

/**
 * The tables a model needs, columns typed from fields: one per resource with an identifier, and one per resource
 * without one that a resource action stores (keyed by ROW_KEY; a resource only named by shapes has none).
 */
export function getStoragePlan(model: ServiceModel): StoragePlan {
  const tables: TablePlan[] = [];
  const stored = new Set<string | undefined>();
  for (const o of model.endpoints?.operations ?? []) if (o.action !== 'custom') stored.add(o.resource);
  for (const r of model.resources) {
    const keyed = r.identifier !== undefined && getField(r, r.identifier) !== undefined;
    if (!keyed && (r.identifier !== undefined || !stored.has(r.name))) continue;
    // An address (`generated: address`) is no stored value: the presenters make it from the row's key.
    const own = r.fields.some((f) => f.generated === 'address') ? r.fields.filter((f) => f.generated !== 'address') : r.fields;
    const columns = own.map((f) => columnFor(model, r, f));
    for (const f of own) if (f.optional && f.nullable && f.name !== r.identifier) columns.push(absentColumn(f.name));
    if (!keyed) columns.unshift(rowKeyColumn());
    for (const path of getNestedPaths(model, r)) columns.push(nestedColumn(model, r, path));
    const parent = getParentResource(model, r);
    if (parent) columns.push(parentColumn(model, parent));
    const table: TablePlan = { name: r.name, primaryKey: getRowKey(r), columns };
    const keys = (r.uniqueKeys ?? []).filter((k) => k.every((p) => getFieldAt(r, p) !== undefined));
    if (keys.length > 0) table.uniqueKeys = keys.map((k) => k.map((p) => getPathColumn(r, p)));
    tables.push(table);
  }
  return { tables, shapes: true };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Tables by name; the first of a name wins. */
export function byName(tables: readonly TablePlan[]): Map<string, TablePlan> {
  const map = new Map<string, TablePlan>();
  for (const t of tables) if (!map.has(t.name)) map.set(t.name, t);
  return map;
}

/**
 * Compares the plan stored with the data against the spec's plan. New tables and new nullable
 * columns are additive; a changed check is applied by rebuilding the table (the copy fails on rows
 * the new check refuses); anything that would drop or reinterpret data is refused (`servicespec migrate` plans it).
 * `prepared` (what `servicespec migrate` ran first, storage-migrate.ts): tables to rebuild whatever their plans say,
 * and columns that became required whose rows were checked to all hold a value (rebuilt with NOT NULL, not refused).
 */
export function diffStoragePlans(
  stored: StoragePlan,
  wanted: StoragePlan,
  prepared: { rebuild?: ReadonlySet<string>; filled?: ReadonlySet<string> } = {},
): { steps: MigrationStep[]; refusals: MigrationRefusal[] } {
  const steps: MigrationStep[] = [];
  const refusals: MigrationRefusal[] = [];
  // By name (the first of a name, as a search would find): a linear search per table is quadratic in a large spec.
  const wantedByName = byName(wanted.tables);
  const storedByName = byName(stored.tables);
  for (const old of stored.tables) {
    if (!wantedByName.has(old.name)) refusals.push({ table: old.name, reason: `resource ${old.name} was removed; its table holds data` });
  }
  for (const t of wanted.tables) {
    const old = storedByName.get(t.name);
    if (!old) {
      steps.push({ kind: 'create_table', table: t.name, description: `create table for new resource ${t.name}` });
      continue;
    }
    if (old.primaryKey !== t.primaryKey) refusals.push({ table: t.name, reason: `the identifier changed from ${old.primaryKey} to ${t.primaryKey}` });
    // A key added or dropped is a changed constraint: the rebuild makes the table's keys the plan's (the copy fails
    // on rows a new key refuses; `migrate` names them first).
    let rebuild = prepared.rebuild?.has(t.name) === true || !same(old.uniqueKeys ?? [], t.uniqueKeys ?? []);
    for (const oc of old.columns) {
      const nc = t.columns.find((c) => c.name === oc.name);
      if (!nc) {
        if (oc.absentOf !== undefined) continue; // its field's own column is refused, or it is kept (withKeptColumns)
        // The parent's hidden column is no field: the resource lost its `parent`, and its objects would lose theirs.
        if (oc.name === PARENT_COLUMN)
          refusals.push({ table: t.name, column: oc.name, reason: `${t.name} no longer has a parent; its stored objects name one` });
        else refusals.push({ table: t.name, column: oc.name, reason: `field ${t.name}.${oc.name} was removed; its column holds data` });
        continue;
      }
      // Another parent: each stored object names one of the old parent's objects, which no rebuild can tell apart from
      // the new parent's of the same identifier (counter ids would move comments to unrelated boards).
      if (oc.name === PARENT_COLUMN && oc.references?.table !== nc.references?.table)
        refusals.push({
          table: t.name,
          column: oc.name,
          reason: `${t.name}'s parent changed from ${oc.references?.table ?? 'none'} to ${nc.references?.table ?? 'none'}; its stored objects name their ${oc.references?.table ?? 'old parent'}`,
        });
      else if (oc.type !== nc.type)
        refusals.push({ table: t.name, column: oc.name, reason: `field ${t.name}.${oc.name} changed type from ${oc.type} to ${nc.type}` });
      else if (!oc.notNull && nc.notNull && prepared.filled?.has(`${t.name}.${oc.name}`)) rebuild = true;
      else if (!oc.notNull && nc.notNull)
        refusals.push({ table: t.name, column: oc.name, reason: `field ${t.name}.${oc.name} became required; existing rows may have no value` });
      else if (!oc.unique && nc.unique) rebuild = true;
      else if (!same(oc.check, nc.check) || !same(oc.references, nc.references) || oc.notNull !== nc.notNull || oc.unique !== nc.unique) rebuild = true;
    }
    for (const nc of t.columns) {
      if (old.columns.some((c) => c.name === nc.name)) continue;
      if (nc.nested !== undefined)
        refusals.push({
          table: t.name,
          column: nc.name,
          reason: `${t.name}.${nc.nested} is newly bound or keyed; migrate does not fill its column for stored objects yet`,
        });
      else if (nc.name === PARENT_COLUMN)
        refusals.push({ table: t.name, column: nc.name, reason: `${t.name} newly has a parent; its stored objects name none` });
      else if (nc.notNull)
        refusals.push({ table: t.name, column: nc.name, reason: `new field ${t.name}.${nc.name} is required; existing rows have no value for it` });
      else if (nc.unique || nc.references || Object.keys(nc.check).length > 0) rebuild = true;
      else
        steps.push({
          kind: 'add_column',
          table: t.name,
          column: nc.name,
          description:
            nc.absentOf !== undefined ? `record whether ${t.name}.${nc.absentOf} was left out (absent) or null` : `add optional field ${t.name}.${nc.name}`,
        });
    }
    if (rebuild) steps.push({ kind: 'rebuild_table', table: t.name, description: `rebuild table ${t.name} for changed constraints` });
  }
  return { steps, refusals };
}
