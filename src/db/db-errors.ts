import { AppError, ConflictError, DatabaseBusyError, DatabaseUnavailableError, QueryTimeoutError } from '../shared/errors.js';
import type { DialectName } from './dialect.js';

/**
 * What the engines' errors mean, in one place. better-sqlite3 names its errors by SQLite's
 * extended result code (`SQLITE_CONSTRAINT_UNIQUE`); pg by PostgreSQL's SQLSTATE (`23505`), or
 * by Node's network error code when it cannot reach the server at all (`ECONNREFUSED`).
 */
export type DatabaseErrorKind = 'unique_violation' | 'foreign_key_violation' | 'busy' | 'statement_timeout' | 'unavailable';

/** Node's codes for a server that cannot be reached, or a connection that broke. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** pg's own errors (no SQLSTATE) for a connection that ended or could not be made in time. */
const pgConnectionMessages = [/^Connection terminated/, /^Client has encountered a connection error/, /^timeout expired$/];

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function sqliteKind(code: string): DatabaseErrorKind | null {
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique_violation';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'foreign_key_violation';
  // Busy past busy_timeout, or a table locked by another statement of the same connection.
  if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return 'busy';
  if (/^SQLITE_CANTOPEN(_|$)/.test(code)) return 'unavailable';
  return null;
}

function postgresKind(code: string): DatabaseErrorKind | null {
  if (code === '23505') return 'unique_violation';
  if (code === '23503') return 'foreign_key_violation';
  // serialization_failure, deadlock_detected, lock_not_available.
  if (code === '40001' || code === '40P01' || code === '55P03') return 'busy';
  // query_canceled: statement_timeout (or a cancel request).
  if (code === '57014') return 'statement_timeout';
  // Class 08 connection exceptions; admin/crash shutdown, cannot connect now; too many
  // connections; the database does not exist; the credentials are refused.
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code === '3D000' || code.startsWith('28')) return 'unavailable';
  return null;
}

/** Which kind of driver error this is, on `dialect`; null for anything else. */
export function classifyDatabaseError(error: unknown, dialect: DialectName): DatabaseErrorKind | null {
  if (error === null || typeof error !== 'object') return null;
  const code = codeOf(error);
  if (dialect === 'sqlite') return code ? sqliteKind(code) : null;
  if (code && networkCodes.has(code)) return 'unavailable';
  // Node tries each address of a host (::1, then 127.0.0.1) and reports all failures at once.
  if (error instanceof AggregateError && error.errors.length > 0 && error.errors.every((inner) => networkCodes.has(codeOf(inner) ?? ''))) return 'unavailable';
  if (code && /^[0-9A-Z]{5}$/.test(code)) return postgresKind(code);
  const message = (error as { message?: unknown }).message;
  if (!code && typeof message === 'string' && pgConnectionMessages.some((pattern) => pattern.test(message))) return 'unavailable';
  return null;
}

/** A unique constraint refused the row: a race between a check and an insert ends here. */
export function isUniqueViolation(error: unknown, dialect: DialectName): boolean {
  return classifyDatabaseError(error, dialect) === 'unique_violation';
}

/** SQLite's `indexed by` named an index that is gone (dropped since the caller chose it). */
export function isMissingSqliteIndex(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('no such index');
}

export interface TranslateOptions {
  /** The record query time budget, named by a statement timeout's message. */
  queryTimeoutMs: number;
}

/**
 * The error a client (HTTP) or an operator (command line) sees for a driver error: a 409, a
 * retryable 503 or the query budget's 503, with the driver's error as `cause` (for the log).
 * Undefined for anything that is not a known driver error: that stays a 500.
 */
export function translateDatabaseError(error: unknown, dialect: DialectName, options: TranslateOptions): AppError | undefined {
  if (error instanceof AppError) return error;
  const kind = classifyDatabaseError(error, dialect);
  const cause = { cause: error };
  switch (kind) {
    case 'unique_violation':
      return new ConflictError('Conflict: a value that must be unique is already in use (by a concurrent change?); read the current state and try again', undefined, cause);
    case 'foreign_key_violation':
      return new ConflictError('Conflict: the change refers to something that no longer exists (deleted by a concurrent change?); read the current state and try again', undefined, cause);
    case 'busy':
      return new DatabaseBusyError(cause);
    case 'statement_timeout':
      return new QueryTimeoutError(options.queryTimeoutMs, cause);
    case 'unavailable':
      return new DatabaseUnavailableError(cause);
    default:
      return undefined;
  }
}

/** One line on what the driver said, for an operator: `connect ECONNREFUSED 127.0.0.1:5432`. */
export function describeDriverError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0 && !error.message) return error.errors.map((inner) => describeDriverError(inner)).join('; ');
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  const text = code && !message.includes(code) ? `${message} (${code})` : message;
  return text.replace(/\s+/g, ' ').trim() || (code ?? 'unknown error');
}
