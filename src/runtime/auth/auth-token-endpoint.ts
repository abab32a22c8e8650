// The token endpoint of an oauth2_client_credentials scheme: RFC 6749 §4.4 (client credentials grant).
//
// Requests are application/x-www-form-urlencoded (§4.4.2); the client authenticates with HTTP Basic (§2.3.1,
// id and secret form-urlencoded first) or, alternatively, client_id/client_secret in the body — never both.
// Answers follow the protocol, not the spec's error body: §5.1 on success, §5.2 on failure
// (`{"error": "invalid_client", "error_description": "..."}`, 401 for invalid_client, 400 otherwise), because
// OAuth2 clients are written against RFC 6749 and parse exactly that shape. RFC 6749 fixes the body, not the other
// headers: these answers carry X-Request-Id and the declared headers of every error answer (errors.headers with a
// `default`) as every other error answer does; not a code's own, since they answer none of the spec's codes.

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenRoute } from '../../model/model-routes.js';
import type { RuntimeContext } from '../runtime-context.js';
import { REQUEST_ID_HEADER, ServiceError, type ErrorHeader } from '../runtime-errors.js';
import { failedAuthRefusal } from './auth-attempts.js';
import { verifyClientSecret } from './auth-credentials.js';
import { isServiceAuthenticator, type TokenIssuer } from './auth-authenticator.js';

/** A parsed form body: every parameter with all the values it was given. */
export class FormBody {
  constructor(readonly fields: ReadonlyMap<string, readonly string[]>) {}

  static parse(text: string): FormBody {
    const fields = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(text)) {
      const list = fields.get(k);
      if (list) list.push(v);
      else fields.set(k, [v]);
    }
    return new FormBody(fields);
  }
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Token requests are a few short parameters. */
export const TOKEN_BODY_LIMIT = 16 * 1024;

/**
 * Teaches `app` to read application/x-www-form-urlencoded bodies (as a FormBody). Call it in an encapsulated
 * context that holds only the token routes (as `registerTokenRoute` does), so no other operation starts
 * accepting form bodies.
 */
export function installFormParser(app: FastifyInstance, bodyLimit = TOKEN_BODY_LIMIT): void {
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, FormBody.parse(body as string));
  });
}

type OAuthError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'server_error';

class OAuthFailure extends Error {
  constructor(
    readonly error: OAuthError,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthFailure';
  }
}

/** What every error answer of the token endpoint carries besides its body: the realm of its challenge, the declared headers. */
interface OAuthErrorContext {
  realm: string;
  /** errors.headers with a `default` (ErrorResponder.everyErrorHeaders). */
  headers: readonly ErrorHeader[];
}

function sendOAuthError(reply: FastifyReply, error: OAuthError, description: string, on: OAuthErrorContext): FastifyReply {
  const status = error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400;
  // §5.2: a client that failed to authenticate is told how to: with HTTP Basic.
  if (error === 'invalid_client') reply.header('www-authenticate', `Basic realm="${on.realm.replace(/["\\]/g, '\\$&')}", charset="UTF-8"`);
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  // The protocol's own (Cache-Control, Pragma, WWW-Authenticate) win over a declared default of the same name, as
  // the error's own do in ErrorResponder.send.
  for (const [k, v] of on.headers) if (!reply.hasHeader(k)) reply.header(k, v);
  return reply.code(status).type('application/json').send({ error, error_description: description });
}

/** Decodes one form-urlencoded component (RFC 6749 Appendix B); undefined when malformed. */
function formDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The client id and secret from `Authorization: Basic`, undefined when absent; throws when malformed. */
function basicClient(request: FastifyRequest): { id: string; secret: string } | undefined {
  const h = request.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^basic[ \t]+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(h);
  if (!m || m[1]!.length % 4 !== 0) throw new OAuthFailure('invalid_client', 'client authentication failed');
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = text.indexOf(':');
  const id = i < 0 ? undefined : formDecode(text.slice(0, i));
  const secret = i < 0 ? undefined : formDecode(text.slice(i + 1));
  if (id === undefined || secret === undefined) throw new OAuthFailure('invalid_client', 'client authentication failed');
  return { id, secret };
}

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The handler for one token route. Needs the authenticator made by createAuthenticator (it holds the signing key). */
export function createTokenHandler(route: TokenRoute, ctx: RuntimeContext): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const auth = ctx.authenticator;
  const issuer: TokenIssuer | undefined = isServiceAuthenticator(auth) ? auth.tokenIssuer(route.scheme.name) : undefined;
  if (!issuer) throw new Error(`the token endpoint ${route.path} (scheme ${route.scheme.name}) needs the authenticator made by createAuthenticator`);
  const declared = new Set((ctx.model.authentication?.scopes ?? []).map((s) => s.name));
  const on: OAuthErrorContext = { realm: issuer.realm, headers: ctx.errors.everyErrorHeaders };

  /**
   * Counts a failed client authentication against the client address and the presented client id; the error to throw:
   * the declared rate_limited error (429, Retry-After) once the bound was already spent (per client id first,
   * then per address: auth-attempts.ts), else invalid_client. A client secret has 256 bits, so a valid one is
   * still accepted while the bound is spent (as an API key): only failures are refused differently.
   */
  const failedClient = (address: string, ids: readonly string[]): Error => {
    const failures = issuer.failures;
    const wait = failures.counting() ? failures.blockedForAttempt(address, ids) : 0;
    failures.fail([address, ...ids]);
    return wait > 0 ? failedAuthRefusal(wait) : new OAuthFailure('invalid_client', 'client authentication failed');
  };

  return async (request, reply) => {
    try {
      if (!(request.body instanceof FormBody)) throw new OAuthFailure('invalid_request', `send the request as ${FORM_TYPE}`);
      const fields = request.body.fields;
      // §3.2: parameters sent without a value are treated as omitted; none may be given twice.
      const one = (name: string): string | undefined => {
        const values = fields.get(name);
        if (values && values.length > 1) throw new OAuthFailure('invalid_request', `the ${name} parameter is given more than once`);
        return values?.[0] === '' ? undefined : values?.[0];
      };
      const grantType = one('grant_type');
      const scopeParam = one('scope');
      const bodyId = one('client_id');
      const bodySecret = one('client_secret');
      if (grantType === undefined) throw new OAuthFailure('invalid_request', 'the grant_type parameter is missing');

      // §2.3: one authentication method per request.
      const address = `a:${request.ip}`;
      let basic: { id: string; secret: string } | undefined;
      try {
        basic = basicClient(request);
      } catch {
        throw failedClient(address, []);
      }
      if (basic && (bodyId !== undefined || bodySecret !== undefined))
        throw new OAuthFailure('invalid_request', 'authenticate the client with one method only');
      const id = basic?.id ?? bodyId;
      const secret = basic?.secret ?? bodySecret;
      // Nothing presented is not a failed authentication (as a request with no credential), and is not counted.
      if (id === undefined && secret === undefined) throw new OAuthFailure('invalid_client', 'client authentication failed');
      const ids = id !== undefined && id.length <= 256 ? [`c:${id}`] : [];
      if (id === undefined || secret === undefined) throw failedClient(address, ids);
      const client = await verifyClientSecret(ctx.storage, id, secret);
      if (!client) throw failedClient(address, ids);

      if (grantType !== 'client_credentials') throw new OAuthFailure('unsupported_grant_type', 'this endpoint grants client_credentials only');

      const held = client.scopes.filter((s) => declared.has(s));
      let scopes = held;
      if (scopeParam !== undefined) {
        const requested = [...new Set(scopeParam.split(' ').filter((s) => s !== ''))];
        if (requested.length === 0 || requested.some((s) => !SCOPE_TOKEN.test(s))) throw new OAuthFailure('invalid_scope', 'the scope parameter is malformed');
        const refused = requested.filter((s) => !held.includes(s));
        if (refused.length > 0) throw new OAuthFailure('invalid_scope', `the client does not hold ${refused.join(', ')}`);
        scopes = requested;
      }
      const issued = await issuer.issue(client, scopes);
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .type('application/json')
        .send({ access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: scopes.join(' ') });
    } catch (err) {
      if (err instanceof OAuthFailure) return sendOAuthError(reply, err.error, err.description, on);
      // The failed-credential bound spent: the spec's declared rate_limited answer, with Retry-After.
      if (err instanceof ServiceError) return ctx.errors.send(request, reply, err);
      request.log.error({ err }, 'token endpoint failure');
      return sendOAuthError(reply, 'server_error', 'an unexpected error occurred', on);
    }
  };
}

/** Failures before the handler runs (unreadable or oversized body, wrong media type), in RFC 6749 §5.2 form. */
function tokenErrorHandler(on: OAuthErrorContext) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'token endpoint failure');
      return sendOAuthError(reply, 'server_error', 'an unexpected error occurred', on);
    }
    const description = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? `send the request as ${FORM_TYPE}` : 'the request could not be read';
    return sendOAuthError(reply, 'invalid_request', description, on);
  };
}

/**
 * Registers the token route in its own encapsulated context: the form parser and the RFC 6749 error handler
 * apply to it alone. Call from inside the service plugin, after its JSON parser is installed.
 */
export async function registerTokenRoute(app: FastifyInstance, route: TokenRoute, ctx: RuntimeContext): Promise<void> {
  const handler = createTokenHandler(route, ctx);
  const realm = ctx.model.purpose?.name ?? 'service';
  await app.register(async (child) => {
    installFormParser(child);
    child.setErrorHandler(tokenErrorHandler({ realm, headers: ctx.errors.everyErrorHeaders }));
    child.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
    child.route({ method: 'POST', url: route.routerPath, handler });
  });
}
