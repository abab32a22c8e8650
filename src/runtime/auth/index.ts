// Authentication and credentials: the public API (re-exported by src/index.ts).

export {
  AUTH_BUILT_IN,
  AuthConfigError,
  createAuthenticator,
  isServiceAuthenticator,
  type AuthOptions,
  type ServiceAuthenticator,
  type TokenIssuer,
} from './auth-authenticator.js';
export {
  checkScopes,
  createApiKey,
  createBasicUser,
  createClient,
  CredentialError,
  listApiKeys,
  listBasicUsers,
  listClients,
  parseApiKey,
  revokeApiKey,
  revokeBasicUser,
  revokeClient,
  verifyApiKey,
  verifyBasicUser,
  verifyClientSecret,
  type CredentialSummary,
  type IssuedApiKey,
  type IssuedClient,
  type IssuedUser,
} from './auth-credentials.js';
export { KeyConfigError, SUPPORTED_ALGORITHMS, type JwtKeyOptions } from './auth-jwt.js';
export { createTokenHandler, FormBody, installFormParser, registerTokenRoute } from './auth-token-endpoint.js';
