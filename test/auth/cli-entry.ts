// A `servicespec` with only the credential commands, run as a child process by auth-cli.test.ts (the same
// conventions as src/cli/cli-main.ts: usage errors exit 2). Once cli-main registers these commands, the test can
// run the real binary instead.

import { Command, CommanderError } from 'commander';
import { registerClientsCommand } from '../../src/cli/cli-oauth-clients.js';
import { registerKeysCommand } from '../../src/cli/cli-keys.js';
import { registerUsersCommand } from '../../src/cli/cli-users.js';

const program = new Command('servicespec');
registerKeysCommand(program);
registerClientsCommand(program);
registerUsersCommand(program);
const conventions = (c: Command): void => {
  c.exitOverride();
  c.commands.forEach(conventions);
};
conventions(program);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (!(err instanceof CommanderError)) throw err;
  process.exitCode = err.exitCode === 0 ? 0 : 2;
}
