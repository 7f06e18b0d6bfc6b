import net from 'node:net';
import type { FastifyInstance } from 'fastify';

type Counters = Pick<FastifyInstance, 'throttle' | 'remember' | 'isRemembered'>;

const minute = 60_000;

/**
 * Password guessing is slowed down without handing attackers a way to lock people out. A limit
 * per e-mail alone would let anyone keep a user out by sending wrong passwords for their
 * address; here each limit is shaped so that one attacking address cannot reach the user:
 *
 * - per client address, across e-mails: password spraying from one address;
 * - per (e-mail, client address): guessing one account from one address. This is the limit
 *   an attacker meets first, and it does not touch the user at another address;
 * - per e-mail, across addresses (longer window): guessing one account from many addresses.
 *   It is set above what a single address can send through its own limits (at most 11 of its
 *   one-minute windows overlap ten minutes: 110 attempts), and addresses from which the user
 *   logged in during the last 30 days neither count towards it nor are held to it, so a
 *   distributed attack keeps the user out of new addresses only.
 *
 * IPv6 clients are counted by their /64, the block one subscriber usually holds.
 */
export const loginLimits = {
  perAddress: { limit: 30, window: minute },
  perEmailAndAddress: { limit: 10, window: minute },
  perEmail: { limit: 120, window: 10 * minute },
  knownAddressFor: 30 * 24 * 60 * minute,
} as const;

/** Counts one login attempt; 429 `rate_limited` when a limit is passed. */
export async function throttleLogin(counters: Counters, email: string, clientAddress: string): Promise<void> {
  const address = addressBucket(clientAddress);
  const account = normaliseEmail(email);
  const { perAddress, perEmailAndAddress, perEmail } = loginLimits;
  await counters.throttle(`login-address:${address}`, perAddress.limit, perAddress.window);
  await counters.throttle(`login-pair:${address}|${account}`, perEmailAndAddress.limit, perEmailAndAddress.window);
  if (await counters.isRemembered(knownAddressKey(account, address))) return;
  await counters.throttle(`login-email:${account}`, perEmail.limit, perEmail.window);
}

/** After a successful login: this address is the user's for the per-e-mail limit. */
export function rememberLoginAddress(counters: Counters, email: string, clientAddress: string): Promise<void> {
  return counters.remember(knownAddressKey(normaliseEmail(email), addressBucket(clientAddress)), loginLimits.knownAddressFor);
}

const knownAddressKey = (account: string, address: string) => `login-known:${address}|${account}`;

/** The same normalisation as the login itself: surrounding spaces and letter case do not matter. */
const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** IPv4 as is (also when mapped into IPv6); IPv6 as its /64 (`2001:db8:0:1::/64`). */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && net.isIPv4(mapped[1])) return mapped[1];
  if (!net.isIPv6(address)) return address;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const [head, tail] = address.split('%')[0].split('::');
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
