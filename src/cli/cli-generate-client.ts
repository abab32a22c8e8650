import type { Command } from 'commander';
import { action, EXIT, io, printDiagnostics, quietOption, readSpec, writeFileAtomic, type ExitCode } from './cli-shared.js';

export interface ClientCliOptions {
  output?: string;
  quiet?: boolean;
  /** Speak this served version, with its own types (`versioning.supported[].changes` undone). */
  apiVersion?: string;
}

/** `servicespec client FILE -o client.ts`: a dependency-free TypeScript client. A spec with errors gets none. */
export async function runClient(file: string, options: ClientCliOptions): Promise<ExitCode> {
  const compiled = readSpec(file);
  if (compiled.model === undefined || compiled.diagnostics.some((d) => d.severity === 'error')) {
    printDiagnostics(compiled.diagnostics, { format: 'text', quiet: true, to: 'err' });
    return EXIT.errors;
  }
  const { generateClient } = await import('../export/export-client.js');
  const result = generateClient(compiled.model, options.apiVersion !== undefined ? { apiVersion: options.apiVersion } : {});
  // A version the spec does not serve is a usage error.
  if (result.diagnostics.some((d) => d.code === 'unknown-version')) {
    printDiagnostics(result.diagnostics, { format: 'text', to: 'err' });
    return EXIT.usage;
  }
  if (!options.quiet) printDiagnostics(result.diagnostics, { format: 'text', to: 'err' });
  if (options.output === undefined) {
    io.out(result.code);
    return EXIT.ok;
  }
  const problem = writeFileAtomic(options.output, result.code);
  if (problem) {
    printDiagnostics([problem], { format: 'text', to: 'err' });
    return EXIT.errors;
  }
  if (!options.quiet) io.err(`wrote ${options.output}\n`);
  return EXIT.ok;
}

export function registerClientCommand(program: Command): void {
  program
    .command('client')
    .description('generate a typed TypeScript client (fetch, no dependencies) with a method per operation')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('-o, --output <out>', 'write the client to this file (atomically) instead of standard output')
    .option('--api-version <version>', "speak this served version, with that version's own types (its declared changes undone)")
    .addOption(quietOption())
    .addHelpText(
      'after',
      '\nThe client has typed request, response and error bodies, the declared authentication, an iterator over list\n' +
        'pages, Idempotency-Key and version headers, and verifyWebhook() for Standard Webhooks signatures.\n' +
        'It speaks the current version; --api-version V makes one for an older served version, whose types are that\n' +
        "version's shapes and whose requests name V where the spec places the version.\n" +
        'It compiles under `tsc --strict`. Exit status: 0 written, 1 errors in the spec or unwritable output, 2 usage error.',
    )
    .action(action((file: string, options: ClientCliOptions) => runClient(file, options)));
}
