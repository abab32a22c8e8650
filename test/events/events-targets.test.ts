// The target policy is checked without sending anything anywhere: names are answered by a fake resolver.

import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkTarget,
  createGuardedLookup,
  parseTargetPolicy,
  TargetPolicyError,
  UnsafeTargetError,
  type Lookup,
} from '../../src/runtime/events/events-targets.js';

const none = parseTargetPolicy([]);
const loopback = parseTargetPolicy(['127.0.0.0/8']);

function resolver(table: Record<string, string[]>): Lookup & { asked: string[] } {
  const asked: string[] = [];
  const fn = ((hostname, _options, callback) => {
    asked.push(hostname);
    const list = table[hostname];
    if (!list) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      list.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }) as Lookup & { asked: string[] };
  fn.asked = asked;
  return fn;
}

describe('webhook target policy', () => {
  it('refuses loopback, link-local, private, CGNAT, unique-local, mapped and other non-public addresses', () => {
    const refused = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
    ];
    for (const a of refused) expect(checkAddress(a, none), a).toBeDefined();
    expect(checkAddress('169.254.169.254', none)).toContain('link-local');
    expect(checkAddress('10.0.0.1', none)).toContain('private');
    expect(checkAddress('::ffff:127.0.0.1', none)).toContain('IPv4-mapped');
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(checkAddress(a, none), a).toBeUndefined();
  });

  it('allows exactly the ranges the operator names', () => {
    expect(checkAddress('127.0.0.1', loopback)).toBeUndefined();
    expect(checkAddress('127.255.0.9', loopback)).toBeUndefined();
    expect(checkAddress('10.0.0.1', loopback)).toContain('allowed ranges: 127.0.0.0/8');
    expect(checkAddress('::1', loopback)).toBeDefined();
    expect(checkAddress('::ffff:127.0.0.1', loopback)).toBeDefined();
    expect(checkAddress('::1', parseTargetPolicy(['::1']))).toBeUndefined();
    expect(() => parseTargetPolicy(['127.0.0.0/33'])).toThrow(TargetPolicyError);
    expect(() => parseTargetPolicy(['localhost'])).toThrow(TargetPolicyError);
  });

  it('checks URLs by their IP literal or by every address their name resolves to', async () => {
    const dns = resolver({ 'metadata.test': ['169.254.169.254'], 'mixed.test': ['93.184.216.34', '10.0.0.1'], 'public.test': ['93.184.216.34'] });
    expect(await checkTarget(new URL('http://169.254.169.254/latest/meta-data'), none, dns)).toContain('link-local');
    expect(await checkTarget(new URL('http://10.0.0.1/'), none, dns)).toContain('private');
    expect(await checkTarget(new URL('http://[::ffff:7f00:1]/'), loopback, dns)).toContain('IPv4-mapped');
    expect(await checkTarget(new URL('http://2130706433/'), none, dns)).toContain('loopback'); // 127.0.0.1 in decimal
    expect(await checkTarget(new URL('http://metadata.test/'), none, dns)).toContain('metadata.test resolves to 169.254.169.254');
    expect(await checkTarget(new URL('http://mixed.test/'), none, dns)).toContain('10.0.0.1');
    expect(await checkTarget(new URL('http://nowhere.test/'), none, dns)).toContain('cannot be resolved');
    expect(await checkTarget(new URL('https://public.test/hook'), none, dns)).toBeUndefined();
    expect(await checkTarget(new URL('ftp://public.test/'), none, dns)).toContain('ftp:');
    expect(await checkTarget(new URL('http://user:pw@public.test/'), none, dns)).toContain('password');
    expect(dns.asked).not.toContain('169.254.169.254');
  });

  it('refuses at connect time when a name resolves to a refused address (DNS rebinding)', async () => {
    const dns = resolver({ 'rebind.test': ['10.0.0.1'], 'ok.test': ['127.0.0.1'] });
    const lookup = createGuardedLookup(loopback, dns);
    const ask = (host: string, all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        lookup(host, all ? { all: true } : { family: 0 }, (err, address, family) => (err ? reject(err) : resolve(all ? address : { address, family }))),
      );
    await expect(ask('rebind.test', false)).rejects.toBeInstanceOf(UnsafeTargetError);
    await expect(ask('rebind.test', true)).rejects.toThrow(/10\.0\.0\.1/);
    expect(await ask('ok.test', false)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await ask('ok.test', true)).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});
