/** An attachment as read and as stored in a file field's JSON array. */
export interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
  host: string;
}

/**
 * One item of a file field write, as `toStored` checked it: an attachment object already
 * stored (named by its path), a URL to fetch, or inline base64 data. The files capability turns
 * each into a stored attachment before the write (the type's `prepare`).
 */
export type AttachmentInput =
  | { kind: 'stored'; path: string }
  | { kind: 'url'; url: string; name: string | null; type: string | null }
  | { kind: 'inline'; data: string; name: string | null; type: string | null };

/** A stored file field value (null, or an array read from the column) → its attachments. */
export function attachmentsOf(stored: unknown): Attachment[] {
  return Array.isArray(stored) ? (stored as Attachment[]) : [];
}
