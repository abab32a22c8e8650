import { checkModel } from './check/check-rules.js';
import { hasErrors, type Diagnostic } from './diagnostics/diagnostics-catalogue.js';
import { buildModel } from './model/model-builder.js';
import { recordCheck } from './model/model-check-record.js';
import type { CheckedModel, ServiceModel } from './model/model-types.js';
import { loadSpecBytes, loadSpecFile, loadSpecText, locate, type LoadedSpec, type LoadOptions, type SourceMap } from './spec/spec-loader.js';
import type { SpecDocument } from './spec/spec-types.js';
import { expandShapes } from './spec/spec-shapes.js';
import { validateSpec } from './spec/spec-validate.js';

/** The result of the whole front end: load → validate → model → check. */
export interface CompiledSpec {
  file: string;
  /** Present when the document is structurally valid (semantic errors may remain: see `diagnostics`). */
  model?: ServiceModel;
  /** The same model when the checker found no errors: the only way to a `CheckedModel`, which the runtime requires. */
  checked?: CheckedModel;
  document?: SpecDocument;
  sourceMap: SourceMap;
  diagnostics: readonly Diagnostic[];
}

function place(diagnostics: Diagnostic[], loaded: LoadedSpec): Diagnostic[] {
  const placed = diagnostics.map((d) => {
    if (d.line !== undefined || d.pointer === undefined) return d.file === undefined ? { ...d, file: loaded.file } : d;
    const pos = locate(loaded.sourceMap, d.pointer, d.code === 'unknown-key' ? 'key' : 'value');
    return { ...d, file: loaded.file, ...pos };
  });
  return placed.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || a.code.localeCompare(b.code));
}

export function compileLoaded(loaded: LoadedSpec): CompiledSpec {
  // The source map is read through, not copied: a clean spec never needs its positions computed.
  const result = (fields: Omit<CompiledSpec, 'file' | 'sourceMap'>): CompiledSpec =>
    Object.defineProperty({ file: loaded.file, ...fields }, 'sourceMap', { get: () => loaded.sourceMap, enumerable: true }) as CompiledSpec;
  if (loaded.document === undefined) return result({ diagnostics: loaded.diagnostics });
  const structural = validateSpec(loaded);
  if (hasErrors(structural)) return result({ diagnostics: place(structural, loaded) });
  const document = loaded.document as SpecDocument;
  // Named shapes written out where they are used: what the model and the checker read.
  const shapes = expandShapes(document);
  if (hasErrors(shapes.diagnostics)) return result({ diagnostics: place([...structural, ...shapes.diagnostics], loaded) });
  const model = buildModel(shapes.document, loaded.file);
  const diagnostics = place([...structural, ...shapes.diagnostics, ...checkModel(model, shapes.document)], loaded);
  const checked = recordCheck(model, diagnostics);
  return result({ model, ...(checked ? { checked } : {}), document, diagnostics });
}

/** `options.fastPaths: false` reads the spec by the plain path (LoadOptions). */
export function compileSpecFile(path: string, options: LoadOptions = {}): CompiledSpec {
  return compileLoaded(loadSpecFile(path, options));
}

export function compileSpecText(text: string, file = '<input>', options: LoadOptions = {}): CompiledSpec {
  return compileLoaded(loadSpecText(text, file, options));
}

export function compileSpecBytes(bytes: Uint8Array, file = '<input>', options: LoadOptions = {}): CompiledSpec {
  return compileLoaded(loadSpecBytes(bytes, file, options));
}
