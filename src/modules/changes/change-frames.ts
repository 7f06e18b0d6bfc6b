import { changeText, type ChangeRow } from './change.js';

/**
 * The Server-Sent Events a change stream sends (docs/api.md, "Live feed"). Frames are bytes made
 * once: the feed writes the same Buffer to every subscriber of a change.
 */

/** Why a stream ends with `event: end` before the server closes it. */
export type StreamEndReason = 'slow_consumer' | 'access_revoked' | 'shutdown';

/** Why a stream starts with `event: resync`: the cursor it was given cannot be resumed from. */
export type ResyncReason = 'cursor_expired' | 'cursor_ahead';

/** `id: <seq>`, `event: <kind>`, `data: <change JSON>`: JSON text holds no newline, so one data line. */
export function changeFrame(row: ChangeRow): Buffer {
  return Buffer.from(`id: ${Number(row.seq)}\nevent: ${row.kind}\ndata: ${changeText(row)}\n\n`);
}

/**
 * The stream resumes after `nextAfter` (the last change committed when it opened): what lies
 * between the cursor and it is lost to this stream (expired) or unknown to this database (ahead).
 * Carries `id:` so that an EventSource reconnecting later resumes from there.
 */
export function resyncFrame(reason: ResyncReason, after: number, nextAfter: number): Buffer {
  return Buffer.from(`id: ${nextAfter}\nevent: resync\ndata: ${JSON.stringify({ reason, after, next_after: nextAfter })}\n\n`);
}

export function endFrame(reason: StreamEndReason): Buffer {
  return Buffer.from(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
}

/** A comment line: keeps proxies and clients from taking a quiet stream for a dead one. */
export const heartbeatFrame = Buffer.from(': heartbeat\n\n');

/** The first bytes of a stream, so that a client sees it open before any change. */
export const openedFrame = Buffer.from(': stream opened\n\n');
