import type { PartName } from '../spec/spec-types.js';
import { BUILT_IN_NESTING_DEPTH } from './runtime-body.js';

/** Values the runtime uses where the spec is silent, each documented in docs/runtime.md. */
export const BUILT_IN = {
  pageSizeDefault: 20,
  pageSizeMax: 100,
  bodySize: 1024 * 1024,
  nestingDepth: BUILT_IN_NESTING_DEPTH,
  headerSize: 16 * 1024,
  /** Whole request (headers and body) must arrive within this; slow clients are cut off. */
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  idempotencyRetentionMs: 24 * 3_600_000,
} as const;

/** Something the spec leaves out that serving it would need, and what the runtime does instead. */
export interface RuntimeGap {
  /** The part of the spec it belongs to: `gaps` names it there (test/runtime/runtime-gaps-named.test.ts). */
  part: PartName;
  item: string;
  builtIn: string;
}
