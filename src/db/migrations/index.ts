import type { Migration, MigrationProvider } from 'kysely';
import type { DialectName } from '../dialect.js';
import { foundationMigration } from './0001-foundation.js';
import { searchMigration } from './0002-search.js';
import { tableCountersMigration } from './0003-table-counters.js';
import { searchMergingMigration } from './0004-search-merging.js';
import { metadataVersionMigration } from './0005-metadata-version.js';
import { searchIndexWithoutPositionsMigration } from './0006-search-index-without-positions.js';
import { storedFilesMigration } from './0007-stored-files.js';
import { viewsMigration } from './0008-views.js';
import { commentsMigration } from './0009-comments.js';
import { indexOriginsMigration } from './0010-index-origins.js';
import { searchTextBesideRecordsMigration } from './0011-search-text-beside-records.js';
import { keyExpiryAndLastUseMigration } from './0012-key-expiry-and-last-use.js';
import { changesAndTrashMigration } from './0013-changes-and-trash.js';
import { changeQueueMigration } from './0014-change-queue.js';
import { webhooksMigration } from './0015-webhooks.js';
import { jobLeasesMigration } from './0016-job-leases.js';
import { changeQueueBatchesMigration } from './0017-change-queue-batches.js';
import { searchIndexCatchUpMigration } from './0018-search-index-catch-up.js';
import { countersCountWrittenRowsMigration } from './0019-counters-count-written-rows.js';
import { countersCountEachRowMigration } from './0020-counters-count-each-row.js';

/**
 * Migrations live in code (no file-system scanning), so the built binary carries them. They get
 * the engine's name only, never the Dialect: each carries its DDL as released.
 */
export function createMigrationProvider(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001-foundation': foundationMigration(dialect),
        '0002-search': searchMigration(dialect),
        '0003-table-counters': tableCountersMigration(dialect),
        '0004-search-merging': searchMergingMigration(dialect),
        '0005-metadata-version': metadataVersionMigration(dialect),
        '0006-search-index-without-positions': searchIndexWithoutPositionsMigration(dialect),
        '0007-stored-files': storedFilesMigration(),
        '0008-views': viewsMigration(dialect),
        '0009-comments': commentsMigration(dialect),
        '0010-index-origins': indexOriginsMigration(),
        '0011-search-text-beside-records': searchTextBesideRecordsMigration(dialect),
        '0012-key-expiry-and-last-use': keyExpiryAndLastUseMigration(),
        '0013-changes-and-trash': changesAndTrashMigration(dialect),
        '0014-change-queue': changeQueueMigration(dialect),
        '0015-webhooks': webhooksMigration(dialect),
        '0016-job-leases': jobLeasesMigration(dialect),
        '0017-change-queue-batches': changeQueueBatchesMigration(dialect),
        '0018-search-index-catch-up': searchIndexCatchUpMigration(dialect),
        '0019-counters-count-written-rows': countersCountWrittenRowsMigration(dialect),
        '0020-counters-count-each-row': countersCountEachRowMigration(dialect),
      };
    },
  };
}
