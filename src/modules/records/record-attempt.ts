import type { MetadataReads } from '../../db/metadata-cache.js';
import type { Actor } from '../auth/actor.js';
import type { RecordContexts } from './record-context.js';
import type { RecordTable } from './record-table.js';

/**
 * One attempt at a record call: the caller, the table and the metadata reads it relies on.
 * records.service opens it and runs the call again on fresh metadata when the first attempt
 * failed before any statement confirmed the metadata version (see `onTable` there).
 */
export interface Attempt {
  actor: Actor;
  table: RecordTable;
  reads: MetadataReads;
  contexts: RecordContexts;
}
