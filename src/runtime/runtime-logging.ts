// Credentials never reach the log: the request URL's secret query parameters, the headers that carry
// credentials and the secret fields of a body are replaced by `[redacted]` whatever logs them.

import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ServiceModel } from '../model/model-types.js';

export const REDACTED = '[redacted]';

/** Query parameters that carry a secret whatever the spec says (RFC 6750 §2.3, RFC 6749 §2.3.1, common key names). */
const SECRET_PARAMS = ['access_token', 'client_secret', 'password', 'api_key', 'apikey', 'api-key', 'token', 'secret', 'key', 'code'];
/** Headers that carry credentials whatever the spec says. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'];
/** Body fields that carry secrets: the token endpoint's and a Basic user's. */
const SECRET_FIELDS = ['password', 'client_secret', 'access_token', 'refresh_token', 'secret', 'token'];

/** The query parameter names treated as secret for this spec: its `api_key` schemes in the query, and the usual ones. */
export function getSecretQueryNames(model: ServiceModel | undefined): Set<string> {
  const names = new Set(SECRET_PARAMS);
  for (const s of model?.authentication?.schemes ?? []) if (s.type === 'api_key' && s.credentialName !== undefined) names.add(s.credentialName.toLowerCase());
  return names;
}

function decodeName(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return text.toLowerCase();
  }
}

/** The URL with the values of secret query parameters replaced and any user:password@ removed. */
export function redactUrl(url: string, names: ReadonlySet<string>): string {
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
  const q = out.indexOf('?');
  if (q < 0) return out;
  const hash = out.indexOf('#', q);
  const query = out.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return names.has(decodeName(name)) && eq >= 0 ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  out = `${out.slice(0, q + 1)}${redacted}${hash < 0 ? '' : out.slice(hash)}`;
  return out;
}

const quoted = (name: string) => `["${name}"]`;

/**
 * Fastify's logger option with credentials redacted from every line: the request serializer writes the URL with
 * secret query parameters replaced, pino's `redact` covers credential headers and secret body fields wherever a
 * request or body is logged, and a top-level `url` (a webhook target) is written without its secrets. False stays
 * false; a logger instance (`loggerInstance`) is the caller's to configure.
 */
export function getLoggerOptions(model: ServiceModel | undefined, logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return false;
  const given: Record<string, unknown> = logger === true ? {} : { ...(logger as Record<string, unknown>) };
  const names = getSecretQueryNames(model);
  const headers = new Set(SECRET_HEADERS);
  for (const s of model?.authentication?.schemes ?? []) {
    // Only header names that are HTTP tokens can be sent (and written as redact paths).
    if (s.type === 'api_key' && s.in !== 'query' && s.credentialName !== undefined && /^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(s.credentialName))
      headers.add(s.credentialName.toLowerCase());
  }
  const paths: string[] = [];
  for (const h of headers) paths.push(`req.headers${quoted(h)}`, `headers${quoted(h)}`, `request.headers${quoted(h)}`);
  for (const f of SECRET_FIELDS) paths.push(`body.${f}`, `req.body.${f}`, `request.body.${f}`);
  const givenRedact = given.redact as { paths?: string[] } | string[] | undefined;
  const extra = Array.isArray(givenRedact) ? givenRedact : (givenRedact?.paths ?? []);
  const givenFormatters = (given.formatters ?? {}) as { log?: (o: Record<string, unknown>) => Record<string, unknown> };
  return {
    ...given,
    serializers: {
      ...(given.serializers as Record<string, unknown> | undefined),
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactUrl(req.url, names) : req.url,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket ? req.socket.remotePort : undefined,
      }),
    },
    redact: { paths: [...paths, ...extra], censor: REDACTED },
    formatters: {
      ...givenFormatters,
      log(object: Record<string, unknown>) {
        const o = givenFormatters.log ? givenFormatters.log(object) : object;
        return typeof o.url === 'string' ? { ...o, url: redactUrl(o.url, names) } : o;
      },
    },
  } as FastifyServerOptions['logger'];
}
