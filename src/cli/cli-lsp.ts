import type { Command } from 'commander';
import { action, EXIT, io, type ExitCode } from './cli-shared.js';

interface LspOptions {
  stdio?: boolean;
}

/** `servicespec lsp --stdio`: the language server on standard input and output, until the editor exits. */
export async function runLsp(options: LspOptions): Promise<ExitCode> {
  if (options.stdio !== true) {
    io.err('servicespec lsp: only --stdio is supported: the editor starts the server and talks to it over standard input and output\n');
    return EXIT.usage;
  }
  const { startLspServer } = await import('../lsp/lsp-server.js');
  // The process's own streams: the protocol owns standard output, so nothing else may write to it.
  await startLspServer({ input: process.stdin, output: process.stdout });
  return EXIT.ok;
}

export function registerLspCommand(program: Command): void {
  program
    .command('lsp')
    .description(
      "run the language server (LSP) for editors: the checker's diagnostics as you type, completion, hover, go to definition, references, rename, quick fixes",
    )
    .option('--stdio', 'talk LSP over standard input and output (the editor starts the server)')
    .addHelpText('after', '\nEditors start this themselves; docs/editors.md shows the setup for VS Code, Neovim and other LSP clients.')
    .action(action((options: LspOptions) => runLsp(options)));
}
