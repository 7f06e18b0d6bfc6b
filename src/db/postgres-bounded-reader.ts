import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { QueryTimeoutError } from '../shared/errors.js';
import { slotsOf, type BoundedReader, type QuerySlots } from './bounded-read.js';
import { translateDatabaseError } from './db-errors.js';
import { QueryGate, type QueryCaller } from './query-gate.js';

/**
 * Record queries on PostgreSQL run on a small pool of their own, whose connections carry
 * `statement_timeout`: however many heavy queries arrive, the main pool stays free for the
 * cheap calls, and PostgreSQL itself stops a statement at the budget (db-errors.ts makes its
 * error a QueryTimeoutError).
 */
export function createPostgresBoundedReader(url: string, options: QuerySlots): BoundedReader {
  // No parallel workers: a record query takes one core, so the slots (one per core) bound the
  // CPU that heavy queries can take from the cheap calls. With one worker each, four slow counts
  // made a get's p99 8.7–11.5× its p99 alone on two cores; with none, 4.5×, and 3.3–3.6× with
  // two slots (decisions.md, "Record queries within a time budget").
  // `statement_timeout` counts from the statement's start: a query's budget begins once it has its slot.
  // No JIT compilation: PostgreSQL compiles a statement whose estimated cost passes
  // `jit_above_cost` (100,000), 15-20 ms before it runs, and a count's window over the change log
  // (count-window.repository.ts) is estimated past it while it reads a few rows: a count after a
  // create took 25 ms instead of 2-3 (decisions.md, "No JIT for record queries"). A whole count of
  // 1,000,000 records ran no faster with it (385-410 ms against 371-372).
  const pool = new pg.Pool({ connectionString: url, max: slotsOf(options), statement_timeout: options.budgetMs, options: '-c max_parallel_workers_per_gather=0 -c jit=off' });
  pool.on('error', (error) => process.emitWarning(`PostgreSQL idle connection lost: ${error.message}`));
  const gate = new QueryGate(options.share, slotsOf(options), options.queueTimeoutMs);
  return {
    read<Row>(query: CompiledQuery<Row>, caller: QueryCaller): Promise<Row[]> {
      return gate.run(caller, async () => {
        try {
          return (await pool.query({ text: query.sql, values: query.parameters as unknown[] })).rows as Row[];
        } catch (error) {
          // The statement timeout is this reader's own budget; any other error is the error handler's to translate.
          const translated = translateDatabaseError(error, 'postgres', { queryTimeoutMs: options.budgetMs });
          throw translated instanceof QueryTimeoutError ? translated : error;
        }
      });
    },
    close: () => pool.end(),
  };
}
