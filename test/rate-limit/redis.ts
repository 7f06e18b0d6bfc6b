import crypto from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';

export const redisUrl = process.env.TABULA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test run uses, so runs can share one Redis (and one account id 1). */
export function uniqueRedisPrefix(): string {
  return `tabula-test-rl-${process.pid}-${crypto.randomBytes(6).toString('hex')}:`;
}

export function openRedis(): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
}

/** Every key under the prefix (SCAN, not KEYS, so a busy Redis is not blocked). */
export async function redisKeys(redis: Redis, prefix: string): Promise<string[]> {
  if (!/^[A-Za-z0-9:_-]+$/.test(prefix)) throw new Error(`unsafe prefix for a SCAN pattern: ${prefix}`);
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}

/** Deletes this run's keys only. */
export async function deleteRedisKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redisKeys(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
}

/** A local port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A TCP proxy in front of Redis that the test can cut, hang and restore, to play Redis
 * outages without touching the shared Redis.
 */
export class RedisProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private held: Array<{ upstream: net.Socket; chunk: Buffer }> | null = null;
  port = 0;

  constructor(private readonly target = new URL(redisUrl)) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      // Forwarded by hand rather than piped, so that `hang()` can hold the commands back.
      client.on('data', (chunk: Buffer) => {
        if (this.held) this.held.push({ upstream, chunk });
        else upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** Connections stay open but commands are held back, in order: a Redis that stopped answering. */
  hang(): void {
    this.held ??= [];
  }

  /**
   * The names of the commands held back since `hang()` (`get`, `evalsha`, …), in order: what
   * the app sent to a Redis that stopped answering.
   */
  heldCommands(): string[] {
    const byConnection = new Map<net.Socket, Buffer[]>();
    for (const { upstream, chunk } of this.held ?? []) byConnection.set(upstream, [...(byConnection.get(upstream) ?? []), chunk]);
    return [...byConnection.values()].flatMap((chunks) => commandNames(Buffer.concat(chunks)));
  }

  /** Lets the held commands through, then forwards as usual again. */
  resume(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const { upstream, chunk } of held) upstream.write(chunk);
  }

  /** Refuses new connections and drops the open ones. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The command names in a stream of RESP requests (arrays of bulk strings); a cut-off last command is left out. */
function commandNames(stream: Buffer): string[] {
  const text = stream.toString('latin1'); // one character per byte, so RESP lengths index the text
  const names: string[] = [];
  let at = 0;
  const readLine = (): string | null => {
    const end = text.indexOf('\r\n', at);
    if (end < 0) return null;
    const line = text.slice(at, end);
    at = end + 2;
    return line;
  };
  while (at < text.length) {
    const header = readLine();
    if (header === null || !header.startsWith('*')) break;
    let name: string | null = null;
    for (let argument = 0; argument < Number(header.slice(1)); argument += 1) {
      const size = readLine();
      if (size === null || !size.startsWith('$') || at + Number(size.slice(1)) + 2 > text.length) return names;
      if (argument === 0) name = text.slice(at, at + Number(size.slice(1))).toLowerCase();
      at += Number(size.slice(1)) + 2;
    }
    if (name !== null) names.push(name);
  }
  return names;
}

/** Polls until `check` holds (or throws after `timeoutMs`). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
