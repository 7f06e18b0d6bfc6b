import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAllowedHost, isBlockedAddress, parseAllowHosts } from '../../src/modules/files/address-policy.js';
import { fetchUrl, type FetchUrlOptions } from '../../src/modules/files/fetch-url.js';
import { AppError, PayloadTooLargeError } from '../../src/shared/errors.js';

// Every request of this file goes to 127.0.0.1 or ::1; names are answered by `lookup` below,
// never by a real resolver, so nothing here can reach the internet.

/** Connections the guard below let through: proof that it sits in fetchUrl's path. */
const guardSaw: string[] = [];

function isLocal(address: string): boolean {
  return /^(127\.|::1$|::ffff:127\.|0\.0\.0\.0$|::$)/.test(address);
}

/**
 * A safety net under fetchUrl: a connection to anything but loopback fails here, after
 * fetchUrl's own checks, so even a broken fetchUrl (the corpus holds 8.8.8.8 and 10.0.0.1 as
 * DNS answers) cannot send a packet off this machine. Node's agents connect through
 * `createConnection`, literal hosts directly and names through the `lookup` option.
 */
function guardAgent(agentClass: typeof http.Agent | typeof https.Agent): () => void {
  const prototype = agentClass.prototype as unknown as { createConnection: (options: net.NetConnectOpts & { lookup?: LookupFunction }, ...rest: unknown[]) => unknown };
  const original = prototype.createConnection;
  prototype.createConnection = function (options, ...rest) {
    const host = (options as { host?: string }).host ?? '';
    if (net.isIP(host) !== 0) {
      if (!isLocal(host)) throw new Error(`test guard: refused a connection to ${host}`);
      guardSaw.push(host);
      return original.call(this, options, ...rest);
    }
    const inner = options.lookup;
    if (!inner) throw new Error(`test guard: ${host} would be resolved by the system resolver`);
    const lookup: LookupFunction = (hostname, lookupOptions, callback) =>
      inner(hostname, lookupOptions, (error, answer, family) => {
        const addresses = typeof answer === 'string' ? [answer] : (answer ?? []).map((entry) => entry.address);
        if (!error && !addresses.every(isLocal)) return callback(new Error(`test guard: refused a connection to ${addresses.join(', ')}`), '');
        guardSaw.push(...addresses);
        callback(error, answer, family);
      });
    return original.call(this, { ...options, lookup }, ...rest);
  };
  return () => {
    prototype.createConnection = original;
  };
}

const engine = process.env.TABULA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

interface TestServer {
  readonly port: number;
  /** TCP connections accepted, on every address the server listens on. */
  connections: number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

function listen(server: http.Server, host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
}

/** A server on 127.0.0.1 and, when the machine has IPv6 loopback, on ::1 with the same port. */
async function startServer(handler: Handler): Promise<TestServer> {
  const servers = [http.createServer(), http.createServer()];
  const state: TestServer = {
    port: 0,
    connections: 0,
    requests: [],
    async close() {
      for (const server of servers) {
        if (!server.listening) continue;
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
  for (const server of servers) {
    server.on('connection', () => state.connections++);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      state.requests.push(request);
      handler(request, response);
    });
  }
  await listen(servers[0], '127.0.0.1', 0);
  const port = (servers[0].address() as { port: number }).port;
  await listen(servers[1], '::1', port);
  return Object.assign(state, { port });
}

const names: Record<string, LookupAddress[]> = {
  localhost: [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ],
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  // A public answer first: every answer is checked, not only the first one.
  'mixed.test': [
    { address: '8.8.8.8', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
  'files.test': [{ address: '127.0.0.1', family: 4 }],
};
const lookedUp: string[] = [];

/** dns.lookup's contract over the table above; unknown names fail as a resolver would. */
const lookup: LookupFunction = (hostname, options, callback) => {
  lookedUp.push(hostname);
  const answers = (names[hostname] ?? []).filter((entry) => !options.family || entry.family === options.family);
  process.nextTick(() => {
    if (answers.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
    if (options.all) callback(null, answers);
    else callback(null, answers[0].address, answers[0].family);
  });
};

async function readAll(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, 'the fetch should have been refused').toBeInstanceOf(AppError);
  return error as AppError;
}

let trap: TestServer;
let files: TestServer;
/** Resolved with each response socket of the allowed server when it closes. */
const socketClosed = new Map<string, Promise<void>>();
const hanging: ServerResponse[] = [];

function serveFiles(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://files');
  socketClosed.set(url.pathname, new Promise((resolve) => request.socket.once('close', () => resolve())));
  const redirect = (status: number, location: string) => void response.writeHead(status, { location }).end();
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const left = Number(chain[1]);
    if (left === 0) return void response.end('end of chain');
    return redirect([301, 302, 303, 307, 308][left % 5], `/chain/${left - 1}`);
  }
  switch (url.pathname) {
    case '/ok':
      return void response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 5 }).end('hello');
    case '/named':
      return void response.writeHead(200, { 'content-type': 'Application/PDF; x=1', 'content-disposition': 'attachment; filename="report 2024.pdf"' }).end('%PDF');
    case '/extended':
      return void response
        .writeHead(200, { 'content-disposition': `attachment; filename="fallback.txt"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.txt` })
        .end('x');
    case '/quoted':
      return void response.writeHead(200, { 'content-disposition': 'inline; note="a; filename=evil.exe"; filename="say \\"hi\\".txt"' }).end('x');
    case '/traversal':
      return void response.writeHead(200, { 'content-disposition': 'attachment; filename="../../etc/passwd"' }).end('x');
    case '/files/my%20photo.jpg':
      return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end('x');
    case '/':
    case '/dir/':
      return void response.end('no name');
    case '/octet':
      return void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end('x');
    case '/whoami':
      return void response.end(request.headers.authorization ?? 'anonymous');
    case '/loop':
      return redirect(302, '/loop');
    case '/to-trap':
      return redirect(302, `http://127.0.0.1:${trap.port}/`);
    case '/to-metadata':
      return redirect(301, 'http://169.254.169.254/latest/meta-data/');
    case '/to-localhost':
      return redirect(307, `http://localhost:${trap.port}/`);
    case '/to-file':
      return redirect(302, 'file:///etc/passwd');
    case '/to-files-name':
      return redirect(302, `http://files.test:${files.port}/whoami`);
    case '/big-declared':
      response.writeHead(200, { 'content-length': 1_000_000 });
      return void response.write(Buffer.alloc(1000));
    case '/big-chunked': {
      response.writeHead(200, { 'content-type': 'application/zip' });
      // Keeps sending until the client hangs up (or 10 MB, so a broken client cannot keep this going).
      let sent = 0;
      const more = () => {
        if (response.destroyed || sent > 10_000_000) return void response.end();
        sent += 16_384;
        response.write(Buffer.alloc(16_384), () => setImmediate(more));
      };
      return more();
    }
    case '/hang':
      return void hanging.push(response);
    case '/hang-body':
      response.writeHead(200, { 'content-length': 100 });
      response.write('a little');
      return void hanging.push(response);
    default:
      return void response.writeHead(404).end('not found');
  }
}

const unguard: (() => void)[] = [];

beforeAll(async () => {
  unguard.push(guardAgent(http.Agent), guardAgent(https.Agent));
  trap = await startServer((_request, response) => response.end('the trap was reached'));
  files = await startServer(serveFiles);
});

afterAll(async () => {
  for (const restore of unguard) restore();
  for (const response of hanging) response.destroy();
  await trap.close();
  await files.close();
});

beforeEach(() => {
  lookedUp.length = 0;
  guardSaw.length = 0;
});

function allowed(overrides: Partial<FetchUrlOptions> = {}): FetchUrlOptions {
  return { allowHosts: [`127.0.0.1:${files.port}`], maxBytes: 1_000_000, lookup, timeoutMs: 5000, ...overrides };
}

describe(`fetchUrl refuses what it must not fetch (${engine})`, () => {
  const corpus = (): [string, RegExp][] => {
    const port = trap.port;
    const privateAddress = / is a private address$/;
    const resolvesPrivate = / resolves to a private address$/;
    const scheme = /: only http and https URLs are fetched$/;
    return [
      [`http://localhost:${port}/`, resolvesPrivate],
      [`http://127.1:${port}/`, privateAddress],
      [`http://2130706433:${port}/`, privateAddress],
      [`http://0x7f000001:${port}/`, privateAddress],
      [`http://017700000001:${port}/`, privateAddress],
      [`http://0177.0.0.1:${port}/`, privateAddress],
      [`https://127.0.0.1:${port}/`, privateAddress],
      [`http://[::1]:${port}/`, privateAddress],
      [`http://[::ffff:127.0.0.1]:${port}/`, privateAddress],
      [`http://[::ffff:7f00:1]:${port}/`, privateAddress],
      [`http://[::127.0.0.1]:${port}/`, privateAddress],
      [`http://[::]:${port}/`, privateAddress],
      [`http://0.0.0.0:${port}/`, privateAddress],
      [`http://0:${port}/`, privateAddress],
      ['http://169.254.169.254/latest/meta-data/', privateAddress],
      ['http://[::ffff:169.254.169.254]/latest/meta-data/', privateAddress],
      ['http://10.0.0.1/', privateAddress],
      ['http://172.16.0.1/', privateAddress],
      ['http://192.168.1.1/', privateAddress],
      ['http://100.64.0.1/', privateAddress],
      ['http://192.0.2.1/', privateAddress],
      ['http://[fe80::1]/', privateAddress],
      ['http://[fc00::1]/', privateAddress],
      ['http://[64:ff9b::7f00:1]/', privateAddress],
      ['http://[64:ff9b::a9fe:a9fe]/', privateAddress],
      ['http://[2002:7f00:1::]/', privateAddress],
      ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', privateAddress],
      ['http://224.0.0.1/', privateAddress],
      ['http://255.255.255.255/', privateAddress],
      [`http://loopback.test:${port}/`, resolvesPrivate],
      ['http://metadata.test/latest/meta-data/', resolvesPrivate],
      ['http://mixed.test/', resolvesPrivate],
      ['http://user:pass@127.0.0.1/', privateAddress],
      ['file:///etc/passwd', scheme],
      ['ftp://127.0.0.1/', scheme],
      ['gopher://127.0.0.1:70/', scheme],
      ['data:text/plain,hi', scheme],
      [`ws://127.0.0.1:${port}/`, scheme],
    ];
  };

  it('refuses every URL of the corpus, and none of them reaches the listening trap', async () => {
    const urls = corpus();
    expect(urls.length).toBeGreaterThanOrEqual(25);
    for (const [url, message] of urls) {
      const error = await refusal(fetchUrl(url, { allowHosts: [`127.0.0.1:${files.port}`], maxBytes: 1000, lookup, timeoutMs: 2000 }));
      expect(error.message, url).toMatch(/^Invalid file source: /);
      expect(error.message, url).toMatch(message);
      expect(error.code, url).toBe('invalid_field_value');
      expect(error.status, url).toBe(400);
    }
    expect(trap.connections).toBe(0);
    expect(trap.requests).toHaveLength(0);
  });

  it('names the URL in its normal form, without credentials or query', async () => {
    const port = trap.port;
    expect((await refusal(fetchUrl(`http://0x7f000001:${port}/x?token=secret#frag`, allowed()))).message).toBe(`Invalid file source: http://127.0.0.1:${port}/x is a private address`);
    const withCredentials = await refusal(fetchUrl('http://admin:hunter2@10.0.0.1/a', allowed()));
    expect(withCredentials.message).toBe('Invalid file source: http://10.0.0.1/a is a private address');
    expect((await refusal(fetchUrl('ftp://x/y', allowed()))).message).toBe('Invalid file source: ftp://x/y: only http and https URLs are fetched');
    expect((await refusal(fetchUrl('not a url', allowed()))).message).toBe('Invalid file source: not an absolute URL');
  });

  it('checks every redirect hop: a redirect from an allowed host to a private address is refused', async () => {
    const origin = `http://127.0.0.1:${files.port}`;
    const toTrap = await refusal(fetchUrl(`${origin}/to-trap`, allowed()));
    expect(toTrap.message).toBe(`Invalid file source: http://127.0.0.1:${trap.port}/ is a private address (redirected from ${origin}/to-trap)`);
    expect((await refusal(fetchUrl(`${origin}/to-metadata`, allowed()))).message).toMatch(/169\.254\.169\.254\/latest\/meta-data\/ is a private address/);
    expect((await refusal(fetchUrl(`${origin}/to-localhost`, allowed()))).message).toMatch(/localhost:\d+\/ resolves to a private address/);
    expect((await refusal(fetchUrl(`${origin}/to-file`, allowed()))).message).toMatch(/file:\/\/\/etc\/passwd: only http and https URLs are fetched/);
    expect(trap.connections).toBe(0);
  });

  it('allows a host with a port on that port only, and a host without one on every port', async () => {
    const onOtherPort = await refusal(fetchUrl(`http://127.0.0.1:${trap.port}/`, allowed()));
    expect(onOtherPort.message).toMatch(/is a private address$/);
    expect(trap.connections).toBe(0);
    const source = await fetchUrl(`http://127.0.0.1:${trap.port}/`, allowed({ allowHosts: ['127.0.0.1'] }));
    expect(await readAll(source.body)).toBe('the trap was reached');
    trap.connections = 0;
    trap.requests = [];
  });

  it('reports an unreachable or unknown host by its error code', async () => {
    const closed = await startServer(() => undefined);
    const port = closed.port;
    await closed.close();
    expect((await refusal(fetchUrl(`http://127.0.0.1:${port}/x`, allowed({ allowHosts: [`127.0.0.1:${port}`] })))).message).toBe(
      `Invalid file source: http://127.0.0.1:${port}/x could not be fetched (ECONNREFUSED)`,
    );
    expect((await refusal(fetchUrl('http://nowhere.test/', allowed()))).message).toBe('Invalid file source: http://nowhere.test/ could not be fetched (ENOTFOUND)');
  });
});

describe(`fetchUrl from an allowed host (${engine})`, () => {
  const at = (path: string) => `http://127.0.0.1:${files.port}${path}`;

  it('streams the body, with the length the server declared', async () => {
    const source = await fetchUrl(at('/ok'), allowed());
    expect(guardSaw, 'the loopback-only guard of this file watched the connection').toEqual(['127.0.0.1']);
    expect(source).toMatchObject({ name: 'ok', type: 'text/plain', length: 5 });
    expect(await readAll(source.body)).toBe('hello');
  });

  it('infers the name from Content-Disposition, filename* first, and the type without parameters', async () => {
    expect(await fetchUrl(at('/named'), allowed())).toMatchObject({ name: 'report 2024.pdf', type: 'application/pdf', length: null });
    expect((await fetchUrl(at('/extended'), allowed())).name).toBe('naïve résumé.txt');
    expect((await fetchUrl(at('/quoted'), allowed())).name).toBe('say "hi".txt');
    expect((await fetchUrl(at('/traversal'), allowed())).name).toBe('passwd');
  });

  it('else from the last path segment, percent-decoded, else `download`; octet-stream leaves the type to sniffing', async () => {
    expect(await fetchUrl(at('/files/my%20photo.jpg'), allowed())).toMatchObject({ name: 'my photo.jpg', type: 'image/jpeg' });
    expect(await fetchUrl(at('/'), allowed())).toMatchObject({ name: 'download', type: null });
    expect((await fetchUrl(at('/dir/'), allowed())).name).toBe('download');
    expect(await fetchUrl(at('/octet'), allowed())).toMatchObject({ name: 'octet', type: null });
  });

  it('follows a redirect chain within the allowed host, naming the file after the final URL', async () => {
    const source = await fetchUrl(at('/chain/5'), allowed());
    expect(source.name).toBe('0');
    expect(await readAll(source.body)).toBe('end of chain');
  });

  it('stops after maxRedirects, and on a redirect loop', async () => {
    expect((await refusal(fetchUrl(at('/chain/6'), allowed()))).message).toBe(`Invalid file source: ${at('/chain/6')} redirected more than 5 times`);
    expect((await refusal(fetchUrl(at('/chain/2'), allowed({ maxRedirects: 1 })))).message).toMatch(/redirected more than 1 times$/);
    expect((await refusal(fetchUrl(at('/loop'), allowed()))).message).toMatch(/\/loop redirected more than 5 times$/);
  });

  it('answers a non-2xx final status with an error naming the URL and the status', async () => {
    const error = await refusal(fetchUrl(at('/missing?sig=abc'), allowed()));
    expect(error.message).toBe(`Invalid file source: ${at('/missing')} answered 404`);
    expect(error.status).toBe(400);
  });

  it('refuses a Content-Length over the limit before reading the body, and hangs up', async () => {
    const error = await refusal(fetchUrl(at('/big-declared'), allowed({ maxBytes: 1000 })));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.status).toBe(413);
    await socketClosed.get('/big-declared');
  });

  it('errors the body stream past maxBytes when no length was declared, and closes the connection', async () => {
    const source = await fetchUrl(at('/big-chunked'), allowed({ maxBytes: 100_000 }));
    expect(source.length).toBeNull();
    const error = await readAll(source.body).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    await socketClosed.get('/big-chunked');
  });

  it('times out a server that never answers, and one that stops sending its body', async () => {
    expect((await refusal(fetchUrl(at('/hang'), allowed({ timeoutMs: 200 })))).message).toBe(`Invalid file source: ${at('/hang')} timed out after 0.2 s`);
    await socketClosed.get('/hang');
    const source = await fetchUrl(at('/hang-body'), allowed({ timeoutMs: 300 }));
    const error = await readAll(source.body).then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toBe(`Invalid file source: ${at('/hang-body')} timed out after 0.3 s`);
    await socketClosed.get('/hang-body');
  });

  it('resolves an allowed name through the lookup, once per connection', async () => {
    const source = await fetchUrl(`http://files.test:${files.port}/ok`, allowed({ allowHosts: ['FILES.test'] }));
    expect(await readAll(source.body)).toBe('hello');
    expect(lookedUp).toEqual(['files.test']);
    expect(guardSaw).toContain('127.0.0.1');
  });

  it('sends URL credentials to their own origin only', async () => {
    const own = await fetchUrl(`http://user:p%40ss@127.0.0.1:${files.port}/whoami`, allowed());
    expect(await readAll(own.body)).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    const elsewhere = await fetchUrl(`http://user:pass@127.0.0.1:${files.port}/to-files-name`, allowed({ allowHosts: [`127.0.0.1:${files.port}`, 'files.test'] }));
    expect(await readAll(elsewhere.body)).toBe('anonymous');
  });
});

describe('isBlockedAddress', () => {
  it.each([
    ['loopback', ['127.0.0.1', '127.255.255.254', '::1']],
    ['private', ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1']],
    ['link-local', ['169.254.169.254', 'fe80::1', 'fe80::1%eth0']],
    ['unique local', ['fc00::1', 'fd12:3456::1']],
    ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1']],
    ['unspecified and 0/8', ['0.0.0.0', '0.1.2.3', '::']],
    ['broadcast', ['255.255.255.255']],
    ['carrier-grade NAT', ['100.64.0.1', '100.127.255.254']],
    ['reserved and documentation', ['240.0.0.1', '192.0.2.1', '198.51.100.1', '203.0.113.1', '198.18.0.1', '2001:db8::1', '3fff::1']],
    ['IPv4-mapped and IPv4-compatible', ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::127.0.0.1', '::ffff:0:7f00:1']],
    ['NAT64 of a blocked IPv4, and local-use NAT64', ['64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::808:808']],
    ['6to4 of a blocked IPv4', ['2002:7f00:1::', '2002:a00:1::1', '2002:c0a8:101::']],
    ['Teredo with a blocked client or server', ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:a00:1:8000:63bf:f7f7:f7f7']],
    ['outside global unicast IPv6', ['100::1', '4000::1', 'fec0::1']],
    ['not an address', ['', 'localhost', '1.2.3.4.5', '::g']],
  ])('blocks %s', (_range, addresses) => {
    for (const address of addresses) expect(isBlockedAddress(address), address).toBe(true);
  });

  it('lets global unicast addresses through, also in translation forms that embed one', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700::1', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7']) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
  });
});

describe('parseAllowHosts and isAllowedHost', () => {
  it('reads host[:port] entries, from a list or from the variable text', () => {
    expect(parseAllowHosts(' Files.Test:8080 , intranet.example,[::1]:9000, ::1 ,127.1:80')).toEqual([
      { host: 'files.test', port: 8080 },
      { host: 'intranet.example', port: null },
      { host: '::1', port: 9000 },
      { host: '::1', port: null },
      { host: '127.0.0.1', port: 80 },
    ]);
    expect(parseAllowHosts([])).toEqual([]);
    expect(parseAllowHosts('')).toEqual([]);
  });

  it('refuses entries it cannot read', () => {
    for (const entry of ['http://x', 'a:b', 'a:0', 'a:70000', '[zz]:80', 'a b', 'user@host', 'a:1:2']) {
      expect(() => parseAllowHosts([entry]), entry).toThrow(/TABULA_FETCH_ALLOW_HOSTS/);
    }
  });

  it('matches hosts case-insensitively, IPv6 with or without brackets, and the port only when the entry has one', () => {
    const allow = parseAllowHosts(['files.test:8080', 'INTRANET.example', '[::1]:9000', '127.0.0.1']);
    expect(isAllowedHost('FILES.TEST', 8080, allow)).toBe(true);
    expect(isAllowedHost('files.test', 8081, allow)).toBe(false);
    expect(isAllowedHost('intranet.example', 1, allow)).toBe(true);
    expect(isAllowedHost('intranet.example.', 443, allow)).toBe(true);
    expect(isAllowedHost('sub.intranet.example', 443, allow)).toBe(false);
    expect(isAllowedHost('[::1]', 9000, allow)).toBe(true);
    expect(isAllowedHost('::1', 9000, allow)).toBe(true);
    expect(isAllowedHost('[::1]', 9001, allow)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 5432, allow)).toBe(true);
    expect(isAllowedHost('127.0.0.2', 80, allow)).toBe(false);
    expect(isAllowedHost('[::ffff:7f00:1]', 80, allow)).toBe(false);
  });
});
