import type { Command } from 'commander';
import { action, EXIT, io, printDiagnostics, quietOption, readSpec, writeFileAtomic, type ExitCode } from './cli-shared.js';

export interface DocOptions {
  output?: string;
  html?: boolean;
  quiet?: boolean;
}

/**
 * `servicespec doc FILE [-o OUT] [--html]`: the nine-part document, Markdown by default.
 * A spec with errors gets no document (exit 1): the document must not present a contradiction as the service.
 */
export async function runDoc(file: string, options: DocOptions): Promise<ExitCode> {
  const compiled = readSpec(file);
  if (compiled.model === undefined || compiled.diagnostics.some((d) => d.severity === 'error')) {
    printDiagnostics(compiled.diagnostics, { format: 'text', quiet: true, to: 'err' });
    return EXIT.errors;
  }
  // Loaded on demand: the other commands do not pay for the renderers.
  const text = options.html
    ? (await import('../render/render-console.js')).renderConsole(compiled.model)
    : (await import('../render/render-markdown.js')).renderMarkdown(compiled.model);
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

export function registerDocCommand(program: Command): void {
  program
    .command('doc')
    .description('render the nine-part document (Markdown, or HTML with --html)')
    .argument('<file>', 'the spec file (YAML or JSON); - reads standard input')
    .option('-o, --output <out>', 'write the document to this file (atomically) instead of standard output')
    .option('--html', 'render the docs console (one self-contained HTML page) instead of Markdown')
    .addOption(quietOption())
    .addHelpText(
      'after',
      '\nEvery part the spec leaves out is written as "not shown"; nothing is invented.\n' +
        'Exit status: 0 when the document was written, 1 when the spec has errors or the output cannot be written\n' +
        '(diagnostic output-unwritable), 2 on a usage error.',
    )
    .action(action((file: string, options: DocOptions) => runDoc(file, options)));
}
