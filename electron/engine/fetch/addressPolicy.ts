import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { parseCidr } from '../../../shared/cidr.js';

/**
 * Networks a crawl reaches only for a host a seed names or a network the job lists: loopback,
 * RFC 1918 and unique-local (fc00::/7) private networks, link-local (169.254/16, where cloud
 * metadata services answer, and fe80::/10) and the unspecified addresses. An off-site image on an
 * intranet host, or a public name pointing inward, would otherwise land in the WARC and every export.
 */
const RESTRICTED: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
];

/** An address the policy refused; the fetcher reports it as such, never as a network failure. */
export const ADDRESS_REFUSED = 'EHARVESTADDRESS';

function family(address: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

/** ::ffff:10.0.0.1 is 10.0.0.1: checked as the IPv4 address it carries. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
}

function blockList(networks: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): BlockList {
  const list = new BlockList();
  for (const [address, prefix, type] of networks) list.addSubnet(address, prefix, type);
  return list;
}

const restricted = blockList(RESTRICTED);

export class AddressPolicy {
  private readonly seedHosts: ReadonlySet<string>;
  private readonly allowed: BlockList;

  /** `seeds`: the job's seed URLs (their hosts may be anywhere); `allowNetworks`: CIDRs the job lists. */
  constructor(seeds: readonly string[], allowNetworks: readonly string[]) {
    this.seedHosts = new Set(seeds.map((s) => hostnameOf(s)).filter((h): h is string => h !== null));
    this.allowed = blockList(allowNetworks.map((c) => parseCidr(c)).filter((c) => c !== null).map((c) => [c.address, c.prefix, c.family] as const));
  }

  /** Why `host` may not be reached at `address`, or null when it may. */
  refusal(host: string, address: string): string | null {
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.seedHosts.has(bare)) return null;
    const a = unmapped(address);
    const type = family(a);
    if (type === null || !restricted.check(a, type) || this.allowed.check(a, type)) return null;
    return `${bare} is at ${a}, a private or local network address (allowed only for a seed's host or a network the job lists)`;
  }

  /**
   * A DNS lookup for the connection itself: the addresses it yields are the ones connected to, so a
   * name checked here cannot be re-pointed (rebound) before the connection is made.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = addresses.filter((a) => this.refusal(hostname, a.address) === null);
      if (usable.length === 0) {
        const refused = Object.assign(new Error(this.refusal(hostname, addresses[0]?.address ?? '') ?? `${hostname} has no address`), { code: ADDRESS_REFUSED });
        return callback(refused, '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null;
  }
}
