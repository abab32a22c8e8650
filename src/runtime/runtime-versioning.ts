import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceModel } from '../model/model-types.js';
import { ServiceError } from './runtime-errors.js';

export interface VersionResolver {
  /** The version a request asks for (or the declared default); undefined when the spec is not versioned. */
  resolve(request: FastifyRequest): string | undefined;
  annotate(reply: FastifyReply, version: string): void;
}

/** Reads the version where the spec places it and refuses versions the spec does not list. */
export function createVersionResolver(model: ServiceModel): VersionResolver {
  const v = model.versioning;
  const placement = v?.placement;
  if (!v || !placement) return { resolve: () => undefined, annotate: () => undefined };
  const known = [...(v.current !== undefined ? [v.current] : []), ...v.supported.map((s) => s.version)];
  const unique = [...new Set(known)];
  const oldest = v.supported.length > 0 ? v.supported[v.supported.length - 1]!.version : v.current;
  const fallback = v.default === 'oldest' ? oldest : v.default === 'required' ? undefined : v.current;
  const sunsets = new Map(v.supported.filter((s) => s.sunset !== undefined).map((s) => [s.version, s.sunset!]));
  const deprecations = new Map(v.supported.filter((s) => s.deprecated !== undefined).map((s) => [s.version, s.deprecated!]));

  const read = (request: FastifyRequest): string | undefined => {
    switch (placement.kind) {
      case 'header': {
        const h = request.headers[placement.name.toLowerCase()];
        return Array.isArray(h) ? h[0] : h;
      }
      case 'query': {
        const q = (request.query as Record<string, unknown>)[placement.name];
        return typeof q === 'string' ? q : undefined;
      }
      case 'path':
        return (request.params as Record<string, string>).version;
      case 'media_type': {
        const accept = request.headers.accept ?? '';
        const m = new RegExp(`${placement.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*"?([^";,\\s]+)`).exec(accept);
        return m?.[1];
      }
    }
  };

  return {
    resolve(request) {
      const asked = read(request);
      if (asked === undefined || asked === '') {
        if (fallback === undefined) throw new ServiceError('unsupported_version', `name a version (${unique.join(', ')})`);
        return fallback;
      }
      if (!unique.includes(asked)) throw new ServiceError('unsupported_version', `version ${asked.slice(0, 64)} is not served; served: ${unique.join(', ')}`);
      const sunset = sunsets.get(asked);
      if (sunset !== undefined && sunset <= new Date().toISOString().slice(0, 10)) {
        throw new ServiceError('unsupported_version', `version ${asked} reached its sunset on ${sunset}`);
      }
      return asked;
    },
    annotate(reply, version) {
      if (placement.kind === 'header') reply.header(placement.name, version);
      const dep = deprecations.get(version);
      if (dep !== undefined) reply.header('deprecation', `@${Math.floor(Date.parse(dep) / 1000)}`);
      const sunset = sunsets.get(version);
      if (sunset !== undefined) reply.header('sunset', new Date(sunset).toUTCString());
    },
  };
}
