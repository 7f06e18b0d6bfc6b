import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** How long a rotated-out secret keeps signing beside the new one. */
export const rotationOverlapMs = 24 * 3600 * 1000;

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (Standard Webhooks asks for 24–64). */
export function generateSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` header of one message: `v1,<signature>` for each secret, space
 * separated (the current secret first; during a rotation the previous one too). Signed by the
 * `standardwebhooks` package over exactly `body`, the text that is sent.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}
