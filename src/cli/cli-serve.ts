import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../runtime/service/runtime-service.js';
import { AuthOptionError, getAuthOptionsFromCli } from './cli-auth-options.js';
import { parseStorageUrl } from './cli-db-url.js';
import { loadHandlers, TYPESCRIPT } from './cli-handlers.js';
import { defaultDbUrl } from './cli-keys.js';
import { action, EXIT, io, printDiagnostics, readSpec, type ActionResult, type ExitCode } from './cli-shared.js';

export interface ServeOptions {
  port: string;
  host: string;
  db?: string;
  allowGaps?: boolean;
  /** Type-check a TypeScript handlers file with the project's own typescript before serving. */
  checkTypes?: boolean;
  handlers?: string;
  log: string;
  /** pretty (coloured, for a person) or json (one object a line); default pretty when stdout is a terminal. */
  logFormat?: 'json' | 'pretty';
  synchronous: 'full' | 'normal';
  /** events (issue 5): address ranges webhooks may be sent to although not public. */
  allowWebhookTarget?: string[];
  redis?: string;
  jwks?: string;
  jwksUrl?: string;
  oidcIssuer?: string;
  jwtSecretEnv?: string;
  /** Serve the docs console and the OpenAPI/AsyncAPI documents under /_servicespec. */
  docs?: boolean;
  /** Serve /_servicespec/metrics (Prometheus text format). */
  metrics?: boolean;
  /** OpenTelemetry traces through the SDK the process loaded (`node --import ./otel-setup.mjs`). */
  tracing?: boolean;
  /** Reload the spec when it changes; a broken edit is refused and the last good spec keeps serving. */
  watch?: boolean;
  /** Origins browsers may call from (repeatable or comma-separated). */
  cors?: string[];
  /** The reverse proxies whose X-Forwarded-For is believed: addresses or CIDR ranges (repeatable or comma-separated). */
  trustProxy?: string[];
  /** Publish every event to this broker (nats://… or amqp://…; events.delivery.broker). */
  broker?: string;
}

/** The few members of the typescript package `--check-types` uses (it is the user's project's, not ours). */
interface TypeScriptApi {
  sys: { fileExists(path: string): boolean; readFile(path: string): string | undefined };
  findConfigFile(dir: string, exists: (path: string) => boolean): string | undefined;
  readConfigFile(path: string, read: (path: string) => string | undefined): { config?: unknown };
  parseJsonConfigFileContent(json: unknown, host: unknown, dir: string): { options: Record<string, unknown> };
  createProgram(files: string[], options: Record<string, unknown>): unknown;
  getPreEmitDiagnostics(program: unknown): readonly {
    file?: { fileName: string; getLineAndCharacterOfPosition(p: number): { line: number; character: number } };
    start?: number;
    code: number;
    messageText: unknown;
  }[];
  flattenDiagnosticMessageText(text: unknown, newLine: string): string;
  ModuleKind: Record<string, number>;
  ModuleResolutionKind: Record<string, number>;
  ScriptTarget: Record<string, number>;
}

/**
 * `--check-types`: the handlers file type-checked by the typescript its own project installs (found from the file,
 * as its editor would), with the project's tsconfig.json when there is one; each type error as file:line:col.
 */
function checkHandlerTypes(file: string): string | undefined {
  const path = resolve(file);
  let ts: TypeScriptApi;
  try {
    ts = createRequire(path)('typescript') as TypeScriptApi;
  } catch {
    return `--check-types: no typescript package is installed for ${file} (npm install --save-dev typescript in its project)`;
  }
  let options: Record<string, unknown> = {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  };
  const config = ts.findConfigFile(dirname(path), (p) => ts.sys.fileExists(p));
  if (config !== undefined)
    options = ts.parseJsonConfigFileContent(ts.readConfigFile(config, (p) => ts.sys.readFile(p)).config, ts.sys, dirname(config)).options;
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([path], { ...options, noEmit: true }));
  if (diagnostics.length === 0) return undefined;
  const lines = diagnostics.map((d) => {
    let where = '';
    if (d.file && d.start !== undefined) {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      where = `${relative(process.cwd(), d.file.fileName)}:${line + 1}:${character + 1}: `;
    }
    return `  ${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
  return `${file} has ${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}; not serving\n${lines.join('\n')}`;
}

/** pino's options: JSON lines, or lines for a person through pino-pretty (loaded only then); redaction applies to both. */
async function getLogger(level: string, format: 'json' | 'pretty'): Promise<NonNullable<ServiceOptions['logger']>> {
  if (format === 'json') return { level };
  const { default: pretty } = await import('pino-pretty');
  const colorize = io.isTTY.out && io.env.NO_COLOR === undefined;
  return { level, stream: pretty({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true }) };
}

export async function runServe(file: string, options: ServeOptions): Promise<number> {
  // An empty PORT (`PORT= npm start`) is a mistake, not "pick a free port": Number('') is 0.
  if (String(options.port).trim() === '') {
    io.err('servicespec serve: --port (or PORT) is empty: give a number from 0 to 65535 (0 picks a free one)\n');
    return EXIT.usage;
  }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`servicespec serve: --port must be a number from 0 to 65535, not ${JSON.stringify(options.port)}\n`);
    return EXIT.usage;
  }
  if (options.watch && file === '-') {
    io.err('servicespec serve: --watch needs a file, not standard input\n');
    return EXIT.usage;
  }
  const { getFileDigest, watchSpecFile } = await import('./cli-watch.js');
  const since = options.watch ? getFileDigest(file) : undefined;
  const built = await buildApp(file, options);
  if (typeof built === 'number') return built;
  let { app } = built;
  const { dbUrl, name } = built;
  let listening = port;
  try {
    const address = await app.listen({ port, host: options.host });
    listening = (app.server.address() as { port: number }).port;
    io.err(`servicespec: serving ${name} at ${address} (database ${dbUrl})\n`);
    if (options.docs) io.err(`servicespec: docs console at ${address}/_servicespec/docs\n`);
  } catch (err) {
    await app.close();
    io.err(`servicespec serve: ${getListenError(options.host, port, err)}\n`);
    return EXIT.errors;
  }
  // --watch: a changed spec that builds replaces the service on the same port; one that does not is refused and the
  // last good one keeps serving.
  const unwatch = options.watch
    ? watchSpecFile(file, since, async () => {
        io.err(`servicespec: ${file} changed; reloading\n`);
        const next = await buildApp(file, options);
        if (typeof next === 'number') {
          io.err(`servicespec: the change to ${file} was refused; still serving the last good spec\n`);
          return;
        }
        await app.close();
        app = next.app;
        try {
          const address = await app.listen({ port: listening, host: options.host });
          io.err(`servicespec: reloaded ${next.name} at ${address}\n`);
        } catch (err) {
          io.err(`servicespec serve: cannot listen on ${options.host}:${listening} again: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
          process.exit(EXIT.errors);
        }
      })
    : () => undefined;
  if (options.watch) io.err(`servicespec: watching ${file} for changes\n`);
  // In-flight requests finish, then the database closes; a second signal stops at once.
  await new Promise<void>((done) => {
    const stop = (signal: string) => {
      io.err(`servicespec: ${signal} received, finishing in-flight requests\n`);
      unwatch();
      process.once(signal as NodeJS.Signals, () => process.exit(EXIT.errors));
      app.close().then(done, done);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return EXIT.ok;
}

/** Why listening failed, in words that say what to change (the port in use: which one, and `--port`). */
export function getListenError(host: string, port: number, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return `port ${port} on ${host} is already in use (EADDRINUSE): stop what is using it, or pick another with --port (or PORT); --port 0 picks a free one`;
  if (code === 'EACCES') return `not allowed to listen on ${host}:${port} (EACCES): ports below 1024 need privileges; pick another with --port`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${host}:${port}: ${host} is not an address of this machine (EADDRNOTAVAIL); pick another with --host`;
  return `cannot listen on ${host}:${port}: ${code ?? (err as Error).message}`;
}

/** Reads the spec and builds the service on its database, or says why not (printed) and returns the exit code. */
async function buildApp(file: string, options: ServeOptions): Promise<{ app: FastifyInstance; dbUrl: string; name: string } | ExitCode> {
  // The runtime (Fastify, jose, ioredis, the SQLite driver) loads only when serving, so other commands start fast.
  const [
    { AuthConfigError, createAuthenticator },
    { createRedisStore },
    { createService, getGapProblems, getTrustProxyProblems, MIGRATE_HINT, ServiceStartError },
    { openStorage, redactStorageUrl },
  ] = await Promise.all([
    import('../runtime/auth/index.js'),
    import('../runtime/limits/limits-store.js'),
    import('../runtime/service/runtime-service.js'),
    import('./cli-db-url.js'),
  ]);
  const compiled = readSpec(file);
  printDiagnostics(compiled.diagnostics, { quiet: true });
  if (!compiled.model || !compiled.checked) {
    io.err(`servicespec serve: ${file} has errors; fix them first (servicespec check ${file})\n`);
    return EXIT.errors;
  }
  const dbUrl = options.db ?? defaultDbUrl(file);
  const target = parseStorageUrl(dbUrl);
  if (target.kind === 'error') {
    io.err(`servicespec serve: ${target.message}\n`);
    return EXIT.usage;
  }
  const service: ServiceOptions = {
    storage: undefined as never,
    allowGaps: options.allowGaps ?? false,
    logger: options.log === 'silent' ? false : await getLogger(options.log, options.logFormat ?? (io.isTTY.out ? 'pretty' : 'json')),
    docs: options.docs === true,
    metrics: options.metrics === true,
    ...(options.tracing === true ? { tracing: true } : {}),
  };
  if (options.cors !== undefined) service.cors = { origins: options.cors };
  if (options.trustProxy !== undefined) {
    const problems = getTrustProxyProblems(options.trustProxy);
    if (problems.length > 0) {
      io.err(`servicespec serve: --trust-proxy: ${problems.map((p) => p.replace(/^trust proxy: /, '')).join('; ')}\n`);
      return EXIT.usage;
    }
    service.trustProxy = options.trustProxy;
  }
  if (options.allowWebhookTarget !== undefined) service.webhooks = { allowTargets: options.allowWebhookTarget }; // events (issue 5)
  // Callbacks are signed with one service secret, kept out of the command line (and so out of `ps`).
  const callbackSecret = io.env.SERVICESPEC_CALLBACK_SECRET;
  if (callbackSecret !== undefined && callbackSecret !== '') service.webhooks = { ...service.webhooks, callbackSecret };
  if (options.broker !== undefined) {
    // A bad URL or refused credentials stop here, in one line; a broker that is merely down is waited for.
    const { parseBrokerUrl, probeBroker } = await import('../runtime/events/events-broker-connect.js');
    const target = parseBrokerUrl(options.broker, compiled.model);
    if (typeof target === 'string') {
      io.err(`servicespec serve: ${target}\n`);
      return EXIT.usage;
    }
    const probe = await probeBroker(target, compiled.model);
    if (probe.fatal !== undefined) {
      io.err(`servicespec serve: --broker ${target.shown}: ${probe.fatal}\n`);
      return EXIT.errors;
    }
    if (probe.down !== undefined) io.err(`servicespec: --broker ${target.shown}: ${probe.down}; events wait in the outbox until it is reachable\n`);
    service.webhooks = { ...service.webhooks, broker: target };
  }
  if (options.handlers !== undefined) {
    if (options.checkTypes && TYPESCRIPT.test(options.handlers)) {
      const typeErrors = checkHandlerTypes(options.handlers);
      if (typeErrors !== undefined) {
        io.err(`servicespec serve: ${typeErrors}\n`);
        return EXIT.errors;
      }
    }
    const handlers = await loadHandlers(options.handlers);
    if (typeof handlers === 'string') {
      io.err(`servicespec serve: ${handlers}\n`);
      return EXIT.errors;
    }
    service.handlers = handlers;
  }
  let storage;
  const shownUrl = redactStorageUrl(dbUrl);
  try {
    storage = openStorage(dbUrl, options.synchronous !== undefined ? { synchronous: options.synchronous } : {});
  } catch (err) {
    io.err(`servicespec serve: cannot open ${shownUrl}: ${(err as Error).message}\n`);
    return EXIT.errors;
  }
  try {
    // A database over the network is reached here, so an unreachable one is one clear line, not an internal error.
    await storage.lastOutboxSeq();
  } catch (err) {
    await storage.close().catch(() => undefined);
    io.err(`servicespec serve: cannot open ${shownUrl}: ${(err as Error).message.split('\n')[0]}\n`);
    return EXIT.errors;
  }
  service.storage = storage;
  if (compiled.model.authentication) {
    try {
      const authenticator = await createAuthenticator(
        compiled.checked,
        storage,
        getAuthOptionsFromCli(
          { jwtSecretEnv: options.jwtSecretEnv, jwks: options.jwks, jwksUrl: options.jwksUrl, oidcIssuer: options.oidcIssuer, allowGaps: options.allowGaps },
          io.env as NodeJS.ProcessEnv,
        ),
      );
      for (const g of authenticator.gaps) io.err(`servicespec: spec gap: ${g.item}; using built-in behaviour: ${g.builtIn}\n`);
      for (const w of authenticator.warnings) io.err(`servicespec: ${w}\n`);
      service.authenticator = authenticator;
    } catch (err) {
      await storage.close();
      if (err instanceof AuthOptionError) {
        io.err(`servicespec serve: ${err.message}\n`);
        return EXIT.usage;
      }
      if (err instanceof AuthConfigError) {
        io.err(`servicespec serve: authentication cannot be set up for ${file}:\n${err.problems.map((p) => `  - ${p}\n`).join('')}`);
        // Every gap at once, not one refusal at a time.
        const gaps = options.allowGaps ? [] : getGapProblems(compiled.model, service.handlers);
        if (gaps.length > 0) {
          io.err(`and ${file} cannot be served as it is:\n${gaps.map((p) => `  - ${p}\n`).join('')}`);
          io.err('Declare what is missing in the spec, or pass --allow-gaps to use the built-in behaviour for each gap.\n');
        }
        return EXIT.errors;
      }
      throw err;
    }
  }
  if (options.redis !== undefined) {
    service.rateLimitStore = createRedisStore({
      url: options.redis,
      onError: (err) =>
        io.err(
          `servicespec: the rate-limit store at ${options.redis} is unavailable (${err.message}); each policy's declared failure mode applies (open when not declared)\n`,
        ),
    });
  }
  let app: FastifyInstance;
  try {
    app = await createService(compiled.checked, service);
  } catch (err) {
    await storage.close();
    await service.rateLimitStore?.close();
    if (err instanceof ServiceStartError) {
      io.err(`servicespec serve: ${file} cannot be served as it is:\n${err.problems.map((p) => `  - ${p}\n`).join('')}`);
      // migrate (issue 28): the exact command that plans what start-up refused.
      if (err.problems.some((p) => p.endsWith(MIGRATE_HINT))) {
        const migrate = `servicespec migrate ${file} --db ${shownUrl}`;
        io.err(`See the plan (it changes nothing) with:\n  ${migrate}\nthen run it with:\n  ${migrate} --apply\n`);
      }
      if (!options.allowGaps && err.problems.some((p) => p.includes('--allow-gaps'))) {
        io.err('Declare what is missing in the spec, or pass --allow-gaps to use the built-in behaviour for each gap.\n');
      }
      return EXIT.errors;
    }
    throw err;
  }
  return { app, dbUrl: shownUrl, name: compiled.model.purpose?.name ?? file };
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve a spec as an HTTP service on a real database')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .addOption(new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').env('PORT').default('3000'))
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default('127.0.0.1'))
    .option('--db <url>', 'database: sqlite:PATH, sqlite::memory: or postgres://user@host:port/db (default data/<spec name>.db beside the spec file)')
    .option('--allow-gaps', 'serve even where the spec leaves a gap, using the logged built-in behaviour')
    .option('--jwks <file>', 'a local JWKS file of public keys that verify bearer tokens')
    .option('--jwks-url <url>', 'a JWKS URL whose public keys verify bearer tokens (cached; fetched again on an unknown kid, at most every 30 s)')
    .option('--oidc-issuer <url>', "an OpenID Connect issuer: its discovery document's jwks_uri verifies bearer tokens")
    .option('--jwt-secret-env <var>', 'the environment variable holding the HMAC secret for HS* bearer tokens')
    .option('--redis <url>', 'share rate-limit budgets across instances through Redis (redis://host:port)')
    .option('--docs', 'also serve the docs console (/_servicespec/docs) and the OpenAPI and AsyncAPI documents')
    .option('--metrics', 'serve /_servicespec/metrics in the Prometheus text format (requests, latency, refusals, webhook deliveries, outbox lag)')
    .option(
      '--tracing',
      'OpenTelemetry spans per request and per storage call, made with the SDK loaded before servicespec (node --import ./otel-setup.mjs; docs/runtime.md, "Traces")',
    )
    .option('--handlers <file>', 'a JavaScript or TypeScript module exporting `handlers` for custom operations')
    .option('--check-types', "type-check a TypeScript --handlers file first, with its project's typescript (see handlers-type)")
    .option(
      '--allow-webhook-target <cidr>',
      'let webhooks go to this non-public address range too, e.g. 127.0.0.0/8 (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option(
      '--broker <url>',
      'publish every event to this broker as well: nats://host:4222 (JetStream) or amqp://user:password@host:5672 (RabbitMQ), as events.delivery.broker declares',
    )
    .option('--watch', 'reload the spec when it changes; a broken edit is refused and the last good spec keeps serving')
    .option(
      '--cors <origins>',
      'let browsers on these origins call the service, e.g. http://localhost:5173 (repeatable or comma-separated; * for any)',
      (v: string, prev: string[] = []) => [
        ...prev,
        ...v
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== ''),
      ],
    )
    .option(
      '--trust-proxy <addresses>',
      'read the client address from X-Forwarded-For when the peer is one of these proxies: addresses or CIDR ranges, e.g. 10.0.0.0/8 (repeatable or comma-separated)',
      (v: string, prev: string[] = []) => [
        ...prev,
        ...v
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== ''),
      ],
    )
    .addOption(new Option('--log <level>', 'log level').choices(['silent', 'error', 'warn', 'info', 'debug']).default('info'))
    .addOption(
      new Option('--log-format <format>', 'log lines for a person (coloured) or JSON (default: pretty on a terminal, json otherwise)').choices([
        'json',
        'pretty',
      ]),
    )
    .addOption(new Option('--synchronous <mode>', 'SQLite durability: full survives power loss').choices(['full', 'normal']).default('full'))
    .action(action((file: string, options: ServeOptions): ActionResult => runServe(file, options) as Promise<0 | 1 | 2>));
}
