import { changeText, type ChangeRow } from '../changes/change.js';

/** What a webhook listens to: kinds of change, and (when not empty) only changes touching these slugs. */
export interface WebhookFilter {
  events: readonly string[];
  fields: readonly string[];
}

/** Whether a change is for this webhook: its kind is listed and, with a `fields` filter, it touched one of them. */
export function matchesFilter(filter: WebhookFilter, row: ChangeRow): boolean {
  if (!filter.events.includes(row.kind)) return false;
  if (filter.fields.length === 0) return true;
  // The changed slugs sit at the start of the stored payload: `{"fields":[…],…}`.
  const changed = (JSON.parse(row.payload_json) as { fields: string[] }).fields;
  return changed.some((slug) => filter.fields.includes(slug));
}

/** `webhook-id`: one per change and webhook, the same on every retry, so receivers can drop duplicates. */
export function messageIdOf(webhookId: number, seq: number): string {
  return `msg_${webhookId}_${seq}`;
}

/**
 * The body sent for a change: `{type, timestamp, data}` (Standard Webhooks), built around the
 * change's stored text. The same bytes on every attempt; the signature covers exactly them.
 */
export function messageBody(row: ChangeRow): string {
  const timestamp = `${row.at.replace(' ', 'T')}Z`;
  return `{"type":${JSON.stringify(row.kind)},"timestamp":${JSON.stringify(timestamp)},"data":${changeText(row)}}`;
}
