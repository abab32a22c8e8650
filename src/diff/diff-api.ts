// `servicespec/diff`: every change between two specs, classified breaking / needs-review / non-breaking.

export { diffSpecs, diffModels, readDiffInput } from './diff-run.js';
export type { DiffReport, DiffSummary, DiffOutcome } from './diff-run.js';
export { formatDiff, formatSummary } from './diff-format.js';
export type { DiffFormat } from './diff-format.js';
export { DIFF_RULES, IMPACTS } from './diff-catalogue.js';
export type { Change, ChangeLocation, DiffRuleCode, Impact } from './diff-catalogue.js';
