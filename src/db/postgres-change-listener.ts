import pg from 'pg';
import { changeLogChannel } from './dialect.js';

/** The first pause before connecting again after the connection dropped; it doubles up to `maxRetryMs`. */
const firstRetryMs = 100;
const maxRetryMs = 5000;

export interface ChangeListener {
  close(): Promise<void>;
}

/**
 * `LISTEN tabula_changes` on a connection of its own: it is held for the life of the process,
 * so it never comes from the query pool (where it would take a slot for ever, and a pooled
 * client may be handed to someone else). A wake-up carries nothing; the change log stays the
 * truth. Should the connection drop (a restart, a failover, a killed backend), it connects
 * again with backoff, and wakes the feed on every (re)connection: notifications sent while it
 * was away are lost, and the feed then reads what it missed from the log.
 */
export function listenForChangeLog(url: string, handlers: { onWake(): void; onError(error: Error): void }): ChangeListener {
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = firstRetryMs;
  let retryTimer: NodeJS.Timeout | undefined;

  const scheduleRetry = () => {
    if (closed) return;
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    // keepAlive: a connection silently cut (a firewall, a dead host) is noticed, not waited on for ever.
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on('notification', () => handlers.onWake());
    // 'error' on a live connection is followed by 'end', where the retry is scheduled.
    next.on('error', (error) => handlers.onError(error));
    next.on('end', () => {
      if (client !== next) return;
      client = null;
      scheduleRetry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${changeLogChannel}`);
    } catch (error) {
      handlers.onError(error as Error);
      next.end().catch(() => undefined);
      scheduleRetry();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = firstRetryMs;
    handlers.onWake();
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
