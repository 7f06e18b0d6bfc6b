/**
 * When a failed delivery is tried again (docs/operations.md, "Webhooks"): the n-th retry waits
 * `scheduleMs[n-1]` (the last entry once the list is used up), less a random part of up to
 * `jitter` of it, so that receivers coming back up are not hit by every sender at the same
 * instant; a `Retry-After` the receiver sent wins, up to `maxRetryAfterMs`.
 */
export interface RetrySettings {
  scheduleMs: readonly number[];
  /** 0–1: the share of a delay that is random. */
  jitter: number;
  maxRetryAfterMs: number;
}

export const defaultRetrySettings: RetrySettings = {
  scheduleMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 3600_000],
  jitter: 0.5,
  maxRetryAfterMs: 3600_000,
};

/** The delay before retry number `retry` (1 for the first), given the receiver's `Retry-After` header if any. */
export function retryDelayMs(settings: RetrySettings, retry: number, retryAfter: string | undefined, now: Date, random = Math.random): number {
  const asked = retryAfterMs(retryAfter, now);
  if (asked !== null) return Math.min(asked, settings.maxRetryAfterMs);
  const base = settings.scheduleMs[Math.min(retry, settings.scheduleMs.length) - 1] ?? 0;
  return Math.round(base * (1 - settings.jitter * random()));
}

/** `Retry-After` as seconds or as an HTTP date → milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
