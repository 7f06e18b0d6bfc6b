/**
 * The one error family of the service. Services throw these; the HTTP error handler maps
 * them to `{error:{code,message}}` with `status`. Codes are stable and listed in docs/errors.md.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, code = 'invalid_parameters') {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Invalid API key', code = 'invalid_api_key') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden', code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', code = 'not_found') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor() {
    super(413, 'payload_too_large', 'Payload Too Large');
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, 'unsupported_media_type', message);
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Rate limit exceeded');
  }
}

/** A record query that would run past its time budget: its statement is stopped and its slot freed. */
export class QueryTimeoutError extends AppError {
  constructor(readonly budgetMs: number) {
    super(503, 'query_timeout', `Query stopped: it would take longer than the ${budgetMs / 1000} s time budget (TABULA_QUERY_TIMEOUT). Narrow the filters, or index the fields they use`);
  }
}

/** The seed answers some authorisation failures of view queries with a 500 and this message. */
export class ViewNotAuthorizedError extends AppError {
  constructor() {
    super(500, 'not_authorized', 'Not Authorized');
  }
}

/** The seed answers a query through a missing or foreign view with a 500 `View not found`. */
export class ViewQueryNotFoundError extends AppError {
  constructor() {
    super(500, 'view_not_found', 'View not found');
  }
}
