import crypto from 'node:crypto';

/** A fresh id for a stored file: 128 random bits, the same in its path and its blob key. */
export function newFileId(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** The storage folder of a space's files: made by the service, never from user input. */
export function spaceFolder(spaceId: number): string {
  return `s${spaceId}`;
}

/**
 * The file name as a path segment: letters, digits, `.`, `_` and `-` only (anything else
 * becomes `_`), no leading dot, at most 100 characters, `file` when nothing is left.
 */
export function sanitiseFileName(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const cleaned = ascii.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(-100);
  return cleaned === '' ? 'file' : cleaned;
}

/** `/<folder>/<id>-<filename>`: the attachment's path, its only handle. */
export function attachmentPath(folder: string, id: string, name: string): string {
  return `/${folder}/${id}-${sanitiseFileName(name)}`;
}

/** The display name of an attachment: the original name, without control characters, at most 255 characters. */
export function cleanDisplayName(name: string | null | undefined, fallback: string): string {
  const cleaned = (name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned === '' ? fallback : cleaned;
}
