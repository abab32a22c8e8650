// `servicespec clients create|list|revoke FILE`: OAuth2 clients (client credentials grant) in the service's own
// database. The client secret is printed once, by `create`; the database keeps only its hash.

import type { Command } from 'commander';
import { createClient, listClients, revokeClient } from '../runtime/auth/auth-credentials.js';
import { action, EXIT, formatOption, io, type ActionResult, type ExitCode } from './cli-shared.js';
import { parseScopes, printCredentials, CREATE_HELP, DB_HELP, withCredentialStore, type CredentialCommandOptions } from './cli-keys.js';

interface CreateClientOptions extends CredentialCommandOptions {
  subject?: string;
  scopes?: string;
}

export function runClientsCreate(file: string, options: CreateClientOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec clients create', file, options, async (model, storage) => {
    const issued = await createClient(storage, model, {
      scopes: parseScopes(options.scopes),
      ...(options.subject !== undefined ? { subject: options.subject } : {}),
    });
    const tokenPaths = (model.authentication?.schemes ?? [])
      .filter((s) => s.type === 'oauth2_client_credentials' && s.tokenPath !== undefined)
      .map((s) => s.tokenPath);
    if (options.format === 'json') {
      io.out(
        `${JSON.stringify({ clientId: issued.clientId, clientSecret: issued.clientSecret, subject: issued.subject, scopes: issued.scopes, createdAt: issued.createdAt }, null, 2)}\n`,
      );
    } else {
      io.out(
        `OAuth2 client for subject ${issued.subject} (scopes: ${issued.scopes.join(', ') || 'none'})\n` +
          `client_id:     ${issued.clientId}\n` +
          `client_secret: ${issued.clientSecret}\n` +
          'Keep the secret now: it is shown only this once, and only its hash is stored.\n' +
          (tokenPaths.length > 0 ? `Tokens: POST ${tokenPaths.join(' or ')} with grant_type=client_credentials (RFC 6749 §4.4).\n` : ''),
      );
    }
    return EXIT.ok;
  });
}

export function runClientsList(file: string, options: CredentialCommandOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec clients list', file, options, async (_model, storage) => {
    printCredentials(await listClients(storage), options.format, 'CLIENT_ID', 'no clients');
    return EXIT.ok;
  });
}

export function runClientsRevoke(file: string, clientId: string, options: CredentialCommandOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec clients revoke', file, options, async (_model, storage) => {
    if (!(await revokeClient(storage, clientId))) {
      io.err(`servicespec clients revoke: no client with id ${clientId}\n`);
      return EXIT.errors;
    }
    io.out(`client ${clientId} revoked; it gets no new tokens (tokens already issued last until they expire)\n`);
    return EXIT.ok;
  });
}

export function registerClientsCommand(program: Command): void {
  const clients = program.command('clients').description("manage OAuth2 clients (client credentials grant) in the service's database");
  clients
    .command('create')
    .description('create a client; its secret is printed once and only its hash is stored')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--subject <subject>', 'who the client stands for (default: the client id)')
    .option('--scopes <list>', 'comma-separated scopes the client may be granted, each declared in the spec')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: CreateClientOptions): ActionResult => runClientsCreate(file, options)));
  clients
    .command('list')
    .description('list clients (never their secrets)')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: CredentialCommandOptions): ActionResult => runClientsList(file, options)));
  clients
    .command('revoke')
    .description('revoke a client: it gets no new tokens')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<client-id>', 'the client id (as `clients list` shows it)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .action(action((file: string, id: string, options: CredentialCommandOptions): ActionResult => runClientsRevoke(file, id, options)));
  clients.addHelpText('after', '\nExit status: 0 done, 1 errors (spec, database, no such client), 2 usage error (unknown scope, bad option).');
}
