// `servicespec webhooks ...` through commander, in process, against a real database that a running service
// shares: what the CLI writes (an endpoint, a replay) the service acts on without a restart. On PostgreSQL
// (SERVICESPEC_TEST_DB=postgres) the CLI is another instance: the service hears its changes through NOTIFY.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import { EVENTS_SPEC, startEventService, startReceiver, until } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-events-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await runCli(['webhooks', ...args]);
  return { code: r.code ?? 2, out: r.stdout, err: r.stderr };
}

describe('servicespec webhooks', () => {
  it('add, list, deliveries, replay, enable, rotate and remove', async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const keep = join(dir, 'shared');
    const s = await startEventService({ dir: keep });
    // SERVICESPEC_TEST_DB=postgres: the CLI on the service's PostgreSQL schema, as an operator on another machine.
    const db = s.storage.dialect === 'postgres' ? s.dbPath : `sqlite:${s.dbPath}`;
    try {
      const refused = await cli('add', EVENTS_SPEC, '--db', db, '--url', receiver.url);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('127.0.0.1 is a loopback address');
      expect((await cli('add', EVENTS_SPEC, '--db', db, '--url', 'http://169.254.169.254/', '--allow-webhook-target', '127.0.0.0/8')).err).toContain(
        'link-local',
      );
      expect(
        (await cli('add', EVENTS_SPEC, '--db', db, '--url', receiver.url, '--allow-webhook-target', '127.0.0.0/8', '--kinds', 'ticket.nope')).err,
      ).toContain('ticket.nope is not an event kind');

      const added = await cli(
        'add',
        EVENTS_SPEC,
        '--db',
        db,
        '--url',
        receiver.url,
        '--allow-webhook-target',
        '127.0.0.0/8',
        '--kinds',
        'ticket.created',
        '--format',
        'json',
      );
      expect(added.code, added.err).toBe(0);
      const ep = JSON.parse(added.out) as { id: string; secret: string; kinds: string[] };
      expect(ep.kinds).toEqual(['ticket.created']);
      expect(ep.secret).toMatch(/^whsec_/);

      const listed = await cli('list', EVENTS_SPEC, '--db', db);
      expect(listed.out).toContain(ep.id);
      expect(listed.out).not.toContain('whsec_');

      // The running service picks up the endpoint; the receiver fails every attempt, so the delivery dies.
      await s.call('POST', '/tickets', { title: 'via cli' });
      await until(async () => (await s.storage.listDeliveries({ status: 'dead' })).length === 1, 8000, 'a dead delivery');
      const dead = await cli('deliveries', EVENTS_SPEC, '--db', db, '--status', 'dead', '--format', 'json');
      const [d] = JSON.parse(dead.out) as { eventId: string; attempts: number }[];
      expect(d!.attempts).toBe(3);
      expect((await cli('deliveries', EVENTS_SPEC, '--db', db, '--status', 'lost')).code).toBe(2);

      healthy = true;
      const replayed = await cli('replay', EVENTS_SPEC, '--db', db, '--event', d!.eventId);
      expect(replayed.out).toContain('1 dead-lettered delivery queued again');
      await until(async () => (await s.storage.listDeliveries({ status: 'delivered' })).length === 1, 5000, 'the replayed delivery');
      expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(d!.eventId);

      await s.storage.setWebhookDisabled(ep.id, { at: new Date().toISOString(), reason: 'test' });
      expect((await cli('enable', EVENTS_SPEC, '--db', db, ep.id)).code).toBe(0);
      expect((await s.storage.getWebhookEndpoint(ep.id))?.disabledAt).toBeUndefined();

      const rotated = await cli('rotate', EVENTS_SPEC, '--db', db, ep.id, '--grace', '1h', '--format', 'json');
      expect(JSON.parse(rotated.out).secret).toMatch(/^whsec_/);
      expect((await cli('rotate', EVENTS_SPEC, '--db', db, ep.id, '--grace', 'soon')).code).toBe(2);

      expect((await cli('remove', EVENTS_SPEC, '--db', db, ep.id)).code).toBe(0);
      const gone = await cli('remove', EVENTS_SPEC, '--db', db, ep.id);
      expect(gone.code).toBe(1);
      expect(gone.err).toContain(`no webhook endpoint with id ${ep.id}`);
      expect((await cli('list', EVENTS_SPEC, '--db', db)).out).toBe('no webhook endpoints\n');
      expect((await cli('list', EVENTS_SPEC, '--db', 'sqlite::memory:')).code).toBe(2);
    } finally {
      await s.close();
      await receiver.close();
    }
  });
});
