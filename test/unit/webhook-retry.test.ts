import { describe, expect, it } from 'vitest';
import { parsePastedRequest } from '../../src/cli/webhook-request.js';
import { defaultRetrySettings, retryDelayMs } from '../../src/modules/webhooks/retry-schedule.js';

describe('webhook retry schedule', () => {
  const now = new Date('2026-11-26T10:00:00Z');

  it('waits the schedule less up to half of it at random: the first retry within 5 s, the second within 30 s', () => {
    expect(retryDelayMs(defaultRetrySettings, 1, undefined, now, () => 0)).toBe(5_000);
    expect(retryDelayMs(defaultRetrySettings, 1, undefined, now, () => 0.999)).toBeGreaterThanOrEqual(2_500);
    expect(retryDelayMs(defaultRetrySettings, 2, undefined, now, () => 0)).toBe(30_000);
    // Past the list, the last entry repeats.
    expect(retryDelayMs(defaultRetrySettings, 50, undefined, now, () => 0)).toBe(2 * 3600_000);
  });

  it('takes Retry-After in seconds or as an HTTP date, up to an hour, and ignores one it cannot read', () => {
    expect(retryDelayMs(defaultRetrySettings, 1, '120', now)).toBe(120_000);
    expect(retryDelayMs(defaultRetrySettings, 1, 'Thu, 26 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryDelayMs(defaultRetrySettings, 1, '86400', now)).toBe(3600_000);
    expect(retryDelayMs(defaultRetrySettings, 1, 'soon', now, () => 0)).toBe(5_000);
  });
});

describe('a pasted webhook request', () => {
  it('reads a raw request or curl -i output: headers by lowercase name, the body after the blank line as it is', () => {
    expect(parsePastedRequest('POST /hook HTTP/1.1\r\nWebhook-Id: msg_1_2\r\nContent-Type: application/json\r\n\r\n{"a":1}\n')).toEqual({ headers: { 'webhook-id': 'msg_1_2', 'content-type': 'application/json' }, body: '{"a":1}\n' });
    expect(parsePastedRequest('webhook-timestamp: 1\n\n{}')).toEqual({ headers: { 'webhook-timestamp': '1' }, body: '{}' });
  });
});
