import { BlockList, isIP } from 'node:net';

/** An address range `web_fetch` may reach although it is not public, optionally one port. */
export interface NetworkRule {
  /** The rule as configured, for messages. */
  readonly text: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly address: string;
  readonly prefix: number;
  /** Only this port; any port when absent. */
  readonly port?: number;
}

/** Ranges that are not the public internet, with the name a message gives them. */
const specialRanges: readonly [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified ("this network")'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['10.0.0.0', 8, 'ipv4', 'private (RFC 1918)'],
  ['172.16.0.0', 12, 'ipv4', 'private (RFC 1918)'],
  ['192.168.0.0', 16, 'ipv4', 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'ipv4', 'shared carrier-grade NAT (RFC 6598)'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved or broadcast'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['::', 96, 'ipv6', 'IPv4-compatible (deprecated)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['fc00::', 7, 'ipv6', 'unique local (ULA)'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const special = specialRanges.map(([address, prefix, family, name]) => {
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  return { list, family, name };
});

/**
 * Parses one `allowNetworks` entry: an address or CIDR range (`127.0.0.1`, `10.0.0.0/8`,
 * `fd00::/8`), optionally with a port (`127.0.0.1:8080`, `[::1]:3000`, `[fd00::/8]:443`).
 */
export function parseNetworkRule(text: string): { rule: NetworkRule } | { error: string } {
  let range = text.trim();
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(range);
  const withPort = /^([^:]+):(\d+)$/.exec(range);
  if (bracketed) {
    range = bracketed[1] ?? '';
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (withPort) {
    range = withPort[1] ?? '';
    port = Number(withPort[2]);
  }
  if (port !== undefined && !(port >= 1 && port <= 65535)) {
    return { error: 'the port must be 1 to 65535' };
  }
  const [address = '', prefixText] = range.split('/');
  const version = isIP(address);
  if (version === 0) return { error: `${address || 'nothing'} is not an IP address` };
  const bits = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits || prefixText === '') {
    return { error: `the prefix length must be 0 to ${bits}` };
  }
  const family = version === 4 ? 'ipv4' : 'ipv6';
  return { rule: { text, family, address, prefix, ...(port === undefined ? {} : { port }) } };
}

/**
 * Whether `web_fetch` may connect to `address` on `port`: public addresses always; loopback,
 * private, shared, link-local, unspecified, multicast and reserved ones only when a rule
 * allows them. An IPv4-mapped IPv6 address is judged (and named in a refusal) as its IPv4
 * address.
 */
export function addressVerdict(
  address: string,
  port: number,
  rules: readonly NetworkRule[],
): { allowed: true } | { allowed: false; kind: string; address: string } {
  const plain = unmapped(address);
  const family = isIP(plain) === 4 ? 'ipv4' : 'ipv6';
  const range = special.find((s) => s.family === family && s.list.check(plain, family));
  if (!range) return { allowed: true };
  for (const rule of rules) {
    if (rule.family !== family || (rule.port !== undefined && rule.port !== port)) continue;
    const list = new BlockList();
    list.addSubnet(rule.address, rule.prefix, rule.family);
    if (list.check(plain, family)) return { allowed: true };
  }
  return { allowed: false, kind: range.name, address: plain };
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, `::ffff:7f00:1`). */
function unmapped(address: string): string {
  if (isIP(address) !== 6) return address;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let text = address.toLowerCase();
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = (dotted[2] ?? '').split('.').map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const words = groups.map((g) => parseInt(g, 16));
  if (words.length !== 8 || words.slice(0, 5).some((w) => w !== 0) || words[5] !== 0xffff) {
    return address;
  }
  const [hi = 0, lo = 0] = words.slice(6);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
