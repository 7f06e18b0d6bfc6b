import ipaddr from 'ipaddr.js';

/**
 * Which addresses a URL source descriptor may reach. The service fetches URLs that callers
 * write into file fields; without this policy any caller could make it read the cloud
 * metadata endpoint, the database port or an admin page on the private network (SSRF).
 */

/** The IANA global unicast block: every routable IPv6 address lies in it; the rest is reserved or local. */
const globalUnicast6 = ipaddr.parseCIDR('2000::/3');
/** The NAT64 well-known prefix (RFC 6052); 64:ff9b:1::/48 is for local use and stays blocked. */
const wellKnownNat64 = ipaddr.parseCIDR('64:ff9b::/96');

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address of a translation or tunnel form hands traffic to, or
 * null when it is not such a form. A gateway would forward `64:ff9b::7f00:1` to 127.0.0.1,
 * so these forms are as safe as the addresses they embed.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const parts = address.parts;
  if (address.match(wellKnownNat64)) return [ipv4Of(parts[6], parts[7])];
  const range = address.range();
  if (range === '6to4') return [ipv4Of(parts[1], parts[2])];
  // Teredo: the server's address in clear, the client's obfuscated (every bit inverted).
  if (range === 'teredo') return [ipv4Of(parts[2], parts[3]), ipv4Of(~parts[6] & 0xffff, ~parts[7] & 0xffff)];
  return null;
}

function isBlockedIPv4(address: ipaddr.IPv4): boolean {
  // ipaddr.js names every special range (loopback, private, linkLocal, carrierGradeNat,
  // unspecified 0/8, broadcast, multicast, reserved, …) and calls the rest `unicast`.
  return address.range() !== 'unicast';
}

/**
 * True when the service must not connect to `ip`: anything but a global unicast address.
 * Text that is not an address is blocked too, so a caller's mistake fails closed.
 */
export function isBlockedAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, which then meets the IPv4 rules.
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return isBlockedIPv4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.some(isBlockedIPv4);
  // Outside 2000::/3 lie ::/8 (IPv4-compatible, IPv4-translated), fc00::/7, fe80::/10, ff00::/8, ….
  return !v6.match(globalUnicast6) || v6.range() !== 'unicast';
}

/** One entry of TABULA_FETCH_ALLOW_HOSTS: a host (normalised) and a port, or every port when null. */
export interface AllowedHost {
  readonly host: string;
  readonly port: number | null;
}

/**
 * A host as the URL parser and the allow-list both see it: lowercase, no brackets, no
 * trailing dot, and an IP address in one canonical spelling (`127.1`, `0x7f000001` and
 * `127.0.0.1` are one host; so are `::0001` and `::1`).
 */
function normaliseHost(host: string): string {
  let name = host.toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  if (name.endsWith('.')) name = name.slice(0, -1);
  return ipaddr.isValid(name) ? ipaddr.parse(name).toString() : name;
}

const hostName = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/i;

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw new Error(`TABULA_FETCH_ALLOW_HOSTS: "${entry}" has an invalid port`);
  return port;
}

function parseAllowHost(entry: string): AllowedHost {
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    if (!ipaddr.IPv6.isValid(bracketed[1])) throw new Error(`TABULA_FETCH_ALLOW_HOSTS: "${entry}" is not an IPv6 address`);
    return { host: normaliseHost(bracketed[1]), port: bracketed[2] === undefined ? null : parsePort(bracketed[2], entry) };
  }
  // An IPv6 address without brackets cannot carry a port: every colon belongs to the address.
  if (ipaddr.IPv6.isValid(entry)) return { host: normaliseHost(entry), port: null };
  const [host, port, extra] = entry.split(':');
  if (extra !== undefined || !hostName.test(host)) throw new Error(`TABULA_FETCH_ALLOW_HOSTS: "${entry}" is not a host[:port]`);
  return { host: normaliseHost(host), port: port === undefined ? null : parsePort(port, entry) };
}

/**
 * TABULA_FETCH_ALLOW_HOSTS, as a list or as its comma-separated text, → entries. Throws on an
 * entry it cannot read, so a typo fails at startup instead of silently allowing nothing.
 */
export function parseAllowHosts(list: string | readonly string[]): AllowedHost[] {
  const entries = typeof list === 'string' ? list.split(',') : list;
  return entries.map((entry) => entry.trim()).filter(Boolean).map(parseAllowHost);
}

/**
 * True when `host:port` is exempt from the address block. The host is compared as written in
 * the URL, never as resolved: allowing `intranet.example` allows that name, not every private
 * address it might be made to resolve to.
 */
export function isAllowedHost(host: string, port: number, allow: readonly AllowedHost[]): boolean {
  const name = normaliseHost(host);
  return allow.some((entry) => entry.host === name && (entry.port === null || entry.port === port));
}
