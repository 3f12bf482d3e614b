/**
 * A network in CIDR notation ("10.1.0.0/16", "fd00::/8"), as a job lists the private networks its
 * crawl may reach. Parsed here without Node (the form validates it too); the engine checks addresses
 * against it with node:net.
 */
export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** Hex groups and colons, at most one '::' (node:net checks the rest where it is used). */
const IPV6 = /^(?=.*:)[0-9a-f:]{2,39}$/i;

export function parseCidr(text: string): Cidr | null {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim());
  if (!m) return null;
  const address = m[1]!;
  const prefix = Number(m[2]);
  if (IPV4.test(address)) return prefix <= 32 ? { address, prefix, family: 'ipv4' } : null;
  if (IPV6.test(address) && (address.match(/::/g) ?? []).length <= 1) return prefix <= 128 ? { address: address.toLowerCase(), prefix, family: 'ipv6' } : null;
  return null;
}
