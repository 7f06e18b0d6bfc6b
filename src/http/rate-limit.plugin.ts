import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { rateLimitBucket } from '../modules/auth/actor.js';
import { RateLimitedError } from '../shared/errors.js';

export interface RateLimitOptions {
  perMinute: number;
  redisUrl: string | null;
  /** Redis key prefix; lets test runs share one Redis without sharing counters. */
  redisPrefix?: string;
}

/**
 * Per account for account keys, per user for personal keys and sessions (a quarter of the
 * account's budget). Runs after authentication; unauthenticated requests are never counted.
 * With Redis the counters are shared by every server process.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const redis = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 }) : undefined;
  if (redis) app.addHook('onClose', async () => void redis.quit());
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    redis,
    nameSpace: options.redisPrefix ?? 'tabula-rate-limit:',
    allowList: (request) => !request.actor,
    keyGenerator: (request) => rateLimitBucket(request.actor!),
    max: (request) => (request.actor?.via === 'account_key' ? options.perMinute : Math.max(1, Math.floor(options.perMinute / 4))),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
