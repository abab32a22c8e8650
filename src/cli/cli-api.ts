// `servicespec/cli`: the command as a function — `run(['check', 'spec.yaml'], io)` resolves with the exit code.

export { run } from './cli-run.js';
export type { CliIo, ExitCode } from './cli-shared.js';
