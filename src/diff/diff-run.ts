// `diff` as a library: read the two specs (files, or `git:REV:path`), refuse ones that do not compile, compare
// the two models and place every change at file:line in each spec.
import { execFileSync } from 'node:child_process';
import { createDiagnostic, hasErrors, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import type { ServiceModel } from '../model/model-types.js';
import { compileSpecBytes, compileSpecFile, type CompiledSpec } from '../program.js';
import { locate, type SourceMap } from '../spec/spec-loader.js';
import { PART_NAMES } from '../spec/spec-types.js';
import { IMPACTS, type Change, type ChangeLocation, type Impact } from './diff-catalogue.js';
import { compareModels, type CompareOptions } from './diff-rules.js';

export interface DiffSummary {
  breaking: number;
  needsReview: number;
  nonBreaking: number;
}

export interface DiffReport {
  old: string;
  new: string;
  /** Ordered by part (the nine parts' order), then impact (breaking first). */
  changes: Change[];
  summary: DiffSummary;
}

export type DiffOutcome = { ok: true; report: DiffReport } | { ok: false; diagnostics: Diagnostic[] };

const PART_ORDER = new Map(PART_NAMES.map((p, i) => [p, i]));
const IMPACT_ORDER = new Map(IMPACTS.map((p, i) => [p, i]));

export function sortChanges(changes: readonly Change[]): Change[] {
  return changes
    .map((c, i) => ({ c, i }))
    .sort((a, b) => PART_ORDER.get(a.c.part)! - PART_ORDER.get(b.c.part)! || IMPACT_ORDER.get(a.c.impact)! - IMPACT_ORDER.get(b.c.impact)! || a.i - b.i)
    .map(({ c }) => c);
}

export function summarize(changes: readonly Change[]): DiffSummary {
  const count = (i: Impact) => changes.filter((c) => c.impact === i).length;
  return { breaking: count('breaking'), needsReview: count('needs-review'), nonBreaking: count('non-breaking') };
}

/** The changes between two models, with JSON pointers but no line numbers (see `diffSpecs` for those). */
export function diffModels(oldModel: ServiceModel, newModel: ServiceModel, options: CompareOptions = {}): DiffReport {
  const changes = sortChanges(compareModels(oldModel, newModel, options));
  return { old: oldModel.file, new: newModel.file, changes, summary: summarize(changes) };
}

function place(loc: ChangeLocation | undefined, sourceMap: SourceMap): ChangeLocation | undefined {
  if (!loc) return undefined;
  const pos = locate(sourceMap, loc.pointer, 'key');
  return pos ? { ...loc, line: pos.line, column: pos.column } : loc;
}

/**
 * Compares two compiled specs. Both must compile without errors; otherwise the outcome carries their
 * error diagnostics instead of a report.
 */
export function diffSpecs(oldSpec: CompiledSpec, newSpec: CompiledSpec, options: CompareOptions = {}): DiffOutcome {
  const errors = [...oldSpec.diagnostics, ...newSpec.diagnostics].filter((d) => d.severity === 'error');
  if (hasErrors(errors) || !oldSpec.model || !newSpec.model) return { ok: false, diagnostics: errors };
  const report = diffModels(oldSpec.model, newSpec.model, options);
  report.old = oldSpec.file;
  report.new = newSpec.file;
  for (const c of report.changes) {
    if (c.old) c.old = place({ ...c.old, file: oldSpec.file }, oldSpec.sourceMap);
    if (c.new) c.new = place({ ...c.new, file: newSpec.file }, newSpec.sourceMap);
  }
  return { ok: true, report };
}

/** `git:REV:path` names a spec as committed in a revision; anything else is a file path. */
export const GIT_PREFIX = 'git:';

/**
 * Reads and compiles one side of a diff. `git:REV:path` is read through `git show REV:path` in `cwd` (the path is
 * relative to the repository root, or to `cwd` when it starts with `./`). Never throws: failures are diagnostics.
 */
export function readDiffInput(input: string, cwd: string = process.cwd()): CompiledSpec {
  if (!input.startsWith(GIT_PREFIX)) return compileSpecFile(input);
  const rest = input.slice(GIT_PREFIX.length);
  const colon = rest.indexOf(':');
  const fail = (reason: string): CompiledSpec => ({
    file: input,
    sourceMap: new Map(),
    diagnostics: [createDiagnostic('git-show-failed', { input, reason }, { file: input })],
  });
  if (colon <= 0 || colon === rest.length - 1) return fail('write it as git:REV:path, such as git:HEAD~1:specs/orders.yaml');
  const rev = rest.slice(0, colon);
  if (rev.startsWith('-')) return fail('a revision cannot start with "-"');
  let bytes: Buffer;
  try {
    bytes = execFileSync('git', ['show', `${rev}:${rest.slice(colon + 1)}`], { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 8 * 1024 * 1024 });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '')
      .trim()
      .split('\n')[0];
    return fail(stderr || (err as NodeJS.ErrnoException).code || 'git failed');
  }
  return compileSpecBytes(bytes, input);
}
