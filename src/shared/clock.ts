/** Injectable time source: tests fix it, production reads the system clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at.getTime()) };
}

/** `YYYY-MM-DD HH:MM:SS` in UTC: the one datetime format the service emits. */
export function formatDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
