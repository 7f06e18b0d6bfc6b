/** Injectable time source: tests fix it, production reads the system clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at.getTime()) };
}

/** The second formatDateTime last formatted (ms since the epoch / 1000, floored), and its text. */
let lastSecond = Number.NaN;
let lastText = '';

/**
 * `YYYY-MM-DD HH:MM:SS` in UTC: the one datetime format the service emits. A write formats the
 * clock's now twice or more, and the text changes once a second: the last second's is kept.
 */
export function formatDateTime(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  // An invalid date (NaN) never equals the kept second: toISOString throws for it, as it always did.
  if (second !== lastSecond) {
    lastText = date.toISOString().slice(0, 19).replace('T', ' ');
    lastSecond = second;
  }
  return lastText;
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
