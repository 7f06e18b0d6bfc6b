import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at `address` is a proxy whose forwarding headers are believed. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * Compiles `TABULA_TRUST_PROXY` once, for Fastify's `trustProxy` option and for the code that
 * reads a request before Fastify does; null when no proxy is trusted.
 */
export function compileTrustProxy(entries: readonly string[]): TrustProxy | null {
  return entries.length > 0 ? proxyAddr.compile([...entries]) : null;
}

/**
 * The client's address exactly as Fastify's `request.ip` gives it: with trusted proxies, the
 * nearest `X-Forwarded-For` entry that was not added by one of them; otherwise the peer.
 */
export function clientAddressOf(request: IncomingMessage, trust: TrustProxy | null): string {
  return trust ? proxyAddr(request, trust) : (request.socket.remoteAddress ?? '');
}
