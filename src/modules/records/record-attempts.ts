import type { Database } from '../../db/database.js';
import { createMetadataReads, readMetadataVersion, type MetadataCache } from '../../db/metadata-cache.js';
import type { Clock } from '../../shared/clock.js';
import { QueryTimeoutError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import type { FileLedger } from '../fields/value-context.js';
import type { Attempt } from './record-attempt.js';
import { RecordContexts } from './record-context.js';
import { cachedRecordTable, loadRecordTable } from './record-table.js';
import { createTableSchemaCache } from './table-schema-cache.js';

/**
 * The attempt runner every record call goes through: it opens an attempt on cached metadata and,
 * when that attempt fails before confirming it, runs the call once more on metadata read afresh.
 */
export function createAttemptRunner(deps: { database: Database; clock: Clock; metadataCache: MetadataCache; files: FileLedger; strictConfirmation?: boolean }) {
  const { db } = deps.database;
  const schemaCache = createTableSchemaCache();

  async function openAttempt(actor: Actor, tableId: number, cached: boolean): Promise<Attempt> {
    const reads = createMetadataReads(deps.metadataCache, cached);
    reads.use(actor.metadataVersion);
    const table = cachedRecordTable(schemaCache, reads, actor, tableId) ?? (await loadRecordTable(db, schemaCache, reads, actor, tableId));
    return { actor, table, reads, contexts: new RecordContexts(deps.database, deps.clock, schemaCache, reads, actor, table, deps.files) };
  }

  /**
   * A call that answered on cached metadata without any statement confirming it could answer
   * for a key revoked or a member removed elsewhere: under `strictConfirmation` (the tests)
   * that fails loudly instead of passing unnoticed.
   */
  function settled<T>(attempt: Attempt, result: T, confirms: boolean): T {
    if (confirms && deps.strictConfirmation && !attempt.reads.confirmed) throw new Error('records call answered without confirming its metadata version');
    return result;
  }

  return {
    schemaCache,
    openAttempt,

    /**
     * Runs a record call on cached metadata (key, table, role, members, users, title columns),
     * which its statements confirm by reading the metadata version along with their data. If a
     * statement saw a newer version, or the call failed in any way before confirming (stale
     * metadata can cause a 4xx, or a statement naming a dropped column), it runs once more on
     * metadata read afresh, the key included: a key revoked by another process answers 401.
     */
    async onTable<T>(actor: Actor, tableId: number, call: (attempt: Attempt) => Promise<T>, confirms = true): Promise<T> {
      let first: Attempt | undefined;
      try {
        first = await openAttempt(actor, tableId, true);
        return settled(first, await call(first), confirms);
      } catch (error) {
        // Unconfirmed, nothing was written yet: any failure may come from stale metadata (a
        // dropped column in a cached field list fails the statement itself). A query over its
        // time budget is not run twice.
        if (first?.reads.confirmed || error instanceof QueryTimeoutError) throw error;
        const current = actor.refresh ? await actor.refresh() : actor;
        const second = await openAttempt(current, tableId, false);
        return settled(second, await call(second), confirms);
      }
    },

    /** Confirms the metadata relied on against the version now: writes do it just before writing. */
    async confirmCurrentMetadata(attempt: Attempt): Promise<void> {
      attempt.reads.confirm(await readMetadataVersion(db));
    },
  };
}

export type AttemptRunner = ReturnType<typeof createAttemptRunner>;
