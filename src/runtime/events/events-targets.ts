// Which addresses a webhook may be sent to. Only public unicast addresses, unless the operator allows a range
// (`webhooks.allowTargets`, `serve --allow-webhook-target CIDR`): loopback, link-local (169.254.169.254, the cloud
// metadata service), private, carrier-grade NAT, unique-local, IPv4-mapped and translated IPv6, multicast and
// reserved addresses are refused. The check runs when an endpoint is registered and again at connect time, through
// the socket's `lookup` hook, so a name that resolves differently later (DNS rebinding) is still refused; redirects
// are re-checked the same way. A refused target is never connected to.

import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The ranges an operator allowed, parsed. */
export interface TargetPolicy {
  readonly allowed: readonly (readonly [Address, number])[];
  /** The ranges as given, for messages. */
  readonly text: readonly string[];
}

/** An allowed range that is not a CIDR (or a single address). */
export class TargetPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetPolicyError';
  }
}

/** A webhook target the policy refuses; nothing was sent. */
export class UnsafeTargetError extends Error {
  readonly code = 'ERR_UNSAFE_WEBHOOK_TARGET';
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeTargetError';
  }
}

/** `127.0.0.0/8`, `::1/128`, or a single address. Throws TargetPolicyError for anything else. */
export function parseTargetPolicy(ranges: readonly string[] = []): TargetPolicy {
  const allowed: (readonly [Address, number])[] = [];
  for (const r of ranges) {
    const text = r.trim();
    try {
      if (text.includes('/')) allowed.push(ipaddr.parseCIDR(text));
      else {
        const a = ipaddr.parse(text);
        allowed.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      throw new TargetPolicyError(`${JSON.stringify(r)} is not an address range (use CIDR, e.g. 127.0.0.0/8 or ::1/128)`);
    }
  }
  return { allowed, text: ranges.map((r) => r.trim()) };
}

const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  private: 'a private address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** Why the address may not be a webhook target; undefined when it may. */
export function checkAddress(address: string, policy: TargetPolicy): string | undefined {
  let a: Address;
  try {
    a = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (policy.allowed.some(([net, bits]) => net.kind() === a.kind() && a.match([net, bits] as [Address, number]))) return undefined;
  const range = a.range();
  if (range === 'unicast') return undefined;
  return `${address} is ${RANGE_NAMES[range] ?? `a ${range} address`}, which webhooks may not be sent to${policy.text.length > 0 ? ` (allowed ranges: ${policy.text.join(', ')})` : ''}`;
}

export type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** A `dns.lookup`-compatible resolver (tests pass one that answers names without DNS). */
export type Lookup = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemLookup: Lookup = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/** Every address a name resolves to. */
export function resolveAll(hostname: string, resolver: Lookup = systemLookup): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => resolver(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/**
 * The `lookup` hook for sockets to webhook targets: resolves the name and refuses the connection unless every
 * address is allowed. (Node does not call `lookup` for an IP literal; `checkHost` covers those.)
 */
export function createGuardedLookup(policy: TargetPolicy, resolver: Lookup = systemLookup) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    resolver(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0) return callback(new UnsafeTargetError(`${hostname} resolves to no address`), '');
      for (const a of addresses) {
        const why = checkAddress(a.address, policy);
        if (why !== undefined) return callback(new UnsafeTargetError(`${hostname} resolves to ${why}`), '');
      }
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Checks a URL's form: http or https, no credentials in it. Returns why not, or undefined. */
export function checkUrlForm(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs cannot receive webhooks; use https (or http)`;
  if (url.username !== '' || url.password !== '') return 'the URL must not carry a user name or password';
  if (url.hostname === '') return 'the URL names no host';
  return undefined;
}

/** Checks where a URL leads now: its IP literal, or every address its name resolves to. Returns why not, or undefined. */
export async function checkTarget(url: URL, policy: TargetPolicy, resolver: Lookup = systemLookup): Promise<string | undefined> {
  const form = checkUrlForm(url);
  if (form !== undefined) return form;
  const host = hostOf(url);
  if (isIP(host) !== 0) return checkAddress(host, policy);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host, resolver);
  } catch (err) {
    return `${host} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  if (addresses.length === 0) return `${host} resolves to no address`;
  for (const a of addresses) {
    const why = checkAddress(a.address, policy);
    if (why !== undefined) return `${host} resolves to ${why}`;
  }
  return undefined;
}
