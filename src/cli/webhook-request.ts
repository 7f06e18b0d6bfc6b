import { Webhook } from 'standardwebhooks';

/** A request as pasted: its headers (lowercase names) and its body, exactly as it followed the blank line. */
export interface PastedRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * Reads a request as an HTTP dump shows it (`curl -i`, a proxy's log, a raw request): an
 * optional request or status line, `Name: value` header lines, a blank line, the body. Line
 * ends may be CRLF or LF.
 */
export function parsePastedRequest(text: string): PastedRequest {
  const separator = /\r?\n\r?\n/.exec(text);
  const head = separator ? text.slice(0, separator.index) : text;
  const body = separator ? text.slice(separator.index + separator[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    // The request line (`POST /hook HTTP/1.1`) or a status line has no `name:` before a space.
    if (colon <= 0 || /\s/.test(line.slice(0, colon))) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/**
 * Whether the pasted request carries a valid Standard Webhooks signature by `secret`, as the
 * `standardwebhooks` package (what receivers use) decides; its reason when not. A body that a
 * terminal ended with one more newline is tried without it too.
 */
export function verifyPastedRequest(secret: string, request: PastedRequest): { valid: true; id: string; type: unknown } | { valid: false; reason: string } {
  const missing = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((name) => !request.headers[name]);
  if (missing.length > 0) return { valid: false, reason: `missing header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` };
  let verifier: Webhook;
  try {
    verifier = new Webhook(secret);
  } catch (error) {
    return { valid: false, reason: `the secret is not a whsec_… secret (${(error as Error).message})` };
  }
  const bodies = [request.body, ...(/\r?\n$/.test(request.body) ? [request.body.replace(/\r?\n$/, '')] : [])];
  let reason = '';
  for (const body of bodies) {
    try {
      const message = verifier.verify(body, request.headers) as { type?: unknown };
      return { valid: true, id: request.headers['webhook-id'], type: message?.type };
    } catch (error) {
      reason ||= (error as Error).message;
    }
  }
  return { valid: false, reason };
}
