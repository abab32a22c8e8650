// `servicespec users create|list|revoke FILE`: users of a `basic` scheme in the service's own database.
// Passwords are stored with scrypt; a password is read from standard input (never from the command line,
// where other processes can see it) or generated and printed once.

import type { Command } from 'commander';
import { createBasicUser, listBasicUsers, revokeBasicUser } from '../runtime/auth/auth-credentials.js';
import { action, EXIT, formatOption, io, type ActionResult, type ExitCode } from './cli-shared.js';
import { parseScopes, printCredentials, CREATE_HELP, DB_HELP, withCredentialStore, type CredentialCommandOptions } from './cli-keys.js';

interface CreateUserOptions extends CredentialCommandOptions {
  subject?: string;
  scopes?: string;
  passwordStdin?: boolean;
}

function readStdin(): string {
  return io
    .stdin()
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export async function runUsersCreate(file: string, username: string, options: CreateUserOptions): Promise<ExitCode> {
  const password = options.passwordStdin ? readStdin() : undefined;
  return withCredentialStore('servicespec users create', file, options, async (model, storage) => {
    const issued = await createBasicUser(storage, model, {
      username,
      scopes: parseScopes(options.scopes),
      ...(password !== undefined ? { password } : {}),
      ...(options.subject !== undefined ? { subject: options.subject } : {}),
    });
    if (options.format === 'json') {
      io.out(
        `${JSON.stringify({ username: issued.username, ...(issued.generatedPassword !== undefined ? { password: issued.generatedPassword } : {}), subject: issued.subject, scopes: issued.scopes, createdAt: issued.createdAt }, null, 2)}\n`,
      );
    } else {
      io.out(`user ${issued.username} for subject ${issued.subject} (scopes: ${issued.scopes.join(', ') || 'none'})\n`);
      if (issued.generatedPassword !== undefined) io.out(`password: ${issued.generatedPassword}\nKeep the password now: it is shown only this once.\n`);
    }
    return EXIT.ok;
  });
}

export function runUsersList(file: string, options: CredentialCommandOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec users list', file, options, async (_model, storage) => {
    printCredentials(await listBasicUsers(storage), options.format, 'USER', 'no users');
    return EXIT.ok;
  });
}

export function runUsersRevoke(file: string, username: string, options: CredentialCommandOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec users revoke', file, options, async (_model, storage) => {
    if (!(await revokeBasicUser(storage, username))) {
      io.err(`servicespec users revoke: no user named ${username}\n`);
      return EXIT.errors;
    }
    io.out(`user ${username} revoked; requests that present the user's password are refused from now on\n`);
    return EXIT.ok;
  });
}

export function registerUsersCommand(program: Command): void {
  const users = program.command('users').description("manage HTTP Basic users in the service's database");
  users
    .command('create')
    .description('create a user; the password is read from stdin (--password-stdin) or generated and printed once')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<username>', 'the user name (no colon)')
    .option('--subject <subject>', 'who the user stands for (default: the user name)')
    .option('--scopes <list>', 'comma-separated scopes the user holds, each declared in the spec')
    .option('--password-stdin', 'read the password from standard input')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, username: string, options: CreateUserOptions): ActionResult => runUsersCreate(file, username, options)));
  users
    .command('list')
    .description('list users (never their password hashes)')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: CredentialCommandOptions): ActionResult => runUsersList(file, options)));
  users
    .command('revoke')
    .description('revoke a user: the next request with their password is refused')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<username>', 'the user name')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .action(action((file: string, username: string, options: CredentialCommandOptions): ActionResult => runUsersRevoke(file, username, options)));
  users.addHelpText('after', '\nExit status: 0 done, 1 errors (spec, database, no such user), 2 usage error (unknown scope, bad option).');
}
