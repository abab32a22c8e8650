// An update whose request is a JSON merge patch (RFC 7396, `request_media_type: application/merge-patch+json`):
// a member set to null removes the field (an optional one is cleared; a required nullable one, which cannot be
// absent, becomes null), an object merges into the stored one member by member, anything else replaces the value.
// docs/format.md, "Merge-patch updates".

import { isNullableInRequests } from '../model/model-defaults.js';
import type { FieldModel, ResourceModel } from '../model/model-types.js';
import { ServiceError } from './runtime-errors.js';
import { StoredJson, type Row } from './storage/storage-types.js';

type Issue = { pointer: string; message: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** RFC 7396's MergePatch(target, patch): objects merge recursively, a null member removes, the rest replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/**
 * The nulls a patch may not send: a field that can be neither absent nor null (required, not nullable) cannot be
 * removed. Walks the written-out fields of object fields; what a json or union value holds is merged as RFC 7396 says.
 */
function nullIssues(fields: readonly FieldModel[], patch: Record<string, unknown>, at: string, out: Issue[]): void {
  for (const [k, v] of Object.entries(patch)) {
    const f = fields.find((x) => x.name === k);
    if (!f) continue; // an unknown member is the validator's to refuse
    const pointer = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (v === null && !f.optional && !isNullableInRequests(f)) out.push({ pointer, message: 'is required and not nullable: a merge patch cannot remove it' });
    else if (isPlainObject(v) && f.type === 'object' && f.fields) nullIssues(f.fields, v, pointer, out);
  }
}

/** A nested value merged: a null member of an object field removes an optional sub-field, nulls a nullable one. */
function mergeField(f: FieldModel | undefined, target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  if (f?.type !== 'object' || !f.fields) return applyMergePatch(target, patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    const sub = f.fields.find((x) => x.name === k);
    if (v === null) {
      if (sub && isNullableInRequests(sub) && !sub.optional) out[k] = null;
      else delete out[k];
    } else out[k] = mergeField(sub, out[k], v);
  }
  return out;
}

/** Refuses a patch's nulls on fields that must hold a value (`validation` at each pointer), before anything is read. */
export function checkMergePatchNulls(resource: ResourceModel, patch: Record<string, unknown>): void {
  const issues: Issue[] = [];
  nullIssues(resource.fields, patch, '', issues);
  if (issues.length > 0) throw new ServiceError('validation', 'the merge patch removes a field that must hold a value', issues);
}

/**
 * What of a patch is checked before the stored object is read: its members but the objects merged into a field's
 * (checked merged) and the nulls clearing an optional field (nothing to check). Only for a field the update takes
 * (`takes`, its request's members): a null or an object sent to a read-only, write-once or unlisted field stays in,
 * for the validator to refuse as it refuses any value there.
 */
export function getMergePatchScalars(resource: ResourceModel, patch: Record<string, unknown>, takes: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    const f = resource.fields.find((x) => x.name === k);
    if (f && takes.has(k) && ((v === null && f.optional) || (isPlainObject(v) && f.type !== 'array'))) continue;
    out[k] = v;
  }
  return out;
}

/**
 * The patch applied to the stored object: `changes` for storage (a removed optional field undefined: cleared) and
 * `body`, the fields it writes with their merged values, for the update's validator (a removed field left out).
 */
export function mergePatchChanges(resource: ResourceModel, before: Row, patch: Record<string, unknown>): { changes: Row; body: Record<string, unknown> } {
  const changes: Row = {};
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    const f = resource.fields.find((x) => x.name === k);
    if (v === null && f?.optional) {
      changes[k] = undefined;
      continue;
    }
    const stored = before[k] instanceof StoredJson ? (JSON.parse(before[k].text) as unknown) : before[k];
    changes[k] = body[k] = v === null ? null : mergeField(f, stored, v);
  }
  return { changes, body };
}
