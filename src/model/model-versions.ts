import type { ServiceModel, VersionChangeModel } from './model-types.js';

export type VersionScheme = 'date' | 'semver' | 'integer';

/** Negative when a is older than b, positive when newer, 0 when equal. */
export function compareVersions(scheme: VersionScheme, a: string, b: string): number {
  if (scheme === 'integer') return Number(a) - Number(b);
  if (scheme === 'semver') {
    const pa = a.split(/[.-]/).slice(0, 3).map(Number);
    const pb = b.split(/[.-]/).slice(0, 3).map(Number);
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The changes a request in `version` goes through to reach the current version, oldest first: each
 * supported version's `changes` lead from it to the next newer one. Empty for the current version.
 */
export function getChangesSince(model: ServiceModel, version: string): VersionChangeModel[] {
  const v = model.versioning;
  if (!v || version === v.current) return [];
  const scheme = v.scheme ?? 'date';
  return [...v.supported]
    .filter((s) => compareVersions(scheme, s.version, version) >= 0 && (v.current === undefined || compareVersions(scheme, s.version, v.current) < 0))
    .sort((a, b) => compareVersions(scheme, a.version, b.version))
    .flatMap((s) => s.changes);
}
