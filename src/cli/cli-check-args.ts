// `check FILE` with at most `--quiet` and `--format text|json`: the common call (an editor's, CI's), which runs
// without commander (cli-check-direct.ts; from the bin, its one-file bundle: cli-bundle.ts). Imports nothing, so
// the bin can decide before loading anything else.

/** A `check` the direct path takes: the file and the only options it may carry. */
export interface DirectCheck {
  file: string;
  options: { format: 'text' | 'json'; quiet?: boolean };
}

/**
 * The direct path's reading of the arguments after the program name, or undefined for anything else (another
 * command, another option, a second file, `--`), which commander reads (the plain path, answering the same for
 * these calls: test/cli/cli-check.test.ts).
 */
export function parseDirectCheck(argv: readonly string[]): DirectCheck | undefined {
  if (argv[0] !== 'check') return undefined;
  let file: string | undefined;
  const options: DirectCheck['options'] = { format: 'text' };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-q' || arg === '--quiet') options.quiet = true;
    else if (arg === '--format=text' || arg === '--format=json') options.format = arg === '--format=json' ? 'json' : 'text';
    else if (arg === '--format' && (argv[i + 1] === 'text' || argv[i + 1] === 'json')) options.format = argv[++i] as 'text' | 'json';
    // `-` is standard input (cli-shared.ts, STDIN).
    else if (file === undefined && (arg === '-' || !arg.startsWith('-'))) file = arg;
    else return undefined;
  }
  return file === undefined ? undefined : { file, options };
}
