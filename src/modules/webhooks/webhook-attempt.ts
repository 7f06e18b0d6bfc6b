import type { SecretBox } from '../../shared/secret-box.js';
import type { ChangeRow } from '../changes/change.js';
import { messageBody, messageIdOf } from './webhook-message.js';
import { signatureHeader } from './webhook-secret.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import type { WebhookRow } from './webhooks.repository.js';

/**
 * Secrets opened, by sealed value, per secret box: opening one (AES-256-GCM) is needed once per
 * secret, not once per attempt. The key is the sealed value itself, so a rotation (a new sealed
 * value on the row) is a new entry, never the old secret. Emptied when it reaches `maxOpened`.
 */
const opened = new WeakMap<SecretBox, Map<string, string>>();
const maxOpened = 1_000;

function openSecret(box: SecretBox, sealed: string): string {
  let secrets = opened.get(box);
  if (!secrets) opened.set(box, (secrets = new Map()));
  let secret = secrets.get(sealed);
  if (secret === undefined) {
    if (secrets.size >= maxOpened) secrets.clear();
    secret = box.open(sealed);
    secrets.set(sealed, secret);
  }
  return secret;
}

/** The secrets that sign now: the current one, and the previous one while its 24 hours last. */
export function signingSecrets(webhook: WebhookRow, box: SecretBox, now: Date): string[] {
  const secrets = [openSecret(box, webhook.secret_sealed)];
  if (webhook.previous_secret_sealed && webhook.previous_secret_until && webhook.previous_secret_until > now.toISOString()) secrets.push(openSecret(box, webhook.previous_secret_sealed));
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
