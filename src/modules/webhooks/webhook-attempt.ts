import type { SecretBox } from '../../shared/secret-box.js';
import type { ChangeRow } from '../changes/change.js';
import { messageBody, messageIdOf } from './webhook-message.js';
import { signatureHeader } from './webhook-secret.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import type { WebhookRow } from './webhooks.repository.js';

/** The secrets that sign now: the current one, and the previous one while its 24 hours last. */
export function signingSecrets(webhook: WebhookRow, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(webhook.secret_sealed)];
  if (webhook.previous_secret_sealed && webhook.previous_secret_until && webhook.previous_secret_until > now.toISOString()) secrets.push(box.open(webhook.previous_secret_sealed));
  return secrets;
}

/** One POST of one change to one webhook, signed (Standard Webhooks v1), and what came of it. */
export async function attemptDelivery(webhook: WebhookRow, change: ChangeRow, deps: { box: SecretBox; sender: WebhookSender; now: Date }): Promise<SendResult & { ok: boolean }> {
  const body = messageBody(change);
  const id = messageIdOf(webhook.id, Number(change.seq));
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(deps.now.getTime() / 1000)),
    'webhook-signature': signatureHeader(signingSecrets(webhook, deps.box, deps.now), id, deps.now, body),
  };
  const result = await deps.sender.send(webhook.url, headers, body);
  return { ...result, ok: result.status !== null && result.status >= 200 && result.status < 300 };
}
