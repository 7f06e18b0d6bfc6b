import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, sessionTokenOf } from '../../http/auth.plugin.js';
import { responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { invalidParameters } from '../../shared/body-checks.js';
import { hashToken } from '../../shared/credentials.js';
import { ErrorCode, UnauthorizedError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import { TableParams } from '../records/records.schemas.js';
import { SpaceParams } from '../spaces/spaces.schemas.js';
import type { StreamFilter } from './change-subscriber.js';

const StreamQuery = Type.Object(
  { after: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'resume after this seq (the Last-Event-ID header wins when both are sent)' })) },
  { additionalProperties: false },
);
const EventStream = {
  200: {
    description: 'Server-Sent Events: each change as `id: <seq>`, `event: <kind>`, `data: <change JSON>`; `event: resync` and `event: end` as docs/api.md ("Live feed") says; a comment line at least every 15 s',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  },
};

/**
 * `changes/stream` of a table and of a space: Server-Sent Events from this process's feed
 * (change-feed.ts). Authentication, the rate limit, access, the cursor and the per-key cap are
 * settled before the stream opens, so every refusal is the usual JSON error.
 */
export function changeStreamRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { changes, changeFeed, auth } = services;

  /** Whose cap a stream counts against: its key, or its session. */
  function credentialOf(actor: Actor, request: FastifyRequest): string {
    if (actor.keyId !== null) return `key:${actor.keyId}`;
    return `session:${hashToken(sessionTokenOf(request) ?? '')}`;
  }

  /** The identity read again, bypassing every cache: 401 once the key is revoked or expired, or the session ended. */
  function refreshOf(actor: Actor, request: FastifyRequest): () => Promise<Actor> {
    if (actor.refresh) return actor.refresh;
    const token = sessionTokenOf(request);
    return async () => {
      const fresh = token ? await auth.authenticateSession(token) : null;
      if (!fresh) throw new UnauthorizedError('Session expired or invalid', ErrorCode.invalidSession);
      return fresh;
    };
  }

  async function openStream(request: FastifyRequest, reply: FastifyReply, filter: StreamFilter, afterQuery: string | undefined): Promise<void> {
    const actor = actorOf(request);
    const after = cursorOf(request.headers['last-event-id'], afterQuery);
    await changes.streamAccess(actor, filter);
    const credential = credentialOf(actor, request);
    const release = changeFeed.reserve(credential);
    let start;
    try {
      start = await changeFeed.startOf(after);
    } catch (error) {
      release();
      throw error;
    }
    const res = reply.raw;
    reply.hijack();
    // The client left while the stream was being prepared: nothing to open.
    if (res.destroyed || request.raw.socket?.destroyed) return release();
    // Connection: close: a stream is the connection's last answer (an EventSource reconnects on a new one).
    res.shouldKeepAlive = false;
    // The headers set so far (rate limit, CORS) go out with the stream's own.
    const earlier = Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined);
    res.writeHead(200, { ...Object.fromEntries(earlier), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    // The send timeout (app.ts) a previous answer on this connection set does not apply: a stream
    // is quiet between heartbeats, and a subscriber that stops reading is dropped by the feed.
    request.raw.socket?.setTimeout?.(0);
    request.raw.socket?.setNoDelay?.(true);
    const refresh = refreshOf(actor, request);
    changeFeed.attach(res, {
      filter,
      start,
      accessKey: `${credential}|${'tableId' in filter ? `table:${filter.tableId}` : `space:${filter.spaceId}`}`,
      recheck: async () => changes.streamAccess(await refresh(), filter),
      release,
    });
  }

  return async (app) => {
    // Its own tag: the streams have an access matrix of their own (access-matrix.test.ts), not the records one.
    const tags = ['feed'];
    const response = { ...responses(Type.Unknown()), ...EventStream };
    app.get('/api/table/:tid/changes/stream', { schema: { tags, params: TableParams, querystring: StreamQuery, response } }, (request, reply) => openStream(request, reply, { tableId: request.params.tid }, request.query.after));
    app.get('/api/space/:sid/changes/stream', { schema: { tags, params: SpaceParams, querystring: StreamQuery, response } }, (request, reply) => openStream(request, reply, { spaceId: request.params.sid }, request.query.after));
    // Open streams would keep the server from closing: they end first, with `event: end` (shutdown).
    app.addHook('preClose', async () => changeFeed.close());
  };
}

/** The cursor: `Last-Event-ID` (what an EventSource sends when it reconnects) or `?after=`; null for none. */
function cursorOf(header: string | string[] | undefined, query: string | undefined): number | null {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw !== undefined && raw.trim() !== '') {
    if (!/^\s*[0-9]{1,15}\s*$/.test(raw)) throw invalidParameters('Last-Event-ID must be a change seq (an integer of 0 or more)');
    return Number(raw);
  }
  return query === undefined ? null : Number(query);
}
