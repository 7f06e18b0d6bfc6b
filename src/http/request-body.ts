import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { PayloadTooLargeError } from '../shared/errors.js';

/**
 * What is read of a body the server will not use, before answering: up to this many bytes
 * more, each within `discardIdleMs` of the last. A body that ends within them is read to its
 * end and the connection stays usable; a longer one, or a client that stalls, gets its answer
 * with `Connection: close` and then the connection closes (with its unread bytes, a reset).
 */
export const maxDiscardBytes = 128 * 1024 * 1024;
const discardIdleMs = 10_000;

/**
 * An answer never goes out while its request's body is still arriving. Node closes a connection
 * after an answer marked `Connection: close` (Fastify marks every body it refuses, a 413
 * included) at once: the kernel then meets the client's bytes still in flight on a closed
 * socket and resets the connection, and the client, still writing, gets EPIPE or ECONNRESET
 * instead of the answer. So, before any answer whose request has more body to come (refused
 * by its limit, by a permission check before it was read, or by a failure while it streamed),
 * the rest is read and thrown away, within the bounds above. Only a real connection is
 * concerned: `app.inject`'s stand-in request has no `complete`.
 */
export function registerUnreadBodyDiscard(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete !== false || raw.destroyed) return payload;
    const declared = Number(raw.headers['content-length']);
    const ended = declared > maxDiscardBytes ? false : await discardRest(raw);
    if (!ended) reply.header('connection', 'close');
    return payload;
  });
}

/** Reads and drops what remains of a request's body; true once it ended, false when given up (see above). */
function discardRest(raw: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let discarded = 0;
    const finish = (ended: boolean) => {
      clearTimeout(idle);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const idle = setTimeout(() => finish(false), discardIdleMs);
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxDiscardBytes) finish(false);
      else idle.refresh();
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    // A body piped into an upload that gave up on it: the pipe would pause the request again.
    raw.unpipe();
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.on('error', onClose);
    raw.resume();
  });
}

/**
 * A request's whole body as one Buffer, refused with 413 past `limit` bytes (at once when its
 * `Content-Length` says so). With a `Content-Length` the bytes are copied into one buffer of
 * that size as they come, so the body is held once, not as its pieces plus their join; without
 * one (chunked), the pieces are joined at the end. A refused body is left unread, not
 * destroyed: the answer waits for it (above) rather than resetting the connection.
 */
export function readRequestBody(payload: Readable, headers: IncomingMessage['headers'], limit: number): Promise<Buffer> {
  const declared = headers['content-length'] === undefined ? Number.NaN : Number(headers['content-length']);
  if (declared > limit) return Promise.reject(new PayloadTooLargeError());
  return new Promise((resolve, reject) => {
    const whole = Number.isSafeInteger(declared) ? Buffer.allocUnsafe(declared) : null;
    const pieces: Buffer[] = [];
    let received = 0;
    const stop = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      payload.off('close', onClose);
    };
    const fail = (error: Error) => {
      stop();
      payload.pause();
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (received + piece.length > limit || (whole && received + piece.length > whole.length)) return fail(new PayloadTooLargeError());
      if (whole) piece.copy(whole, received);
      else pieces.push(piece);
      received += piece.length;
    };
    const onEnd = () => {
      stop();
      if (whole && received !== whole.length) return reject(Object.assign(new Error('Request body shorter than its Content-Length'), { statusCode: 400 }));
      resolve(whole ?? (pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, received)));
    };
    const onError = (error: Error) => fail(Object.assign(error, { statusCode: 400 }));
    const onClose = () => fail(Object.assign(new Error('Request body ended early'), { statusCode: 400 }));
    payload.on('data', onData);
    payload.once('end', onEnd);
    payload.once('error', onError);
    payload.once('close', onClose);
    payload.resume();
  });
}

/**
 * A request's body as a stream its consumer may destroy (a failed or refused upload) without
 * destroying the request, which would reset the connection before the answer; what is left of
 * the body is then discarded as above. A request that fails (the client went away) fails it.
 */
export function detachableBody(payload: Readable): Readable {
  const body = new PassThrough();
  const onEarlyClose = () => {
    if (!payload.readableEnded) body.destroy(Object.assign(new Error('Request body ended early'), { statusCode: 400 }));
  };
  payload.once('error', (error) => body.destroy(error));
  payload.once('close', onEarlyClose);
  payload.pipe(body);
  return body;
}
