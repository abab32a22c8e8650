// `check --since OLD`: the spec compared with an earlier one, through the differ, as diagnostics on the spec.
import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import type { CompiledSpec } from '../program.js';
import { locate } from '../spec/spec-loader.js';
import { compareModels } from './diff-rules.js';

/**
 * Compares `spec` with the earlier `since` and reports what its versioning section does not account for: breaking
 * changes with no new current version (`version-not-advanced`), breaking field changes the new version's declared
 * changes do not explain (`version-change-undeclared`), declared changes the two specs do not show
 * (`version-change-not-shown`). Both specs must have models; the diagnostics are placed in `spec`.
 */
export function checkVersionsSince(since: CompiledSpec, spec: CompiledSpec): Diagnostic[] {
  if (!since.model || !spec.model) return [];
  const out: Diagnostic[] = [];
  const at = (pointer: string | undefined) => {
    const pos = pointer === undefined ? undefined : locate(spec.sourceMap, pointer, 'key');
    return { file: spec.file, pointer, ...pos };
  };
  const changes = compareModels(since.model, spec.model);
  const breaking = changes.filter((c) => c.impact === 'breaking');
  for (const c of changes) {
    if (c.code === 'current-version-not-advanced') {
      const count = breaking.filter((b) => b.part !== 'versioning').length;
      const first = breaking.find((b) => b.part !== 'versioning');
      out.push(
        createDiagnostic(
          'version-not-advanced',
          { count, since: since.file, version: spec.model.versioning?.current ?? '', example: first?.reason ?? '' },
          at(c.new?.pointer),
        ),
      );
    } else if (c.code === 'undeclared-breaking-change') {
      const version = since.model.versioning?.current ?? '';
      out.push(createDiagnostic('version-change-undeclared', { subject: c.subject, since: since.file, version }, at(c.new?.pointer)));
    } else if (c.code === 'declared-change-not-shown') {
      out.push(
        createDiagnostic(
          'version-change-not-shown',
          {
            version: since.model.versioning?.current ?? '',
            change: c.reason.replace(/^.* declares (.*), which .*$/, '$1'),
            detail: `${since.file} and this spec do not show it`,
          },
          at(c.new?.pointer),
        ),
      );
    }
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
