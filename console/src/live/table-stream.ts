import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../api/queries';
import { applyChange, freshStaleness, invalidateStale, type Change, type Staleness } from './change-cache';

/** Changes arriving within this long are applied as one refetch: a burst (an import, a batch) asks the server once. */
const settleMs = 100;
/** After the browser gave up on a stream (an error answer, not a dropped connection), wait this long before opening it again, doubling up to `retryMaxMs`. */
const retryFirstMs = 1_000;
const retryMaxMs = 30_000;
const changeKinds: Change['kind'][] = ['record.created', 'record.updated', 'record.deleted', 'record.restored', 'comment.created', 'comment.updated', 'comment.deleted'];

/**
 * One table's change feed, for as long as some view of it is open: an `EventSource` on
 * `/api/table/<tid>/changes/stream` whose changes are applied to the query cache.
 *
 * Resuming: a dropped connection is reopened by the browser itself with `Last-Event-ID` (the
 * last `id:` it saw), so nothing is lost. When the browser gives up (an error answer, e.g. a
 * restarting server's 502) or goes offline, the stream is opened again with `?after=<last seq>`.
 * A `resync` event (the cursor is older than the log) refetches every record query of the table.
 */
export class TableStream {
  private source: EventSource | null = null;
  private lastSeq: number | null = null;
  private stale: Staleness = freshStaleness();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = retryFirstMs;
  private stopped = false;
  private everOpened = false;
  /** Holds of `pause()` not yet released: while any, the stream stays closed. */
  private pauses = 0;

  constructor(
    private readonly queryClient: QueryClient,
    private readonly tid: number,
  ) {
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
    if (navigator.onLine) this.open();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    clearTimeout(this.retryTimer);
    clearTimeout(this.flushTimer);
    this.close();
  }

  /**
   * Closes the stream while the tab itself writes a burst (a CSV import): the tab is not sent
   * its own changes one by one, nor refetches its views every 100 ms meanwhile. `resume()`
   * reopens it at now, without a cursor, which refetches every record query of the table once:
   * what anyone changed meanwhile is in that refetch.
   */
  pause(): void {
    this.pauses += 1;
    clearTimeout(this.retryTimer);
    this.close();
  }

  resume(): void {
    this.pauses = Math.max(0, this.pauses - 1);
    if (this.pauses > 0) return;
    // Opened without a cursor after having been open, the stream refetches what happened meanwhile (onopen).
    this.lastSeq = null;
    this.everOpened = true;
    if (navigator.onLine) this.open();
  }

  private open(): void {
    if (this.stopped || this.pauses > 0 || this.source) return;
    const after = this.lastSeq === null ? '' : `?after=${this.lastSeq}`;
    const source = new EventSource(`/api/table/${this.tid}/changes/stream${after}`, { withCredentials: true });
    this.source = source;
    source.onopen = () => {
      this.retryMs = retryFirstMs;
      // A stream reopened without a cursor (no change seen yet) starts at now: what happened in between is refetched.
      if (this.everOpened && this.lastSeq === null) {
        this.stale.allRecords = true;
        this.flushSoon();
      }
      this.everOpened = true;
    };
    for (const kind of changeKinds) source.addEventListener(kind, this.onChange);
    source.addEventListener('resync', this.onResync);
    source.addEventListener('end', this.onEnd);
    source.onerror = () => {
      // CONNECTING: the browser reconnects by itself (with Last-Event-ID). CLOSED: it gave up.
      if (source.readyState === EventSource.CLOSED) this.reopenLater();
    };
  }

  private close(): void {
    this.source?.close();
    this.source = null;
  }

  private reopenLater(): void {
    this.close();
    clearTimeout(this.retryTimer);
    if (this.stopped || !navigator.onLine) return;
    this.retryTimer = setTimeout(() => this.open(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, retryMaxMs);
  }

  private remember(event: MessageEvent): void {
    const seq = Number(event.lastEventId);
    if (event.lastEventId !== '' && Number.isSafeInteger(seq)) this.lastSeq = seq;
  }

  private readonly onChange = (event: MessageEvent<string>) => {
    this.remember(event);
    const change = JSON.parse(event.data) as Change;
    if (change.table_id !== this.tid) return;
    applyChange(this.queryClient, this.tid, change, this.stale);
    this.flushSoon();
  };

  private readonly onResync = (event: MessageEvent<string>) => {
    this.remember(event);
    this.stale.allRecords = true;
    // Per-record data too: comments and history may have changed unseen.
    void this.queryClient.invalidateQueries({ queryKey: [...keys.table(this.tid), 'record'] });
    this.flushSoon();
  };

  private readonly onEnd = (event: MessageEvent<string>) => {
    const reason = (JSON.parse(event.data) as { reason?: string }).reason;
    // The caller lost access (or signed out): reopening would only be refused. Otherwise (shutdown, slow consumer) resume.
    if (reason === 'access_revoked') {
      this.close();
      void this.queryClient.invalidateQueries({ queryKey: keys.me });
    }
  };

  private readonly onOffline = () => this.close();
  private readonly onOnline = () => {
    this.retryMs = retryFirstMs;
    this.open();
  };

  private flushSoon(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const stale = this.stale;
      this.stale = freshStaleness();
      void invalidateStale(this.queryClient, this.tid, stale);
    }, settleMs);
  }
}
