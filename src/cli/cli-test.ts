import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { parseDuration } from '../util/util-units.js';
import type { ServiceModel } from '../model/model-types.js';
import { PART_NAMES } from '../spec/spec-types.js';
import type { SubjectCredentials, TestOptions } from '../tester/tester-types.js';
import { action, EXIT, io, printDiagnostics, readSpec, type ExitCode } from './cli-shared.js';

/** The options of `servicespec test`, as commander hands them over. */
export interface TestCliOptions {
  baseUrl: string;
  header?: string[];
  bearer?: string;
  basic?: string;
  clientId?: string;
  clientSecret?: string;
  otherHeader?: string[];
  otherBearer?: string;
  otherBasic?: string;
  otherClientId?: string;
  otherClientSecret?: string;
  limitedHeader?: string[];
  limitedBearer?: string;
  limitedBasic?: string;
  limitedClientId?: string;
  limitedClientSecret?: string;
  limitedScopes?: string;
  seed?: string;
  maxRequests?: string;
  timeLimit?: string;
  requestTimeout?: string;
  runs?: string;
  rateLimits?: boolean;
  webhookListen?: string;
  broker?: string;
  format?: 'text' | 'json' | 'junit';
  verbose?: boolean;
  progress?: boolean;
  showSecrets?: boolean;
  only?: string;
  skip?: string;
  allowIncomplete?: boolean;
  replay?: string;
}

function usage(message: string): ExitCode {
  io.err(`servicespec test: ${message} (see \`servicespec test --help\`)\n`);
  return EXIT.usage;
}

/** One subject's credentials from its flags; a string is a usage error. */
function subject(
  h: string[] | undefined,
  bearer: string | undefined,
  basic: string | undefined,
  id: string | undefined,
  secret: string | undefined,
  flag: string,
): SubjectCredentials | string | undefined {
  const out: SubjectCredentials = {};
  if (h && h.length > 0) {
    const headers: Record<string, string> = {};
    for (const line of h) {
      const colon = line.indexOf(':');
      if (colon <= 0) return `--${flag}header ${JSON.stringify(line)}: write it as 'Name: value'`;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    out.headers = headers;
  }
  if (bearer !== undefined) out.bearer = bearer;
  if (basic !== undefined) {
    const colon = basic.indexOf(':');
    if (colon <= 0) return `--${flag}basic: write it as user:password`;
    out.basic = { user: basic.slice(0, colon), password: basic.slice(colon + 1) };
  }
  if ((id === undefined) !== (secret === undefined)) return `--${flag}client-id and --${flag}client-secret go together`;
  if (id !== undefined && secret !== undefined) {
    out.clientId = id;
    out.clientSecret = secret;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function positiveInt(value: string | undefined, flag: string, least = 1): number | string | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) < least || !Number.isSafeInteger(Number(value)))
    return `${flag} ${JSON.stringify(value)}: ${least === 0 ? 'a whole number, 0 or more,' : 'a positive whole number'} is needed`;
  return Number(value);
}

/**
 * The header names a subject's credentials are given as: each api_key scheme's name (a key in the query too, sent
 * there), and Authorization where a scheme is basic or bearer. A --header naming another is never sent.
 */
function credentialHeaders(model: ServiceModel): string[] {
  const schemes = model.authentication?.schemes ?? [];
  const keys = schemes.flatMap((s) => (s.type === 'api_key' && s.credentialName !== undefined ? [s.credentialName] : []));
  return [...keys, ...(schemes.some((s) => s.type === 'basic' || s.type === 'bearer') ? ['Authorization'] : [])];
}

/** A duration flag (`90s`, `2m`, `500ms`, or whole seconds) in ms; a string says why not; undefined when not given. */
function durationMs(value: string | undefined, flag: string, example: string): number | string | undefined {
  if (value === undefined) return undefined;
  const d = /^[0-9]+$/.test(value) ? { ms: Number(value) * 1000 } : parseDuration(value);
  return !d || d.ms <= 0 ? `${flag} ${JSON.stringify(value)}: a duration is needed, e.g. ${example}` : d.ms;
}

export async function runTest(file: string, cli: TestCliOptions): Promise<ExitCode> {
  let base: URL;
  // `127.0.0.1:3000` or `localhost:3000` parses as a URL of scheme `127.0.0.1:`: said as the address it is missing.
  const noScheme = !/^[a-z][a-z0-9+.-]*:\/\//i.test(cli.baseUrl);
  try {
    base = new URL(cli.baseUrl);
  } catch {
    return usage(`--base-url ${JSON.stringify(cli.baseUrl)} is not a URL${noScheme ? `; give http://${cli.baseUrl}` : ''}`);
  }
  if (noScheme) return usage(`--base-url ${JSON.stringify(cli.baseUrl)} names no scheme; give http://${cli.baseUrl}`);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return usage(`--base-url ${cli.baseUrl}: only http and https are tested`);
  // The tester adds each operation's path and query to the base: a query or fragment in it would end up in the path.
  if (base.search !== '' || base.hash !== '')
    return usage(`--base-url ${cli.baseUrl}: a base URL has no query or fragment; give ${base.origin}${base.pathname.replace(/\/+$/, '')}`);
  const main = subject(cli.header, cli.bearer, cli.basic, cli.clientId, cli.clientSecret, '');
  const other = subject(cli.otherHeader, cli.otherBearer, cli.otherBasic, cli.otherClientId, cli.otherClientSecret, 'other-');
  const limited = subject(cli.limitedHeader, cli.limitedBearer, cli.limitedBasic, cli.limitedClientId, cli.limitedClientSecret, 'limited-');
  for (const s of [main, other, limited]) if (typeof s === 'string') return usage(s);
  const numbers: Record<string, number | undefined> = {};
  for (const [key, flag] of [
    ['seed', '--seed'],
    ['maxRequests', '--max-requests'],
    ['runs', '--runs'],
    ['webhookListen', '--webhook-listen'],
  ] as const) {
    const n = positiveInt(cli[key], flag, key === 'seed' || key === 'webhookListen' ? 0 : 1);
    if (typeof n === 'string') return usage(n);
    numbers[key] = n;
  }
  const timeLimitMs = durationMs(cli.timeLimit, '--time-limit', '90s or 2m');
  if (typeof timeLimitMs === 'string') return usage(timeLimitMs);
  const requestTimeoutMs = durationMs(cli.requestTimeout, '--request-timeout', '10s or 500ms');
  if (typeof requestTimeoutMs === 'string') return usage(requestTimeoutMs);
  const compiled = readSpec(file);
  if (!compiled.model || compiled.diagnostics.some((d) => d.severity === 'error')) {
    printDiagnostics(compiled.diagnostics, { format: 'text', quiet: true, to: 'err' });
    return EXIT.errors;
  }
  // A --header no credential of the spec travels in would be dropped without a word: a typo in an API key's name
  // would then fail every check that needs the credential. A header an operation declares as a parameter (a
  // document's own key or user name outside its schemes: discourse's Api-Username) is sent to the operations declaring it.
  const params = [...new Set((compiled.model.endpoints?.operations ?? []).flatMap((o) => o.headers.map((h) => h.name)))];
  const accepted = [...credentialHeaders(compiled.model), ...params];
  for (const [flag, given] of [
    ['header', cli.header],
    ['other-header', cli.otherHeader],
    ['limited-header', cli.limitedHeader],
  ] as const) {
    for (const line of given ?? []) {
      const name = line.slice(0, line.indexOf(':')).trim();
      if (accepted.some((a) => a.toLowerCase() === name.toLowerCase())) continue;
      return usage(
        `--${flag} ${JSON.stringify(name)} is no header a credential of ${file === '-' ? 'the spec' : file} travels in (${accepted.length > params.length ? accepted.slice(0, accepted.length - params.length).join(', ') : 'its authentication declares none'}) nor a header parameter of its operations${params.length > 0 ? ` (${params.join(', ')})` : ''}: it would not be sent`,
      );
    }
  }
  const [{ testService, CHECK_NAMES, getReplay }, { formatReportJunit, formatReportText }] = await Promise.all([
    import('../tester/tester-run.js'),
    import('../tester/tester-report.js'),
  ]);
  // --only/--skip name parts, checks or operations: a name that matches none would select nothing (or leave
  // nothing out) without a word, so it is a usage error listing the names there are.
  const operations = (compiled.model.endpoints?.operations ?? []).map((o) => o.id);
  const names = new Set<string>([...PART_NAMES, ...CHECK_NAMES, ...operations]);
  const lists: Partial<Record<'only' | 'skip', string[]>> = {};
  for (const flag of ['only', 'skip'] as const) {
    const given = cli[flag];
    if (given === undefined) continue;
    const list = given.split(/[\s,]+/).filter((x) => x !== '');
    const unknown = list.filter((x) => !names.has(x));
    if (list.length === 0) return usage(`--${flag} needs at least one part, check or operation`);
    if (unknown.length > 0) {
      io.err(
        `servicespec test: --${flag} ${unknown.map((u) => JSON.stringify(u)).join(', ')} matches no part, check or operation of ${file === '-' ? 'the spec' : file}\n  parts: ${PART_NAMES.join(', ')}\n  checks: ${CHECK_NAMES.join(', ')}\n  operations: ${operations.length > 0 ? operations.join(', ') : '(none)'}\n`,
      );
      return EXIT.usage;
    }
    lists[flag] = list;
  }
  const options: TestOptions = { baseUrl: base.href.replace(/\/+$/, ''), sourceMap: compiled.sourceMap };
  if (file !== '-') {
    try {
      options.specText = readFileSync(file, 'utf8');
    } catch {
      // read once already; without the text, failures cite file:line only
    }
  }
  if (main) options.credentials = main as SubjectCredentials;
  if (other) options.other = other as SubjectCredentials;
  if (limited) options.limited = limited as SubjectCredentials;
  if (cli.limitedScopes !== undefined) options.limitedScopes = cli.limitedScopes.split(/[\s,]+/).filter((s) => s !== '');
  if (numbers.seed !== undefined) options.seed = numbers.seed;
  if (numbers.maxRequests !== undefined) options.maxRequests = numbers.maxRequests;
  if (numbers.runs !== undefined) options.runs = numbers.runs;
  if (numbers.webhookListen !== undefined) options.webhookListen = numbers.webhookListen;
  if (cli.broker !== undefined) {
    const { parseTesterBrokerUrl } = await import('../tester/tester-broker.js');
    const target = parseTesterBrokerUrl(cli.broker, compiled.model);
    if (typeof target === 'string') return usage(target);
    options.broker = target.url;
  }
  // The service's callback secret, as serve reads it (kept off the command line).
  const callbackSecret = process.env.SERVICESPEC_CALLBACK_SECRET;
  if (callbackSecret !== undefined && callbackSecret !== '') options.callbackSecret = callbackSecret;
  if (timeLimitMs !== undefined) options.timeLimitMs = timeLimitMs;
  if (requestTimeoutMs !== undefined) options.requestTimeoutMs = requestTimeoutMs;
  if (cli.rateLimits) options.rateLimits = true;
  if (cli.showSecrets) options.showSecrets = true;
  if (cli.replay !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(cli.replay, 'utf8'));
    } catch (err) {
      return usage(
        `--replay ${cli.replay}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : err instanceof SyntaxError ? 'not JSON' : (err as Error).message}`,
      );
    }
    const replay = getReplay(parsed);
    if (typeof replay === 'string') return usage(`--replay ${cli.replay}: ${replay}`);
    if (cli.seed !== undefined) return usage("--replay replays with the report's own seed: leave out --seed");
    Object.assign(options, replay);
  }
  if (lists.only) options.only = lists.only;
  if (lists.skip) options.skip = lists.skip;
  if (cli.progress !== false) {
    const tty = io.isTTY.err;
    let last = 0;
    options.onProgress = (p) => {
      const now = Date.now();
      if (!tty && now - last < 2000) return;
      last = now;
      const line = `servicespec test: ${p.requests} requests, ${p.passed} passed, ${p.failed} failed, ${p.skipped} skipped — ${p.check}`;
      io.err(tty ? `\r${line.slice(0, (io.columns || 100) - 1).padEnd((io.columns || 100) - 1)}` : `${line}\n`);
    };
  }
  const report = await testService(compiled.model, options);
  if (report.unreachable !== undefined) {
    io.err(`servicespec test: ${report.unreachable}\n`);
    return EXIT.usage;
  }
  if (options.onProgress && io.isTTY.err) io.err('\n');
  if (cli.format === 'json') io.out(`${JSON.stringify(report, null, 2)}\n`);
  else if (cli.format === 'junit') io.out(formatReportJunit(report));
  else io.out(formatReportText(report, { verbose: cli.verbose === true }));
  if (report.verdict === 'failed') return EXIT.errors;
  return report.verdict === 'incomplete' && !cli.allowIncomplete ? EXIT.incomplete : EXIT.ok;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerTestCommand(program: Command): void {
  program
    .command('test')
    .description('hold a running implementation to the spec: generated requests for each of the nine parts, stateful walks of each state machine')
    .argument('<file>', 'the spec file (YAML or JSON); - reads standard input')
    .requiredOption('--base-url <url>', 'the running service; the only address the tester contacts')
    .option('--header <name: value>', "a header sent with the main subject's requests (repeatable), e.g. an API key", collect)
    .option('--bearer <token>', "the main subject's bearer token")
    .option('--basic <user:password>', "the main subject's basic credential")
    .option('--client-id <id>', "the main subject's OAuth2 client id (exchanged at the token path the spec declares)")
    .option('--client-secret <secret>', "the main subject's OAuth2 client secret")
    .option('--other-header <name: value>', "a second subject's header (repeatable), for ownership checks", collect)
    .option('--other-bearer <token>', "a second subject's bearer token")
    .option('--other-basic <user:password>', "a second subject's basic credential")
    .option('--other-client-id <id>', "a second subject's OAuth2 client id")
    .option('--other-client-secret <secret>', "a second subject's OAuth2 client secret")
    .option('--limited-header <name: value>', 'a header of a credential lacking scopes (repeatable), for scope checks', collect)
    .option('--limited-bearer <token>', 'a bearer token lacking scopes')
    .option('--limited-basic <user:password>', 'a basic credential lacking scopes')
    .option('--limited-client-id <id>', 'an OAuth2 client lacking scopes')
    .option('--limited-client-secret <secret>', "that client's secret")
    .option('--limited-scopes <scopes>', 'the scopes the limited credential does hold (comma or space separated; default none)')
    .option('--seed <n>', 'replay a run: the same seed generates the same requests')
    .option('--max-requests <n>', 'stop after this many requests (default 3000)')
    .option(
      '--time-limit <duration>',
      'stop after this long, e.g. 90s or 2m (default 60s, plus what the declared failed_auth budget needs for the bad-credential checks)',
    )
    .option('--request-timeout <duration>', 'how long one request may wait for its answer, e.g. 10s or 500ms (default 10s); past it, its check fails')
    .option('--runs <n>', 'generated cases per property (default 10)')
    .option('--only <names>', 'run only these parts, checks or operations (comma separated), e.g. states,limits.body-size,createOrder')
    .option('--skip <names>', 'leave out these parts, checks or operations (comma separated)')
    .option('--replay <report.json>', 're-run the failed checks of a report written with --format json, on their targets, with its seed')
    .option('--allow-incomplete', 'exit 0, not 3, when no check failed but some could not run')
    .option('--rate-limits', 'spend the declared rate-limit budget to check it is enforced')
    .option('--webhook-listen <port>', 'receive webhooks on this port (0: any free one) and verify their signatures')
    .option(
      '--broker <url>',
      'read the events the service publishes to this broker (nats://… or amqp://…, as declared in events.delivery.broker) and check them',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'junit']).default('text'))
    .option('--verbose', 'list every skipped check with its reason')
    .option('--no-progress', 'no progress line on stderr')
    .option('--show-secrets', 'print credentials in reproductions (they are replaced by placeholders otherwise)')
    .addHelpText(
      'after',
      '\nWhat the tester needs and is not given (a second subject, a credential lacking a scope, a credential for a\n' +
        'scheme) is listed as not checked, with the reason; nothing is invented.\n' +
        'Exit status: 0 when every check that applies ran and passed; 1 when any failed (or the spec has errors);\n' +
        '2 on a usage error, or when nothing answers at --base-url; 3 when none failed but some that apply could not run\n' +
        '(a credential missing, a bound reached, a rate limit: INCOMPLETE, the summary names them) unless --allow-incomplete.',
    )
    .action(action((file: string, options: TestCliOptions) => runTest(file, options)));
}
