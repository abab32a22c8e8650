// The checked model: a `ServiceModel` the front end (src/program.ts: load → validate → build → check) found without
// errors. The runtime's entry points take only this type, so they never restate the checker's rules at start;
// only program.ts records a check (model-check-record.ts; dependency-cruiser: `check-record-only-in-program`). The
// record is kept beside the frozen model, so a model that reaches the runtime through JavaScript or a cast is still
// told apart.

import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { clean, refused } from './model-check-record.js';
import type { CheckedModel, ServiceModel } from './model-types.js';

export type { CheckedModel };

export function isCheckedModel(model: ServiceModel): model is CheckedModel {
  return clean.has(model);
}

/**
 * Why a model given to a runtime entry point (`entry`) is not a checked one: `model-has-errors` (the checker's
 * codes named) or `model-unchecked` (it never went through the front end); undefined for a checked model.
 */
export function getUncheckedProblem(model: ServiceModel, entry: string): Diagnostic | undefined {
  if (clean.has(model)) return undefined;
  const errors = refused.get(model);
  if (errors !== undefined) {
    const codes = [...new Set(errors.map((e) => e.code))];
    return createDiagnostic('model-has-errors', {
      entry,
      count: errors.length,
      codes: codes.slice(0, 5).join(', ') + (codes.length > 5 ? ', …' : ''),
      file: model.file,
    });
  }
  return createDiagnostic('model-unchecked', { entry });
}
