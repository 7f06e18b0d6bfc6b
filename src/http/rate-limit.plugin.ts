import type { FastifyBaseLogger, FastifyInstance, onRequestHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { rateLimitBucket, type Actor } from '../modules/auth/actor.js';
import { RateLimitedError } from '../shared/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts one attempt under `key` in a shared fixed window (a minute unless `windowLength` ms); 429 past `limit`. */
    throttle(key: string, limit: number, windowLength?: number): Promise<void>;
    /** Remembers `key` for `ttl` ms in the shared store (the login throttle's known addresses). */
    remember(key: string, ttl: number): Promise<void>;
    /** Whether `key` is remembered. */
    isRemembered(key: string): Promise<boolean>;
  }
}

/** One request's place in its bucket's window. */
export interface RequestCount {
  limit: number;
  /** Requests in the window, this one included. */
  current: number;
  /** Whole seconds until the window resets. */
  reset: number;
}

const isOverLimit = (count: RequestCount) => count.current > count.limit;

/** The X-RateLimit headers of a counted request (contract §5). */
function rateLimitHeaders(count: RequestCount): Record<string, number> {
  return { 'x-ratelimit-limit': count.limit, 'x-ratelimit-remaining': Math.max(0, count.limit - count.current), 'x-ratelimit-reset': count.reset };
}

export interface RateLimitOptions {
  perMinute: number;
  redisUrl: string | null;
  /**
   * Redis key prefix; lets several deployments or test runs share one Redis without sharing
   * counters (`TABULA_REDIS_PREFIX`).
   */
  redisPrefix: string;
  /** Where Redis's outages and returns are told. */
  log: FastifyBaseLogger;
}

const windowMs = 60_000;
/** How long startup waits for the first Redis connection before serving with local counters. */
const redisStartupWaitMs = 2000;
/** After a failed Redis command, how long requests are counted locally before Redis is tried again. */
const redisRetryPauseMs = 5000;

interface Count {
  /** Requests in the current window, this one included. */
  current: number;
  /** Milliseconds until the window resets (≥ 1). */
  ttl: number;
}

/** Fixed windows in this process's memory: the store without Redis, and the fallback when Redis is down. */
class LocalCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweepAt = 0;

  increment(key: string, windowLength: number): Count {
    const now = Date.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowLength };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { current: window.count, ttl: Math.max(1, window.resetAt - now) };
  }

  remember(key: string, ttl: number): void {
    this.windows.set(key, { count: 1, resetAt: Date.now() + ttl });
  }

  isRemembered(key: string): boolean {
    const window = this.windows.get(key);
    return window !== undefined && window.resetAt > Date.now();
  }

  /** Drops finished windows at most once a minute, so memory follows the active buckets only. */
  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + windowMs;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * One atomic step per request: count it, start the window on the first request (or repair a
 * counter that somehow lost its expiry, which would otherwise lock the bucket forever), and
 * return the count with the milliseconds left in the window.
 */
const incrementScript = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  if current ~= 1 then
    redis.call('SET', KEYS[1], 1)
    current = 1
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type RedisWithScript = Redis & { tabulaRateLimitIncrement(key: string, windowLength: number): Promise<[number, number]> };

/**
 * Shared counters in Redis while it answers. When Redis is unreachable, slow (over the
 * command timeout) or failing, requests are counted in this process instead: the service
 * keeps answering and every process still enforces the limit on its own, so during an
 * outage a client can get at most (number of processes) × the limit. Shared counting
 * resumes as soon as Redis is back. One warning is logged per outage.
 */
class FailoverCounters {
  private readonly local = new LocalCounters();
  private redis: RedisWithScript | null = null;
  private degraded = false;
  /** After a failed command, Redis is skipped for a moment instead of costing every request a timeout. */
  private skipRedisUntil = 0;

  constructor(
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Connects in the background; ioredis reconnects by itself after a failure. */
  connect(url: string): Redis {
    const redis = new Redis(url, {
      // Never queue or retry a counter update: a request must not wait for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      commandTimeout: 1000,
    }) as RedisWithScript;
    redis.defineCommand('tabulaRateLimitIncrement', { numberOfKeys: 1, lua: incrementScript });
    // The 'error' listener also keeps ioredis from printing every failed reconnection attempt.
    redis.on('error', (error: Error) => this.markDegraded(error));
    redis.on('ready', () => this.markHealthy());
    this.redis = redis;
    return redis;
  }

  /** Synchronous without Redis (the common single-process case), so the hook adds no promise. */
  increment(key: string, windowLength: number): Count | Promise<Count> {
    const redis = this.usableRedis();
    return redis ? this.incrementShared(redis, key, windowLength) : this.local.increment(key, windowLength);
  }

  async remember(key: string, ttl: number): Promise<void> {
    const redis = this.usableRedis();
    if (redis) {
      try {
        await redis.set(this.prefix + key, '1', 'PX', ttl);
        this.markHealthy();
        return;
      } catch (error) {
        this.markFailed(error);
      }
    }
    this.local.remember(key, ttl);
  }

  /** During a Redis outage only this process's memory is asked: marks made elsewhere are missed. */
  async isRemembered(key: string): Promise<boolean> {
    const redis = this.usableRedis();
    if (redis) {
      try {
        const found = (await redis.exists(this.prefix + key)) === 1;
        this.markHealthy();
        return found;
      } catch (error) {
        this.markFailed(error);
      }
    }
    return this.local.isRemembered(key);
  }

  /** Redis when it is ready and not being skipped after a failure; null means count locally. */
  private usableRedis(): RedisWithScript | null {
    const redis = this.redis;
    if (redis && redis.status === 'ready' && Date.now() >= this.skipRedisUntil) return redis;
    if (redis && redis.status !== 'ready') this.markDegraded(new Error(`Redis connection is ${redis.status}`));
    return null;
  }

  private async incrementShared(redis: RedisWithScript, key: string, windowLength: number): Promise<Count> {
    try {
      const [current, ttl] = await redis.tabulaRateLimitIncrement(this.prefix + key, windowLength);
      this.markHealthy();
      return { current: Number(current), ttl: Math.max(1, Number(ttl)) };
    } catch (error) {
      this.markFailed(error);
      return this.local.increment(key, windowLength);
    }
  }

  private markFailed(error: unknown): void {
    this.skipRedisUntil = Date.now() + redisRetryPauseMs;
    this.markDegraded(error);
  }

  private markDegraded(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.log.warn({ err: error }, 'rate limit: Redis unavailable, counting requests in this process until it is back');
  }

  private markHealthy(): void {
    this.skipRedisUntil = 0;
    if (!this.degraded) return;
    this.degraded = false;
    this.log.warn('rate limit: Redis is back, counters are shared again');
  }
}

/** Resolves once Redis is ready, failed its first attempt, or after the startup wait. */
function firstConnection(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, redisStartupWaitMs);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/** Whole seconds until the window resets, rounded up (1..60 for the one-minute windows). */
function secondsLeft(count: Count): number {
  return Math.max(1, Math.ceil(count.ttl / 1000));
}

/**
 * Per account for account keys, per user for personal keys and sessions (a quarter of the
 * account's budget), in fixed one-minute windows. Runs as an `onRequest` hook of every route
 * that is not public, after the authentication hook: every authenticated request is counted and
 * carries the X-RateLimit headers (a request that later fails validation included), a
 * limited request is refused before its body is read, and unauthenticated requests (public
 * routes, unknown routes, failed authentication) are never counted. With Redis the counters
 * are shared by every server process.
 *
 * Headers (contract §5): `X-RateLimit-Remaining` = limit − requests in the window including
 * this one (0 on the last allowed request); `X-RateLimit-Reset` and `Retry-After` = whole
 * seconds until the window resets, rounded up (1..60).
 *
 * The hook is written with a callback rather than as an async function: without Redis the
 * count is synchronous, and the hottest routes then pay for no promise here.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const counters = new FailoverCounters(options.redisPrefix, options.log);
  if (options.redisUrl) {
    const redis = counters.connect(options.redisUrl);
    app.addHook('onClose', async () => {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    });
    await firstConnection(redis);
  }
  app.decorate('throttle', async (key: string, limit: number, windowLength = windowMs) => {
    const count = await counters.increment(`throttle:${key}`, windowLength);
    if (count.current > limit) throw new RateLimitedError(secondsLeft(count));
  });
  app.decorate('remember', (key: string, ttl: number) => counters.remember(`remember:${key}`, ttl));
  app.decorate('isRemembered', (key: string) => counters.isRemembered(`remember:${key}`));
  const accountLimit = options.perMinute;
  const userLimit = Math.max(1, Math.floor(options.perMinute / 4));
  const countRequest = (actor: Actor): RequestCount | Promise<RequestCount> => {
    const limit = actor.via === 'account_key' ? accountLimit : userLimit;
    const count = counters.increment(rateLimitBucket(actor), windowMs);
    if (count instanceof Promise) return count.then((settled) => ({ limit, current: settled.current, reset: secondsLeft(settled) }));
    return { limit, current: count.current, reset: secondsLeft(count) };
  };
  const countRequestHook: onRequestHookHandler = (request, reply, done) => {
    const actor = request.actor;
    if (!actor) return done();
    const apply = (count: RequestCount) => {
      reply.headers(rateLimitHeaders(count));
      done(isOverLimit(count) ? new RateLimitedError(count.reset) : undefined);
    };
    const count = countRequest(actor);
    if (count instanceof Promise) count.then(apply, done);
    else apply(count);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.auth !== 'public') route.onRequest = [...[route.onRequest ?? []].flat(), countRequestHook];
  });
}
