import type { CallerProfile, ErrorExpectation, Identity } from './access-fixture.js';
import type { Outcome } from './access-matrix-runner.js';

/**
 * The records' access rule (CONTRACT §2, §4, §5; seed "Authentication"), shared by every matrix
 * of an endpoint that reads or writes the records of T1 (records, files, comments). Order of
 * checks: authentication (401) → visibility of the table (400 `Invalid Table`, exactly as for a
 * table that does not exist) → on a write, read-only key or reader role (403).
 */

export const invalidTable: ErrorExpectation = { status: 400, code: 'invalid_table', message: 'Invalid Table' };
export const readOnlyRefusal: ErrorExpectation = { status: 403, code: 'read_only_key', message: 'Read-only API key' };
export const readerRefusal: ErrorExpectation = { status: 403, code: 'reader_role', message: 'Readers cannot change records' };

/** Whether the caller sees table T1 (space S1 of account A) at all. */
export function seesT1(identity: Identity): boolean {
  return identity.account === 'A' && identity.roleInS1 !== null;
}

export function recordAccessOutcome(endpoint: { write: boolean }, caller: CallerProfile): Outcome {
  if (caller.authError) return caller.authError;
  const identity = caller.identity!;
  if (!seesT1(identity)) return invalidTable;
  if (endpoint.write && identity.readOnly) return readOnlyRefusal;
  if (endpoint.write && identity.roleInS1 === 'reader') return readerRefusal;
  return 'ok';
}
