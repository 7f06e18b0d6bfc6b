import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { AppError, ErrorCode, PayloadTooLargeError, ValidationError } from '../../shared/errors.js';
import { isAllowedHost, isBlockedAddress, parseAllowHosts, type AllowedHost } from './address-policy.js';

/**
 * Fetches the URL of a URL source descriptor (`{url, name?, type?}` in a file field), with the
 * SSRF defences the specification asks for: http and https only, no private or internal
 * address (unless TABULA_FETCH_ALLOW_HOSTS exempts the URL's host), every redirect hop checked
 * again, a size cap enforced while streaming, and one time budget for the whole exchange.
 * See docs/decisions.md, "URL source descriptors: fetching without SSRF".
 */

export interface FetchedSource {
  /** The response body; errors with PayloadTooLargeError past `maxBytes`, or with a ValidationError when the transfer fails. */
  readonly body: Readable;
  /** From Content-Disposition, else the last segment of the final URL, else `download`. */
  readonly name: string;
  /** The response's media type without parameters; null when absent or `application/octet-stream` (the caller sniffs). */
  readonly type: string | null;
  /** Content-Length when the server sent one. */
  readonly length: number | null;
}

export interface FetchUrlOptions {
  /** TABULA_FETCH_ALLOW_HOSTS entries: `host[:port]` exempt from the address block. */
  readonly allowHosts: readonly (string | AllowedHost)[];
  readonly maxBytes: number;
  /** The whole exchange, body included (default 15 s); connecting gets at most 10 s of it. */
  readonly timeoutMs?: number;
  readonly maxRedirects?: number;
  /** Name resolution, `dns.lookup` by default; tests inject one so that no name reaches a real resolver. */
  readonly lookup?: LookupFunction;
}

const defaultTimeoutMs = 15_000;
const connectTimeoutMs = 10_000;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function invalidSource(problem: string): ValidationError {
  return new ValidationError(`Invalid file source: ${problem}`, ErrorCode.invalidFieldValue);
}

/**
 * The URL as error messages show it: no credentials, no query, no fragment, since a query
 * often carries a signature or a token and messages reach clients and logs.
 */
function describe(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  shown.hash = '';
  return shown.href.length > 200 ? `${shown.href.slice(0, 200)}…` : shown.href;
}

export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** The host to connect to: an IPv6 literal loses its brackets. */
export function connectHostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function seconds(milliseconds: number): string {
  return `${milliseconds / 1000} s`;
}

/**
 * A lookup for `net.connect` that resolves every address of the name, refuses the connection
 * when any of them is blocked, and hands over only the addresses it checked. Node connects to
 * exactly what a lookup returns, so a DNS server answering differently on a second query
 * (rebinding) has no second query to answer.
 */
export function checkedLookup(resolve: LookupFunction, check: boolean, blocked: () => Error): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answer) => {
      if (error) return callback(error, '');
      const addresses = typeof answer === 'string' ? [{ address: answer, family: net.isIP(answer) }] : answer;
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (check && addresses.some((entry) => isBlockedAddress(entry.address))) return callback(blocked(), '');
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Checks the scheme and the target of one hop, before any connection. */
function checkTarget(url: URL, allow: readonly AllowedHost[], via: string): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidSource(`${describe(url)}: only http and https URLs are fetched${via}`);
  if (isAllowedHost(url.hostname, portOf(url), allow)) return;
  // Node's URL parser has already turned 127.1, 2130706433 and 0x7f000001 into 127.0.0.1; a literal address is connected to without a lookup, so it is checked here.
  const host = connectHostOf(url);
  if (net.isIP(host) !== 0 && isBlockedAddress(host)) throw invalidSource(`${describe(url)} is a private address${via}`);
}

/** Basic credentials of the URL, sent only to the origin they were written for. */
interface Credentials {
  readonly origin: string;
  readonly auth: string;
}

function credentialsOf(url: URL): Credentials | null {
  if (!url.username && !url.password) return null;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return { origin: url.origin, auth: `${decode(url.username)}:${decode(url.password)}` };
}

/** A request's failure → the error the caller sees: ours as they are, the rest named by their code. */
function translateError(error: unknown, url: URL, deadline: Deadline): Error {
  if (deadline.expired) return invalidSource(`${describe(url)} timed out after ${seconds(deadline.timeoutMs)}`);
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return invalidSource(`${describe(url)} could not be fetched (${reason})`);
}

/** One time budget for the whole exchange: every request and the body watch its signal. */
interface Deadline {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly expired: boolean;
  clear(): void;
}

function startDeadline(timeoutMs: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, timeoutMs);
  return {
    signal: controller.signal,
    timeoutMs,
    get expired() {
      return expired;
    },
    clear: () => clearTimeout(timer),
  };
}

/** Sends one GET and resolves with its response head; the address checks run before and during connecting. */
function requestOnce(url: URL, lookup: LookupFunction, credentials: Credentials | null, deadline: Deadline, connectMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      host: connectHostOf(url),
      port: portOf(url),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { 'user-agent': 'Tabula', accept: '*/*', 'accept-encoding': 'identity' },
      auth: credentials?.origin === url.origin ? credentials.auth : undefined,
      // A fresh connection per request: a pooled one could have been made to another address.
      agent: false,
      lookup,
      signal: deadline.signal,
    });
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => request.destroy(invalidSource(`${describe(url)} could not be fetched (no connection after ${seconds(connectMs)})`)), connectMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.once('response', resolve);
    // `on`, not `once`: the deadline can destroy the request again after its response arrived.
    request.on('error', (error) => reject(translateError(error, url, deadline)));
    request.end();
  });
}

/**
 * The response body, capped: past `maxBytes` it errors with PayloadTooLargeError, and closing
 * it early (the caller's choice or an error) closes the connection, so a server cannot keep
 * sending into a buffer nobody reads.
 */
function limitBody(response: IncomingMessage, url: URL, maxBytes: number, deadline: Deadline): Readable {
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) return callback(new PayloadTooLargeError());
      callback(null, chunk);
    },
  });
  const onTimeout = () => body.destroy(translateError(null, url, deadline));
  deadline.signal.addEventListener('abort', onTimeout, { once: true });
  response.on('error', (error) => body.destroy(translateError(error, url, deadline)));
  body.once('close', () => {
    deadline.signal.removeEventListener('abort', onTimeout);
    deadline.clear();
    if (!response.complete) response.destroy();
  });
  response.pipe(body);
  return body;
}

/** RFC 6266 / 8187 parameters of Content-Disposition, quoted strings unescaped. */
function dispositionParameters(header: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const parameter = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const match of header.matchAll(parameter)) {
    const raw = match[2].trim();
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    const key = match[1].toLowerCase();
    if (!parameters.has(key)) parameters.set(key, value);
  }
  return parameters;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** `UTF-8''na%C3%AFve.txt` (RFC 8187) → `naïve.txt`; null when the charset is unknown or the escapes are broken. */
function decodeExtendedValue(value: string): string | null {
  const match = /^([\w!#$%&+^`{|}~-]+)'[^']*'(.*)$/.exec(value);
  if (!match) return null;
  const charset = match[1].toLowerCase();
  try {
    if (charset === 'utf-8') return decodeURIComponent(match[2]);
    // Each Latin-1 byte is the code point of the same number.
    if (charset === 'iso-8859-1' && !/%(?![0-9a-f]{2})/i.test(match[2])) return match[2].replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  } catch {
    return null;
  }
  return null;
}

/** Node reads header bytes as Latin-1; many servers send a raw UTF-8 filename, which this recovers. */
function recoverUtf8(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return strictUtf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/** A usable file name, or null: the last path component only, no control characters. */
function cleanName(name: string | null | undefined): string | null {
  if (!name) return null;
  const base = name.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base && base !== '.' && base !== '..' ? base : null;
}

function nameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const parameters = dispositionParameters(header);
  const extended = parameters.get('filename*');
  // filename* wins over filename (RFC 6266 §4.3): it is the one that can carry any character.
  return cleanName(extended === undefined ? null : decodeExtendedValue(extended)) ?? cleanName(recoverUtf8(parameters.get('filename') ?? ''));
}

function nameFromPath(url: URL): string | null {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return cleanName(decodeURIComponent(segment));
  } catch {
    return cleanName(segment);
  }
}

function typeOf(header: string | undefined): string | null {
  const type = header?.split(';')[0].trim().toLowerCase() ?? '';
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(type) || type === 'application/octet-stream') return null;
  return type;
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    // The text is not echoed: it may hold credentials the parser could not separate.
    throw invalidSource('not an absolute URL');
  }
}

/**
 * Fetches `url` as a file source. Resolves once the final response's head has arrived, with
 * the body still streaming; throws a ValidationError (400) for a refused or failed source and
 * PayloadTooLargeError (413) when Content-Length already says the file is too large.
 */
export async function fetchUrl(url: string, options: FetchUrlOptions): Promise<FetchedSource> {
  const allow = options.allowHosts.map((entry) => (typeof entry === 'string' ? parseAllowHosts([entry])[0] : entry));
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const maxRedirects = options.maxRedirects ?? 5;
  const resolve = options.lookup ?? (dns.lookup as LookupFunction);
  const deadline = startDeadline(timeoutMs);
  let current = parseUrl(url);
  let via = '';
  const credentials = credentialsOf(current);
  try {
    for (let redirects = 0; ; redirects++) {
      checkTarget(current, allow, via);
      const target = current;
      const check = !isAllowedHost(target.hostname, portOf(target), allow);
      const lookup = checkedLookup(resolve, check, () => invalidSource(`${describe(target)} resolves to a private address${via}`));
      const response = await requestOnce(target, lookup, credentials, deadline, Math.min(connectTimeoutMs, timeoutMs));
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location) {
        response.destroy();
        if (redirects >= maxRedirects) throw invalidSource(`${describe(parseUrl(url))} redirected more than ${maxRedirects} times`);
        try {
          current = new URL(location, target);
        } catch {
          throw invalidSource(`${describe(target)} redirected to an invalid URL`);
        }
        via = ` (redirected from ${describe(target)})`;
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw invalidSource(`${describe(target)} answered ${status}`);
      }
      const lengthHeader = response.headers['content-length'];
      const length = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
      if (length !== null && length > options.maxBytes) {
        response.destroy();
        throw new PayloadTooLargeError();
      }
      return {
        body: limitBody(response, target, options.maxBytes, deadline),
        name: nameFromDisposition(response.headers['content-disposition']) ?? nameFromPath(target) ?? 'download',
        type: typeOf(response.headers['content-type']),
        length,
      };
    }
  } catch (error) {
    deadline.clear();
    throw translateError(error, current, deadline);
  }
}
