import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { isAllowedHost, isBlockedAddress, type AllowedHost } from '../files/address-policy.js';
import { checkedLookup, connectHostOf, portOf } from '../files/fetch-url.js';

/** What one POST to a receiver came to. */
export interface SendResult {
  /** The HTTP status; null when no answer came (refused, timed out, connection failed). */
  status: number | null;
  /** At most `maxResponseBytes` of the answer, as text. */
  body: string | null;
  retryAfter: string | undefined;
  error: string | null;
  durationMs: number;
}

/** Sends webhook requests: in this thread (`createWebhookSender`), or on a thread of its own (threaded-sender.ts). */
export interface WebhookSender {
  send(target: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  /** Each request's time budget. */
  readonly timeoutMs: number;
  close(): void | Promise<void>;
}

export interface SenderOptions {
  allowHosts: readonly AllowedHost[];
  timeoutMs: number;
  /** Name resolution; tests may inject one. */
  lookup?: LookupFunction;
}

/** Response bodies kept in the delivery log. */
export const maxResponseBytes = 4096;

/**
 * Why a webhook URL may not be used, or null: only http(s), and no private or internal address
 * written as such unless TABULA_FETCH_ALLOW_HOSTS exempts it (a name that resolves to one is
 * refused when connecting, as URL attachments are: address-policy.ts).
 */
export function refusedUrl(text: string, allow: readonly AllowedHost[]): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be an http or https URL';
  if (isAllowedHost(url.hostname, portOf(url), allow)) return null;
  const host = connectHostOf(url);
  if (net.isIP(host) !== 0 && isBlockedAddress(host)) return `url ${url.origin} is a private address`;
  return null;
}

/**
 * POSTs webhook messages: one time budget per request (connecting, sending, and reading at
 * most 4 KB of the answer), redirects not followed (a 3xx is an answer like any other non-2xx),
 * every address checked when connecting. Connections are kept alive per origin: each was
 * checked when it was made.
 */
export function createWebhookSender(options: SenderOptions): WebhookSender {
  const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };
  const resolve = options.lookup ?? (dns.lookup as LookupFunction);

  function send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
    const refused = refusedUrl(target, options.allowHosts);
    if (refused) return Promise.resolve(done({ status: null, body: null, retryAfter: undefined, error: refused }));
    const url = new URL(target);
    const check = !isAllowedHost(url.hostname, portOf(url), options.allowHosts);
    const lookup = checkedLookup(resolve, check, () => new Error(`${url.hostname} resolves to a private address`));
    const payload = Buffer.from(body);
    return new Promise((settle) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        settle(done(result));
      };
      const request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        host: connectHostOf(url),
        port: portOf(url),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length), 'user-agent': 'Tabula-Webhooks' },
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup,
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish({ status: null, body: null, retryAfter: undefined, error: `no answer within ${options.timeoutMs / 1000} s` });
      }, options.timeoutMs);
      request.once('error', (error: NodeJS.ErrnoException) => finish({ status: null, body: null, retryAfter: undefined, error: error.code ? `${error.code}: ${error.message}` : error.message }));
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const status = response.statusCode ?? 0;
        const retryAfter = typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : undefined;
        const answer = () => ({ status, body: Buffer.concat(chunks).toString('utf8'), retryAfter, error: status >= 300 && status < 400 ? `redirect not followed (${status} to ${response.headers.location ?? 'nowhere'})` : null });
        response.on('data', (chunk: Buffer) => {
          if (kept >= maxResponseBytes) return;
          const part = chunk.subarray(0, maxResponseBytes - kept);
          chunks.push(part);
          kept += part.length;
          // Past 4 KB nothing more is read: the connection goes, the answer counts as it is.
          if (kept >= maxResponseBytes) {
            response.destroy();
            finish(answer());
          }
        });
        response.once('end', () => finish(answer()));
        response.once('error', () => finish(answer()));
        response.once('close', () => finish(answer()));
      });
      request.end(payload);
    });
  }

  return {
    send,
    timeoutMs: options.timeoutMs,
    close(): void {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
