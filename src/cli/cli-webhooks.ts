// `servicespec webhooks add|list|remove|rotate|enable|deliveries|replay FILE`: webhook endpoints and their delivery
// queue in the service's own database. A running `serve` on the same database picks the changes up by itself
// (it polls the queue), so replayed deliveries go out without a restart.

import { Option, type Command } from 'commander';
import type { ServiceModel } from '../model/model-types.js';
import { ServiceError } from '../runtime/runtime-errors.js';
import { parseTargetPolicy, TargetPolicyError } from '../runtime/events/events-targets.js';
import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  removeWebhookEndpoint,
  replayWebhookDeliveries,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  type WebhookEndpointSummary,
} from '../runtime/events/events-webhooks.js';
import type { DeliveryStatus, Storage } from '../runtime/storage/storage-types.js';
import { parseDuration } from '../util/util-units.js';
import { CREATE_HELP, DB_HELP, withCredentialStore } from './cli-keys.js';
import { action, EXIT, formatOption, io, type ActionResult, type ExitCode } from './cli-shared.js';

export interface WebhooksCommandOptions {
  db?: string;
  create?: boolean;
  format?: 'text' | 'json';
}

/** Opens the spec's database and runs `work`; a refused input (ServiceError, bad range) exits 2 with its reasons. */
function withStore(
  command: string,
  file: string,
  options: WebhooksCommandOptions,
  work: (model: ServiceModel, storage: Storage) => Promise<ExitCode>,
): Promise<ExitCode> {
  return withCredentialStore(`servicespec webhooks ${command}`, file, options, async (model, storage) => {
    try {
      return await work(model, storage);
    } catch (err) {
      if (err instanceof ServiceError) {
        const reasons = (err.invalid ?? []).map((i) => `${i.pointer?.replace(/^\//, '') ?? i.parameter ?? ''}: ${i.message}`);
        io.err(`servicespec webhooks ${command}: ${reasons.length > 0 ? reasons.join('; ') : (err.detail ?? err.condition)}\n`);
        return EXIT.usage;
      }
      if (err instanceof TargetPolicyError) {
        io.err(`servicespec webhooks ${command}: ${err.message}\n`);
        return EXIT.usage;
      }
      throw err;
    }
  });
}

function parseList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const r of rows) io.out(`${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`);
}

function printEndpoints(list: readonly WebhookEndpointSummary[], format: WebhooksCommandOptions['format']): void {
  if (format === 'json') {
    io.out(`${JSON.stringify(list, null, 2)}\n`);
    return;
  }
  if (list.length === 0) {
    io.out('no webhook endpoints\n');
    return;
  }
  table([
    ['ID', 'URL', 'KINDS', 'CREATED', 'DISABLED'],
    ...list.map((e) => [e.id, e.url, e.kinds?.join(',') ?? '(all)', e.createdAt, e.disabledAt ? `${e.disabledAt} (${e.disabledReason ?? ''})` : '-']),
  ]);
}

interface AddOptions extends WebhooksCommandOptions {
  url: string;
  kinds?: string;
  description?: string;
  secret?: string;
  allowWebhookTarget?: string[];
}

export function runWebhooksAdd(file: string, options: AddOptions): Promise<ExitCode> {
  return withStore('add', file, options, async (model, storage) => {
    const kinds = parseList(options.kinds);
    const { endpoint, secret } = await addWebhookEndpoint(
      { storage, model, policy: parseTargetPolicy(options.allowWebhookTarget ?? []) },
      {
        url: options.url,
        ...(kinds ? { kinds } : {}),
        ...(options.description !== undefined ? { description: options.description } : {}),
        ...(options.secret !== undefined ? { secret: options.secret } : {}),
      },
    );
    if (options.format === 'json') io.out(`${JSON.stringify({ ...endpoint, secret }, null, 2)}\n`);
    else {
      io.out(`webhook endpoint ${endpoint.id} for ${endpoint.kinds?.join(', ') ?? 'every kind'} at ${endpoint.url}\n${secret}\n`);
      io.out('Give the receiver this secret now (it verifies signatures with it); it is not shown again.\n');
    }
    return EXIT.ok;
  });
}

export function runWebhooksList(file: string, options: WebhooksCommandOptions): Promise<ExitCode> {
  return withStore('list', file, options, async (_model, storage) => {
    printEndpoints(await listWebhookEndpoints(storage), options.format);
    return EXIT.ok;
  });
}

export function runWebhooksRemove(file: string, id: string, options: WebhooksCommandOptions): Promise<ExitCode> {
  return withStore('remove', file, options, async (_model, storage) => {
    if (!(await removeWebhookEndpoint(storage, id))) {
      io.err(`servicespec webhooks remove: no webhook endpoint with id ${id}\n`);
      return EXIT.errors;
    }
    io.out(`webhook endpoint ${id} removed, with its queued deliveries\n`);
    return EXIT.ok;
  });
}

interface RotateOptions extends WebhooksCommandOptions {
  secret?: string;
  grace?: string;
}

export function runWebhooksRotate(file: string, id: string, options: RotateOptions): Promise<ExitCode> {
  return withStore('rotate', file, options, async (_model, storage) => {
    let graceMs: number | undefined;
    if (options.grace !== undefined) {
      graceMs = parseDuration(options.grace)?.ms;
      if (graceMs === undefined) {
        io.err(`servicespec webhooks rotate: --grace must be a duration such as 30m or 24h, not ${JSON.stringify(options.grace)}\n`);
        return EXIT.usage;
      }
    }
    const out = await rotateWebhookSecret(storage, id, {
      ...(options.secret !== undefined ? { secret: options.secret } : {}),
      ...(graceMs !== undefined ? { graceMs } : {}),
    });
    if (!out) {
      io.err(`servicespec webhooks rotate: no webhook endpoint with id ${id}\n`);
      return EXIT.errors;
    }
    if (options.format === 'json') io.out(`${JSON.stringify(out, null, 2)}\n`);
    else io.out(`new secret for ${id}:\n${out.secret}\nThe previous secret also signs until ${out.previousSecretExpiresAt}.\n`);
    return EXIT.ok;
  });
}

export function runWebhooksEnable(file: string, id: string, options: WebhooksCommandOptions): Promise<ExitCode> {
  return withStore('enable', file, options, async (_model, storage) => {
    if (!(await setWebhookEndpointEnabled(storage, id, true))) {
      io.err(`servicespec webhooks enable: no webhook endpoint with id ${id}\n`);
      return EXIT.errors;
    }
    io.out(`webhook endpoint ${id} enabled; replay its dead deliveries with \`servicespec webhooks replay --endpoint ${id}\`\n`);
    return EXIT.ok;
  });
}

interface DeliveriesOptions extends WebhooksCommandOptions {
  endpoint?: string;
  event?: string;
  status?: DeliveryStatus;
  limit: string;
}

export function runWebhooksDeliveries(file: string, options: DeliveriesOptions): Promise<ExitCode> {
  return withStore('deliveries', file, options, async (_model, storage) => {
    const limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      io.err(`servicespec webhooks deliveries: --limit must be a number from 1 to 10000\n`);
      return EXIT.usage;
    }
    const list = await listWebhookDeliveries(storage, {
      ...(options.endpoint !== undefined ? { endpointId: options.endpoint } : {}),
      ...(options.event !== undefined ? { eventId: options.event } : {}),
      ...(options.status !== undefined ? { status: options.status } : {}),
      limit,
    });
    if (options.format === 'json') io.out(`${JSON.stringify(list, null, 2)}\n`);
    else if (list.length === 0) io.out('no deliveries\n');
    else
      table([
        ['EVENT', 'KIND', 'ENDPOINT', 'STATUS', 'ATTEMPTS', 'LAST'],
        ...list.map((d) => [
          d.eventId,
          d.eventType,
          d.endpointId,
          d.status,
          String(d.attempts),
          d.lastError ?? (d.lastStatus !== undefined ? String(d.lastStatus) : '-'),
        ]),
      ]);
    return EXIT.ok;
  });
}

interface ReplayOptions extends WebhooksCommandOptions {
  endpoint?: string;
  event?: string;
}

export function runWebhooksReplay(file: string, options: ReplayOptions): Promise<ExitCode> {
  return withStore('replay', file, options, async (_model, storage) => {
    const n = await replayWebhookDeliveries(storage, {
      ...(options.endpoint !== undefined ? { endpointId: options.endpoint } : {}),
      ...(options.event !== undefined ? { eventId: options.event } : {}),
    });
    if (options.format === 'json') io.out(`${JSON.stringify({ replayed: n })}\n`);
    else
      io.out(
        `${n} dead-lettered ${n === 1 ? 'delivery' : 'deliveries'} queued again; a running server sends ${n === 1 ? 'it' : 'them'} within its poll interval\n`,
      );
    return EXIT.ok;
  });
}

export function registerWebhooksCommand(program: Command): void {
  const hooks = program.command('webhooks').description("manage webhook endpoints and their deliveries in the service's database");
  hooks
    .command('add')
    .description('register a webhook endpoint; its secret is printed once')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .requiredOption('--url <url>', 'where deliveries are POSTed (http or https)')
    .option('--kinds <list>', 'comma-separated event kinds to deliver (default: every kind)')
    .option('--description <text>', 'a note on what the endpoint is for')
    .option('--secret <whsec>', 'use this whsec_ secret instead of a generated one')
    .option(
      '--allow-webhook-target <cidr>',
      'accept a URL in this non-public address range, e.g. 127.0.0.0/8 (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: AddOptions): ActionResult => runWebhooksAdd(file, options)));
  hooks
    .command('list')
    .description('list webhook endpoints (never their secrets)')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: WebhooksCommandOptions): ActionResult => runWebhooksList(file, options)));
  hooks
    .command('remove')
    .description('remove a webhook endpoint and its queued deliveries')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<id>', 'the endpoint id (as `webhooks list` shows it)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .action(action((file: string, id: string, options: WebhooksCommandOptions): ActionResult => runWebhooksRemove(file, id, options)));
  hooks
    .command('rotate')
    .description("replace an endpoint's secret; the previous one keeps signing (a second signature) for the grace period")
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<id>', 'the endpoint id')
    .option('--secret <whsec>', 'use this whsec_ secret instead of a generated one')
    .option('--grace <duration>', 'how long the previous secret keeps signing (default 24h)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, id: string, options: RotateOptions): ActionResult => runWebhooksRotate(file, id, options)));
  hooks
    .command('enable')
    .description('enable an endpoint again after it was disabled (by a 410 answer)')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<id>', 'the endpoint id')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .action(action((file: string, id: string, options: WebhooksCommandOptions): ActionResult => runWebhooksEnable(file, id, options)));
  hooks
    .command('deliveries')
    .description('list deliveries, newest event first')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--endpoint <id>', 'only this endpoint')
    .option('--event <id>', 'only this event (its webhook-id)')
    .addOption(new Option('--status <status>', 'only deliveries in this state').choices(['pending', 'delivered', 'dead']))
    .option('--limit <n>', 'at most this many', '50')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: DeliveriesOptions): ActionResult => runWebhooksDeliveries(file, options)));
  hooks
    .command('replay')
    .description('queue dead-lettered deliveries again, from the first attempt, with the same webhook-id')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--endpoint <id>', 'only deliveries to this endpoint')
    .option('--event <id>', 'only this event (its webhook-id)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .action(action((file: string, options: ReplayOptions): ActionResult => runWebhooksReplay(file, options)));
  hooks.addHelpText('after', '\nExit status: 0 done, 1 errors (spec, database, no such endpoint), 2 usage error (refused URL, unknown kind, bad option).');
}
