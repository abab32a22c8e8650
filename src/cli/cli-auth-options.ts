// What `servicespec serve` turns its authentication options into. Key material is a deployment setting: it is
// never written in the spec, and a secret never travels on the command line (only the name of the variable
// that holds it does).

import type { AuthOptions } from '../runtime/auth/auth-authenticator.js';

export interface AuthCliOptions {
  /** `--jwt-secret-env VAR`: the environment variable holding the HMAC secret for HS* tokens. */
  jwtSecretEnv?: string;
  /** `--jwks FILE`: a local JWKS file of public keys for verifying bearer tokens. */
  jwks?: string;
  /** `--jwks-url URL`: a JWKS URL whose keys verify bearer tokens (fetched, cached, refetched on an unknown kid). */
  jwksUrl?: string;
  /** `--oidc-issuer URL`: an OpenID Connect issuer whose discovery document names the JWKS URL. */
  oidcIssuer?: string;
  /** `--allow-gaps`. */
  allowGaps?: boolean;
}

/** A usage problem with the authentication options (the CLI prints it and exits 2). */
export class AuthOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthOptionError';
  }
}

export function getAuthOptionsFromCli(cli: AuthCliOptions, env: NodeJS.ProcessEnv = process.env): AuthOptions {
  const jwt: NonNullable<AuthOptions['jwt']> = {};
  if (cli.jwtSecretEnv !== undefined) {
    const value = env[cli.jwtSecretEnv];
    if (value === undefined || value === '') throw new AuthOptionError(`--jwt-secret-env ${cli.jwtSecretEnv}: the variable is not set`);
    jwt.secret = value;
  }
  if (cli.jwks !== undefined) jwt.jwksFile = cli.jwks;
  if (cli.jwksUrl !== undefined && cli.oidcIssuer !== undefined) throw new AuthOptionError('give --jwks-url or --oidc-issuer, not both');
  if (cli.jwksUrl !== undefined) jwt.jwksUrl = cli.jwksUrl;
  if (cli.oidcIssuer !== undefined) jwt.oidcIssuer = cli.oidcIssuer;
  return { jwt, ...(cli.allowGaps ? { allowGaps: true } : {}) };
}
