import type { ServerResponse } from 'node:http';
import type { ChangeRow } from './change.js';
import { changeFrame, endFrame, heartbeatFrame, type StreamEndReason } from './change-frames.js';

/** Which changes a stream carries: one table's, or every table's of one space. */
export type StreamFilter = { tableId: number } | { spaceId: number };

/** How a feed behaves (docs/decisions.md, "Live feed"); tests make the intervals tiny. */
export interface FeedSettings {
  /** A comment line at least this often (15 s). */
  heartbeatMs: number;
  /**
   * Bytes a subscriber may have waiting in its socket's buffer (1 MiB, never less than the
   * socket's own high-water mark): past it, it gets no more live changes until it drained.
   */
  maxBufferedBytes: number;
  /** How long a subscriber past the bound has to drain before it is dropped (TABULA_SEND_TIMEOUT, 30 s). */
  drainTimeoutMs: number;
  /** How often the metadata version is read; when it moved, every stream's access is checked again (5 s). */
  revalidateMs: number;
  /** Every stream's access is checked again at least this often, for what moves no version: expiry, logout (60 s). */
  recheckAllMs: number;
  /** Changes per read of the log (1000). */
  pageSize: number;
}

/** What a subscriber needs of its feed. */
export interface SubscriberHost {
  readonly settings: FeedSettings;
  /** The last seq committed (read before a page, so that a short page proves everything up to it was seen). */
  readHead(): Promise<number>;
  readPage(filter: StreamFilter, after: number, limit: number): Promise<ChangeRow[]>;
  /** Joins the live fan-out when nothing lies between the subscriber's cursor and the feed's; false: read on. */
  tryJoin(subscriber: ChangeSubscriber): boolean;
  /** Leaves the live fan-out (paused) or the feed (ended). */
  leaveLive(subscriber: ChangeSubscriber): void;
  remove(subscriber: ChangeSubscriber): void;
  log(message: string, error: unknown): void;
}

/** After a failed read of the log, the catch-up tries again this much later. */
const retryAfterFailureMs = 1000;

/**
 * Corks a stream for a run of frames that should leave in one socket write; the answer
 * uncorks it. `res.cork()` alone is not enough: Node's `ServerResponse.uncork` uncorks the socket
 * *before* sending the chunks it held (chunked encoding), so each frame became a write of its
 * own: a 1,000-change page, 1,000 syscalls. Measured with one console tab open during a
 * 100,000-row CSV import (bench/console-import-bench.ts): those writes were 35 % of the server's
 * CPU. Holding the socket corked once more until the response has sent its chunks makes them
 * one `writev`.
 */
export function corkStream(res: ServerResponse): () => void {
  const socket = res.socket;
  socket?.cork();
  res.cork();
  return () => {
    res.uncork();
    socket?.uncork();
  };
}

/**
 * One open stream. Modes: `catching-up` (reads the log itself from its cursor, the feed skips
 * it), `live` (the feed writes each new change to it), `paused` (its socket buffer passed the
 * bound: it gets nothing until it drains, then catches up from the log; no change is held for
 * it in memory), `ended`. `sent` is the seq of the last change it was sent (or, after a short
 * read, the head it has seen everything up to): every change above it still has to come.
 */
export class ChangeSubscriber {
  mode: 'catching-up' | 'live' | 'paused' | 'ended' = 'catching-up';
  /** Set while the feed has corked its socket for one page of fan-out: uncorks it. */
  uncork: (() => void) | null = null;
  /** The metadata version its access was last checked at (by the feed's re-check; -1: when it opened). */
  checkedVersion = -1;
  private drainTimer: NodeJS.Timeout | undefined;
  private readonly bound: number;

  constructor(
    private readonly host: SubscriberHost,
    readonly res: ServerResponse,
    readonly filter: StreamFilter,
    public sent: number,
    /** Subscribers of one credential and one scope share an access re-check. */
    readonly accessKey: string,
    /** Throws when the caller may no longer read what the stream carries. */
    readonly recheck: () => Promise<void>,
    private readonly onEnded: () => void,
  ) {
    this.bound = Math.max(host.settings.maxBufferedBytes, res.writableHighWaterMark);
    res.on('close', () => this.closed());
  }

  /** The feed's fan-out: one change's frame, the same Buffer for every subscriber. */
  deliver(seq: number, frame: Buffer): void {
    if (this.mode !== 'live' || seq <= this.sent) return;
    if (this.res.writableLength > this.bound) return this.pause();
    this.res.write(frame);
    this.sent = seq;
  }

  heartbeat(): void {
    if (this.mode === 'ended' || this.mode === 'paused') return;
    if (this.res.writableLength > this.bound) {
      if (this.mode === 'live') this.pause();
      return;
    }
    this.res.write(heartbeatFrame);
  }

  /** Reads its own pages of the log from `sent` until it can join the live fan-out. */
  async catchUp(): Promise<void> {
    const { pageSize } = this.host.settings;
    try {
      while (this.mode === 'catching-up') {
        const head = await this.host.readHead();
        const rows = await this.host.readPage(this.filter, this.sent, pageSize);
        if (!(await this.writeCatchUp(rows))) return;
        if (rows.length === pageSize) continue;
        // A short page read after the head was read: every change up to the head has been seen.
        this.sent = Math.max(this.sent, head);
        if (this.host.tryJoin(this)) return;
      }
    } catch (error) {
      if (this.mode !== 'catching-up') return;
      this.host.log('change stream: reading the log failed; trying again', error);
      setTimeout(() => void this.catchUp(), retryAfterFailureMs).unref();
    }
  }

  /** Writes one page of catch-up, waiting for the socket to drain past the bound; false once ended. */
  private async writeCatchUp(rows: readonly ChangeRow[]): Promise<boolean> {
    let uncork = corkStream(this.res);
    try {
      for (const row of rows) {
        if (this.mode !== 'catching-up') return false;
        if (this.res.writableLength > this.bound) {
          uncork();
          const drained = await this.drained();
          uncork = corkStream(this.res);
          if (!drained) return false;
        }
        this.res.write(changeFrame(row));
        this.sent = Number(row.seq);
      }
      return this.mode === 'catching-up';
    } finally {
      uncork();
    }
  }

  /** Resolves true once the socket drained; false when it closed, or did not drain in time (then it is dropped). */
  private drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const settle = (ok: boolean) => {
        clearTimeout(timer);
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => settle(true);
      const onClose = () => settle(false);
      const timer = setTimeout(() => {
        settle(false);
        this.end('slow_consumer');
      }, this.host.settings.drainTimeoutMs);
      this.res.on('drain', onDrain);
      this.res.on('close', onClose);
    });
  }

  /** Past the bound while live: no more live changes; it catches up from the log once drained, or is dropped. */
  private pause(): void {
    this.mode = 'paused';
    this.host.leaveLive(this);
    this.drainTimer = setTimeout(() => this.end('slow_consumer'), this.host.settings.drainTimeoutMs);
    this.res.once('drain', () => {
      if (this.mode !== 'paused') return;
      clearTimeout(this.drainTimer);
      this.mode = 'catching-up';
      void this.catchUp();
    });
  }

  /**
   * Ends the stream with `event: end` and closes it. The last frame passes the bound: it is a
   * few bytes. A client that does not take it within the drain timeout is cut off.
   */
  end(reason: StreamEndReason): void {
    if (this.mode === 'ended') return;
    this.leave();
    this.res.write(endFrame(reason));
    this.res.end();
    const grace = reason === 'shutdown' ? Math.min(1000, this.host.settings.drainTimeoutMs) : this.host.settings.drainTimeoutMs;
    setTimeout(() => {
      if (!this.res.writableFinished) this.res.destroy();
    }, grace).unref();
  }

  private closed(): void {
    if (this.mode !== 'ended') this.leave();
  }

  private leave(): void {
    if (this.mode === 'live') this.host.leaveLive(this);
    this.mode = 'ended';
    clearTimeout(this.drainTimer);
    this.host.remove(this);
    this.onEnded();
  }
}
