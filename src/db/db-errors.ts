/**
 * Driver errors that mean "a unique constraint refused this row", on either engine: a race
 * between a check and an insert ends here and is answered like the check would have been.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
