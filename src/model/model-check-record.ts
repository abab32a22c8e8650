// Where program.ts records the checker's verdict on each model it builds (model-checked.ts reads it). Only
// program.ts imports this module (dependency-cruiser: `check-record-only-in-program`): a `CheckedModel` is made
// nowhere else.

import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import type { CheckedModel, ServiceModel } from './model-types.js';

/** Models checked without errors. */
export const clean = new WeakSet<ServiceModel>();
/** Models checked with errors: those errors. */
export const refused = new WeakMap<ServiceModel, readonly Diagnostic[]>();

/** Records the checker's verdict on a model program.ts built; the model, as checked, when it has no errors. */
export function recordCheck(model: ServiceModel, diagnostics: readonly Diagnostic[]): CheckedModel | undefined {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    refused.set(model, errors);
    return undefined;
  }
  clean.add(model);
  return model as CheckedModel;
}
