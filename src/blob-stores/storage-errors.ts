import { AppError, ErrorCode, unreachableRetryAfterSeconds } from '../shared/errors.js';

/**
 * A storage that failed the service: refused, unreachable, too slow, or refusing the
 * credentials. Answered as 502/503/504/507 with a message that names the storage and what went
 * wrong, never the protocol's own error or a stack trace (that goes to the log with the cause).
 * One that cannot be reached (503) or did not answer in time (504) says when to try again.
 */
export class StorageError extends AppError {
  override readonly retryAfterSeconds = this.code === ErrorCode.storageUnavailable || this.code === ErrorCode.storageTimeout ? unreachableRetryAfterSeconds : undefined;
}

/** The metadata names a blob that its storage does not have (removed behind the service's back). */
export class BlobNotFoundError extends StorageError {
  constructor(label: string, key: string) {
    super(ErrorCode.storageFileMissing, `The file is missing from ${label} (${key})`);
  }
}

const unreachable = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);
const timedOut = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'TimeoutError', 'RequestTimeout']);
const credentialsRefused = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden', 'InvalidToken', 'ExpiredToken']);

function codeOf(error: unknown): string {
  const { code, name, Code } = (error ?? {}) as { code?: unknown; name?: unknown; Code?: unknown };
  for (const candidate of [code, Code, name]) if (typeof candidate === 'string' || typeof candidate === 'number') return String(candidate);
  return '';
}

/** The HTTP status of an HTTP storage's answer (the AWS SDK's `$metadata`), or 0. */
function httpStatusOf(error: unknown): number {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Any driver's failure → a StorageError naming `label`. The drivers call it once, around every
 * operation, so no protocol error reaches a client or the command line untranslated.
 */
export function translateStorageError(error: unknown, label: string): Error {
  if (error instanceof AppError) return error;
  const code = codeOf(error);
  const message = messageOf(error);
  const inner = error instanceof AggregateError ? error.errors.map(codeOf) : [];
  const wrap = (errorCode: ConstructorParameters<typeof StorageError>[0], text: string) => new StorageError(errorCode, text, { cause: error });
  if (unreachable.has(code) || (inner.length > 0 && inner.every((c) => unreachable.has(c)))) return wrap(ErrorCode.storageUnavailable, `Storage unavailable: ${label} cannot be reached (${code || inner[0]})`);
  if (timedOut.has(code) || /timed? ?out/i.test(message)) return wrap(ErrorCode.storageTimeout, `Storage timed out: ${label} did not answer in time`);
  // 401/403 counts by its status too: an answer to HEAD has no body, so no error code.
  if (credentialsRefused.has(code) || code === '530' || [401, 403].includes(httpStatusOf(error)) || /authentication|login incorrect|permission denied/i.test(message)) {
    return wrap(ErrorCode.storageCredentialsRefused, `Storage refused the credentials: ${label} (${code || 'authentication failed'})`);
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') return wrap(ErrorCode.storageFull, `Storage full: ${label} has no space left`);
  return wrap(ErrorCode.storageFailed, `Storage failed: ${label} (${code || message.slice(0, 120)})`);
}
