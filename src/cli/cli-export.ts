import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import type { ServiceModel } from '../model/model-types.js';
import type { DocumentFormat } from '../export/export-shared.js';
import { action, describeFsError, EXIT, io, printDiagnostics, quietOption, readSpec, writeFileAtomic, type ExitCode } from './cli-shared.js';
import { createDiagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { getServedVersions, getVersionDocumentModel } from '../model/model-served-versions.js';

export interface ExportOptions {
  output?: string;
  /** The document's syntax, yaml or json (`--format` before; `--format` elsewhere means a report's format). */
  syntax?: DocumentFormat;
  /** @deprecated the old name of `syntax`. */
  format?: DocumentFormat;
  openapi?: '3.1' | '3.0';
  dir?: string;
  quiet?: boolean;
  /** List every info diagnostic (what went into x-servicespec-* extensions); a count otherwise. */
  verbose?: boolean;
  /** Describe this served version in its own shape (`versioning.supported[].changes` undone). */
  apiVersion?: string;
  /** @deprecated the old name of `apiVersion` (`--version` is the program's version elsewhere). */
  version?: string;
}

/** The old option names still work, with a note on stderr (not under --quiet). */
function withCurrentNames(options: ExportOptions): ExportOptions {
  const note = (old: string, now: string) => !options.quiet && io.err(`servicespec export: ${old} is deprecated; use ${now} (same values)\n`);
  const out = { ...options };
  if (options.format !== undefined) {
    note('--format', '--syntax');
    out.syntax ??= options.format;
  }
  if (options.version !== undefined) {
    note('--version', '--api-version');
    out.apiVersion ??= options.version;
  }
  return out;
}

/** Errors and warnings always (unless --quiet); info lines only with --verbose, else their count. */
function printExportDiagnostics(diagnostics: readonly Diagnostic[], options: ExportOptions): void {
  if (options.quiet) return;
  if (options.verbose) return printDiagnostics(diagnostics, { format: 'text', to: 'err' });
  const info = diagnostics.filter((d) => d.severity === 'info');
  printDiagnostics(
    diagnostics.filter((d) => d.severity !== 'info'),
    { format: 'text', to: 'err' },
  );
  if (info.length > 0) io.err(`${info.length} item${info.length === 1 ? '' : 's'} written to x-servicespec-* extensions or left out (--verbose lists them)\n`);
}

/**
 * A spec with errors gets no export (exit 1): the document must not present a contradiction as the service.
 * `--version V` describes that served version; a version the spec does not serve is a usage error (exit 2).
 */
function modelOf(file: string, version?: string): { model?: ServiceModel; diagnostics: readonly Diagnostic[]; exit?: ExitCode } {
  const compiled = readSpec(file);
  if (compiled.model === undefined || compiled.diagnostics.some((d) => d.severity === 'error')) {
    printDiagnostics(compiled.diagnostics, { format: 'text', quiet: true, to: 'err' });
    return { diagnostics: compiled.diagnostics, exit: EXIT.errors };
  }
  if (version === undefined) return { model: compiled.model, diagnostics: compiled.diagnostics };
  const model = getVersionDocumentModel(compiled.model, version);
  if (!model) {
    const served = getServedVersions(compiled.model);
    const problem = createDiagnostic(
      'unknown-version',
      { version, file, served: served.length > 0 ? served.join(', ') : 'none (the spec has no versioning)' },
      { file },
    );
    printDiagnostics([problem], { format: 'text', to: 'err' });
    return { diagnostics: [problem], exit: EXIT.usage };
  }
  return { model, diagnostics: compiled.diagnostics };
}

function formatFor(options: ExportOptions, fallback: DocumentFormat): DocumentFormat {
  if (options.syntax) return options.syntax;
  if (options.output && /\.json$/i.test(options.output)) return 'json';
  if (options.output && /\.ya?ml$/i.test(options.output)) return 'yaml';
  return fallback;
}

function emit(text: string, options: ExportOptions, diagnostics: readonly Diagnostic[]): ExitCode {
  // The export's own diagnostics (each item put in an x-servicespec-* extension, each thing left out) go to stderr.
  printExportDiagnostics(diagnostics, options);
  if (options.output === undefined) {
    io.out(text);
    return EXIT.ok;
  }
  const problem = writeFileAtomic(options.output, text);
  if (problem) {
    printDiagnostics([problem], { format: 'text', to: 'err' });
    return EXIT.errors;
  }
  if (!options.quiet) io.err(`wrote ${options.output}\n`);
  return EXIT.ok;
}

export async function runExportOpenApi(file: string, given: ExportOptions): Promise<ExitCode> {
  const options = withCurrentNames(given);
  const { model, exit } = modelOf(file, options.apiVersion);
  if (!model) return exit ?? EXIT.errors;
  const { exportOpenApi } = await import('../export/export-openapi.js');
  const { serializeDocument } = await import('../export/export-shared.js');
  const result = exportOpenApi(model, { openapi: options.openapi ?? '3.1' });
  return emit(serializeDocument(result.document, formatFor(options, 'yaml')), options, result.diagnostics);
}

export async function runExportAsyncApi(file: string, given: ExportOptions): Promise<ExitCode> {
  const options = withCurrentNames(given);
  const { model, exit } = modelOf(file, options.apiVersion);
  if (!model) return exit ?? EXIT.errors;
  const { exportAsyncApi } = await import('../export/export-asyncapi.js');
  const { serializeDocument } = await import('../export/export-shared.js');
  const result = exportAsyncApi(model);
  return emit(serializeDocument(result.document, formatFor(options, 'yaml')), options, result.diagnostics);
}

export async function runExportJsonSchema(file: string, given: ExportOptions): Promise<ExitCode> {
  const options = withCurrentNames(given);
  const { model, exit } = modelOf(file, options.apiVersion);
  if (!model) return exit ?? EXIT.errors;
  const { exportJsonSchemas } = await import('../export/export-json-schema.js');
  const { serializeDocument } = await import('../export/export-shared.js');
  const result = exportJsonSchemas(model);
  const format = formatFor(options, 'json');
  if (options.dir === undefined) return emit(serializeDocument(result.document, format), options, result.diagnostics);
  try {
    mkdirSync(options.dir, { recursive: true });
  } catch (err) {
    printDiagnostics([createDiagnostic('output-unwritable', { path: options.dir, reason: describeFsError(err) }, { file: options.dir })], {
      format: 'text',
      to: 'err',
    });
    return EXIT.errors;
  }
  printExportDiagnostics(result.diagnostics, options);
  for (const f of result.files) {
    const path = join(options.dir, `${f.name}.schema.${format === 'json' ? 'json' : 'yaml'}`);
    const problem = writeFileAtomic(path, serializeDocument(f.schema, format));
    if (problem) {
      printDiagnostics([problem], { format: 'text', to: 'err' });
      return EXIT.errors;
    }
  }
  if (!options.quiet) io.err(`wrote ${result.files.length} schema${result.files.length === 1 ? '' : 's'} to ${options.dir}\n`);
  return EXIT.ok;
}

function outputOptions(command: Command, fallback: DocumentFormat): Command {
  return command
    .option('-o, --output <out>', 'write the document to this file (atomically) instead of standard output')
    .option('--api-version <version>', 'describe this served version in its own shape (its declared changes undone)')
    .addOption(new Option('--syntax <syntax>', `document syntax (default: from the -o extension, else ${fallback})`).choices(['yaml', 'json']))
    .addOption(new Option('--version <version>', 'deprecated: --api-version').hideHelp())
    .addOption(new Option('--format <format>', 'deprecated: --syntax').choices(['yaml', 'json']).hideHelp())
    .option('-v, --verbose', 'list each item written to an x-servicespec-* extension or left out (else only their count)')
    .addOption(quietOption());
}

export function registerExportCommand(program: Command): void {
  const exp = program
    .command('export')
    .description('export the spec as OpenAPI, AsyncAPI or JSON Schema')
    .addHelpText(
      'after',
      '\nWhat a target format cannot express (state machines, rate limits, versioning rules, …) goes into documented\n' +
        'x-servicespec-* extensions (docs/extensions.md) and is listed on standard error, one diagnostic per item.\n' +
        'A spec with errors is not exported. Exit status: 0 exported, 1 errors in the spec or unwritable output, 2 usage error.',
    );
  outputOptions(
    exp
      .command('openapi')
      .description('OpenAPI 3.1 (or 3.0) from the routes the runtime serves')
      .argument('<file>', 'the spec file (YAML or JSON)')
      .addOption(new Option('--openapi <version>', 'OpenAPI version').choices(['3.1', '3.0']).default('3.1')),
    'yaml',
  ).action(action((file: string, options: ExportOptions) => runExportOpenApi(file, options)));
  outputOptions(
    exp
      .command('asyncapi')
      .description('AsyncAPI 3.0: webhook and event-stream channels, messages, signing headers')
      .argument('<file>', 'the spec file (YAML or JSON)'),
    'yaml',
  ).action(action((file: string, options: ExportOptions) => runExportAsyncApi(file, options)));
  outputOptions(
    exp
      .command('json-schema')
      .description('JSON Schema 2020-12 for every resource: as returned, and the create, replace and update request bodies')
      .argument('<file>', 'the spec file (YAML or JSON)')
      .option('--dir <dir>', 'write one file per schema into this folder instead of one document'),
    'json',
  ).action(action((file: string, options: ExportOptions) => runExportJsonSchema(file, options)));
}
