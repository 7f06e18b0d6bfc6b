/**
 * The error catalogue: every code the service answers (HTTP) or fails with (command line),
 * declared once with its HTTP status. Code throws `new XError(message, ErrorCode.someCode)`,
 * never a string of its own; an `AppError` takes its status from here. docs/errors.md lists
 * the same codes with the same statuses (test/unit/error-catalogue.test.ts holds them together).
 */
const catalogue = {
  // 400 Bad Request (the specification answers a missing record or an invisible table with 400)
  invalidParameters: { code: 'invalid_parameters', status: 400 },
  invalidJson: { code: 'invalid_json', status: 400 },
  invalidField: { code: 'invalid_field', status: 400 },
  invalidFieldValue: { code: 'invalid_field_value', status: 400 },
  requiredField: { code: 'required_field', status: 400 },
  invalidFieldDefinition: { code: 'invalid_field_definition', status: 400 },
  invalidFilter: { code: 'invalid_filter', status: 400 },
  invalidOrderBy: { code: 'invalid_order_by', status: 400 },
  responseTooLarge: { code: 'response_too_large', status: 400 },
  invalidTable: { code: 'invalid_table', status: 400 },
  recordNotFound: { code: 'record_not_found', status: 400 },
  ambiguousMatch: { code: 'ambiguous_match', status: 400 },
  commentNotFound: { code: 'comment_not_found', status: 400 },
  attachmentNotFound: { code: 'attachment_not_found', status: 400 },
  storageNotConfigured: { code: 'storage_not_configured', status: 400 },
  invalidUrl: { code: 'invalid_url', status: 400 },
  invalidIndex: { code: 'invalid_index', status: 400 },
  invalidCurrentPassword: { code: 'invalid_current_password', status: 400 },
  /** `files/thumbnail` of a file that is no image the server reads, or one too large to decode. */
  thumbnailUnavailable: { code: 'thumbnail_unavailable', status: 400 },
  /** A 4xx raised by Fastify that no other code covers: answered with Fastify's own status. */
  badRequest: { code: 'bad_request', status: 400 },

  // 401 Unauthorized
  missingApiKey: { code: 'missing_api_key', status: 401 },
  invalidApiKey: { code: 'invalid_api_key', status: 401 },
  ipNotAllowed: { code: 'ip_not_allowed', status: 401 },
  invalidSession: { code: 'invalid_session', status: 401 },
  invalidCredentials: { code: 'invalid_credentials', status: 401 },
  notLoggedIn: { code: 'not_logged_in', status: 401 },

  // 403 Forbidden
  forbidden: { code: 'forbidden', status: 403 },
  readOnlyKey: { code: 'read_only_key', status: 403 },
  readerRole: { code: 'reader_role', status: 403 },
  fieldNotEditable: { code: 'field_not_editable', status: 403 },
  adminRequired: { code: 'admin_required', status: 403 },
  accountKeyRequired: { code: 'account_key_required', status: 403 },
  apiKeysNotAllowed: { code: 'api_keys_not_allowed', status: 403 },
  ownerRequired: { code: 'owner_required', status: 403 },
  keyScopeExceeded: { code: 'key_scope_exceeded', status: 403 },

  // 404 Not Found
  notFound: { code: 'not_found', status: 404 },
  spaceNotFound: { code: 'space_not_found', status: 404 },
  tableNotFound: { code: 'table_not_found', status: 404 },
  fieldNotFound: { code: 'field_not_found', status: 404 },
  userNotFound: { code: 'user_not_found', status: 404 },
  memberNotFound: { code: 'member_not_found', status: 404 },
  keyNotFound: { code: 'key_not_found', status: 404 },
  accountNotFound: { code: 'account_not_found', status: 404 },
  fileNotFound: { code: 'file_not_found', status: 404 },
  notificationNotFound: { code: 'notification_not_found', status: 404 },
  indexNotFound: { code: 'index_not_found', status: 404 },
  webhookNotFound: { code: 'webhook_not_found', status: 404 },
  deliveryNotFound: { code: 'delivery_not_found', status: 404 },
  /** 404 `View not found` of the view calls; a query through such a view is the 500 `view_not_found`. */
  unknownView: { code: 'unknown_view', status: 404 },
  /** 404 `Not Authorized` of the view calls; a query through a view is the 500 `not_authorized`. */
  viewNotAuthorized: { code: 'view_not_authorized', status: 404 },
  /** Command line only: `--data` or DATABASE_URL names no existing Tabula database. */
  databaseNotFound: { code: 'database_not_found', status: 404 },

  // 405 Method Not Allowed: a known path asked with a method it does not take (answered with Allow)
  methodNotAllowed: { code: 'method_not_allowed', status: 405 },

  // 409 Conflict
  conflict: { code: 'conflict', status: 409 },
  emailTaken: { code: 'email_taken', status: 409 },
  accountExists: { code: 'account_exists', status: 409 },
  indexExists: { code: 'index_exists', status: 409 },
  indexInUse: { code: 'index_in_use', status: 409 },
  /** Command line only: `tabula serve` on a port another process listens on. */
  portInUse: { code: 'port_in_use', status: 409 },

  // 413, 415, 429
  payloadTooLarge: { code: 'payload_too_large', status: 413 },
  unsupportedMediaType: { code: 'unsupported_media_type', status: 415 },
  rateLimited: { code: 'rate_limited', status: 429 },
  /** A key or session already holds as many change streams as `TABULA_STREAMS_PER_KEY` allows. */
  tooManyStreams: { code: 'too_many_streams', status: 429 },

  // 500 (the specification's odd 500s, and the unexpected)
  internalError: { code: 'internal_error', status: 500 },
  viewNotFound: { code: 'view_not_found', status: 500 },
  notAuthorized: { code: 'not_authorized', status: 500 },

  // 502, 503, 504, 507: a file storage (managed, or a space's own server) failed the service
  storageFailed: { code: 'storage_failed', status: 502 },
  /** 503 with Retry-After, as a database that cannot be reached: a storage restarting is back soon. */
  storageUnavailable: { code: 'storage_unavailable', status: 503 },
  storageCredentialsRefused: { code: 'storage_credentials_refused', status: 502 },
  storageFileMissing: { code: 'storage_file_missing', status: 502 },
  storageTimeout: { code: 'storage_timeout', status: 504 },
  storageFull: { code: 'storage_full', status: 507 },

  // 503 Service Unavailable: worth trying again
  queryTimeout: { code: 'query_timeout', status: 503 },
  queryQueueTimeout: { code: 'query_queue_timeout', status: 503 },
  databaseBusy: { code: 'database_busy', status: 503 },
  databaseUnavailable: { code: 'database_unavailable', status: 503 },
  thumbnailQueueTimeout: { code: 'thumbnail_queue_timeout', status: 503 },
} as const satisfies Record<string, { code: string; status: number }>;

type Catalogue = typeof catalogue;
type Name = keyof Catalogue;

/** Any code of the catalogue. */
export type ErrorCode = Catalogue[Name]['code'];

/** The codes of the catalogue answered with `Status`: an error class accepts only the codes of its own status. */
export type ErrorCodeOf<Status extends number> = { [K in Name]: Catalogue[K]['status'] extends Status ? Catalogue[K]['code'] : never }[Name];

/** `ErrorCode.invalidTable` is `'invalid_table'`. */
export const ErrorCode = Object.freeze(Object.fromEntries(Object.entries(catalogue).map(([name, entry]) => [name, entry.code]))) as {
  readonly [K in Name]: Catalogue[K]['code'];
};

/** Every code with its status, in declaration order. */
export const errorCatalogue: ReadonlyMap<ErrorCode, number> = new Map(Object.values(catalogue).map((entry) => [entry.code, entry.status]));

export function statusOf(code: ErrorCode): number {
  return errorCatalogue.get(code)!;
}
