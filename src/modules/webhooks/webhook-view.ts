import type { WebhookFilter } from './webhook-message.js';
import type { DeliveryRow, WebhookRow } from './webhooks.repository.js';

/** A webhook as the API shows it (never its secret). */
export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    table_id: row.table_id,
    url: row.url,
    ...filterOf(row),
    active: row.active === 1,
  };
}

export function filterOf(row: Pick<WebhookRow, 'events_json' | 'fields_json'>): WebhookFilter & { events: string[]; fields: string[] } {
  return { events: JSON.parse(row.events_json) as string[], fields: JSON.parse(row.fields_json) as string[] };
}

/** A delivery log entry as the API shows it. */
export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    seq: Number(row.seq),
    kind: row.kind,
    attempt: row.attempt,
    status: row.status as 'succeeded' | 'failed',
    response_code: row.response_code,
    duration_ms: row.duration_ms,
    error: row.error,
    at: row.at,
    next_attempt_at: row.next_attempt_at,
    response_body: row.response_body,
  };
}
