// The package's public API: the entry points package.json `exports` names, and exactly the values each exports
// (adding or removing one is a decision, made here). The root loads only the front end: no server, no driver.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/cli-helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types: string; import: string }> };

const API: Record<string, string[]> = {
  '.': [
    'ACTIONS',
    'CONDITIONS',
    'DIAGNOSTICS',
    'FIELD_TYPES',
    'HTTP_METHODS',
    'MAX_SPEC_BYTES',
    'MAX_SPEC_DEPTH',
    'PART_NAMES',
    'RESERVED_PREFIX',
    'buildModel',
    'checkModel',
    'compileSpecBytes',
    'compileSpecFile',
    'compileSpecText',
    'formatDiagnostics',
    'formatGapReport',
    'getErrorCodes',
    'getField',
    'getFieldSchema',
    'getGapReport',
    'getResource',
    'getResourceSchema',
    'getRoutes',
    'getShapeSchema',
    'getSpecSchema',
    'getStateMachine',
    'getTransitionSchema',
    'getVersionModel',
    'hasErrors',
    'loadSpecBytes',
    'loadSpecFile',
    'loadSpecText',
    'validateSpec',
  ],
  './render': ['renderConsole', 'renderHtml', 'renderMarkdown'],
  './diff': ['DIFF_RULES', 'IMPACTS', 'diffModels', 'diffSpecs', 'formatDiff', 'formatSummary', 'readDiffInput'],
  './export': ['exportAsyncApi', 'exportJsonSchemas', 'exportOpenApi', 'generateClient', 'modelToSpec', 'serializeDocument'],
  './import': ['importOpenApiDocument', 'importOpenApiFile', 'specToYaml'],
  './runtime': [
    'AuthConfigError',
    'CredentialError',
    'DEFAULT_TOLERANCE_SECONDS',
    'KeyConfigError',
    'RateLimitStoreUnavailable',
    'ServiceError',
    'ServiceStartError',
    'StorageConstraintError',
    'TargetPolicyError',
    'UnsafeTargetError',
    'WEBHOOK_SECRET_PREFIX',
    'WebhookVerificationError',
    'addWebhookEndpoint',
    'copyStorage',
    'createApiKey',
    'createAuthenticator',
    'createBasicUser',
    'createClient',
    'createMemoryStore',
    'createPostgresStorage',
    'createRedisStore',
    'createService',
    'createSqliteStorage',
    'generateWebhookSecret',
    'getLoggerOptions',
    'getRuntimeGaps',
    'isWebhookSecret',
    'listApiKeys',
    'listBasicUsers',
    'listClients',
    'listWebhookDeliveries',
    'listWebhookEndpoints',
    'removeWebhookEndpoint',
    'replayWebhookDeliveries',
    'revokeApiKey',
    'revokeBasicUser',
    'revokeClient',
    'rotateWebhookSecret',
    'servicespecPlugin',
    'setWebhookEndpointEnabled',
    'signWebhook',
    'verifyWebhook',
  ],
  './webhooks': [
    'DEFAULT_TOLERANCE_SECONDS',
    'WEBHOOK_SECRET_PREFIX',
    'WebhookVerificationError',
    'generateWebhookSecret',
    'isWebhookSecret',
    'signWebhook',
    'verifyWebhook',
  ],
  './tester': ['DEFAULT_MAX_REQUESTS', 'DEFAULT_TIME_LIMIT_MS', 'formatReportJunit', 'formatReportText', 'testService'],
  './cli': ['run'],
};

/** The source module behind an entry's `dist/...js`. */
function sourceOf(entry: string | { import: string }): string {
  const target = typeof entry === 'string' ? entry : entry.import;
  return join(ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

describe('package exports', () => {
  it('names the entry points above and ./schema.json, each pointing at a module with its types beside it', () => {
    expect(Object.keys(pkg.exports).sort()).toEqual([...Object.keys(API), './schema.json'].sort());
    expect(existsSync(join(ROOT, pkg.exports['./schema.json'] as string))).toBe(true);
    for (const name of Object.keys(API)) {
      const entry = pkg.exports[name] as { types: string; import: string };
      expect(entry.types).toBe(entry.import.replace(/\.js$/, '.d.ts'));
      expect(existsSync(sourceOf(entry)), name).toBe(true);
    }
  });

  for (const [name, values] of Object.entries(API)) {
    it(`${name} exports exactly its listed values`, async () => {
      const mod = (await import(pathToFileURL(sourceOf(pkg.exports[name]!)).href)) as Record<string, unknown>;
      expect(Object.keys(mod).sort()).toEqual([...values].sort());
    });
  }

  /** The packages (CommonJS ones: fastify, the drivers, ioredis, swagger-parser all are) that importing `file` loads. */
  function loadedBy(file: string): string[] {
    const script = `
      import { createRequire } from 'node:module';
      await import(${JSON.stringify('%URL%')});
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`.replace('%URL%', pathToFileURL(join(ROOT, file)).href);
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as string[]).map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter((p) => p !== undefined);
  }

  it('importing the root loads no server, database driver, Redis client or OpenAPI parser; the runtime loads pg and ioredis only when used', () => {
    const root = loadedBy('src/index.ts');
    for (const heavy of ['fastify', 'better-sqlite3', 'pg', 'ioredis', '@apidevtools/swagger-parser']) expect(root).not.toContain(heavy);
    const runtime = loadedBy('src/runtime/service/runtime-api.ts');
    expect(runtime).toContain('fastify');
    for (const heavy of ['pg', 'ioredis']) expect(runtime).not.toContain(heavy);
  }, 60_000);
});
