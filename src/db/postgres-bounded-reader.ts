import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { QueryTimeoutError } from '../shared/errors.js';
import { slotsPerCaller, type BoundedReader } from './bounded-read.js';
import { QueryGate } from './query-gate.js';

/** PostgreSQL's code for a statement cancelled by `statement_timeout`. */
const queryCanceled = '57014';

/**
 * Record queries on PostgreSQL run on a small pool of their own, whose connections carry
 * `statement_timeout`: however many heavy queries arrive, the main pool stays free for the
 * cheap calls, and PostgreSQL itself stops a statement at the budget.
 */
export function createPostgresBoundedReader(url: string, options: { slots: number; budgetMs: number }): BoundedReader {
  // No parallel workers: a record query takes at most one core, so the slots bound its CPU too
  // (with PostgreSQL's default of two workers per query, four heavy queries took every core).
  const pool = new pg.Pool({ connectionString: url, max: options.slots, statement_timeout: options.budgetMs, options: '-c max_parallel_workers_per_gather=0' });
  pool.on('error', (error) => process.emitWarning(`PostgreSQL idle connection lost: ${error.message}`));
  const gate = new QueryGate(options.slots, slotsPerCaller(options.slots), options.budgetMs);
  return {
    read<Row>(query: CompiledQuery<Row>, caller: string): Promise<Row[]> {
      return gate.run(caller, Date.now() + options.budgetMs, async () => {
        try {
          return (await pool.query({ text: query.sql, values: query.parameters as unknown[] })).rows as Row[];
        } catch (error) {
          if ((error as { code?: string }).code === queryCanceled) throw new QueryTimeoutError(options.budgetMs);
          throw error;
        }
      });
    },
    close: () => pool.end(),
  };
}
