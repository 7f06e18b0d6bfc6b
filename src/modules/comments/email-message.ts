import crypto from 'node:crypto';
import { invalidParameters } from '../../shared/body-checks.js';
import { stripControlCharacters } from '../../shared/display-name.js';

/** An inbound e-mail as createEmailComment receives it, checked. */
export interface InboundEmail {
  from: { email: string; name: string | null };
  to: string[];
  subject: string;
  body: string;
  messageId: string;
  inReplyTo: string | null;
}

const address = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;
const invalid = invalidParameters;

function text(value: unknown, key: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${key} must be a string`);
  if (value.length > max) throw invalid(`${key} must be at most ${max} characters`);
  return value;
}

/** Checks an e-mail comment body (the attachments are the comment's business). */
export function parseInboundEmail(input: Record<string, unknown>, host: string): InboundEmail {
  const from = input.from;
  if (typeof from !== 'object' || from === null || Array.isArray(from)) throw invalid('from is required: {email, name?}');
  const fromEmail = (from as { email?: unknown }).email;
  if (typeof fromEmail !== 'string' || !address.test(fromEmail.trim())) throw invalid('from.email must be a valid e-mail address');
  const fromName = text((from as { name?: unknown }).name, 'from.name', 200);
  const unknownFrom = Object.keys(from).find((key) => key !== 'email' && key !== 'name');
  if (unknownFrom) throw invalid(`unknown property "from.${unknownFrom}"`);
  const to = input.to ?? [];
  if (!Array.isArray(to) || to.some((entry) => typeof entry !== 'string' || !address.test(entry.trim()))) throw invalid('to must be an array of e-mail addresses');
  if (to.length > 100) throw invalid('to takes at most 100 addresses');
  const subject = text(input.subject, 'subject', 1000) ?? '';
  const body = text(input.body, 'body', 1_000_000) ?? '';
  if (subject.trim() === '' && body.trim() === '') throw invalid('subject or body must not be empty');
  const messageId = text(input.messageId, 'messageId', 1000) ?? `<${crypto.randomUUID()}@${host}>`;
  const inReplyTo = text(input.inReplyTo, 'inReplyTo', 1000);
  return { from: { email: fromEmail.trim(), name: (fromName === null ? '' : stripControlCharacters(fromName)) || null }, to: (to as string[]).map((entry) => entry.trim()), subject, body, messageId, inReplyTo };
}

/** The display name of an e-mail comment: `Email: <address>`, or `Email: Name <address>`. */
export function emailAuthorName(email: InboundEmail): string {
  return email.from.name ? `Email: ${email.from.name} <${email.from.email}>` : `Email: ${email.from.email}`;
}

/** The whole message as RFC 5322 text (the archived `.eml`), attachments included. */
export async function composeEml(email: InboundEmail, date: Date, attachments: Array<{ filename: string; contentType: string; content: Buffer }>): Promise<Buffer> {
  // Loaded on first use: nodemailer (with file-type, loaded likewise, about 10 MB of memory) would
  // otherwise weigh on every process and command, most of which never compose a message.
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer/index.js');
  const composer = new MailComposer({
    from: email.from.name ? { name: email.from.name, address: email.from.email } : email.from.email,
    to: email.to,
    subject: email.subject,
    html: email.body,
    messageId: email.messageId,
    inReplyTo: email.inReplyTo ?? undefined,
    date,
    attachments,
  });
  return new Promise((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
}
