import net from 'node:net';
import { ValidationError } from '../../shared/errors.js';

/** Validates `10.0.0.0/8`, `192.168.1.7`, `::1`, `fd00::/8`; returns them normalised. */
export function parseIpAllowList(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const parts = entry.trim().split('/');
    const [address, prefix] = parts;
    const family = parts.length > 2 ? 0 : net.isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixNumber = prefix === undefined ? maxPrefix : Number(prefix);
    if (family === 0 || !Number.isInteger(prefixNumber) || prefixNumber < 0 || prefixNumber > maxPrefix || (prefix !== undefined && !/^\d+$/.test(prefix))) {
      throw new ValidationError(`Invalid IP address or CIDR range: ${entry}`);
    }
    return `${address}/${prefixNumber}`;
  });
}

/** IPv4 clients reach a dual-stack socket as `::ffff:a.b.c.d`; compare them as IPv4. */
function unmapIpv4(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

export function isIpAllowed(allowList: readonly string[], clientAddress: string): boolean {
  const address = unmapIpv4(clientAddress);
  const family = net.isIP(address);
  if (family === 0) return false;
  const blockList = new net.BlockList();
  for (const entry of allowList) {
    const [network, prefix] = entry.split('/');
    blockList.addSubnet(network, Number(prefix), net.isIPv4(network) ? 'ipv4' : 'ipv6');
  }
  return blockList.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
