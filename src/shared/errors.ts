import { ErrorCode, statusOf, type ErrorCodeOf } from './error-codes.js';

export { ErrorCode, type ErrorCodeOf } from './error-codes.js';

/**
 * The one error family of the service. Services throw these; the HTTP error handler maps
 * them to `{error:{code,message}}` with `status`. Every code, and its status, is declared once
 * in error-codes.ts (the catalogue) and listed in docs/errors.md.
 */
export class AppError extends Error {
  readonly status: number;
  /** Seconds a client should wait before trying again: sent as `Retry-After`. */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
    this.status = statusOf(code);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, code: ErrorCodeOf<400> = ErrorCode.invalidParameters) {
    super(code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Invalid API key', code: ErrorCodeOf<401> = ErrorCode.invalidApiKey) {
    super(code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden', code: ErrorCodeOf<403> = ErrorCode.forbidden) {
    super(code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', code: ErrorCodeOf<404> = ErrorCode.notFound) {
    super(code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: ErrorCodeOf<409> = ErrorCode.conflict, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor() {
    super(ErrorCode.payloadTooLarge, 'Payload Too Large');
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Content-Type must be application/json') {
    super(ErrorCode.unsupportedMediaType, message);
  }
}

export class RateLimitedError extends AppError {
  constructor(override readonly retryAfterSeconds: number) {
    super(ErrorCode.rateLimited, 'Rate limit exceeded');
  }
}

/** Change streams are capped per key or session (per process): one more waits for one to close. */
export class TooManyStreamsError extends AppError {
  constructor(readonly cap: number) {
    super(ErrorCode.tooManyStreams, `Too many open change streams: this key or session already has ${cap} (TABULA_STREAMS_PER_KEY); close one first`);
  }
}

/** A record query that would run past its time budget: its statement is stopped and its slot freed. */
export class QueryTimeoutError extends AppError {
  constructor(
    readonly budgetMs: number,
    options?: { cause?: unknown },
  ) {
    super(ErrorCode.queryTimeout, `Query stopped: it would take longer than the ${budgetMs / 1000} s time budget (TABULA_QUERY_TIMEOUT). Narrow the filters, or index the fields they use`, options);
  }
}

/**
 * A record query that found no query slot within the queue bound (every slot busy with queries
 * of callers that had waited longer or run fewer): it never started, so it may simply be sent again.
 */
export class QueryQueueTimeoutError extends AppError {
  override readonly retryAfterSeconds = 1;

  constructor(readonly queueTimeoutMs: number) {
    super(ErrorCode.queryQueueTimeout, `Query not started: every query slot stayed busy for ${queueTimeoutMs / 1000} s (TABULA_QUERY_QUEUE_TIMEOUT); try again`);
  }
}

/**
 * A thumbnail to make found no thumbnail slot within the queue bound (every slot busy making
 * others): nothing was done, so the same request may simply be sent again.
 */
export class ThumbnailQueueTimeoutError extends AppError {
  override readonly retryAfterSeconds = 1;

  constructor(readonly queueTimeoutMs: number) {
    super(ErrorCode.thumbnailQueueTimeout, `Thumbnail not made: every thumbnail slot stayed busy for ${queueTimeoutMs / 1000} s; try again`);
  }
}

/**
 * The database refused a change because of a concurrent one (SQLite busy or locked past the
 * busy timeout; a PostgreSQL serialization failure or deadlock): nothing was written, and the
 * same request is likely to succeed a moment later.
 */
export class DatabaseBusyError extends AppError {
  override readonly retryAfterSeconds = 1;

  constructor(options?: { cause?: unknown }) {
    super(ErrorCode.databaseBusy, 'Database busy: the request met a concurrent change and was not applied; try again', options);
  }
}

/**
 * How long a client should wait before trying a call that needed a dependency it could not reach
 * (the database, a file storage): a restart takes seconds (docs/decisions.md, "Dependencies
 * stopped under load").
 */
export const unreachableRetryAfterSeconds = 2;

/** The database cannot be reached (connection refused, dropped, shut down, or not accepting connections). */
export class DatabaseUnavailableError extends AppError {
  override readonly retryAfterSeconds = unreachableRetryAfterSeconds;

  constructor(options?: { cause?: unknown }) {
    super(ErrorCode.databaseUnavailable, 'Database unavailable; try again later', options);
  }
}

/** The seed answers some authorisation failures of view queries with a 500 and this message. */
export class ViewNotAuthorizedError extends AppError {
  constructor() {
    super(ErrorCode.notAuthorized, 'Not Authorized');
  }
}

/** The seed answers a query through a missing or foreign view with a 500 `View not found`. */
export class ViewQueryNotFoundError extends AppError {
  constructor() {
    super(ErrorCode.viewNotFound, 'View not found');
  }
}
